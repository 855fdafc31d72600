//! The host side against MCP servers nobody here wrote: the official Python
//! SDK's `MCPServer` (PyPI `mcp==2.3.0`, `tests/e2e/python_sdk_server.py`)
//! and the official TypeScript SDK's `McpServer` (npm
//! `@modelcontextprotocol/sdk`, pinned in `tests/e2e/ts_sdk_server/`), and
//! a server of the standalone FastMCP framework (PyPI `fastmcp==2.14.7`,
//! `tests/e2e/fastmcp_server.py`), each started as a child process and
//! driven over stdio by rmcp's client, the way a Rust agent host talks to
//! them; the Python SDK's also through the retry loop (`host::call_tool`).
//!
//! Every call's answer is kept twice: as rmcp's client returned it
//! (`CallToolResult`, or the `ErrorData` of a JSON-RPC error) and as the
//! server wrote it on the wire (the response line, read off the child's
//! stdout on its way to rmcp). Both must equal the fixture
//! `tests/e2e/fixtures/<case>.json`, `{"kind": "result" | "jsonrpc_error" |
//! "service_error", "value": ...}`, exactly: the fixtures are what a client
//! receives from these SDKs, and the host reader's tests read them.
//!
//! `ENVELOPE_UPDATE_FIXTURES=1` rewrites the fixtures from this run instead
//! of checking them (`.ci/run` unsets it).
//!
//! Needs the servers, so it is `#[ignore]`d: `.ci/run` installs them
//! (the Python venv of `mcp_e2e`, a venv with `fastmcp`, `npm ci` in
//! `tests/e2e/ts_sdk_server`) and runs it with `--ignored`; there a missing
//! or wrong server fails it. `ENVELOPE_MCP_PYTHON` names the Python with
//! `mcp` (default `python3`), `ENVELOPE_FASTMCP_PYTHON` the one with
//! `fastmcp` (default `python3`),
//! `ENVELOPE_MCP_NODE` the Node.js binary (default `node`, found on `PATH`);
//! the TypeScript server's dependencies are those of its own directory's
//! `node_modules`.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequest, CallToolRequestParams, ClientRequest, ServerResult};
use rmcp::service::{PeerRequestOptions, RoleClient, RunningService, ServiceError};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

use envelope::NextMove;
use envelope::host;
use envelope::{CallBehaviour, Envelope, ErrorEnvelope};

/// The versions `.ci/run` installs; another one is treated as missing.
const PINNED_PYTHON_SDK: &str = "2.3.0";
const PINNED_TS_SDK: &str = "1.32.2";
const PINNED_FASTMCP: &str = "2.14.7";
/// The Python with `fastmcp` (its own venv: it needs `mcp` 1.x).
const FASTMCP_VAR: &str = "ENVELOPE_FASTMCP_PYTHON";
const PYTHON_VAR: &str = "ENVELOPE_MCP_PYTHON";
const NODE_VAR: &str = "ENVELOPE_MCP_NODE";
const UPDATE_VAR: &str = "ENVELOPE_UPDATE_FIXTURES";
/// A call's upper bound; none of the servers' answers takes a second.
const CALL_TIMEOUT: Duration = Duration::from_secs(20);
/// The client-side timeout of the `slow` call (the tool sleeps 30 s).
const SLOW_TIMEOUT: Duration = Duration::from_millis(1500);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn e2e() -> PathBuf {
    root().join("tests/e2e")
}

fn ts_dir() -> PathBuf {
    e2e().join("ts_sdk_server")
}

fn python() -> String {
    std::env::var(PYTHON_VAR).unwrap_or_else(|_| "python3".to_owned())
}

fn node() -> String {
    std::env::var(NODE_VAR).unwrap_or_else(|_| "node".to_owned())
}

/// The installed Python SDK's version, checked against the pin.
fn check_python_sdk(python: &str) {
    let output = std::process::Command::new(python)
        .args([
            "-c",
            "import importlib.metadata, mcp; print(importlib.metadata.version('mcp'))",
        ])
        .output()
        .unwrap_or_else(|e| panic!("cannot start `{python}` (set {PYTHON_VAR}): {e}"));
    assert!(
        output.status.success(),
        "`{python}` has no `mcp` module (set {PYTHON_VAR}, see .ci/run): {}",
        String::from_utf8_lossy(&output.stderr).trim()
    );
    let version = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    assert_eq!(
        version, PINNED_PYTHON_SDK,
        "`{python}` has mcp {version}, the test is pinned to {PINNED_PYTHON_SDK}"
    );
}

