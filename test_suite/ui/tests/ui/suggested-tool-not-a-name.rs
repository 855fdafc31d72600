use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFound, suggested_tool = nothing)]
    Missing,
    #[envelope(class = Busy, suggested_tool = 5)]
    Busy,
}

fn main() {}
