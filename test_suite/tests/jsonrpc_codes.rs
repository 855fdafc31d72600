//! Conformance of the rmcp router's answers to the current MCP revision
//! (2026-07-28): every JSON-RPC error code the router, its keyed layer and
//! its rate limit can emit is one the revision defines (the standard
//! JSON-RPC codes and its own), drafts only when opted in; an unknown tool
//! is the protocol error `-32602` (what the conformance suite's pending
//! scenario `tools-call-protocol-error` checks), whose message names the
//! near misses and whose `data` carries the envelope.

use std::collections::BTreeSet;

use envelope::NextMove;
use envelope::idempotency::MemoryStore;
use envelope::rate_limit::Limited;
use envelope::rate_limit::RateLimit;
use envelope::rmcp::{Idempotency, RateLimited, UnknownTool};
use envelope::{CallBehaviour, ErrorClass, host};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolRequestParams;
use rmcp::service::ServiceError;
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/in_process.rs"]
mod in_process;
use in_process::connect;

#[path = "cases/keyed.rs"]
mod keyed;

/// The JSON-RPC error codes the revision defines: JSON-RPC 2.0's own, and
/// the three of the range it reserves (`-32020` to `-32099`, of which a
/// server "MUST NOT emit any code ... that is not defined").
const REVISION_CODES: [i32; 8] = [
    -32700, -32600, -32601, -32602, -32603, -32020, -32021, -32022,
];

#[derive(Deserialize, JsonSchema)]
struct NewTodo {
    title: String,
}

#[derive(Clone)]
struct Todos {
    tool_router: envelope::rmcp::Router<Self>,
}

#[tool_router]
impl Todos {
    /// Lists the todos.
    #[tool(annotations(read_only_hint = true))]
    async fn list_todos(&self) -> String {
        String::from("[]")
    }

    /// Adds a todo; keyed.
    #[tool]
    async fn add_todo(&self, Parameters(todo): Parameters<NewTodo>) -> String {
        todo.title
    }

