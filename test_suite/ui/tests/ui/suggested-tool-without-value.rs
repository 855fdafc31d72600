use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFound, suggested_tool)]
    A,
}

fn main() {}
