use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal)]
    _0,
}

fn main() {}
