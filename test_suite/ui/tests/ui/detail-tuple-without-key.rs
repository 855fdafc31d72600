use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Conflict, message = "stale")]
    A(#[envelope(detail)] u32),
}

fn main() {}
