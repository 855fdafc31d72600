//! rmcp (feature `rmcp`; only its model types, no runtime): an envelope,
//! and through the facade every derived type, becomes rmcp's
//! `CallToolResult` and an rmcp tool error.
//!
//! Both shapes carry the envelope's compact JSON in one text block, and
//! rmcp marks them `is_error: Some(true)`:
//!
//! - `From<ErrorEnvelope> for CallToolResult` also sets
//!   `structured_content` to the envelope object: the JSON of
//!   [`Envelope::to_mcp_result`], for a tool without an `outputSchema`
//!   (`Result<String, CallToolResult>` and `?`).
//! - `IntoContents for ErrorEnvelope` gives the text block only. Through
//!   rmcp's blanket impls it makes `Result<T, ErrorEnvelope>` a valid
//!   return type of a `#[tool]` function whenever `T` is one (`String`,
//!   `Json<Row>`, `CallToolResult`); rmcp leaves `structuredContent` out
//!   of the `Err` result, which a declared `outputSchema` describes (MCP
//!   2025-06-18, "Structured Content").

pub use ::rmcp::model::{CallToolResult, ContentBlock, IntoContents};

use crate::envelope::ErrorEnvelope;
use crate::envelope_trait::Envelope;

impl From<ErrorEnvelope> for CallToolResult {
    fn from(envelope: ErrorEnvelope) -> Self {
        call_tool_result(envelope)
    }
}

impl IntoContents for ErrorEnvelope {
    fn into_contents(self) -> Vec<ContentBlock> {
        contents(self)
    }
}

/// The body of a derived type's `IntoContents`: one text block with the
/// envelope's compact JSON.
#[must_use]
pub fn contents<E: Envelope>(error: E) -> Vec<ContentBlock> {
    vec![ContentBlock::text(error.to_json_string())]
}

/// The body of a derived type's `From<T> for CallToolResult`: the full
/// result, the envelope in `structured_content`.
#[must_use]
pub fn call_tool_result<E: Envelope>(error: E) -> CallToolResult {
    let envelope = error.into_envelope();
    // Not `CallToolResult::structured_error`: it would write the text from a
    // `Value`, losing the envelope's documented key order.
    let mut result = CallToolResult::error(vec![ContentBlock::text(envelope.json_string())]);
    result.is_error = Some(envelope.is_error);
    result.structured_content = Some(envelope.to_json());
    result
}

#[cfg(test)]
mod tests {
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
    fn contents_are_the_json_text() {
        let contents = rmcp::model::IntoContents::into_contents(busy());
        assert_eq!(contents.len(), 1);
        assert_eq!(contents[0].as_text().unwrap().text, BUSY_JSON);
    }
}
