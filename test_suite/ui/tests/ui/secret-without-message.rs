use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Unauthenticated)]
    Login {
        user: String,
        #[envelope(secret)]
        password: String,
    },
}

fn main() {}
