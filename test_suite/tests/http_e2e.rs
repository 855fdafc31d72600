//! End to end over real HTTP: the `http_server` example's router (axum,
//! the catalog error type of the MCP example) served on a free port of
//! 127.0.0.1, driven by hyper's HTTP/1 client over TCP. Every answer is
//! checked whole: status, headers (but `date`) and the exact body.
//!
//! Besides the example's routes, the test serves `/bad/...` routes that
//! return hand-made `ErrorEnvelope`s, for the bad input of issue 13: a
//! message with control characters, `help_url`s that are and are not
//! URIs, a class from a newer peer (`Unknown`) and a retry hint of
//! `u64::MAX` milliseconds.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr};

use axum::Router;
use axum::routing::get;
use envelope::{ErrorClass, ErrorEnvelope};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

#[path = "../examples/http_server.rs"]
#[allow(dead_code)] // its `main` and port parsing
mod http_server;

/// One response, as the client saw it.
#[derive(Debug)]
struct Answer {
    status: StatusCode,
    /// Every header but `date`, by name.
    headers: BTreeMap<String, String>,
    body: String,
}

impl Answer {
    /// The body as JSON.
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("the body is JSON")
    }

    /// The headers of a problem details answer whose body is `self.body`,
    /// with `Retry-After` when given.
    fn problem_headers(&self, retry_after: Option<&str>) -> BTreeMap<String, String> {
        let mut headers = BTreeMap::from([
            ("content-length".to_owned(), self.body.len().to_string()),
            (
                "content-type".to_owned(),
                "application/problem+json".to_owned(),
            ),
        ]);
        if let Some(seconds) = retry_after {
            headers.insert("retry-after".to_owned(), seconds.to_owned());
        }
        headers
    }
}

/// The example's routes plus the bad-input ones, on a free port.
async fn start() -> SocketAddr {
    let app = Router::new()
        .merge(http_server::app())
        .route("/bad/{case}", get(bad));
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    address
}

/// Hand-made envelopes, each as a handler's `Err`.
async fn bad(
    axum::extract::Path(case): axum::extract::Path<String>,
) -> Result<String, ErrorEnvelope> {
    Err(match case.as_str() {
        "control" => ErrorEnvelope::new(
            ErrorClass::InvalidArguments,
            "line one\nline two\u{0}\u{7}\u{1b}[31mred\u{7f}",
        ),
        "relative_help_url" => ErrorEnvelope::new(ErrorClass::PolicyDenied, "refused")
            .with_help_url("/docs/errors#policy"),
        "free_text_help_url" => {
            ErrorEnvelope::new(ErrorClass::PolicyDenied, "refused").with_help_url("see the wiki")
        }
        "absolute_help_url" => ErrorEnvelope::new(ErrorClass::PolicyDenied, "refused")
            .with_help_url("https://docs.example.com/errors#policy")
            .with_correlation_id("urn:uuid:0f0e5b8a-9a47-4a55-9f0b-3c7b2d7e4d11"),
        "unknown_class" => serde_json::from_value(json!({
            "error_class": "LEGAL_HOLD",
            "message": "the object is under legal hold"
        }))
        .unwrap(),
        "retry_max" => {
            ErrorEnvelope::new(ErrorClass::RateLimited, "slow down").with_retry_after_ms(u64::MAX)
        }
        other => panic!("no case {other}"),
    })
}

/// One request on a fresh connection.
async fn call(
    address: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    extra: &[(&str, &str)],
) -> Answer {
    let stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", address.to_string());
    if !body.is_empty() {
        request = request.header("content-type", "application/json");
    }
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    let request = request
        .body(Full::new(Bytes::from(body.to_owned())))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let body = body.collect().await.unwrap().to_bytes();
    assert!(parts.headers.contains_key("date"));
    Answer {
        status: parts.status,
        headers: parts
            .headers
            .iter()
            .filter(|(name, _)| *name != "date")
            .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_owned()))
            .collect(),
        body: String::from_utf8(body.to_vec()).unwrap(),
    }
}

async fn get_path(address: SocketAddr, path: &str) -> Answer {
    call(address, "GET", path, "", &[]).await
}

