//! `host::call_tool`, the retry loop over rmcp's client, against a server
//! of this file over an in-memory pipe, with a paused clock: what it
//! repeats, how long it waits, what it hands back, and that dropping it
//! stops it. Every server counts the calls it was sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use envelope::NextMove;
use envelope::host::{self, Retries, RetryPolicy};
use envelope::{CallBehaviour, Envelope, ErrorEnvelope};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, MetaObject, RequestMetaObject};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use tokio::time::Instant;

#[derive(Debug, thiserror::Error, Envelope)]
enum StockError {
    #[error("the stock table is being refreshed")]
    #[envelope(class = Busy, message = "the stock table is being refreshed")]
    Refreshing {
        #[envelope(retry_after_ms)]
        wait_ms: u64,
    },
}

#[derive(Deserialize, JsonSchema)]
struct Item {
    /// How many of the first calls fail as busy.
    busy_for: u32,
    /// The retry hint of those failures, in milliseconds.
    wait_ms: u64,
}

#[derive(Clone)]
struct Stock {
    tool_router: envelope::rmcp::Router<Self>,
    calls: Arc<AtomicU32>,
}

#[tool_router]
impl Stock {
    /// Busy for the first `busy_for` calls, then the count.
    #[tool(annotations(read_only_hint = true))]
    async fn count(&self, Parameters(item): Parameters<Item>) -> Result<String, ErrorEnvelope> {
        let call = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        if call <= item.busy_for {
            return Err(StockError::Refreshing {
                wait_ms: item.wait_ms,
            }
            .into());
        }
        Ok(String::from("42"))
    }

    /// Never answers within an hour (a read).
    #[tool(annotations(read_only_hint = true))]
    async fn slow_read(&self) -> String {
        self.calls.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(3600)).await;
        String::from("late")
    }

    /// Never answers within an hour (a write that declares nothing).
    #[tool]
    async fn slow_write(&self) -> String {
        self.calls.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(3600)).await;
        String::from("late")
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Stock {}

/// A client connected to a fresh server, and the server's call count.
async fn connect() -> (RunningService<RoleClient, ()>, Arc<AtomicU32>) {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    let calls = Arc::new(AtomicU32::new(0));
    let server = Stock {
        tool_router: Stock::tool_router().into(),
        calls: calls.clone(),
    };
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    let client = ().serve(client_io).await.expect("the client connects");
    (client, calls)
}

fn count(busy_for: u32, wait_ms: u64) -> CallToolRequestParams {
    CallToolRequestParams::new("count").with_arguments(
        serde_json::json!({"busy_for": busy_for, "wait_ms": wait_ms})
            .as_object()
            .cloned()
            .unwrap(),
    )
}

#[tokio::test(start_paused = true)]
async fn repeats_until_it_passes_waiting_each_hint() {
    let (client, calls) = connect().await;
    let mut retries = Retries::with_seed(RetryPolicy::default(), 1);
    let started = Instant::now();
    let result = host::call_tool(&client, count(2, 2000), CallBehaviour::READ, &mut retries)
        .await
        .expect("the third call passes");
    assert_eq!(result.is_error, Some(false));
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    assert_eq!(retries.repeats(), 2);
    assert_eq!(retries.waited(), Duration::from_secs(4));
    assert!(started.elapsed() >= Duration::from_secs(4));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test(start_paused = true)]
async fn gives_up_after_the_policys_repeats_with_the_text_for_the_model() {
    let (client, calls) = connect().await;
    let mut retries = Retries::with_seed(RetryPolicy::default().with_max_repeats(2), 1);
    // The host's correlation id, sent with every repeat.
    let mut params = count(10, 500);
    params.meta = Some(RequestMetaObject(MetaObject(
        serde_json::json!({"correlationId": "run-1-call-1"})
            .as_object()
            .cloned()
            .unwrap(),
    )));
    let failure = host::call_tool(&client, params, CallBehaviour::READ, &mut retries)
        .await
        .expect_err("busy every time");
    assert_eq!(failure.attempts, 3);
    assert_eq!(failure.next, NextMove::Exhausted { attempts: 3 });
    let said = "Do not repeat this call now: it failed on all 3 tries the host makes. Tell the user it failed; it may pass later.";
    assert_eq!(
        // The facts the server sent, then the host's policy: the repeats
        // are used up (not "it may have taken effect": a read).
        failure.model_text,
        format!("{}\n{said}", failure.envelope.to_json_string())
    );
    assert_eq!(calls.load(Ordering::SeqCst), 3);
}

