//! Rate limits the server enforces, in one process: the rmcp router's tool
//! error result (MCP 2026-07-28; the draft SEP-3304's `-32023` opt-in) and
//! the axum middleware's `429` with the IETF draft's `RateLimit` fields,
//! checked whole, a refused call never run, governor's limiters behind
//! both, and the host reading the refusals back and waiting exactly the
//! time they ask.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use axum::routing::post;
use envelope::CallBehaviour;
use envelope::NextMove;
use envelope::host::{self, Retries, RetryPolicy};
use envelope::rate_limit::{Limited, RateLimiter};
use governor::Quota;
use rmcp::model::CallToolRequestParams;
use rmcp::service::ServiceError;
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde_json::{Value, json};

#[path = "support/in_process.rs"]
mod in_process;
use in_process::connect;

/// What an MCP tool without annotations declares: a write that may
/// destroy.
fn write() -> CallBehaviour {
    CallBehaviour::from_hints(None, None, None)
}

/// The refusal of the tests' hand-written limiters.
const REFUSED: Limited = Limited::new(1200, 60).with_window_ms(60_000);

/// A server with one write tool, counting the calls that ran.
#[derive(Clone)]
struct Mail {
    tool_router: envelope::rmcp::Router<Self>,
    sent: Arc<AtomicU32>,
}