/// The TypeScript SDK installed under the server's directory, checked
/// against the pin (the lockfile's version).
fn check_ts_sdk() {
    let manifest = ts_dir().join("node_modules/@modelcontextprotocol/sdk/package.json");
    let text = std::fs::read_to_string(&manifest).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run `npm ci` in {} (see .ci/run)",
            manifest.display(),
            ts_dir().display()
        )
    });
    let manifest: Value = serde_json::from_str(&text).expect("the SDK's package.json parses");
    assert_eq!(
        manifest["version"], PINNED_TS_SDK,
        "node_modules has another @modelcontextprotocol/sdk than the pinned one: run `npm ci`"
    );
}

/// A server started as a child process, with an rmcp client on its stdio
/// and every line it wrote on stdout.
struct Session {
    client: RunningService<RoleClient, ()>,
    wire: Arc<Mutex<Vec<Value>>>,
    child: Child,
}

impl Session {
    async fn start(mut command: Command) -> Self {
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // The servers' operator logs (tracebacks included) are not
            // part of what a client receives.
            .stderr(Stdio::null())
            .kill_on_drop(true);
        let mut child = command.spawn().expect("the server starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        // Tee: each line the server writes is recorded, then handed to rmcp.
        let wire = Arc::new(Mutex::new(Vec::new()));
        let (mut to_client, from_tee) = tokio::io::duplex(1 << 16);
        let record = Arc::clone(&wire);
        tokio::spawn(async move {
            let mut lines = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Ok(message) = serde_json::from_str::<Value>(&line) {
                    record.lock().unwrap().push(message);
                }
                let forwarded = async {
                    to_client.write_all(line.as_bytes()).await?;
                    to_client.write_all(b"\n").await
                };
                if forwarded.await.is_err() {
                    break;
                }
            }
        });
        let client = ().serve((from_tee, stdin)).await.expect("the rmcp client connects");
        Self {
            client,
            wire,
            child,
        }
    }

