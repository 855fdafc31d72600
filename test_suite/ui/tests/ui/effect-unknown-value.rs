use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Internal, effect = rolled_back)]
    Failed,
    #[envelope(class = Internal, effect = "unknown")]
    Quoted,
}

fn main() {}
