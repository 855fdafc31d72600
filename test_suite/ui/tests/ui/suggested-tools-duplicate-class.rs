use envelope::Envelope;

#[derive(Debug, Envelope)]
#[envelope(suggested_tools(ObjectNotFound = "list_tables", ObjectNotFound = "search"))]
enum E {
    #[envelope(class = ObjectNotFound)]
    Missing,
}

fn main() {}
