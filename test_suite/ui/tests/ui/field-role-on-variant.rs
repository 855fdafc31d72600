use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFound, fuzzy_matches)]
    A { candidates: Vec<String> },
}

fn main() {}
