use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(message = "no such table")]
    TableNotFound,
}

fn main() {}
