//! The MCP `CallToolResult` shape for an error envelope, as JSON, and the
//! draft tool-failure `_meta` object (SEP-3313), which a server turns on
//! with `rmcp::Router::with_tool_failure_meta`; the rmcp types are built in
//! `integrations/rmcp.rs`.

#[cfg(feature = "rmcp")]
use serde_json::Map;
use serde_json::{Value, json};

#[cfg(any(feature = "rmcp", feature = "host"))]
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// The JSON of `Envelope::to_mcp_result`, whose docs describe it.
pub(crate) fn call_tool_result(envelope: &ErrorEnvelope) -> Value {
    let [json, text] = crate::render::text::blocks(envelope);
    json!({
        "content": [{ "type": "text", "text": json }, { "type": "text", "text": text }],
        "structuredContent": envelope.to_json(),
        "isError": envelope.is_error,
        "resultType": "complete",
    })
}

/// The `_meta` key of the tool-failure object (SEP-3313, draft).
#[cfg(feature = "rmcp")]
pub(crate) const TOOL_FAILURE_KEY: &str = "io.modelcontextprotocol/toolFailure";

/// The tool-failure object of MCP's draft SEP-3313 ("Structured
/// Tool-Failure Classification") for `envelope`, at `now_ms` (Unix epoch
/// milliseconds):
///
/// | member | value |
/// |---|---|
/// | `class` | [`ErrorClass::tool_failure_class`] of the envelope's class |
/// | `code` | the envelope's `code`, else its class's wire name |
/// | `retryable` | the envelope's `retryable`; only for `"reliability"`, as the SEP says |
/// | `retryNotBefore` | `now_ms + retry_after_ms`, saturating; only with a retry hint |
/// | `correlationId` | the envelope's `correlation_id` (the SEP requires one; an envelope without gets a generated id, which no log line carries: answer through a `CallContext`) |
/// | `agentGuidance` | the first next step; left out when there is none |
#[cfg(feature = "rmcp")]
pub(crate) fn tool_failure(envelope: &ErrorEnvelope, now_ms: u64) -> Value {
    let class = envelope.error_class.tool_failure_class();
    let mut failure = Map::new();
    failure.insert("class".into(), class.into());
    let code = envelope
        .code
        .as_deref()
        .unwrap_or(envelope.error_class.as_str());
    failure.insert("code".into(), code.into());
    if class == "reliability" {
        failure.insert("retryable".into(), envelope.retryable.into());
    }
    if let Some(wait) = envelope.retry_after_ms {
        failure.insert("retryNotBefore".into(), now_ms.saturating_add(wait).into());
    }
    let id = envelope
        .correlation_id
        .clone()
        .unwrap_or_else(crate::model::envelope::generated_id);
    failure.insert("correlationId".into(), id.into());
    if let Some(step) = envelope.next_steps.first() {
        failure.insert("agentGuidance".into(), step.as_str().into());
    }
    Value::Object(failure)
}

/// The envelope of a call of a tool the server does not have: the one
/// answer for it, written by the rmcp integration's `Router` and read
/// back by the host side from the SDKs' texts. `shown` is the name as it is
/// echoed (cut by the caller), `near` the near-miss tool names.
#[cfg(any(feature = "rmcp", feature = "host"))]
pub(crate) fn unknown_tool(shown: &str, near: Vec<String>) -> ErrorEnvelope {
    let step = if near.is_empty() {
        "list the tools with tools/list and call one of them"
    } else {
        "if a tool in fuzzy_matches is the one meant, call it with the same arguments; otherwise list the tools with tools/list"
    };
    ErrorEnvelope::new(
        ErrorClass::ObjectNotFound,
        format!("no tool is called {}", Value::from(shown)),
    )
    .with_code("UNKNOWN_TOOL")
    .with_fuzzy_matches(near)
    .with_next_step(step)
}

/// Now, in Unix epoch milliseconds (0 before 1970, saturating far ahead):
/// the clock of SEP-3313's `retryNotBefore`, written and read.
#[cfg(any(feature = "rmcp", feature = "host"))]
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        })
}

#[cfg(all(test, feature = "rmcp"))]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn tool_failure_of_a_retryable_read() {
        let busy = ErrorEnvelope::new(ErrorClass::Busy, "pool full")
            .with_retry_after_ms(1500)
            .with_next_step("wait, then repeat the same call")
            .with_correlation_id("req-7");
        assert_eq!(
            tool_failure(&busy, 1_700_000_000_000),
            json!({
                "class": "reliability",
                "code": "BUSY",
                "retryable": true,
                "retryNotBefore": 1_700_000_001_500_u64,
                "correlationId": "req-7",
                "agentGuidance": "wait, then repeat the same call"
            })
        );
    }

    #[test]
    fn tool_failure_of_capability_and_governance_carries_no_retryable() {
        let missing = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "no note n-9")
            .with_code("NOTE_NOT_FOUND")
            .with_correlation_id("req-8");
        assert_eq!(
            tool_failure(&missing, 5),
            json!({"class": "capability", "code": "NOTE_NOT_FOUND", "correlationId": "req-8"})
        );
        let login = ErrorEnvelope::new(ErrorClass::InteractionRequired, "sign in again")
            .with_correlation_id("req-9")
            .with_retry_after_ms(u64::MAX);
        assert_eq!(
            tool_failure(&login, 5),
            json!({
                "class": "governance", "code": "INTERACTION_REQUIRED",
                "retryNotBefore": u64::MAX, "correlationId": "req-9"
            })
        );
    }

    #[test]
    fn a_write_that_may_have_acted_is_reliability_not_retryable() {
        let timeout = ErrorEnvelope::new(ErrorClass::Timeout, "slow").with_correlation_id("req-10");
        assert_eq!(
            tool_failure(&timeout, 0),
            json!({
                "class": "reliability", "code": "TIMEOUT", "retryable": false,
                "correlationId": "req-10",
                "agentGuidance": "the call may have taken effect: check its result before repeating it"
            })
        );
    }

    #[test]
    fn without_an_id_one_is_generated() {
        let bare = tool_failure(&ErrorEnvelope::new(ErrorClass::Internal, "boom"), 0);
        let id = bare["correlationId"].as_str().unwrap();
        assert_eq!(id.split_once('-').unwrap().0.len(), 8);
    }

    #[test]
    fn every_class_has_a_tool_failure_class() {
        for &class in ErrorClass::ALL {
            assert!(
                ["capability", "reliability", "governance"].contains(&class.tool_failure_class()),
                "{class:?}"
            );
        }
    }
}
