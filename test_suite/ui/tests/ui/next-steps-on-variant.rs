use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFound, message = "missing", next_steps = "call list_tables")]
    Missing,
}

fn main() {}
