use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = InvalidArguments, message = "{a_really_long_field_name} then {other:?x} here")]
    A {
        a_really_long_field_name: String,
        other: String,
    },
}

fn main() {}
