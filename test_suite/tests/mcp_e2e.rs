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
//! unknown tool answered with its near misses; and, with the `sep-3313`
//! feature, the `_meta` tool-failure object of every error result
//! (`retryNotBefore` within the call's time window), without it no `_meta`.
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
    // the example is the one `cargo test` built (and `sep-3313` on the test
    // means `sep-3313` on the server).
    let mut features = vec!["rmcp", "jsonschema"];
    for (on, feature) in [
        (cfg!(feature = "schemars"), "schemars"),
        (cfg!(feature = "tracing"), "tracing"),
        (cfg!(feature = "sep-3313"), "sep-3313"),
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
fn run_client(python: &str, server: &Path) -> Value {
    let child = Command::new(python)
        .arg(driver())
        .arg(server)
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
    serde_json::from_slice(&output.stdout).expect("the driver prints JSON")
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

fn tool<'a>(transcript: &'a Value, name: &str) -> &'a Value {
    transcript["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|tool| tool["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

/// A tool error as a tool whose `outputSchema` is declared must send it:
/// the envelope as JSON text, no structured content.
fn text_only_error(text: &str) -> Value {
    json!({
        "content": [{"type": "text", "text": text}],
        "isError": true,
        "resultType": "complete",
    })
}

/// A tool error of a tool without `outputSchema`: the envelope as text and
/// as structured content.
fn structured_error(text: &str) -> Value {
    let envelope: Value = serde_json::from_str(text).expect("envelope JSON");
    json!({
        "content": [{"type": "text", "text": text}],
        "isError": true,
        "resultType": "complete",
        "structuredContent": envelope,
    })
}

fn text_success(text: &str) -> Value {
    json!({
        "content": [{"type": "text", "text": text}],
        "isError": false,
        "resultType": "complete",
    })
}

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
    let transcript = run_client(&python, &server_binary());
    assert_eq!(transcript["client"]["mcp"], PINNED_CLIENT);
    check_initialize(&transcript);
    check_tool_listing(&transcript);
    check_tools_with_output_schema(&transcript);
    check_tools_without_output_schema(&transcript);
    check_malformed_arguments(&transcript);
    check_protocol_errors_and_recovery(&transcript);
    check_output_schemas_like_the_inspector(&transcript);
    check_envelope_schema(&transcript);
    check_operator_log(&transcript);
}

/// Every tool error reached the operator's log exactly once, on the
/// server's stderr, with the correlation id the model saw in its envelope
/// and the envelope's class.
fn check_operator_log(transcript: &Value) {
    let log: Vec<&str> = transcript["server_log"]
        .as_array()
        .expect("the transcript has the server's log")
        .iter()
        .map(|line| line.as_str().expect("log lines are text"))
        .collect();
    let mut ids = Vec::new();
    for call in transcript["calls"].as_array().expect("calls") {
        let result = &call["result"];
        if result["isError"] != true {
            continue;
        }
        let text = result["content"][0]["text"].as_str().expect("error text");
        let envelope: Value = serde_json::from_str(text).expect("envelope JSON");
        let id = envelope["correlation_id"]
            .as_str()
            .unwrap_or_else(|| panic!("{} has no correlation id: {text}", call["id"]));
        let needle = format!("error.correlation_id=\"{id}\"");
        let lines: Vec<&&str> = log.iter().filter(|line| line.contains(&needle)).collect();
        assert_eq!(lines.len(), 1, "log lines for {id}: {log:#?}");
        let class = format!(
            "error.class=\"{}\"",
            envelope["error_class"].as_str().unwrap()
        );
        assert!(lines[0].contains(&class), "{}", lines[0]);
        assert!(lines[0].contains("tool call failed"), "{}", lines[0]);
        ids.push(id.to_owned());
    }
    let expected: Vec<String> = (1..=ids.len()).map(|n| format!("call-{n}")).collect();
    assert_eq!(ids, expected, "ids in call order");
    assert_eq!(
        log.iter()
            .filter(|line| line.contains("tool call failed"))
            .count(),
        ids.len(),
        "one log line per tool error: {log:#?}"
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
            "A read-only schema catalog. Tool errors are JSON envelopes. Malformed arguments get \
             INVALID_ARGUMENTS, whose argument_errors list every problem (path, kind, expected, \
             suggestions); the other errors the tools return are these:\n\n{table}"
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
        ["describe_table", "find_column", "list_tables", "row_count"]
    );
    for name in ["list_tables", "describe_table"] {
        assert!(
            tool(transcript, name).get("outputSchema").is_some(),
            "{name}"
        );
    }
    for name in ["find_column", "row_count"] {
        assert!(
            tool(transcript, name).get("outputSchema").is_none(),
            "{name}"
        );
    }
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
    // `Result<Json<TableInfo>, CatalogError>` with no glue: the envelope is
    // the text, and stays out of `structuredContent`.
    assert_eq!(
        result(transcript, "describe_missing"),
        &text_only_error(
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table EMPLOYES does not exist","suggested_tool":"list_tables","fuzzy_matches":["EMPLOYEES"],"next_steps":["pick a table from fuzzy_matches, or call list_tables"],"code":"TABLE_NOT_FOUND","category":"NotFound","correlation_id":"call-1","details":{"table":"EMPLOYES"}}"#
        )
    );
}

fn check_tools_without_output_schema(transcript: &Value) {
    assert_eq!(
        result(transcript, "column_ok"),
        &text_success("EMPLOYEES.HIRE_DATE: DATE")
    );
    let missing = result(transcript, "column_missing");
    assert_eq!(
        missing,
        &structured_error(
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table EMPLOYEES has no column HIRED_DATE","suggested_tool":"describe_table","fuzzy_matches":["HIRE_DATE","FIRST_NAME"],"next_steps":["pick a column from fuzzy_matches, or call describe_table on EMPLOYEES"],"code":"COLUMN_NOT_FOUND","category":"NotFound","correlation_id":"call-3","details":{"column":"HIRED_DATE","table":"EMPLOYEES"}}"#
        )
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

    let table_missing = result(transcript, "column_table_missing");
    assert_eq!(
        table_missing,
        &structured_error(
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table DEPARTMENT does not exist","suggested_tool":"list_tables","fuzzy_matches":["DEPARTMENTS"],"next_steps":["pick a table from fuzzy_matches, or call list_tables"],"code":"TABLE_NOT_FOUND","category":"NotFound","correlation_id":"call-4","details":{"table":"DEPARTMENT"}}"#
        )
    );

    let busy = result(transcript, "rows_busy");
    assert_eq!(
        busy,
        &structured_error(
            r#"{"isError":true,"error_class":"BUSY","message":"statistics of EMPLOYEES are being refreshed","next_steps":["wait retry_after_ms milliseconds, then repeat the same call"],"retry_after_ms":1500,"code":"STATS_REFRESHING","category":"Technical","retryable":true,"correlation_id":"call-6","details":{"table":"EMPLOYEES"}}"#
        )
    );
    assert_eq!(busy["structuredContent"]["error_class"], "BUSY");
    assert_eq!(busy["structuredContent"]["retry_after_ms"], json!(1500));
    assert_eq!(busy["structuredContent"]["retryable"], json!(true));

    assert_eq!(
        result(transcript, "rows_ok"),
        &text_success("DEPARTMENTS: 27 rows")
    );
}

/// The `INVALID_ARGUMENTS` envelope text with `message` and the JSON of
/// `argument_errors` (as the library writes them, in key order).
fn invalid_arguments(id: &str, message: &str, argument_errors: &str) -> String {
    format!(
        r#"{{"isError":true,"error_class":"INVALID_ARGUMENTS","message":{},"next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"category":"Validation","correlation_id":"{id}","argument_errors":{argument_errors}}}"#,
        Value::from(message)
    )
}

/// Arguments through `Parameters<Args<T>>`: missing, wrong-typed,
/// misspelled and unknown keys, a wrong enum value, each located by a JSON
/// Pointer with near misses from the tool's own argument names, every
/// problem of a call at once.
fn check_malformed_arguments(transcript: &Value) {
    // On a tool with an `outputSchema`: text only.
    assert_eq!(
        result(transcript, "describe_no_table"),
        &text_only_error(&invalid_arguments(
            "call-2",
            "1 problem in the arguments: /table is missing",
            r#"[{"path":"/table","kind":"missing"}]"#
        ))
    );
    assert_eq!(
        result(transcript, "describe_wrong_type"),
        &text_only_error(&invalid_arguments(
            "call-11",
            "1 problem in the arguments: /table must be a string, got an array",
            r#"[{"path":"/table","kind":"wrong_type","expected":"a string","received":"array"}]"#
        ))
    );
    // On tools without one: structured too.
    let wrong_type = result(transcript, "column_wrong_type");
    assert_eq!(
        wrong_type,
        &structured_error(&invalid_arguments(
            "call-5",
            "1 problem in the arguments: /column must be a string, got an integer",
            r#"[{"path":"/column","kind":"wrong_type","expected":"a string","received":"integer"}]"#
        ))
    );
    assert_eq!(
        wrong_type["structuredContent"]["argument_errors"][0]["path"],
        "/column"
    );
    assert_eq!(
        result(transcript, "rows_extra_argument"),
        &structured_error(&invalid_arguments(
            "call-7",
            "1 problem in the arguments: /limit is not a known field",
            r#"[{"path":"/limit","kind":"unknown_field","received":"integer"}]"#
        ))
    );
    let misspelled = result(transcript, "column_misspelled_key");
    assert_eq!(
        misspelled,
        &structured_error(&invalid_arguments(
            "call-8",
            r#"2 problems in the arguments: /column is missing; /colunm is not a known field (did you mean "column"?)"#,
            r#"[{"path":"/column","kind":"missing"},{"path":"/colunm","kind":"unknown_field","received":"string","suggestions":["column"]}]"#
        ))
    );
    assert_eq!(
        misspelled["structuredContent"]["argument_errors"][1]["suggestions"],
        json!(["column"])
    );
    let wrong_enum = result(transcript, "column_wrong_enum");
    assert_eq!(
        wrong_enum,
        &structured_error(&invalid_arguments(
            "call-9",
            r#"1 problem in the arguments: /case must be one of "exact", "insensitive" (did you mean "insensitive"?)"#,
            r#"[{"path":"/case","kind":"unknown_variant","expected":"one of \"exact\", \"insensitive\"","received":"string","suggestions":["insensitive"]}]"#
        ))
    );
    // Two missing fields and one misspelled key: exactly three problems.
    let three = result(transcript, "column_three_problems");
    assert_eq!(
        three,
        &structured_error(&invalid_arguments(
            "call-10",
            r#"3 problems in the arguments: /column is missing; /table is missing; /tabel is not a known field (did you mean "table" or "case"?)"#,
            r#"[{"path":"/column","kind":"missing"},{"path":"/table","kind":"missing"},{"path":"/tabel","kind":"unknown_field","received":"string","suggestions":["table","case"]}]"#
        ))
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

fn check_protocol_errors_and_recovery(transcript: &Value) {
    // An unknown tool is a protocol error (JSON-RPC invalid params), as the
    // SDK answers it; no tool result.
    let unknown = call(transcript, "unknown_tool");
    assert_eq!(
        unknown["protocol_error"],
        json!({"code": -32602, "message": "tool not found"})
    );
    assert!(unknown.get("result").is_none());
    // Every call after all of the above still gets an answer.
    assert_eq!(
        result(transcript, "still_serving"),
        &text_success("LOCATIONS: 23 rows")
    );
    let ids: Vec<&str> = transcript["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .map(|call| call["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids.len(), 18);
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
        let Some(schema) =
            tool(transcript, call["name"].as_str().expect("name")).get("outputSchema")
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
    let envelope: Value = serde_json::from_str(
        result(transcript, "describe_missing")["content"][0]["text"]
            .as_str()
            .expect("text"),
    )
    .expect("envelope JSON");
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
        let text: Value =
            serde_json::from_str(result["content"][0]["text"].as_str().expect("text"))
                .expect("envelope JSON");
        assert!(validator.is_valid(&text), "{}", call["id"]);
        if let Some(content) = result.get("structuredContent") {
            assert!(validator.is_valid(content), "{}", call["id"]);
        }
        checked += 1;
    }
    assert_eq!(checked, 11);
}

#[cfg(not(feature = "schemars"))]
fn check_envelope_schema(_: &Value) {}
