//! An agent host with no LLM: a scripted model calls the `mcp_server`
//! example's tools through rmcp's client (the server runs in this process,
//! over an in-memory pipe). Every call goes through `envelope::host::call_tool`,
//! the retry loop: it repeats what is safe to repeat, within the run's
//! `Retries`, and hands the rest back with the move and the text for the
//! model, which the scripted model acts on:
//!
//! - `row_count` of `EMPLOYEES` (a read, busy with `retry_after_ms`): the
//!   loop repeats it after the hinted delay, three times, then gives up;
//! - `describe_table` with a misspelled key (`tabel`): the host renames it
//!   from `argument_errors`' suggestion and calls again;
//! - `describe_table` of `EMPLOYES`: the host picks the near miss;
//! - `annotate_table` of `JOB_HISTORY` (a write, locked, effect unknown):
//!   the server stores the failure under the call's idempotency key (the
//!   loop sends one: the tool declares keys), the loop repeats it once
//!   with the key, gets the stored failure back and reports;
//! - `annotate_table` of `DEPARTMENTS` (a write whose answer takes 2 s):
//!   the loop gives up on the attempt after 1 s (effect unknown) and, the
//!   call being keyed, repeats it with the same key until the server's
//!   stored answer comes back: one note, written once.
//!
//! Run: `cargo run -p envelope-test-suite --example agent_host --features
//! host`. `tests/agent_host.rs` checks the transcript.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

use envelope::CallBehaviour;
use envelope::NextMove;
use envelope::host;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, MetaObject, RequestMetaObject};
use serde_json::{Map, Value, json};

#[path = "mcp_server.rs"]
#[allow(dead_code)] // its `main`
mod mcp_server;

/// The scripted model's calls, in order: a tool and its arguments.
fn script() -> Vec<(&'static str, Value)> {
    vec![
        ("row_count", json!({"table": "EMPLOYEES"})),
        ("describe_table", json!({"tabel": "LOCATIONS"})),
        ("describe_table", json!({"table": "EMPLOYES"})),
        (
            "annotate_table",
            json!({"table": "JOB_HISTORY", "note": "archived in 2025"}),
        ),
        (
            "annotate_table",
            json!({"table": "DEPARTMENTS", "note": "reviewed"}),
        ),
    ]
}

/// Runs the script against the example server, writing the transcript.
///
/// # Errors
///
/// When the server cannot be started or listed, or `out` fails.
pub async fn run(out: &mut impl Write) -> Result<(), Box<dyn std::error::Error>> {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(async move {
        let running = mcp_server::CatalogServer::new(false)
            .serve(server_io)
            .await?;
        running.waiting().await?;
        Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
    });
    let client = ().serve(client_io).await?;

    // What the host knows about each tool: its declared annotations.
    let behaviours: BTreeMap<String, CallBehaviour> = client
        .list_all_tools()
        .await?
        .iter()
        .map(|tool| (tool.name.to_string(), host::behaviour_of(tool)))
        .collect();

    // One retry budget for the whole run: the policy's defaults, but no
    // attempt may take more than a second. Seeded, so the transcript's
    // jittered waits are the same on every run (a host seeds from the
    // system: `Retries::new`).
    let policy = host::RetryPolicy::default().with_call_timeout(Some(Duration::from_secs(1)));
    let mut retries = host::Retries::with_seed(policy, 7);
    let mut calls = 0;
    for (tool, arguments) in script() {
        let behaviour = behaviours.get(tool).copied().unwrap_or_default();
        let mut arguments = arguments.as_object().cloned().unwrap_or_default();
        loop {
            writeln!(out, "model: {tool} {}", Value::Object(arguments.clone()))?;
            // The host's own id for each call, which the server's answer
            // and log line carry (the loop's repeats send the same).
            calls += 1;
            let mut meta = Map::new();
            meta.insert(
                "correlationId".into(),
                Value::from(format!("host-call-{calls}")),
            );
            let mut params = CallToolRequestParams::new(tool).with_arguments(arguments.clone());
            params.meta = Some(RequestMetaObject(MetaObject(meta)));
            let (repeats, waited) = (retries.repeats(), retries.waited());
            let outcome = host::call_tool(&client, params, behaviour, &mut retries).await;
            if retries.repeats() > repeats {
                writeln!(
                    out,
                    "host: repeated it {} times, waiting {} ms in all",
                    retries.repeats() - repeats,
                    (retries.waited() - waited).as_millis()
                )?;
            }
            let failure = match outcome {
                Ok(result) => {
                    // A text answer is shown; a JSON one is the tool's data.
                    let text = result.content.first().and_then(|block| block.as_text());
                    match text.filter(|text| !text.text.starts_with('{')) {
                        Some(text) => writeln!(out, "host: {tool} succeeded: {}", text.text)?,
                        None => writeln!(out, "host: {tool} succeeded")?,
                    }
                    break;
                }
                Err(failure) => failure,
            };
            writeln!(out, "host: {}", failure.model_text)?;
            match failure.next {
                NextMove::FixArguments {
                    arguments: Some(Value::Object(corrected)),
                    ..
                } => arguments = corrected,
                NextMove::FixArguments { problems, .. } => {
                    if !fix(&mut arguments, &problems) {
                        writeln!(out, "host: the model cannot fix this; it moves on")?;
                        break;
                    }
                }
                NextMove::ChangeCall => {
                    writeln!(out, "host: the model cannot fix this; it moves on")?;
                    break;
                }
                NextMove::PickNearMiss { names } => {
                    // The scripted model meant the first near miss of the
                    // table it named.
                    arguments.insert("table".into(), Value::from(names[0].clone()));
                }
                NextMove::CallTool { tool, .. } => {
                    writeln!(out, "host: the model calls {tool} next")?;
                    break;
                }
                NextMove::AskUser => {
                    writeln!(out, "host: asks the user")?;
                    break;
                }
                NextMove::Postpone { .. } => {
                    writeln!(out, "host: the model tells the user to try later")?;
                    break;
                }
                NextMove::Stop | _ => {
                    writeln!(out, "host: stops and reports; the call is not repeated")?;
                    break;
                }
            }
        }
    }
    client.cancel().await?;
    let _ = server.await;
    Ok(())
}

/// What the scripted model does with argument problems: an unknown key
/// with a suggestion is renamed to it. Whether it changed anything.
fn fix(arguments: &mut Map<String, Value>, problems: &[envelope::ArgumentError]) -> bool {
    let mut fixed = false;
    for problem in problems {
        let key = problem.path.strip_prefix('/').unwrap_or(&problem.path);
        if problem.kind == envelope::ArgumentErrorKind::UnknownField
            && let Some(suggestion) = problem.suggestions.first()
            && let Some(value) = arguments.remove(key)
        {
            arguments.insert(suggestion.clone(), value);
            fixed = true;
        }
    }
    fixed
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    run(&mut std::io::stdout()).await
}
