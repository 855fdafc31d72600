use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, argument(path = "/tag", kind = unknown_varient))]
    Typo,
    #[envelope(class = InvalidArguments, argument(path = "/tag", kind = "missing"))]
    Quoted,
    #[envelope(class = InvalidArguments, argument(path = "/tag", kind = UnknownVariant))]
    RustName,
}

fn main() {}
