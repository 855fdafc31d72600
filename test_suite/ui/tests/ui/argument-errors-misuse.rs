use envelope::{ArgumentError, Envelope};

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments)]
    TwoFields {
        #[envelope(argument_errors)]
        first: Vec<ArgumentError>,
        #[envelope(argument_errors)]
        second: Vec<ArgumentError>,
    },
    #[envelope(class = InvalidArguments)]
    OneFieldTwice(#[envelope(argument_errors, argument_errors)] Vec<ArgumentError>),
    #[envelope(class = InvalidArguments)]
    Text {
        #[envelope(argument_errors)]
        problem: String,
    },
    #[envelope(transparent)]
    Wrapped(#[envelope(argument_errors)] ArgumentError),
}

fn main() {}
