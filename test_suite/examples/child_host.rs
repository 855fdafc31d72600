//! An agent host over a child process: spawn an MCP server on stdio, list
//! its tools, and call them through `envelope::host::call_tool`, the retry
//! loop over rmcp's client, printing what the model would read of each
//! failure.
//!
//! Run: `cargo build -p envelope-test-suite --features rmcp,jsonschema
//! --example mcp_server`, then `cargo run -p envelope-test-suite --features
//! host --example child_host -- target/debug/examples/mcp_server` (any
//! stdio MCP server's command works: `-- python3 server.py`).
//!
//! What it needs, in a host's own `Cargo.toml`: `agent-envelope` with the
//! features `host` and `rmcp` (which turns on rmcp's `client`), rmcp with
//! `transport-async-rw` (the child's pipes as the transport; rmcp's
//! `transport-child-process` and its `TokioChildProcess` do the same with
//! one more crate), and tokio with `process`, `rt` and `macros`.

use std::process::Stdio;

use envelope::host::{self, Retries, RetryPolicy};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::json;
use tokio::process::Command;

// guide: child host start
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let program = args.next().ok_or("give the server's command")?;
    // The server: a child whose stdin and stdout are the MCP stream; its
    // stderr (its log) goes to ours.
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let client = ().serve((stdout, stdin)).await?;

    // What each tool declares (annotations, idempotency keys) decides what
    // the loop may repeat.
    let tools = client.peer().list_all_tools().await?;
    let mut retries = Retries::new(RetryPolicy::default());
    for (name, arguments) in [
        ("describe_table", json!({"table": "EMPLOYES"})),
        ("describe_tabel", json!({"table": "EMPLOYEES"})),
        ("row_count", json!({"table": "EMPLOYEES"})),
    ] {
        let behaviour = tools
            .iter()
            .find(|tool| tool.name == name)
            .map(host::behaviour_of)
            .unwrap_or_default();
        let mut params = CallToolRequestParams::new(name);
        if let Some(arguments) = arguments.as_object() {
            params = params.with_arguments(arguments.clone());
        }
        match host::call_tool(client.peer(), params, behaviour, &mut retries).await {
            Ok(result) => println!("{name}: succeeded: {:?}", result.content.first()),
            Err(failure) => println!(
                "{name}: failed after {} attempt(s); the model reads:\n{}\n",
                failure.attempts, failure.model_text
            ),
        }
    }
    client.cancel().await?;
    Ok(())
}
// guide: child host end
