//! The texts the official MCP SDKs write for a failed tool call, read
//! back: an unknown tool, rejected arguments (pydantic's and zod's
//! reports), a tool's own error. Only what a text states is read.

use super::bound::{cut, cut_to};
use super::{pydantic, zod};
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;
use crate::render::text::{NEAR_MISS_LEAD, NEAR_MISS_SEVERAL};

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
/// Call again with "list_todos" in place of the name you sent.`, several
/// as `the one meant of "a" or "b"`), or as its earlier versions did
/// (`Unknown tool: list_todo. Did you mean list_todos?`, or `a or b`).
/// The message is the text as sent, cut.
fn unknown_tool(text: &str, named: &str) -> ErrorEnvelope {
    let (name, near) = if let Some((name, rest)) = named.split_once(&format!(". {NEAR_MISS_LEAD}"))
    {
        let rest = rest.strip_prefix(NEAR_MISS_SEVERAL).unwrap_or(rest);
        (name, quoted_names(rest))
    } else if let Some((name, near)) = named.split_once(". Did you mean ") {
        let near = near.strip_suffix('?').unwrap_or(near);
        (name, near.split(" or ").map(str::to_owned).collect())
    } else {
        (named, Vec::new())
    };
    let near = near
        .iter()
        .map(|name| name.trim())
        .filter(|name| !name.is_empty())
        .take(super::MAX_ITEMS)
        .map(|name| cut_to(name, super::MAX_NAME_CHARS))
        .collect();
    let mut envelope = crate::render::mcp::unknown_tool(&cut(name.trim()), near);
    envelope.fields_mut().message = cut(text);
    envelope
}

/// The JSON strings at the start of `list`, separated by `, ` or ` or `
/// (as the text's lead lists names): `"a", "b" or "c" in place of ...`
/// gives `a`, `b` and `c`.
fn quoted_names(mut list: &str) -> Vec<String> {
    let mut names = Vec::new();
    while names.len() < super::MAX_ITEMS {
        let mut stream = serde_json::Deserializer::from_str(list).into_iter::<String>();
        let Some(Ok(name)) = stream.next() else { break };
        names.push(name);
        list = &list[stream.byte_offset()..];
        match list
            .strip_prefix(", ")
            .or_else(|| list.strip_prefix(" or "))
        {
            Some(rest) => list = rest,
            None => break,
        }
    }
    names
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
