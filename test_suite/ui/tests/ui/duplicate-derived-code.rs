use envelope::Envelope;

#[derive(Debug, Envelope)]
#[allow(non_camel_case_types)]
enum E {
    #[envelope(class = Internal)]
    HttpError,
    #[envelope(class = Internal)]
    Http_Error,
}

fn main() {}
