use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Timeout, retryable = true, message = "the insert timed out")]
    InsertTimeout,
    #[envelope(class = InvalidArguments, effect = partial, retryable = true, message = "half done")]
    Half,
}

fn main() {}
