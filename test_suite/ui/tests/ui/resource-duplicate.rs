use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(transparent, resource = server)]
    #[envelope(resource = caller)]
    Io(std::io::Error),
}

fn main() {}
