//! A keyed call's stored failure, sent again, says so on MCP and on HTTP
//! alike: the same envelope (not `retryable`, the replay's step first in
//! place of "repeat with the same key"), so a client that ignores the
//! replay mark (`_meta.idempotentReplay`, `Idempotent-Replayed`) does not
//! loop on it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::routing::post;
use envelope::axum::{Keys, RouterExt, keyed};
use envelope::idempotency::MemoryStore;
use envelope::rmcp::Idempotency;
use envelope::{ErrorClass, ErrorEnvelope};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde_json::{Value, json};

#[path = "support/in_process.rs"]
mod in_process;
use in_process::connect;

#[path = "cases/keyed.rs"]
mod keyed_call;

/// The failure both transports store: a write cut off mid-way.
fn cut_off() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::Transient,
        "the mail relay dropped the connection",
    )
    .with_code("RELAY_DROPPED")
}

#[derive(Clone)]
struct Mail {
    tool_router: envelope::rmcp::Router<Self>,
    runs: Arc<AtomicU32>,
}

#[tool_router]
impl Mail {
    /// Sends a mail; keyed. Fails after it may have sent it.
    #[tool]
    async fn send_mail(&self) -> Result<String, ErrorEnvelope> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        Err(cut_off())
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Mail {}

/// The replayed envelope of each transport, without its correlation id
/// (each request's own), and how often each ran.
async fn replays() -> (Value, Value, u32, u32) {
    // MCP.
    let runs = Arc::new(AtomicU32::new(0));
    let server = Mail {
        tool_router: envelope::rmcp::Router::new(Mail::tool_router())
            .with_idempotency(Idempotency::new(MemoryStore::new()).require("send_mail")),
        runs: runs.clone(),
    };
    let client = connect(server).await;
    let send = || keyed_call::call("send_mail", json!({}), Some("mail-1"));
    let first = client.peer().call_tool(send()).await.unwrap();
    assert!(!keyed_call::replayed(&first));
    assert_eq!(keyed_call::code(&first).as_deref(), Some("RELAY_DROPPED"));
    let again = client.peer().call_tool(send()).await.unwrap();
    assert!(keyed_call::replayed(&again));
    let mut mcp = envelope::host::read_call_tool_result(&again)
        .unwrap()
        .to_json();
    // What a model reads of it.
    assert_eq!(
        keyed_call::text(&again),
        "Do not repeat this call: it may already have taken effect. Tell the user it failed and may have taken effect."
            .replace(
                "connection\n",
                &format!("connection\nNext step: {}\nCorrelation id: {}\n", STEP, mcp["correlation_id"].as_str().unwrap()),
            )
    );
    client.cancel().await.unwrap();
    mcp.as_object_mut().unwrap().remove("correlation_id");

    // HTTP.
    let sent = Arc::new(AtomicU32::new(0));
    let counter = sent.clone();
    let handler = move || {
        let counter = counter.clone();
        async move {
            counter.fetch_add(1, Ordering::SeqCst);
            Err::<String, ErrorEnvelope>(cut_off())
        }
    };
    let mut app = axum::Router::new()
        .route("/mail", post(handler))
        .route_layer(axum::middleware::from_fn_with_state(
            Keys::required(MemoryStore::new()),
            keyed,
        ))
        .answer_failures();
    let request = || {
        Request::post("/mail")
            .header("idempotency-key", "mail-1")
            .body(Body::empty())
            .unwrap()
    };
    let first = send_http(&mut app, request()).await;
    assert_eq!(first.0, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(first.1, None);
    let (status, replayed, mut http) = send_http(&mut app, request()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(replayed.as_deref(), Some("true"));
    let http = http.as_object_mut().unwrap();
    for member in ["type", "title", "status", "correlation_id"] {
        http.remove(member);
    }
    let detail = http.remove("detail").unwrap();
    http.insert(String::from("message"), detail);
    http.insert(String::from("isError"), Value::Bool(true));
    (
        mcp,
        Value::Object(http.clone()),
        runs.load(Ordering::SeqCst),
        sent.load(Ordering::SeqCst),
    )
}

/// The replay's first next step.
const STEP: &str = "this is the stored answer of the first call with this idempotency key, sent again: the same key always gets it; check first whether the call took effect, and make it again only with a new idempotency key";

/// One request through `app`, in process: the status, the
/// `Idempotent-Replayed` header and the body as JSON.
async fn send_http(
    app: &mut axum::Router,
    request: Request<Body>,
) -> (StatusCode, Option<String>, Value) {
    use tower_service::Service;
    let response = app.call(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    let replayed = parts
        .headers
        .get("idempotent-replayed")
        .map(|value| value.to_str().unwrap().to_owned());
    (
        parts.status,
        replayed,
        serde_json::from_slice(&body).unwrap(),
    )
}

#[tokio::test]
async fn a_replayed_failure_is_the_same_on_both_transports_and_does_not_loop() {
    let (mcp, http, mcp_runs, http_runs) = replays().await;
    let expected = json!({
        "isError": true,
        "error_class": "TRANSIENT",
        "message": "the mail relay dropped the connection",
        "next_steps": [STEP],
        "code": "RELAY_DROPPED",
        "category": "Technical",
        "effect": "unknown"
    });
    assert_eq!(mcp, expected);
    assert_eq!(http, expected);
    assert_eq!((mcp_runs, http_runs), (1, 1));
}
