//! Retries and side effects: the effect of a failed call, the retry rule
//! that combines it with `retryable`, `idempotent`, `retryable = ...`
//! overrides, and correlation ids, through the derive and the builder.

use envelope::{Effect, Envelope, ErrorClass, ErrorEnvelope, VariantSpec};
use serde_json::json;

const CHECK: &str = "the call may have taken effect: check its result before repeating it";
const CHECK_PARTIAL: &str =
    "part of the call took effect: check what was applied and repeat only the rest";

#[derive(Debug, Envelope)]
enum StoreError {
    /// A read: repeating it is harmless.
    #[envelope(class = Timeout, idempotent, message = "the read timed out")]
    ReadTimeout,
    /// A write that may have landed.
    #[envelope(class = Timeout, message = "the insert timed out")]
    InsertTimeout,
    /// An upsert keyed by the caller: idempotent even after a timeout.
    #[envelope(
        class = Timeout,
        idempotent,
        message = "the upsert timed out",
        next_step = "retry the same upsert"
    )]
    UpsertTimeout,
    /// Some rows of a batch were written.
    #[envelope(class = Internal, effect = partial, message = "{written} of {total} rows written")]
    BatchPartial { written: u32, total: u32 },
    /// A bad credential reported by the driver as a connection failure.
    #[envelope(class = ConnectionFailed, retryable = false, message = "the database rejected the credentials")]
    BadCredential,
    /// A busy refusal: nothing happened, retry later.
    #[envelope(class = Busy, retry_after_ms = 500)]
    Busy {
        #[envelope(correlation_id)]
        request: u64,
    },
    /// A conflict the author knows a plain retry resolves.
    #[envelope(class = Conflict, retryable = true, message = "the row is locked")]
    Locked {
        #[envelope(correlation_id)]
        request: Option<String>,
    },
}

fn json_of(error: &StoreError) -> serde_json::Value {
    error.to_envelope().to_json()
}

#[test]
fn a_timed_out_read_is_retryable_a_timed_out_write_is_checked_first() {
    assert_eq!(
        json_of(&StoreError::ReadTimeout),
        json!({
            "isError": true,
            "error_class": "TIMEOUT",
            "message": "the read timed out",
            "code": "READ_TIMEOUT",
            "category": "Technical",
            "retryable": true,
            "effect": "unknown"
        })
    );
    assert_eq!(
        json_of(&StoreError::InsertTimeout),
        json!({
            "isError": true,
            "error_class": "TIMEOUT",
            "message": "the insert timed out",
            "next_steps": [CHECK],
            "code": "INSERT_TIMEOUT",
            "category": "Technical",
            "effect": "unknown"
        })
    );
    assert_eq!(
        json_of(&StoreError::UpsertTimeout),
        json!({
            "isError": true,
            "error_class": "TIMEOUT",
            "message": "the upsert timed out",
            "next_steps": ["retry the same upsert"],
            "code": "UPSERT_TIMEOUT",
            "category": "Technical",
            "retryable": true,
            "effect": "unknown"
        })
    );
}

#[test]
fn a_partial_write_says_what_to_check() {
    let error = StoreError::BatchPartial {
        written: 3,
        total: 10,
    };
    assert_eq!(
        error.to_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"INTERNAL","message":"3 of 10 rows written","next_steps":["part of the call took effect: check what was applied and repeat only the rest"],"code":"BATCH_PARTIAL","category":"Technical","effect":"partial"}"#
    );
    assert_eq!(error.into_envelope().next_steps, [CHECK_PARTIAL]);
}

#[test]
fn retryable_overrides_the_class() {
    let bad = StoreError::BadCredential.to_envelope();
    assert!(!bad.retryable);
    assert_eq!(bad.effect, Effect::Unknown);
    assert_eq!(bad.next_steps, [CHECK]);
    let locked = StoreError::Locked { request: None }.to_envelope();
    assert!(locked.retryable);
    assert_eq!(locked.effect, Effect::Nothing);
    assert!(locked.next_steps.is_empty());
    assert_eq!(locked.correlation_id, None);
}

