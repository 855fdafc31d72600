use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, message = "bad {name.len()}")]
    A { name: String },
}

fn main() {}
