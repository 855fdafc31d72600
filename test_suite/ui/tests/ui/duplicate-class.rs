use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal, class = Busy)]
    A,
}

fn main() {}
