// The cases of `tests/reqwest_errors.rs`, included by it and by
// `versions/reqwest012` after each names its integration module
// `integration` (`envelope::reqwest`, `envelope::reqwest012`).

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use envelope::{Effect, Envelope, ErrorClass};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A server that answers each path with a fixed response, after a delay
/// for `/slow`.
async fn start() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (mut stream, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                let mut request = vec![0; 4096];
                let n = stream.read(&mut request).await.unwrap_or(0);
                let request = String::from_utf8_lossy(&request[..n]).into_owned();
                let target = request.split(' ').nth(1).unwrap_or("/");
                let path = target.split('?').next().unwrap_or("/").to_owned();
                let (status, headers) = match path.as_str() {
                    "/missing" => ("404 Not Found", ""),
                    "/limited" => ("429 Too Many Requests", "retry-after: 7\r\n"),
                    "/unavailable" => ("503 Service Unavailable", ""),
                    "/slow" => {
                        tokio::time::sleep(Duration::from_secs(5)).await;
                        ("200 OK", "")
                    }
                    _ => ("200 OK", ""),
                };
                let answer = format!(
                    "HTTP/1.1 {status}\r\n{headers}content-length: 2\r\nconnection: close\r\n\r\nok"
                );
                let _ = stream.write_all(answer.as_bytes()).await;
            });
        }
    });
    address
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap()
}

#[tokio::test]
async fn error_statuses() {
    let address = start().await;
    let get = |path: &str| {
        client()
            .get(format!("http://{address}{path}?token=secret"))
            .send()
    };

    let ok = get("/ok").await.unwrap();
    assert!(integration::error_for_status(ok).is_ok());

    let missing = integration::error_for_status(get("/missing").await.unwrap()).unwrap_err();
    assert_eq!(
        missing.to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"the upstream service answered 404 Not Found","code":"UPSTREAM_STATUS","category":"NotFound","details":{"status":404}}"#
    );

    let limited = integration::error_for_status(get("/limited").await.unwrap()).unwrap_err();
    assert_eq!(
        limited.to_json_string(),
        r#"{"isError":true,"error_class":"RATE_LIMITED","message":"the upstream service answered 429 Too Many Requests","retry_after_ms":7000,"code":"UPSTREAM_STATUS","category":"Technical","retryable":true,"details":{"status":429}}"#
    );

    let unavailable =
        integration::error_for_status(get("/unavailable").await.unwrap()).unwrap_err();
    assert_eq!(unavailable.error_class, ErrorClass::Transient);
    assert_eq!(unavailable.effect, Effect::Unknown);
    assert!(!unavailable.retryable);
    assert_eq!(unavailable.message, ErrorClass::Transient.generic_message());

    // reqwest's own `error_for_status`: the same class, without the hint.
    let error = get("/limited")
        .await
        .unwrap()
        .error_for_status()
        .unwrap_err();
    assert_eq!(error.error_class(), ErrorClass::RateLimited);
    assert_eq!(error.to_envelope().details["status"], 429);
    for json in [missing.to_json_string(), error.to_json_string()] {
        assert!(
            !json.contains("secret") && !json.contains("127.0.0.1"),
            "{json}"
        );
    }
}

#[tokio::test]
async fn a_timeout_after_sending_may_have_taken_effect() {
    let address = start().await;
    let error = client()
        .post(format!("http://{address}/slow"))
        .send()
        .await
        .unwrap_err();
    assert!(error.is_timeout());
    assert_eq!(
        error.to_json_string(),
        r#"{"isError":true,"error_class":"TIMEOUT","message":"the operation timed out","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"UPSTREAM_TIMEOUT","category":"Technical","effect":"unknown"}"#
    );
}

#[tokio::test]
async fn a_refused_connection_sent_nothing() {
    // A port that was free a moment ago: nothing listens there.
    let free = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let address = free.local_addr().unwrap();
    drop(free);
    let error = client()
        .post(format!("http://{address}/notes"))
        .send()
        .await
        .unwrap_err();
    assert!(error.is_connect());
    assert_eq!(
        error.to_json_string(),
        r#"{"isError":true,"error_class":"CONNECTION_FAILED","message":"the server could not reach a service it depends on","code":"UPSTREAM_CONNECT","category":"Technical","retryable":true}"#
    );
}
