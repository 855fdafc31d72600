//! Reading an HTTP response: RFC 9457 problem details, or a bare status.

use std::time::SystemTime;

use serde_json::{Map, Value};

use super::bound::{bound, cut};
use super::{ours, validation};
#[cfg(feature = "http")]
use crate::call::rate_limit::Signals;
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// The failure an HTTP response reports, or `None` for a status below 400.
/// `retry_after` is the `Retry-After` header's value, `content_type` the
/// `Content-Type`'s, both as sent.
///
/// - A JSON body (`application/problem+json`, or any JSON object with a
///   member of problem details or of a validation report below) is read
///   as problem details (RFC 9457): the envelope's own members read back
///   (`error_class`, `code`, `argument_errors`, ...: this crate's problem
///   details are lossless), `detail` as the message (else `title`, else
///   the argument problems' summary), and without an `error_class` the
///   status's class ([`ErrorClass::from_http_status`]); `instance` is the
///   correlation id when none is given.
/// - Other frameworks' validation reports become `argument_errors`, with
///   JSON Pointer paths, when the body has none of its own:
///
///   | member | framework | problem |
///   |---|---|---|
///   | `errors: [{"pointer": "#/age", "detail": "..."}]` | RFC 9457 | at the pointer |
///   | `errors: {"Title": ["..."]}`, `errors: {"address.city": "..."}` | ASP.NET's `ValidationProblemDetails`, Spring | at the property (`items[0].name` is `/items/0/name`; its case kept) |
///   | `invalid-params: [{"name": "age", "reason": "..."}]` | RFC 7807 | at the property |
///   | `detail: [{"loc": ["body", "id"], "msg": "...", "type": "..."}]` | FastAPI (pydantic) | at `loc` without its first token (`body`, `query`, ...) and without pydantic's union-member tokens (`int`, `list[int]`) |
///   | `issues: [...]`, `error.issues: [...]` | zod 3 and 4 | at `path` |
///
///   A problem stated in words is `missing` when they say "required",
///   else `other` with what they say the value must be.
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
                if PROBLEM_MEMBERS
                    .iter()
                    .any(|member| map.contains_key(*member)) =>
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
    Some(bound(envelope))
}

/// The members that make a JSON body problem details (or a validation
/// report read as one).
const PROBLEM_MEMBERS: [&str; 8] = [
    "status",
    "title",
    "detail",
    "error_class",
    "errors",
    "invalid-params",
    "issues",
    "error",
];

/// [`read_http`] for an `http::Response` (features `host` and `http`),
/// which on a `429` also reads the rate-limit fields of the IETF draft
/// SEP-3304 points to ([`crate::rate_limit`]): the policy that ran out
/// is the `RateLimit` item with `r=0` (the longest `t` of several), and
/// without a wait in the body or in `Retry-After` its `t` (seconds) is
/// the wait; its `r` is `details.remaining` and the `q` of the
/// `RateLimit-Policy` item of the same name `details.limit`, unless the
/// body gave them. On other statuses the fields only describe the quota
/// and are not read.
#[cfg(feature = "http")]
#[must_use]
pub fn read_http_response<B: AsRef<[u8]>>(response: &http::Response<B>) -> Option<ErrorEnvelope> {
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
    };
    let envelope = read_http(
        response.status().as_u16(),
        header("content-type"),
        header("retry-after"),
        response.body().as_ref(),
    )?;
    if response.status() != http::StatusCode::TOO_MANY_REQUESTS {
        return Some(envelope);
    }
    // A list field's lines are one list (RFC 9110, section 5.3).
    let list = |name: &str| {
        let lines: Vec<&str> = response
            .headers()
            .get_all(name)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .collect();
        (!lines.is_empty()).then(|| lines.join(", "))
    };
    let (limit, policy) = (list("ratelimit"), list("ratelimit-policy"));
    let signals = Signals::of_http_fields(limit.as_deref(), policy.as_deref());
    Some(signals.apply(envelope))
}

/// The envelope of a problem details object.
fn problem_details(mut problem: Map<String, Value>, class: ErrorClass) -> ErrorEnvelope {
    let problems = if problem.contains_key("argument_errors") {
        Vec::new()
    } else {
        validation::problems(&problem)
    };
    let message = ["detail", "title"]
        .iter()
        .find_map(|key| problem.get(*key).and_then(Value::as_str))
        .map(cut);
    let message = match message {
        Some(message) => message,
        None if !problems.is_empty() => crate::args::invalid_arguments(problems.clone())
            .message
            .clone(),
        None => String::from(class.generic_message()),
    };
    for key in ["errors", "invalid-params", "issues", "error"] {
        problem.remove(key);
    }
    if !problems.is_empty() {
        problem.insert(
            String::from("argument_errors"),
            serde_json::to_value(&problems).unwrap_or_default(),
        );
    }
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
        ErrorEnvelope::new(class, message).with_argument_errors(problems)
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