#[test]
fn correlation_ids_reach_every_renderer() {
    let busy = StoreError::Busy { request: 4711 };
    let expected = r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","retry_after_ms":500,"code":"BUSY","category":"Technical","retryable":true,"correlation_id":"4711"}"#;
    assert_eq!(busy.to_json_string(), expected);
    assert_eq!(busy.to_tool_result_json("call_1").content, expected);
    assert_eq!(
        busy.to_mcp_result()["structuredContent"]["correlation_id"],
        "4711"
    );
    assert_eq!(busy.to_mcp_result()["content"][0]["text"], expected);
    let locked = StoreError::Locked {
        request: Some("req-9".into()),
    };
    assert_eq!(
        locked.into_envelope().correlation_id.as_deref(),
        Some("req-9")
    );
}

#[test]
fn the_catalog_describes_effects_and_ids() {
    let spec = |name: &str| -> VariantSpec {
        *StoreError::catalog()
            .iter()
            .find(|spec| spec.name == name)
            .unwrap()
    };
    let read = spec("ReadTimeout");
    assert_eq!(
        (
            read.effect,
            read.idempotent,
            read.retryable(),
            read.correlation_id
        ),
        (Some(Effect::Unknown), true, Some(true), None)
    );
    let insert = spec("InsertTimeout");
    assert_eq!(
        (insert.effect, insert.idempotent, insert.retryable()),
        (Some(Effect::Unknown), false, Some(false))
    );
    let batch = spec("BatchPartial");
    assert_eq!(
        (batch.effect, batch.retryable()),
        (Some(Effect::Partial), Some(false))
    );
    assert_eq!(spec("BadCredential").retryable(), Some(false));
    let busy = spec("Busy");
    assert_eq!(
        (busy.effect, busy.retryable(), busy.correlation_id),
        (Some(Effect::Nothing), Some(true), Some("request"))
    );
    assert_eq!(spec("Locked").retryable(), Some(true));
    assert_eq!(
        serde_json::to_value(busy).unwrap(),
        json!({
            "name": "Busy",
            "code": "BUSY",
            "class": "BUSY",
            "owner": "server",
            "category": "Technical",
            "suggested_tool": null,
            "next_steps": [],
            "message": "the server is busy",
            "help_url": null,
            "ora_code": null,
            "retry_after_ms": 500,
            "effect": "nothing",
            "idempotent": false,
            "retryable": true,
            "correlation_id": "request",
            "transparent": false
        })
    );
}

#[derive(Debug, Envelope)]
#[envelope(effect = unknown, idempotent)]
enum Defaults {
    /// The container's effect and idempotence apply.
    #[envelope(class = Transient, message = "the cache is rebuilding")]
    Rebuilding,
    /// The variant's own effect wins.
    #[envelope(class = PolicyDenied, effect = nothing, message = "not allowed")]
    Denied,
}

#[test]
fn container_defaults_apply_to_every_variant() {
    assert_eq!(
        Defaults::Rebuilding.to_json_string(),
        r#"{"isError":true,"error_class":"TRANSIENT","message":"the cache is rebuilding","code":"REBUILDING","category":"Technical","retryable":true,"effect":"unknown"}"#
    );
    assert_eq!(
        Defaults::Denied.to_json_string(),
        r#"{"isError":true,"error_class":"POLICY_DENIED","message":"not allowed","code":"DENIED","category":"Validation"}"#
    );
}

#[test]
fn the_builder_applies_the_same_rule() {
    let timeout = ErrorEnvelope::new(ErrorClass::Timeout, "slow");
    assert_eq!(
        timeout.to_json_string(),
        r#"{"isError":true,"error_class":"TIMEOUT","message":"slow","next_steps":["the call may have taken effect: check its result before repeating it"],"category":"Technical","effect":"unknown"}"#
    );
    let read = ErrorEnvelope::new(ErrorClass::Timeout, "slow").idempotent();
    assert_eq!(
        read.to_json_string(),
        r#"{"isError":true,"error_class":"TIMEOUT","message":"slow","category":"Technical","retryable":true,"effect":"unknown"}"#
    );
    let busy = ErrorEnvelope::new(ErrorClass::Busy, "full");
    assert!(busy.retryable);
    let partial = busy.with_effect(Effect::Partial);
    assert!(!partial.retryable);
    assert_eq!(partial.next_steps, [CHECK_PARTIAL]);
    // Applying the rule again replaces the check step instead of adding one.
    let again = partial
        .with_effect(Effect::Unknown)
        .with_next_step("then call status");
    assert_eq!(again.next_steps, [CHECK, "then call status"]);
    let forced =
        ErrorEnvelope::new(ErrorClass::ConnectionFailed, "bad password").with_retryable(false);
    assert!(!forced.retryable);
}

