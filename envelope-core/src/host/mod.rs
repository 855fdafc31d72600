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
//! | a tool's declared failures, from its `tools/list` entry | [`read_failures`] |
//!
//! What a failure says is read in this order, the first that holds: our
//! envelope (in `structuredContent`, in a text block, in problem details'
//! members or in a JSON-RPC error's `data`); the draft SEP-3313
//! tool-failure object (`_meta["io.modelcontextprotocol/toolFailure"]`);
//! the texts the official SDKs write for a bad argument or an unknown tool
//! ([`read_tool_result`] lists them); and otherwise the plain text, as an
//! `UNKNOWN` envelope whose message is the text. Nothing is guessed beyond
//! what the failure states: a text that says nothing of a retry is not
//! retryable.
//!
//! **Bounded**: whatever a peer sends, the envelope a reader returns holds
//! at most [`MAX_TEXT_CHARS`] characters of message, [`MAX_ITEMS`] next
//! steps of [`MAX_STEP_CHARS`] each, [`MAX_ARGUMENT_ERRORS`] argument
//! problems, names and codes of [`MAX_NAME_CHARS`] and `details` of
//! [`MAX_DETAILS_BYTES`]; JSON nested deeper than [`MAX_DEPTH`] is not
//! read, so no reader recurses deeper, on any stack. [`model_text`] writes
//! at most [`MAX_MODEL_TEXT_CHARS`].
//!
//! **Deciding**: the move is the one decision's,
//! [`NextMove::of`](crate::NextMove::of), the same that the text of a
//! server of this crate leads with, from an envelope and what the host
//! knows about the call (an [`Attempt`](crate::Attempt): a
//! [`CallBehaviour`](crate::CallBehaviour) from the tool's MCP annotations,
//! [`CallBehaviour::from_hints`](crate::CallBehaviour::from_hints), and
//! whether the answer is a stored one sent again). The host adds only its
//! policy: [`next_move`] bounds a repeat within a [`RetryPolicy`] (the
//! longest wait honoured, the repeats of one call); a [`Retries`] per agent
//! run adds jitter to the backoff and a budget for the run. [`model_text`]
//! renders the move for the model, as the server's text does.

mod bound;
#[cfg(feature = "rmcp")]
mod client;
mod contract;
mod http;
mod mcp;
mod model_text;
mod paths;
mod policy;
mod pydantic;
mod text;
mod tool_failure;
mod validation;
mod words;
mod zod;

pub use bound::{
    MAX_ARGUMENT_ERRORS, MAX_DEPTH, MAX_DETAILS_BYTES, MAX_ITEMS, MAX_MODEL_TEXT_CHARS,
    MAX_NAME_CHARS, MAX_STEP_CHARS, MAX_TEXT_CHARS,
};
#[cfg(feature = "rmcp")]
pub use client::{Failure, behaviour_of, call_tool};
pub use contract::read_failures;
pub use http::read_http;
#[cfg(feature = "http")]
pub use http::read_http_response;
#[cfg(feature = "rmcp")]
pub use mcp::{read_call_tool_result, read_error_data, read_service_error};
pub use mcp::{read_jsonrpc_error, read_tool_result};
pub use model_text::model_text;
pub use paths::fit_paths;
pub use policy::{Retries, RetryPolicy, next_move};

use serde::Deserialize as _;
use serde_json::{Map, Value};

use crate::model::envelope::ErrorEnvelope;

/// An envelope read from JSON that is ours (it has `error_class` and a
/// string `message`), if `value` is one and nests at most [`MAX_DEPTH`]
/// levels. A member of the wrong type is left out, not the envelope (a
/// numeric `code` is read as its digits): one odd member of a peer's
/// keeps none of the others from being read.
fn ours(value: &Value) -> Option<ErrorEnvelope> {
    let object = value.as_object()?;
    if !object.contains_key("error_class") || !object.get("message")?.is_string() {
        return None;
    }
    if !bound::shallow(value) {
        return None;
    }
    if let Ok(envelope) = ErrorEnvelope::deserialize(value) {
        return Some(envelope);
    }
    // Each member on its own, beside the two every envelope has.
    let core: Map<String, Value> = ["error_class", "message"]
        .iter()
        .filter_map(|key| Some((String::from(*key), object.get(*key)?.clone())))
        .collect();
    let mut kept = core.clone();
    for (key, member) in object {
        let member = match (key.as_str(), member) {
            ("code", Value::Number(code)) => Value::from(code.to_string()),
            _ => member.clone(),
        };
        let mut alone = core.clone();
        alone.insert(key.clone(), member.clone());
        if ErrorEnvelope::deserialize(&Value::Object(alone)).is_ok() {
            kept.insert(key.clone(), member);
        }
    }
    ErrorEnvelope::deserialize(&Value::Object(kept)).ok()
}
