use envelope::Envelope;

fn build(_: &String) -> envelope::ErrorEnvelope {
    envelope::ErrorEnvelope::new(envelope::ErrorClass::Internal, "x")
}

#[derive(Debug, Envelope)]
enum E {
    #[envelope(with = build)]
    A(u32),
}

fn main() {}
