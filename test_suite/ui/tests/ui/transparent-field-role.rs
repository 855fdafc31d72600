use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(transparent)]
    A(#[envelope(detail)] envelope::ErrorEnvelope),
}

fn main() {}
