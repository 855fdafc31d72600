//! Reading an MCP tool result and a JSON-RPC error.

use serde_json::Value;

use super::bound::{bound, cut};
use super::{ours, text, tool_failure};
use crate::call::rate_limit::Signals;
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// The failure a `CallToolResult` (MCP, as JSON) reports, or `None` when
/// `isError` is not `true` (a success, or not a tool result at all).
///
/// Read in this order:
///
/// 1. our envelope in `structuredContent`;
/// 2. our envelope as the JSON of a text block (what an rmcp tool's `Err`
///    with this crate becomes);
/// 3. the draft SEP-3313 object in `_meta["io.modelcontextprotocol/toolFailure"]`,
///    as the table below reads it; the message is the text blocks';
/// 4. the texts of the official SDKs (see below), with the argument paths
///    they name;
/// 5. otherwise the text blocks, joined by newlines: class `UNKNOWN`, the
///    text as the message.
///
/// The envelope is within the host's bounds (the module's docs), however
/// large or deep the result.
///
/// The SEP-3313 object is read as it means:
///
/// | member | envelope |
/// |---|---|
/// | `code` naming a class of ours of the same SEP class (`RATE_LIMITED` of `reliability`: what this crate writes), unless `retryable: false` contradicts the class | that class |
/// | `class: "governance"` (a policy, a permission, an approval) | `INTERACTION_REQUIRED`: a person must act |
/// | `class: "capability"` (the call cannot work as made) | `UNSUPPORTED`: the model changes its request; never repeated as is |
/// | `class: "reliability"`, `retryable: true` | `TRANSIENT`, effect unknown: repeated only when the tool is read-only or idempotent |
/// | `class: "reliability"`, otherwise | `INTERNAL`: not repeated |
/// | no `class`, or another | `UNKNOWN` |
/// | `code` | `code` |
/// | `retryable: false` of `reliability` | not retryable, whatever the class |
/// | `retryNotBefore` (epoch milliseconds, an integer or a float) | `retry_after_ms` from now; zero once it has passed |
/// | `correlationId` | `correlation_id` |
/// | `agentGuidance` | the first next step, which [`model_text`](super::model_text) shows the model |
///
/// The SEP's `retryable` says a later attempt may pass, not that the
/// failed one changed nothing: whether a repeat is safe is for the tool's
/// annotations to say, so a generic reliability failure has effect
/// `unknown`.
///
/// The SDK texts recognised (the result's text, with or without the
/// TypeScript SDK's `MCP error <code>: ` prefix):
///
/// | text | envelope |
/// |---|---|
/// | `Unknown tool: <name>` (Python SDK), `Tool <name> not found` (TypeScript SDK) | `OBJECT_NOT_FOUND`, code `UNKNOWN_TOOL` |
/// | `<n> validation error(s) for <tool>Arguments` and pydantic's report (Python SDK; FastMCP's `for call[<tool>]`) | `INVALID_ARGUMENTS`, an argument problem per error, at the location pydantic names (`n` is `/n`, `a.0.b` is `/a/0/b`; a union member's token, `id.int` or `ids.list[int].0`, is left out) |
/// | `Input validation error: Invalid arguments for tool <name>: ...` (TypeScript SDK: zod 4's issues, one per line, `Invalid input: expected string, received number at name`; zod 3's JSON array of issues) | `INVALID_ARGUMENTS`, an argument problem per issue, at its path (`items[0].name` is `/items/0/name`) |
/// | `Tool <name> disabled` (TypeScript SDK) | `UNSUPPORTED`, code `TOOL_DISABLED`, a step to do without it: not an argument problem |
/// | `Output validation error: ...` (TypeScript SDK: the tool's answer broke its `outputSchema`) | `INTERNAL`, code `OUTPUT_INVALID`: the server's fault |
/// | `Error executing tool <name>: <text>` (Python SDK), `Error calling tool '<name>': <text>` (FastMCP 2) | `UNKNOWN`, the message `<text>` |
#[must_use]
pub fn read_tool_result(result: &Value) -> Option<ErrorEnvelope> {
    if result.get("isError").and_then(Value::as_bool) != Some(true) {
        return None;
    }
    Some(bound(tool_result(result)))
}

