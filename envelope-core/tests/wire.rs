//! Golden tests of the wire forms: exact JSON, byte for byte where the
//! order of keys is part of the contract.

use std::time::Duration;

use envelope_core::{Envelope, ErrorClass, ErrorEnvelope, ToolResult, UserErrorCategory};
use serde_json::json;

fn object_not_found() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::ObjectNotFound,
        "table or view EMPLOYES does not exist",
    )
    .with_ora_code(942)
    .with_suggested_tool("oracle_schema_inspect")
    .with_fuzzy_matches(vec!["EMPLOYEES".into(), "EMPLOYEE".into()])
}

#[test]
fn seed_object_not_found_example() {
    assert_eq!(
        object_not_found().to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","#,
            r#""message":"table or view EMPLOYES does not exist","ora_code":942,"#,
            r#""suggested_tool":"oracle_schema_inspect","#,
            r#""fuzzy_matches":["EMPLOYEES","EMPLOYEE"],"category":"NotFound"}"#
        )
    );
    let value = object_not_found().to_json();
    assert!(value.get("next_steps").is_none());
    assert!(value.get("retry_after_ms").is_none());
    assert!(value.get("retryable").is_none());
}

#[test]
fn busy_with_retry_hint() {
    let env = ErrorEnvelope::new(ErrorClass::Busy, "server busy")
        .with_retry_after(Duration::from_millis(250))
        .with_next_step("wait, then retry the same call");
    assert_eq!(
        env.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"BUSY","message":"server busy","#,
            r#""next_steps":["wait, then retry the same call"],"retry_after_ms":250,"#,
            r#""category":"Technical","retryable":true}"#
        )
    );
}

#[test]
fn every_class_wire_name() {
    let names: Vec<String> = ErrorClass::ALL
        .iter()
        .map(|c| serde_json::to_string(c).unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "\"INVALID_ARGUMENTS\"",
            "\"SYNTAX_ERROR\"",
            "\"RUNTIME_ERROR\"",
            "\"OBJECT_NOT_FOUND\"",
            "\"ALREADY_EXISTS\"",
            "\"PRECONDITION_FAILED\"",
            "\"CONFLICT\"",
            "\"UNAUTHENTICATED\"",
            "\"INTERACTION_REQUIRED\"",
            "\"INSUFFICIENT_PRIVILEGE\"",
            "\"POLICY_DENIED\"",
            "\"UNSUPPORTED\"",
            "\"RATE_LIMITED\"",
            "\"QUOTA_EXCEEDED\"",
            "\"BUSY\"",
            "\"TIMEOUT\"",
            "\"TRANSIENT\"",
            "\"CONNECTION_FAILED\"",
            "\"CANCELLED\"",
            "\"INTERNAL\"",
            "\"UNKNOWN\"",
        ]
    );
}

fn every_field() -> ErrorEnvelope {
    ErrorEnvelope::new(ErrorClass::PreconditionFailed, "no lease held")
        .with_ora_code(-1)
        .with_suggested_tool("acquire_lease")
        .with_fuzzy_matches(vec!["lease_a".into()])
        .with_next_step("call acquire_lease")
        .with_next_step("retry the statement")
        .with_retry_after_ms(10)
        .with_code("LEASE_REQUIRED")
        .with_category(UserErrorCategory::MissingContext)
        .with_help_url("https://example.com/errors/lease")
        .with_detail("session", "s-1")
        .with_detail("attempt", 3)
}

#[test]
fn round_trip_of_every_field() {
    // PRECONDITION_FAILED is not retryable by its class; the author's
    // judgement holds, since nothing changed.
    let env = every_field().with_retryable(true);
    let text = env.to_json_string();
    assert_eq!(
        text,
        concat!(
            r#"{"isError":true,"error_class":"PRECONDITION_FAILED","message":"no lease held","#,
            r#""ora_code":-1,"suggested_tool":"acquire_lease","fuzzy_matches":["lease_a"],"#,
            r#""next_steps":["call acquire_lease","retry the statement"],"retry_after_ms":10,"#,
            r#""code":"LEASE_REQUIRED","category":"MissingContext","retryable":true,"#,
            r#""help_url":"https://example.com/errors/lease","details":{"attempt":3,"session":"s-1"}}"#
        )
    );
    let back: ErrorEnvelope = serde_json::from_str(&text).unwrap();
    assert_eq!(back, env);
}

