use envelope::Envelope;

#[derive(Debug, Envelope)]
enum ScriptError {
    #[envelope(class = Runtime, message = "the script failed")]
    Failed,
}

fn main() {}
