use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = UserErrorCategory::Busy)]
    Busy,
    #[envelope(class = ObjectNotFound, category = ErrorClass::NotFound)]
    Missing,
}

fn main() {}
