use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(transparent, resource = servr)]
    Typo(std::io::Error),
    #[envelope(transparent, resource = "server")]
    Quoted(std::io::Error),
    #[envelope(transparent, resource = user)]
    User(std::io::Error),
}

fn main() {}
