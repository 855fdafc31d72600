use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(clas = Internal)]
    A,
}

fn main() {}
