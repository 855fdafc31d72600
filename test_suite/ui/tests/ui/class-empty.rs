use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = , message = "x")]
    A,
}

fn main() {}
