use envelope::Envelope;

#[derive(Debug, Envelope)]
#[envelope(message = "no class")]
struct E;

fn main() {}
