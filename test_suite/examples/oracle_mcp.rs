//! The error enum of an Oracle MCP server, ported to `#[derive(Envelope)]`.
//!
//! The `oraclemcp-error` crate (0.11) turns its `OracleMcpError` into an
//! agent-facing envelope with a hand-written `match`. This example has the
//! same variants and fields, and not one line of conversion code: the
//! attributes say everything the `match` said.
//!
//! - Their finer classes (`LEASE_REQUIRED`, `OPERATING_LEVEL_TOO_LOW`, ...)
//!   land on the shared taxonomy of [`ErrorClass`] and survive as the
//!   envelope's `code` (the variant name, in `UPPER_SNAKE_CASE`).
//! - Default tools per class come from `suggested_tools(...)` on the enum.
//! - Variants carrying a ready-made text use it as the message
//!   (`message = "{0}"`); without that, server-owned classes would get a
//!   generic text, which is the safe default for internals.
//! - The raw `Oracle(String)` variant is built by [`ora::envelope`] through
//!   `#[envelope(with = ...)]`: the leading `ORA-NNNNN` code picks the class.
//!
//! `tests/real_world.rs` compares every variant with the crate's own
//! hand-written conversion, field by field.
//!
//! Run it with `cargo run -p envelope-test-suite --example oracle_mcp`.

use envelope::{Envelope, ErrorEnvelope};

/// The errors of the Oracle MCP server's core, as the tools raise them.
///
/// The `#[error]` texts are for logs; the envelope each variant produces is
/// described by its `#[envelope]` attribute.
#[derive(Debug, thiserror::Error, Envelope)]
#[envelope(suggested_tools(
    ObjectNotFound = "oracle_schema_inspect",
    PreconditionFailed = "oracle_set_session_level",
))]
#[non_exhaustive]
pub enum OracleMcpError {
    /// Text straight from the Oracle driver. The envelope's class, code,
    /// `ora_code` and tool come from its `ORA-NNNNN` code; see [`ora`].
    #[error("the database answered: {0}")]
    #[envelope(with = ora::envelope)]
    Oracle(String),

    /// The caller named a table, view or other object that does not exist or
    /// is not visible; `fuzzy_matches` holds the names it may have meant.
    #[error("no visible object is called {name}")]
    #[envelope(class = ObjectNotFound, message = "object not found: {name}")]
    ObjectNotFound {
        /// The name as the caller wrote it.
        name: String,
        /// Existing names close to `name`, best first.
        #[envelope(fuzzy_matches)]
        fuzzy_matches: Vec<String>,
    },

    /// The connected database user lacks a privilege the call needs.
    #[error("the database user lacks a privilege: {0}")]
    #[envelope(class = InsufficientPrivilege, message = "{0}")]
    InsufficientPrivilege(String),

    /// The fail-closed statement guard refused the statement before it was
    /// sent (dynamic SQL, a stacked batch, transaction control, ...).
    #[error("the statement guard refused it: {0}")]
    #[envelope(class = PolicyDenied, message = "{0}")]
    ForbiddenStatement(String),

    /// The statement needs a higher operating level than the session has.
    #[error("the session's operating level is too low: {0}")]
    #[envelope(
        class = PreconditionFailed,
        message = "{0}",
        next_step = "call oracle_set_session_level with the requested target level"
    )]
    OperatingLevelTooLow(String),

    /// A human has to confirm the operation (step-up) before it runs.
    #[error("waiting for a human confirmation: {0}")]
    #[envelope(class = PreconditionFailed, message = "{0}")]
    ChallengeRequired(String),

    /// The tool needs runtime state that is missing, most often a live
    /// database connection.
    #[error("the tool needs live runtime state: {0}")]
    #[envelope(class = PreconditionFailed, message = "{0}", suggested_tool = "oracle_connect")]
    RuntimeStateRequired(String),

    /// Admission control turned the call away before it reached the pool.
    #[error("admission control is full; come back in {retry_after_ms} ms")]
    #[envelope(class = Busy, message = "server busy")]
    Busy {
        /// How long the caller should wait before trying again.
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },

    /// The arguments of the call are malformed or out of range.
    #[error("the arguments do not validate: {0}")]
    #[envelope(class = InvalidArguments, message = "{0}")]
    InvalidArguments(String),

    /// A per-schema or profile policy refused the call.
    #[error("a configured policy refused the call: {0}")]
    #[envelope(class = PolicyDenied, message = "{0}")]
    PolicyDenied(String),

    /// A fault inside the server. The original crate shows its text to the
    /// agent, so the port does too (`message = "{0}"`); drop that attribute
    /// to send the class's generic text instead.
    #[error("internal fault: {0}")]
    #[envelope(class = Internal, message = "{0}")]
    Internal(String),
}

