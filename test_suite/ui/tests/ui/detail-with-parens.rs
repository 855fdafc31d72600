use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Conflict, message = "stale")]
    A {
        #[envelope(detail("k"))]
        v: u32,
    },
}

fn main() {}
