use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Busy, retry_after_ms = 500u64)]
    Busy,
}

fn main() {}
