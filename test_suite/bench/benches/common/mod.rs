//! The error enum the benchmarks convert: twelve variants with templated
//! messages, near-miss names, next steps and retry hints, once derived and
//! once as the hand-written `match` a server would otherwise keep (the style
//! of `oraclemcp-error`'s `OracleMcpError::into_envelope`).
//!
//! Shared by `benches/envelope.rs` and `tests/bench_parity.rs`; the test
//! checks that both conversions produce the same envelope for every variant,
//! so the benchmark compares equal work.

#![allow(dead_code)] // each includer uses a different part

use std::time::Duration;

use envelope::{Envelope, ErrorClass, ErrorEnvelope, ToolResult};

/// The benchmarked error type: every variant uses a different mix of roles.
#[derive(Debug, Clone, thiserror::Error, Envelope)]
#[envelope(suggested_tools(ObjectNotFound = "schema_inspect", Unauthenticated = "login"))]
pub enum DbError {
    #[error("object not found: {name}")]
    #[envelope(
        class = ObjectNotFound,
        message = "object {name} does not exist",
        next_step = "check the spelling of {name}"
    )]
    ObjectNotFound {
        name: String,
        #[envelope(fuzzy_matches)]
        candidates: Vec<String>,
    },

    #[error("column {column} not found in {table}")]
    #[envelope(
        class = ObjectNotFound,
        code = "COLUMN_NOT_FOUND",
        message = "column {column} does not exist in table {table}",
        suggested_tool = "describe_table"
    )]
    ColumnNotFound {
        table: String,
        column: String,
        #[envelope(fuzzy_matches)]
        candidates: Vec<String>,
    },

    #[error("syntax error at line {line}, column {column}")]
    #[envelope(
        class = SyntaxError,
        message = "syntax error at line {line}, column {column}: {detail}",
        next_step = "fix the statement and call again"
    )]
    Syntax {
        line: u32,
        column: u32,
        detail: String,
    },

    #[error("invalid argument {argument}")]
    #[envelope(
        class = InvalidArguments,
        message = "argument `{argument}` is invalid: {reason}",
        next_step = "read the tool's input schema",
        next_step = "call again with a corrected `{argument}`"
    )]
    InvalidArgument { argument: String, reason: String },

    #[error("{kind} {name} already exists")]
    #[envelope(class = AlreadyExists)]
    AlreadyExists { kind: &'static str, name: String },

    #[error("lease required")]
    #[envelope(
        class = PreconditionFailed,
        code = "LEASE_REQUIRED",
        message = "this call needs a write lease",
        next_step = "call acquire_lease first"
    )]
    LeaseRequired,

    #[error("login failed for {user}")]
    #[envelope(class = Unauthenticated, message = "login failed for {user}")]
    Login {
        user: String,
        #[envelope(secret)]
        password: String,
    },

    #[error("missing privilege {privilege}")]
    #[envelope(
        class = InsufficientPrivilege,
        ora_code = 1031,
        message = "privilege {privilege} is required"
    )]
    Privilege { privilege: String },

    #[error("server busy")]
    #[envelope(class = Busy, next_step = "wait, then retry the same call")]
    Busy {
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },

    #[error("timed out after {elapsed_ms} ms")]
    #[envelope(
        class = Timeout,
        retry_after_ms = 1000,
        message = "the query timed out after {elapsed_ms} ms",
        next_step = "narrow the query"
    )]
    Timeout { elapsed_ms: u64 },

    #[error("connection to {host} failed")]
    #[envelope(class = ConnectionFailed)]
    Connection {
        host: String,
        #[envelope(retry_after)]
        wait: Duration,
    },

    #[error("internal: {0}")]
    #[envelope(class = Internal, help_url = "https://example.test/errors/internal")]
    Internal(String),
}

