use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = foo::bar::Conflict<u8>)]
    A,
}

fn main() {}
