use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope = "Internal"]
    A,
}

fn main() {}
