//! RFC 9457 problem details (`application/problem+json`) for an error
//! envelope, and the HTTP response that carries them (feature `http`).
//!
//! The envelope's serde form is the source: the problem object is the
//! standard members of RFC 9457 §3.1 followed by the envelope's own keys as
//! extension members (§3.2), minus the keys that became standard members.
//!
//! | member | value |
//! |---|---|
//! | `type` | the envelope's `help_url` when it is a URI (RFC 3986 §3: it has a scheme), else `"about:blank"` |
//! | `title` | with `"about:blank"`: the status's reason phrase (`"Not Found"`); else the class's title (table on [`ProblemDetails::title`]) |
//! | `status` | the class's HTTP status, [`ErrorClass::http_status`] |
//! | `detail` | the envelope's `message`, as it is |
//! | `instance` | the `correlation_id` when it is a URI (`urn:uuid:...`); left out otherwise |
//! | extension members | every other key of the envelope's wire form, with its name and value: `error_class`, `code`, `ora_code`, `suggested_tool`, `fuzzy_matches`, `next_steps`, `retry_after_ms`, `category`, `retryable`, `effect`, `details`, `argument_errors`, and `help_url` / `correlation_id` when they are not URIs; each only when the envelope has it |
//!
//! `isError` is left out: the status says it is an error. The public path
//! to the object is [`Envelope::to_problem_details`](crate::Envelope::to_problem_details);
//! [`http_response`] adds the headers. Why each member is what it is:
//!
//! - `type`: RFC 9457 §3.1.1 makes `type` a URI reference that identifies
//!   the problem type, resolved against the document's base URI when
//!   relative, and recommends absolute URIs. A `help_url` that is a URI
//!   (it has a scheme: `https://...`, `urn:...`) becomes the `type`. One
//!   that is not (`/docs/errors#busy`, `see the wiki`) would be resolved
//!   against the request's URL, or is no URI at all, so it stays in the
//!   `help_url` extension member as it is and `type` is `"about:blank"`.
//! - `title`: see [`ProblemDetails::title`] (RFC 9457 §3.1.3, §4.2.1).
//! - `instance`: RFC 9457 §3.1.5 makes it a URI reference too. A
//!   correlation id is usually a bare token (`req-7f3a`), which as a
//!   relative reference would resolve to a path under the request's URL
//!   that names nothing; such an id stays in the `correlation_id`
//!   extension member, and only an id that is a URI becomes `instance`.
//! - Extension members (RFC 9457 §3.2): every name of the envelope's wire
//!   form starts with a letter, has at least three characters and holds
//!   only ASCII letters, digits and `_`, as §3.2 recommends; clients
//!   ignore the members they do not know.
//! - `detail` is the message unchanged: JSON escapes control characters
//!   (`"\n"`, `"\u0000"`), and no header carries it.
//!
//! The words of a tool call are replaced by HTTP's: the next step of an
//! [`args`](crate::args) envelope says to send the request again, not to
//! call the tool again with its `inputSchema`.

use std::borrow::Cow;

use http::header::{CONTENT_TYPE as CONTENT_TYPE_HEADER, HeaderValue, RETRY_AFTER};
use http::{Response, StatusCode};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::model::argument_error::http_words;
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// The media type of a problem details body, registered by RFC 9457 §6.1.
pub const CONTENT_TYPE: &str = "application/problem+json";

/// The `type` of a problem that has no type URI of its own (RFC 9457
/// §4.2.1): "the problem has no additional semantics beyond that of the
/// HTTP status code".
pub const ABOUT_BLANK: &str = "about:blank";