#[tokio::test]
async fn success_is_plain_json() {
    let address = start().await;
    let answer = get_path(address, "/tables").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.body,
        r#"{"tables":["EMPLOYEES","DEPARTMENTS","LOCATIONS","JOB_HISTORY"]}"#
    );
    assert_eq!(answer.headers["content-type"], "application/json");
}

/// The guide's request and response (`src/guide/integrations.md`, "HTTP
/// APIs: problem details"), byte for byte.
#[tokio::test]
async fn not_found() {
    let address = start().await;
    let answer = get_path(address, "/tables/EMPLOYES").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.headers, answer.problem_headers(None));
    assert_eq!(
        answer.body,
        concat!(
            r#"{"type":"about:blank","title":"Not Found","status":404,"#,
            r#""detail":"table EMPLOYES does not exist","category":"NotFound","#,
            r#""code":"TABLE_NOT_FOUND","details":{"table":"EMPLOYES"},"#,
            r#""error_class":"OBJECT_NOT_FOUND","fuzzy_matches":["EMPLOYEES"],"#,
            r#""next_steps":["pick a table from fuzzy_matches, or call list_tables"],"#,
            r#""suggested_tool":"list_tables"}"#
        )
    );
    let response = format!(
        "```http\nHTTP/1.1 404 Not Found\ncontent-type: {}\ncontent-length: {}\n\n{}\n```",
        answer.headers["content-type"], answer.headers["content-length"], answer.body
    );
    let guide = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../src/guide/integrations.md"
    ))
    .expect("the guide's integrations chapter");
    let shown = guide
        .split_once("<!-- http:response:start -->\n")
        .and_then(|(_, rest)| rest.split_once("\n<!-- http:response:end -->"))
        .expect("the guide's response block")
        .0;
    assert_eq!(
        shown, response,
        "src/guide/integrations.md, \"HTTP APIs: problem details\""
    );
}

#[tokio::test]
async fn busy_has_retry_after() {
    let address = start().await;
    let answer = get_path(address, "/tables/EMPLOYEES/row_count").await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    // 1500 ms, rounded up to whole seconds.
    assert_eq!(answer.headers, answer.problem_headers(Some("2")));
    assert_eq!(
        answer.json(),
        json!({
            "type": "about:blank",
            "title": "Service Unavailable",
            "status": 503,
            "detail": "statistics of EMPLOYEES are being refreshed",
            "error_class": "BUSY",
            "code": "STATS_REFRESHING",
            "category": "Technical",
            "details": {"table": "EMPLOYEES"},
            "next_steps": ["wait retry_after_ms milliseconds, then repeat the same call"],
            "retry_after_ms": 1500,
            "retryable": true
        })
    );
    // The same table with fresh statistics answers.
    let answer = get_path(address, "/tables/LOCATIONS/row_count").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body, r#"{"table":"LOCATIONS","rows":23}"#);
}

#[tokio::test]
async fn invalid_arguments() {
    let address = start().await;
    let answer = call(
        address,
        "POST",
        "/find_column",
        r#"{"table":"EMPLOYEES","colum":"HIRE_DATE"}"#,
        &[],
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.headers, answer.problem_headers(None));
    assert_eq!(
        answer.json(),
        json!({
            "type": "about:blank",
            "title": "Bad Request",
            "status": 400,
            "detail": "1 problem in the arguments: /colum is not a known field (did you mean \"column\"?)",
            "error_class": "INVALID_ARGUMENTS",
            "category": "Validation",
            "next_steps": ["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],
            "argument_errors": [{
                "path": "/colum",
                "kind": "unknown_field",
                "received": "string",
                "suggestions": ["column"]
            }]
        })
    );

    // A body that is not JSON at all.
    let answer = call(address, "POST", "/find_column", "{\"table\":", &[]).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.json()["error_class"], "SYNTAX_ERROR");

    // Well-formed arguments, a column that does not exist.
    let answer = call(
        address,
        "POST",
        "/find_column",
        r#"{"table":"EMPLOYEES","column":"HIRE_DAT"}"#,
        &[],
    )
    .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.json()["code"], "COLUMN_NOT_FOUND");
    assert_eq!(answer.json()["fuzzy_matches"], json!(["HIRE_DATE"]));

    let answer = call(
        address,
        "POST",
        "/find_column",
        r#"{"table":"EMPLOYEES","column":"hire_date","case":"insensitive"}"#,
        &[],
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body, r#"{"name":"HIRE_DATE","type":"DATE"}"#);
}