impl DbError {
    /// The hand-written conversion, consuming the error: what the derive
    /// replaces.
    pub fn hand_into_envelope(self) -> ErrorEnvelope {
        match self {
            DbError::ObjectNotFound { name, candidates } => ErrorEnvelope::new(
                ErrorClass::ObjectNotFound,
                format!("object {name} does not exist"),
            )
            .with_code("OBJECT_NOT_FOUND")
            .with_suggested_tool("schema_inspect")
            .with_fuzzy_matches(candidates)
            .with_next_step(format!("check the spelling of {name}")),
            DbError::ColumnNotFound {
                table,
                column,
                candidates,
            } => ErrorEnvelope::new(
                ErrorClass::ObjectNotFound,
                format!("column {column} does not exist in table {table}"),
            )
            .with_code("COLUMN_NOT_FOUND")
            .with_suggested_tool("describe_table")
            .with_fuzzy_matches(candidates),
            DbError::Syntax {
                line,
                column,
                detail,
            } => ErrorEnvelope::new(
                ErrorClass::SyntaxError,
                format!("syntax error at line {line}, column {column}: {detail}"),
            )
            .with_code("SYNTAX")
            .with_next_step("fix the statement and call again"),
            DbError::InvalidArgument { argument, reason } => ErrorEnvelope::new(
                ErrorClass::InvalidArguments,
                format!("argument `{argument}` is invalid: {reason}"),
            )
            .with_code("INVALID_ARGUMENT")
            .with_next_step("read the tool's input schema")
            .with_next_step(format!("call again with a corrected `{argument}`")),
            DbError::AlreadyExists { kind, name } => ErrorEnvelope::new(
                ErrorClass::AlreadyExists,
                format!("{kind} {name} already exists"),
            )
            .with_code("ALREADY_EXISTS"),
            DbError::LeaseRequired => ErrorEnvelope::new(
                ErrorClass::PreconditionFailed,
                "this call needs a write lease",
            )
            .with_code("LEASE_REQUIRED")
            .with_next_step("call acquire_lease first"),
            DbError::Login { user, .. } => ErrorEnvelope::new(
                ErrorClass::Unauthenticated,
                format!("login failed for {user}"),
            )
            .with_code("LOGIN")
            .with_suggested_tool("login"),
            DbError::Privilege { privilege } => ErrorEnvelope::new(
                ErrorClass::InsufficientPrivilege,
                format!("privilege {privilege} is required"),
            )
            .with_code("PRIVILEGE")
            .with_ora_code(1031),
            DbError::Busy { retry_after_ms } => {
                ErrorEnvelope::new(ErrorClass::Busy, "the server is busy")
                    .with_code("BUSY")
                    .with_next_step("wait, then retry the same call")
                    .with_retry_after_ms(retry_after_ms)
            }
            DbError::Timeout { elapsed_ms } => ErrorEnvelope::new(
                ErrorClass::Timeout,
                format!("the query timed out after {elapsed_ms} ms"),
            )
            .with_code("TIMEOUT")
            .with_next_step("narrow the query")
            .with_retry_after_ms(1000),
            DbError::Connection { wait, .. } => ErrorEnvelope::new(
                ErrorClass::ConnectionFailed,
                "the server could not reach a service it depends on",
            )
            .with_code("CONNECTION")
            .with_retry_after(wait),
            DbError::Internal(_) => ErrorEnvelope::new(
                ErrorClass::Internal,
                "an internal error occurred; changing the call will not help",
            )
            .with_code("INTERNAL")
            .with_help_url("https://example.test/errors/internal"),
        }
    }

