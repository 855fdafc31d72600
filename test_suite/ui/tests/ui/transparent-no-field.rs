use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(transparent)]
    A,
}

fn main() {}
