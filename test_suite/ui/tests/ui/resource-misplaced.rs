use envelope::{Envelope, ErrorEnvelope};

#[derive(Debug, Envelope)]
#[envelope(resource = server)]
enum OnTheEnum {
    #[envelope(transparent)]
    Io(std::io::Error),
}

#[derive(Debug, Envelope)]
enum OnAPlainVariant {
    #[envelope(class = ObjectNotFound, resource = server, message = "no such note")]
    Missing,
}

fn build(_: &String) -> ErrorEnvelope {
    unimplemented!()
}

#[derive(Debug, Envelope)]
enum OnAWithVariant {
    #[envelope(with = build, resource = server)]
    Built(String),
}

fn main() {}
