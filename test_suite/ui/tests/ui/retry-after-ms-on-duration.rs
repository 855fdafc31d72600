use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Busy)]
    A {
        #[envelope(retry_after_ms)]
        wait: std::time::Duration,
    },
}

fn main() {}
