//! The texts the official MCP SDKs write for a failed tool call, read
//! back: an unknown tool, rejected arguments (pydantic's and zod's
//! reports), a tool's own error. Only what a text states is read.

use super::bound::{cut, cut_to};
use super::{pydantic, zod};
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// The envelope a known SDK text states, if `text` is one (the table on
/// [`super::read_tool_result`]).
pub(super) fn read(text: &str) -> Option<ErrorEnvelope> {
    let text = text.trim();
    // The TypeScript SDK prefixes the JSON-RPC code of a tool error.
    let text = match text.strip_prefix("MCP error ") {
        Some(rest) => rest.split_once(": ").map_or(text, |(_, rest)| rest),
        None => text,
    };
    if let Some(name) = text
        .strip_prefix("Tool ")
        .and_then(|rest| rest.strip_suffix(" disabled"))
    {
        return Some(disabled(&cut(name.trim())));
    }
    if let Some(said) = text.strip_prefix("Output validation error: ") {
        // The tool answered what its output schema forbids: the server's
        // fault, not the arguments'.
        return Some(
            ErrorEnvelope::new(
                ErrorClass::Internal,
                format!("the tool's answer broke its output schema: {}", cut(said)),
            )
            .with_code("OUTPUT_INVALID"),
        );
    }
    if let Some(named) = text.strip_prefix("Unknown tool: ").or_else(|| {
        text.strip_prefix("Tool ")
            .and_then(|rest| rest.strip_suffix(" not found"))
    }) {
        return Some(unknown_tool(text, named));
    }
    if let Some(envelope) = pydantic::report(text) {
        return Some(envelope);
    }
    if let Some(envelope) = zod::report(text) {
        return Some(envelope);
    }
    // The Python SDK's wrapper of a tool's own error; FastMCP 2's.
    let rest = text
        .strip_prefix("Error executing tool ")
        .or_else(|| text.strip_prefix("Error calling tool "))?;
    let (_, said) = rest.split_once(": ")?;
    if let Some(envelope) = pydantic::report(said) {
        return Some(envelope);
    }
    Some(ErrorEnvelope::new(ErrorClass::Unknown, cut(said)))
}

/// The envelope of an unknown tool's text `text`, whose part after the
/// SDK's prefix is `named`: the name, and the near misses when the text
/// names them as this crate's router writes them (`Unknown tool: list_todo.
/// Did you mean list_todos?`, or `a or b`). The message is the text as
/// sent, cut.
fn unknown_tool(text: &str, named: &str) -> ErrorEnvelope {
    let (name, near) = match named.split_once(". Did you mean ") {
        Some((name, near)) => {
            let near = near.strip_suffix('?').unwrap_or(near);
            let near = near
                .split(" or ")
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .take(super::MAX_ITEMS)
                .map(|name| cut_to(name, super::MAX_NAME_CHARS))
                .collect();
            (name, near)
        }
        None => (named, Vec::new()),
    };
    let mut envelope = crate::render::mcp::unknown_tool(&cut(name.trim()), near);
    envelope.fields_mut().message = cut(text);
    envelope
}

/// A tool the server has but turned off (the TypeScript SDK's `Tool <name>
/// disabled`): not a problem of the arguments, and no repeat helps now.
fn disabled(name: &str) -> ErrorEnvelope {
    let quoted = serde_json::Value::from(name);
    ErrorEnvelope::new(
        ErrorClass::Unsupported,
        format!("the tool {quoted} is disabled on this server"),
    )
    .with_code("TOOL_DISABLED")
    .with_next_step(format!(
        "do not call {quoted} again now; use another tool, or go on without it"
    ))
}
