//! The host side: reading failures of servers written with this crate and
//! without it, and the next move. The SDK servers' real outputs are read
//! in `test_suite/tests/host_e2e.rs`; these are the rules, one by one.
#![cfg(feature = "host")]

use std::time::Duration;

use envelope_core::NextMove;
use envelope_core::host;
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

fn sep_result(text: &str, failure: Value) -> Value {
    json!({
        "content": [{"type": "text", "text": text}],
        "isError": true,
        "_meta": {"io.modelcontextprotocol/toolFailure": failure}
    })
}

#[test]
fn the_sep_3313_object() {
    let result = sep_result(
        "the notes database is busy",
        json!({
            "class": "reliability",
            "code": "DB_BUSY",
            "retryable": true,
            "correlationId": "req-9",
            "agentGuidance": "wait, then repeat the same call"
        }),
    );
    let envelope = host::read_tool_result(&result).unwrap();
    assert_eq!(
        envelope.to_json_string(),
        r#"{"isError":true,"error_class":"TRANSIENT","message":"the notes database is busy","next_steps":["wait, then repeat the same call","the call may have taken effect: check its result before repeating it"],"code":"DB_BUSY","category":"Technical","effect":"unknown","correlation_id":"req-9"}"#
    );
    // A later attempt may pass, but whether a repeat is safe is the
    // tool's to say: a read repeats, a write that declares nothing stops.
    assert_eq!(
        host::next_move(&envelope, CallBehaviour::READ, 1),
        NextMove::Repeat {
            after: Duration::from_secs(1)
        }
    );
    assert_eq!(
        host::next_move(&envelope, CallBehaviour::default(), 1),
        NextMove::Check {
            tool: None,
            arguments: None
        }
    );

    // governance: a person must act; the guidance is what the model reads.
    let approval = host::read_tool_result(&sep_result(
        "the transfer needs approval",
        json!({"class": "governance", "code": "APPROVAL_REQUIRED", "agentGuidance": "ask the account owner to approve transfer 7"}),
    ))
    .unwrap();
    assert_eq!(approval.error_class, ErrorClass::InteractionRequired);
    assert_eq!(approval.code.as_deref(), Some("APPROVAL_REQUIRED"));
    let next = host::next_move(&approval, CallBehaviour::default(), 1);
    assert_eq!(next, NextMove::AskUser);
    assert_eq!(
        instruction(&approval, &host::model_text(&approval, &next)),
        "Do not repeat this call: ask the user to do what is needed."
    );

    // capability: the model changes its request, even if `retryable` says
    // otherwise (the SEP gives `retryable` to reliability only).
    let capability = host::read_tool_result(&sep_result(
        "no such table",
        json!({"class": "capability", "code": "TABLE_NOT_FOUND", "retryable": true}),
    ))
    .unwrap();
    assert_eq!(capability.error_class, ErrorClass::Unsupported);
    assert!(!capability.retryable);
    assert_eq!(
        host::next_move(&capability, CallBehaviour::READ, 1),
        NextMove::ChangeCall
    );

    // A code naming a class of ours of the same SEP class is that class;
    // `retryNotBefore` as an integer and as a float read the same.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let not_before = now + 60_000;
    for stamp in [json!(not_before), json!(not_before as f64 + 0.25)] {
        let limited = host::read_tool_result(&sep_result(
            "slow down",
            json!({"class": "reliability", "code": "RATE_LIMITED", "retryable": true, "retryNotBefore": stamp}),
        ))
        .unwrap();
        assert_eq!(limited.error_class, ErrorClass::RateLimited);
        assert!(limited.retryable);
        let wait = limited.retry_after_ms.unwrap();
        assert!((59_000..=60_001).contains(&wait), "{wait}");
    }
    // A `retryNotBefore` that is no time (negative, as an integer or a
    // float) gives no wait at all, not a wait of zero.
    for stamp in [json!(-1), json!(-1500.5)] {
        let odd = host::read_tool_result(&sep_result(
            "slow down",
            json!({"class": "reliability", "code": "RATE_LIMITED", "retryable": true, "retryNotBefore": stamp}),
        ))
        .unwrap();
        assert_eq!(odd.retry_after_ms, None, "retryNotBefore {stamp}");
    }
    // reliability, not retryable: the server's fault, and the guidance
    // that does not ask for a repeat is shown.
    let broken = host::read_tool_result(&sep_result(
        "the index is corrupt",
        json!({"class": "reliability", "code": "TIMEOUT", "retryable": false, "agentGuidance": "tell the user the index must be rebuilt"}),
    ))
    .unwrap();
    assert_eq!(broken.error_class, ErrorClass::Internal);
    assert_eq!(broken.code.as_deref(), Some("TIMEOUT"));
    // A read changed nothing: no check, the class's own sentence.
    let next = host::next_move(&broken, CallBehaviour::READ, 1);
    assert_eq!(next, NextMove::Stop);
    assert_eq!(
        instruction(&broken, &host::model_text(&broken, &next)),
        "Do not repeat this call: it failed inside the server, and changing it will not help. Tell the user it failed."
    );
    let unknown = host::read_tool_result(&sep_result("odd", json!({"class": "weather"}))).unwrap();
    assert_eq!(unknown.error_class, ErrorClass::Unknown);
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
    assert_eq!(envelope.message.chars().count(), host::MAX_TEXT_CHARS);
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

    // The SDK's own words are kept as the message.
    for (text, message) in [
        ("Unknown tool: nope", "Unknown tool: nope"),
        (
            "MCP error -32602: Tool nope not found",
            "Tool nope not found",
        ),
    ] {
        let envelope = host::read_tool_result(&text_result(text)).unwrap();
        assert_eq!(envelope.error_class, ErrorClass::ObjectNotFound, "{text}");
        assert_eq!(envelope.code.as_deref(), Some("UNKNOWN_TOOL"), "{text}");
        assert_eq!(envelope.message, message, "{text}");
        assert!(envelope.fuzzy_matches.is_empty());
    }
    // This crate's router's words: the near misses are read back, one or
    // several, quotes and all.
    for (text, near) in [
        (
            r#"Unknown tool: list_todo. Call again with "list_todos" in place of the name you sent."#,
            &["list_todos"][..],
        ),
        (
            r#"MCP error -32602: Unknown tool: list_todo. Call again with the one meant of "list_todos", "list \"todo\"" or "todo_list" in place of the name you sent; if none of these is meant, call list_tools."#,
            &["list_todos", "list \"todo\"", "todo_list"][..],
        ),
    ] {
        let read = host::read_jsonrpc_error(-32602, text, None);
        assert_eq!(read.fuzzy_matches, near, "{text}");
        assert_eq!(read.message, text.trim_start_matches("MCP error -32602: "));
        assert_eq!(
            host::next_move(&read, CallBehaviour::default(), 1),
            NextMove::PickNearMiss {
                names: near.iter().map(|name| String::from(*name)).collect()
            }
        );
    }
    // Its earlier versions' words too.
    let ours = host::read_jsonrpc_error(
        -32602,
        "Unknown tool: list_todo. Did you mean list_todos or list_todo_items?",
        None,
    );
    assert_eq!(
        (ours.message.as_str(), ours.fuzzy_matches.as_slice()),
        (
            "Unknown tool: list_todo. Did you mean list_todos or list_todo_items?",
            &[String::from("list_todos"), String::from("list_todo_items")][..]
        )
    );
    // The TypeScript SDK's disabled tool, as a JSON-RPC error with the
    // prefix its client adds: not an argument problem.
    let disabled =
        host::read_jsonrpc_error(-32602, "MCP error -32602: Tool delete_note disabled", None);
    assert_eq!(disabled.error_class, ErrorClass::Unsupported);
    assert_eq!(disabled.code.as_deref(), Some("TOOL_DISABLED"));

    let pydantic = "1 validation error for typedArguments\nn\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='abc', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.11/v/int_parsing";
    let envelope = host::read_tool_result(&text_result(pydantic)).unwrap();
    assert_eq!(
        serde_json::to_value(&envelope.argument_errors).unwrap(),
        json!([{"path": "/n", "kind": "wrong_type", "expected": "a valid integer", "received": "string"}])
    );
    assert_eq!(
        host::next_move(&envelope, CallBehaviour::default(), 1),
        NextMove::FixArguments {
            arguments: None,
            problems: envelope.argument_errors.clone(),
        }
    );
    // Blank lines (a transport's, or whitespace only) between a location
    // and its line are skipped: the problem stays at its location.
    let spaced = "1 validation error for typedArguments\nn\n\n   \n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='abc', input_type=str]\n";
    let spaced = host::read_tool_result(&text_result(spaced)).unwrap();
    assert_eq!(spaced.argument_errors, envelope.argument_errors);
}

