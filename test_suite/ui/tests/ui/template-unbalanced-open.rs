use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, message = "bad {0")]
    A(String),
}

fn main() {}
