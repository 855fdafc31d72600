use envelope::Envelope;

#[derive(Debug)]
struct Plain;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(transparent)]
    A(Plain),
}

fn main() {}
