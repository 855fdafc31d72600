//! Tool-result messages in the wire shapes of LLM providers' APIs.

use serde_json::{Value, json};

use crate::tool_result::ToolResult;

/// An Anthropic Messages API `tool_result` content block (sent inside a
/// `user` message): `type`, `tool_use_id`, `content`, and `is_error: true`
/// only when the call failed, since the API treats a missing flag as false.
#[must_use]
pub fn anthropic_tool_result(result: &ToolResult) -> Value {
    let mut block = json!({
        "type": "tool_result",
        "tool_use_id": result.tool_call_id,
        "content": result.content,
    });
    if result.is_error {
        block["is_error"] = Value::Bool(true);
    }
    block
}

/// An OpenAI Chat Completions message of role `tool`: `role`,
/// `tool_call_id`, `content`. The format has no error flag, so the failure
/// travels in `content` (the envelope JSON says `isError`).
#[must_use]
pub fn openai_tool_message(result: &ToolResult) -> Value {
    json!({
        "role": "tool",
        "tool_call_id": result.tool_call_id,
        "content": result.content,
    })
}