#[test]
fn correlation_ids_are_cleaned() {
    let id = |value: &str| {
        ErrorEnvelope::new(ErrorClass::Busy, "b")
            .with_correlation_id(value)
            .correlation_id
            .clone()
    };
    assert_eq!(id(""), None);
    assert_eq!(id(" \t\n"), None);
    assert_eq!(id("req-1"), Some("req-1".to_owned()));
    // 300 bytes of two-byte characters: cut to 256 bytes, 128 characters.
    let long = "é".repeat(150);
    assert_eq!(id(&long), Some("é".repeat(128)));
    // Three-byte characters: 256 is not a boundary, so 255 bytes are kept.
    assert_eq!(id(&"€".repeat(100)), Some("€".repeat(85)));
    let controls = ErrorEnvelope::new(ErrorClass::Busy, "b").with_correlation_id("a\u{1}\nb");
    assert_eq!(
        controls.to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"b","category":"Technical","retryable":true,"correlation_id":"a\u0001\nb"}"#
    );
    let from_uuid_like = ErrorEnvelope::new(ErrorClass::Busy, "b").with_correlation_id(42_u64);
    assert_eq!(from_uuid_like.correlation_id.as_deref(), Some("42"));
}

#[test]
fn effects_read_back_and_unknown_effects_are_unknown() {
    let read = |text: &str| serde_json::from_str::<ErrorEnvelope>(text).unwrap();
    let env =
        read(r#"{"error_class":"TIMEOUT","message":"m","effect":"partial","correlation_id":"x"}"#);
    assert_eq!(
        (env.effect, env.correlation_id.as_deref()),
        (Effect::Partial, Some("x"))
    );
    let env = read(r#"{"error_class":"TIMEOUT","message":"m","effect":"rolled_back"}"#);
    assert_eq!(env.effect, Effect::Unknown);
    let env =
        read(r#"{"error_class":"TIMEOUT","message":"m","effect":null,"correlation_id":null}"#);
    assert_eq!(
        (env.effect, env.correlation_id.clone()),
        (Effect::Nothing, None)
    );
    // `retryable: null` is what `new` would set: not retryable after an
    // unknown effect.
    let env =
        read(r#"{"error_class":"TIMEOUT","message":"m","effect":"unknown","retryable":null}"#);
    assert!(!env.retryable);
    let env = read(r#"{"error_class":"TIMEOUT","message":"m","retryable":null}"#);
    assert!(env.retryable);
}

/// A generic correlation id: the derive infers `Id: Display`.
#[derive(Debug, Envelope)]
#[envelope(class = Busy)]
struct Throttled<Id> {
    #[envelope(correlation_id)]
    request: Id,
}

#[test]
fn a_generic_correlation_id_gets_its_bound() {
    assert_eq!(
        Throttled { request: 7_u8 }
            .to_envelope()
            .correlation_id
            .as_deref(),
        Some("7")
    );
    assert_eq!(
        Throttled { request: "req-1" }
            .into_envelope()
            .correlation_id
            .as_deref(),
        Some("req-1")
    );
}

/// `effect = nothing` on a class whose default effect is `unknown`: the
/// call changed nothing, so a timeout is retryable without a check step.
#[derive(Debug, Envelope)]
#[envelope(class = Timeout, effect = nothing, next_step = "narrow the query")]
struct ReadTimedOut;

#[test]
fn explicit_nothing_on_a_class_that_may_have_taken_effect() {
    assert_eq!(
        ReadTimedOut.to_envelope().to_json(),
        json!({
            "isError": true,
            "error_class": "TIMEOUT",
            "message": "the operation timed out",
            "next_steps": ["narrow the query"],
            "retryable": true,
            "code": "READ_TIMED_OUT",
            "category": "Technical",
        })
    );
}
