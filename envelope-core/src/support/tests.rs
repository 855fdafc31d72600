//! The helpers of `__private`, tested where they live: the derive's own
//! tests reach them only through generated code, and the core's mutation
//! run would not notice a helper that returned nothing.

use serde_json::{Map, Value, json};

use super::private::*;

#[test]
fn list_moves_or_copies_every_string() {
    assert_eq!(list(vec![String::from("a"), String::from("b")]), ["a", "b"]);
    assert_eq!(list(["x", "y"]), ["x", "y"]);
    assert_eq!(list(&["p", "q"][..]), ["p", "q"]);
    assert_eq!(list(Some(vec!["s"])), ["s"]);
    assert_eq!(list(None::<Vec<String>>), Vec::<String>::new());
}

#[test]
fn steps_are_the_templates_then_the_field_with_room_for_a_check_step() {
    let both = steps(
        [String::from("first"), String::from("second")],
        vec!["third"],
    );
    assert_eq!(both, ["first", "second", "third"]);
    assert!(both.capacity() >= 4, "{}", both.capacity());
    let alone = steps([String::from("only")], NO_STEPS);
    assert_eq!(alone, ["only"]);
    assert!(alone.capacity() >= 2, "{}", alone.capacity());
    assert_eq!(steps([], &["a", "b"][..]), ["a", "b"]);
}

#[test]
fn detail_is_the_fields_json_or_null() {
    assert_eq!(detail("EMP"), json!("EMP"));
    assert_eq!(detail(&42_u8), json!(42));
    assert_eq!(detail(&vec![1, 2]), json!([1, 2]));
    assert_eq!(<str as DetailField>::to_detail("x\"y"), json!("x\"y"));
    // A map with non-string keys does not serialize as JSON.
    let mut keyed = std::collections::BTreeMap::new();
    keyed.insert(vec![1_u8], 2);
    assert_eq!(detail(&keyed), Value::Null);
}

#[test]
fn details_keep_every_entry() {
    assert_eq!(
        Value::Object(details([("name", json!("EMP")), ("rows", json!(3))])),
        json!({"name": "EMP", "rows": 3})
    );
    assert_eq!(details([]), Map::new());
}

#[test]
fn base_fills_class_category_code_and_message() {
    let envelope = base(
        ErrorClass::Busy,
        UserErrorCategory::Technical,
        "POOL_FULL",
        String::from("pool full"),
    );
    assert_eq!(
        envelope.to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"pool full","code":"POOL_FULL","category":"Technical","retryable":true}"#
    );
    // A class whose effect is unknown is not retryable before `settle`.
    let envelope = base(
        ErrorClass::Timeout,
        UserErrorCategory::Technical,
        "SLOW",
        String::from("slow"),
    );
    assert!(!envelope.retryable);
    assert!(envelope.next_steps.is_empty());
}

#[test]
fn settle_applies_the_retry_rule() {
    let timeout = || {
        base(
            ErrorClass::Timeout,
            UserErrorCategory::Technical,
            "SLOW",
            String::from("slow"),
        )
    };
    let mut repeatable = timeout();
    settle(&mut repeatable, true, true);
    assert!(repeatable.retryable);
    assert!(repeatable.next_steps.is_empty());
    let mut checked = timeout();
    settle(&mut checked, true, false);
    assert!(!checked.retryable);
    assert_eq!(
        checked.next_steps,
        ["the call may have taken effect: check its result before repeating it"]
    );
}

#[test]
fn role_fields() {
    assert_eq!(
        tool(String::from("describe")),
        Some(String::from("describe"))
    );
    assert_eq!(tool("describe"), Some(String::from("describe")));
    assert_eq!(tool(""), None);
    assert_eq!(tool(None::<String>), None);
    assert_eq!(retry_ms(250_u64), Some(250));
    assert_eq!(retry_ms(std::time::Duration::from_millis(1500)), Some(1500));
    assert_eq!(retry_ms(None::<u64>), None);
    assert_eq!(ora_code(942), Some(942));
    assert_eq!(ora_code(None::<i32>), None);
}

#[test]
fn texts_and_constants() {
    assert_eq!(display(&format_args!("a{}", 1)), "a1");
    assert_eq!(
        generic(ErrorClass::Internal),
        ErrorClass::Internal.generic_message()
    );
    assert_eq!(text("t"), "t");
    assert_eq!(or(Some(5_u64), 9_u64), Some(5));
    assert_eq!(or(None::<u64>, 9_u64), Some(9));
    assert_eq!(correlation_id("req-1"), Some(String::from("req-1")));
    assert_eq!(correlation_id(" "), None);
    assert_eq!(
        correlation_id_opt(Some("req-2")),
        Some(String::from("req-2"))
    );
    assert_eq!(correlation_id_opt(None::<String>), None);
}

#[test]
fn fill_adds_only_what_the_wrapped_envelope_left_empty() {
    let tools = [(ErrorClass::Busy, "wait_tool")];
    let defaults = VariantSpec::new("")
        .with_suggested_tool("any_tool")
        .with_help_url("https://help")
        .with_ora_code(942)
        .with_retry_after_ms(250)
        .with_next_steps(&["retry later"]);
    let filled = fill(ErrorEnvelope::new(ErrorClass::Busy, "b"), &tools, defaults);
    assert_eq!(filled.suggested_tool.as_deref(), Some("wait_tool"));
    assert_eq!(filled.help_url.as_deref(), Some("https://help"));
    assert_eq!(filled.ora_code, Some(942));
    assert_eq!(filled.retry_after_ms, Some(250));
    assert_eq!(filled.next_steps, ["retry later"]);
    // Set fields stay; steps are kept when the envelope has its own.
    let own = ErrorEnvelope::new(ErrorClass::Internal, "i")
        .with_suggested_tool("own")
        .with_help_url("https://own")
        .with_ora_code(1)
        .with_retry_after_ms(2)
        .with_next_step("own step");
    let kept = fill(own.clone(), &tools, defaults);
    assert_eq!(kept, own);
    // After a check step the container's steps still come.
    let checked = ErrorEnvelope::new(ErrorClass::Timeout, "t");
    let filled = fill(
        checked,
        &[],
        VariantSpec::new("").with_next_steps(&["look"]),
    );
    assert_eq!(
        filled.next_steps,
        [
            "the call may have taken effect: check its result before repeating it",
            "look"
        ]
    );
    assert_eq!(filled.suggested_tool, None);
    let by_default = fill(ErrorEnvelope::new(ErrorClass::Busy, "b"), &[], defaults);
    assert_eq!(by_default.suggested_tool.as_deref(), Some("any_tool"));
}
