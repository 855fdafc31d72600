use envelope::Envelope;

#[derive(Debug, Envelope)]
#[envelope(class = Busy, retry_after_ms = 500)]
enum E {
    Locked,
}

fn main() {}
