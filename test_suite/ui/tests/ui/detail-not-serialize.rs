use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal, message = "read failed")]
    Read {
        #[envelope(detail)]
        source: std::io::Error,
    },
}

fn main() {}
