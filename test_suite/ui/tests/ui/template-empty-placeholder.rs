use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, message = "bad {}")]
    A(String),
}

fn main() {}
