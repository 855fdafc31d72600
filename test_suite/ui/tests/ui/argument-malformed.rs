use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, argument(kind = missing))]
    NoPath,
    #[envelope(class = InvalidArguments, argument())]
    Empty,
    #[envelope(class = InvalidArguments, argument = "/tag")]
    NotAList,
    #[envelope(class = InvalidArguments, argument(pth = "/tag", path = "/tag", kind = missing))]
    UnknownKey,
    #[envelope(class = InvalidArguments, argument(path = "/tag", kind = missing, kind = other))]
    TwiceKind,
    #[envelope(class = InvalidArguments, argument(path = "tag", kind = missing))]
    NotAPointer,
    #[envelope(class = InvalidArguments, argument(path = "/tag", kind = unknown_variant, suggestions = knwn))]
    UnknownField { known: Vec<String> },
    #[envelope(class = InvalidArguments, argument(path = "/tag", kind = unknown_variant, suggestions = values))]
    NoFields,
    #[envelope(class = InvalidArguments, argument(path = "/tag", kind = unknown_variant, suggestions = zzzzzz))]
    FarField { known: Vec<String> },
    #[envelope(class = InvalidArguments, argument(path = "/tag", kind = missing, expectd = "a tag", suggestions = nothing))]
    OneMistakeOnce,
}

#[derive(Debug, Envelope)]
#[envelope(class = InvalidArguments, argument(path = "/tag", kind = missing))]
enum OnTheEnum {
    Tag,
}

fn main() {}