#[test]
fn an_attempt_once_marked_replayed_stays_so() {
    let first = envelope_core::Attempt::of(CallBehaviour::default().keyed_if(true));
    assert!(!first.replayed);
    assert!(first.replayed_if(true).replayed);
    assert!(!first.replayed_if(false).replayed);
    assert!(first.replayed_if(true).replayed_if(false).replayed);
}

#[test]
fn the_class_leads_a_stop_only_when_it_says_no_repeat() {
    // ALREADY_EXISTS's sentence says "do not create it again", not "do
    // not repeat": a stop says so itself.
    let exists = ErrorEnvelope::new(ErrorClass::AlreadyExists, "the note exists");
    let text = host::model_text(&exists, &NextMove::Stop);
    assert!(
        text.contains("Do not repeat this call. Tell the user it failed."),
        "{text}"
    );
    assert!(!text.contains("Do not create it again"), "{text}");
    // INSUFFICIENT_PRIVILEGE's does: it leads.
    let denied = ErrorEnvelope::new(ErrorClass::InsufficientPrivilege, "no access");
    let text = host::model_text(&denied, &NextMove::AskUser);
    assert!(
        text.contains(
            "Do not repeat this call: it is not permitted. Tell the user, or ask them for access."
        ),
        "{text}"
    );
    assert!(!text.contains("Ask the user to resolve it."), "{text}");
    // Arguments to fix with none listed: the class's sentence, not a
    // list's lead with nothing under it.
    let none = envelope_core::args::invalid_arguments(Vec::new());
    let fix = NextMove::FixArguments {
        problems: Vec::new(),
        arguments: None,
    };
    let text = host::model_text(&none, &fix);
    assert!(
        text.contains("Fix the arguments, then call this tool again."),
        "{text}"
    );
    assert!(!text.contains("Fix these arguments"), "{text}");
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
        NextMove::Check {
            tool: None,
            arguments: None
        }
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
        instruction(
            &missing,
            &host::model_text(&missing, &host::next_move(&missing, CallBehaviour::READ, 1))
        ),
        "Call again with \"EMPLOYEES\" in place of the name you sent."
    );
    let precondition = ErrorEnvelope::new(ErrorClass::PreconditionFailed, "open a session first")
        .with_suggested_tool("open_session");
    assert_eq!(
        host::next_move(&precondition, CallBehaviour::default(), 1),
        NextMove::CallTool {
            tool: "open_session".into(),
            arguments: None,
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
        NextMove::Check {
            tool: None,
            arguments: None
        }
    );
    assert_eq!(
        instruction(
            &timeout,
            &host::model_text(
                &timeout,
                &NextMove::Check {
                    tool: None,
                    arguments: None
                }
            )
        ),
        "Do not repeat this call: it may already have taken effect. Tell the user it failed and may have taken effect."
    );
    // With a tool to check with, and the arguments the server took for it
    // from the call: the move carries both, and the text names them.
    let checked = timeout
        .clone()
        .with_suggested_tool("list_exports")
        .with_detail("suggested_arguments", json!({"folder": "q3"}));
    let next = host::next_move(&checked, CallBehaviour::default(), 1);
    assert_eq!(
        next,
        NextMove::Check {
            tool: Some("list_exports".into()),
            arguments: Some(json!({"folder": "q3"})),
        }
    );
    let lead = r#"Do not repeat this call: it may already have taken effect. Call list_exports with {"folder":"q3"} now to check whether it did."#;
    assert_eq!(
        host::model_text(&checked, &next),
        format!("{}\n{lead}", checked.to_json_string())
    );
    // The text names the move's arguments, not the envelope's: a move
    // that leaves them to the model says only the tool, after the facts.
    let bare = NextMove::Check {
        tool: Some("list_exports".into()),
        arguments: None,
    };
    let lead = "Do not repeat this call: it may already have taken effect. Call list_exports now to check whether it did.";
    assert_eq!(
        host::model_text(&checked, &bare),
        format!("{}\n{lead}", checked.to_json_string())
    );
    // Arguments that are not an object are not a call's.
    let odd = checked.with_detail("suggested_arguments", "q3");
    assert_eq!(
        host::next_move(&odd, CallBehaviour::default(), 1),
        NextMove::Check {
            tool: Some("list_exports".into()),
            arguments: None,
        }
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
        assert_eq!(
            host::next_move(&timeout, tool, 4),
            NextMove::Exhausted { attempts: 4 }
        );
    }
    let policy = host::RetryPolicy::default();
    assert_eq!(policy.backoff(1), Duration::from_secs(1));
    assert_eq!(policy.backoff(3), Duration::from_secs(4));
    assert_eq!(policy.backoff(100), Duration::from_secs(30));

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
        NextMove::ChangeCall
    );
    let args = envelope_core::args::invalid_arguments(vec![
        ArgumentError::new(ArgumentErrorKind::UnknownField, "/colum")
            .with_suggestions(vec!["column".into()]),
    ]);
    assert_eq!(
        instruction(
            &args,
            &host::model_text(&args, &host::next_move(&args, CallBehaviour::default(), 1))
        ),
        "Fix these arguments, then call this tool again:\n- /colum is not an argument of this tool: rename it to \"column\""
    );
}

