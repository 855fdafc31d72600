use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Busy, retry_after_ms = 2 * 250)]
    A,
}

fn main() {}
