use envelope::{ArgumentError, Envelope};

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = PreconditionFailed, argument(path = "/lease", kind = missing))]
    Declared,
    #[envelope(class = Conflict, message = "changed")]
    Field {
        #[envelope(argument_errors)]
        problems: Vec<ArgumentError>,
    },
}

fn main() {}