/// The argument problems of an HTTP body, as JSON, and the message.
fn http_problems(status: u16, body: Value) -> (Value, String) {
    let envelope = host::read_http(
        status,
        Some("application/json"),
        None,
        body.to_string().as_bytes(),
    )
    .unwrap();
    (
        serde_json::to_value(&envelope.argument_errors).unwrap(),
        envelope.message.clone(),
    )
}

#[test]
fn other_frameworks_validation_bodies() {
    // RFC 9457's example, without `detail`: the title is the message.
    let rfc9457 = json!({"type": "https://example.net/validation-error", "title": "Your request is not valid.", "errors": [{"detail": "must be a positive integer", "pointer": "#/age"}, {"detail": "must be 'green', 'red' or 'blue'", "pointer": "#/profile/color"}]});
    assert_eq!(
        http_problems(422, rfc9457),
        (
            json!([{"path": "/age", "kind": "other", "expected": "a positive integer"}, {"path": "/profile/color", "kind": "other", "expected": "'green', 'red' or 'blue'"}]),
            String::from("Your request is not valid.")
        )
    );
    // RFC 7807's example: no `status`, `invalid-params`.
    let rfc7807 = json!({"type": "https://example.net/validation-error", "title": "Your request parameters didn't validate.", "invalid-params": [{"name": "age", "reason": "must be a positive integer"}, {"name": "color", "reason": "must be 'green', 'red' or 'blue'"}]});
    let (problems, message) = http_problems(400, rfc7807);
    assert_eq!(message, "Your request parameters didn't validate.");
    assert_eq!(
        problems[0],
        json!({"path": "/age", "kind": "other", "expected": "a positive integer"})
    );
    // ASP.NET's ValidationProblemDetails.
    let aspnet = json!({"type": "https://tools.ietf.org/html/rfc9110#section-15.5.1", "title": "One or more validation errors occurred.", "status": 400, "errors": {"Title": ["The Title field is required."], "Items[0].Price": ["The field Price must be between 1 and 100."]}, "traceId": "00-84c1fd4063c38d9f3900d06e56542d48-85d1d4-00"});
    assert_eq!(
        http_problems(400, aspnet),
        (
            json!([{"path": "/Items/0/Price", "kind": "other", "expected": "between 1 and 100"}, {"path": "/Title", "kind": "missing"}]),
            String::from("One or more validation errors occurred.")
        )
    );
    // A list body's entries start with their index.
    let aspnet_list = json!({"title": "One or more validation errors occurred.", "status": 400, "errors": {"[1].Title": ["The Title field is required."]}});
    assert_eq!(
        http_problems(400, aspnet_list).0,
        json!([{"path": "/1/Title", "kind": "missing"}])
    );
    // Spring's ProblemDetail with a map of messages.
    let spring = json!({"type": "about:blank", "title": "Bad Request", "status": 400, "detail": "Invalid request content.", "instance": "/notes", "errors": {"title": "must not be blank", "address.zip": "size must be between 5 and 5"}});
    let (problems, message) = http_problems(400, spring);
    assert_eq!(message, "Invalid request content.");
    assert_eq!(
        problems,
        json!([{"path": "/address/zip", "kind": "other", "expected": "between 5 and 5"}, {"path": "/title", "kind": "other", "expected": "valid: must not be blank"}])
    );
    // FastAPI: `detail` is pydantic's errors; union members are dropped.
    let fastapi = json!({"detail": [
        {"type": "missing", "loc": ["body", "name"], "msg": "Field required", "input": {}},
        {"type": "int_parsing", "loc": ["body", "id", "int"], "msg": "Input should be a valid integer, unable to parse string as an integer", "input": "x"},
        {"type": "int_type", "loc": ["body", "ids", "list[int]", 0], "msg": "Input should be a valid integer", "input": "a"},
        {"type": "greater_than", "loc": ["query", "limit"], "msg": "Input should be greater than 0", "input": "-1", "ctx": {"gt": 0}}
    ]});
    let (problems, message) = http_problems(422, fastapi);
    assert_eq!(
        problems,
        json!([
            {"path": "/name", "kind": "missing"},
            {"path": "/id", "kind": "wrong_type", "expected": "a valid integer"},
            {"path": "/ids/0", "kind": "wrong_type", "expected": "a valid integer"},
            {"path": "/limit", "kind": "out_of_range", "expected": "greater than 0"}
        ])
    );
    assert_eq!(
        message,
        "4 problems in the arguments: /name is missing; /id must be a valid integer; /ids/0 must be a valid integer; /limit must be greater than 0"
    );
    // zod 4's issues under `error` (Hono's validator), zod 3's at the top.
    let zod4 = json!({"success": false, "error": {"name": "ZodError", "issues": [{"expected": "string", "code": "invalid_type", "path": ["name"], "message": "Invalid input: expected string, received number"}, {"origin": "number", "code": "too_small", "minimum": 1, "inclusive": true, "path": ["days"], "message": "Too small: expected number to be >=1"}]}});
    assert_eq!(
        http_problems(400, zod4).0,
        json!([{"path": "/name", "kind": "wrong_type", "expected": "string", "received": "number"}, {"path": "/days", "kind": "out_of_range", "expected": ">= 1"}])
    );
    let zod4_bool = json!({"success": false, "error": {"name": "ZodError", "issues": [{"expected": "string", "code": "invalid_type", "path": ["title"], "message": "Invalid input: expected string, received boolean"}]}});
    assert_eq!(
        http_problems(400, zod4_bool).0,
        json!([{"path": "/title", "kind": "wrong_type", "expected": "string", "received": "boolean"}])
    );
    let zod3 = json!({"issues": [{"code": "unrecognized_keys", "keys": ["colour"], "path": [], "message": "Unrecognized key(s) in object: 'colour'"}, {"code": "invalid_enum_value", "options": ["fast", "slow"], "received": "quick", "path": ["mode"], "message": "Invalid enum value."}]});
    assert_eq!(
        http_problems(400, zod3).0,
        json!([{"path": "/colour", "kind": "unknown_field"}, {"path": "/mode", "kind": "unknown_variant", "expected": "one of \"fast\", \"slow\""}])
    );
    // Every one of them is the model's to fix.
    let envelope = host::read_http(
        422,
        None,
        None,
        br#"{"detail": [{"type": "missing", "loc": ["body", "q"], "msg": "Field required"}]}"#,
    )
    .unwrap();
    assert_eq!(envelope.error_class, ErrorClass::InvalidArguments);
    assert!(
        matches!(host::next_move(&envelope, CallBehaviour::READ, 1), NextMove::FixArguments { problems, .. } if problems.len() == 1)
    );
}

