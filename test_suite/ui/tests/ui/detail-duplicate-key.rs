use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Conflict, message = "stale")]
    A {
        #[envelope(detail = "v")]
        a: u32,
        #[envelope(detail = "v")]
        b: u32,
    },
}

fn main() {}
