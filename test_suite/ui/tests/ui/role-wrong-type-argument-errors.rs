use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments)]
    Strings {
        #[envelope(argument_errors)]
        problems: Vec<String>,
    },
}

fn main() {}
