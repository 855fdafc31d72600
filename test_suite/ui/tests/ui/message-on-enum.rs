use envelope::Envelope;

#[derive(Debug, Envelope)]
#[envelope(class = Internal, message = "everything failed")]
enum E {
    A,
}

fn main() {}
