//! Reading an HTTP response: RFC 9457 problem details, or a bare status.

use std::time::SystemTime;

use serde_json::{Map, Value};

use super::{cut, ours};
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// The failure an HTTP response reports, or `None` for a status below 400.
/// `retry_after` is the `Retry-After` header's value, `content_type` the
/// `Content-Type`'s, both as sent.
///
/// - A JSON body (`application/problem+json`, or any JSON object with a
///   `status` or `detail` member) is read as problem details (RFC 9457):
///   the envelope's own members read back (`error_class`, `code`,
///   `argument_errors`, ...: this crate's problem details are
///   lossless), `detail` as the message (else `title`), and without an
///   `error_class` the status's class ([`ErrorClass::from_http_status`]);
///   `instance` is the correlation id when none is given.
/// - Any other body: the status's class, the message `the server answered
///   <status>` (the body is not shown: it may be an HTML page).
/// - `Retry-After` (delay-seconds, or an HTTP date, RFC 9110 section
///   10.2.3) sets `retry_after_ms` when the body did not.
#[must_use]
pub fn read_http(
    status: u16,
    content_type: Option<&str>,
    retry_after: Option<&str>,
    body: &[u8],
) -> Option<ErrorEnvelope> {
    if status < 400 {
        return None;
    }
    let class = ErrorClass::from_http_status(status);
    let json = content_type.is_none_or(|kind| kind.to_ascii_lowercase().contains("json"));
    let problem = json
        .then(|| serde_json::from_slice::<Value>(body).ok())
        .flatten()
        .and_then(|value| match value {
            Value::Object(map)
                if map.contains_key("status")
                    || map.contains_key("detail")
                    || map.contains_key("error_class") =>
            {
                Some(map)
            }
            _ => None,
        });
    let mut envelope = match problem {
        Some(problem) => problem_details(problem, class),
        None => ErrorEnvelope::new(
            class,
            format!("the server answered {}", status_text(status)),
        ),
    };
    if envelope.retry_after_ms.is_none()
        && let Some(wait) = retry_after
            .and_then(|value| crate::model::lenient::retry_after(value, SystemTime::now()))
    {
        envelope = envelope.with_retry_after_ms(crate::model::envelope::duration_ms(wait));
    }
    Some(envelope)
}

/// [`read_http`] for an `http::Response` (features `host` and `http`).
#[cfg(feature = "http")]
#[must_use]
pub fn read_http_response<B: AsRef<[u8]>>(response: &http::Response<B>) -> Option<ErrorEnvelope> {
    let header = |name: http::header::HeaderName| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
    };
    read_http(
        response.status().as_u16(),
        header(http::header::CONTENT_TYPE),
        header(http::header::RETRY_AFTER),
        response.body().as_ref(),
    )
}

/// The envelope of a problem details object.
fn problem_details(mut problem: Map<String, Value>, class: ErrorClass) -> ErrorEnvelope {
    let message = ["detail", "title"]
        .iter()
        .find_map(|key| problem.get(*key).and_then(Value::as_str))
        .map_or_else(|| String::from(class.generic_message()), cut);
    problem.insert(String::from("message"), Value::from(message));
    if !problem.contains_key("error_class") {
        problem.insert(String::from("error_class"), Value::from(class.as_str()));
    }
    if !problem.contains_key("correlation_id")
        && let Some(instance) = problem.get("instance").cloned()
    {
        problem.insert(String::from("correlation_id"), instance);
    }
    let type_uri = problem
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_owned);
    for key in ["type", "title", "status", "detail", "instance"] {
        problem.remove(key);
    }
    if !problem.contains_key("help_url")
        && let Some(uri) = type_uri.filter(|uri| uri != "about:blank")
    {
        problem.insert(String::from("help_url"), Value::from(uri));
    }
    let value = Value::Object(problem);
    ours(&value).unwrap_or_else(|| {
        let message = value["message"].as_str().unwrap_or_default().to_owned();
        ErrorEnvelope::new(class, message)
    })
}

/// `503 Service Unavailable`, or the number alone for a status without a
/// reason phrase.
fn status_text(status: u16) -> String {
    #[cfg(feature = "http")]
    if let Some(reason) = http::StatusCode::from_u16(status)
        .ok()
        .and_then(|status| status.canonical_reason())
    {
        return format!("{status} {reason}");
    }
    status.to_string()
}
