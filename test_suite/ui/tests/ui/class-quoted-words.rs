use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = "object not found")]
    A,
}

fn main() {}
