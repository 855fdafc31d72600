use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, message = "bad")]
    A {
        #[envelope(ora_code)]
        code: u64,
    },
}

fn main() {}
