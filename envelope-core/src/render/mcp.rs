//! The MCP `CallToolResult` shape for an error envelope.

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
pub fn call_tool_result(envelope: &ErrorEnvelope) -> Value {
    // The text is serialized from the struct, not from the `Value`: a
    // `Value` object's key order depends on serde_json's features.
    json!({
        "content": [{ "type": "text", "text": envelope.to_json_string() }],
        "structuredContent": envelope.to_json(),
        "isError": envelope.is_error,
        "resultType": "complete",
    })
}

/// Conversions into the rmcp SDK's `CallToolResult` (feature `rmcp`).
///
/// The result has the same shape as [`call_tool_result`]: `is_error:
/// Some(true)`, one text block holding the envelope's compact JSON and
/// `structured_content` set to the envelope object.
#[cfg(feature = "rmcp")]
impl From<ErrorEnvelope> for rmcp::model::CallToolResult {
    fn from(envelope: ErrorEnvelope) -> Self {
        rmcp_call_tool_result(&envelope)
    }
}

/// The borrowed form of `From<ErrorEnvelope>`: the envelope is copied.
#[cfg(feature = "rmcp")]
impl From<&ErrorEnvelope> for rmcp::model::CallToolResult {
    fn from(envelope: &ErrorEnvelope) -> Self {
        rmcp_call_tool_result(envelope)
    }
}

/// An envelope as an rmcp tool error (feature `rmcp`): one text block with
/// its compact JSON, as for every derived type.
///
/// Through rmcp's blanket impls this makes `Result<T, ErrorEnvelope>` a
/// valid return type of a `#[tool]` function whenever `T` is one
/// (`String`, `Json<Row>`, `CallToolResult`): rmcp marks the `Err` result
/// `isError: true` and leaves `structuredContent` out, which a declared
/// `outputSchema` describes (MCP 2025-06-18, "Structured Content"). A
/// server that merges several error types into `ErrorEnvelope`, or that
/// returns the envelope of [`crate::args::Args`] with `?`, needs nothing
/// else.
#[cfg(feature = "rmcp")]
impl rmcp::model::IntoContents for ErrorEnvelope {
    fn into_contents(self) -> Vec<rmcp::model::ContentBlock> {
        rmcp_contents(&self)
    }
}

#[cfg(feature = "rmcp")]
pub(crate) fn rmcp_call_tool_result(envelope: &ErrorEnvelope) -> rmcp::model::CallToolResult {
    // Not `CallToolResult::structured_error`: it would write the text from a
    // `Value`, losing the envelope's documented key order.
    let mut result = rmcp::model::CallToolResult::error(rmcp_contents(envelope));
    result.is_error = Some(envelope.is_error);
    result.structured_content = Some(envelope.to_json());
    result
}

/// The envelope as rmcp content: one text block with its compact JSON.
#[cfg(feature = "rmcp")]
pub(crate) fn rmcp_contents(envelope: &ErrorEnvelope) -> Vec<rmcp::model::ContentBlock> {
    vec![rmcp::model::ContentBlock::text(envelope.to_json_string())]
}

#[cfg(all(test, feature = "rmcp"))]
mod rmcp_tests {
    use rmcp::model::CallToolResult;
    use serde_json::json;

    use crate::{Envelope, ErrorClass, ErrorEnvelope};

    fn busy() -> ErrorEnvelope {
        ErrorEnvelope::new(ErrorClass::Busy, "pool full").with_retry_after_ms(250)
    }

    const BUSY_JSON: &str = r#"{"isError":true,"error_class":"BUSY","message":"pool full","retry_after_ms":250,"category":"Technical","retryable":true}"#;

    #[test]
    fn from_envelope_matches_the_json_renderer() {
        let result = CallToolResult::from(busy());
        assert_eq!(result.is_error, Some(true));
        assert_eq!(result.content.len(), 1);
        assert_eq!(result.content[0].as_text().unwrap().text, BUSY_JSON);
        assert_eq!(result.structured_content, Some(busy().to_json()));
        assert_eq!(result.meta, None);
        // rmcp's own wire form equals `to_mcp_result`, `resultType`
        // included.
        let wire = serde_json::to_value(&result).unwrap();
        assert_eq!(wire["resultType"], json!("complete"));
        assert_eq!(wire, busy().to_mcp_result());
    }

    #[test]
    fn trait_and_inherent_methods_agree() {
        let envelope = busy();
        let by_trait = <ErrorEnvelope as Envelope>::to_call_tool_result(&envelope);
        assert_eq!(by_trait, envelope.to_call_tool_result());
        assert_eq!(by_trait, CallToolResult::from(&envelope));
        assert_eq!(
            Box::new(envelope).to_call_tool_result(),
            CallToolResult::from(busy())
        );
    }
}
