use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Busy)]
    A {
        #[envelope(retry_after_ms = 5)]
        wait: u64,
    },
}

fn main() {}