/// An RFC 9457 problem details object, as
/// [`Envelope::to_problem_details`](crate::Envelope::to_problem_details)
/// builds it from an envelope.
///
/// Wire form (serde): a JSON object with `type`, `title`, `status`,
/// `detail`, then `instance` when set, then the extension members;
/// for example (not-found, with the envelope's keys):
///
/// ```json
/// {"type":"about:blank","title":"Not Found","status":404,
///  "detail":"table EMPLOYES does not exist",
///  "category":"NotFound","code":"TABLE_NOT_FOUND",
///  "details":{"table":"EMPLOYES"},"error_class":"OBJECT_NOT_FOUND",
///  "fuzzy_matches":["EMPLOYEES"],"suggested_tool":"list_tables"}
/// ```
///
/// The extension members are in the order of `serde_json`'s `Map`:
/// sorted by name, or the envelope's order when `serde_json`'s
/// `preserve_order` feature is on. JSON readers do not depend on it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProblemDetails {
    /// A URI reference that identifies the problem type (RFC 9457 §3.1.1):
    /// the envelope's `help_url` when it is a URI, else
    /// [`ABOUT_BLANK`].
    #[serde(rename = "type")]
    pub problem_type: String,
    /// A short summary of the problem type that does not change from one
    /// occurrence to the next (RFC 9457 §3.1.3).
    ///
    /// With `type` [`ABOUT_BLANK`] it is the status's reason phrase, as RFC
    /// 9457 §4.2.1 says it SHOULD be (`http::StatusCode::canonical_reason`:
    /// `"Not Found"`, `"Too Many Requests"`). With a type URI of the
    /// envelope's, and for 499, which has no registered phrase, it is the
    /// class's title:
    ///
    /// | class | title |
    /// |---|---|
    /// | `InvalidArguments` | Invalid arguments |
    /// | `SyntaxError` | Syntax error |
    /// | `RuntimeError` | Runtime error |
    /// | `ObjectNotFound` | Object not found |
    /// | `AlreadyExists` | Already exists |
    /// | `PreconditionFailed` | Precondition failed |
    /// | `Conflict` | Conflict |
    /// | `Unauthenticated` | Unauthenticated |
    /// | `InteractionRequired` | Interaction required |
    /// | `InsufficientPrivilege` | Insufficient privilege |
    /// | `PolicyDenied` | Denied by policy |
    /// | `Unsupported` | Unsupported |
    /// | `RateLimited` | Rate limited |
    /// | `QuotaExceeded` | Quota exceeded |
    /// | `Busy` | Server busy |
    /// | `Timeout` | Timeout |
    /// | `Transient` | Temporary failure |
    /// | `ConnectionFailed` | Connection failed |
    /// | `Cancelled` | Cancelled |
    /// | `Internal` | Internal error |
    /// | `Unknown` | Unknown error |
    pub title: Cow<'static, str>,
    /// The HTTP status code (RFC 9457 §3.1.2), from 100 to 999: the
    /// class's, [`ErrorClass::http_status`].
    pub status: u16,
    /// The occurrence explained for its reader (RFC 9457 §3.1.4): the
    /// envelope's `message`.
    pub detail: String,
    /// A URI reference that identifies this occurrence (RFC 9457 §3.1.5):
    /// the envelope's `correlation_id` when it is a URI. Left out of the
    /// wire when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// The extension members (RFC 9457 §3.2), flattened into the object:
    /// the envelope's other wire keys with their values. A key must not be
    /// one of the five standard member names.
    #[serde(flatten)]
    pub extensions: Map<String, Value>,
}

impl ProblemDetails {
    /// The status as the `http` crate's type. A `status` outside 100-999
    /// (only possible when set by hand) gives 500.
    #[must_use]
    pub fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }
}

