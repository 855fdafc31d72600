use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, message = "bad")]
    A {
        #[envelope(class = Internal)]
        field: u32,
    },
}

fn main() {}