#[test]
fn typescript_sdk_texts_that_are_not_argument_problems() {
    // zod 3's JSON issues (TypeScript SDK 1.x before zod 4).
    let zod3 = "Input validation error: Invalid arguments for tool add_note: [\n  {\n    \"code\": \"invalid_type\",\n    \"expected\": \"string\",\n    \"received\": \"undefined\",\n    \"path\": [\n      \"title\"\n    ],\n    \"message\": \"Required\"\n  }\n]";
    let envelope = host::read_jsonrpc_error(-32602, zod3, None);
    assert_eq!(
        serde_json::to_value(&envelope.argument_errors).unwrap(),
        json!([{"path": "/title", "kind": "missing"}])
    );
    let disabled =
        host::read_jsonrpc_error(-32602, "MCP error -32602: Tool add_note disabled", None);
    assert_eq!(
        disabled.to_json_string(),
        r#"{"isError":true,"error_class":"UNSUPPORTED","message":"the tool \"add_note\" is disabled on this server","next_steps":["do not call \"add_note\" again now; use another tool, or go on without it"],"code":"TOOL_DISABLED","category":"Validation"}"#
    );
    // Not an argument problem: the call as made cannot work.
    assert_eq!(
        host::next_move(&disabled, CallBehaviour::READ, 1),
        NextMove::ChangeCall
    );
    assert_eq!(
        instruction(
            &disabled,
            &host::model_text(
                &disabled,
                &host::next_move(&disabled, CallBehaviour::READ, 1)
            )
        ),
        "Do not repeat this call unchanged: use a supported option or another tool."
    );
    let output = host::read_jsonrpc_error(
        -32602,
        "Output validation error: Tool add_note has an output schema but no structured content was provided",
        None,
    );
    assert_eq!(output.error_class, ErrorClass::Internal);
    assert_eq!(output.code.as_deref(), Some("OUTPUT_INVALID"));
    assert_eq!(
        host::next_move(&output, CallBehaviour::READ, 1),
        NextMove::Stop
    );
}

#[test]
fn the_policy_bounds_every_wait() {
    let limited =
        |ms: u64| ErrorEnvelope::new(ErrorClass::RateLimited, "slow down").with_retry_after_ms(ms);
    // A hint within the longest wait is waited; beyond it, not.
    assert_eq!(
        host::next_move(&limited(300_000), CallBehaviour::default(), 1),
        NextMove::Repeat {
            after: Duration::from_secs(300)
        }
    );
    for huge in [300_001, 100 * 365 * 86_400_000, u64::MAX] {
        let next = host::next_move(&limited(huge), CallBehaviour::default(), 1);
        assert_eq!(
            next,
            NextMove::Postpone {
                asked: Duration::from_millis(huge)
            }
        );
    }
    let far = limited(3 * 86_400_000);
    // The host does not wait what the failure asks: its policy's move,
    // after the same facts the server sent.
    assert_eq!(
        host::model_text(&far, &host::next_move(&far, CallBehaviour::default(), 1)),
        "{\"isError\":true,\"error_class\":\"RATE_LIMITED\",\"message\":\"slow down\",\"retry_after_ms\":259200000,\"category\":\"Technical\",\"retryable\":true}\nDo not repeat this call now: it may pass after 3 days. Tell the user when it can be tried again, or go on without it."
    );
    // A Retry-After of centuries, as seconds and as a date.
    for retry_after in ["99999999999", "Fri, 31 Dec 9999 23:59:59 GMT"] {
        let envelope =
            host::read_http(503, Some("text/plain"), Some(retry_after), b"down").unwrap();
        assert!(
            matches!(
                host::next_move(&envelope, CallBehaviour::READ, 1),
                NextMove::Postpone { .. }
            ),
            "{retry_after}"
        );
    }
    // Tighter limits: one minute, one repeat.
    let policy = host::RetryPolicy::default()
        .with_max_wait(Duration::from_secs(60))
        .with_max_repeats(1);
    assert_eq!(
        policy.next_move(&limited(61_000), CallBehaviour::default(), 1),
        NextMove::Postpone {
            asked: Duration::from_secs(61)
        }
    );
    assert_eq!(
        policy.next_move(&limited(1_000), CallBehaviour::default(), 2),
        NextMove::Exhausted { attempts: 2 }
    );
    assert_eq!(policy.backoff(10), Duration::from_secs(30));
    assert_eq!(
        policy.with_max_wait(Duration::from_secs(5)).backoff(10),
        Duration::from_secs(5)
    );
}

#[test]
fn retries_jitter_and_budget() {
    let timeout = ErrorEnvelope::new(ErrorClass::Timeout, "the read timed out");
    let waits = |seed: u64| {
        let mut retries = host::Retries::with_seed(host::RetryPolicy::default(), seed);
        (1..=3)
            .map(
                |attempt| match retries.next_move(&timeout, CallBehaviour::READ, attempt) {
                    NextMove::Repeat { after } => after,
                    other => panic!("{other:?}"),
                },
            )
            .collect::<Vec<_>>()
    };
    // Full jitter: within 0..=backoff, the same for the same seed, not
    // the same for every seed.
    let first = waits(7);
    assert_eq!(first, waits(7));
    for (attempt, wait) in first.iter().enumerate() {
        assert!(*wait <= host::RetryPolicy::default().backoff(attempt as u32 + 1));
    }
    assert_ne!(first, waits(8));
    // A hint is waited as given.
    let mut retries = host::Retries::with_seed(host::RetryPolicy::default(), 1);
    let busy = ErrorEnvelope::new(ErrorClass::Busy, "busy").with_retry_after_ms(1500);
    assert_eq!(
        retries.next_move(&busy, CallBehaviour::default(), 1),
        NextMove::Repeat {
            after: Duration::from_millis(1500)
        }
    );
    // The run's budget: two repeats, then none for any call.
    let policy = host::RetryPolicy::default().with_run_repeats(2);
    let mut retries = host::Retries::with_seed(policy, 1);
    for _ in 0..2 {
        assert!(matches!(
            retries.next_move(&busy, CallBehaviour::default(), 1),
            NextMove::Repeat { .. }
        ));
    }
    assert_eq!(
        retries.next_move(&busy, CallBehaviour::default(), 1),
        NextMove::Exhausted { attempts: 1 }
    );
    assert_eq!(retries.repeats(), 2);
    assert_eq!(retries.waited(), Duration::from_secs(3));
    // And its waiting time: 4 minutes of hints fit in 5, the next does not.
    let policy = host::RetryPolicy::default().with_run_wait(Duration::from_secs(300));
    let mut retries = host::Retries::with_seed(policy, 1);
    let long = ErrorEnvelope::new(ErrorClass::Busy, "busy").with_retry_after_ms(240_000);
    assert!(matches!(
        retries.next_move(&long, CallBehaviour::default(), 1),
        NextMove::Repeat { .. }
    ));
    assert_eq!(
        retries.next_move(&long, CallBehaviour::default(), 1),
        NextMove::Exhausted { attempts: 1 }
    );
    // Moves that are not repeats are not counted.
    let missing = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "no such note");
    assert_eq!(
        retries.next_move(&missing, CallBehaviour::default(), 1),
        NextMove::ChangeCall
    );
    assert_eq!(retries.repeats(), 1);
}

