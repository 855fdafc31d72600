use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(transparent = true)]
    A(envelope::ErrorEnvelope),
}

fn main() {}
