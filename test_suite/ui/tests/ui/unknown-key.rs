use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal, zzzzzz = 1)]
    A,
}

fn main() {}
