//! The host side: reading failures of servers written with this crate and
//! without it, and the next move. The SDK servers' real outputs are read
//! in `test_suite/tests/host_e2e.rs`; these are the rules, one by one.
#![cfg(feature = "host")]

use std::time::Duration;

use envelope_core::host::{self, NextMove};
use envelope_core::{
    ArgumentError, ArgumentErrorKind, CallBehaviour, Effect, Envelope, ErrorClass, ErrorEnvelope,
};
use proptest::prelude::*;
use serde_json::{Value, json};

fn text_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}], "isError": true})
}

#[test]
fn successes_are_none() {
    assert_eq!(
        host::read_tool_result(&json!({"content": [], "isError": false})),
        None
    );
    assert_eq!(host::read_tool_result(&json!({"content": []})), None);
    assert_eq!(host::read_tool_result(&json!("not a result")), None);
    assert_eq!(host::read_http(200, None, None, b"{}"), None);
    assert_eq!(host::read_http(302, None, None, b""), None);
}

#[test]
fn our_envelope_in_structured_content_or_text() {
    let envelope = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "table EMPLOYES does not exist")
        .with_code("TABLE_NOT_FOUND")
        .with_fuzzy_matches(vec!["EMPLOYEES".into()]);
    let structured = envelope.to_mcp_result();
    assert_eq!(host::read_tool_result(&structured), Some(envelope.clone()));
    let text = text_result(&envelope.to_json_string());
    assert_eq!(host::read_tool_result(&text), Some(envelope));
}

#[test]
fn the_sep_3313_object() {
    let result = json!({
        "content": [{"type": "text", "text": "the notes database is busy"}],
        "isError": true,
        "_meta": {"io.modelcontextprotocol/toolFailure": {
            "class": "reliability",
            "code": "DB_BUSY",
            "retryable": true,
            "correlationId": "req-9",
            "agentGuidance": "wait, then repeat the same call"
        }}
    });
    let envelope = host::read_tool_result(&result).unwrap();
    assert_eq!(
        envelope.to_json_string(),
        r#"{"isError":true,"error_class":"UNKNOWN","message":"the notes database is busy","next_steps":["wait, then repeat the same call"],"code":"DB_BUSY","category":"Technical","retryable":true,"effect":"unknown","correlation_id":"req-9"}"#
    );
    // A write, declared nothing: the SEP said retryable, the host repeats.
    assert_eq!(
        host::next_move(&envelope, CallBehaviour::default(), 1),
        NextMove::Repeat {
            after: Duration::from_secs(1)
        }
    );
    let capability = json!({
        "content": [{"type": "text", "text": "no such table"}],
        "isError": true,
        "_meta": {"io.modelcontextprotocol/toolFailure": {"class": "capability", "code": "TABLE_NOT_FOUND", "retryable": true}}
    });
    assert!(!host::read_tool_result(&capability).unwrap().retryable);
}

#[test]
fn plain_text_is_unknown_and_cut() {
    let envelope = host::read_tool_result(&text_result("boom: no such note")).unwrap();
    assert_eq!(
        envelope.to_json_string(),
        r#"{"isError":true,"error_class":"UNKNOWN","message":"boom: no such note","next_steps":["the call may have taken effect: check its result before repeating it"],"category":"Technical","effect":"unknown"}"#
    );
    assert_eq!(
        host::next_move(&envelope, CallBehaviour::READ, 1),
        NextMove::Stop
    );
    let long = "x".repeat(host::MAX_TEXT_CHARS + 10);
    let envelope = host::read_tool_result(&text_result(&long)).unwrap();
    assert_eq!(envelope.message.chars().count(), host::MAX_TEXT_CHARS + 1);
    assert!(envelope.message.ends_with('…'));
    let empty = host::read_tool_result(&json!({"content": [], "isError": true})).unwrap();
    assert_eq!(empty.message, "the tool failed and said nothing more");
}

