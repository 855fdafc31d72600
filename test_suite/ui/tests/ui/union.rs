use envelope::Envelope;

#[derive(Envelope)]
union U {
    a: u32,
    b: f32,
}

fn main() {}