/// Reading Oracle's `ORA-NNNNN` codes out of driver text, and the envelope
/// for the `Oracle(String)` variant.
///
/// The parser is strict about what it accepts and total over what it gets:
/// any input yields an envelope, and nothing in here can panic.
pub mod ora {
    use envelope::{ErrorClass, ErrorEnvelope};

    /// The tool that lists schema objects, for a missing object.
    pub const SCHEMA_INSPECT: &str = "oracle_schema_inspect";
    /// The tool that (re)connects to the database.
    pub const CONNECT: &str = "oracle_connect";

    /// The envelope for a raw Oracle error text.
    ///
    /// The message is the text as Oracle wrote it: Oracle's own wording is
    /// what the model needs to fix its SQL. With a code, [`classify`] picks
    /// the class and the `code`, and `ora_code` carries the number; without
    /// one (or with a malformed one) the error is `INTERNAL`, an honest "not
    /// classified" rather than a guess. Listener failures are
    /// `CONNECTION_FAILED` but not `retryable`: they need a configuration
    /// fix, as the original crate says, not another try.
    #[must_use]
    pub fn envelope(message: &str) -> ErrorEnvelope {
        let Some(number) = parse_code(message) else {
            return ErrorEnvelope::new(ErrorClass::Internal, message).with_code("INTERNAL");
        };
        let (class, code) = classify(number);
        let mut envelope = ErrorEnvelope::new(class, message)
            .with_code(code)
            .with_ora_code(number);
        if let Some(tool) = tool_for(class) {
            envelope = envelope.with_suggested_tool(tool);
        }
        if class == ErrorClass::ConnectionFailed {
            // The listener codes need a configuration fix, not another try:
            // say so, although the class is retryable in general.
            envelope = envelope.with_retryable(false);
        }
        envelope
    }

    /// The number of the first `ORA-NNNNN` code in `message`.
    ///
    /// - Case does not matter: `ora-00942` is 942.
    /// - The marker must start a word: `ORA-` right after a letter or digit
    ///   (`DIASPORA-1`) is not a code, and the search goes on.
    /// - The first marker decides. If it has no digits (`ORA-: x`) or a
    ///   number that does not fit an `i32` (`ORA-99999999999`), the answer
    ///   is `None`: a later marker would be a guess about which error
    ///   mattered.
    /// - Of several codes (an error stack), the first one, the error that
    ///   was raised, wins over the frames that report where.
    #[must_use]
    pub fn parse_code(message: &str) -> Option<i32> {
        let bytes = message.as_bytes();
        let start = (0..bytes.len()).find(|&at| is_marker(bytes, at))? + MARKER.len();
        let digits = bytes[start..]
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        if digits == 0 {
            return None;
        }
        // Only ASCII digits are in this range, so it is a `str` boundary.
        message.get(start..start + digits)?.parse().ok()
    }

    const MARKER: &[u8] = b"ORA-";

    fn is_marker(bytes: &[u8], at: usize) -> bool {
        let word_start = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
        word_start
            && bytes
                .get(at..at + MARKER.len())
                .is_some_and(|window| window.eq_ignore_ascii_case(MARKER))
    }

    /// Oracle codes after which the session is gone: reconnect, then retry.
    const CONNECTION_LOST: &[i32] = &[
        28, 1012, 1041, 1089, 2396, 3113, 3114, 3135, 12537, 12547, 12570, 28511,
    ];

    /// Oracle codes after which the same call may succeed on the same
    /// session (resource busy, deadlock, archiver stuck, package state reset).
    const RETRY_IN_PLACE: &[i32] = &[
        54, 60, 104, 257, 4068, 12516, 12520, 12526, 12528, 30006, 51535,
    ];