    /// The hand-written conversion by reference: the same match, copying
    /// the near-miss list the owned one moves.
    pub fn hand_to_envelope(&self) -> ErrorEnvelope {
        match self {
            DbError::ObjectNotFound { name, candidates } => ErrorEnvelope::new(
                ErrorClass::ObjectNotFound,
                format!("object {name} does not exist"),
            )
            .with_code("OBJECT_NOT_FOUND")
            .with_suggested_tool("schema_inspect")
            .with_fuzzy_matches(candidates.clone())
            .with_next_step(format!("check the spelling of {name}")),
            DbError::ColumnNotFound {
                table,
                column,
                candidates,
            } => ErrorEnvelope::new(
                ErrorClass::ObjectNotFound,
                format!("column {column} does not exist in table {table}"),
            )
            .with_code("COLUMN_NOT_FOUND")
            .with_suggested_tool("describe_table")
            .with_fuzzy_matches(candidates.clone()),
            DbError::Syntax {
                line,
                column,
                detail,
            } => ErrorEnvelope::new(
                ErrorClass::SyntaxError,
                format!("syntax error at line {line}, column {column}: {detail}"),
            )
            .with_code("SYNTAX")
            .with_next_step("fix the statement and call again"),
            DbError::InvalidArgument { argument, reason } => ErrorEnvelope::new(
                ErrorClass::InvalidArguments,
                format!("argument `{argument}` is invalid: {reason}"),
            )
            .with_code("INVALID_ARGUMENT")
            .with_next_step("read the tool's input schema")
            .with_next_step(format!("call again with a corrected `{argument}`")),
            DbError::AlreadyExists { kind, name } => ErrorEnvelope::new(
                ErrorClass::AlreadyExists,
                format!("{kind} {name} already exists"),
            )
            .with_code("ALREADY_EXISTS"),
            DbError::LeaseRequired => ErrorEnvelope::new(
                ErrorClass::PreconditionFailed,
                "this call needs a write lease",
            )
            .with_code("LEASE_REQUIRED")
            .with_next_step("call acquire_lease first"),
            DbError::Login { user, .. } => ErrorEnvelope::new(
                ErrorClass::Unauthenticated,
                format!("login failed for {user}"),
            )
            .with_code("LOGIN")
            .with_suggested_tool("login"),
            DbError::Privilege { privilege } => ErrorEnvelope::new(
                ErrorClass::InsufficientPrivilege,
                format!("privilege {privilege} is required"),
            )
            .with_code("PRIVILEGE")
            .with_ora_code(1031),
            DbError::Busy { retry_after_ms } => {
                ErrorEnvelope::new(ErrorClass::Busy, "the server is busy")
                    .with_code("BUSY")
                    .with_next_step("wait, then retry the same call")
                    .with_retry_after_ms(*retry_after_ms)
            }
            DbError::Timeout { elapsed_ms } => ErrorEnvelope::new(
                ErrorClass::Timeout,
                format!("the query timed out after {elapsed_ms} ms"),
            )
            .with_code("TIMEOUT")
            .with_next_step("narrow the query")
            .with_retry_after_ms(1000),
            DbError::Connection { wait, .. } => ErrorEnvelope::new(
                ErrorClass::ConnectionFailed,
                "the server could not reach a service it depends on",
            )
            .with_code("CONNECTION")
            .with_retry_after(*wait),
            DbError::Internal(_) => ErrorEnvelope::new(
                ErrorClass::Internal,
                "an internal error occurred; changing the call will not help",
            )
            .with_code("INTERNAL")
            .with_help_url("https://example.test/errors/internal"),
        }
    }

    /// A hand-written class match returning constants.
    pub fn hand_error_class(&self) -> ErrorClass {
        match self {
            DbError::ObjectNotFound { .. } | DbError::ColumnNotFound { .. } => {
                ErrorClass::ObjectNotFound
            }
            DbError::Syntax { .. } => ErrorClass::SyntaxError,
            DbError::InvalidArgument { .. } => ErrorClass::InvalidArguments,
            DbError::AlreadyExists { .. } => ErrorClass::AlreadyExists,
            DbError::LeaseRequired => ErrorClass::PreconditionFailed,
            DbError::Login { .. } => ErrorClass::Unauthenticated,
            DbError::Privilege { .. } => ErrorClass::InsufficientPrivilege,
            DbError::Busy { .. } => ErrorClass::Busy,
            DbError::Timeout { .. } => ErrorClass::Timeout,
            DbError::Connection { .. } => ErrorClass::ConnectionFailed,
            DbError::Internal(_) => ErrorClass::Internal,
        }
    }

