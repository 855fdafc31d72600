use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, message = "bad {1}")]
    A { x: u8, y: u8 },
}

fn main() {}
