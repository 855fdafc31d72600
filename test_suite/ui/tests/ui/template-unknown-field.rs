use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFound, message = "no object {nme}")]
    A { name: String },
}

fn main() {}