#[test]
fn tool_result_from_envelope_byte_for_byte() {
    let result = object_not_found().to_tool_result_json("call_42");
    assert_eq!(
        serde_json::to_string(&result).unwrap(),
        concat!(
            r#"{"tool_call_id":"call_42","content":"{\"isError\":true,"#,
            r#"\"error_class\":\"OBJECT_NOT_FOUND\","#,
            r#"\"message\":\"table or view EMPLOYES does not exist\",\"ora_code\":942,"#,
            r#"\"suggested_tool\":\"oracle_schema_inspect\","#,
            r#"\"fuzzy_matches\":[\"EMPLOYEES\",\"EMPLOYEE\"],\"category\":\"NotFound\"}","#,
            r#""is_error":true,"error_category":"NotFound"}"#
        )
    );
    assert_eq!(
        result,
        Envelope::to_tool_result_json(&object_not_found(), "call_42")
    );
}

#[test]
fn tool_result_matches_multi_llm_wire_form() {
    let result = ToolResult {
        tool_call_id: "call_xyz".into(),
        content: "City not found".into(),
        is_error: true,
        error_category: Some(UserErrorCategory::NotFound),
    };
    let multi_llm = r#"{"tool_call_id":"call_xyz","content":"City not found","is_error":true,"error_category":"NotFound"}"#;
    assert_eq!(serde_json::to_string(&result).unwrap(), multi_llm);
    assert_eq!(
        serde_json::from_str::<ToolResult>(multi_llm).unwrap(),
        result
    );

    let success = ToolResult::success("call_1", "22C and sunny");
    let multi_llm = r#"{"tool_call_id":"call_1","content":"22C and sunny","is_error":false,"error_category":null}"#;
    assert_eq!(serde_json::to_string(&success).unwrap(), multi_llm);
    assert_eq!(
        serde_json::from_str::<ToolResult>(multi_llm).unwrap(),
        success
    );
}

#[test]
fn user_error_category_matches_multi_llm() {
    let all: Vec<String> = UserErrorCategory::ALL
        .iter()
        .map(|c| serde_json::to_string(c).unwrap())
        .collect();
    assert_eq!(
        all,
        [
            "\"WorkflowDependency\"",
            "\"MissingContext\"",
            "\"NotFound\"",
            "\"Duplicate\"",
            "\"Validation\"",
            "\"Technical\"",
            "\"Unknown\"",
        ]
    );
}

#[test]
fn mcp_result_as_json() {
    let env = object_not_found();
    assert_eq!(
        env.to_mcp_result(),
        json!({
            "content": [{
                "type": "text",
                "text": r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table or view EMPLOYES does not exist","ora_code":942,"suggested_tool":"oracle_schema_inspect","fuzzy_matches":["EMPLOYEES","EMPLOYEE"],"category":"NotFound"}"#,
            }, {
                "type": "text",
                "text": "Call again with the one meant of \"EMPLOYEES\" or \"EMPLOYEE\" in place of the name you sent; if none of these is meant, call oracle_schema_inspect.",
            }],
            "structuredContent": {
                "isError": true,
                "error_class": "OBJECT_NOT_FOUND",
                "message": "table or view EMPLOYES does not exist",
                "ora_code": 942,
                "suggested_tool": "oracle_schema_inspect",
                "fuzzy_matches": ["EMPLOYEES", "EMPLOYEE"],
                "category": "NotFound"
            },
            "isError": true,
            "resultType": "complete"
        })
    );
}