#[test]
fn a_peers_details_are_kept_up_to_eight_kib() {
    // `{"blob":"…"}` is 11 bytes and the string's: 8 KiB in all, then one
    // byte more.
    let read = |blob: usize| {
        let peer = json!({
            "error_class": "OBJECT_NOT_FOUND",
            "message": "no such note",
            "details": {"blob": "x".repeat(blob)},
        });
        let result = json!({"content": [{"type": "text", "text": "x"}], "structuredContent": peer, "isError": true});
        host::read_tool_result(&result).unwrap().details.clone()
    };
    assert_eq!(read(8 * 1024 - 11)["blob"].as_str().unwrap().len(), 8181);
    assert!(read(8 * 1024 - 10).is_empty());
}

#[test]
fn a_peers_text_is_bounded() {
    // 5 MB texts, and long lists of 10 kB ones.
    let huge = "x".repeat(5 * 1024 * 1024);
    let long = "y".repeat(10 * 1024);
    let peer = json!({
        "error_class": "OBJECT_NOT_FOUND",
        "message": huge,
        "next_steps": [huge, long, long, long, long, long, long, long, long, long, long, long],
        "fuzzy_matches": vec![long.clone(); 500],
        "code": huge,
        "suggested_tool": huge,
        "correlation_id": huge,
        "details": {"blob": huge},
        "argument_errors": vec![json!({"path": long, "kind": "other", "expected": long, "suggestions": vec![long.clone(); 50]}); 100],
    });
    let result = json!({"content": [{"type": "text", "text": "x"}], "structuredContent": peer, "isError": true});
    let envelope = host::read_tool_result(&result).unwrap();
    assert_eq!(envelope.message.chars().count(), host::MAX_TEXT_CHARS);
    assert_eq!(envelope.next_steps.len(), host::MAX_ITEMS);
    assert!(
        envelope
            .next_steps
            .iter()
            .all(|step| step.chars().count() == host::MAX_STEP_CHARS)
    );
    assert_eq!(envelope.fuzzy_matches.len(), host::MAX_ITEMS);
    assert_eq!(
        envelope.code.as_deref().unwrap().chars().count(),
        host::MAX_NAME_CHARS
    );
    assert_eq!(envelope.argument_errors.len(), host::MAX_ARGUMENT_ERRORS);
    assert_eq!(
        envelope.argument_errors[0].suggestions.len(),
        host::MAX_ITEMS
    );
    assert!(envelope.details.is_empty());
    assert!(envelope.to_json_string().len() < 64 * 1024);
    for tool in [CallBehaviour::READ, CallBehaviour::default()] {
        let next = host::next_move(&envelope, tool, 1);
        assert!(host::model_text(&envelope, &next).chars().count() <= host::MAX_MODEL_TEXT_CHARS);
    }
    // model_text bounds an envelope the host built itself, too.
    let own = ErrorEnvelope::new(ErrorClass::ObjectNotFound, huge.clone())
        .with_fuzzy_matches(vec![long.clone(); 1000]);
    let next = host::next_move(&own, CallBehaviour::READ, 1);
    assert!(host::model_text(&own, &next).chars().count() <= host::MAX_MODEL_TEXT_CHARS);
    // The same through a JSON-RPC error's data and problem details.
    let read = host::read_jsonrpc_error(-32000, &huge, Some(&peer));
    assert_eq!(read.message.chars().count(), host::MAX_TEXT_CHARS);
    let body = json!({"status": 400, "detail": huge, "errors": vec![json!({"pointer": "/a", "detail": long}); 1000]}).to_string();
    let read = host::read_http(400, None, None, body.as_bytes()).unwrap();
    assert_eq!(read.argument_errors.len(), host::MAX_ARGUMENT_ERRORS);
    assert!(read.to_json_string().len() < 64 * 1024);
    // A pydantic report of 100,000 errors: the first 20, the rest counted.
    let mut report = String::from("100000 validation errors for bigArguments\n");
    for i in 0..100_000 {
        report.push_str(&format!(
            "n{i}\n  Field required [type=missing, input_value={{}}, input_type=dict]\n"
        ));
    }
    let read = host::read_tool_result(&text_result(&report)).unwrap();
    assert_eq!(read.argument_errors.len(), host::MAX_ARGUMENT_ERRORS);
    assert!(
        read.message.starts_with("100000 problems in the arguments"),
        "{}",
        read.message
    );
}

#[test]
fn what_hostile_peers_found() {
    // A zod line of thousands of unknown keys at a path of thousands of
    // tokens: the bound's 20 problems, each path no longer than it keeps.
    let keys = (0..8000)
        .map(|i| format!("k{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let path = vec!["a"; 8000].join(".");
    let text = format!("Input validation error: Unrecognized keys: {keys} at {path}");
    let envelope = host::read_jsonrpc_error(-32602, &text, None);
    assert_eq!(envelope.argument_errors.len(), host::MAX_ARGUMENT_ERRORS);
    assert!(
        envelope
            .argument_errors
            .iter()
            .all(|problem| problem.path.chars().count() <= host::MAX_NAME_CHARS)
    );
    let short = host::read_jsonrpc_error(
        -32602,
        "Input validation error: Unrecognized keys: \"colour\", \"size\" at style",
        None,
    );
    assert_eq!(
        serde_json::to_value(&short.argument_errors).unwrap(),
        json!([{"path": "/style/colour", "kind": "unknown_field"}, {"path": "/style/size", "kind": "unknown_field"}])
    );

    // SEP-3313: a code naming our class stands when `retryable` is not
    // said; the guidance is the first step.
    let limited = host::read_tool_result(&sep_result(
        "slow down",
        json!({"class": "reliability", "code": "RATE_LIMITED", "agentGuidance": "wait for the nightly job"}),
    ))
    .unwrap();
    assert_eq!(limited.error_class, ErrorClass::RateLimited);
    assert!(limited.retryable);
    assert_eq!(
        limited.next_steps,
        vec![String::from("wait for the nightly job")]
    );
    let transient = host::read_tool_result(&sep_result(
        "later",
        json!({"class": "reliability", "retryable": true, "agentGuidance": "wait for the nightly job"}),
    ))
    .unwrap();
    assert_eq!(transient.next_steps[0], "wait for the nightly job");

    // RFC 9457 pointers in URI fragment form are percent-decoded.
    let body = br##"{"title": "bad", "errors": [{"pointer": "#/first%20name", "detail": "x"}, {"pointer": "#/%C3%A9", "detail": "y"}, {"pointer": "#/100%", "detail": "z"}]}"##;
    let read = host::read_http(400, Some("application/problem+json"), None, body).unwrap();
    let paths: Vec<&str> = read
        .argument_errors
        .iter()
        .map(|problem| problem.path.as_str())
        .collect();
    assert_eq!(paths, ["/first name", "/é", "/100%"]);

    // One odd member of ours leaves the others read.
    let body = br#"{"title": "Too many", "error_class": "RATE_LIMITED", "retry_after_ms": 1500, "next_steps": ["slow down"], "instance": 42, "code": 1234, "help_url": 5}"#;
    let read = host::read_http(400, Some("application/problem+json"), None, body).unwrap();
    assert_eq!(
        read.to_json_string(),
        r#"{"isError":true,"error_class":"RATE_LIMITED","message":"Too many","next_steps":["slow down"],"retry_after_ms":1500,"code":"1234"}"#
    );

    // A float `retryAfterMs` is read, rounded up.
    let read = host::read_jsonrpc_error(-32023, "slow", Some(&json!({"retryAfterMs": 1000.5})));
    assert_eq!(read.retry_after_ms, Some(1001));
    // A negative one is no wait at all (not a wait of 0 ms), and the
    // other members are still read.
    let read = host::read_jsonrpc_error(
        -32023,
        "slow",
        Some(&json!({"retryAfterMs": -1500.0, "limit": 60, "remaining": 0})),
    );
    assert_eq!(read.retry_after_ms, None);
    assert_eq!(
        read.to_json()["details"],
        json!({"limit": 60, "remaining": 0})
    );
}

/// `depth` arrays nested in one another, built and taken apart without
/// recursion.
fn nested(depth: usize) -> Value {
    let mut value = json!("bottom");
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, value)| value)),
            _ => {}
        }
    }
}

