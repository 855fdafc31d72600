use envelope::Envelope;

#[derive(Debug, Envelope)]
#[envelope(crate = "not a path!", class = Internal)]
struct E;

fn main() {}