    /// A hand-written code match returning constants.
    pub fn hand_code(&self) -> Option<&'static str> {
        Some(match self {
            DbError::ObjectNotFound { .. } => "OBJECT_NOT_FOUND",
            DbError::ColumnNotFound { .. } => "COLUMN_NOT_FOUND",
            DbError::Syntax { .. } => "SYNTAX",
            DbError::InvalidArgument { .. } => "INVALID_ARGUMENT",
            DbError::AlreadyExists { .. } => "ALREADY_EXISTS",
            DbError::LeaseRequired => "LEASE_REQUIRED",
            DbError::Login { .. } => "LOGIN",
            DbError::Privilege { .. } => "PRIVILEGE",
            DbError::Busy { .. } => "BUSY",
            DbError::Timeout { .. } => "TIMEOUT",
            DbError::Connection { .. } => "CONNECTION",
            DbError::Internal(_) => "INTERNAL",
        })
    }
}

/// The seed's path to a tool result: the hand-written `into_envelope`, the
/// envelope into a `serde_json::Value` with `to_json()`, then `to_string`.
pub fn seed_tool_result(error: DbError, tool_call_id: &str) -> ToolResult {
    let envelope = error.hand_into_envelope();
    let category = envelope.user_category();
    ToolResult {
        tool_call_id: tool_call_id.to_owned(),
        content: envelope.to_json().to_string(),
        is_error: true,
        error_category: Some(category),
    }
}

/// The seed's path to the JSON text: `into_envelope`, `to_json()`,
/// `to_string()`.
pub fn seed_json_string(error: DbError) -> String {
    error.hand_into_envelope().to_json().to_string()
}

/// Plain direct serde: the owned envelope written by `serde_json::to_string`
/// (no `Value`), the baseline the streaming writer is measured against.
pub fn serde_json_string(error: &DbError) -> String {
    serde_json::to_string(&error.to_envelope()).unwrap()
}

/// The error of the headline comparison: an object-not-found error with two
/// near-misses.
pub fn object_not_found() -> DbError {
    DbError::ObjectNotFound {
        name: "EMPLOYES".into(),
        candidates: vec!["EMPLOYEES".into(), "EMPLOYEE".into()],
    }
}

/// One error of every variant, in declaration order.
pub fn samples() -> [DbError; 12] {
    [
        object_not_found(),
        DbError::ColumnNotFound {
            table: "EMPLOYEES".into(),
            column: "SALARY_EUR".into(),
            candidates: vec!["SALARY".into(), "SALARY_USD".into(), "SALARY_GBP".into()],
        },
        DbError::Syntax {
            line: 3,
            column: 17,
            detail: "unexpected token `FORM`".into(),
        },
        DbError::InvalidArgument {
            argument: "limit".into(),
            reason: "must be between 1 and 1000".into(),
        },
        DbError::AlreadyExists {
            kind: "table",
            name: "AUDIT_LOG".into(),
        },
        DbError::LeaseRequired,
        DbError::Login {
            user: "ada".into(),
            password: "hunter2".into(),
        },
        DbError::Privilege {
            privilege: "CREATE TABLE".into(),
        },
        DbError::Busy {
            retry_after_ms: 250,
        },
        DbError::Timeout { elapsed_ms: 30_000 },
        DbError::Connection {
            host: "db-primary.internal:1521".into(),
            wait: Duration::from_millis(1500),
        },
        DbError::Internal("worker thread panicked at src/pool.rs:88".into()),
    ]
}

/// Keeps the `Envelope` import used in every includer.
pub fn class_of(error: &DbError) -> ErrorClass {
    Envelope::error_class(error)
}
