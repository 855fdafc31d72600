use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal, code = "lease-required")]
    A,
}

fn main() {}
