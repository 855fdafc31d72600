//! The MCP `CallToolResult` shape for an error envelope.

use serde_json::{Value, json};

use crate::envelope::ErrorEnvelope;

/// The MCP `tools/call` result for a failed call, as JSON:
///
/// ```json
/// {"content":[{"type":"text","text":"<envelope JSON>"}],
///  "structuredContent":{<envelope>},
///  "isError":true}
/// ```
///
/// The MCP specification (2025-06-18 and later) asks tools to report
/// failures the model can act on as results with `isError: true` rather than
/// as JSON-RPC errors, and to repeat structured content as text for clients
/// that only read `content`; both are done here.
#[must_use]
pub fn call_tool_result(envelope: &ErrorEnvelope) -> Value {
    json!({
        "content": [{ "type": "text", "text": envelope.to_json_string() }],
        "structuredContent": envelope.to_json(),
        "isError": true,
    })
}
