//! The execution errors of a code-mode MCP server, ported to
//! `#[derive(Envelope)]`.
//!
//! In code mode the model writes a script, `validate_code` checks it and
//! returns an HMAC-signed approval token bound to the code's hash, and
//! `execute_code` runs the script when given that token. The variants below
//! are those of `pmcp-code-mode`'s `ExecutionError`; the point of the port is
//! who owns each failure:
//!
//! - token, hash, user and context mismatches, a refused outbound request
//!   and a script that does not compile are the caller's to fix: they become
//!   caller-owned classes, with `validate_code` as the tool to call next;
//! - only a backend failure, a timeout and a runtime fault are the
//!   server's, and their messages are the class's generic text, so backend
//!   host names or stack traces never reach the model;
//! - tokens and hashes are `secret`: never rendered, whatever `Display`
//!   prints for the logs.
//!
//! Run it with `cargo run --example code_mode`.

use envelope::{Envelope, ErrorEnvelope, Owner};

/// Why `execute_code` did not run a script, or did not finish it.
#[derive(Debug, thiserror::Error, Envelope)]
#[envelope(suggested_tools(
    Unauthenticated = "validate_code",
    PreconditionFailed = "validate_code",
    Conflict = "validate_code",
    PolicyDenied = "validate_code",
    SyntaxError = "validate_code",
))]
#[non_exhaustive]
pub enum ExecutionError {
    /// The approval token outlived its time to live.
    #[error("approval token expired")]
    #[envelope(
        class = Unauthenticated,
        message = "the approval token has expired",
        next_step = "call validate_code with the same code to get a fresh token, then call execute_code with it"
    )]
    TokenExpired,

    /// The approval token failed verification (bad signature, malformed,
    /// issued by another server). The text says why and may quote the
    /// token, so it stays out of the envelope.
    #[error("approval token rejected: {0}")]
    #[envelope(
        class = Unauthenticated,
        message = "the approval token is not valid",
        next_step = "pass the token exactly as validate_code returned it, or validate the code again"
    )]
    TokenInvalid(#[envelope(secret)] String),

    /// The code sent to `execute_code` is not the code the token approved.
    #[error("code hash {actual_hash} does not match the approved hash {expected_hash}")]
    #[envelope(
        class = PreconditionFailed,
        message = "the code differs from the code that was validated",
        next_step = "send exactly the validated code, or call validate_code on the changed code first"
    )]
    CodeMismatch {
        /// Hash of the code the token was issued for.
        #[envelope(secret)]
        expected_hash: String,
        /// Hash of the code that was sent for execution.
        #[envelope(secret)]
        actual_hash: String,
    },

    /// The schema or the caller's permissions changed after validation, so
    /// the approval no longer describes what would run.
    #[error("validation context changed after the token was issued")]
    #[envelope(
        class = Conflict,
        message = "the schema or permissions changed since the code was validated",
        next_step = "call validate_code again so the approval matches the current context"
    )]
    ContextChanged,

    /// The token was issued to a different user than the one executing.
    #[error("approval token belongs to another user")]
    #[envelope(
        class = Unauthenticated,
        message = "the approval token was issued to a different user",
        next_step = "validate the code as the current user and use that token"
    )]
    UserMismatch,

    /// A backend the script called failed. Its text can name hosts and
    /// internal paths, so the model gets the class's generic text.
    #[error("backend call failed: {0}")]
    #[envelope(class = ConnectionFailed)]
    BackendError(String),

    /// The script ran past its time limit, in seconds.
    #[error("script stopped after the {0} s limit")]
    #[envelope(
        class = Timeout,
        message = "the script did not finish within {0} s",
        next_step = "retry later, or make the script do less work per call"
    )]
    Timeout(u32),

    /// `execute_code` was called without validating the code first.
    #[error("execution requires a validated script")]
    #[envelope(
        class = PreconditionFailed,
        message = "the code has not been validated",
        next_step = "call validate_code with the code, then execute_code with the token it returns"
    )]
    ValidationRequired,

    /// The runtime failed while running an approved script: a fault on the
    /// server's side. The text stays in the logs.
    #[error("runtime fault: {message}")]
    #[envelope(class = Internal)]
    RuntimeError {
        /// What the runtime reported.
        message: String,
    },

    /// A request the script made was refused before it was sent (a path
    /// placeholder, a non-scalar value, an outbound policy). The text names
    /// the rule, never the refused value, so the model sees it.
    #[error("outbound request refused: {message}")]
    #[envelope(
        class = PolicyDenied,
        message = "{message}",
        next_step = "change what the script sends so it satisfies the rule, then validate it again"
    )]
    RequestRefused {
        /// The rule that refused the request.
        message: String,
    },

    /// The script does not compile: a syntax error or a construct the
    /// runtime's language subset rejects. The text is the compiler's advice,
    /// not a fragment of the script.
    #[error("script does not compile: {message}")]
    #[envelope(
        class = SyntaxError,
        message = "{message}",
        next_step = "fix the script as the message says, then call validate_code on it"
    )]
    InvalidScript {
        /// The compiler's explanation.
        message: String,
    },
}

/// One error of each variant, in declaration order.
#[must_use]
pub fn samples() -> Vec<ExecutionError> {
    vec![
        ExecutionError::TokenExpired,
        ExecutionError::TokenInvalid(
            "signature mismatch for token cm1.eyJzdWIiOiJ1LTQyIn0.Zm9v".into(),
        ),
        ExecutionError::CodeMismatch {
            expected_hash: "sha256:9f86d081884c7d65".into(),
            actual_hash: "sha256:60303ae22b998861".into(),
        },
        ExecutionError::ContextChanged,
        ExecutionError::UserMismatch,
        ExecutionError::BackendError("GET http://10.0.3.7:8080/orders: 502 Bad Gateway".into()),
        ExecutionError::Timeout(30),
        ExecutionError::ValidationRequired,
        ExecutionError::RuntimeError {
            message: "heap limit reached in isolate 7 (/srv/runtime/v8.rs:212)".into(),
        },
        ExecutionError::RequestRefused {
            message: "path parameter `id` must be a declared placeholder".into(),
        },
        ExecutionError::InvalidScript {
            message: "build the path with a template literal: api.get(`/orders/${id}`)".into(),
        },
    ]
}

fn main() {
    for error in samples() {
        let owner = match error.error_class().owner() {
            Owner::Caller => "the caller must fix it",
            Owner::Server => "a server fault",
            _ => "a person must act",
        };
        println!("{} ({owner})", error.code().unwrap_or("?"));
        println!("  log:   {error}");
        println!("  model: {}", ErrorEnvelope::from(&error).to_json_string());
        println!();
    }
}
