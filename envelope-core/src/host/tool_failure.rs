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
    let retryable = failure.get("retryable").and_then(Value::as_bool) == Some(true);
    let named = code
        .as_deref()
        .and_then(|code| code.parse::<ErrorClass>().ok())
        .filter(|class| sep_class.is_none_or(|sep| sep == class.tool_failure_class()))
        // A class whose failures pass on a repeat, said not to: the
        // server's word wins, and only `INTERNAL` says it on our wire.
        .filter(|class| !(reliability && !retryable && class.is_retryable()));
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
    if reliability && !retryable {
        envelope = envelope.with_retryable(false);
    }
    if let Some(wait) = failure
        .get("retryNotBefore")
        .and_then(Value::as_f64)
        .and_then(|not_before| wait_until(not_before, crate::render::mcp::now_ms()))
    {
        envelope = envelope.with_retry_after_ms(wait);
    }
    if let Some(id) = get_str("correlationId") {
        envelope = envelope.with_correlation_id(cut_to(id, MAX_NAME_CHARS));
    }
    if let Some(step) = get_str("agentGuidance") {
        envelope = envelope.with_next_step(cut_to(step, MAX_STEP_CHARS));
    }
    envelope
}

/// The milliseconds from `now_ms` to `not_before` (epoch milliseconds,
/// any JSON number): zero when it has passed, saturating far ahead; `None`
/// for a negative or non-finite number.
fn wait_until(not_before: f64, now_ms: u64) -> Option<u64> {
    if !not_before.is_finite() || not_before < 0.0 {
        return None;
    }
    // `as` saturates at `u64::MAX`; the fraction of a millisecond is
    // rounded up, so the wait never ends early.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let not_before = not_before.ceil() as u64;
    Some(not_before.saturating_sub(now_ms))
}

#[cfg(test)]
mod tests {
    use super::wait_until;

    #[test]
    fn integer_and_float_read_the_same() {
        assert_eq!(wait_until(1_500.0, 1_000), Some(500));
        assert_eq!(wait_until(1_499.2, 1_000), Some(500));
        assert_eq!(wait_until(900.0, 1_000), Some(0));
        assert_eq!(wait_until(1e300, 0), Some(u64::MAX));
        assert_eq!(wait_until(-1.0, 0), None);
        assert_eq!(wait_until(f64::NAN, 0), None);
    }
}
