use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal, code_prefix = "X_")]
    A,
}

fn main() {}
