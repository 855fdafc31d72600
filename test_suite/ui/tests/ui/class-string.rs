use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = "ObjectNotFound")]
    A,
}

fn main() {}
