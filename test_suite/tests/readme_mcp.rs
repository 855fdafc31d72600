//! The README's MCP server (`examples/notes_mcp.rs`): the README shows
//! exactly that file, and rmcp's client, in the same process, finds every
//! failure answered through its call's context although each tool writes
//! plain `?`: the tool's annotations through the retry rule, the
//! request's correlation id (the client's `_meta.correlationId`, else
//! generated), and exactly one operator log line per failure, with that
//! id. A server that routes around `envelope::rmcp::Router` is told so.
//! After changing the example, `ENVELOPE_UPDATE_README=1 cargo test -p
//! envelope-test-suite --all-features --test readme_mcp` rewrites the
//! README's block.

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

use envelope::{CallContext, ErrorEnvelope, OrFail};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, CallToolResult, MetaObject, RequestMetaObject};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde_json::{Value, json};

#[path = "../examples/notes_mcp.rs"]
#[allow(dead_code)] // its `main`
mod notes_mcp;

const CHECK: &str = "the call may have taken effect: check its result before repeating it";

/// The README's ```text block of the MCP server equals the example's code
/// between its `readme:` markers.
#[test]
fn the_readme_shows_the_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let example = std::fs::read_to_string(root.join("test_suite/examples/notes_mcp.rs")).unwrap();
    let (_, rest) = example.split_once("// readme:start\n").unwrap();
    let (code, _) = rest.split_once("// readme:end\n").unwrap();
    let block = format!("```rust,ignore\n{code}```\n");
    // `ENVELOPE_UPDATE_README=1` writes the example into the README's
    // block (the one that starts with the same first line).
    if std::env::var_os("ENVELOPE_UPDATE_README").is_some() && !readme.contains(&block) {
        let first = code.lines().next().unwrap();
        let start = readme.find(&format!("```rust,ignore\n{first}\n")).unwrap();
        let end = start + readme[start..].find("\n```\n").unwrap() + 5;
        let updated = format!("{}{block}{}", &readme[..start], &readme[end..]);
        std::fs::write(root.join("README.md"), updated).unwrap();
        return;
    }
    assert!(
        readme.contains(&block),
        "README.md must show test_suite/examples/notes_mcp.rs between its readme markers, as:\n{block}"
    );
}

/// Every line the server's log writes, for the whole test binary.
fn log() -> Arc<Mutex<Vec<u8>>> {
    static LOG: std::sync::OnceLock<Arc<Mutex<Vec<u8>>>> = std::sync::OnceLock::new();
    LOG.get_or_init(|| {
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || Sink(Arc::clone(&sink)))
            .with_ansi(false)
            .without_time()
            .finish();
        tracing::subscriber::set_global_default(subscriber).unwrap();
        log
    })
    .clone()
}

struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The log lines that name `id`.
fn lines_with(id: &str) -> Vec<String> {
    let log = log();
    let text = String::from_utf8(log.lock().unwrap().clone()).unwrap();
    text.lines()
        .filter(|line| line.contains(id))
        .map(str::to_owned)
        .collect()
}

#[path = "support/in_process.rs"]
mod in_process;
use in_process::connect;

/// Calls `tool` with `arguments`, and the client's correlation id in
/// `_meta` when there is one.
async fn call(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    arguments: Value,
    correlation_id: Option<&str>,
) -> Result<CallToolResult, ServiceError> {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    if let Some(id) = correlation_id {
        let meta = json!({"correlationId": id}).as_object().cloned().unwrap();
        params.meta = Some(RequestMetaObject(MetaObject::from(meta)));
    }
    client.peer().call_tool(params).await
}

/// The envelope of an error result, as the client received it.
fn envelope(result: &CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    // The JSON, then the text a model reads.
    assert_eq!(result.content.len(), 2);
    serde_json::from_str(&result.content[0].as_text().unwrap().text).unwrap()
}

