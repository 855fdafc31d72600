use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ConnectionFailed, retryable = "no")]
    BadCredential,
    #[envelope(class = Busy, idempotent = true)]
    Full,
}

fn main() {}