#[test]
fn sdk_texts() {
    let python = host::read_tool_result(&text_result(
        "Error executing tool tool_error: no note named x",
    ))
    .unwrap();
    assert_eq!(
        (python.error_class, python.message.as_str()),
        (ErrorClass::Unknown, "no note named x")
    );

    for text in [
        "Unknown tool: nope",
        "MCP error -32602: Tool nope not found",
    ] {
        let envelope = host::read_tool_result(&text_result(text)).unwrap();
        assert_eq!(envelope.error_class, ErrorClass::ObjectNotFound, "{text}");
        assert_eq!(envelope.code.as_deref(), Some("UNKNOWN_TOOL"), "{text}");
        assert_eq!(envelope.message, r#"no tool is called "nope""#, "{text}");
    }

    let pydantic = "1 validation error for typedArguments\nn\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='abc', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.11/v/int_parsing";
    let envelope = host::read_tool_result(&text_result(pydantic)).unwrap();
    assert_eq!(
        serde_json::to_value(&envelope.argument_errors).unwrap(),
        json!([{"path": "/n", "kind": "wrong_type", "expected": "a valid integer", "received": "string"}])
    );
    assert_eq!(
        host::next_move(&envelope, CallBehaviour::default(), 1),
        NextMove::FixArguments {
            problems: envelope.argument_errors.clone()
        }
    );
}

#[test]
fn jsonrpc_errors() {
    let cases = [
        (
            -32601,
            "Method not found",
            ErrorClass::Unsupported,
            Some("METHOD_NOT_FOUND"),
        ),
        (-32603, "oops", ErrorClass::Internal, Some("INTERNAL_ERROR")),
        (
            -32800,
            "Request cancelled",
            ErrorClass::Cancelled,
            Some("REQUEST_CANCELLED"),
        ),
        (
            -32001,
            "Request timed out",
            ErrorClass::Timeout,
            Some("REQUEST_TIMEOUT"),
        ),
        (
            -32602,
            "tool not found: get_nte",
            ErrorClass::InvalidArguments,
            None,
        ),
        (
            -32602,
            "MCP error -32602: Tool nope not found",
            ErrorClass::ObjectNotFound,
            Some("UNKNOWN_TOOL"),
        ),
        (-31999, "custom", ErrorClass::Unknown, Some("JSONRPC_31999")),
    ];
    for (code, message, class, expected_code) in cases {
        let envelope = host::read_jsonrpc_error(code, message, None);
        assert_eq!(envelope.error_class, class, "{code} {message}");
        assert_eq!(envelope.code.as_deref(), expected_code, "{code} {message}");
    }
    let limited =
        host::read_jsonrpc_error(-32023, "Rate limited", Some(&json!({"retryAfterMs": 1200})));
    assert_eq!(limited.error_class, ErrorClass::RateLimited);
    assert_eq!(limited.retry_after_ms, Some(1200));
    assert_eq!(
        host::next_move(&limited, CallBehaviour::default(), 1),
        NextMove::Repeat {
            after: Duration::from_millis(1200)
        }
    );
    // Our envelope in `data` wins.
    let ours = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "no tool is called \"x\"")
        .with_code("UNKNOWN_TOOL");
    let read = host::read_jsonrpc_error(-32602, "whatever", Some(&ours.to_json()));
    assert_eq!(read, ours);
}

#[test]
fn http_problem_details_and_bare_statuses() {
    #[cfg(feature = "http")]
    {
        let envelope = ErrorEnvelope::new(ErrorClass::Busy, "statistics are being refreshed")
            .with_code("STATS_REFRESHING")
            .with_retry_after_ms(1500)
            .with_correlation_id("req-7f3a");
        let response = envelope_core::problem::http_response(&envelope);
        assert_eq!(host::read_http_response(&response), Some(envelope.clone()));
    }
    let problem = json!({"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.", "status": 403, "detail": "Your current balance is 30, but that costs 50.", "instance": "/account/12345/msgs/abc"});
    let read = host::read_http(
        403,
        Some("application/problem+json"),
        None,
        problem.to_string().as_bytes(),
    )
    .unwrap();
    assert_eq!(
        read.to_json_string(),
        r#"{"isError":true,"error_class":"INSUFFICIENT_PRIVILEGE","message":"Your current balance is 30, but that costs 50.","correlation_id":"/account/12345/msgs/abc","help_url":"https://example.com/probs/out-of-credit"}"#
    );
    assert_eq!(
        host::next_move(&read, CallBehaviour::READ, 1),
        NextMove::AskUser
    );

    let bare = host::read_http(503, Some("text/html"), Some("120"), b"<html>down</html>").unwrap();
    assert_eq!(bare.error_class, ErrorClass::Transient);
    assert_eq!(bare.retry_after_ms, Some(120_000));
    assert!(!bare.message.contains("html"));
    // A read repeats after the hint; a write that declares nothing stops.
    assert_eq!(
        host::next_move(&bare, CallBehaviour::READ, 1),
        NextMove::Repeat {
            after: Duration::from_secs(120)
        }
    );
    assert_eq!(
        host::next_move(&bare, CallBehaviour::default(), 1),
        NextMove::Stop
    );
}