/// [`read_tool_result`] of a failed result, before the bounds.
fn tool_result(result: &Value) -> ErrorEnvelope {
    if let Some(envelope) = result.get("structuredContent").and_then(ours) {
        return envelope;
    }
    let texts: Vec<&str> = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    for text in &texts {
        if let Some(envelope) = serde_json::from_str::<Value>(text)
            .ok()
            .as_ref()
            .and_then(ours)
        {
            return envelope;
        }
    }
    let text = texts.join("\n");
    if let Some(failure) = result
        .get("_meta")
        .and_then(|meta| meta.get(tool_failure::KEY))
        .and_then(Value::as_object)
    {
        return tool_failure::read(failure, message(&text));
    }
    text::read(&text).unwrap_or_else(|| unknown(&text))
}

/// An `UNKNOWN` envelope whose message is `text`, cut.
pub(super) fn unknown(text: &str) -> ErrorEnvelope {
    ErrorEnvelope::new(ErrorClass::Unknown, message(text))
}

/// `text` cut, as a failure's message; a text of whitespace says nothing.
fn message(text: &str) -> String {
    if text.trim().is_empty() {
        String::from("the tool failed and said nothing more")
    } else {
        cut(text)
    }
}

/// The failure a JSON-RPC error reports (a request the server refused
/// before any tool ran, or could not finish): our envelope in `data` when
/// there is one, else by its code:
///
/// | code | envelope |
/// |---|---|
/// | `-32602` (invalid params) whose message says a tool is unknown or not found | `OBJECT_NOT_FOUND`, code `UNKNOWN_TOOL` |
/// | `-32602` | `INVALID_ARGUMENTS`, with the argument problems the message names (the SDK texts of [`read_tool_result`]) |
/// | `-32601` (method not found) | `UNSUPPORTED`, code `METHOD_NOT_FOUND` |
/// | `-32600` (invalid request), `-32700` (parse error) | `INTERNAL`, code `INVALID_REQUEST` / `PARSE_ERROR`: the host sent what the server could not read |
/// | `-32603` (internal error) | `INTERNAL`, code `INTERNAL_ERROR` |
/// | `-32800` (request cancelled) | `CANCELLED`, code `REQUEST_CANCELLED` |
/// | `-32001` (request timeout, the SDKs') | `TIMEOUT`, code `REQUEST_TIMEOUT` |
/// | `-32002` (resource not found) | `OBJECT_NOT_FOUND`, code `RESOURCE_NOT_FOUND` |
/// | `-32023` (draft SEP-3304: rate limited), `data.retryAfterMs`, `limit`, `remaining` | `RATE_LIMITED`, `retry_after_ms`, `details.limit`, `details.remaining` ([`crate::rate_limit`]) |
/// | anything else | `UNKNOWN`, code `JSONRPC_<code>` |
///
/// The message is the error's `message`, cut, for every class.
#[must_use]
pub fn read_jsonrpc_error(code: i64, message: &str, data: Option<&Value>) -> ErrorEnvelope {
    bound(jsonrpc_error(code, message, data))
}

/// [`read_jsonrpc_error`] before the bounds.
fn jsonrpc_error(code: i64, message: &str, data: Option<&Value>) -> ErrorEnvelope {
    if let Some(envelope) = data.and_then(ours) {
        return envelope;
    }
    let text = message
        .strip_prefix(&format!("MCP error {code}: "))
        .unwrap_or(message);
    let named = |class: ErrorClass, code: &'static str| {
        ErrorEnvelope::new(class, cut(text)).with_code(code)
    };
    match code {
        -32602 => text::read(text)
            .filter(|envelope| envelope.error_class != ErrorClass::Unknown)
            .unwrap_or_else(|| {
                let mut envelope = crate::args::invalid_arguments(Vec::new());
                envelope.fields_mut().message = cut(text);
                envelope
            }),
        -32601 => named(ErrorClass::Unsupported, "METHOD_NOT_FOUND"),
        -32600 => named(ErrorClass::Internal, "INVALID_REQUEST"),
        -32700 => named(ErrorClass::Internal, "PARSE_ERROR"),
        -32603 => named(ErrorClass::Internal, "INTERNAL_ERROR"),
        -32800 => named(ErrorClass::Cancelled, "REQUEST_CANCELLED"),
        -32001 => named(ErrorClass::Timeout, "REQUEST_TIMEOUT"),
        -32002 => named(ErrorClass::ObjectNotFound, "RESOURCE_NOT_FOUND"),
        -32023 => {
            let envelope = named(ErrorClass::RateLimited, "RATE_LIMITED");
            match data {
                Some(data) => Signals::of_jsonrpc_data(data).apply(envelope),
                None => envelope,
            }
        }
        other => ErrorEnvelope::new(ErrorClass::Unknown, cut(text))
            .with_code(format!("JSONRPC_{}", other.unsigned_abs())),
    }
}

