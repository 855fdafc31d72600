//! End to end through a real MCP client nobody here wrote: the official
//! Python SDK (PyPI `mcp==2.3.0`, `stdio_client` + `ClientSession`) starts
//! the `mcp_server` example over stdio, lists its tools and calls each one
//! (`tests/e2e/calls.json`); `tests/e2e/mcp_client.py` records what the
//! client received (results, timing, the server's stderr), and this test
//! asserts on that record, exactly.
//!
//! What it pins down beyond the wire shapes: the same transient failure
//! (`TABLE_LOCKED`) answered by a read-only tool (retryable, no check step)
//! and by a write that is not idempotent (`effect: "unknown"`, not
//! retryable, "check its result" first); correlation ids (generated ones by
//! their shape and uniqueness, a client's `traceparent` trace id and
//! `correlationId` exactly), each in exactly one operator log line; an
//! unknown tool answered with its near misses. The session runs twice: as
//! the server starts by default, no result has `_meta`; started with
//! `--sep-3313`, every error result has the exact tool-failure object
//! (`retryNotBefore` within the call's time window).
//!
//! Needs the `rmcp` and `jsonschema` features (for the example, which then
//! reports every argument problem at once) and a Python with `mcp`
//! installed, so it is `#[ignore]`d: `cargo test` lists it as ignored
//! rather than counting a test that could not run as passed. `.ci/run`
//! installs the client and runs it with `--ignored`; there a missing or
//! wrong client fails it. `ENVELOPE_MCP_PYTHON` names the interpreter
//! (default `python3`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use envelope::Envelope;
use serde_json::{Value, json};

#[path = "../examples/support/catalog_error.rs"]
mod catalog_error;

/// The client version `.ci/run` installs; another one is treated as missing.
const PINNED_CLIENT: &str = "2.3.0";
const PYTHON_VAR: &str = "ENVELOPE_MCP_PYTHON";
/// Upper bound for one client session (build already done), in seconds.
const SESSION_TIMEOUT: Duration = Duration::from_secs(120);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn driver() -> PathBuf {
    root().join("tests/e2e/mcp_client.py")
}

/// The installed `mcp` version, or why there is none.
fn client_version(python: &str) -> Result<String, String> {
    let output = Command::new(python)
        .arg(driver())
        .arg("--probe")
        .output()
        .map_err(|e| format!("cannot start `{python}`: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`{python}` has no `mcp` module: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let version = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    if version == PINNED_CLIENT {
        Ok(version)
    } else {
        Err(format!(
            "`{python}` has mcp {version}, the test is pinned to {PINNED_CLIENT}"
        ))
    }
}

/// Builds the example with this test's features and profile (a no-op
/// after `cargo test`, which built it already) and returns its path.
fn server_binary() -> PathBuf {
    // Every feature of this test's build, so that under `--all-features`
    // the example is the one `cargo test` built.
    let mut features = vec!["rmcp", "jsonschema"];
    for (on, feature) in [
        (cfg!(feature = "schemars"), "schemars"),
        (cfg!(feature = "tracing"), "tracing"),
        (cfg!(feature = "axum"), "axum"),
    ] {
        if on {
            features.push(feature);
        }
    }
    let mut command = Command::new(env!("CARGO"));
    command
        .current_dir(root())
        .args(["build", "--example", "mcp_server", "--features"])
        .arg(features.join(","))
        .arg("--message-format=json-render-diagnostics")
        .stderr(Stdio::inherit());
    if !cfg!(debug_assertions) {
        command.arg("--release");
    }
    let output = command.output().expect("cargo starts");
    assert!(output.status.success(), "building the example failed");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["target"]["name"] == "mcp_server")
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .expect("cargo reports the example's executable")
}

/// Runs the Python driver against `server` and parses its transcript.
fn run_client(python: &str, server: &Path, tool_failure_meta: bool) -> Value {
    let mut command = Command::new(python);
    command.arg(driver()).arg(server);
    if tool_failure_meta {
        command.arg("--sep-3313");
    }
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the driver starts");
    let pid = child.id();
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let Ok(output) = finished.recv_timeout(SESSION_TIMEOUT) else {
        // The server exits on its own once the driver's pipes close.
        let _ = Command::new("kill").arg(pid.to_string()).status();
        panic!("the MCP session did not finish within {SESSION_TIMEOUT:?}");
    };
    let output = output.expect("the driver runs");
    assert!(
        output.status.success(),
        "the MCP client failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut transcript: Value =
        serde_json::from_slice(&output.stdout).expect("the driver prints JSON");
    // Which session this is, for the checks of `_meta`.
    transcript["sep_3313"] = json!(tool_failure_meta);
    transcript
}

/// Whether the session's server was started with `--sep-3313`.
fn with_tool_failure_meta(transcript: &Value) -> bool {
    transcript["sep_3313"] == true
}

fn call<'a>(transcript: &'a Value, id: &str) -> &'a Value {
    transcript["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .find(|call| call["id"] == id)
        .unwrap_or_else(|| panic!("no call {id} in the transcript"))
}

fn result<'a>(transcript: &'a Value, id: &str) -> &'a Value {
    let call = call(transcript, id);
    assert!(
        call.get("protocol_error").is_none(),
        "{id} got a protocol error: {call}"
    );
    &call["result"]
}

