use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal, ora_code = "x")]
    A,
}

fn main() {}