/// [`ErrorClass::http_status`] as the `http` crate's [`StatusCode`]:
/// `ObjectNotFound` is `404 Not Found`, `Unknown` (a class from a newer
/// peer) `500 Internal Server Error`, `Cancelled` 499, which has no
/// registered reason phrase.
pub(crate) fn status_of(class: ErrorClass) -> StatusCode {
    // Every class's status is in 100-999, so the fallback is never taken.
    StatusCode::from_u16(class.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The problem details of `envelope`: see the module documentation.
#[must_use]
pub(crate) fn problem_details(envelope: &ErrorEnvelope) -> ProblemDetails {
    details_with_status(envelope, status_of(envelope.error_class))
}

/// `problem_details` for a response whose status is `status`, which may
/// differ from the class's (a `415` of the JSON extractor, a status a
/// handler set on the response).
pub(crate) fn details_with_status(envelope: &ErrorEnvelope, status: StatusCode) -> ProblemDetails {
    let mut extensions = match envelope.to_json() {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    extensions.remove("isError");
    extensions.remove("message");
    if let Some(Value::Array(steps)) = extensions.get_mut("next_steps") {
        for step in steps {
            if let Some(words) = step.as_str().and_then(http_words) {
                *step = Value::from(words);
            }
        }
    }
    let problem_type = match envelope.help_url.as_deref().filter(|url| is_uri(url)) {
        Some(url) => {
            extensions.remove("help_url");
            url.to_owned()
        }
        None => String::from(ABOUT_BLANK),
    };
    let instance = envelope
        .correlation_id
        .as_deref()
        .filter(|id| is_uri(id))
        .map(|id| {
            extensions.remove("correlation_id");
            id.to_owned()
        });
    let title = match status.canonical_reason() {
        Some(phrase) if problem_type == ABOUT_BLANK => phrase,
        _ => ErrorClass::title(envelope.error_class),
    };
    ProblemDetails {
        problem_type,
        title: Cow::Borrowed(title),
        status: status.as_u16(),
        detail: envelope.message.clone(),
        instance,
        extensions,
    }
}

/// The HTTP response for `envelope`, for any framework built on the `http`
/// crate (axum's `IntoResponse` uses it):
///
/// - status: the class's ([`ErrorClass::http_status`]);
/// - `Content-Type: application/problem+json` (RFC 9457 §3);
/// - `Retry-After` (RFC 9110 §10.2.3, delay in seconds) when the envelope
///   has a retry hint: `retry_after_ms` in whole seconds, rounded up
///   (`1500` ms is `2`, `0` is `0`), computed without overflow
///   (`u64::MAX` ms is `18446744073709552`);
/// - body: the problem details as compact JSON.
#[must_use]
pub fn http_response(envelope: &ErrorEnvelope) -> Response<String> {
    response_with_status(envelope, status_of(envelope.error_class))
}

/// [`http_response`] with `status` instead of the class's.
pub(crate) fn response_with_status(
    envelope: &ErrorEnvelope,
    status: StatusCode,
) -> Response<String> {
    let problem = details_with_status(envelope, status);
    // Strings, numbers and JSON values always serialize; the fallback is
    // never taken, and is a valid problem object all the same.
    let body = serde_json::to_string(&problem).unwrap_or_else(|_| {
        String::from(r#"{"type":"about:blank","title":"Internal Server Error","status":500}"#)
    });
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE_HEADER, HeaderValue::from_static(CONTENT_TYPE));
    if let Some(ms) = envelope.retry_after_ms {
        headers.insert(RETRY_AFTER, HeaderValue::from(ms.div_ceil(1000)));
    }
    response
}

/// Whether `text` is a URI (RFC 3986 §3: a scheme, `:`, then only URI
/// characters), not a relative reference or free text.
fn is_uri(text: &str) -> bool {
    fluent_uri::Uri::parse(text).is_ok()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{ArgumentError, ArgumentErrorKind, Effect, UserErrorCategory};

    fn body(envelope: &ErrorEnvelope) -> String {
        serde_json::to_string(&problem_details(envelope)).unwrap()
    }

    #[test]
    fn not_found_with_about_blank() {
        let envelope =
            ErrorEnvelope::new(ErrorClass::ObjectNotFound, "table EMPLOYES does not exist")
                .with_code("TABLE_NOT_FOUND")
                .with_suggested_tool("list_tables")
                .with_fuzzy_matches(vec!["EMPLOYEES".into()])
                .with_detail("table", "EMPLOYES");
        assert_eq!(
            body(&envelope),
            concat!(
                r#"{"type":"about:blank","title":"Not Found","status":404,"#,
                r#""detail":"table EMPLOYES does not exist","#,
                r#""category":"NotFound","code":"TABLE_NOT_FOUND","details":{"table":"EMPLOYES"},"#,
                r#""error_class":"OBJECT_NOT_FOUND","fuzzy_matches":["EMPLOYEES"],"#,
                r#""suggested_tool":"list_tables"}"#
            )
        );
    }

    /// Every field of the envelope, set: a struct literal, so a new field
    /// fails to compile here until its member is decided.
    fn full(help_url: &str, correlation_id: &str) -> ErrorEnvelope {
        ErrorEnvelope(Box::new(crate::EnvelopeFields {
            is_error: true,
            error_class: ErrorClass::Timeout,
            message: String::from("deadline passed"),
            ora_code: Some(1013),
            suggested_tool: Some(String::from("job_status")),
            fuzzy_matches: vec![String::from("JOBS")],
            next_steps: vec![String::from("call job_status")],
            retry_after_ms: Some(250),
            code: Some(Cow::Borrowed("JOB_DEADLINE")),
            category: Some(UserErrorCategory::MissingContext),
            retryable: true,
            effect: Effect::Partial,
            correlation_id: Some(String::from(correlation_id)),
            help_url: Some(String::from(help_url)),
            details: Map::from_iter([(String::from("job"), json!(7))]),
            argument_errors: vec![ArgumentError {
                path: "/limit".into(),
                kind: ArgumentErrorKind::OutOfRange,
                expected: Some("an integer from 1 to 100".into()),
                received: Some("integer".into()),
                suggestions: Vec::new(),
            }],
            rule: crate::model::envelope::Unwired::default(),
        }))
    }

    #[test]
    fn every_field_lands_in_one_member() {
        let uris = full(
            "https://docs.example.com/errors#timeout",
            "urn:uuid:0f0e5b8a-9a47-4a55-9f0b-3c7b2d7e4d11",
        );
        let extensions = json!({
            "error_class": "TIMEOUT",
            "ora_code": 1013,
            "suggested_tool": "job_status",
            "fuzzy_matches": ["JOBS"],
            "next_steps": ["call job_status"],
            "retry_after_ms": 250,
            "code": "JOB_DEADLINE",
            "category": "MissingContext",
            "retryable": true,
            "effect": "partial",
            "details": {"job": 7},
            "argument_errors": [{
                "path": "/limit",
                "kind": "out_of_range",
                "expected": "an integer from 1 to 100",
                "received": "integer"
            }]
        });
        let mut expected = json!({
            "type": "https://docs.example.com/errors#timeout",
            "title": "Timeout",
            "status": 504,
            "detail": "deadline passed",
            "instance": "urn:uuid:0f0e5b8a-9a47-4a55-9f0b-3c7b2d7e4d11",
        });
        expected
            .as_object_mut()
            .unwrap()
            .extend(extensions.as_object().unwrap().clone());
        assert_eq!(
            serde_json::to_value(problem_details(&uris)).unwrap(),
            expected
        );

        // Neither a URI: both stay extension members.
        let plain = problem_details(&full("/errors#timeout", "req-7f3a"));
        let mut expected = json!({
            "type": "about:blank",
            "title": "Gateway Timeout",
            "status": 504,
            "detail": "deadline passed",
            "help_url": "/errors#timeout",
            "correlation_id": "req-7f3a",
        });
        expected
            .as_object_mut()
            .unwrap()
            .extend(extensions.as_object().unwrap().clone());
        assert_eq!(serde_json::to_value(&plain).unwrap(), expected);

        // RFC 9457 §3.2: extension names start with a letter and hold at
        // least three letters, digits or underscores.
        for key in plain.extensions.keys() {
            assert!(key.len() >= 3, "{key}");
            assert!(key.starts_with(|c: char| c.is_ascii_alphabetic()), "{key}");
            assert!(
                key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{key}"
            );
        }
    }

    #[test]
    fn relative_or_invalid_help_url_and_plain_id_stay_extensions() {
        for url in [
            "/docs/errors#busy",
            "errors/busy",
            "see the wiki",
            "https://a b",
            "",
        ] {
            let envelope = ErrorEnvelope::new(ErrorClass::Busy, "busy")
                .with_help_url(url)
                .with_correlation_id("req-7f3a");
            let problem = problem_details(&envelope);
            assert_eq!(problem.problem_type, ABOUT_BLANK, "{url}");
            assert_eq!(problem.title, "Service Unavailable", "{url}");
            assert_eq!(problem.instance, None);
            assert_eq!(problem.extensions["help_url"], json!(url));
            assert_eq!(problem.extensions["correlation_id"], json!("req-7f3a"));
        }
    }

    #[test]
    fn titles_and_statuses() {
        for &class in ErrorClass::ALL {
            let status = status_of(class);
            assert_eq!(status.as_u16(), class.http_status(), "{class:?}");
            let plain = problem_details(&ErrorEnvelope::new(class, "x"));
            let typed = problem_details(
                &ErrorEnvelope::new(class, "x").with_help_url("https://example.com/e"),
            );
            assert_eq!(plain.status, class.http_status());
            assert_eq!(typed.title, ErrorClass::title(class));
            let phrase = status
                .canonical_reason()
                .unwrap_or(ErrorClass::title(class));
            assert_eq!(plain.title, phrase, "{class:?}");
        }
        let unknown: ErrorEnvelope =
            serde_json::from_value(json!({"error_class": "LEGAL_HOLD", "message": "held"}))
                .unwrap();
        let problem = problem_details(&unknown);
        assert_eq!(
            (problem.status, &*problem.title),
            (500, "Internal Server Error")
        );
        let cancelled = problem_details(&ErrorEnvelope::new(ErrorClass::Cancelled, "stop"));
        assert_eq!((cancelled.status, &*cancelled.title), (499, "Cancelled"));
    }

    #[test]
    fn response_headers() {
        let cases: &[(Option<u64>, Option<&str>)] = &[
            (None, None),
            (Some(0), Some("0")),
            (Some(1), Some("1")),
            (Some(1000), Some("1")),
            (Some(1500), Some("2")),
            (Some(u64::MAX), Some("18446744073709552")),
        ];
        for &(ms, header) in cases {
            let mut envelope = ErrorEnvelope::new(ErrorClass::Busy, "busy");
            envelope.fields_mut().retry_after_ms = ms;
            let response = http_response(&envelope);
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(
                response.headers()["content-type"],
                "application/problem+json"
            );
            let retry = response.headers().get("retry-after");
            assert_eq!(retry.map(|v| v.to_str().unwrap()), header, "{ms:?}");
            assert_eq!(response.body(), &body(&envelope));
        }
    }

    #[test]
    fn control_characters_are_escaped() {
        let envelope = ErrorEnvelope::new(ErrorClass::InvalidArguments, "a\nb\u{0}c\u{1b}[31m");
        let response = http_response(&envelope);
        assert_eq!(
            response.body(),
            concat!(
                r#"{"type":"about:blank","title":"Bad Request","status":400,"#,
                r#""detail":"a\nb\u0000c\u001b[31m","category":"Validation","#,
                r#""error_class":"INVALID_ARGUMENTS"}"#
            )
        );
    }
}
