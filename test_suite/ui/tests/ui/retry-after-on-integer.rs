use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Busy)]
    A {
        #[envelope(retry_after)]
        wait: u64,
    },
}

fn main() {}