/// The failure of a call the client gave up waiting for.
#[cfg(feature = "rmcp")]
pub(super) fn timed_out() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::Timeout,
        "the tool call timed out before the server answered",
    )
    .with_code("REQUEST_TIMEOUT")
}

/// [`read_tool_result`] for rmcp's `CallToolResult` (features `host` and
/// `rmcp`), reading only the parts [`read_tool_result`] reads.
#[cfg(feature = "rmcp")]
#[must_use]
pub fn read_call_tool_result(result: &rmcp::model::CallToolResult) -> Option<ErrorEnvelope> {
    if result.is_error != Some(true) {
        return None;
    }
    // Only what the reader looks at, and no JSON deeper than it reads:
    // serializing a deep `structuredContent` whole would recurse as deep.
    let mut value = serde_json::Map::new();
    value.insert("isError".into(), Value::Bool(true));
    let texts: Vec<Value> = result
        .content
        .iter()
        .filter_map(|block| block.as_text())
        .map(|text| serde_json::json!({"type": "text", "text": text.text}))
        .collect();
    value.insert("content".into(), Value::Array(texts));
    if let Some(structured) = result
        .structured_content
        .as_ref()
        .filter(|value| super::bound::shallow(value))
    {
        value.insert("structuredContent".into(), structured.clone());
    }
    if let Some(failure) = result
        .meta
        .as_ref()
        .and_then(|meta| meta.0.get(tool_failure::KEY))
        .filter(|value| super::bound::shallow(value))
    {
        value.insert(
            "_meta".into(),
            serde_json::json!({ tool_failure::KEY: failure }),
        );
    }
    read_tool_result(&Value::Object(value))
}

/// [`read_jsonrpc_error`] for rmcp's `ErrorData` (features `host` and
/// `rmcp`).
#[cfg(feature = "rmcp")]
#[must_use]
pub fn read_error_data(error: &rmcp::ErrorData) -> ErrorEnvelope {
    read_jsonrpc_error(i64::from(error.code.0), &error.message, error.data.as_ref())
}

/// The failure of an rmcp client call (features `host` and `rmcp`): a
/// JSON-RPC error the server answered ([`read_error_data`]); a request
/// the client timed out (`TIMEOUT`, code `REQUEST_TIMEOUT`, effect
/// unknown) or cancelled (`CANCELLED`); a closed or broken transport
/// (`CONNECTION_FAILED`, code `TRANSPORT_CLOSED`, effect unknown); anything
/// else `UNKNOWN` with rmcp's text.
#[cfg(feature = "rmcp")]
#[must_use]
pub fn read_service_error(error: &rmcp::ServiceError) -> ErrorEnvelope {
    use rmcp::ServiceError;
    match error {
        ServiceError::McpError(data) => read_error_data(data),
        ServiceError::Timeout { .. } => timed_out(),
        ServiceError::Cancelled { .. } => {
            ErrorEnvelope::new(ErrorClass::Cancelled, "the tool call was cancelled")
                .with_code("REQUEST_CANCELLED")
        }
        ServiceError::TransportClosed | ServiceError::TransportSend(_) => ErrorEnvelope::new(
            ErrorClass::ConnectionFailed,
            "the connection to the server closed",
        )
        .with_code("TRANSPORT_CLOSED"),
        other => ErrorEnvelope::new(ErrorClass::Unknown, cut(&other.to_string())),
    }
}
