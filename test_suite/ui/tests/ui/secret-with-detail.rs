use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Unauthenticated, message = "login failed")]
    Login {
        #[envelope(secret, detail)]
        password: String,
    },
}

fn main() {}
