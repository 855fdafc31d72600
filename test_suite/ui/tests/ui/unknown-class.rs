use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFund)]
    A,
}

fn main() {}
