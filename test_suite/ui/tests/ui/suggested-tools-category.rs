use envelope::Envelope;

#[derive(Debug, Envelope)]
#[envelope(suggested_tools(NotFound = "search", MissingContext = "ask_user"))]
enum E {
    #[envelope(class = ObjectNotFound, message = "missing")]
    Missing,
}

fn main() {}
