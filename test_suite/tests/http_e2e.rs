//! End to end over real HTTP: the `http_server` example's router (axum,
//! the catalog error type of the MCP example, `envelope::axum`'s
//! extractors and `answer_failures`) served on a free port of 127.0.0.1,
//! driven by hyper's HTTP/1 client over TCP. Every answer is checked
//! whole: status, headers (but `date`) and the exact body; the operator's
//! log lines are captured and checked too.
//!
//! Besides the example's routes, the test serves `/bad/...` routes that
//! return hand-made `ErrorEnvelope`s outside `answer_failures` (the
//! `IntoResponse` alone), for bad input: a message with control
//! characters, `help_url`s that are and are not URIs, a class from a newer
//! peer (`Unknown`) and a retry hint of `u64::MAX` milliseconds.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};

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

/// The request id every request of these tests sends, unless it says
/// otherwise.
const ID: &str = "req-7f3a";

/// The next step of an `INVALID_ARGUMENTS` problem, in HTTP's words.
const FIX: &str = "fix each argument listed in argument_errors, then send the request again with the fixed arguments";

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
    /// with `Retry-After` when given, and `x-request-id` when given.
    fn headers_of(
        &self,
        retry_after: Option<&str>,
        request_id: Option<&str>,
    ) -> BTreeMap<String, String> {
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
        if let Some(id) = request_id {
            headers.insert("x-request-id".to_owned(), id.to_owned());
        }
        headers
    }

    /// The headers of a problem answered under `answer_failures` for a
    /// request with [`ID`].
    fn problem_headers(&self, retry_after: Option<&str>) -> BTreeMap<String, String> {
        self.headers_of(retry_after, Some(ID))
    }
}

/// The example's routes plus the bad-input ones, on a free port.
async fn start() -> SocketAddr {
    let app = Router::new()
        .merge(http_server::app())
        .route("/bad/{case}", get(bad))
        .nest("/ext", extractors())
        .nest("/wait", waiting(true))
        .nest("/plain", waiting(false));
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    address
}

/// Routes whose `Path` disagrees with them, and the `Option` forms of the
/// extractors, under `answer_failures` as a server writes them.
fn extractors() -> Router {
    use envelope::axum::{Json, Path, RouterExt};
    use serde::Deserialize;

    #[derive(Deserialize, schemars::JsonSchema)]
    struct Misnamed {
        #[allow(dead_code)]
        note_id: u32,
    }
    #[derive(Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        #[allow(dead_code)]
        id: u32,
    }
    #[derive(Deserialize, schemars::JsonSchema)]
    struct Body {
        n: u8,
    }
    async fn misnamed(Path(_): Path<Misnamed>) -> &'static str {
        "unreachable"
    }
    async fn strict(Path(_): Path<Strict>) -> &'static str {
        "unreachable"
    }
    async fn optional_body(body: Option<Json<Body>>) -> String {
        body.map_or_else(
            || String::from("none"),
            |Json(body)| format!("some {}", body.n),
        )
    }
    async fn optional_path(path: Option<Path<u8>>) -> String {
        path.map_or_else(|| String::from("none"), |Path(n)| format!("some {n}"))
    }
    Router::new()
        .route("/mismatch/notes/{id}", get(misnamed))
        .route("/mismatch/strict/{id}/{extra}", get(strict))
        .route("/optional/body", axum::routing::post(optional_body))
        .route("/optional/path", get(optional_path))
        .route("/optional/path/{n}", get(optional_path))
        .answer_failures()
}

