use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(transparent, message = "wrapped")]
    A(envelope::ErrorEnvelope),
}

fn main() {}
