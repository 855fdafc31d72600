use envelope::Envelope;

#[derive(Debug, Envelope)]
#[envelope(code_prefix = "x")]
enum E {
    #[envelope(clas = Internal)]
    A,
    #[envelope(class = Busy, message = "busy {missing}")]
    B,
    #[envelope(class = Internal, code = "C")]
    C,
    #[envelope(class = Internal, code = "C")]
    D,
}

fn main() {}
