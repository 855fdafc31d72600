//! The other side (feature `host`): an agent host reads a failed tool call
//! of any server, ours or not, into an [`ErrorEnvelope`], and decides its
//! next move from it.
//!
//! **Reading**: one function per kind of input, each `None` for a success
//! and never failing, whatever the input:
//!
//! | input | function |
//! |---|---|
//! | an MCP `CallToolResult`, as JSON | [`read_tool_result`] |
//! | rmcp's `CallToolResult` (with `rmcp`) | [`read_call_tool_result`] |
//! | a JSON-RPC error: code, message, data | [`read_jsonrpc_error`] |
//! | rmcp's `ErrorData` / `ServiceError` (with `rmcp`) | [`read_error_data`], [`read_service_error`] |
//! | an HTTP response: status, headers, body | [`read_http`]; with `http`, [`read_http_response`] |
//!
//! What a failure says is read in this order, the first that holds: our
//! envelope (in `structuredContent`, in a text block, in problem details'
//! members or in a JSON-RPC error's `data`); the draft SEP-3313
//! tool-failure object (`_meta["io.modelcontextprotocol/toolFailure"]`);
//! the texts the official SDKs write for a bad argument or an unknown tool
//! ([`read_tool_result`] lists them); and otherwise the plain text, as an
//! `UNKNOWN` envelope whose message is the text, cut to
//! [`MAX_TEXT_CHARS`] characters. Nothing is guessed beyond what the
//! failure states: a text that says nothing of a retry is not retryable.
//!
//! **Deciding**: [`next_move`] turns an envelope and what the host knows
//! about the tool (a [`CallBehaviour`](crate::CallBehaviour), from the
//! tool's MCP annotations: [`CallBehaviour::from_hints`](crate::CallBehaviour::from_hints))
//! into one [`NextMove`], and [`model_text`] into the short text to show
//! the model.

mod decide;
mod http;
mod mcp;
mod text;

pub use decide::{MAX_REPEATS, NextMove, backoff, model_text, next_move};
pub use http::read_http;
#[cfg(feature = "http")]
pub use http::read_http_response;
#[cfg(feature = "rmcp")]
pub use mcp::{read_call_tool_result, read_error_data, read_service_error};
pub use mcp::{read_jsonrpc_error, read_tool_result};

/// How many characters of a failure's plain text become the envelope's
/// message; a longer text is cut there and ends with `…`.
pub const MAX_TEXT_CHARS: usize = 2000;

use crate::model::envelope::ErrorEnvelope;

/// `text`, cut to [`MAX_TEXT_CHARS`] characters.
fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// An envelope read from JSON that is ours (it has `error_class` and
/// `message`), if `value` is one.
fn ours(value: &serde_json::Value) -> Option<ErrorEnvelope> {
    let object = value.as_object()?;
    if !object.contains_key("error_class") || !object.contains_key("message") {
        return None;
    }
    serde_json::from_value(value.clone()).ok()
}