    /// Calls `tool` and returns the fixture for what came back: rmcp's view
    /// and the wire's, which the caller compares.
    async fn call(&self, tool: &str, arguments: Value, timeout: Duration) -> Observed {
        let mut params = CallToolRequestParams::new(tool.to_owned());
        if let Value::Object(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        let handle = self
            .client
            .peer()
            .send_request_with_option(
                ClientRequest::CallToolRequest(CallToolRequest::new(params)),
                PeerRequestOptions::with_timeout(timeout),
            )
            .await
            .expect("the request is sent");
        let id = serde_json::to_value(&handle.id).expect("ids serialize");
        let response = handle.await_response().await;
        let wire = self.response_on_wire(&id);
        let (rmcp, envelope) = match response {
            Ok(ServerResult::CallToolResult(result)) => (
                json!({
                    "kind": "result",
                    "value": serde_json::to_value(&result).expect("results serialize"),
                }),
                host::read_call_tool_result(&result),
            ),
            Ok(other) => panic!("{tool}: not a CallToolResult: {other:?}"),
            Err(error @ ServiceError::McpError(_)) => {
                let ServiceError::McpError(data) = &error else {
                    unreachable!()
                };
                (
                    json!({
                        "kind": "jsonrpc_error",
                        "value": serde_json::to_value(data).expect("errors serialize"),
                    }),
                    Some(host::read_service_error(&error)),
                )
            }
            Err(error @ ServiceError::Timeout { .. }) => {
                let ServiceError::Timeout { timeout } = &error else {
                    unreachable!()
                };
                (
                    json!({
                        "kind": "service_error",
                        "value": {
                            "variant": "Timeout",
                            "timeout_ms": u64::try_from(timeout.as_millis()).unwrap(),
                        },
                    }),
                    Some(host::read_service_error(&error)),
                )
            }
            Err(other) => panic!("{tool}: unexpected client error: {other}"),
        };
        Observed {
            rmcp,
            envelope,
            wire,
        }
    }

    /// The fixture-shaped response to request `id` as the server wrote it,
    /// if it wrote one.
    fn response_on_wire(&self, id: &Value) -> Option<Value> {
        let wire = self.wire.lock().unwrap();
        let response = wire
            .iter()
            .find(|message| &message["id"] == id && message.get("method").is_none())?;
        Some(if let Some(result) = response.get("result") {
            json!({"kind": "result", "value": result})
        } else {
            json!({"kind": "jsonrpc_error", "value": response["error"]})
        })
    }

    /// The tool list, with the protocol version the handshake agreed on,
    /// as a fixture.
    async fn tools(&self) -> Value {
        let protocol = self
            .client
            .peer()
            .peer_info()
            .map(|info| info.protocol_version.to_string());
        let tools = self
            .client
            .peer()
            .list_all_tools()
            .await
            .expect("tools/list answers");
        json!({
            "kind": "tools",
            "protocolVersion": protocol,
            "value": serde_json::to_value(tools).expect("tools serialize"),
        })
    }

    async fn stop(mut self) {
        let _ = self.client.cancel().await;
        let _ = self.child.kill().await;
    }
}

struct Observed {
    rmcp: Value,
    /// What the host reads from rmcp's answer: `None` for a success.
    envelope: Option<ErrorEnvelope>,
    /// `None` when the server wrote no response (a call the client gave up).
    wire: Option<Value>,
}

/// The one volatile part of an answer: pydantic's validation report links
/// to its docs under its own minor version (`errors.pydantic.dev/2.14/...`),
/// and `.ci/run` pins `mcp`, not the pydantic it pulls in. Compared with
/// that version left out; the fixtures keep the text as received.
fn normalise(value: &Value) -> Value {
    const DOCS: &str = "https://errors.pydantic.dev/";
    match value {
        Value::String(text) => {
            let mut out = String::new();
            let mut rest = text.as_str();
            while let Some(at) = rest.find(DOCS) {
                let (before, link) = rest.split_at(at + DOCS.len());
                out.push_str(before);
                match link.find('/') {
                    Some(end) => {
                        out.push_str("{pydantic}");
                        rest = &link[end..];
                    }
                    None => rest = link,
                }
            }
            out.push_str(rest);
            Value::String(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(normalise).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), normalise(value)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Checks (or, with `ENVELOPE_UPDATE_FIXTURES=1`, writes) one fixture.
fn check_fixture(name: &str, expected: &Value) {
    let path = e2e().join("fixtures").join(format!("{name}.json"));
    if std::env::var_os(UPDATE_VAR).is_some_and(|v| v == "1") {
        let mut text = serde_json::to_string_pretty(expected).unwrap();
        text.push('\n');
        std::fs::write(&path, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} ({UPDATE_VAR}=1 writes it)", path.display()));
    let fixture: Value = serde_json::from_str(&text).expect("fixtures parse");
    assert_eq!(
        normalise(&fixture),
        normalise(expected),
        "{name}: the server's answer differs from {}",
        path.display()
    );
}

/// A call whose answer rmcp and the wire agree on, checked against its
/// fixture.
fn check_call(name: &str, observed: &Observed) {
    let wire = observed
        .wire
        .as_ref()
        .unwrap_or_else(|| panic!("{name}: no response on the wire"));
    assert_eq!(
        &observed.rmcp, wire,
        "{name}: rmcp's client returned something else than the server wrote"
    );
    check_fixture(name, wire);
}

/// What the host reads from a call, and its decision for a tool that
/// declares nothing (neither SDK's tools declare annotations): the
/// envelope's JSON (`None` for a success) and the next move.
fn check_read(name: &str, observed: &Observed, expected: Option<&str>, next: Option<NextMove>) {
    let read = observed.envelope.as_ref().map(Envelope::to_json_string);
    assert_eq!(read.as_deref(), expected, "{name}: what the host read");
    if let Some(envelope) = &observed.envelope {
        assert_eq!(
            Some(host::next_move(envelope, CallBehaviour::default(), 1)),
            next,
            "{name}: the next move"
        );
    }
}

const CHECK: &str = "the call may have taken effect: check its result before repeating it";

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs the Python and Node MCP SDK servers: see .ci/run"]
async fn python_sdk_server() {
    let python = python();
    check_python_sdk(&python);
    let mut command = Command::new(&python);
    command.arg(e2e().join("python_sdk_server.py"));
    let session = Session::start(command).await;

    check_fixture("python_tools", &session.tools().await);
    let unknown = |message: &str| {
        format!(
            r#"{{"isError":true,"error_class":"UNKNOWN","message":"{message}","next_steps":["{CHECK}"],"category":"Technical","effect":"unknown"}}"#
        )
    };
    let fix_n = NextMove::FixArguments {
        arguments: None,
        problems: vec![
            envelope::ArgumentError::new(envelope::ArgumentErrorKind::WrongType, "/n")
                .with_expected("a valid integer")
                .with_received(&json!("abc")),
        ],
    };
    let cases = [
        (
            "python_tool_error",
            "tool_error",
            json!({"name": "x"}),
            Some(unknown("no note named x")),
            Some(NextMove::Check {
                tool: None,
                arguments: None,
            }),
        ),
        (
            "python_value_error",
            "value_error",
            json!({}),
            Some(unknown("Error executing tool value_error")),
            Some(NextMove::Check {
                tool: None,
                arguments: None,
            }),
        ),
        (
            "python_validation",
            "typed",
            json!({"n": "abc"}),
            Some(String::from(
                r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"1 problem in the arguments: /n must be a valid integer, got a string","next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"category":"Validation","argument_errors":[{"path":"/n","kind":"wrong_type","expected":"a valid integer","received":"string"}]}"#,
            )),
            Some(fix_n),
        ),
        (
            "python_unknown_tool",
            "nope",
            json!({}),
            Some(String::from(
                r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"Unknown tool: nope","next_steps":["list the tools with tools/list and call one of them"],"code":"UNKNOWN_TOOL","category":"NotFound"}"#,
            )),
            Some(NextMove::ChangeCall),
        ),
        (
            "python_mcp_error",
            "rate_limited",
            json!({}),
            Some(String::from(
                r#"{"isError":true,"error_class":"RATE_LIMITED","message":"Rate limited: try again later","retry_after_ms":2000,"code":"RATE_LIMITED","category":"Technical","retryable":true}"#,
            )),
            Some(NextMove::Repeat {
                after: Duration::from_secs(2),
            }),
        ),
        ("python_structured", "structured", json!({}), None, None),
    ];
    for (name, tool, arguments, expected, next) in cases {
        let observed = session.call(tool, arguments, CALL_TIMEOUT).await;
        check_call(name, &observed);
        check_read(name, &observed, expected.as_deref(), next);
    }

    // A call the client gives up on: rmcp's `ServiceError::Timeout` (it
    // then sends `notifications/cancelled`); the server writes nothing for
    // it, not even later.
    let observed = session.call("slow", json!({}), SLOW_TIMEOUT).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(observed.wire, None, "a response to the timed-out call");
    check_fixture("python_slow_timeout", &observed.rmcp);
    // The host's own timeout: effect unknown, so a tool that declares
    // nothing is not repeated; a read-only one would be.
    let timeout = observed.envelope.as_ref().expect("a timeout is a failure");
    assert_eq!(
        timeout.to_json_string(),
        format!(
            r#"{{"isError":true,"error_class":"TIMEOUT","message":"the tool call timed out before the server answered","next_steps":["{CHECK}"],"code":"REQUEST_TIMEOUT","category":"Technical","effect":"unknown"}}"#
        )
    );
    assert_eq!(
        host::next_move(timeout, CallBehaviour::default(), 1),
        NextMove::Check {
            tool: None,
            arguments: None
        }
    );
    assert_eq!(
        host::next_move(timeout, CallBehaviour::READ, 1),
        NextMove::Repeat {
            after: Duration::from_secs(1)
        }
    );
    // The session still serves after the cancellation.
    let observed = session
        .call("tool_error", json!({"name": "x"}), CALL_TIMEOUT)
        .await;
    check_call("python_tool_error", &observed);

    // The retry loop against the same server: the rate limit's hint is
    // waited (2 s) and the call repeated once, as the policy allows; the
    // slow tool (no annotations: a write) is cut at the call timeout and
    // not repeated.
    let policy = host::RetryPolicy::default()
        .with_max_repeats(1)
        .with_call_timeout(Some(SLOW_TIMEOUT));
    let mut retries = host::Retries::with_seed(policy, 1);
    let started = std::time::Instant::now();
    let failure = host::call_tool(
        session.client.peer(),
        CallToolRequestParams::new("rate_limited"),
        CallBehaviour::default(),
        &mut retries,
    )
    .await
    .expect_err("rate limited every time");
    assert!(started.elapsed() >= Duration::from_secs(2));
    assert_eq!(failure.attempts, 2);
    assert_eq!(failure.next, NextMove::Exhausted { attempts: 2 });
    // The facts as read, then the host's decision: the repeats are used up.
    let said = "Do not repeat this call now: it failed on all 2 tries the host makes. Tell the user it failed; it may pass later.";
    assert_eq!(
        failure.model_text,
        format!("{}\n{said}", failure.envelope.to_json_string())
    );
    let failure = host::call_tool(
        session.client.peer(),
        CallToolRequestParams::new("slow"),
        CallBehaviour::default(),
        &mut retries,
    )
    .await
    .expect_err("too slow");
    assert_eq!(failure.attempts, 1);
    assert_eq!(failure.envelope.code.as_deref(), Some("REQUEST_TIMEOUT"));
    assert_eq!(
        failure.next,
        NextMove::Check {
            tool: None,
            arguments: None
        }
    );

    session.stop().await;
}

/// The installed FastMCP's version, checked against the pin.
fn check_fastmcp(python: &str) {
    let output = std::process::Command::new(python)
        .args([
            "-c",
            "import importlib.metadata; print(importlib.metadata.version('fastmcp'))",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{python}: {e} ({FASTMCP_VAR} names a Python with fastmcp)"));
    let version = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    assert_eq!(
        version, PINNED_FASTMCP,
        "{python} has fastmcp {version:?}, not {PINNED_FASTMCP} (.ci/run installs it)"
    );
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs the FastMCP server: see .ci/run"]
async fn fastmcp_server() {
    let python = std::env::var(FASTMCP_VAR).unwrap_or_else(|_| String::from("python3"));
    check_fastmcp(&python);
    let mut command = Command::new(&python);
    command.arg(e2e().join("fastmcp_server.py"));
    let session = Session::start(command).await;

    check_fixture("fastmcp_tools", &session.tools().await);
    let unknown = |message: &str| {
        format!(
            r#"{{"isError":true,"error_class":"UNKNOWN","message":"{message}","next_steps":["{CHECK}"],"category":"Technical","effect":"unknown"}}"#
        )
    };
    let unknown_tool = |name: &str| {
        format!(
            r#"{{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"Unknown tool: {name}","next_steps":["list the tools with tools/list and call one of them"],"code":"UNKNOWN_TOOL","category":"NotFound"}}"#
        )
    };
    let wrong_type = |path: &str, expected: &str| {
        envelope::ArgumentError::new(envelope::ArgumentErrorKind::WrongType, path)
            .with_expected(expected)
            .with_received(&json!("abc"))
    };
    let cases = [
        (
            "fastmcp_tool_error",
            "tool_error",
            json!({"name": "x"}),
            Some(unknown("no note named x")),
            Some(NextMove::Check {
                tool: None,
                arguments: None,
            }),
        ),
        (
            "fastmcp_value_error",
            "value_error",
            json!({}),
            Some(unknown("secret detail")),
            Some(NextMove::Check {
                tool: None,
                arguments: None,
            }),
        ),
        (
            "fastmcp_validation",
            "typed",
            json!({"n": "abc"}),
            Some(String::from(
                r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"1 problem in the arguments: /n must be a valid integer, got a string","next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"category":"Validation","argument_errors":[{"path":"/n","kind":"wrong_type","expected":"a valid integer","received":"string"}]}"#,
            )),
            Some(NextMove::FixArguments {
                arguments: None,
                problems: vec![wrong_type("/n", "a valid integer")],
            }),
        ),
        (
            "fastmcp_union",
            "pick",
            json!({"choice": "abc"}),
            Some(String::from(
                r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"2 problems in the arguments: /choice must be a valid integer, got a string; /choice must be a valid list, got a string","next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"category":"Validation","argument_errors":[{"path":"/choice","kind":"wrong_type","expected":"a valid integer","received":"string"},{"path":"/choice","kind":"wrong_type","expected":"a valid list","received":"string"}]}"#,
            )),
            Some(NextMove::FixArguments {
                arguments: None,
                problems: vec![
                    wrong_type("/choice", "a valid integer"),
                    wrong_type("/choice", "a valid list"),
                ],
            }),
        ),
        (
            "fastmcp_disabled",
            "hidden",
            json!({}),
            Some(unknown_tool("hidden")),
            Some(NextMove::ChangeCall),
        ),
        (
            "fastmcp_unknown_tool",
            "nope",
            json!({}),
            Some(unknown_tool("nope")),
            Some(NextMove::ChangeCall),
        ),
    ];
    for (name, tool, arguments, expected, next) in cases {
        let observed = session.call(tool, arguments, CALL_TIMEOUT).await;
        check_call(name, &observed);
        check_read(name, &observed, expected.as_deref(), next);
    }

    session.stop().await;
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "needs the Python and Node MCP SDK servers: see .ci/run"]
async fn ts_sdk_server() {
    check_ts_sdk();
    let mut command = Command::new(node());
    command.current_dir(ts_dir()).arg("server.mjs");
    let session = Session::start(command).await;

    check_fixture("ts_tools", &session.tools().await);
    let unknown_tool = r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"Tool nope not found","next_steps":["list the tools with tools/list and call one of them"],"code":"UNKNOWN_TOOL","category":"NotFound"}"#;
    let fix_name = NextMove::FixArguments {
        arguments: None,
        problems: vec![{
            let mut problem =
                envelope::ArgumentError::new(envelope::ArgumentErrorKind::WrongType, "/name")
                    .with_expected("string");
            problem.received = Some(String::from("number"));
            problem
        }],
    };
    let cases = [
        (
            "ts_throws",
            "throws",
            json!({"name": "x"}),
            Some(format!(
                r#"{{"isError":true,"error_class":"UNKNOWN","message":"boom: no such note","next_steps":["{CHECK}"],"category":"Technical","effect":"unknown"}}"#
            )),
            Some(NextMove::Check {
                tool: None,
                arguments: None,
            }),
        ),
        (
            "ts_validation",
            "throws",
            json!({"name": 5}),
            Some(String::from(
                r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"1 problem in the arguments: /name must be string, got a number","next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"category":"Validation","argument_errors":[{"path":"/name","kind":"wrong_type","expected":"string","received":"number"}]}"#,
            )),
            Some(fix_name),
        ),
        (
            "ts_unknown_tool",
            "nope",
            json!({}),
            Some(String::from(unknown_tool)),
            Some(NextMove::ChangeCall),
        ),
        ("ts_typed_out", "typed_out", json!({}), None, None),
        (
            "ts_bad_out",
            "bad_out",
            json!({}),
            Some(format!(
                r#"{{"isError":true,"error_class":"INTERNAL","message":"the tool's answer broke its output schema: Tool bad_out has an output schema but no structured content was provided","next_steps":["{CHECK}"],"code":"OUTPUT_INVALID","category":"Technical","effect":"unknown"}}"#
            )),
            Some(NextMove::Check {
                tool: None,
                arguments: None,
            }),
        ),
        (
            "ts_disabled",
            "hidden",
            json!({}),
            Some(String::from(
                r#"{"isError":true,"error_class":"UNSUPPORTED","message":"the tool \"hidden\" is disabled on this server","next_steps":["do not call \"hidden\" again now; use another tool, or go on without it"],"code":"TOOL_DISABLED","category":"Validation"}"#,
            )),
            Some(NextMove::ChangeCall),
        ),
    ];
    for (name, tool, arguments, expected, next) in cases {
        let observed = session.call(tool, arguments, CALL_TIMEOUT).await;
        check_call(name, &observed);
        check_read(name, &observed, expected.as_deref(), next);
    }

    session.stop().await;
}
