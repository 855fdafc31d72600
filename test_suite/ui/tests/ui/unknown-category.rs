use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, category = Validaton)]
    A,
}

fn main() {}