    /// Our class for an Oracle code, and the `code` naming the finer class
    /// the original crate gives it. Unknown codes are `INTERNAL`.
    #[must_use]
    pub fn classify(number: i32) -> (ErrorClass, &'static str) {
        match number {
            942 | 4043 | 31603 => (ErrorClass::ObjectNotFound, "OBJECT_NOT_FOUND"),
            // Missing privilege, bad credentials, locked or expired account:
            // never retried, so a wrong password cannot lock the account.
            1031 | 1017 | 1045 | 28009 | 28000 | 28001 | 28002 | 28011 | 1005 => {
                (ErrorClass::InsufficientPrivilege, "INSUFFICIENT_PRIVILEGE")
            }
            // A write inside a read-only transaction.
            1456 | 16000 => (ErrorClass::PolicyDenied, "FORBIDDEN_STATEMENT"),
            // The statement and its bind values disagree.
            1006 | 1008 | 1036 => (ErrorClass::InvalidArguments, "INVALID_ARGUMENTS"),
            n if CONNECTION_LOST.contains(&n) || RETRY_IN_PLACE.contains(&n) => {
                (ErrorClass::Transient, "TRANSIENT")
            }
            // The listener could not hand out a session at all.
            12514 | 12541 | 12543 | 12170 => (ErrorClass::ConnectionFailed, "CONNECTION_FAILED"),
            // Session or process limits reached.
            12519 | 18 | 20 => (ErrorClass::Busy, "BUSY"),
            // The parser family; 942 was taken above.
            900..=999 => (ErrorClass::SyntaxError, "SYNTAX_ERROR"),
            _ => (ErrorClass::Internal, "INTERNAL"),
        }
    }

    /// The tool to call next after an Oracle error of `class`.
    #[must_use]
    pub fn tool_for(class: ErrorClass) -> Option<&'static str> {
        match class {
            ErrorClass::ObjectNotFound => Some(SCHEMA_INSPECT),
            ErrorClass::ConnectionFailed => Some(CONNECT),
            _ => None,
        }
    }
}

/// One error of each variant, plus Oracle texts good and bad.
#[must_use]
pub fn samples() -> Vec<OracleMcpError> {
    vec![
        OracleMcpError::Oracle("ORA-00942: table or view does not exist".into()),
        OracleMcpError::Oracle("ora-01017: invalid username/password; logon denied".into()),
        OracleMcpError::Oracle("ORA-03113: end-of-file on communication channel".into()),
        OracleMcpError::Oracle("ORA-12514: TNS:listener does not currently know of service".into()),
        OracleMcpError::Oracle(
            "ORA-00942: table or view does not exist\nORA-06512: at line 1".into(),
        ),
        OracleMcpError::Oracle("ORA-: x".into()),
        OracleMcpError::Oracle("ORA-99999999999: out of range".into()),
        OracleMcpError::Oracle("connection reset by peer".into()),
        OracleMcpError::ObjectNotFound {
            name: "EMPLOYES".into(),
            fuzzy_matches: vec!["EMPLOYEES".into(), "EMPLOYEE".into()],
        },
        OracleMcpError::InsufficientPrivilege("ORA-01031: insufficient privileges".into()),
        OracleMcpError::ForbiddenStatement("dynamic SQL through EXECUTE IMMEDIATE".into()),
        OracleMcpError::OperatingLevelTooLow("this statement needs READ_WRITE".into()),
        OracleMcpError::ChallengeRequired("confirm the DROP TABLE in the console".into()),
        OracleMcpError::RuntimeStateRequired("no live Oracle connection".into()),
        OracleMcpError::Busy {
            retry_after_ms: 250,
        },
        OracleMcpError::InvalidArguments("limit must be between 1 and 1000".into()),
        OracleMcpError::PolicyDenied("schema HR is read-only for this profile".into()),
        OracleMcpError::Internal("worker task panicked".into()),
    ]
}

fn main() {
    for error in samples() {
        println!("log:   {error}");
        println!("model: {}", ErrorEnvelope::from(&error).to_json_string());
        println!();
    }
    let error = OracleMcpError::Oracle("ORA-00942: table or view does not exist".into());
    println!("error_class() = {}", error.error_class());
    println!("code()        = {:?}", error.code());
}
