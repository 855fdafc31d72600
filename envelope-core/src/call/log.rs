//! The operator's side of an error (feature `tracing`): one `tracing`
//! event with the whole story, while the model keeps its clean envelope.

use std::error::Error;

use crate::convert::chain::MAX_SOURCE_LINKS;
use crate::convert::envelope_trait::Envelope;
use crate::model::class::LogLevel;
use crate::model::envelope::ErrorEnvelope;

/// Logs `error` for the server's operator and returns its envelope for the
/// model: one `tracing` event, at `ERROR` for a server-owned class (the
/// server must act) except `BUSY` (routine contention) at `WARN`, and at
/// `INFO` for a caller- or user-owned one (the model will fix its call or
/// tell the user), with these fields:
///
/// | field | value |
/// |---|---|
/// | `envelope.error_class` | the class's wire name (`"TIMEOUT"`) |
/// | `envelope.code` | the domain code, else the class's wire name (as SEP-3313's `code`) |
/// | `envelope.owner` | `"caller"`, `"server"` or `"user"` |
/// | `envelope.effect` | `"nothing"`, `"unknown"` or `"partial"` |
/// | `envelope.retryable` | the envelope's `retryable` |
/// | `envelope.correlation_id` | the envelope's id, or empty |
/// | `exception.message` | the error's full `Display` text (an [`ErrorEnvelope`] answered through a call: its message, as its `Display` is the model's text) |
/// | `envelope.sources` | the `Display` of each `source()`, outermost first, at most [`MAX_SOURCE_LINKS`](crate::MAX_SOURCE_LINKS) |
///
/// The fields are in the crate's `envelope.` namespace, the error's text
/// under OpenTelemetry's `exception.message`; the call's span carries the
/// conventional OpenTelemetry attributes and status
/// ([`CallContext::span`](crate::CallContext::span)).
///
/// The message is `"tool call failed"`. Every text field is recorded
/// the same way, with `Debug` formatting: a quoted string in which quotes,
/// backslashes, newlines, control characters and ANSI escapes are escaped
/// (`\n`, `\u{1b}`), so no text (a code or an id read from a peer, a
/// downstream server's message in `Display` or a source) can start a line
/// or colour a terminal in a plain-text log; `envelope.sources` is the list's
/// `Debug` form, each item escaped the same way. The envelope's `details`
/// and the error's fields are not logged, so a `secret` field reaches the
/// log only if the error's own `Display` prints it. The envelope returned
/// is exactly `error.to_envelope()`.
pub fn report<E: Envelope + Error + ?Sized>(error: &E) -> ErrorEnvelope {
    report_as(error, error.to_envelope())
}

/// Like [`report`], for an envelope the server has already built or
/// amended (a correlation id added with
/// [`ErrorEnvelope::with_correlation_id`], say): the event's class, code,
/// effect, retryability and id come from `envelope`, its `Display` text and
/// `source()` chain from `error`. Returns `envelope` unchanged.
pub fn report_as<E: Error + ?Sized>(error: &E, envelope: ErrorEnvelope) -> ErrorEnvelope {
    record(&envelope, &error.to_string(), &sources(error));
    envelope
}

/// The `Display` of each `source()` of `error`, outermost first, at most
/// [`MAX_SOURCE_LINKS`](crate::MAX_SOURCE_LINKS), then `"..."` if the chain goes on.
pub(crate) fn sources<E: Error + ?Sized>(error: &E) -> Vec<String> {
    let mut chain = Vec::new();
    let mut next = error.source();
    while let Some(source) = next {
        if chain.len() == MAX_SOURCE_LINKS {
            chain.push(String::from("..."));
            break;
        }
        chain.push(source.to_string());
        next = source.source();
    }
    chain
}

/// [`record`] with the error's text as the integrations carry it (its
/// `Display` and `source()` chain), or, without one, the envelope's
/// message and no sources.
pub(crate) fn record_text(envelope: &ErrorEnvelope, text: Option<&(String, Vec<String>)>) {
    match text {
        Some((display, sources)) => record(envelope, display, sources),
        None => record(envelope, &envelope.message, &[]),
    }
}