/// A failure's envelope, with its correlation id checked (`expected`, or
/// a generated one ending in the request's id) and taken out; and the one
/// log line that names that id.
fn answered(result: &CallToolResult, expected: Option<&str>) -> Value {
    let mut envelope = envelope(result);
    let id = envelope["correlation_id"]
        .as_str()
        .expect("a correlation id")
        .to_owned();
    match expected {
        Some(expected) => assert_eq!(id, expected),
        None => assert!(id.contains("-req-"), "{id}"),
    }
    let lines = lines_with(&id);
    assert_eq!(lines.len(), 1, "one log line for {id}: {lines:#?}");
    assert!(lines[0].contains("tool_call{"), "{}", lines[0]);
    envelope.as_object_mut().unwrap().remove("correlation_id");
    envelope
}

#[tokio::test]
async fn plain_question_marks_answer_through_the_call() {
    log();
    let client = connect(notes_mcp::Notes::new(false)).await;

    let created = call(&client, "create_note", json!({"text": "milk"}), None)
        .await
        .unwrap();
    assert_eq!(created.is_error, Some(false));
    assert_eq!(
        created.structured_content,
        Some(json!({"id": "n-1", "text": "milk"}))
    );

    // A derived error with `?`, through `Into<ErrorEnvelope>`: the client's
    // id, one log line with it.
    let missing = call(&client, "get_note", json!({"id": "n-9"}), Some("corr-1"))
        .await
        .unwrap();
    assert_eq!(
        answered(&missing, Some("corr-1")),
        json!({
            "isError": true, "error_class": "OBJECT_NOT_FOUND",
            "message": "no note has the id n-9", "code": "NOT_FOUND", "category": "NotFound",
        })
    );
    // Converted to an envelope by `?` before the router saw it: the log
    // line still has the error's own text, which the conversion kept.
    let line = &lines_with("corr-1")[0];
    assert!(
        line.contains(r#"exception.message="no note n-9""#),
        "{line}"
    );

    // The argument envelope with `?`: a generated id.
    let bad = call(&client, "get_note", json!({"note_id": "n-1"}), None)
        .await
        .unwrap();
    let bad = answered(&bad, None);
    assert_eq!(bad["error_class"], "INVALID_ARGUMENTS");
    assert_eq!(bad["argument_errors"][0]["path"], "/id");
    assert_eq!(bad["argument_errors"][0]["kind"], "missing");

    // An unknown tool: the revision's protocol error, naming the near
    // miss, the envelope in `data`, through a context of its own.
    let unknown = call(&client, "get_nte", json!({"id": "n-1"}), Some("corr-2"))
        .await
        .unwrap_err();
    let rmcp::service::ServiceError::McpError(unknown) = unknown else {
        panic!("not a JSON-RPC error: {unknown:?}");
    };
    assert_eq!(unknown.code.0, -32602);
    assert_eq!(
        unknown.message,
        r#"Unknown tool: get_nte. Call again with "get_note" in place of the name you sent."#
    );
    let unknown = unknown.data.expect("the envelope");
    assert_eq!(unknown["code"], "UNKNOWN_TOOL");
    assert_eq!(unknown["correlation_id"], "corr-2");
    assert_eq!(unknown["fuzzy_matches"], json!(["get_note"]));
    client.cancel().await.unwrap();
}

/// The same transient failure, answered by the read and by the write as
/// their annotations say, with no code of the tools' own.
#[tokio::test]
async fn the_annotations_decide_the_retry() {
    log();
    let client = connect(notes_mcp::Notes::new(true)).await;
    let read = call(&client, "get_note", json!({"id": "n-1"}), Some("corr-read"))
        .await
        .unwrap();
    assert_eq!(
        answered(&read, Some("corr-read")),
        json!({
            "isError": true, "error_class": "TRANSIENT", "message": "the notes database is busy",
            "code": "LOCKED", "category": "Technical", "retryable": true,
        })
    );
    let write = call(
        &client,
        "create_note",
        json!({"text": "milk"}),
        Some("corr-write"),
    )
    .await
    .unwrap();
    assert_eq!(
        answered(&write, Some("corr-write")),
        json!({
            "isError": true, "error_class": "TRANSIENT", "message": "the notes database is busy",
            "next_steps": [CHECK], "code": "LOCKED", "category": "Technical", "effect": "unknown",
        })
    );
    client.cancel().await.unwrap();
}

/// A server that keeps rmcp's own router: a tool taking a `CallContext`
/// fails with the fix, and a tool without one still answers.
#[derive(Clone)]
struct Unrouted {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Unrouted {
    #[tool]
    async fn with_context(&self, call: CallContext) -> Result<String, ErrorEnvelope> {
        Ok(call.correlation_id().to_owned())
    }

    #[tool]
    async fn without_context(&self) -> Result<String, ErrorEnvelope> {
        Err(ErrorEnvelope::new(envelope::ErrorClass::Busy, "busy"))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Unrouted {}

#[tokio::test]
async fn routing_around_the_router_is_not_silent() {
    log();
    let client = connect(Unrouted {
        tool_router: Unrouted::tool_router(),
    })
    .await;
    let Err(ServiceError::McpError(error)) = call(&client, "with_context", json!({}), None).await
    else {
        panic!("a JSON-RPC error")
    };
    assert_eq!(error.code.0, -32603);
    assert_eq!(
        error.message,
        "this tools/call was not routed through envelope::rmcp::Router, so its failures miss the tool's annotations and correlation id: declare the server's router field as `envelope::rmcp::Router<Self>` (`tool_router: Self::tool_router().into()`) and write `#[tool_handler(router = self.tool_router)]`"
    );
    // The tool's envelope as it made it, and a warning in the log.
    let busy = call(&client, "without_context", json!({}), None)
        .await
        .unwrap();
    assert_eq!(
        envelope(&busy),
        json!({
            "isError": true, "error_class": "BUSY", "message": "busy",
            "category": "Technical", "retryable": true,
        })
    );
    let warnings = lines_with(" envelope: this tools/call was not routed");
    assert_eq!(warnings.len(), 1, "one warning per process: {warnings:#?}");
    client.cancel().await.unwrap();
}

#[derive(Debug, thiserror::Error, envelope::Envelope)]
enum DiskError {
    #[error("disk full writing /var/notes/7")]
    #[envelope(class = Internal, message = "the store failed")]
    Full,
}

/// A routed server whose tools return a derived error, answer one with
/// `.or_fail` first, and read their context.
#[derive(Clone)]
struct Routed {
    tool_router: envelope::rmcp::Router<Self>,
}

#[tool_router]
impl Routed {
    #[tool]
    async fn derived(&self) -> Result<String, DiskError> {
        Err(DiskError::Full)
    }

    #[tool(annotations(read_only_hint = true))]
    async fn answered_first(&self, call: CallContext) -> Result<String, ErrorEnvelope> {
        Err::<String, _>(DiskError::Full).or_fail(&call)
    }

    #[tool]
    async fn context(&self, call: CallContext) -> String {
        format!("{} {}", call.tool(), call.correlation_id())
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Routed {}

/// The log line carries the error's own text when the tool returns the
/// derived error, or answers it with `.or_fail` (then the router does not
/// log it again); a `CallContext` parameter is the router's context.
#[tokio::test]
async fn one_log_line_with_the_error_text() {
    log();
    let client = connect(Routed {
        tool_router: Routed::tool_router().into(),
    })
    .await;
    for (tool, id, effect) in [
        ("derived", "corr-derived", Some("unknown")),
        ("answered_first", "corr-first", None),
    ] {
        let result = call(&client, tool, json!({}), Some(id)).await.unwrap();
        let envelope = answered(&result, Some(id));
        assert_eq!(envelope["code"], "FULL");
        assert_eq!(
            envelope.get("effect").and_then(Value::as_str),
            effect,
            "{tool}"
        );
        let line = &lines_with(id)[0];
        assert!(line.contains("disk full writing /var/notes/7"), "{line}");
    }
    let context = call(&client, "context", json!({}), Some("corr-ctx"))
        .await
        .unwrap();
    assert_eq!(
        context.content[0].as_text().unwrap().text,
        "context corr-ctx"
    );
    client.cancel().await.unwrap();
}
