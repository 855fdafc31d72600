use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, message = "bad {1}")]
    A(String),
}

fn main() {}
