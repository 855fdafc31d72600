use envelope::Envelope;

#[derive(Debug, Envelope)]
#[envelope(class = InvalidArguments, message = "bad value {0}")]
#[repr(C, packed)]
struct Packed(u32);

fn main() {}
