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
struct Capture(
    Arc<Mutex<Vec<Captured>>>,
    Arc<Mutex<Vec<BTreeMap<String, String>>>>,
);

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

    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        let mut fields = BTreeMap::new();
        attributes.record(&mut Fields(&mut fields));
        let mut spans = self.1.lock().unwrap();
        spans.push(fields);
        Id::from_u64(spans.len() as u64)
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
    capture_with_spans(f).0
}

/// The events, and the fields of the spans opened meanwhile.
fn capture_with_spans(f: impl FnOnce()) -> (Vec<Captured>, Vec<BTreeMap<String, String>>) {
    let capture = Capture::default();
    tracing::subscriber::with_default(capture.clone(), f);
    let events = capture.0.lock().unwrap().clone();
    let spans = capture.1.lock().unwrap().clone();
    (events, spans)
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
                ("envelope.error_class", "\"CONNECTION_FAILED\""),
                ("envelope.code", "\"UNREACHABLE\""),
                ("envelope.owner", "\"server\""),
                ("envelope.effect", "\"unknown\""),
                ("envelope.retryable", "false"),
                ("envelope.correlation_id", "\"req-42\""),
                ("exception.message", "\"query failed on db-7.internal\""),
                (
                    "envelope.sources",
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
                ("envelope.error_class", "\"UNAUTHENTICATED\""),
                ("envelope.code", "\"LOGIN\""),
                ("envelope.owner", "\"caller\""),
                ("envelope.effect", "\"nothing\""),
                ("envelope.retryable", "false"),
                ("envelope.correlation_id", "\"\""),
                ("exception.message", "\"login failed for ada\""),
                ("envelope.sources", "[]"),
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
        events[0].fields["envelope.correlation_id"],
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
    assert_eq!(events[0].fields["envelope.correlation_id"], "\"call-7\"");
    assert_eq!(
        events[0].fields["exception.message"],
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
    assert_eq!(events[0].fields["envelope.owner"], "\"server\"");
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
                ("envelope.error_class", "\"CONNECTION_FAILED\""),
                ("envelope.code", "\"UNREACHABLE\""),
                ("envelope.owner", "\"server\""),
                ("envelope.effect", "\"nothing\""),
                ("envelope.retryable", "true"),
                ("envelope.correlation_id", "\"call-9\""),
                ("exception.message", "\"query failed on db-7.internal\""),
                (
                    "envelope.sources",
                    "[\"connect to db-7.internal:5432 refused\"]"
                ),
            ]),
        }]
    );
}

/// Text that would forge a line or colour a terminal in a plain-text log:
/// newlines, a carriage return, ANSI escapes, a bell, a NUL, a
/// right-to-left override, a quote and a backslash.
const FORGED: &str =
    "ok\n ERROR forged: admin logged in\r\u{1b}[31mred\u{1b}[0m\t\u{7}\u{0}\u{202e}\"\\";

/// `FORGED` as every text field records it.
const ESCAPED: &str =
    r#""ok\n ERROR forged: admin logged in\r\u{1b}[31mred\u{1b}[0m\t\u{7}\0\u{202e}\"\\""#;

/// An error whose `Display` and every `source()` relay a downstream
/// server's text.
#[derive(Debug)]
struct Relayed(&'static str, Option<Box<Relayed>>);

impl fmt::Display for Relayed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Relayed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.1.as_deref().map(|e| e as _)
    }
}

/// No character a terminal acts on is left in `text`.
fn inert(text: &str) -> bool {
    !text.chars().any(|c| c.is_control() || c == '\u{202e}')
}

/// Every text field of every event (`INFO`, `WARN`, `ERROR`; through
/// `report`, `report_as` and a call context) escapes control characters,
/// ANSI escapes and newlines the same way.
#[test]
fn every_text_field_of_every_event_is_escaped() {
    let error = Relayed(FORGED, Some(Box::new(Relayed(FORGED, None))));
    let classes = [
        (
            envelope::ErrorClass::ObjectNotFound,
            Level::INFO,
            "OBJECT_NOT_FOUND",
            "caller",
            "nothing",
        ),
        (
            envelope::ErrorClass::Busy,
            Level::WARN,
            "BUSY",
            "server",
            "nothing",
        ),
        (
            envelope::ErrorClass::Internal,
            Level::ERROR,
            "INTERNAL",
            "server",
            "nothing",
        ),
    ];
    for (class, level, name, owner, effect) in classes {
        // A code and an id read from a peer: the lenient reader keeps them.
        let envelope: ErrorEnvelope = serde_json::from_value(serde_json::json!({
            "error_class": name,
            "message": FORGED,
            "code": FORGED,
            "correlation_id": FORGED,
        }))
        .unwrap();
        assert_eq!(envelope.error_class, class);
        let events = capture(|| drop(envelope::log::report_as(&error, envelope.clone())));
        let quoted = |word: &str| format!("\"{word}\"");
        assert_eq!(
            events,
            [Captured {
                level,
                fields: fields(&[
                    ("message", "tool call failed"),
                    ("envelope.error_class", &quoted(name)),
                    ("envelope.code", ESCAPED),
                    ("envelope.owner", &quoted(owner)),
                    ("envelope.effect", &quoted(effect)),
                    ("envelope.retryable", "false"),
                    ("envelope.correlation_id", ESCAPED),
                    ("exception.message", ESCAPED),
                    ("envelope.sources", &format!("[{ESCAPED}]")),
                ]),
            }],
            "{name}"
        );
        // The envelope as the error: its own `Display` goes to the log.
        let events = capture(|| drop(envelope::log::report(&envelope)));
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].fields["envelope.code"], ESCAPED);
        assert!(events[0].fields["exception.message"].contains(r"\n ERROR forged"));
        for value in events.iter().flat_map(|event| event.fields.values()) {
            assert!(inert(value), "{value}");
        }
    }

    // Through a call context: its span's fields too.
    use envelope::{CallContext, OrFail};
    let call = CallContext::new(FORGED).with_correlation_id(FORGED);
    let (events, spans) = capture_with_spans(|| {
        drop(
            Err::<(), _>(DbError::Login {
                user: FORGED.into(),
                password: String::new(),
            })
            .or_fail(&call),
        );
    });
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].fields["envelope.correlation_id"], ESCAPED);
    assert_eq!(
        events[0].fields["exception.message"],
        format!("\"login failed for {}", &ESCAPED[1..])
    );
    // The tool name in the OpenTelemetry fields: escaped too.
    let named = format!("execute_tool {ESCAPED}");
    assert_eq!(
        spans,
        [fields(&[
            ("tool", ESCAPED),
            ("correlation_id", ESCAPED),
            ("otel.name", &named),
            ("otel.kind", "internal"),
            ("gen_ai.operation.name", "execute_tool"),
            ("gen_ai.tool.name", ESCAPED),
        ])]
    );
    for value in events
        .iter()
        .flat_map(|e| e.fields.values())
        .chain(spans.iter().flat_map(|s| s.values()))
    {
        assert!(inert(value), "{value}");
    }
}

