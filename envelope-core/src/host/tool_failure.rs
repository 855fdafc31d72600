//! Reading the draft SEP-3313 tool-failure object
//! (`_meta["io.modelcontextprotocol/toolFailure"]`) as it means.

use serde_json::{Map, Value};

use super::bound::{MAX_NAME_CHARS, MAX_STEP_CHARS, cut_to};
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// The `_meta` key of the object.
pub(super) const KEY: &str = "io.modelcontextprotocol/toolFailure";

/// The envelope of a SEP-3313 tool-failure object, with `message` (the
/// result's text): the table on [`read_tool_result`](super::read_tool_result).
pub(super) fn read(failure: &Map<String, Value>, message: String) -> ErrorEnvelope {
    let get_str = |key: &str| {
        failure
            .get(key)
            .and_then(Value::as_str)
            .filter(|text| !text.is_empty())
    };
    let sep_class = get_str("class");
    let code = get_str("code").map(|code| cut_to(code, MAX_NAME_CHARS));
    let reliability = sep_class == Some("reliability");
    // What the object says, if it says it (a boolean).
    let said = failure.get("retryable").and_then(Value::as_bool);
    let retryable = said == Some(true);
    let named = code
        .as_deref()
        .and_then(|code| code.parse::<ErrorClass>().ok())
        .filter(|class| sep_class.is_none_or(|sep| sep == class.tool_failure_class()))
        // A class whose failures pass on a repeat, said not to: the
        // server's word wins, and only `INTERNAL` says it on our wire.
        .filter(|class| !(reliability && said == Some(false) && class.is_retryable()));
    let class = named.unwrap_or(match sep_class {
        Some("governance") => ErrorClass::InteractionRequired,
        Some("capability") => ErrorClass::Unsupported,
        Some("reliability") if retryable => ErrorClass::Transient,
        Some("reliability") => ErrorClass::Internal,
        _ => ErrorClass::Unknown,
    });
    let mut envelope = ErrorEnvelope::new(class, message);
    if let Some(code) = code {
        envelope = envelope.with_code(code);
    }
    if reliability && said == Some(false) {
        envelope = envelope.with_retryable(false);
    }
    if let Some(wait) = failure
        .get("retryNotBefore")
        .and_then(crate::model::lenient::millis)
        .map(|not_before| not_before.saturating_sub(crate::render::mcp::now_ms()))
    {
        envelope = envelope.with_retry_after_ms(wait);
    }
    if let Some(id) = get_str("correlationId") {
        envelope = envelope.with_correlation_id(cut_to(id, MAX_NAME_CHARS));
    }
    if let Some(step) = get_str("agentGuidance") {
        // First: the server's own words come before the check step an
        // unknown effect adds.
        envelope
            .fields_mut()
            .next_steps
            .insert(0, cut_to(step, MAX_STEP_CHARS));
    }
    envelope
}
