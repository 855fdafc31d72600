use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(transparent)]
    A(envelope::ErrorEnvelope, u32),
}

fn main() {}