/// A server-owned class without a `message`: the class's generic text,
/// nothing of the error's `Display` (the store's host name, the OS error);
/// the request id stays a `correlation_id` member, as it is not a URI.
#[tokio::test]
async fn server_owned_body_holds_no_internals() {
    let address = start().await;
    let answer = call(
        address,
        "GET",
        "/tables/EMPLOYEES/export",
        "",
        &[("x-request-id", "req-7f3a")],
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_GATEWAY);
    assert_eq!(answer.headers, answer.problem_headers(None));
    assert_eq!(
        answer.json(),
        json!({
            "type": "about:blank",
            "title": "Bad Gateway",
            "status": 502,
            "detail": "the server could not reach a service it depends on",
            "error_class": "CONNECTION_FAILED",
            "code": "STORE_OFFLINE",
            "category": "Technical",
            "retryable": true,
            "effect": "unknown",
            "correlation_id": "req-7f3a"
        })
    );
    for internal in ["exports.internal", "9000", "refused", "connection refused"] {
        assert!(!answer.body.contains(internal), "{internal} leaked");
    }
}

#[tokio::test]
async fn bad_input() {
    let address = start().await;

    // Control characters: escaped by JSON, the body stays valid.
    let answer = get_path(address, "/bad/control").await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.headers, answer.problem_headers(None));
    assert_eq!(
        answer.body,
        concat!(
            r#"{"type":"about:blank","title":"Bad Request","status":400,"#,
            r#""detail":"line one\nline two\u0000\u0007\u001b[31mred"#,
            "\u{7f}",
            r#"","category":"Validation","error_class":"INVALID_ARGUMENTS"}"#
        )
    );
    assert_eq!(
        answer.json()["detail"],
        "line one\nline two\u{0}\u{7}\u{1b}[31mred\u{7f}"
    );

    // help_url that is not a URI: `type` stays about:blank, the text is
    // kept as the `help_url` member.
    for (case, url) in [
        ("relative_help_url", "/docs/errors#policy"),
        ("free_text_help_url", "see the wiki"),
    ] {
        let answer = get_path(address, &format!("/bad/{case}")).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN);
        assert_eq!(
            answer.json(),
            json!({
                "type": "about:blank",
                "title": "Forbidden",
                "status": 403,
                "detail": "refused",
                "error_class": "POLICY_DENIED",
                "category": "Validation",
                "help_url": url
            }),
            "{case}"
        );
    }

    // A URI help_url is the `type`, with the class's title; a URI
    // correlation id is the `instance`.
    let answer = get_path(address, "/bad/absolute_help_url").await;
    assert_eq!(
        answer.json(),
        json!({
            "type": "https://docs.example.com/errors#policy",
            "title": "Denied by policy",
            "status": 403,
            "detail": "refused",
            "instance": "urn:uuid:0f0e5b8a-9a47-4a55-9f0b-3c7b2d7e4d11",
            "error_class": "POLICY_DENIED",
            "category": "Validation"
        })
    );

    // A class from a newer peer: 500.
    let answer = get_path(address, "/bad/unknown_class").await;
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(answer.headers, answer.problem_headers(None));
    assert_eq!(
        answer.json(),
        json!({
            "type": "about:blank",
            "title": "Internal Server Error",
            "status": 500,
            "detail": "the object is under legal hold",
            "error_class": "UNKNOWN"
        })
    );

    // u64::MAX ms: the header is the exact rounded-up value, no overflow.
    let answer = get_path(address, "/bad/retry_max").await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        answer.headers,
        answer.problem_headers(Some("18446744073709552"))
    );
    assert_eq!(answer.json()["retry_after_ms"], json!(u64::MAX));
}

/// The derived impl holds for generic and borrowing types too.
#[test]
fn generic_types_are_responses() {
    use axum::response::IntoResponse;
    use envelope::Envelope;

    #[derive(Debug, Envelope)]
    enum Lookup<'a, K: std::fmt::Display> {
        #[envelope(class = ObjectNotFound, message = "no {kind} with key {key}")]
        Missing { kind: &'a str, key: K },
    }

    let response = Lookup::Missing {
        kind: "order",
        key: 7,
    }
    .into_response();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        response.headers()["content-type"],
        "application/problem+json"
    );
}