/// Emits [`report`]'s event for `envelope`, with the error's `Display`
/// text and the `Display` of its sources.
pub(crate) fn record(envelope: &ErrorEnvelope, display: &str, sources: &[String]) {
    // The event macros import `tracing::field::display`.
    let text = display;
    // Every text field `?`: one escaping for all of them.
    macro_rules! event {
        ($level:expr) => {
            tracing::event!(
                $level,
                envelope.error_class = ?envelope.error_class.as_str(),
                envelope.code = ?envelope.code.as_deref().unwrap_or(envelope.error_class.as_str()),
                envelope.owner = ?envelope.error_class.owner().as_str(),
                envelope.effect = ?envelope.effect.as_str(),
                envelope.retryable = envelope.retryable,
                envelope.correlation_id = ?envelope.correlation_id.as_deref().unwrap_or_default(),
                exception.message = ?text,
                envelope.sources = ?sources,
                "tool call failed"
            )
        };
    }
    match envelope.error_class.log_level() {
        LogLevel::Info => event!(tracing::Level::INFO),
        LogLevel::Warn => event!(tracing::Level::WARN),
        LogLevel::Error => event!(tracing::Level::ERROR),
    }
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use tracing::Level;

    use super::*;
    use crate::ErrorClass;
    use crate::call::capture::lines;

    /// A source that says its depth.
    #[derive(Debug)]
    struct Chain(usize);

    impl fmt::Display for Chain {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "level {}", self.0)
        }
    }

    impl Error for Chain {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            None
        }
    }

    /// An error with the sources given.
    #[derive(Debug)]
    struct Linked(Vec<Chain>);

    impl fmt::Display for Linked {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("top")
        }
    }

    impl Error for Linked {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            self.0.first().map(|e| e as _)
        }
    }

    #[test]
    fn sources_outermost_first_and_cut() {
        /// An endless chain: each link is its own source.
        #[derive(Debug)]
        struct Loop;
        impl fmt::Display for Loop {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("again\n")
            }
        }
        impl Error for Loop {
            fn source(&self) -> Option<&(dyn Error + 'static)> {
                Some(&Loop)
            }
        }
        let chain = sources(&Loop);
        assert_eq!(chain.len(), MAX_SOURCE_LINKS + 1);
        assert!(
            chain[..MAX_SOURCE_LINKS]
                .iter()
                .all(|link| link == "again\n")
        );
        assert_eq!(chain[MAX_SOURCE_LINKS], "...");
        assert_eq!(sources(&Linked(vec![Chain(1)])), ["level 1"]);
        assert_eq!(sources(&Chain(0)), Vec::<String>::new());
    }

    #[test]
    fn record_escapes_every_text_field_at_the_owners_level() {
        let envelope = ErrorEnvelope::new(ErrorClass::Internal, "m")
            .with_code("A\nB")
            .with_correlation_id("id\u{1b}[2J");
        let logged = lines(|| record(&envelope, "shown\r\n", &[String::from("s\u{7}")]));
        assert_eq!(
            logged,
            [(
                Level::ERROR,
                vec![
                    String::from("message=tool call failed"),
                    String::from(r#"envelope.error_class="INTERNAL""#),
                    String::from(r#"envelope.code="A\nB""#),
                    String::from(r#"envelope.owner="server""#),
                    String::from(r#"envelope.effect="unknown""#),
                    String::from("envelope.retryable=false"),
                    String::from(r#"envelope.correlation_id="id\u{1b}[2J""#),
                    String::from(r#"exception.message="shown\r\n""#),
                    String::from(r#"envelope.sources=["s\u{7}"]"#),
                ]
            )]
        );
        let level = |class| lines(|| record(&ErrorEnvelope::new(class, "m"), "", &[]))[0].0;
        assert_eq!(level(ErrorClass::Busy), Level::WARN);
        assert_eq!(level(ErrorClass::Timeout), Level::ERROR);
        assert_eq!(level(ErrorClass::InvalidArguments), Level::INFO);
    }

    #[test]
    fn report_returns_the_envelope_and_logs_once() {
        let error = Linked(vec![Chain(1)]);
        let envelope = ErrorEnvelope::new(ErrorClass::Busy, "busy").with_correlation_id("c-1");
        let mut returned = None;
        let logged = lines(|| returned = Some(report_as(&error, envelope.clone())));
        assert_eq!(returned, Some(envelope.clone()));
        assert_eq!(logged.len(), 1);
        assert!(
            logged[0]
                .1
                .contains(&String::from(r#"exception.message="top""#))
        );
        assert!(
            logged[0]
                .1
                .contains(&String::from(r#"envelope.sources=["level 1"]"#))
        );
        let logged = lines(|| returned = Some(report(&envelope)));
        assert_eq!(returned, Some(envelope));
        assert_eq!(logged.len(), 1);
    }
}
