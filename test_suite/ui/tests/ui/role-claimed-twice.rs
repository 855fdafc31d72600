use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFound, message = "missing")]
    A {
        #[envelope(fuzzy_matches)]
        first: Vec<String>,
        #[envelope(fuzzy_matches)]
        second: Vec<String>,
    },
}

fn main() {}