/// An envelope read from a peer with `"isError": false` keeps the flag in
/// every renderer: its JSON, the tool result, the MCP result, and through
/// the trait.
#[test]
fn is_error_false_survives_every_renderer() {
    let env: ErrorEnvelope =
        serde_json::from_str(r#"{"isError":false,"error_class":"BUSY","message":"m"}"#).unwrap();
    assert!(!env.is_error);
    let json = r#"{"isError":false,"error_class":"BUSY","message":"m"}"#;
    assert_eq!(env.to_json_string(), json);
    assert_eq!(Envelope::to_json_string(&env), json);
    let result = env.to_tool_result_json("call_1");
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"tool_call_id": "call_1", "content": json, "is_error": false, "error_category": "Technical"})
    );
    assert_eq!(Envelope::to_tool_result_json(&env, "call_1"), result);
    assert!(!env.to_tool_result("call_1").is_error);
    let mcp = json!({
        "content": [
            {"type": "text", "text": json},
            {"type": "text", "text": "Do not repeat this call now. Tell the user it failed."}
        ],
        "structuredContent": {"isError": false, "error_class": "BUSY", "message": "m"},
        "isError": false,
        "resultType": "complete"
    });
    assert_eq!(env.to_mcp_result(), mcp);
    assert_eq!(Envelope::to_mcp_result(&env), mcp);
}