/// An `ErrorEnvelope` answered through a call (the argument extractor's,
/// the router's unknown tool): the operator reads its message, not the
/// multi-line text a model reads, and a failure without a code logs its
/// class's name as the code.
#[test]
fn an_envelope_failed_through_a_call_logs_its_message_and_class() {
    let call = envelope::CallContext::new("get_note").with_correlation_id("req-5");
    let failure = envelope::args::invalid_arguments(vec![envelope::ArgumentError::new(
        envelope::ArgumentErrorKind::Missing,
        "/id",
    )]);
    let events = capture(|| drop(call.fail(failure)));
    assert_eq!(
        events,
        [Captured {
            level: Level::INFO,
            fields: fields(&[
                ("message", "tool call failed"),
                ("envelope.error_class", "\"INVALID_ARGUMENTS\""),
                ("envelope.code", "\"INVALID_ARGUMENTS\""),
                ("envelope.owner", "\"caller\""),
                ("envelope.effect", "\"nothing\""),
                ("envelope.retryable", "false"),
                ("envelope.correlation_id", "\"req-5\""),
                (
                    "exception.message",
                    "\"1 problem in the arguments: /id is missing\""
                ),
                ("envelope.sources", "[]"),
            ]),
        }]
    );
}

/// `?` from a derived error into `ErrorEnvelope` keeps the error's own
/// text for the log line: a tool that returns the envelope logs what one
/// that returns the derived type logs (its `Display` and `source()`
/// chain), and the model's envelope is the same either way.
#[test]
fn an_envelope_made_by_from_logs_the_error_it_was_made_from() {
    fn failing() -> Result<(), envelope::ErrorEnvelope> {
        Err(DbError::Unreachable {
            cause: Refused,
            request: String::new(),
        })?;
        Ok(())
    }
    let call = envelope::CallContext::new("get_row").with_correlation_id("call-3");
    let mut answer = None;
    let events = capture(|| answer = Some(call.fail(failing().unwrap_err())));
    assert_eq!(
        events,
        [Captured {
            level: Level::ERROR,
            fields: fields(&[
                ("message", "tool call failed"),
                ("envelope.error_class", "\"CONNECTION_FAILED\""),
                ("envelope.code", "\"UNREACHABLE\""),
                ("envelope.owner", "\"server\""),
                ("envelope.effect", "\"unknown\""),
                ("envelope.retryable", "false"),
                ("envelope.correlation_id", "\"call-3\""),
                ("exception.message", "\"query failed on db-7.internal\""),
                (
                    "envelope.sources",
                    "[\"connect to db-7.internal:5432 refused\"]"
                ),
            ]),
        }]
    );
    let direct = call.fail(DbError::Unreachable {
        cause: Refused,
        request: String::new(),
    });
    assert_eq!(answer.unwrap().to_json_string(), direct.to_json_string());
}

#[test]
fn an_envelope_made_from_a_type_that_is_no_error_logs_its_own_message() {
    /// Derived, without `Display` or `std::error::Error`.
    #[derive(Debug, envelope::Envelope)]
    enum PoolError {
        #[envelope(class = Busy, message = "the pool is full")]
        Full,
    }
    fn failing() -> Result<(), envelope::ErrorEnvelope> {
        Err(PoolError::Full)?;
        Ok(())
    }
    let call = envelope::CallContext::new("get_row").with_correlation_id("call-4");
    let events = capture(|| drop(call.fail(failing().unwrap_err())));
    assert_eq!(events.len(), 1);
    assert_eq!(
        events[0]
            .fields
            .get("exception.message")
            .map(String::as_str),
        Some("\"the pool is full\"")
    );
    assert_eq!(
        events[0].fields.get("envelope.sources").map(String::as_str),
        Some("[]")
    );
}
