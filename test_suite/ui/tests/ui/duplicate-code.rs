use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal, code = "BROKEN")]
    First,
    #[envelope(class = Internal, code = "BROKEN")]
    Second,
}

fn main() {}
