use envelope::Envelope;

#[derive(Debug, Envelope)]
enum E {
    #[envelope(class = ObjectNotFound)]
    Near {
        #[envelope(fuzzy_matches)]
        near: u32,
    },
    #[envelope(class = ObjectNotFound)]
    Steps {
        #[envelope(next_steps)]
        steps: bool,
    },
    #[envelope(class = Busy)]
    Ms {
        #[envelope(retry_after_ms)]
        wait: &'static str,
    },
    #[envelope(class = Busy)]
    Ora {
        #[envelope(ora_code)]
        code: String,
    },
    #[envelope(class = ObjectNotFound)]
    Tools {
        #[envelope(suggested_tool)]
        tools: Vec<String>,
    },
    #[envelope(class = ObjectNotFound)]
    Tool {
        #[envelope(suggested_tool)]
        tool: u8,
    },
    #[envelope(class = InvalidArguments)]
    Count {
        #[envelope(argument_errors)]
        count: u16,
    },
    #[envelope(class = InvalidArguments)]
    Flag {
        #[envelope(argument_errors)]
        flag: bool,
    },
}

fn main() {}