#[test]
fn the_next_move_rules() {
    let missing = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "no table EMPLOYES")
        .with_fuzzy_matches(vec!["EMPLOYEES".into()]);
    assert_eq!(
        host::next_move(&missing, CallBehaviour::READ, 1),
        NextMove::PickNearMiss {
            names: vec!["EMPLOYEES".into()]
        }
    );
    assert_eq!(
        host::model_text(&missing, &host::next_move(&missing, CallBehaviour::READ, 1)),
        "OBJECT_NOT_FOUND: no table EMPLOYES. Did you mean: EMPLOYEES? Call the tool again with one of these."
    );
    let precondition = ErrorEnvelope::new(ErrorClass::PreconditionFailed, "open a session first")
        .with_suggested_tool("open_session");
    assert_eq!(
        host::next_move(&precondition, CallBehaviour::default(), 1),
        NextMove::CallTool {
            tool: "open_session".into()
        }
    );
    let user = ErrorEnvelope::new(ErrorClass::InteractionRequired, "approve the transfer");
    assert_eq!(
        host::next_move(&user, CallBehaviour::default(), 1),
        NextMove::AskUser
    );

    // A timeout of a write that declares nothing: effect unknown, stop.
    let timeout = ErrorEnvelope::new(ErrorClass::Timeout, "the export timed out");
    assert_eq!(timeout.effect, Effect::Unknown);
    assert_eq!(
        host::next_move(&timeout, CallBehaviour::default(), 1),
        NextMove::Stop
    );
    assert_eq!(
        host::model_text(&timeout, &NextMove::Stop),
        "TIMEOUT: the export timed out. Do not repeat the call; report the failure. Hint: the call may have taken effect: check its result before repeating it."
    );
    // The same of a read, of an idempotent write: repeat, with backoff, at
    // most three times.
    let idempotent = CallBehaviour::from_hints(Some(false), Some(true), Some(false));
    for tool in [CallBehaviour::READ, idempotent] {
        assert_eq!(
            host::next_move(&timeout, tool, 2),
            NextMove::Repeat {
                after: Duration::from_secs(2)
            }
        );
        assert_eq!(host::next_move(&timeout, tool, 4), NextMove::Stop);
    }
    assert_eq!(host::backoff(1), Duration::from_secs(1));
    assert_eq!(host::backoff(3), Duration::from_secs(4));
    assert_eq!(host::backoff(100), Duration::from_secs(30));

    // A connection failure the server judged hopeless stays hopeless.
    let hopeless = ErrorEnvelope::new(ErrorClass::ConnectionFailed, "bad password")
        .with_effect(Effect::Nothing)
        .with_retryable(false);
    assert_eq!(
        host::next_move(&hopeless, CallBehaviour::READ, 1),
        NextMove::Stop
    );

    let conflict = ErrorEnvelope::new(ErrorClass::Conflict, "the note changed");
    assert_eq!(
        host::next_move(&conflict, CallBehaviour::default(), 1),
        NextMove::FixArguments { problems: vec![] }
    );
    let args = envelope_core::args::invalid_arguments(vec![
        ArgumentError::new(ArgumentErrorKind::UnknownField, "/colum")
            .with_suggestions(vec!["column".into()]),
    ]);
    assert_eq!(
        host::model_text(&args, &host::next_move(&args, CallBehaviour::default(), 1)),
        "INVALID_ARGUMENTS: 1 problem in the arguments: /colum is not a known field (did you mean \"column\"?). Change the call, then make it again. Hint: fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument."
    );
}

/// Any JSON value as a result, a JSON-RPC error's data or an HTTP body.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        prop_oneof![
            "[a-z_]{0,12}",
            Just(String::from("Unknown tool: x")),
            Just(String::from(
                "1 validation error for xArguments\na.0\n  Input should be [type=missing"
            )),
            Just(String::from(
                "Input validation error: Invalid arguments for tool t: [{\"path\": [1, {}]}]"
            )),
            Just(String::from("Error executing tool t: ")),
            Just(String::from("{\"error_class\":\"BUSY\",\"message\":\"m\"}")),
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just(String::from("isError")),
                        Just(String::from("content")),
                        Just(String::from("type")),
                        Just(String::from("text")),
                        Just(String::from("structuredContent")),
                        Just(String::from("_meta")),
                        Just(String::from("io.modelcontextprotocol/toolFailure")),
                        Just(String::from("retryNotBefore")),
                        Just(String::from("error_class")),
                        Just(String::from("message")),
                        Just(String::from("status")),
                        Just(String::from("detail")),
                        "[a-z]{1,6}",
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn the_readers_never_panic(value in any_json(), code in any::<i64>(), status in 0u16..1000) {
        let mut result = value.clone();
        if let Value::Object(map) = &mut result {
            map.insert(String::from("isError"), Value::Bool(true));
        }
        if let Some(envelope) = host::read_tool_result(&result) {
            let _ = host::model_text(&envelope, &host::next_move(&envelope, CallBehaviour::default(), 1));
        }
        let _ = host::read_tool_result(&value);
        let text = value.as_str().unwrap_or("m");
        let envelope = host::read_jsonrpc_error(code, text, Some(&value));
        let _ = host::next_move(&envelope, CallBehaviour::READ, u32::MAX);
        let body = value.to_string();
        let _ = host::read_http(status, Some("application/problem+json"), Some(text), body.as_bytes());
        let _ = host::read_http(status, None, None, body.as_bytes());
    }
}
