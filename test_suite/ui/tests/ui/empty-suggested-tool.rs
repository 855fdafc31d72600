use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFound, suggested_tool = "", next_step = " ")]
    A,
}

fn main() {}
