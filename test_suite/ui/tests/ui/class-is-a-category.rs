use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = NotFound)]
    A,
}

fn main() {}