/// A route whose lock is held, under a router that says its own busy
/// wait (`own`), or under the default one.
fn waiting(own: bool) -> Router {
    use envelope::axum::{Answering, RouterExt};
    async fn locked() -> Result<String, ErrorEnvelope> {
        Err(envelope::Envelope::to_envelope(&std::io::Error::from(
            std::io::ErrorKind::WouldBlock,
        )))
    }
    let router = Router::new().route("/locked", get(locked));
    if own {
        router.answer_failures_with(
            Answering::new().with_busy_retry_after(std::time::Duration::from_millis(4200)),
        )
    } else {
        router.answer_failures()
    }
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

/// One request on a fresh connection, with exactly the `headers` given
/// (and `host`).
async fn send(
    address: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
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
    for (name, value) in headers {
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

/// A request with `x-request-id: req-7f3a`, and a JSON body when `body`
/// is not empty.
async fn call(address: SocketAddr, method: &str, path: &str, body: &str) -> Answer {
    let json = [("x-request-id", ID), ("content-type", "application/json")];
    let headers = if body.is_empty() {
        &json[..1]
    } else {
        &json[..]
    };
    send(address, method, path, headers, body).await
}

async fn get_path(address: SocketAddr, path: &str) -> Answer {
    call(address, "GET", path, "").await
}

/// The operator's log of the whole test binary, one line per event:
/// tests run in parallel, so each checks the lines of its own request ids
/// (a subscriber per thread would miss events: tracing caches a callsite's
/// interest across threads).
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Log {
    /// The log, capturing from the first call on.
    fn capture() -> Log {
        static LOG: std::sync::OnceLock<Log> = std::sync::OnceLock::new();
        LOG.get_or_init(|| {
            let log = Log::default();
            let writer = log.clone();
            let subscriber = tracing_subscriber::fmt()
                .with_writer(move || writer.clone())
                .with_ansi(false)
                .without_time()
                .with_target(false)
                .finish();
            tracing::subscriber::set_global_default(subscriber).expect("one subscriber");
            log
        })
        .clone()
    }

    /// The lines whose span has one of `ids` as its correlation id (the
    /// span's field, not the event's `envelope.correlation_id`).
    fn lines(&self, ids: &[&str]) -> Vec<String> {
        String::from_utf8(self.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .filter(|line| {
                ids.iter()
                    .any(|id| line.contains(&format!(" correlation_id=\"{id}\" ")))
            })
            .map(str::to_owned)
            .collect()
    }
}

impl std::io::Write for Log {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn success_is_plain_json_with_the_request_id() {
    let address = start().await;
    let answer = get_path(address, "/tables").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.body,
        r#"{"tables":["EMPLOYEES","DEPARTMENTS","LOCATIONS","JOB_HISTORY"]}"#
    );
    assert_eq!(
        answer.headers,
        BTreeMap::from([
            ("content-length".to_owned(), answer.body.len().to_string()),
            ("content-type".to_owned(), "application/json".to_owned()),
            ("x-request-id".to_owned(), ID.to_owned()),
        ])
    );
    // The query string, read as the type asks: `limit` is an integer.
    let answer = get_path(address, "/tables?prefix=J&limit=5").await;
    assert_eq!(answer.body, r#"{"tables":["JOB_HISTORY"]}"#);
    let answer = get_path(address, "/tables?limit=2").await;
    assert_eq!(answer.body, r#"{"tables":["EMPLOYEES","DEPARTMENTS"]}"#);
    // Two path parameters, the second an integer.
    let answer = get_path(address, "/tables/LOCATIONS/columns/1").await;
    assert_eq!(answer.body, r#"{"name":"CITY","type":"VARCHAR2(30)"}"#);
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
            r#""code":"TABLE_NOT_FOUND","correlation_id":"req-7f3a","details":{"table":"EMPLOYES"},"#,
            r#""error_class":"OBJECT_NOT_FOUND","fuzzy_matches":["EMPLOYEES"],"#,
            r#""next_steps":["pick a table from fuzzy_matches, or call list_tables"],"#,
            r#""suggested_tool":"list_tables"}"#
        )
    );
    let response = format!(
        "```http\nHTTP/1.1 404 Not Found\ncontent-type: {}\nx-request-id: {}\ncontent-length: {}\n\n{}\n```",
        answer.headers["content-type"],
        answer.headers["x-request-id"],
        answer.headers["content-length"],
        answer.body
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
            "correlation_id": ID,
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
async fn a_router_says_its_own_busy_wait() {
    let address = start().await;
    let answer = get_path(address, "/wait/locked").await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    // 4200 ms, rounded up to whole seconds.
    assert_eq!(answer.headers, answer.problem_headers(Some("5")));
    assert_eq!(answer.json()["retry_after_ms"], 4200);
    let answer = get_path(address, "/plain/locked").await;
    assert_eq!(answer.headers, answer.problem_headers(Some("1")));
    assert_eq!(
        answer.json(),
        json!({
            "type": "about:blank",
            "title": "Service Unavailable",
            "status": 503,
            "detail": "the server is busy",
            "error_class": "BUSY",
            "code": "IO_WOULD_BLOCK",
            "category": "Technical",
            "correlation_id": ID,
            "next_steps": ["wait retry_after_ms milliseconds, then repeat the same call"],
            "retry_after_ms": 1000,
            "retryable": true
        })
    );
}

/// The same transient failure (a migration holds the table's lock): a
/// `GET` changed nothing and may be repeated; a `POST` that adds a note
/// may have taken effect, and may not.
#[tokio::test]
async fn the_method_decides_whether_a_repeat_is_safe() {
    let address = start().await;
    let read = get_path(address, "/tables/JOB_HISTORY/row_count").await;
    assert_eq!(read.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(read.headers, read.problem_headers(None));
    assert_eq!(
        read.json(),
        json!({
            "type": "about:blank",
            "title": "Service Unavailable",
            "status": 503,
            "detail": "table JOB_HISTORY is locked by a running migration",
            "error_class": "TRANSIENT",
            "code": "TABLE_LOCKED",
            "category": "Technical",
            "correlation_id": ID,
            "details": {"table": "JOB_HISTORY"},
            "next_steps": ["wait a few seconds for the migration to end, then call again"],
            "retryable": true
        })
    );
    let write = call(
        address,
        "POST",
        "/tables/JOB_HISTORY/notes",
        r#"{"note":"moved to archive"}"#,
    )
    .await;
    assert_eq!(write.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(write.headers, write.problem_headers(None));
    assert_eq!(
        write.json(),
        json!({
            "type": "about:blank",
            "title": "Service Unavailable",
            "status": 503,
            "detail": "table JOB_HISTORY is locked by a running migration",
            "error_class": "TRANSIENT",
            "code": "TABLE_LOCKED",
            "category": "Technical",
            "correlation_id": ID,
            "details": {"table": "JOB_HISTORY"},
            "effect": "unknown",
            "next_steps": [
                "the call may have taken effect: check its result before repeating it",
                "wait a few seconds for the migration to end, then call again"
            ]
        })
    );
    // A table without the lock takes the note.
    let answer = call(
        address,
        "POST",
        "/tables/LOCATIONS/notes",
        r#"{"note":"n1"}"#,
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body, r#"{"table":"LOCATIONS","notes":["n1"]}"#);
}

#[tokio::test]
async fn json_body_rejections() {
    let address = start().await;
    let answer = call(
        address,
        "POST",
        "/find_column",
        r#"{"table":"EMPLOYEES","colum":"HIRE_DATE"}"#,
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.headers, answer.problem_headers(None));
    // With `jsonschema` the schema also finds the missing `column`.
    let (detail, mut problems) = if cfg!(feature = "jsonschema") {
        (
            "2 problems in the arguments: /column is missing; /colum is not a known field (did you mean \"column\"?)",
            vec![json!({"path": "/column", "kind": "missing"})],
        )
    } else {
        (
            "1 problem in the arguments: /colum is not a known field (did you mean \"column\"?)",
            Vec::new(),
        )
    };
    problems.push(json!({
        "path": "/colum",
        "kind": "unknown_field",
        "received": "string",
        "suggestions": ["column"]
    }));
    assert_eq!(
        answer.json(),
        json!({
            "type": "about:blank",
            "title": "Bad Request",
            "status": 400,
            "detail": detail,
            "error_class": "INVALID_ARGUMENTS",
            "category": "Validation",
            "correlation_id": ID,
            "next_steps": [FIX],
            // The body with the misspelled key renamed, ready to send again.
            "details": {"corrected_arguments": {"column": "HIRE_DATE", "table": "EMPLOYEES"}},
            "argument_errors": problems
        })
    );

    // A body that is not JSON at all: serde_json's position.
    let answer = call(address, "POST", "/find_column", "{\"table\":").await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.headers, answer.problem_headers(None));
    assert_eq!(
        answer.json(),
        json!({
            "type": "about:blank",
            "title": "Bad Request",
            "status": 400,
            "detail": "the JSON ends before its last value is complete",
            "error_class": "SYNTAX_ERROR",
            "code": "JSON_EOF",
            "category": "Validation",
            "correlation_id": ID,
            "details": {"line": 1, "column": 9},
            "next_steps": ["send the request again with a well-formed JSON body"]
        })
    );

    // The body without a content type, and with another one: 415.
    for (headers, got) in [
        (
            &[("x-request-id", ID)][..],
            "it was sent without a Content-Type",
        ),
        (
            &[
                ("x-request-id", ID),
                ("content-type", "text/plain; charset=utf-8"),
            ][..],
            "it was sent as \"text/plain\"",
        ),
    ] {
        let body = r#"{"table":"EMPLOYEES","column":"HIRE_DATE"}"#;
        let answer = send(address, "POST", "/find_column", headers, body).await;
        assert_eq!(answer.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_eq!(answer.headers, answer.problem_headers(None));
        assert_eq!(
            answer.json(),
            json!({
                "type": "about:blank",
                "title": "Unsupported Media Type",
                "status": 415,
                "detail": format!("the request body must be JSON with Content-Type: application/json; {got}"),
                "error_class": "INVALID_ARGUMENTS",
                "code": "UNSUPPORTED_MEDIA_TYPE",
                "category": "Validation",
                "correlation_id": ID,
                "next_steps": ["send the request again with the header Content-Type: application/json"]
            })
        );
    }
    // An empty body, a key given twice (as serde reads the text), JSON
    // deeper than serde_json's limit.
    let empty = send(
        address,
        "POST",
        "/find_column",
        &[("x-request-id", ID), ("content-type", "application/json")],
        "",
    )
    .await
    .json();
    assert_eq!(empty["code"], "BODY_EMPTY");
    assert_eq!(
        empty["detail"],
        "the request body is empty; it must be a JSON value"
    );
    let twice = call(
        address,
        "POST",
        "/find_column",
        r#"{"table":"EMPLOYEES","column":"HIRE_DATE","column":"SALARY"}"#,
    )
    .await;
    assert_eq!(twice.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        twice.json()["detail"],
        "1 problem in the arguments: /column must be given once"
    );
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let deep = call(address, "POST", "/find_column", &deep).await.json();
    assert_eq!(deep["code"], "JSON_TOO_DEEP");

    // An `application/*+json` type is JSON.
    let answer = send(
        address,
        "POST",
        "/find_column",
        &[("content-type", "application/vnd.api+json")],
        r#"{"table":"EMPLOYEES","column":"hire_date","case":"insensitive"}"#,
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body, r#"{"name":"HIRE_DATE","type":"DATE"}"#);

    // Well-formed arguments, a column that does not exist.
    let answer = call(
        address,
        "POST",
        "/find_column",
        r#"{"table":"EMPLOYEES","column":"HIRE_DAT"}"#,
    )
    .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.json()["code"], "COLUMN_NOT_FOUND");
    assert_eq!(answer.json()["fuzzy_matches"], json!(["HIRE_DATE"]));
}

/// A problem of the query or the path, at the parameter's name.
fn argument_problem(detail: &str, problems: Value) -> Value {
    json!({
        "type": "about:blank",
        "title": "Bad Request",
        "status": 400,
        "detail": detail,
        "error_class": "INVALID_ARGUMENTS",
        "category": "Validation",
        "correlation_id": ID,
        "next_steps": [FIX],
        "argument_errors": problems
    })
}

#[tokio::test]
async fn query_and_path_rejections() {
    let address = start().await;
    let cases = [
        (
            "/tables?limit=x",
            "1 problem in the arguments: /limit must be an integer, got a string",
            json!([{"path": "/limit", "kind": "wrong_type", "expected": "an integer", "received": "string"}]),
        ),
        (
            "/tables?limit=300",
            "1 problem in the arguments: /limit must be an integer from 0 to 255",
            json!([{"path": "/limit", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}]),
        ),
        (
            "/tables?limit=18446744073709551616",
            "1 problem in the arguments: /limit must be an integer from 0 to 255",
            json!([{"path": "/limit", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}]),
        ),
        (
            "/tables?lmit=3",
            "1 problem in the arguments: /lmit is not a known field (did you mean \"limit\"?)",
            json!([{"path": "/lmit", "kind": "unknown_field", "received": "string", "suggestions": ["limit"]}]),
        ),
        // The second path parameter, named, of a `Path<(String, u8)>`.
        (
            "/tables/LOCATIONS/columns/first",
            "1 problem in the arguments: /index must be an integer, got a string",
            json!([{"path": "/index", "kind": "wrong_type", "expected": "an integer", "received": "string"}]),
        ),
        (
            "/tables/LOCATIONS/columns/-1",
            "1 problem in the arguments: /index must be an integer from 0 to 255",
            json!([{"path": "/index", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}]),
        ),
    ];
    for (path, detail, problems) in cases {
        let answer = get_path(address, path).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}");
        assert_eq!(answer.headers, answer.problem_headers(None), "{path}");
        assert_eq!(answer.json(), argument_problem(detail, problems), "{path}");
    }

    // The README's answer ("HTTP"), member for member.
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("the README");
    let shown = readme
        .split_once("`GET /tables?limit=x` with `x-request-id: req-7f3a`")
        .and_then(|(_, rest)| rest.split_once("```json\n"))
        .and_then(|(_, rest)| rest.split_once("\n```"))
        .expect("the README's HTTP answer")
        .0;
    let shown: Value = serde_json::from_str(shown).expect("the README's answer is JSON");
    assert_eq!(shown, get_path(address, "/tables?limit=x").await.json());
}

/// A `Path` type that disagrees with its route is the server's mistake,
/// whatever the client sent: 500 `ROUTE_MISMATCH`, the disagreement in
/// the operator's log only.
#[tokio::test]
async fn a_path_that_disagrees_with_its_route_is_the_server_s() {
    let address = start().await;
    for path in ["/ext/mismatch/notes/7", "/ext/mismatch/strict/7/x"] {
        let answer = get_path(address, path).await;
        assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR, "{path}");
        assert_eq!(
            answer.json(),
            json!({
                "type": "about:blank",
                "title": "Internal Server Error",
                "status": 500,
                "detail": "an internal error occurred; changing the call will not help",
                "error_class": "INTERNAL",
                "code": "ROUTE_MISMATCH",
                "category": "Technical",
                "correlation_id": ID,
            }),
            "{path}"
        );
    }
}

/// `Option<Json<T>>` and `Option<Path<T>>`, as axum's: `None` when
/// nothing was sent, the same rejections otherwise.
#[tokio::test]
async fn optional_extractors() {
    let address = start().await;
    let none = send(address, "POST", "/ext/optional/body", &[], "").await;
    assert_eq!((none.status, none.body.as_str()), (StatusCode::OK, "none"));
    let some = call(address, "POST", "/ext/optional/body", r#"{"n": 7}"#).await;
    assert_eq!(
        (some.status, some.body.as_str()),
        (StatusCode::OK, "some 7")
    );
    let bad = call(address, "POST", "/ext/optional/body", r#"{"n": 700}"#).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.json()["argument_errors"][0]["kind"], "out_of_range");
    let text = send(
        address,
        "POST",
        "/ext/optional/body",
        &[("content-type", "text/plain")],
        "7",
    )
    .await;
    assert_eq!(text.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);

    let none = get_path(address, "/ext/optional/path").await;
    assert_eq!((none.status, none.body.as_str()), (StatusCode::OK, "none"));
    let some = get_path(address, "/ext/optional/path/9").await;
    assert_eq!(
        (some.status, some.body.as_str()),
        (StatusCode::OK, "some 9")
    );
    let bad = get_path(address, "/ext/optional/path/900").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        bad.json()["argument_errors"],
        json!([{"path": "/n", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}])
    );
}

/// With `jsonschema`, every problem of the query at once.
#[cfg(feature = "jsonschema")]
#[tokio::test]
async fn every_query_problem_at_once() {
    let address = start().await;
    let answer = get_path(address, "/tables?limit=300&lmit=3&prefix=J").await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer.json(),
        argument_problem(
            "2 problems in the arguments: /lmit is not a known field; /limit must be an integer from 0 to 255",
            json!([
                // `limit` was sent: it is no near miss.
                {"path": "/lmit", "kind": "unknown_field", "received": "string"},
                {"path": "/limit", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}
            ])
        )
    );
}

#[tokio::test]
async fn unknown_routes_and_methods() {
    let address = start().await;
    let answer = get_path(address, "/tabels").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.headers, answer.problem_headers(None));
    assert_eq!(
        answer.json(),
        json!({
            "type": "about:blank",
            "title": "Not Found",
            "status": 404,
            "detail": "no route answers GET \"/tabels\"",
            "error_class": "OBJECT_NOT_FOUND",
            "code": "ROUTE_NOT_FOUND",
            "category": "NotFound",
            "correlation_id": ID,
            "next_steps": ["check the request's path against the API's routes"]
        })
    );

    let answer = call(address, "DELETE", "/tables/EMPLOYEES", "").await;
    assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED);
    let mut headers = answer.problem_headers(None);
    headers.insert("allow".to_owned(), "GET,HEAD".to_owned());
    assert_eq!(answer.headers, headers);
    assert_eq!(
        answer.json(),
        json!({
            "type": "about:blank",
            "title": "Method Not Allowed",
            "status": 405,
            "detail": "this route does not answer DELETE",
            "error_class": "UNSUPPORTED",
            "code": "METHOD_NOT_ALLOWED",
            "category": "Validation",
            "correlation_id": ID,
            "next_steps": ["send the request again with one of the methods its Allow header lists"]
        })
    );
}

/// The correlation id: the client's `x-request-id`, else its
/// `traceparent`'s trace id, else generated; echoed in the header and the
/// body, and in the operator's log line.
#[tokio::test]
async fn request_id_round_trip() {
    let log = Log::capture();
    let address = start().await;
    let trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    let both = send(
        address,
        "GET",
        "/tables/EMPLOYES",
        &[("x-request-id", "req-1"), ("traceparent", trace)],
        "",
    )
    .await;
    assert_eq!(both.headers["x-request-id"], "req-1");
    assert_eq!(both.json()["correlation_id"], "req-1");

    let traced = send(
        address,
        "GET",
        "/tables/EMPLOYES",
        &[("traceparent", trace)],
        "",
    )
    .await;
    assert_eq!(
        traced.headers["x-request-id"],
        "4bf92f3577b34da6a3ce929d0e0e4736"
    );
    assert_eq!(
        traced.json()["correlation_id"],
        "4bf92f3577b34da6a3ce929d0e0e4736"
    );

    let generated = send(address, "GET", "/tables/EMPLOYES", &[], "").await;
    let id = generated.headers["x-request-id"].clone();
    let (process, n) = id.split_once('-').unwrap();
    assert_eq!(process.len(), 8);
    assert!(process.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    assert!(n.parse::<u64>().is_ok(), "{id}");
    assert_eq!(generated.json()["correlation_id"], id.as_str());

    // A success carries the id too.
    let ok = send(address, "GET", "/tables", &[("traceparent", trace)], "").await;
    assert_eq!(
        ok.headers["x-request-id"],
        "4bf92f3577b34da6a3ce929d0e0e4736"
    );

    // One log line per failure, with the id, the route and the class.
    let lines = log.lines(&["req-1", "4bf92f3577b34da6a3ce929d0e0e4736", &id]);
    let line = |id: &str| {
        format!(
            " INFO tool_call{{tool=\"GET /tables/{{table}}\" correlation_id=\"{id}\" otel.name=\"GET /tables/{{table}}\" otel.kind=\"server\" envelope.error_class=\"OBJECT_NOT_FOUND\" envelope.code=\"TABLE_NOT_FOUND\" envelope.owner=\"caller\" envelope.retryable=false envelope.effect=\"nothing\"}}: tool call failed envelope.error_class=\"OBJECT_NOT_FOUND\" envelope.code=\"TABLE_NOT_FOUND\" envelope.owner=\"caller\" envelope.effect=\"nothing\" envelope.retryable=false envelope.correlation_id=\"{id}\" exception.message=\"table EMPLOYES does not exist\" envelope.sources=[]"
        )
    };
    assert_eq!(
        lines,
        [
            line("req-1"),
            line("4bf92f3577b34da6a3ce929d0e0e4736"),
            line(&id)
        ]
    );
}

/// A server-owned class without a `message`: the class's generic text,
/// nothing of the error's `Display` (the store's host name, the OS error),
/// which the operator's log line has, with the error's source.
#[tokio::test]
async fn server_owned_body_holds_no_internals() {
    let log = Log::capture();
    let address = start().await;
    let answer = send(
        address,
        "GET",
        "/tables/EMPLOYEES/export",
        &[("x-request-id", "req-export")],
        "",
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_GATEWAY);
    assert_eq!(answer.headers, answer.headers_of(None, Some("req-export")));
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
            "correlation_id": "req-export"
        })
    );
    for internal in ["exports.internal", "9000", "refused"] {
        assert!(!answer.body.contains(internal), "{internal} leaked");
    }
    assert_eq!(
        log.lines(&["req-export"]),
        [concat!(
            "ERROR tool_call{tool=\"GET /tables/{table}/export\" correlation_id=\"req-export\" ",
            // The span, after OpenTelemetry's HTTP server conventions: a 5xx
            // is the span's error.
            "otel.name=\"GET /tables/{table}/export\" otel.kind=\"server\" ",
            "envelope.error_class=\"CONNECTION_FAILED\" envelope.code=\"STORE_OFFLINE\" envelope.owner=\"server\" ",
            "envelope.retryable=true envelope.effect=\"nothing\" error.type=\"502\" otel.status_code=\"ERROR\" ",
            "otel.status_description=\"the server could not reach a service it depends on\"}: tool call failed ",
            "envelope.error_class=\"CONNECTION_FAILED\" envelope.code=\"STORE_OFFLINE\" envelope.owner=\"server\" ",
            "envelope.effect=\"nothing\" envelope.retryable=true envelope.correlation_id=\"req-export\" ",
            "exception.message=\"export store exports.internal.example:9000 refused the connection\" ",
            "envelope.sources=[\"connection refused\"]"
        )]
    );
}

/// Every answer of the example server, good or bad, is the handler's JSON
/// or a problem details body; none holds a host name, a source path or a
/// panic message of the server.
#[tokio::test]
async fn every_request_is_answered() {
    let address = start().await;
    let requests = [
        ("GET", "/", ""),
        ("GET", "/tables/", ""),
        ("GET", "/tables/%FF", ""),
        ("GET", "/tables/EMPLOYEES/columns/99", ""),
        ("GET", "/tables/EMPLOYEES/columns/1/extra", ""),
        ("POST", "/tables", ""),
        ("PUT", "/find_column", "{}"),
        ("POST", "/find_column", "[]"),
        ("POST", "/find_column", "null"),
        (
            "POST",
            "/find_column",
            r#"{"table":1,"column":[],"case":"upper"}"#,
        ),
        ("POST", "/tables/EMPLOYEES/notes", r#"{"note":7}"#),
        ("GET", "/tables?limit=&prefix=", ""),
        ("GET", "/tables?limit=1&limit=2", ""),
        ("GET", &format!("/{}", "x".repeat(5000)), ""),
    ];
    for (method, path, body) in requests {
        let answer = call(address, method, path, body).await;
        let problem = answer.headers["content-type"] == "application/problem+json";
        assert!(
            problem || answer.status.is_success(),
            "{method} {path}: {} {}",
            answer.status,
            answer.body
        );
        if problem {
            let json = answer.json();
            assert_eq!(json["status"], answer.status.as_u16(), "{method} {path}");
            assert_eq!(json["correlation_id"], ID, "{method} {path}");
        }
        for internal in ["exports.internal", "/work/", ".rs", "panicked", "src/"] {
            assert!(
                !answer.body.contains(internal),
                "{method} {path}: {internal}"
            );
        }
        assert!(
            answer.body.len() < 2000,
            "{method} {path}: {}",
            answer.body.len()
        );
    }
}

#[tokio::test]
async fn bad_input() {
    let address = start().await;

    // Control characters: escaped by JSON, the body stays valid.
    let answer = get_path(address, "/bad/control").await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.headers, answer.headers_of(None, None));
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
    assert_eq!(answer.headers, answer.headers_of(None, None));
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
        answer.headers_of(Some("18446744073709552"), None)
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

/// Under a nested router the 404 names the whole path the client sent.
#[tokio::test]
async fn nested_router_names_the_whole_path() {
    let app = Router::new().nest("/api", http_server::app());
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let answer = get_path(address, "/api/nope").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(
        answer.json()["detail"],
        "no route answers GET \"/api/nope\""
    );
    let answer = get_path(address, "/api/tables/EMPLOYES").await;
    assert_eq!(answer.json()["code"], "TABLE_NOT_FOUND");
}

/// The host side of this server: each problem details answer read back
/// by `envelope::host::read_http` into the envelope the server answered
/// with, and the host's next move for the request's method.
#[cfg(feature = "host")]
#[tokio::test]
async fn a_host_reads_the_answers_back() {
    use envelope::NextMove;
    use envelope::host;
    use envelope::{CallBehaviour, Envelope};

    let address = start().await;
    let read = |answer: &Answer| {
        host::read_http(
            answer.status.as_u16(),
            answer.headers.get("content-type").map(String::as_str),
            answer.headers.get("retry-after").map(String::as_str),
            answer.body.as_bytes(),
        )
        .expect("a failure")
    };
    let get = CallBehaviour::from_method(&axum::http::Method::GET);
    let post = CallBehaviour::from_method(&axum::http::Method::POST);

    let busy = read(&get_path(address, "/tables/EMPLOYEES/row_count").await);
    assert_eq!(
        busy.to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"statistics of EMPLOYEES are being refreshed","next_steps":["wait retry_after_ms milliseconds, then repeat the same call"],"retry_after_ms":1500,"code":"STATS_REFRESHING","category":"Technical","retryable":true,"correlation_id":"req-7f3a","details":{"table":"EMPLOYEES"}}"#
    );
    assert_eq!(
        host::next_move(&busy, get, 1),
        NextMove::Repeat {
            after: std::time::Duration::from_millis(1500)
        }
    );

    let locked_read = read(&get_path(address, "/tables/JOB_HISTORY/row_count").await);
    assert!(matches!(
        host::next_move(&locked_read, get, 1),
        NextMove::Repeat { .. }
    ));
    let locked_write = read(
        &call(
            address,
            "POST",
            "/tables/JOB_HISTORY/notes",
            r#"{"note":"moved"}"#,
        )
        .await,
    );
    assert_eq!(locked_write.effect, envelope::Effect::Unknown);
    assert_eq!(
        host::next_move(&locked_write, post, 1),
        NextMove::Check {
            tool: None,
            arguments: None
        }
    );

    let missing = read(&get_path(address, "/tables/EMPLOYES").await);
    assert_eq!(
        host::next_move(&missing, get, 1),
        NextMove::PickNearMiss {
            names: vec![String::from("EMPLOYEES")]
        }
    );
    let bad_query = read(&get_path(address, "/tables?limit=x").await);
    assert_eq!(bad_query.argument_errors[0].path, "/limit");
    assert!(matches!(
        host::next_move(&bad_query, get, 1),
        NextMove::FixArguments { .. }
    ));
}

/// `POST /tables/{table}/keyed_notes`: one note per `Idempotency-Key`.
#[tokio::test]
async fn keyed_writes_run_once_per_key() {
    let address = start().await;
    let keyed = |key: &'static str| {
        [
            ("x-request-id", ID),
            ("content-type", "application/json"),
            ("idempotency-key", key),
        ]
    };
    let path = "/tables/LOCATIONS/keyed_notes";
    // No key: refused, saying how to send one; nothing written.
    let missing = call(address, "POST", path, r#"{"note":"n1"}"#).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    assert_eq!(missing.json()["code"], json!("IDEMPOTENCY_KEY_REQUIRED"));
    assert_eq!(
        missing.json()["next_steps"],
        json!([
            "send the request again with an Idempotency-Key header holding a new UUID, and send that same key on every repeat of this request"
        ])
    );
    // The first request with its key writes; its repeat (a structured
    // field string, the draft's form) gets the first answer again.
    let first = send(address, "POST", path, &keyed("k-1"), r#"{"note":"n1"}"#).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.body, r#"{"table":"LOCATIONS","notes":["n1"]}"#);
    assert_eq!(first.headers.get("idempotent-replayed"), None);
    let repeat = send(
        address,
        "POST",
        path,
        &keyed("\"k-1\""),
        r#"{ "note": "n1" }"#,
    )
    .await;
    assert_eq!(repeat.status, StatusCode::OK);
    assert_eq!(repeat.body, first.body);
    assert_eq!(
        repeat
            .headers
            .get("idempotent-replayed")
            .map(String::as_str),
        Some("true")
    );
    // The key with another note: 422, nothing written.
    let reused = send(address, "POST", path, &keyed("k-1"), r#"{"note":"n2"}"#).await;
    assert_eq!(reused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reused.json()["code"], json!("IDEMPOTENCY_KEY_REUSED"));
    // A new key writes the second note: the first was written once.
    let second = send(address, "POST", path, &keyed("k-2"), r#"{"note":"n2"}"#).await;
    assert_eq!(second.body, r#"{"table":"LOCATIONS","notes":["n1","n2"]}"#);
    // A locked table's failure may have run: retryable with its key, the
    // first step says so, and its repeat gets the same stored answer.
    let locked = send(
        address,
        "POST",
        "/tables/JOB_HISTORY/keyed_notes",
        &keyed("k-3"),
        r#"{"note":"n3"}"#,
    )
    .await;
    assert_eq!(locked.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(locked.json()["retryable"], json!(true));
    assert_eq!(
        locked.json()["next_steps"][0],
        json!(
            "repeat the same call with the same idempotency key: the server runs it at most once"
        )
    );
    let again = send(
        address,
        "POST",
        "/tables/JOB_HISTORY/keyed_notes",
        &keyed("k-3"),
        r#"{"note":"n3"}"#,
    )
    .await;
    assert_eq!(again.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        again.headers.get("idempotent-replayed").map(String::as_str),
        Some("true")
    );
    // A key that is not one.
    let bad = send(address, "POST", path, &keyed("a b"), r#"{"note":"n4"}"#).await;
    assert_eq!(bad.json()["code"], json!("IDEMPOTENCY_KEY_INVALID"));
}

/// A keyed write whose client hangs up before the answer (after the note
/// was written): the handler runs on, its answer is stored, and the
/// client's repeat with the same key gets it. One note.
#[tokio::test]
async fn a_keyed_write_survives_its_client_hanging_up() {
    use std::time::Duration;
    use tokio::io::AsyncWriteExt;
    let address = start().await;
    let body = r#"{"note":"reviewed"}"#;
    let request = format!(
        "POST /tables/DEPARTMENTS/keyed_notes HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\nidempotency-key: k-hangup\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    drop(stream);
    // While the first still runs, the key is in use.
    let headers = [
        ("content-type", "application/json"),
        ("idempotency-key", "k-hangup"),
    ];
    let busy = send(
        address,
        "POST",
        "/tables/DEPARTMENTS/keyed_notes",
        &headers,
        body,
    )
    .await;
    assert_eq!(busy.status, StatusCode::CONFLICT);
    assert_eq!(busy.json()["code"], json!("IDEMPOTENCY_KEY_IN_USE"));
    assert_eq!(
        busy.headers.get("retry-after").map(String::as_str),
        Some("1")
    );
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let repeat = send(
        address,
        "POST",
        "/tables/DEPARTMENTS/keyed_notes",
        &headers,
        body,
    )
    .await;
    assert_eq!(repeat.status, StatusCode::OK);
    assert_eq!(
        repeat.body,
        r#"{"table":"DEPARTMENTS","notes":["reviewed"]}"#
    );
    assert_eq!(
        repeat
            .headers
            .get("idempotent-replayed")
            .map(String::as_str),
        Some("true")
    );
}

/// The keys of an HTTP route in SQLite: a server started after the first
/// request (a new router, a new store, the same file) answers its repeat
/// with the stored response; the handler ran once.
#[cfg(feature = "rusqlite")]
#[tokio::test]
async fn keyed_routes_with_sqlite_keys_replay_after_a_restart() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use axum::extract::State;
    use axum::routing::post;
    use envelope::axum::{Keys, RouterExt, keyed};
    use envelope::idempotency::SqliteStore;

    let dir = std::env::temp_dir().join(format!("envelope-http-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let keys = dir.join("keys.db");
    let _ = std::fs::remove_file(&keys);
    let writes = Arc::new(AtomicU32::new(0));
    async fn write(State(writes): State<Arc<AtomicU32>>) -> String {
        format!("write {}", writes.fetch_add(1, Ordering::SeqCst) + 1)
    }
    let serve = |writes: Arc<AtomicU32>| {
        let app = Router::new()
            .route(
                "/writes",
                post(write).route_layer(axum::middleware::from_fn_with_state(
                    Keys::required(SqliteStore::open(&keys).unwrap()),
                    keyed,
                )),
            )
            .with_state(writes)
            .answer_failures();
        async move {
            let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
                .await
                .unwrap();
            let address = listener.local_addr().unwrap();
            let server = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
            (address, server)
        }
    };
    let headers = [("idempotency-key", "k-restart")];
    let (first_server, task) = serve(writes.clone()).await;
    let first = send(first_server, "POST", "/writes", &headers, "{}").await;
    assert_eq!(first.body, "write 1");
    task.abort();
    let (second_server, _task) = serve(writes.clone()).await;
    let again = send(second_server, "POST", "/writes", &headers, "{}").await;
    assert_eq!(again.body, "write 1");
    assert_eq!(
        again.headers.get("idempotent-replayed").map(String::as_str),
        Some("true")
    );
    assert_eq!(writes.load(Ordering::SeqCst), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What a keyed route's answer may be: bytes, a body too large to keep, a
/// panic; and a key sent to another resource or with other bytes.
#[tokio::test]
async fn keyed_routes_keep_or_refuse_what_they_cannot_replay() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use axum::extract::State;
    use axum::routing::post;
    use envelope::axum::{Keys, RouterExt, keyed};
    use envelope::idempotency::MemoryStore;

    let runs = Arc::new(AtomicU32::new(0));
    async fn bytes(State(runs): State<Arc<AtomicU32>>) -> Vec<u8> {
        let n = runs.fetch_add(1, Ordering::SeqCst) + 1;
        vec![0xff, 0xfe, u8::try_from(n).unwrap()]
    }
    async fn big(State(runs): State<Arc<AtomicU32>>) -> String {
        runs.fetch_add(1, Ordering::SeqCst);
        "x".repeat(3 * 1024 * 1024)
    }
    async fn panics(State(runs): State<Arc<AtomicU32>>) -> String {
        runs.fetch_add(1, Ordering::SeqCst);
        panic!("the handler's bug")
    }
    let layer = || axum::middleware::from_fn_with_state(Keys::required(MemoryStore::new()), keyed);
    let app = Router::new()
        .route("/bytes/{n}", post(bytes).route_layer(layer()))
        .route("/big", post(big).route_layer(layer()))
        .route("/panics", post(panics).route_layer(layer()))
        .with_state(runs.clone())
        .answer_failures();
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let key = |key: &'static str| [("idempotency-key", key)];
    // A body that is not UTF-8, answered twice: stored as it was.
    let raw = |path: &'static str, key: &'static str, body: &'static [u8]| async move {
        let stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .unwrap();
        tokio::spawn(connection);
        let request = Request::builder()
            .method("POST")
            .uri(path)
            .header("host", address.to_string())
            .header("idempotency-key", key)
            .body(Full::new(Bytes::from_static(body)))
            .unwrap();
        let response = sender.send_request(request).await.unwrap();
        let (parts, body) = response.into_parts();
        (parts, body.collect().await.unwrap().to_bytes())
    };
    let (first, body) = raw("/bytes/1", "b-1", b"\xff").await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(body.as_ref(), [0xff, 0xfe, 1]);
    let (again, body) = raw("/bytes/1", "b-1", b"\xff").await;
    assert_eq!(body.as_ref(), [0xff, 0xfe, 1]);
    assert_eq!(again.headers["idempotent-replayed"], "true");
    // Other bytes, or another resource, with the key: refused.
    let (other, _) = raw("/bytes/1", "b-1", b"\xfe").await;
    assert_eq!(other.status, StatusCode::UNPROCESSABLE_ENTITY);
    let (elsewhere, _) = raw("/bytes/2", "b-1", b"\xff").await;
    assert_eq!(elsewhere.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // Too large to keep: sent whole, and not run again.
    let first = send(address, "POST", "/big", &key("g-1"), "").await;
    assert_eq!(first.body.len(), 3 * 1024 * 1024);
    let again = send(address, "POST", "/big", &key("g-1"), "").await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.json()["code"], json!("IDEMPOTENCY_ANSWER_NOT_KEPT"));
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    // A panic: problem details, then and on the repeat; run once.
    let first = send(address, "POST", "/panics", &key("p-1"), "").await;
    assert_eq!(first.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(first.json()["code"], json!("IDEMPOTENCY_HANDLER_FAILED"));
    let again = send(address, "POST", "/panics", &key("p-1"), "").await;
    assert_eq!(again.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(again.json()["code"], json!("IDEMPOTENCY_HANDLER_FAILED"));
    assert_eq!(runs.load(Ordering::SeqCst), 3);
}

/// A keyed request whose lease runs out with no response (its server hung
/// or died mid-request): a `POST`'s repeat is told the outcome is unknown
/// and which tool checks, then and on every repeat, the same as over MCP;
/// a `PUT` (idempotent by HTTP's rules) runs again.
#[tokio::test]
async fn a_lease_that_runs_out_is_an_unknown_outcome_over_http() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::time::Duration;

    use axum::extract::State;
    use axum::routing::{post, put};
    use envelope::axum::{Keys, RouterExt, keyed};
    use envelope::idempotency::MemoryStore;

    let runs = Arc::new(AtomicU32::new(0));
    async fn slow(State(runs): State<Arc<AtomicU32>>) -> String {
        let run = runs.fetch_add(1, Ordering::SeqCst) + 1;
        tokio::time::sleep(Duration::from_millis(400)).await;
        format!("run {run}")
    }
    let layer = || {
        let store = MemoryStore::new().with_lease(Duration::from_millis(50));
        axum::middleware::from_fn_with_state(Keys::required(store).check_with("list_notes"), keyed)
    };
    let app = Router::new()
        .route("/notes", post(slow).route_layer(layer()))
        .route("/notes/n-1", put(slow).route_layer(layer()))
        .with_state(runs.clone())
        .answer_failures();
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let key = [("idempotency-key", "k-lease")];
    let first = tokio::spawn(async move { send(address, "POST", "/notes", &key, "").await });
    tokio::time::sleep(Duration::from_millis(150)).await;
    let repeat = send(address, "POST", "/notes", &key, "").await;
    assert_eq!(repeat.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(repeat.json()["code"], json!("IDEMPOTENCY_OUTCOME_UNKNOWN"));
    assert_eq!(repeat.json()["error_class"], json!("INTERNAL"));
    assert_eq!(repeat.json()["effect"], json!("unknown"));
    assert_eq!(repeat.json()["suggested_tool"], json!("list_notes"));
    assert_eq!(
        repeat.json()["detail"],
        json!(
            "the server stopped while it ran the call with this idempotency key; whether it took effect is unknown"
        )
    );
    // The first request still gets its own response; it is not stored.
    assert_eq!(first.await.unwrap().body, "run 1");
    let again = send(address, "POST", "/notes", &key, "").await;
    assert_eq!(again.json()["code"], json!("IDEMPOTENCY_OUTCOME_UNKNOWN"));
    assert_eq!(
        again.headers.get("idempotent-replayed").map(String::as_str),
        Some("true")
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // A PUT runs again after its lease, and its late first is fenced off.
    let first = tokio::spawn(async move { send(address, "PUT", "/notes/n-1", &key, "").await });
    tokio::time::sleep(Duration::from_millis(150)).await;
    let repeat = send(address, "PUT", "/notes/n-1", &key, "").await;
    assert_eq!(
        (repeat.status, repeat.body.as_str()),
        (StatusCode::OK, "run 3")
    );
    assert_eq!(first.await.unwrap().body, "run 2");
    let again = send(address, "PUT", "/notes/n-1", &key, "").await;
    assert_eq!(again.body, "run 3");
}
