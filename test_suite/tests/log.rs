//! The operator log (feature `tracing`): `envelope::log::report` emits one
//! event per error with the full story as fields, at a level that fits who
//! must act, and returns the model's envelope unchanged.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use envelope::{Envelope, ErrorEnvelope};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// One captured event: its level and its fields, each as `Debug` text
/// (string fields as written).
#[derive(Debug, Clone, PartialEq)]
struct Captured {
    level: Level,
    fields: BTreeMap<String, String>,
}

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<Captured>>>);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        self.0.lock().unwrap().push(Captured {
            level: *event.metadata().level(),
            fields,
        });
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

fn capture(f: impl FnOnce()) -> Vec<Captured> {
    let capture = Capture::default();
    tracing::subscriber::with_default(capture.clone(), f);
    capture.0.lock().unwrap().clone()
}

/// The low-level error a pool reports.
#[derive(Debug, thiserror::Error)]
#[error("connect to db-7.internal:5432 refused")]
struct Refused;

#[derive(Debug, thiserror::Error, Envelope)]
enum DbError {
    #[error("query failed on db-7.internal")]
    #[envelope(class = ConnectionFailed)]
    Unreachable {
        #[source]
        cause: Refused,
        #[envelope(correlation_id)]
        request: String,
    },
    #[error("login failed for {user}")]
    #[envelope(class = Unauthenticated, message = "login failed for {user}")]
    Login {
        user: String,
        #[envelope(secret)]
        password: String,
    },
}

fn fields(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn a_server_error_is_logged_at_error_with_its_whole_story() {
    let error = DbError::Unreachable {
        cause: Refused,
        request: "req-42".into(),
    };
    let mut envelope = None;
    let events = capture(|| envelope = Some(envelope::log::report(&error)));
    assert_eq!(
        events,
        [Captured {
            level: Level::ERROR,
            fields: fields(&[
                ("message", "tool call failed"),
                ("error.class", "CONNECTION_FAILED"),
                ("error.code", "UNREACHABLE"),
                ("error.owner", "server"),
                ("error.effect", "unknown"),
                ("error.retryable", "false"),
                ("error.correlation_id", "\"req-42\""),
                ("error.display", "\"query failed on db-7.internal\""),
                (
                    "error.sources",
                    "[\"connect to db-7.internal:5432 refused\"]"
                ),
            ]),
        }]
    );
    // The model's envelope is the usual one: no host name, the same id.
    let envelope = envelope.unwrap();
    assert_eq!(envelope, error.to_envelope());
    assert_eq!(
        envelope.to_json_string(),
        r#"{"isError":true,"error_class":"CONNECTION_FAILED","message":"the server could not reach a service it depends on","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"UNREACHABLE","category":"Technical","effect":"unknown","correlation_id":"req-42"}"#
    );
}

#[test]
fn a_caller_error_is_logged_at_info_without_secrets() {
    let error = DbError::Login {
        user: "ada".into(),
        password: "hunter2".into(),
    };
    let events = capture(|| drop(envelope::log::report(&error)));
    assert_eq!(
        events,
        [Captured {
            level: Level::INFO,
            fields: fields(&[
                ("message", "tool call failed"),
                ("error.class", "UNAUTHENTICATED"),
                ("error.code", "LOGIN"),
                ("error.owner", "caller"),
                ("error.effect", "nothing"),
                ("error.retryable", "false"),
                ("error.correlation_id", "\"\""),
                ("error.display", "\"login failed for ada\""),
                ("error.sources", "[]"),
            ]),
        }]
    );
    assert!(
        events[0].fields.values().all(|v| !v.contains("hunter2")),
        "{events:?}"
    );
}

#[test]
fn control_characters_are_escaped_in_the_log() {
    let envelope = ErrorEnvelope::new(envelope::ErrorClass::Internal, "x")
        .with_correlation_id("id\n\u{1b}[31m");
    let events = capture(|| drop(envelope::log::report(&envelope)));
    assert_eq!(
        events[0].fields["error.correlation_id"],
        "\"id\\n\\u{1b}[31m\""
    );
    assert_eq!(events[0].level, Level::ERROR);
}

#[test]
fn report_as_logs_the_amended_envelope() {
    let error = DbError::Login {
        user: "ada".into(),
        password: "hunter2".into(),
    };
    let mut returned = None;
    let events = capture(|| {
        let envelope = error.to_envelope().with_correlation_id("call-7");
        returned = Some(envelope::log::report_as(&error, envelope));
    });
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].level, Level::INFO);
    assert_eq!(events[0].fields["error.correlation_id"], "\"call-7\"");
    assert_eq!(
        events[0].fields["error.display"],
        "\"login failed for ada\""
    );
    assert_eq!(
        returned.unwrap().to_json_string(),
        r#"{"isError":true,"error_class":"UNAUTHENTICATED","message":"login failed for ada","code":"LOGIN","category":"WorkflowDependency","correlation_id":"call-7"}"#
    );
}

/// Routine contention is logged at `WARN`, not `ERROR`.
#[test]
fn busy_is_logged_at_warn() {
    let busy = ErrorEnvelope::new(envelope::ErrorClass::Busy, "pool full");
    let events = capture(|| {
        envelope::log::report(&busy);
    });
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].level, Level::WARN);
    assert_eq!(events[0].fields["error.owner"], "server");
}

/// A call context answers a failure with exactly one log line, carrying
/// the call's correlation id and the envelope's read-only retryability.
#[test]
fn a_call_context_logs_each_failure_once_with_its_id() {
    use envelope::{CallContext, OrFail};

    let call = CallContext::new("get_row")
        .read_only()
        .with_correlation_id("call-9");
    let error = DbError::Unreachable {
        cause: Refused,
        request: String::new(),
    };
    let mut answer = None;
    let events = capture(|| answer = Some(Err::<(), _>(error).or_fail(&call).unwrap_err()));
    let answer = answer.unwrap();
    assert_eq!(
        answer.to_json_string(),
        r#"{"isError":true,"error_class":"CONNECTION_FAILED","message":"the server could not reach a service it depends on","code":"UNREACHABLE","category":"Technical","retryable":true,"correlation_id":"call-9"}"#
    );
    assert_eq!(
        events,
        [Captured {
            level: Level::ERROR,
            fields: fields(&[
                ("message", "tool call failed"),
                ("error.class", "CONNECTION_FAILED"),
                ("error.code", "UNREACHABLE"),
                ("error.owner", "server"),
                ("error.effect", "nothing"),
                ("error.retryable", "true"),
                ("error.correlation_id", "\"call-9\""),
                ("error.display", "\"query failed on db-7.internal\""),
                (
                    "error.sources",
                    "[\"connect to db-7.internal:5432 refused\"]"
                ),
            ]),
        }]
    );
}