#[test]
fn provider_shapes() {
    let timeout = ErrorEnvelope::new(ErrorClass::Timeout, "slow").idempotent();
    let result = timeout.to_tool_result_json("toolu_01");
    let content = r#"{"isError":true,"error_class":"TIMEOUT","message":"slow","category":"Technical","retryable":true,"effect":"unknown"}"#;
    assert_eq!(
        result.to_anthropic_block(),
        json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": content, "is_error": true})
    );
    assert_eq!(
        result.to_openai_message(),
        json!({"role": "tool", "tool_call_id": "toolu_01", "content": content})
    );
    assert_eq!(
        result.to_openai_responses_item(),
        json!({"type": "function_call_output", "call_id": "toolu_01", "output": content})
    );
    assert_eq!(
        result.to_gemini_part("run_job"),
        json!({"functionResponse": {"id": "toolu_01", "name": "run_job", "response": {"error": {
            "isError": true, "error_class": "TIMEOUT", "message": "slow",
            "category": "Technical", "retryable": true, "effect": "unknown"
        }}}})
    );
    // The model's form (the JSON, then the text) is no JSON as a whole:
    // Gemini gets it as a string under `error`.
    let text = timeout.to_tool_result("toolu_01");
    assert_eq!(
        text.to_gemini_part("run_job"),
        json!({"functionResponse": {"id": "toolu_01", "name": "run_job", "response": {
            "error": format!("{content}\nRepeat the same call unchanged; it may succeed now.")
        }}})
    );

    let ok = ToolResult::success("toolu_02", "done");
    assert_eq!(
        ok.to_anthropic_block(),
        json!({"type": "tool_result", "tool_use_id": "toolu_02", "content": "done"})
    );
    assert_eq!(
        ok.to_openai_message(),
        json!({"role": "tool", "tool_call_id": "toolu_02", "content": "done"})
    );
    assert_eq!(
        ok.to_openai_responses_item(),
        json!({"type": "function_call_output", "call_id": "toolu_02", "output": "done"})
    );
    // Success content that happens to be JSON stays a string under `output`.
    assert_eq!(
        ToolResult::success("", r#"{"temp":18}"#).to_gemini_part("get_weather"),
        json!({"functionResponse": {"name": "get_weather", "response": {"output": "{\"temp\":18}"}}})
    );
}

#[test]
fn text_form() {
    let env = every_field();
    assert_eq!(
        env.to_string(),
        "Call again with \"lease_a\" in place of the name you sent; if it is not the one meant, call acquire_lease.\nPRECONDITION_FAILED (LEASE_REQUIRED): no lease held\nNext step: call acquire_lease\nNext step: retry the statement\nRetry after: 10 ms\nattempt: 3\nsession: s-1\nBackend error code: -1\nHelp: https://example.com/errors/lease\nCall again with \"lease_a\" in place of the name you sent; if it is not the one meant, call acquire_lease."
    );
    let result = ErrorEnvelope::new(ErrorClass::Internal, "boom").to_tool_result("c");
    assert_eq!(
        result.content,
        concat!(
            r#"{"isError":true,"error_class":"INTERNAL","message":"boom","next_steps":["the call may have taken effect: check its result before repeating it"],"category":"Technical","effect":"unknown"}"#,
            "\nDo not repeat this call: it may already have taken effect. Tell the user it failed and may have taken effect."
        )
    );
    assert_eq!(result.error_category, Some(UserErrorCategory::Technical));
}

#[test]
fn forward_compatible_parsing() {
    let env: ErrorEnvelope = serde_json::from_str(
        r#"{"isError":true,"error_class":"QUOTA_EXHAUSTED","message":"m","category":"RateLimited","new_field":{"x":1}}"#,
    )
    .unwrap();
    assert_eq!(env.error_class, ErrorClass::Unknown);
    assert_eq!(env.category, Some(UserErrorCategory::Unknown));
    assert_eq!(env.message, "m");
    let seed_only: ErrorEnvelope =
        serde_json::from_str(r#"{"error_class":"BUSY","message":"m","retry_after_ms":5}"#).unwrap();
    assert!(seed_only.is_error);
    assert_eq!(seed_only.retry_after_ms, Some(5));
    assert_eq!(seed_only.category, None);
    assert_eq!(seed_only.user_category(), UserErrorCategory::Technical);
    let tool: ToolResult =
        serde_json::from_str(r#"{"tool_call_id":"a","content":"b","is_error":false}"#).unwrap();
    assert_eq!(tool.error_category, None);
}

#[test]
fn missing_required_fields_are_named() {
    let err = serde_json::from_str::<ErrorEnvelope>(r#"{"error_class":"BUSY"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "missing field `message` at line 1 column 22"
    );
    let err = serde_json::from_str::<ErrorEnvelope>(r#"{"message":"m"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "missing field `error_class` at line 1 column 15"
    );
}

#[test]
fn hostile_text_never_panics() {
    let control: String = (0u8..32).map(char::from).collect();
    let env =
        ErrorEnvelope::new(ErrorClass::Internal, control.clone()).with_detail("k", control.clone());
    let text = env.to_json_string();
    let back: ErrorEnvelope = serde_json::from_str(&text).unwrap();
    assert_eq!(back.message, control);
    assert!(text.contains(r#"\u0000\u0001"#));

    let huge = "x".repeat(4 << 20);
    let env = ErrorEnvelope::new(ErrorClass::Internal, huge.clone());
    assert_eq!(
        env.to_json_string(),
        format!(
            r#"{{"isError":true,"error_class":"INTERNAL","message":"{huge}","next_steps":["the call may have taken effect: check its result before repeating it"],"category":"Technical","effect":"unknown"}}"#
        )
    );
    assert_eq!(
        env.to_json()["message"].as_str().map(str::len),
        Some(huge.len())
    );

    // A lone surrogate escape is refused by the parser, never a panic.
    let err = serde_json::from_str::<ErrorEnvelope>(r#"{"error_class":"BUSY","message":"\ud800"}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "unexpected end of hex escape at line 1 column 40"
    );
}

#[test]
fn envelope_implements_envelope() {
    let env = every_field();
    assert_eq!(Envelope::error_class(&env), ErrorClass::PreconditionFailed);
    assert_eq!(
        Envelope::user_category(&env),
        UserErrorCategory::MissingContext
    );
    assert_eq!(Envelope::code(&env), Some("LEASE_REQUIRED"));
    assert_eq!(env.clone().into_envelope(), env);
    assert!(<ErrorEnvelope as Envelope>::catalog().is_empty());
    let owned = ErrorEnvelope::new(ErrorClass::Busy, "b").with_code(String::from("RUNTIME"));
    assert_eq!(Envelope::code(&owned), None);
}

/// `for_server_resource` (`resource = server`): a server-owned failure
/// stays as it is, a rate limit on the server's own resource is `BUSY`
/// with its wait, anything else is `INTERNAL` with the generic message.
#[test]
fn server_resource_classes() {
    let busy = ErrorEnvelope::new(ErrorClass::Busy, "the pool is full").with_retry_after_ms(500);
    assert_eq!(busy.clone().for_server_resource(), busy);

    let limited = ErrorEnvelope::new(ErrorClass::RateLimited, "the upstream quota is spent")
        .with_code("UPSTREAM_LIMIT")
        .with_retry_after_ms(2000)
        .for_server_resource();
    assert_eq!(
        limited.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","#,
            r#""retry_after_ms":2000,"code":"UPSTREAM_LIMIT","category":"Technical","retryable":true}"#,
        )
    );

    let missing = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "no such table: audit_log")
        .for_server_resource();
    assert_eq!(
        missing.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"INTERNAL","#,
            r#""message":"an internal error occurred; changing the call will not help","#,
            r#""next_steps":["the call may have taken effect: check its result before repeating it"],"#,
            r#""category":"Technical","effect":"unknown"}"#,
        )
    );

    // The judgement of whether a later attempt may succeed is the new
    // class's: an author's `retryable` on a missing row of an idempotent
    // call does not make the internal failure retryable (the call's
    // idempotence carries over).
    let missing = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "no such table: audit_log")
        .idempotent()
        .with_retryable(true);
    assert!(missing.retryable);
    assert_eq!(
        missing.for_server_resource().to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"INTERNAL","#,
            r#""message":"an internal error occurred; changing the call will not help","#,
            r#""category":"Technical","effect":"unknown"}"#,
        )
    );
    let limited = ErrorEnvelope::new(ErrorClass::RateLimited, "the upstream quota is spent")
        .idempotent()
        .with_retryable(false)
        .for_server_resource();
    assert!(limited.retryable);
}

