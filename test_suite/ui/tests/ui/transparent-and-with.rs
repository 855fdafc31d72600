use envelope::Envelope;

fn build(_: &u32) -> envelope::ErrorEnvelope {
    envelope::ErrorEnvelope::new(envelope::ErrorClass::Internal, "x")
}

#[derive(Debug, Envelope)]
enum E {
    #[envelope(transparent, with = build)]
    A(u32),
}

fn main() {}
