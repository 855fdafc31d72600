use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFund)]
    A,
}

fn use_it(e: E) -> envelope::ErrorEnvelope {
    let _ = envelope::Envelope::error_class(&e);
    e.into()
}

fn main() {
    let _ = use_it;
}