/// A derived catalog's entries (what `#[derive(Envelope)]` generates
/// through `__private::spec`) start from their class's defaults, and the
/// catalog table shows them: owner, category, effect and whether a
/// failure is retryable by the rule.
#[test]
fn derived_catalog_entries_carry_their_class_defaults() {
    let catalog = [
        envelope_core::__private::spec("Busy", ErrorClass::Busy, "POOL_FULL", None),
        envelope_core::__private::spec("Gone", ErrorClass::ObjectNotFound, "GONE", Some("no {id}")),
        envelope_core::__private::spec_generic("Broken", ErrorClass::Internal, "BROKEN"),
        envelope_core::VariantSpec::new("Flaky")
            .with_class(ErrorClass::Transient)
            .with_code("FLAKY"),
    ];
    assert_eq!(
        envelope_core::catalog_markdown(&catalog),
        "| code | class | owner | category | effect | retryable | suggested tool | message template |\n\
         |---|---|---|---|---|---|---|---|\n\
         | `POOL_FULL` | `BUSY` | server | `Technical` | nothing | yes | — | (Display) |\n\
         | `GONE` | `OBJECT_NOT_FOUND` | caller | `NotFound` | nothing | no | — | no {id} |\n\
         | `BROKEN` | `INTERNAL` | server | `Technical` | unknown | no | — | an internal error occurred; changing the call will not help |\n\
         | `FLAKY` | `TRANSIENT` | server | `Technical` | unknown | no | — | (Display) |\n"
    );
}

/// The envelope's JSON Schema is its fields' schema, under their name:
/// a struct holding envelopes refers to one definition.
#[cfg(feature = "schemars")]
#[test]
fn the_envelope_schema_is_named_for_its_fields() {
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Batch {
        first: ErrorEnvelope,
        fields: envelope_core::EnvelopeFields,
    }
    let schema = schemars::schema_for!(Batch);
    let schema = schema.as_value();
    assert_eq!(
        schema["properties"]["first"],
        json!({"$ref": "#/$defs/ErrorEnvelope"})
    );
    assert_eq!(
        schema["properties"]["fields"],
        schema["properties"]["first"]
    );
    assert_eq!(
        schema["$defs"]
            .as_object()
            .map(|defs| defs.keys().cloned().collect::<Vec<_>>()),
        Some(
            [
                "ArgumentError",
                "ArgumentErrorKind",
                "Effect",
                "ErrorClass",
                "ErrorEnvelope",
                "UserErrorCategory"
            ]
            .map(String::from)
            .to_vec()
        )
    );
}

