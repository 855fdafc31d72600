use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal, message = "a")]
    #[envelope(message = "b")]
    A,
}

fn main() {}
