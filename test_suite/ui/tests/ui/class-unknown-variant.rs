use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Unknown)]
    A,
}

fn main() {}