#[tool_router]
impl Mail {
    /// Sends the mail (a write: no annotations).
    #[tool]
    async fn send_mail(&self) -> String {
        self.sent.fetch_add(1, Ordering::SeqCst);
        String::from("sent")
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Mail {}

impl Mail {
    /// The server behind `limiter`, and its count of calls that ran.
    fn new(limiter: impl RateLimiter + 'static) -> (Self, Arc<AtomicU32>) {
        Self::answering(limiter, envelope::rmcp::RateLimited::default())
    }

    /// [`Mail::new`], answering a refused call as `answer` says.
    fn answering(
        limiter: impl RateLimiter + 'static,
        answer: envelope::rmcp::RateLimited,
    ) -> (Self, Arc<AtomicU32>) {
        let sent = Arc::new(AtomicU32::new(0));
        let router = envelope::rmcp::Router::new(Self::tool_router())
            .with_rate_limit(envelope::rate_limit::RateLimit::new(limiter))
            .with_rate_limited(answer)
            .with_failures("send_mail", &[]);
        let server = Mail {
            tool_router: router,
            sent: sent.clone(),
        };
        (server, sent)
    }
}

/// A limiter that refuses its first calls with the waits `waits` (in
/// milliseconds), then admits every call.
fn refusing_first(waits: &'static [u64]) -> impl RateLimiter {
    let seen = AtomicU32::new(0);
    move |operation: &str, principal: Option<&str>| {
        assert_eq!((operation, principal), ("send_mail", None));
        let call = seen.fetch_add(1, Ordering::SeqCst) as usize;
        match waits.get(call) {
            Some(wait) => Err(Limited::new(*wait, 60).with_window_ms(60_000)),
            None => Ok(()),
        }
    }
}

fn send_mail() -> CallToolRequestParams {
    CallToolRequestParams::new("send_mail")
}

#[tokio::test]
async fn a_refused_mcp_call_is_a_tool_error_and_never_runs() {
    let (server, sent) = Mail::new(|_: &str, _: Option<&str>| Err(REFUSED));
    let client = connect(server).await;
    let result = client.peer().call_tool(send_mail()).await.unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(sent.load(Ordering::SeqCst), 0);
    let read = host::read_call_tool_result(&result).unwrap();
    let id = read.correlation_id.clone().unwrap();
    assert_eq!(
        read.to_json(),
        json!({
            "isError": true,
            "error_class": "RATE_LIMITED",
            "message": "the rate limit of 60 calls per 60 s was reached",
            "retry_after_ms": 1200,
            "code": "RATE_LIMITED",
            "category": "Technical",
            "retryable": true,
            "correlation_id": id,
            "details": {"limit": 60, "remaining": 0, "window_ms": 60_000}
        })
    );
    // What a model reads: the wait, then the repeat.
    assert_eq!(
        result.content[1].as_text().unwrap().text,
        "Wait 1200 ms, then repeat the same call unchanged."
    );
    assert_eq!(
        RetryPolicy::default().next_move(&read, write(), 1),
        NextMove::Repeat {
            after: Duration::from_millis(1200)
        }
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_sep_3304_error_is_an_opt_in() {
    let (server, sent) = Mail::answering(
        |_: &str, _: Option<&str>| Err(REFUSED),
        envelope::rmcp::RateLimited::Sep3304Error,
    );
    let client = connect(server).await;
    let error = client.peer().call_tool(send_mail()).await.unwrap_err();
    let ServiceError::McpError(data) = &error else {
        panic!("not a JSON-RPC error: {error:?}");
    };
    assert_eq!(
        serde_json::to_value(data).unwrap(),
        json!({
            "code": -32023,
            "message": "the rate limit of 60 calls per 60 s was reached",
            "data": {"retryAfterMs": 1200, "limit": 60, "remaining": 0}
        })
    );
    assert_eq!(sent.load(Ordering::SeqCst), 0);

    // The host reads it back: the wait, the limit and the calls left.
    let read = host::read_service_error(&error);
    assert_eq!(
        read.to_json(),
        json!({
            "isError": true,
            "error_class": "RATE_LIMITED",
            "message": "the rate limit of 60 calls per 60 s was reached",
            "retry_after_ms": 1200,
            "code": "RATE_LIMITED",
            "category": "Technical",
            "retryable": true,
            "details": {"limit": 60, "remaining": 0}
        })
    );
    assert_eq!(
        RetryPolicy::default().next_move(&read, write(), 1),
        NextMove::Repeat {
            after: Duration::from_millis(1200)
        }
    );

    // The tool's contract says it can be rate limited.
    let tools = client.peer().list_all_tools().await.unwrap();
    let meta = tools[0].meta.as_ref().unwrap();
    assert_eq!(
        meta.get(envelope::FAILURES_META_KEY).unwrap(),
        &json!([
            {"class": "INVALID_ARGUMENTS", "owner": "caller", "retryable": false, "effect": "nothing"},
            {"class": "CANCELLED", "code": "CANCELLED", "owner": "caller", "retryable": false, "effect": "unknown"},
            {"class": "RATE_LIMITED", "code": "RATE_LIMITED", "owner": "caller", "retryable": true, "effect": "nothing"}
        ])
    );
    client.cancel().await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn the_host_waits_exactly_as_told_then_the_write_runs_once() {
    let (server, sent) = Mail::new(refusing_first(&[1200, 700]));
    let client = connect(server).await;
    let mut retries = Retries::with_seed(RetryPolicy::default(), 7);
    let started = tokio::time::Instant::now();
    let tools = client.peer().list_all_tools().await.unwrap();
    let behaviour = host::behaviour_of(&tools[0]);
    assert_eq!(behaviour, write());
    let result = host::call_tool(&client, send_mail(), behaviour, &mut retries)
        .await
        .expect("the third call is admitted");
    assert_eq!(result.is_error, Some(false));
    assert_eq!(sent.load(Ordering::SeqCst), 1);
    assert_eq!(retries.repeats(), 2);
    // The hints, not the backoff's jitter: 1.2 s then 0.7 s.
    assert_eq!(retries.waited(), Duration::from_millis(1900));
    assert_eq!(started.elapsed(), Duration::from_millis(1900));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn governor_in_one_line_and_a_wait_too_long_is_not_waited() {
    let once_an_hour = Quota::per_hour(NonZeroU32::new(1).unwrap());
    let (server, sent) = Mail::new(governor::RateLimiter::direct(once_an_hour));
    let client = connect(server).await;
    client.peer().call_tool(send_mail()).await.unwrap();
    let refused = client.peer().call_tool(send_mail()).await.unwrap();
    assert_eq!(sent.load(Ordering::SeqCst), 1);
    let read = host::read_call_tool_result(&refused).unwrap();
    let wait = read.retry_after_ms.unwrap();
    assert!((3_599_000..=3_600_000).contains(&wait), "{wait}");
    assert_eq!(read.details["limit"], 1);
    assert_eq!(read.details["remaining"], 0);
    assert_eq!(
        RetryPolicy::default().next_move(&read, write(), 1),
        NextMove::Postpone {
            asked: Duration::from_millis(wait)
        }
    );
    client.cancel().await.unwrap();
}

/// One request through `app`, in process; the body collected.
async fn send(app: &mut axum::Router, request: Request<Body>) -> Response<Vec<u8>> {
    use tower_service::Service;
    let response = app.call(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    Response::from_parts(parts, body.to_vec())
}

fn post_mail(client: &str) -> Request<Body> {
    Request::post("/mail")
        .header("x-request-id", "req-9")
        .header("x-client", client)
        .body(Body::empty())
        .unwrap()
}

/// A router whose `POST /mail` is behind `limit`, answering failures.
fn mail_app(
    limit: envelope::rate_limit::RateLimit<axum::http::request::Parts>,
    sent: Arc<AtomicU32>,
) -> axum::Router {
    use envelope::axum::RouterExt;
    let handler = move || {
        let sent = sent.clone();
        async move {
            sent.fetch_add(1, Ordering::SeqCst);
            "sent"
        }
    };
    axum::Router::new()
        .route("/mail", post(handler))
        .route_layer(axum::middleware::from_fn_with_state(
            limit,
            envelope::axum::rate_limited,
        ))
        .answer_failures()
}

#[tokio::test]
async fn a_refused_request_is_a_429_with_the_ratelimit_fields() {
    let sent = Arc::new(AtomicU32::new(0));
    let limiter = |operation: &str, principal: Option<&str>| {
        assert_eq!((operation, principal), ("POST /mail", None));
        Err(REFUSED)
    };
    let mut app = mail_app(envelope::rate_limit::RateLimit::new(limiter), sent.clone());
    let response = send(&mut app, post_mail("alice")).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let headers: Vec<(&str, &str)> = response
        .headers()
        .iter()
        .map(|(name, value)| (name.as_str(), value.to_str().unwrap()))
        .collect();
    assert_eq!(
        headers,
        [
            ("content-type", "application/problem+json"),
            ("retry-after", "2"),
            ("ratelimit-policy", "\"default\";q=60;w=60"),
            ("ratelimit", "\"default\";r=0;t=2"),
            ("x-request-id", "req-9"),
            ("content-length", "315"),
        ]
    );
    let body: Value = serde_json::from_slice(response.body()).unwrap();
    assert_eq!(
        body,
        json!({
            "type": "about:blank",
            "title": "Too Many Requests",
            "status": 429,
            "detail": "the rate limit of 60 calls per 60 s was reached",
            "error_class": "RATE_LIMITED",
            "retry_after_ms": 1200,
            "code": "RATE_LIMITED",
            "category": "Technical",
            "retryable": true,
            "correlation_id": "req-9",
            "details": {"limit": 60, "remaining": 0, "window_ms": 60_000}
        })
    );
    assert_eq!(sent.load(Ordering::SeqCst), 0);

    // The host reads it back whole: the body's wait, not the header's
    // rounded seconds.
    let read = host::read_http_response(&response).unwrap();
    assert_eq!(read.retry_after_ms, Some(1200));
    assert_eq!(read.details["limit"], 60);
    assert_eq!(read.details["remaining"], 0);
}

#[tokio::test]
async fn a_peer_429_with_only_the_fields_is_read_from_them() {
    let response = Response::builder()
        .status(429)
        .header("content-type", "text/plain")
        .header(
            "ratelimit-policy",
            "\"hourly\";q=100;w=3600, \"burst\";q=10;w=1",
        )
        .header("ratelimit", "\"hourly\";r=0;t=37")
        .body(b"slow down".to_vec())
        .unwrap();
    let read = host::read_http_response(&response).unwrap();
    assert_eq!(
        read.to_json(),
        json!({
            "isError": true,
            "error_class": "RATE_LIMITED",
            "message": "the server answered 429 Too Many Requests",
            "retry_after_ms": 37_000,
            "category": "Technical",
            "retryable": true,
            "details": {"limit": 100, "remaining": 0}
        })
    );
    // On another status the fields describe the quota; `t` is no wait.
    let unavailable = Response::builder()
        .status(503)
        .header("ratelimit-policy", "\"default\";q=100;w=3600")
        .header("ratelimit", "\"default\";r=50;t=3600")
        .body(Vec::new())
        .unwrap();
    let read = host::read_http_response(&unavailable).unwrap();
    assert_eq!((read.retry_after_ms, read.details.len()), (None, 0));
    // A field sent as two lines is one list: the exhausted policy of
    // either line.
    let two_lines = Response::builder()
        .status(429)
        .header("ratelimit", "\"burst\";r=3;t=1")
        .header("ratelimit", "\"daily\";r=0;t=50")
        .body(Vec::new())
        .unwrap();
    assert_eq!(
        host::read_http_response(&two_lines).unwrap().retry_after_ms,
        Some(50_000)
    );
    // `Retry-After` wins over `t`.
    let both = Response::builder()
        .status(429)
        .header("retry-after", "5")
        .header("ratelimit", "\"hourly\";r=0;t=37")
        .body(Vec::new())
        .unwrap();
    assert_eq!(
        host::read_http_response(&both).unwrap().retry_after_ms,
        Some(5000)
    );
}

#[tokio::test]
async fn a_budget_per_client_with_governor() {
    let sent = Arc::new(AtomicU32::new(0));
    let per_client = governor::RateLimiter::keyed(Quota::per_hour(NonZeroU32::new(1).unwrap()));
    let limit = envelope::rate_limit::RateLimit::new(move |_: &str, client: Option<&str>| {
        envelope::governor::check_key(&per_client, &client.unwrap_or_default().to_owned())
    })
    .with_principal(|parts: &axum::http::request::Parts| {
        let client = parts.headers.get("x-client")?;
        client.to_str().ok().map(str::to_owned)
    });
    let mut app = mail_app(limit, sent.clone());
    assert_eq!(
        send(&mut app, post_mail("alice")).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        send(&mut app, post_mail("bob")).await.status(),
        StatusCode::OK
    );
    let refused = send(&mut app, post_mail("alice")).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        refused.headers()["ratelimit-policy"],
        "\"default\";q=1;w=3600"
    );
    assert_eq!(sent.load(Ordering::SeqCst), 2);
}