/// The envelope of an error result, parsed from its JSON text block (the
/// first; the second is the text a model reads).
fn envelope_of(result: &Value) -> Value {
    assert_eq!(result["isError"], json!(true), "not an error: {result}");
    let blocks = result["content"].as_array().expect("content");
    assert_eq!(blocks.len(), 2, "{result}");
    serde_json::from_str(blocks[0]["text"].as_str().expect("error text")).expect("envelope JSON")
}

fn tool<'a>(transcript: &'a Value, name: &str) -> &'a Value {
    find_tool(transcript, name).unwrap_or_else(|| panic!("no tool {name}"))
}

fn find_tool<'a>(transcript: &'a Value, name: &str) -> Option<&'a Value> {
    transcript["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|tool| tool["name"] == name)
}

/// Whether `id` has the shape of an id the server generated for a request
/// without one: `"<8 hex>-<n>-req-<JSON-RPC id>"`.
fn is_generated_id(id: &str) -> bool {
    let Some((head, request)) = id.split_once("-req-") else {
        return false;
    };
    let Some((process, n)) = head.split_once('-') else {
        return false;
    };
    process.len() == 8
        && process
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
        && !request.is_empty()
        && request.bytes().all(|b| b.is_ascii_digit())
}

/// The envelope text `template` of call `id`, its `@ID` replaced by the
/// correlation id the server generated for the call (checked: the shape
/// of a generated id; `check_correlation_ids` checks they are distinct).
fn with_generated_id(transcript: &Value, id: &str, template: &str) -> String {
    let envelope = envelope_of(result(transcript, id));
    let correlation_id = envelope["correlation_id"]
        .as_str()
        .unwrap_or_else(|| panic!("{id} has no correlation id: {envelope}"));
    assert!(
        is_generated_id(correlation_id),
        "{id}: {correlation_id:?} is not a generated id"
    );
    assert!(template.contains(r#""correlation_id":"@ID""#), "{template}");
    template.replace("@ID", correlation_id)
}

/// SEP-3313's class of each error class these tools answer with, as the
/// draft lists them (capability: the call itself was wrong; reliability:
/// the server or its backend failed).
fn tool_failure_class(error_class: &str) -> &'static str {
    match error_class {
        "OBJECT_NOT_FOUND" | "INVALID_ARGUMENTS" => "capability",
        "BUSY" | "TRANSIENT" => "reliability",
        other => panic!("no error of class {other} is expected here"),
    }
}

/// The `_meta` object an error result of `call` carries when the server
/// runs with `--sep-3313` (none otherwise), from its envelope; `retryNotBefore` is checked to be
/// the call's time plus `retry_after_ms` (within the window the client
/// measured around the call) and then taken as sent.
fn tool_failure_meta(transcript: &Value, call: &Value, envelope: &Value) -> Option<Value> {
    if !with_tool_failure_meta(transcript) {
        return None;
    }
    let class = tool_failure_class(envelope["error_class"].as_str().expect("error_class"));
    let mut failure = json!({
        "class": class,
        "code": envelope.get("code").unwrap_or(&envelope["error_class"]),
        "correlationId": envelope["correlation_id"],
    });
    if class == "reliability" {
        failure["retryable"] = json!(envelope["retryable"] == true);
    }
    if let Some(step) = envelope["next_steps"].get(0) {
        failure["agentGuidance"] = step.clone();
    }
    if let Some(wait) = envelope["retry_after_ms"].as_u64() {
        let sent =
            &call["result"]["_meta"]["io.modelcontextprotocol/toolFailure"]["retryNotBefore"];
        let at = sent
            .as_u64()
            .unwrap_or_else(|| panic!("{}: no retryNotBefore: {sent}", call["id"]));
        let started = call["started_ms"].as_u64().expect("started_ms");
        let finished = call["finished_ms"].as_u64().expect("finished_ms");
        assert!(
            started + wait <= at && at <= finished + wait,
            "{}: retryNotBefore {at} is not within [{}, {}]",
            call["id"],
            started + wait,
            finished + wait
        );
        failure["retryNotBefore"] = json!(at);
    }
    Some(json!({"io.modelcontextprotocol/toolFailure": failure}))
}

/// The whole error result of call `id` with the envelope `text`: the
/// envelope as JSON text, with `structured` also as `structuredContent`
/// (tools without an `outputSchema`), and the `_meta` of
/// [`tool_failure_meta`].
fn error_result(transcript: &Value, id: &str, text: &str, structured: bool) -> Value {
    let envelope: Value = serde_json::from_str(text).expect("envelope JSON");
    // The JSON, then the lead a model reads: the second line of the tool
    // result's content (pinned by the wire tests).
    let read: envelope::ErrorEnvelope = serde_json::from_str(text).expect("an envelope");
    let content = envelope::Envelope::to_tool_result(&read, "call").content;
    let (_, lead) = content.split_once('\n').expect("the JSON, then the lead");
    let mut expected = json!({
        "content": [{"type": "text", "text": text}, {"type": "text", "text": lead}],
        "isError": true,
        "resultType": "complete",
    });
    if structured {
        expected["structuredContent"] = envelope.clone();
    }
    if let Some(meta) = tool_failure_meta(transcript, call(transcript, id), &envelope) {
        expected["_meta"] = meta;
    }
    expected
}

/// A tool error as a tool whose `outputSchema` is declared must send it:
/// the envelope as JSON text, no structured content.
fn text_only_error(transcript: &Value, id: &str, text: &str) -> Value {
    error_result(transcript, id, text, false)
}

/// A tool error of a tool without `outputSchema`: the envelope as text and
/// as structured content.
fn structured_error(transcript: &Value, id: &str, text: &str) -> Value {
    error_result(transcript, id, text, true)
}

fn text_success(text: &str) -> Value {
    json!({
        "content": [{"type": "text", "text": text}],
        "isError": false,
        "resultType": "complete",
    })
}

/// The first next step of a failed call that may have taken effect.
const CHECK_FIRST: &str = "the call may have taken effect: check its result before repeating it";

/// The trace id of the `traceparent` that `calls.json` sends with
/// `rows_busy_traced`.
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";

/// The `correlationId` that `calls.json` sends with
/// `column_missing_correlated`.
const CLIENT_CORRELATION_ID: &str = "agent-run-7/step-3";

#[test]
#[ignore = "needs Python with mcp==2.3.0: python3 -m pip install mcp==2.3.0, then cargo test -p envelope-test-suite --all-features --test mcp_e2e -- --ignored (.ci/run does this)"]
fn python_sdk_client_drives_the_example_server() {
    let python = std::env::var(PYTHON_VAR).unwrap_or_else(|_| "python3".to_owned());
    if let Err(reason) = client_version(&python) {
        panic!(
            "mcp_e2e cannot run: {reason}; install the client with \
             `python3 -m pip install mcp=={PINNED_CLIENT}` or point {PYTHON_VAR} at a python that has it"
        );
    }
    let server = server_binary();
    for tool_failure_meta in [false, true] {
        let transcript = run_client(&python, &server, tool_failure_meta);
        check_session(&transcript);
    }
}

/// Every check of one session's transcript.
fn check_session(transcript: &Value) {
    assert_eq!(transcript["client"]["mcp"], PINNED_CLIENT);
    check_initialize(transcript);
    check_tool_listing(transcript);
    check_tools_with_output_schema(transcript);
    check_tools_without_output_schema(transcript);
    check_malformed_arguments(transcript);
    check_read_and_write_of_a_locked_table(transcript);
    check_unknown_tools(transcript);
    check_correlation_ids(transcript);
    check_tool_failure_meta(transcript);
    check_recovery(transcript);
    check_output_schemas_like_the_inspector(transcript);
    check_envelope_schema(transcript);
    check_operator_log(transcript);
    check_failure_contracts(transcript);
}

/// Every tool that can fail declares its failures in `tools/list`
/// (`_meta.failures`), and every failure a call got is one its tool
/// declared.
fn check_failure_contracts(transcript: &Value) {
    assert_eq!(
        tool(transcript, "describe_table")["_meta"]["failures"],
        json!([
            {"class": "INVALID_ARGUMENTS", "owner": "caller", "retryable": false, "effect": "nothing"},
            {"class": "CANCELLED", "code": "CANCELLED", "owner": "caller", "retryable": false, "effect": "unknown"},
            {"class": "OBJECT_NOT_FOUND", "code": "TABLE_NOT_FOUND", "owner": "caller", "retryable": false, "effect": "nothing"},
            {"class": "OBJECT_NOT_FOUND", "code": "COLUMN_NOT_FOUND", "owner": "caller", "retryable": false, "effect": "nothing"},
            {"class": "BUSY", "code": "STATS_REFRESHING", "owner": "server", "retryable": true, "effect": "nothing"},
            {"class": "TRANSIENT", "code": "TABLE_LOCKED", "owner": "server", "retryable": false, "effect": "unknown"},
        ])
    );
    assert_eq!(tool(transcript, "list_tables").get("_meta"), None);
    let mut checked = 0;
    for (call, envelope) in errors(transcript) {
        let name = call["name"].as_str().expect("the called tool");
        // An unknown tool has no listing, so no contract.
        let Some(listed) = find_tool(transcript, name) else {
            continue;
        };
        let declared = envelope::host::read_failures(listed)
            .unwrap_or_else(|| panic!("{name} declares no failures"));
        let class: envelope::ErrorClass =
            serde_json::from_value(envelope["error_class"].clone()).expect("a class");
        let code = envelope["code"].as_str();
        assert!(
            declared.iter().any(|failure| failure.matches(class, code)),
            "{name} returned {class} {code:?}, which its contract does not declare: {declared:?}"
        );
        checked += 1;
    }
    assert!(checked >= 5, "{checked} failures checked");
}

/// The error results of the transcript, in call order: `(call, envelope)`.
fn errors(transcript: &Value) -> Vec<(&Value, Value)> {
    transcript["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .filter(|call| call["result"]["isError"] == true)
        .map(|call| (call, envelope_of(&call["result"])))
        .collect()
}

/// Whether `line` has `id` as a whole token (not as part of a longer id).
fn has_token(line: &str, id: &str) -> bool {
    line.split(['"', ' ', '{', '}', '=', ',', ':', '[', ']'])
        .any(|token| token == id)
}

/// Every tool error reached the operator's log exactly once, on the
/// server's stderr: one line carries the correlation id the model saw in
/// its envelope (no other line names it), inside the call's `tool_call`
/// span with the tool's name, with the envelope's class, effect and
/// retryable.
fn check_operator_log(transcript: &Value) {
    let log: Vec<&str> = transcript["server_log"]
        .as_array()
        .expect("the transcript has the server's log")
        .iter()
        .map(|line| line.as_str().expect("log lines are text"))
        .collect();
    let errors = errors(transcript);
    for (call, envelope) in &errors {
        let id = envelope["correlation_id"]
            .as_str()
            .unwrap_or_else(|| panic!("{} has no correlation id: {envelope}", call["id"]));
        let lines: Vec<&&str> = log.iter().filter(|line| has_token(line, id)).collect();
        assert_eq!(lines.len(), 1, "log lines naming {id}: {log:#?}");
        let line = lines[0];
        assert_eq!(
            line.matches(&format!("envelope.correlation_id=\"{id}\""))
                .count(),
            1,
            "{line}"
        );
        assert!(line.contains("tool call failed"), "{line}");
        assert!(
            line.contains(&format!(
                "tool_call{{tool=\"{}\" ",
                call["name"].as_str().unwrap()
            )),
            "{line}"
        );
        let class = envelope["error_class"].as_str().unwrap();
        assert!(
            line.contains(&format!("envelope.error_class=\"{class}\"")),
            "{line}"
        );
        let effect = envelope["effect"].as_str().unwrap_or("nothing");
        assert!(
            line.contains(&format!("envelope.effect=\"{effect}\"")),
            "{line}"
        );
        let retryable = envelope["retryable"] == true;
        assert!(
            line.contains(&format!("envelope.retryable={retryable}")),
            "{line}"
        );
    }
    assert_eq!(
        log.iter()
            .filter(|line| line.contains("tool call failed"))
            .count(),
        errors.len(),
        "one log line per tool error: {log:#?}"
    );
    // The two answers to the locked table, side by side in the log too.
    let line_of = |id: &str| {
        let envelope = envelope_of(result(transcript, id));
        let id = envelope["correlation_id"].as_str().unwrap().to_owned();
        *log.iter().find(|line| has_token(line, &id)).unwrap()
    };
    assert!(
        line_of("describe_locked").contains(r#"envelope.effect="nothing" envelope.retryable=true"#)
    );
    assert!(
        line_of("annotate_locked")
            .contains(r#"envelope.effect="unknown" envelope.retryable=false"#)
    );
}

/// Generated ids have the generated shape, share this server's process
/// prefix, count up in call order and are all distinct; ids the client
/// sent come back exactly.
fn check_correlation_ids(transcript: &Value) {
    let mut generated = Vec::new();
    for (call, envelope) in errors(transcript) {
        let id = envelope["correlation_id"].as_str().expect("correlation_id");
        match call["id"].as_str().unwrap() {
            "rows_busy_traced" => assert_eq!(id, TRACE_ID),
            "column_missing_correlated" => assert_eq!(id, CLIENT_CORRELATION_ID),
            other => {
                assert!(is_generated_id(id), "{other}: {id:?}");
                generated.push(id.to_owned());
            }
        }
    }
    assert_eq!(generated.len(), 15);
    let prefix = generated[0].split_once('-').unwrap().0;
    assert!(
        generated
            .iter()
            .all(|id| id.starts_with(&format!("{prefix}-")))
    );
    let numbers = |part: fn(&str) -> &str| -> Vec<u64> {
        generated
            .iter()
            .map(|id| part(id).parse().expect("a number"))
            .collect()
    };
    for numbers in [
        numbers(|id| id.split('-').nth(1).unwrap()),
        numbers(|id| id.rsplit_once("-req-").unwrap().1),
    ] {
        assert!(
            numbers.windows(2).all(|pair| pair[0] < pair[1]),
            "ids count up in call order: {generated:?}"
        );
    }
}

/// With `--sep-3313`, the tool-failure `_meta` of the four kinds of failure
/// exactly (besides `error_result`'s check of every error result against
/// its envelope); without it, no result carries `_meta`.
fn check_tool_failure_meta(transcript: &Value) {
    let meta = |id: &str| result(transcript, id).get("_meta").cloned();
    if !with_tool_failure_meta(transcript) {
        for call in transcript["calls"].as_array().expect("calls") {
            assert_eq!(call["result"].get("_meta"), None, "{}", call["id"]);
        }
        return;
    }
    let id = |call: &str| envelope_of(result(transcript, call))["correlation_id"].clone();
    assert_eq!(
        meta("describe_locked"),
        Some(json!({"io.modelcontextprotocol/toolFailure": {
            "class": "reliability",
            "code": "TABLE_LOCKED",
            "retryable": true,
            "correlationId": id("describe_locked"),
            "agentGuidance": "wait a few seconds for the migration to end, then call again",
        }}))
    );
    assert_eq!(
        meta("annotate_locked"),
        Some(json!({"io.modelcontextprotocol/toolFailure": {
            "class": "reliability",
            "code": "TABLE_LOCKED",
            "retryable": false,
            "correlationId": id("annotate_locked"),
            "agentGuidance": CHECK_FIRST,
        }}))
    );
    assert_eq!(
        meta("unknown_near_miss"),
        Some(json!({"io.modelcontextprotocol/toolFailure": {
            "class": "capability",
            "code": "UNKNOWN_TOOL",
            "correlationId": id("unknown_near_miss"),
            "agentGuidance": "if a tool in fuzzy_matches is the one meant, call it with the same arguments; otherwise list the tools with tools/list",
        }}))
    );
    // A retry hint: `retryNotBefore` is the call's time plus 1500 ms.
    let traced = call(transcript, "rows_busy_traced");
    let mut busy = meta("rows_busy_traced").expect("_meta");
    let failure = &mut busy["io.modelcontextprotocol/toolFailure"];
    let at = failure["retryNotBefore"].as_u64().expect("retryNotBefore");
    let started = traced["started_ms"].as_u64().unwrap();
    let finished = traced["finished_ms"].as_u64().unwrap();
    assert!(
        started + 1500 <= at && at <= finished + 1500,
        "{at} not in [{started} + 1500, {finished} + 1500]"
    );
    failure.as_object_mut().unwrap().remove("retryNotBefore");
    assert_eq!(
        busy,
        json!({"io.modelcontextprotocol/toolFailure": {
            "class": "reliability",
            "code": "STATS_REFRESHING",
            "retryable": true,
            "correlationId": TRACE_ID,
            "agentGuidance": "wait retry_after_ms milliseconds, then repeat the same call",
        }})
    );
}

fn check_initialize(transcript: &Value) {
    let init = &transcript["initialize"];
    assert_eq!(
        init["serverInfo"],
        json!({"name": "envelope-schema-catalog", "version": env!("CARGO_PKG_VERSION")})
    );
    assert_eq!(init["capabilities"]["tools"], json!({}));
    // The instructions list the error catalog as a Markdown table.
    let table = envelope::catalog_markdown(catalog_error::CatalogError::catalog());
    assert_eq!(
        init["instructions"],
        format!(
            "A schema catalog: four read-only tools, and annotate_table, which appends a note. \
             Tool errors are JSON envelopes. Malformed arguments get INVALID_ARGUMENTS, whose \
             argument_errors list every problem (path, kind, expected, suggestions); an unknown \
             tool gets UNKNOWN_TOOL, with the near-miss names in fuzzy_matches; the other errors \
             the tools return are these:\n\n{table}"
        )
    );
}

fn check_tool_listing(transcript: &Value) {
    let mut names: Vec<&str> = transcript["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|tool| tool["name"].as_str().expect("name"))
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "annotate_table",
            "describe_table",
            "find_column",
            "list_tables",
            "row_count"
        ]
    );
    for name in ["list_tables", "describe_table"] {
        assert!(
            tool(transcript, name).get("outputSchema").is_some(),
            "{name}"
        );
    }
    for name in ["find_column", "row_count", "annotate_table"] {
        assert!(
            tool(transcript, name).get("outputSchema").is_none(),
            "{name}"
        );
    }
    // The annotations `CallContext` reads, as the client sees them.
    for name in ["list_tables", "describe_table", "find_column", "row_count"] {
        assert_eq!(
            tool(transcript, name)["annotations"],
            json!({"readOnlyHint": true}),
            "{name}"
        );
    }
    assert_eq!(
        tool(transcript, "annotate_table")["annotations"],
        json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false})
    );
    assert_eq!(
        tool(transcript, "annotate_table")["inputSchema"]["required"],
        json!(["table", "note"])
    );
    // `Parameters<Args<ColumnArgs>>` publishes `ColumnArgs`'s schema.
    let input = &tool(transcript, "find_column")["inputSchema"];
    assert_eq!(input["required"], json!(["table", "column"]));
    assert_eq!(input["additionalProperties"], json!(false));
    let properties: Vec<&str> = input["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(properties, ["case", "column", "table"]);
    assert_eq!(input["properties"]["case"]["$ref"], "#/$defs/Case");
    let cases: Vec<&Value> = input["$defs"]["Case"]["oneOf"]
        .as_array()
        .expect("Case is a oneOf of documented values")
        .iter()
        .map(|case| &case["const"])
        .collect();
    assert_eq!(cases, ["exact", "insensitive"]);
    assert_eq!(
        tool(transcript, "describe_table")["outputSchema"]["required"],
        json!(["table", "columns"])
    );
}

fn check_tools_with_output_schema(transcript: &Value) {
    let tables = json!({"tables": ["EMPLOYEES", "DEPARTMENTS", "LOCATIONS", "JOB_HISTORY"]});
    assert_eq!(
        result(transcript, "list_tables"),
        &json!({
            "content": [{"type": "text", "text": tables.to_string()}],
            "isError": false,
            "resultType": "complete",
            "structuredContent": tables,
        })
    );
    assert_eq!(
        result(transcript, "describe_ok")["structuredContent"],
        json!({
            "table": "LOCATIONS",
            "columns": [
                {"name": "LOCATION_ID", "type": "NUMBER(4)"},
                {"name": "CITY", "type": "VARCHAR2(30)"},
            ],
        })
    );
    // `Result<Json<TableInfo>, ErrorEnvelope>`: the envelope is the text,
    // and stays out of `structuredContent`.
    let text = with_generated_id(
        transcript,
        "describe_missing",
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table EMPLOYES does not exist","suggested_tool":"list_tables","fuzzy_matches":["EMPLOYEES"],"next_steps":["pick a table from fuzzy_matches, or call list_tables"],"code":"TABLE_NOT_FOUND","category":"NotFound","correlation_id":"@ID","details":{"corrected_arguments":{"table":"EMPLOYEES"},"table":"EMPLOYES"}}"#,
    );
    assert_eq!(
        result(transcript, "describe_missing"),
        &text_only_error(transcript, "describe_missing", &text)
    );
}

fn check_tools_without_output_schema(transcript: &Value) {
    assert_eq!(
        result(transcript, "column_ok"),
        &text_success("EMPLOYEES.HIRE_DATE: DATE")
    );
    let text = with_generated_id(
        transcript,
        "column_missing",
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table EMPLOYEES has no column HIRED_DATE","suggested_tool":"describe_table","fuzzy_matches":["HIRE_DATE","FIRST_NAME"],"next_steps":["pick a column from fuzzy_matches, or call describe_table on EMPLOYEES"],"code":"COLUMN_NOT_FOUND","category":"NotFound","correlation_id":"@ID","details":{"column":"HIRED_DATE","table":"EMPLOYEES"}}"#,
    );
    let missing = result(transcript, "column_missing");
    assert_eq!(
        missing,
        &structured_error(transcript, "column_missing", &text)
    );
    assert_eq!(missing["isError"], json!(true));
    assert_eq!(
        missing["structuredContent"]["error_class"],
        "OBJECT_NOT_FOUND"
    );
    assert_eq!(
        missing["structuredContent"]["fuzzy_matches"],
        json!(["HIRE_DATE", "FIRST_NAME"])
    );
    assert_eq!(
        missing["structuredContent"]["suggested_tool"],
        "describe_table"
    );

    let text = with_generated_id(
        transcript,
        "column_table_missing",
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table DEPARTMENT does not exist","suggested_tool":"list_tables","fuzzy_matches":["DEPARTMENTS"],"next_steps":["pick a table from fuzzy_matches, or call list_tables"],"code":"TABLE_NOT_FOUND","category":"NotFound","correlation_id":"@ID","details":{"corrected_arguments":{"column":"DEPARTMENT_ID","table":"DEPARTMENTS"},"table":"DEPARTMENT"}}"#,
    );
    assert_eq!(
        result(transcript, "column_table_missing"),
        &structured_error(transcript, "column_table_missing", &text)
    );

    let text = with_generated_id(
        transcript,
        "rows_busy",
        r#"{"isError":true,"error_class":"BUSY","message":"statistics of EMPLOYEES are being refreshed","next_steps":["wait retry_after_ms milliseconds, then repeat the same call"],"retry_after_ms":1500,"code":"STATS_REFRESHING","category":"Technical","retryable":true,"correlation_id":"@ID","details":{"table":"EMPLOYEES"}}"#,
    );
    let busy = result(transcript, "rows_busy");
    assert_eq!(busy, &structured_error(transcript, "rows_busy", &text));
    assert_eq!(busy["structuredContent"]["error_class"], "BUSY");
    assert_eq!(busy["structuredContent"]["retry_after_ms"], json!(1500));
    assert_eq!(busy["structuredContent"]["retryable"], json!(true));

    // The same failure for a client that sent a W3C `traceparent`: its
    // trace id is the envelope's correlation id, exactly.
    assert_eq!(
        result(transcript, "rows_busy_traced"),
        &structured_error(
            transcript,
            "rows_busy_traced",
            r#"{"isError":true,"error_class":"BUSY","message":"statistics of EMPLOYEES are being refreshed","next_steps":["wait retry_after_ms milliseconds, then repeat the same call"],"retry_after_ms":1500,"code":"STATS_REFRESHING","category":"Technical","retryable":true,"correlation_id":"4bf92f3577b34da6a3ce929d0e0e4736","details":{"table":"EMPLOYEES"}}"#
        )
    );
    // And one that sent `_meta.correlationId`.
    assert_eq!(
        result(transcript, "column_missing_correlated"),
        &structured_error(
            transcript,
            "column_missing_correlated",
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table LOCATIONS has no column CITIES","suggested_tool":"describe_table","fuzzy_matches":["CITY"],"next_steps":["pick a column from fuzzy_matches, or call describe_table on LOCATIONS"],"code":"COLUMN_NOT_FOUND","category":"NotFound","correlation_id":"agent-run-7/step-3","details":{"column":"CITIES","table":"LOCATIONS"}}"#
        )
    );

    assert_eq!(
        result(transcript, "rows_ok"),
        &text_success("DEPARTMENTS: 27 rows")
    );
}

/// One transient failure, `TABLE_LOCKED` on `JOB_HISTORY`, answered by a
/// read-only tool and by a write that is neither read-only nor idempotent:
/// the read may simply be repeated, the write must be checked first.
fn check_read_and_write_of_a_locked_table(transcript: &Value) {
    let text = with_generated_id(
        transcript,
        "describe_locked",
        r#"{"isError":true,"error_class":"TRANSIENT","message":"table JOB_HISTORY is locked by a running migration","next_steps":["wait a few seconds for the migration to end, then call again"],"code":"TABLE_LOCKED","category":"Technical","retryable":true,"correlation_id":"@ID","details":{"table":"JOB_HISTORY"}}"#,
    );
    assert_eq!(
        result(transcript, "describe_locked"),
        &text_only_error(transcript, "describe_locked", &text)
    );
    let read = envelope_of(result(transcript, "describe_locked"));
    assert_eq!(read["retryable"], json!(true));
    assert_eq!(read.get("effect"), None, "effect nothing is left out");
    assert!(
        !read["next_steps"]
            .as_array()
            .unwrap()
            .contains(&json!(CHECK_FIRST))
    );

    let text = with_generated_id(
        transcript,
        "annotate_locked",
        r#"{"isError":true,"error_class":"TRANSIENT","message":"table JOB_HISTORY is locked by a running migration","next_steps":["the call may have taken effect: check its result before repeating it","wait a few seconds for the migration to end, then call again"],"code":"TABLE_LOCKED","category":"Technical","effect":"unknown","correlation_id":"@ID","details":{"table":"JOB_HISTORY"}}"#,
    );
    assert_eq!(
        result(transcript, "annotate_locked"),
        &text_only_error(transcript, "annotate_locked", &text)
    );
    let write = envelope_of(result(transcript, "annotate_locked"));
    assert_eq!(write.get("retryable"), None, "retryable false is left out");
    assert_eq!(write["effect"], "unknown");
    assert_eq!(write["next_steps"][0], CHECK_FIRST);

    // Why: the write is not idempotent, each call adds a note.
    assert_eq!(
        result(transcript, "annotate_ok"),
        &text_success("DEPARTMENTS: 1 note")
    );
    assert_eq!(
        result(transcript, "annotate_again"),
        &text_success("DEPARTMENTS: 2 notes")
    );
}

/// The `INVALID_ARGUMENTS` envelope text of call `id` with `message` and
/// the JSON of `argument_errors` (as the library writes them, in key
/// order), and the call's generated correlation id.
/// [`invalid_arguments`] with the corrected arguments the server computed.
fn corrected_arguments(
    transcript: &Value,
    id: &str,
    message: &str,
    argument_errors: &str,
    corrected: &str,
) -> String {
    invalid_arguments(transcript, id, message, argument_errors).replace(
        r#","argument_errors":"#,
        &format!(r#","details":{{"corrected_arguments":{corrected}}},"argument_errors":"#),
    )
}

fn invalid_arguments(transcript: &Value, id: &str, message: &str, argument_errors: &str) -> String {
    let template = format!(
        r#"{{"isError":true,"error_class":"INVALID_ARGUMENTS","message":{},"next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"category":"Validation","correlation_id":"@ID","argument_errors":{argument_errors}}}"#,
        Value::from(message)
    );
    with_generated_id(transcript, id, &template)
}

/// Arguments through `Parameters<Args<T>>`: missing, wrong-typed,
/// misspelled and unknown keys, a wrong enum value, each located by a JSON
/// Pointer with near misses from the tool's own argument names, every
/// problem of a call at once.
fn check_malformed_arguments(transcript: &Value) {
    // On a tool with an `outputSchema`: text only.
    assert_eq!(
        result(transcript, "describe_no_table"),
        &text_only_error(
            transcript,
            "describe_no_table",
            &invalid_arguments(
                transcript,
                "describe_no_table",
                "1 problem in the arguments: /table is missing",
                r#"[{"path":"/table","kind":"missing"}]"#
            )
        )
    );
    assert_eq!(
        result(transcript, "describe_wrong_type"),
        &text_only_error(
            transcript,
            "describe_wrong_type",
            &invalid_arguments(
                transcript,
                "describe_wrong_type",
                "1 problem in the arguments: /table must be a string, got an array",
                r#"[{"path":"/table","kind":"wrong_type","expected":"a string","received":"array"}]"#
            )
        )
    );
    // On tools without one: structured too.
    let wrong_type = result(transcript, "column_wrong_type");
    assert_eq!(
        wrong_type,
        &structured_error(
            transcript,
            "column_wrong_type",
            &invalid_arguments(
                transcript,
                "column_wrong_type",
                "1 problem in the arguments: /column must be a string, got an integer",
                r#"[{"path":"/column","kind":"wrong_type","expected":"a string","received":"integer"}]"#
            )
        )
    );
    assert_eq!(
        wrong_type["structuredContent"]["argument_errors"][0]["path"],
        "/column"
    );
    assert_eq!(
        result(transcript, "rows_extra_argument"),
        &structured_error(
            transcript,
            "rows_extra_argument",
            &invalid_arguments(
                transcript,
                "rows_extra_argument",
                "1 problem in the arguments: /limit is not a known field",
                r#"[{"path":"/limit","kind":"unknown_field","received":"integer"}]"#
            )
        )
    );
    let misspelled = result(transcript, "column_misspelled_key");
    assert_eq!(
        misspelled,
        &structured_error(
            transcript,
            "column_misspelled_key",
            &corrected_arguments(
                transcript,
                "column_misspelled_key",
                r#"2 problems in the arguments: /column is missing; /colunm is not a known field (did you mean "column"?)"#,
                r#"[{"path":"/column","kind":"missing"},{"path":"/colunm","kind":"unknown_field","received":"string","suggestions":["column"]}]"#,
                r#"{"column":"HIRE_DATE","table":"EMPLOYEES"}"#
            )
        )
    );
    assert_eq!(
        misspelled["structuredContent"]["argument_errors"][1]["suggestions"],
        json!(["column"])
    );
    let wrong_enum = result(transcript, "column_wrong_enum");
    assert_eq!(
        wrong_enum,
        &structured_error(
            transcript,
            "column_wrong_enum",
            &corrected_arguments(
                transcript,
                "column_wrong_enum",
                r#"1 problem in the arguments: /case must be one of "exact", "insensitive" (did you mean "insensitive"?)"#,
                r#"[{"path":"/case","kind":"unknown_variant","expected":"one of \"exact\", \"insensitive\"","received":"string","suggestions":["insensitive"]}]"#,
                r#"{"case":"insensitive","column":"hire_date","table":"EMPLOYEES"}"#
            )
        )
    );
    // Two missing fields and one misspelled key: exactly three problems.
    let three = result(transcript, "column_three_problems");
    assert_eq!(
        three,
        &structured_error(
            transcript,
            "column_three_problems",
            &invalid_arguments(
                transcript,
                "column_three_problems",
                r#"3 problems in the arguments: /column is missing; /table is missing; /tabel is not a known field (did you mean "table" or "case"?)"#,
                r#"[{"path":"/column","kind":"missing"},{"path":"/table","kind":"missing"},{"path":"/tabel","kind":"unknown_field","received":"string","suggestions":["table","case"]}]"#
            )
        )
    );
    assert_eq!(
        three["structuredContent"]["argument_errors"]
            .as_array()
            .expect("argument_errors")
            .len(),
        3
    );
    // The enum argument works when spelled right.
    assert_eq!(
        result(transcript, "column_insensitive"),
        &text_success("EMPLOYEES.HIRE_DATE: DATE")
    );
}

/// A call of a tool the server does not have is a tool error, not
/// rmcp's protocol error: `OBJECT_NOT_FOUND`, code `UNKNOWN_TOOL`, with the
/// near-miss tool names for the model to pick from.
fn check_unknown_tools(transcript: &Value) {
    let text = with_generated_id(
        transcript,
        "unknown_near_miss",
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no tool is called \"describe_tabel\"","fuzzy_matches":["describe_table"],"next_steps":["if a tool in fuzzy_matches is the one meant, call it with the same arguments; otherwise list the tools with tools/list"],"code":"UNKNOWN_TOOL","category":"NotFound","correlation_id":"@ID"}"#,
    );
    assert_eq!(
        result(transcript, "unknown_near_miss"),
        &text_only_error(transcript, "unknown_near_miss", &text)
    );
    assert_eq!(
        envelope_of(result(transcript, "unknown_near_miss"))["fuzzy_matches"][0],
        "describe_table"
    );
    let text = with_generated_id(
        transcript,
        "unknown_tool",
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no tool is called \"drop_table\"","next_steps":["list the tools with tools/list and call one of them"],"code":"UNKNOWN_TOOL","category":"NotFound","correlation_id":"@ID"}"#,
    );
    assert_eq!(
        result(transcript, "unknown_tool"),
        &text_only_error(transcript, "unknown_tool", &text)
    );
}

/// Every call got an answer, a tool result (no protocol error at all), and
/// the server kept serving after all of the above.
fn check_recovery(transcript: &Value) {
    let calls = transcript["calls"].as_array().expect("calls");
    for call in calls {
        assert!(call.get("protocol_error").is_none(), "{call}");
        assert!(call.get("result").is_some(), "{call}");
    }
    assert_eq!(
        result(transcript, "still_serving"),
        &text_success("LOCATIONS: 23 rows")
    );
    let ids: Vec<&str> = calls
        .iter()
        .map(|call| call["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids.len(), 25);
    assert_eq!(ids.last(), Some(&"still_serving"));
}

/// What the MCP Inspector (2.12) does with a tool that declares an
/// `outputSchema`: every result's `structuredContent`, error results
/// included, must match it. A success must carry structured content.
fn check_output_schemas_like_the_inspector(transcript: &Value) {
    for call in transcript["calls"].as_array().expect("calls") {
        let Some(result) = call.get("result") else {
            continue;
        };
        // Unknown tools have no schema at all.
        let Some(schema) = find_tool(transcript, call["name"].as_str().expect("name"))
            .and_then(|tool| tool.get("outputSchema"))
        else {
            continue;
        };
        let validator = jsonschema::validator_for(schema).expect("a valid outputSchema");
        match result.get("structuredContent") {
            Some(content) => assert!(
                validator.is_valid(content),
                "{}: structuredContent does not match the outputSchema",
                call["id"]
            ),
            None => assert_eq!(
                result["isError"],
                json!(true),
                "{}: a success without structuredContent",
                call["id"]
            ),
        }
    }
    // Why errors of such tools keep the envelope out: it would not match.
    let envelope = envelope_of(result(transcript, "describe_missing"));
    let schema = &tool(transcript, "describe_table")["outputSchema"];
    assert!(!jsonschema::is_valid(schema, &envelope));
}

/// Every envelope the client received, as text or as structured content,
/// matches the `schemars` schema of `ErrorEnvelope`.
#[cfg(feature = "schemars")]
fn check_envelope_schema(transcript: &Value) {
    let schema = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<envelope::ErrorEnvelope>()
        .to_value();
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let mut checked = 0;
    for call in transcript["calls"].as_array().expect("calls") {
        let result = &call["result"];
        if result["isError"] != json!(true) {
            continue;
        }
        let text = envelope_of(result);
        assert!(validator.is_valid(&text), "{}", call["id"]);
        if let Some(content) = result.get("structuredContent") {
            assert!(validator.is_valid(content), "{}", call["id"]);
        }
        checked += 1;
    }
    assert_eq!(checked, 17);
}

#[cfg(not(feature = "schemars"))]
fn check_envelope_schema(_: &Value) {}
