use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = Unauthenticated, message = "login {user} / {password}")]
    Login {
        user: String,
        #[envelope(secret)]
        password: String,
    },
}

fn main() {}
