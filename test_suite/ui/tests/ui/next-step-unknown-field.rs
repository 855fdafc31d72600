use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, message = "bad", next_step = "retry with {limit}")]
    A { limt: u32 },
}

fn main() {}