#[tokio::test(start_paused = true)]
async fn a_hint_beyond_the_longest_wait_is_not_waited() {
    let (client, calls) = connect().await;
    let mut retries = Retries::with_seed(RetryPolicy::default(), 1);
    let started = Instant::now();
    let failure = host::call_tool(
        &client,
        count(1, 6 * 3_600_000),
        CallBehaviour::READ,
        &mut retries,
    )
    .await
    .expect_err("postponed");
    assert_eq!(
        failure.next,
        NextMove::Postpone {
            asked: Duration::from_secs(6 * 3600)
        }
    );
    assert_eq!(failure.attempts, 1);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(
        failure.model_text,
        format!(
            "{}\nDo not repeat this call now: it may pass after 6 h. Tell the user when it can be tried again, or go on without it.",
            failure.envelope.to_json_string()
        )
    );
}

#[tokio::test(start_paused = true)]
async fn an_attempt_that_hangs_is_cut_at_the_call_timeout() {
    let (client, calls) = connect().await;
    let policy = RetryPolicy::default()
        .with_call_timeout(Some(Duration::from_secs(5)))
        .with_max_repeats(2);
    // A read: repeated after each timeout, with jittered backoff.
    let mut retries = Retries::with_seed(policy, 1);
    let started = Instant::now();
    let failure = host::call_tool(
        &client,
        CallToolRequestParams::new("slow_read"),
        CallBehaviour::READ,
        &mut retries,
    )
    .await
    .expect_err("never answers");
    assert_eq!(failure.attempts, 3);
    assert_eq!(failure.envelope.code.as_deref(), Some("REQUEST_TIMEOUT"));
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    // Three timeouts and two backoffs of at most 1 s and 2 s.
    assert!(started.elapsed() >= Duration::from_secs(15));
    assert!(started.elapsed() <= Duration::from_secs(18));
    // A write whose effect is unknown: once.
    let (client, calls) = connect().await;
    let mut retries = Retries::with_seed(policy, 1);
    let failure = host::call_tool(
        &client,
        CallToolRequestParams::new("slow_write"),
        CallBehaviour::default(),
        &mut retries,
    )
    .await
    .expect_err("never answers");
    assert_eq!(failure.attempts, 1);
    assert_eq!(
        failure.next,
        NextMove::Check {
            tool: None,
            arguments: None
        }
    );
    assert_eq!(
        failure.model_text,
        format!(
            "{}\nDo not repeat this call: it may already have taken effect. Tell the user it failed and may have taken effect.",
            failure.envelope.to_json_string()
        )
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn dropping_the_loop_stops_it() {
    let (client, calls) = connect().await;
    let mut retries = Retries::with_seed(RetryPolicy::default(), 1);
    // Busy every time, a hint of 2 s: calls at 0 s and 2 s, then the
    // caller gives up at 3 s.
    let outcome = tokio::time::timeout(
        Duration::from_secs(3),
        host::call_tool(&client, count(10, 2000), CallBehaviour::READ, &mut retries),
    )
    .await;
    assert!(outcome.is_err());
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[tokio::test(start_paused = true)]
async fn the_runs_budget_spans_calls() {
    let (client, calls) = connect().await;
    let mut retries = Retries::with_seed(RetryPolicy::default().with_run_repeats(3), 1);
    // The first call uses two repeats and passes; the second gets one.
    host::call_tool(&client, count(2, 100), CallBehaviour::READ, &mut retries)
        .await
        .expect("passes on the third call");
    let failure = host::call_tool(&client, count(10, 100), CallBehaviour::READ, &mut retries)
        .await
        .expect_err("out of budget");
    assert_eq!(failure.attempts, 2);
    assert_eq!(failure.next, NextMove::Exhausted { attempts: 2 });
    assert_eq!(retries.repeats(), 3);
    assert_eq!(calls.load(Ordering::SeqCst), 5);
}
