use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFound, message = "missing")]
    A {
        #[envelope(fuzzy_matches)]
        candidates: std::collections::HashMap<String, u32>,
    },
}

fn main() {}
