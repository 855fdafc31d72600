//! The shortest tour of `envelope`: one error enum, one error of each kind,
//! and the three shapes a tool can send back to a model.
//!
//! - a caller mistake with near-miss names and a tool to call next,
//! - a busy server with a retry hint,
//! - a failed login whose password must never reach the model,
//! - a wrapped error that brings its own envelope (`transparent`).
//!
//! For each one it prints the envelope (pretty JSON) and the `ToolResult`
//! an LLM client sends back; for the first it also prints the MCP
//! `CallToolResult`.
//!
//! Run it with `cargo run --example quickstart`.

use envelope::{Envelope, ErrorEnvelope};

/// The errors of a small database tool.
#[derive(Debug, thiserror::Error, Envelope)]
#[envelope(suggested_tools(ObjectNotFound = "list_tables"))]
pub enum DbError {
    /// The caller named a table that does not exist.
    #[error("table {name} not found")]
    #[envelope(class = ObjectNotFound, message = "table {name} does not exist")]
    TableNotFound {
        /// The name the caller used.
        name: String,
        /// Existing tables with a similar name.
        #[envelope(fuzzy_matches)]
        candidates: Vec<String>,
    },

    /// Every connection is in use; the call can be repeated later.
    #[error("connection pool exhausted ({in_use} in use)")]
    #[envelope(class = Busy, next_step = "wait retry_after_ms, then repeat the same call")]
    PoolExhausted {
        /// Connections in use; for the logs only.
        in_use: u32,
        /// How long to wait before retrying.
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },

    /// The database refused the credentials.
    #[error("login failed for {user} with password {password}")]
    #[envelope(class = Unauthenticated, message = "login failed for user {user}")]
    LoginFailed {
        /// The user name.
        user: String,
        /// The password tried: `secret`, so it appears in no envelope.
        #[envelope(secret)]
        password: String,
    },

    /// A query error, which describes itself.
    #[error(transparent)]
    #[envelope(transparent)]
    Query(#[from] QueryError),
}

/// A query that does not parse. A struct works like a one-variant enum: its
/// attributes sit on the struct.
#[derive(Debug, thiserror::Error, Envelope)]
#[error("syntax error near line {line}: {reason}")]
#[envelope(class = SyntaxError, code = "SQL_SYNTAX")]
pub struct QueryError {
    /// Where the parser gave up; also sent as a structured detail.
    #[envelope(detail)]
    pub line: u32,
    /// What the parser expected.
    pub reason: String,
}

/// The four example errors with their headings.
#[must_use]
pub fn examples() -> Vec<(&'static str, DbError)> {
    vec![
        (
            "caller mistake: a misspelt table",
            DbError::TableNotFound {
                name: "EMPLOYES".into(),
                candidates: envelope::fuzzy::suggest(
                    "EMPLOYES",
                    ["EMPLOYEES", "EMPLOYEE", "DEPARTMENTS", "JOBS"],
                    3,
                ),
            },
        ),
        (
            "server busy: retry later",
            DbError::PoolExhausted {
                in_use: 64,
                retry_after_ms: 250,
            },
        ),
        (
            "secret kept out: a failed login",
            DbError::LoginFailed {
                user: "ada".into(),
                password: "hunter2".into(),
            },
        ),
        (
            "transparent: a wrapped error",
            DbError::from(QueryError {
                line: 3,
                reason: "expected FROM".into(),
            }),
        ),
    ]
}

fn pretty(value: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn main() {
    let errors = examples();
    for (n, (heading, error)) in errors.iter().enumerate() {
        println!("== {}. {heading}", n + 1);
        println!("log (Display): {error}");
        println!("envelope:");
        println!("{}", pretty(&ErrorEnvelope::from(error)));
        let result = error.to_tool_result(&format!("call_{}", n + 1));
        println!("tool result (one line, as sent):");
        println!("{}", serde_json::to_string(&result).unwrap_or_default());
        println!();
    }
    if let Some((_, first)) = errors.first() {
        println!("== MCP CallToolResult for error 1");
        println!("{}", pretty(&first.to_mcp_result()));
    }
}
