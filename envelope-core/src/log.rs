//! The operator's side of an error (feature `tracing`): one `tracing`
//! event with the whole story, while the model keeps its clean envelope.

use std::error::Error;

use crate::class::{ErrorClass, Owner};
use crate::envelope::ErrorEnvelope;
use crate::envelope_trait::Envelope;

/// How many `source()` links [`report`] logs at most; a longer (or cyclic)
/// chain ends with `"..."`.
pub const MAX_SOURCES: usize = 32;

/// Logs `error` for the server's operator and returns its envelope for the
/// model: one `tracing` event, at `ERROR` for a server-owned class (the
/// server must act) except `BUSY` (routine contention) at `WARN`, and at
/// `INFO` for a caller- or user-owned one (the model will fix its call or
/// tell the user), with these fields:
///
/// | field | value |
/// |---|---|
/// | `error.class` | the class's wire name (`"TIMEOUT"`) |
/// | `error.code` | the domain code, or empty |
/// | `error.owner` | `"caller"`, `"server"` or `"user"` |
/// | `error.effect` | `"nothing"`, `"unknown"` or `"partial"` |
/// | `error.retryable` | the envelope's `retryable` |
/// | `error.correlation_id` | the envelope's id, or empty |
/// | `error.display` | the error's full `Display` text |
/// | `error.sources` | the `Display` of each `source()`, outermost first, at most [`MAX_SOURCES`] |
///
/// The message is `"tool call failed"`. Every text field is recorded
/// the same way, with `Debug` formatting: a quoted string in which quotes,
/// backslashes, newlines, control characters and ANSI escapes are escaped
/// (`\n`, `\u{1b}`), so no text (a code or an id read from a peer, a
/// downstream server's message in `Display` or a source) can start a line
/// or colour a terminal in a plain-text log; `error.sources` is the list's
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
/// [`MAX_SOURCES`], then `"..."` if the chain goes on.
fn sources<E: Error + ?Sized>(error: &E) -> Vec<String> {
    let mut chain = Vec::new();
    let mut next = error.source();
    while let Some(source) = next {
        if chain.len() == MAX_SOURCES {
            chain.push(String::from("..."));
            break;
        }
        chain.push(source.to_string());
        next = source.source();
    }
    chain
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
                error.class = ?envelope.error_class.as_str(),
                error.code = ?envelope.code.as_deref().unwrap_or_default(),
                error.owner = ?envelope.error_class.owner().as_str(),
                error.effect = ?envelope.effect.as_str(),
                error.retryable = envelope.retryable,
                error.correlation_id = ?envelope.correlation_id.as_deref().unwrap_or_default(),
                error.display = ?text,
                error.sources = ?sources,
                "tool call failed"
            )
        };
    }
    match (envelope.error_class, envelope.error_class.owner()) {
        (ErrorClass::Busy, _) => event!(tracing::Level::WARN),
        (_, Owner::Server) => event!(tracing::Level::ERROR),
        _ => event!(tracing::Level::INFO),
    }
}
