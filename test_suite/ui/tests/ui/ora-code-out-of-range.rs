use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal, ora_code = 99999999999)]
    A,
}

fn main() {}