/// The whole text keeps an author's step that does not ask to repeat
/// beside a lead that repeats, and drops one that does (the lead says it).
#[test]
fn the_whole_text_keeps_the_authors_other_steps_beside_a_repeat() {
    let busy = ErrorEnvelope::new(ErrorClass::Busy, "the pool is full")
        .with_retry_after_ms(500)
        .with_next_step("check the pool's dashboard")
        .with_next_step("retry the call");
    assert_eq!(
        busy.to_string(),
        "Wait 500 ms, then repeat the same call unchanged.\nBUSY: the pool is full\nNext step: check the pool's dashboard\nWait 500 ms, then repeat the same call unchanged."
    );
}

/// A move that only says "change the call" leads with the class's own
/// sentence, which says how, and names the correlation id the model
/// reports if it cannot.
#[test]
fn a_change_of_call_leads_with_the_class_sentence() {
    assert_eq!(
        ErrorEnvelope::new(ErrorClass::Unsupported, "notes cannot be exported").to_string(),
        "Do not repeat this call unchanged: use a supported option or another tool.\nUNSUPPORTED: notes cannot be exported\nDo not repeat this call unchanged: use a supported option or another tool."
    );
    // "Unchanged" forbids the same call only: a step that tries again
    // with a change stays.
    assert_eq!(
        ErrorEnvelope::new(ErrorClass::Unsupported, "xlsx is not supported")
            .with_next_step("try again with the format csv")
            .to_string(),
        "Do not repeat this call unchanged: use a supported option or another tool.\nUNSUPPORTED: xlsx is not supported\nNext step: try again with the format csv\nDo not repeat this call unchanged: use a supported option or another tool."
    );
    assert_eq!(
        ErrorEnvelope::new(ErrorClass::SyntaxError, "syntax error at or near \"SELEC\"")
            .with_correlation_id("req-10")
            .to_string(),
        "Correct the query or script, then call this tool again.\nSYNTAX_ERROR: syntax error at or near \"SELEC\"\nCorrelation id: req-10\nCorrect the query or script, then call this tool again."
    );
}

/// A keyed write whose timeout may have taken effect is repeated (with
/// its key); the same write without a key is not.
#[test]
fn a_keyed_write_repeats_a_failure_of_unknown_effect() {
    use envelope_core::{Attempt, CallBehaviour, NextMove};
    let timeout = ErrorEnvelope::new(ErrorClass::Timeout, "the write timed out");
    assert!(!timeout.retryable);
    let keyed = CallBehaviour::default().keyed_if(true);
    assert!(NextMove::of(&timeout, &Attempt::of(keyed)).is_repeat());
    assert!(!NextMove::of(&timeout, &Attempt::of(CallBehaviour::default())).is_repeat());
}

/// A problem details object's status as the `http` crate's type: the
/// class's, and 500 for a status no response can have.
#[cfg(feature = "http")]
#[test]
fn problem_details_status_codes() {
    let missing = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "no such note");
    let mut problem = missing.to_problem_details();
    assert_eq!(problem.status_code(), http::StatusCode::NOT_FOUND);
    problem.status = 1000;
    assert_eq!(
        problem.status_code(),
        http::StatusCode::INTERNAL_SERVER_ERROR
    );
}

/// Each argument problem says its fix; an unknown key with no near miss
/// is removed.
#[test]
fn an_unknown_key_without_a_near_miss_is_removed() {
    use envelope_core::{ArgumentError, ArgumentErrorKind, args};
    let envelope = args::invalid_arguments(vec![ArgumentError::new(
        ArgumentErrorKind::UnknownField,
        "/colour",
    )]);
    assert_eq!(
        envelope.to_string(),
        "Fix these arguments, then call this tool again:\n\
         - /colour is not an argument of this tool: remove it\n\
         INVALID_ARGUMENTS\n\
         Fix the arguments listed above, then call this tool again."
    );
}