    /// Sends a reminder; the rate limit refuses it.
    #[tool]
    async fn send_reminder(&self) -> String {
        String::from("sent")
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Todos {}

/// The server, with its unknown-tool and rate-limit answers.
fn todos(unknown: UnknownTool, limited: RateLimited) -> Todos {
    let limit = RateLimit::new(|tool: &str, _: Option<&str>| {
        if tool == "send_reminder" {
            Err(Limited::new(1200, 60))
        } else {
            Ok(())
        }
    });
    Todos {
        tool_router: envelope::rmcp::Router::new(Todos::tool_router())
            .with_unknown_tool(unknown)
            .with_rate_limit(limit)
            .with_rate_limited(limited)
            .with_idempotency(Idempotency::new(MemoryStore::new()).require("add_todo")),
    }
}

/// Every call the tests make: each way the router, the keyed layer and the
/// rate limit answer.
fn calls() -> Vec<CallToolRequestParams> {
    let add = |arguments: Value, key: Option<&str>| keyed::call("add_todo", arguments, key);
    let mut calls = vec![
        CallToolRequestParams::new("list_todo"),
        CallToolRequestParams::new("zzzzzz"),
        CallToolRequestParams::new("send_reminder"),
        CallToolRequestParams::new("list_todos"),
        keyed::call("list_todos", json!({}), Some("k-read")),
        add(json!({"title": 7}), Some("k-types")),
        add(json!({}), Some("k-missing")),
        add(json!({"title": "milk"}), None),
        add(json!({"title": "milk"}), Some("")),
        add(json!({"title": "milk"}), Some("k-1")),
        add(json!({"title": "milk"}), Some("k-1")),
        add(json!({"title": "bread"}), Some("k-1")),
    ];
    let mut bad_key = add(json!({"title": "milk"}), None);
    bad_key
        .meta
        .get_or_insert_with(Default::default)
        .0
        .insert(String::from("idempotencyKey"), json!(17));
    calls.push(bad_key);
    calls
}

/// What every call of [`calls`] to a server answering as told got: a
/// JSON-RPC error's code, or a result's failure code (`None` for a
/// success), marked `(replay)` when it is a stored answer sent again.
async fn answers(unknown: UnknownTool, limited: RateLimited) -> Vec<String> {
    let client = connect(todos(unknown, limited)).await;
    let mut answers = Vec::new();
    for call in calls() {
        answers.push(match client.peer().call_tool(call).await {
            Ok(result) => {
                let code = keyed::code(&result).unwrap_or_else(|| keyed::text(&result));
                match keyed::replayed(&result) {
                    true => format!("{code} (replay)"),
                    false => code,
                }
            }
            Err(ServiceError::McpError(error)) => error.code.0.to_string(),
            Err(other) => panic!("not a JSON-RPC answer: {other:?}"),
        });
    }
    client.cancel().await.unwrap();
    answers
}

/// The JSON-RPC error codes among `answers`.
fn codes(answers: &[String]) -> BTreeSet<i32> {
    answers
        .iter()
        .filter_map(|answer| answer.parse().ok())
        .collect()
}

#[tokio::test]
async fn by_default_every_code_is_the_revisions() {
    let defaults = answers(UnknownTool::default(), RateLimited::default()).await;
    assert_eq!(
        defaults,
        [
            "-32602",
            "-32602",
            "RATE_LIMITED",
            "[]",
            // A key to a tool that takes none: refused, never ignored.
            "IDEMPOTENCY_KEY_NOT_TAKEN",
            // rmcp's own answer to arguments `Parameters<T>` cannot read: a
            // tool error result with its text (input validation errors are
            // tool errors since MCP 2025-11-25), no JSON-RPC error.
            "failed to deserialize parameters: invalid type: integer `7`, expected a string",
            "failed to deserialize parameters: missing field `title`",
            "IDEMPOTENCY_KEY_REQUIRED",
            "IDEMPOTENCY_KEY_INVALID",
            "milk",
            "milk (replay)",
            "IDEMPOTENCY_KEY_REUSED",
            "IDEMPOTENCY_KEY_INVALID",
        ]
    );
    let emitted = codes(&defaults);
    for code in &emitted {
        assert!(
            REVISION_CODES.contains(code),
            "{code} is not defined by MCP 2026-07-28"
        );
    }
    // The opt-ins: SEP-3304's code comes only when asked for, and with
    // SEP-2145's answer an unknown tool is no JSON-RPC error at all (nor
    // are arguments that do not deserialize, or a refused key, ever: they
    // are tool error results).
    let drafts = answers(UnknownTool::Sep2145ToolError, RateLimited::Sep3304Error).await;
    assert_eq!(codes(&drafts), BTreeSet::from([-32023]));
    assert_eq!(drafts[..2], ["UNKNOWN_TOOL", "UNKNOWN_TOOL"]);
}

/// `tools-call-protocol-error` (the conformance suite's pending scenario,
/// PR #508): a call of an unknown tool is a JSON-RPC error, not a result;
/// ours names the near miss and carries the envelope.
#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error_with_its_near_misses() {
    let client = connect(todos(UnknownTool::default(), RateLimited::default())).await;
    let error = client
        .peer()
        .call_tool(CallToolRequestParams::new("list_todo"))
        .await
        .unwrap_err();
    let ServiceError::McpError(data) = &error else {
        panic!("not a JSON-RPC error: {error:?}");
    };
    assert_eq!(data.code.0, -32602);
    assert_eq!(
        data.message,
        r#"Unknown tool: list_todo. Call again with "list_todos" in place of the name you sent."#
    );
    let envelope = data.data.as_ref().unwrap();
    let id = envelope["correlation_id"].as_str().unwrap();
    assert_eq!(
        envelope,
        &json!({
            "isError": true,
            "error_class": "OBJECT_NOT_FOUND",
            "message": "no tool is called \"list_todo\"",
            "fuzzy_matches": ["list_todos"],
            "next_steps": ["if a tool in fuzzy_matches is the one meant, call it with the same arguments; otherwise list the tools with tools/list"],
            "code": "UNKNOWN_TOOL",
            "category": "NotFound",
            "correlation_id": id
        })
    );
    // A host reads the envelope from `data`, and the near miss from the
    // message alone when `data` is lost.
    let read = host::read_service_error(&error);
    assert_eq!(read.error_class, ErrorClass::ObjectNotFound);
    assert_eq!(
        host::next_move(&read, CallBehaviour::default(), 1),
        NextMove::PickNearMiss {
            names: vec![String::from("list_todos")]
        }
    );
    let bare = host::read_jsonrpc_error(-32602, &data.message, None);
    assert_eq!(
        bare.message,
        r#"Unknown tool: list_todo. Call again with "list_todos" in place of the name you sent."#
    );
    assert_eq!(bare.fuzzy_matches, ["list_todos"]);
    assert_eq!(bare.code.as_deref(), Some("UNKNOWN_TOOL"));
    // Without a near miss, the revision's own words.
    let far = client
        .peer()
        .call_tool(CallToolRequestParams::new("zzzzzz"))
        .await
        .unwrap_err();
    let ServiceError::McpError(far) = far else {
        panic!("not a JSON-RPC error");
    };
    assert_eq!(far.message, "Unknown tool: zzzzzz");
    client.cancel().await.unwrap();
}
