//! [`ToolResult`]: the result of one tool call, as an LLM client carries it.

use serde::{Deserialize, Serialize};

use crate::model::category::UserErrorCategory;
use crate::model::envelope::ErrorEnvelope;

/// The outcome of one tool call, to be sent back to the model.
///
/// Same fields and wire form as the `multi-llm` crate's `ToolResult`, so
/// either side reads the other's JSON:
///
/// ```json
/// {"tool_call_id":"call_xyz","content":"City not found","is_error":true,"error_category":"NotFound"}
/// ```
///
/// `error_category` is written as `null` when there is none; it may be
/// missing when read. Reading is lenient like [`ErrorEnvelope`]'s: unknown
/// keys are ignored, an unknown category reads as
/// [`UserErrorCategory::Unknown`], and `"is_error": null` reads as `false`
/// (`tool_call_id`, `content` and `is_error` are still required).
/// The shapes of the providers' chat APIs come from
/// [`ToolResult::to_openai_message`], [`ToolResult::to_openai_responses_item`],
/// [`ToolResult::to_anthropic_block`] and [`ToolResult::to_gemini_part`].
/// A failed result comes from
/// [`Envelope::to_tool_result`](crate::Envelope::to_tool_result).
///
/// With the `schemars` feature: implements `schemars::JsonSchema` (schemars
/// 1.x), for a tool's `outputSchema`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ToolResult {
    /// The id the model gave the tool call (`"call_xyz"`, `"toolu_01..."`).
    pub tool_call_id: String,
    /// What the tool returned: its output, or for an error what a model
    /// reads of the envelope (its JSON, a newline and its text; or the JSON
    /// alone).
    pub content: String,
    /// Whether the call failed. `null` reads as `false`.
    #[serde(deserialize_with = "crate::model::lenient::null_as_default")]
    pub is_error: bool,
    /// How the failure should steer the conversation; `None` on success.
    #[serde(default)]
    pub error_category: Option<UserErrorCategory>,
}

impl ToolResult {
    /// A successful result carrying `content`.
    #[must_use]
    pub fn success(tool_call_id: impl Into<String>, content: impl Into<String>) -> Self {
        ToolResult {
            tool_call_id: tool_call_id.into(),
            content: content.into(),
            is_error: false,
            error_category: None,
        }
    }

    /// A failed result: `content` as given (the envelope's JSON and text,
    /// or its JSON), `error_category` the envelope's category (the class's
    /// default when it has none), `is_error` the envelope's own flag
    /// (`true` for every envelope this crate makes). Reached through
    /// [`Envelope::to_tool_result`](crate::Envelope::to_tool_result) and
    /// [`Envelope::to_tool_result_json`](crate::Envelope::to_tool_result_json).
    pub(crate) fn failure(tool_call_id: &str, envelope: &ErrorEnvelope, content: String) -> Self {
        ToolResult {
            tool_call_id: String::from(tool_call_id),
            content,
            is_error: envelope.is_error,
            error_category: Some(envelope.category_or_default()),
        }
    }
}
