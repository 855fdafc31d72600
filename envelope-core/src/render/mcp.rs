//! The MCP `CallToolResult` shape for an error envelope, as JSON; the
//! rmcp types of the same shape are in `integrations/rmcp.rs`.

use serde_json::{Value, json};

use crate::envelope::ErrorEnvelope;

/// The MCP `tools/call` result for a failed call, as JSON:
///
/// ```json
/// {"content":[{"type":"text","text":"<envelope JSON>"}],
///  "structuredContent":{<envelope>},
///  "isError":true,
///  "resultType":"complete"}
/// ```
///
/// The MCP specification (2025-06-18 and later) asks tools to report
/// failures the model can act on as results with `isError: true` rather than
/// as JSON-RPC errors, and to repeat structured content as text for clients
/// that only read `content`; both are done here. `isError` is the
/// envelope's own flag (`true` for every envelope this crate makes). The
/// 2026-07-28 schema requires `resultType` on every result (SEP-2322);
/// a finished tool call is `"complete"`.
#[must_use]
pub(crate) fn call_tool_result(envelope: &ErrorEnvelope) -> Value {
    // The text is serialized from the struct, not from the `Value`: a
    // `Value` object's key order depends on serde_json's features.
    json!({
        "content": [{ "type": "text", "text": envelope.json_string() }],
        "structuredContent": envelope.to_json(),
        "isError": envelope.is_error,
        "resultType": "complete",
    })
}
