use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFound, message = "no {zzzz}")]
    Missing { table: String, schema: String },
}

fn main() {}