#[test]
fn deep_input_on_a_small_stack() {
    // tokio's worker stack: 2 MiB.
    let reader = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let deep = nested(10_000);
            let mut envelope_like = serde_json::Map::new();
            envelope_like.insert("error_class".into(), json!("BUSY"));
            envelope_like.insert("message".into(), json!("m"));
            envelope_like.insert("details".into(), deep);
            // Not `json!`: it copies what it interpolates, recursively.
            let mut failure = serde_json::Map::new();
            failure.insert("class".into(), json!("reliability"));
            failure.insert("code".into(), nested(10_000));
            let mut meta = serde_json::Map::new();
            meta.insert(
                "io.modelcontextprotocol/toolFailure".into(),
                Value::Object(failure),
            );
            let mut result = serde_json::Map::new();
            result.insert("content".into(), json!([{"type": "text", "text": "deep"}]));
            result.insert("isError".into(), json!(true));
            result.insert("structuredContent".into(), Value::Object(envelope_like));
            result.insert("_meta".into(), Value::Object(meta));
            let result = Value::Object(result);
            let envelope = host::read_tool_result(&result).unwrap();
            let text = host::model_text(
                &envelope,
                &host::next_move(&envelope, CallBehaviour::READ, 1),
            );
            let data = host::read_jsonrpc_error(-32000, "deep", result.get("structuredContent"));
            // A body nested past serde_json's limit is not JSON to it.
            let body = format!(
                "{{\"detail\": {}\"x\"{}}}",
                "[".repeat(10_000),
                "]".repeat(10_000)
            );
            let http = host::read_http(400, None, None, body.as_bytes()).unwrap();
            dismantle(result);
            (
                envelope.error_class,
                text,
                data.error_class,
                http.error_class,
            )
        })
        .unwrap();
    let (class, text, data, http) = reader.join().expect("no overflow");
    // Too deep to be ours: the text blocks and the SEP object are read.
    assert_eq!(class, ErrorClass::Internal);
    let (json, text) = text.split_once('\n').expect("the JSON, then the text");
    assert!(json.starts_with(r#"{"isError":true,"error_class":"INTERNAL","message":"deep""#));
    assert_eq!(
        text,
        "Do not repeat this call: it failed inside the server, and changing it will not help. Tell the user it failed."
    );
    assert_eq!(data, ErrorClass::Unknown);
    assert_eq!(http, ErrorClass::InvalidArguments);
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

/// The instruction of a `host::model_text`: its first line must be the
/// envelope's JSON, as a server of this crate sends it, then comes the
/// text.
fn instruction(envelope: &ErrorEnvelope, text: &str) -> String {
    let (json, rest) = text.split_once('\n').expect("the JSON, then the text");
    assert_eq!(json, envelope.to_json_string());
    rest.to_owned()
}

/// `levels` objects nested in one another around a string.
fn objects(levels: usize) -> Value {
    let mut value = json!("bottom");
    for _ in 0..levels {
        let mut object = serde_json::Map::new();
        object.insert("a".into(), value);
        value = Value::Object(object);
    }
    value
}

#[test]
fn ours_nests_at_most_max_depth_levels_of_objects_or_arrays() {
    // The envelope is the first level, its `details` the second.
    let inner = host::MAX_DEPTH - 2;
    for nest in [objects as fn(usize) -> Value, nested] {
        let mut envelope = serde_json::Map::new();
        envelope.insert("error_class".into(), json!("BUSY"));
        envelope.insert("message".into(), json!("the pool is full"));
        envelope.insert("details".into(), json!({"deep": nest(inner)}));
        let at_the_bound = Value::Object(envelope.clone());
        let read = host::read_jsonrpc_error(-32000, "busy", Some(&at_the_bound));
        assert_eq!(read.error_class, ErrorClass::Busy);
        envelope.insert("details".into(), json!({"deep": nest(inner + 1)}));
        let past_it = Value::Object(envelope);
        let read = host::read_jsonrpc_error(-32000, "busy", Some(&past_it));
        assert_eq!(read.error_class, ErrorClass::Unknown);
        assert_eq!(read.code.as_deref(), Some("JSONRPC_32000"));
    }
}

#[test]
fn the_default_policy_waits_five_minutes_at_most() {
    let limited =
        |ms: u64| ErrorEnvelope::new(ErrorClass::RateLimited, "slow down").with_retry_after_ms(ms);
    assert_eq!(
        host::next_move(&limited(300_000), CallBehaviour::default(), 1),
        NextMove::Repeat {
            after: Duration::from_secs(300)
        }
    );
    assert_eq!(
        host::next_move(&limited(300_001), CallBehaviour::default(), 1),
        NextMove::Postpone {
            asked: Duration::from_millis(300_001)
        }
    );
}

#[test]
fn pydantic_enum_errors_and_bracketed_names() {
    let report = "2 validation errors for sortArguments\n\
        order\n  Input should be 'asc' or 'desc' [type=literal_error, input_value='up', input_type=str]\n\
        colour\n  Input should be 'red', 'green' or 'blue' [type=enum, input_value='pink', input_type=str]\n";
    let read = host::read_tool_result(&text_result(report)).unwrap();
    assert_eq!(
        read.to_json()["argument_errors"],
        json!([
            {"path": "/colour", "kind": "unknown_variant", "expected": "'red'", "received": "string"},
            {"path": "/order", "kind": "unknown_variant", "expected": "'asc' or 'desc'", "received": "string"},
        ])
    );
    // A bracketed name that is not pydantic's own spelling of a schema
    // (capitals, or nothing before the bracket) is a key of the path.
    let report = "2 validation errors for pageArguments\n\
        Page[Size]\n  Field required [type=missing, input_value={}, input_type=dict]\n\
        filter.[0]\n  Field required [type=missing, input_value={}, input_type=dict]\n";
    let read = host::read_tool_result(&text_result(report)).unwrap();
    assert_eq!(
        read.to_json()["argument_errors"],
        json!([
            {"path": "/Page[Size]", "kind": "missing", "received": "object"},
            {"path": "/filter/[0]", "kind": "missing", "received": "object"},
        ])
    );
}

#[cfg(feature = "rmcp")]
#[test]
fn a_tool_that_takes_keys_is_keyed_whether_they_are_required_or_optional() {
    let tool = |meta: Value| -> rmcp::model::Tool {
        serde_json::from_value(json!({
            "name": "add_note",
            "inputSchema": {"type": "object"},
            "_meta": meta,
        }))
        .unwrap()
    };
    assert!(host::behaviour_of(&tool(json!({"idempotency": "required"}))).keyed);
    assert!(host::behaviour_of(&tool(json!({"idempotency": "optional"}))).keyed);
    assert!(!host::behaviour_of(&tool(json!({"idempotency": "sometimes"}))).keyed);
    assert!(!host::behaviour_of(&tool(json!({}))).keyed);
}

#[cfg(feature = "http")]
#[test]
fn a_429_reads_its_ratelimit_fields() {
    let response = http::Response::builder()
        .status(429)
        .header("content-type", "application/problem+json")
        .header("ratelimit", "\"hour\";r=0;t=30")
        .header("ratelimit", "\"minute\";r=4;t=10")
        .header(
            "ratelimit-policy",
            "\"hour\";q=100;w=3600, \"minute\";q=10;w=60",
        )
        .body(br#"{"title": "Too Many Requests", "status": 429}"#.to_vec())
        .unwrap();
    let read = host::read_http_response(&response).unwrap();
    assert_eq!(read.error_class, ErrorClass::RateLimited);
    assert_eq!(read.retry_after_ms, Some(30_000));
    assert_eq!(
        read.to_json()["details"],
        json!({"limit": 100, "remaining": 0})
    );
}

#[test]
fn a_postponed_call_says_its_wait_as_a_person_would() {
    let limited = ErrorEnvelope::new(ErrorClass::RateLimited, "hourly limit reached");
    let said = |ms: u64| {
        let text = host::model_text(
            &limited,
            &NextMove::Postpone {
                asked: Duration::from_millis(ms),
            },
        );
        let last = text.lines().last().unwrap().to_owned();
        let wait = last
            .strip_prefix("Do not repeat this call now: it may pass after ")
            .and_then(|rest| {
                rest.strip_suffix(
                    ". Tell the user when it can be tried again, or go on without it.",
                )
            })
            .unwrap_or_else(|| panic!("{last}"));
        wait.to_owned()
    };
    // Rounded down, in the largest unit that keeps it at 2 or more (but
    // seconds from 1).
    for (ms, wait) in [
        (500, "500 ms"),
        (1_500, "1 s"),
        (119_999, "119 s"),
        (120_000, "2 min"),
        (7_199_999, "119 min"),
        (7_200_000, "2 h"),
        (172_799_999, "47 h"),
        (172_800_000, "2 days"),
    ] {
        assert_eq!(said(ms), wait);
    }
    // An envelope too long to show beside its JSON: its whole text, the
    // move first.
    let huge = ErrorEnvelope::new(ErrorClass::Busy, "x".repeat(5000));
    let text = host::model_text(&huge, &host::next_move(&huge, CallBehaviour::READ, 1));
    assert!(
        text.starts_with("Repeat the same call unchanged; it may succeed now.\nBUSY: xxx"),
        "{text}"
    );
    assert_eq!(text.chars().count(), host::MAX_MODEL_TEXT_CHARS);
}

#[test]
fn a_pydantic_report_lists_its_first_problems_in_order() {
    // 21 problems: the 21st (which would sort first) is counted, not listed.
    let mut report = String::from("21 validation errors for bigArguments\n");
    for i in 0..20 {
        report.push_str(&format!(
            "n{i:02}\n  Input should be a valid integer [type=int_type, input_value='x', input_type=str]\n"
        ));
    }
    report.push_str("a\n  Field required [type=missing, input_value={}, input_type=dict]\n");
    let read = host::read_tool_result(&text_result(&report)).unwrap();
    assert_eq!(read.argument_errors.len(), host::MAX_ARGUMENT_ERRORS);
    assert!(
        read.argument_errors
            .iter()
            .all(|problem| problem.kind == ArgumentErrorKind::WrongType),
        "{:?}",
        read.argument_errors
    );
    assert!(
        read.message.starts_with(
            "21 problems in the arguments: /n00 must be a valid integer, got a string; "
        ) && read
            .message
            .ends_with("/n19 must be a valid integer, got a string; and 1 more"),
        "{}",
        read.message
    );
}

#[test]
fn the_default_run_waits_ten_minutes_in_all() {
    use envelope_core::host::{Retries, RetryPolicy};
    let policy = RetryPolicy::default();
    assert_eq!(policy.max_wait(), Duration::from_secs(300));
    assert_eq!(policy.call_timeout(), Some(Duration::from_secs(120)));
    let limited =
        ErrorEnvelope::new(ErrorClass::RateLimited, "slow down").with_retry_after_ms(200_000);
    let mut retries = Retries::with_seed(policy, 7);
    // Three calls, each waited 200 s: 600 s in all, the run's budget.
    for _ in 0..3 {
        assert_eq!(
            retries.next_move(&limited, CallBehaviour::default(), 1),
            NextMove::Repeat {
                after: Duration::from_secs(200)
            }
        );
    }
    assert_eq!(retries.waited(), Duration::from_secs(600));
    assert_eq!(
        retries.next_move(&limited, CallBehaviour::default(), 1),
        NextMove::Exhausted { attempts: 1 }
    );
}

#[test]
fn tokens_are_distinct_and_not_negative() {
    use envelope_core::idempotency::Token;
    let tokens: std::collections::HashSet<i64> = (0..1000).map(|_| Token::random().raw()).collect();
    assert_eq!(tokens.len(), 1000);
    assert!(tokens.iter().all(|raw| *raw >= 0));
}

#[test]
fn a_bare_status_is_said_with_its_reason() {
    let read = host::read_http(503, None, None, b"").unwrap();
    assert_eq!(read.message, "the server answered 503 Service Unavailable");
    let read = host::read_http(599, None, None, b"").unwrap();
    assert_eq!(read.message, "the server answered 599");
}

#[test]
fn pydantic_extra_inputs_are_unknown_keys() {
    let report = "2 validation errors for noteArguments\n\
        titel\n  Extra inputs are not permitted [type=extra_forbidden, input_value='milk', input_type=str]\n\
        tags\n  Unexpected keyword argument [type=unexpected_keyword_argument, input_value=[], input_type=list]\n";
    let read = host::read_tool_result(&text_result(report)).unwrap();
    assert_eq!(
        read.to_json()["argument_errors"],
        json!([
            {"path": "/tags", "kind": "unknown_field", "received": "array"},
            {"path": "/titel", "kind": "unknown_field", "received": "string"},
        ])
    );
}

#[test]
fn a_union_members_name_in_a_path_is_fitted_to_the_arguments_sent() {
    // pydantic names the member of a tagged union that failed (`bank`)
    // between the field and the value; the report alone cannot tell it
    // from a field.
    let report = "2 validation errors for payArguments\n\
        payment.bank.iban\n  String should have at most 34 characters [type=string_too_long, input_value='DE89370400440532013000000000000', input_type=str]\n\
        payment.bic\n  Field required [type=missing, input_value={}, input_type=dict]\n";
    let mut read = host::read_tool_result(&text_result(report)).unwrap();
    // A type pydantic does not name for a wrong type is another problem.
    assert_eq!(
        read.to_json()["argument_errors"],
        json!([
            {"path": "/payment/bic", "kind": "missing", "received": "object"},
            {"path": "/payment/bank/iban", "kind": "other", "received": "string"},
        ])
    );
    let paths = |read: &ErrorEnvelope| {
        read.argument_errors
            .iter()
            .map(|problem| problem.path.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(paths(&read), ["/payment/bic", "/payment/bank/iban"]);
    let sent = json!({"payment": {"iban": "DE89370400440532013000000000000"}});
    host::fit_paths(&mut read, &sent);
    // The tag is dropped: the path names the value sent. A missing key at
    // the end of a path stays.
    assert_eq!(paths(&read), ["/payment/bic", "/payment/iban"]);
}

#[test]
fn pydantic_union_members_with_dashes_and_underscores_are_dropped() {
    let report = "2 validation errors for pageArguments\n\
        size.function-after[check(), int]\n  Input should be a valid integer [type=int_type, input_value='x', input_type=str]\n\
        sort.typed_dict[Order]\n  Field required [type=missing, input_value={}, input_type=dict]\n";
    let read = host::read_tool_result(&text_result(report)).unwrap();
    assert_eq!(
        read.to_json()["argument_errors"],
        json!([
            {"path": "/sort", "kind": "missing", "received": "object"},
            {"path": "/size", "kind": "wrong_type", "expected": "a valid integer", "received": "string"},
        ])
    );
}

#[test]
fn the_json_is_shown_while_json_and_lead_fit_in_max_model_text_chars() {
    let text = |length: usize| {
        let envelope = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "m".repeat(length));
        let next = host::next_move(&envelope, CallBehaviour::READ, 1);
        host::model_text(&envelope, &next)
    };
    // The longest message whose JSON and lead still fit, to the character.
    let fits = (0..host::MAX_MODEL_TEXT_CHARS)
        .rev()
        .find(|length| text(*length).starts_with('{'))
        .unwrap();
    assert_eq!(text(fits).chars().count(), host::MAX_MODEL_TEXT_CHARS);
    let over = text(fits + 1);
    assert!(!over.starts_with('{'), "{over}");
    assert!(over.chars().count() <= host::MAX_MODEL_TEXT_CHARS);
}

#[cfg(feature = "rmcp")]
#[test]
fn an_rmcp_call_tool_result_is_read_as_its_json() {
    use rmcp::model::{CallToolResult, ContentBlock};
    let failed = CallToolResult::error(vec![ContentBlock::text("no note has the id n-9")]);
    let read = host::read_call_tool_result(&failed).unwrap();
    assert_eq!(
        read,
        host::read_tool_result(&text_result("no note has the id n-9")).unwrap()
    );
    assert_eq!(read.message, "no note has the id n-9");
    let succeeded = CallToolResult::success(vec![ContentBlock::text("n-9: milk")]);
    assert_eq!(host::read_call_tool_result(&succeeded), None);
}

#[test]
fn a_json_body_is_a_problem_only_with_a_problems_members() {
    // An object without `type`, `title`, `detail`, `errors` and the rest
    // is no problem details: the status speaks.
    let read = host::read_http(503, Some("application/json"), None, br#"{"queue": 3}"#).unwrap();
    assert_eq!(read.message, "the server answered 503 Service Unavailable");
    // A problem without `detail`, `title` or a problem of the arguments
    // says its class's message.
    let read = host::read_http(
        503,
        Some("application/problem+json"),
        None,
        br#"{"type": "about:blank", "status": 503}"#,
    )
    .unwrap();
    assert_eq!(read.error_class, ErrorClass::Transient);
    assert_eq!(read.message, ErrorClass::Transient.generic_message());
    assert!(read.argument_errors.is_empty());
}

#[test]
fn each_formats_own_spellings_are_read() {
    // RFC 9457's pointer as a URI fragment is percent-encoded.
    let body = br##"{"type": "about:blank", "title": "Bad Request", "status": 422, "errors": [{"pointer": "#%2Fage", "detail": "must be a number"}, {"pointer": "#/first%20name", "detail": "must not be blank"}]}"##;
    let read = host::read_http(422, Some("application/problem+json"), None, body).unwrap();
    assert_eq!(
        read.to_json()["argument_errors"],
        json!([
            {"path": "/age", "kind": "other", "expected": "a number"},
            {"path": "/first name", "kind": "other", "expected": "valid: must not be blank"},
        ])
    );
    // The TypeScript SDK's zod line for the arguments as a whole.
    let zod = "Input validation error: Invalid arguments for tool add_note: Invalid input: expected object, received string at object root";
    let read = host::read_jsonrpc_error(-32602, zod, None);
    assert_eq!(
        read.to_json()["argument_errors"],
        json!([{"path": "", "kind": "wrong_type", "expected": "object", "received": "string"}])
    );
    // pydantic's names of the JSON types it received.
    let report = "2 validation errors for noteArguments\n\
        title\n  Input should be a valid string [type=string_type, input_value=5, input_type=int]\n\
        body\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n";
    let read = host::read_tool_result(&text_result(report)).unwrap();
    assert_eq!(
        read.to_json()["argument_errors"],
        json!([
            {"path": "/body", "kind": "wrong_type", "expected": "a valid string", "received": "null"},
            {"path": "/title", "kind": "wrong_type", "expected": "a valid string", "received": "integer"},
        ])
    );
}
