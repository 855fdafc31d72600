use envelope::Envelope;

#[derive(Debug, Envelope)]
#[envelope(suggested_tools(ObjectNotFund = "inspect"))]
enum E {
    #[envelope(class = ObjectNotFound)]
    A,
}

fn main() {}
