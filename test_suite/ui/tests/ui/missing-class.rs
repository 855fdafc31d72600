use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(message = "no class")]
    NoClass,
}

fn main() {}
