//! [`CallBehaviour`]: what a call does to the state behind it, as the
//! tool declares it (MCP `ToolAnnotations`) or the HTTP method says; the
//! next steps of a keyed call's failure and of its stored answer sent
//! again.

use crate::model::envelope::ErrorEnvelope;

/// What a tool call does to the state behind it, as the tool declares it.
///
/// The MCP names are `ToolAnnotations`' `readOnlyHint`, `idempotentHint`
/// and `destructiveHint` (MCP 2025-03-26 and later); for HTTP the method
/// says it (RFC 9110, section 9.2: `GET`, `HEAD`, `OPTIONS` are safe, `PUT`
/// and `DELETE` idempotent). Every flag defaults to `false`, "not
/// declared", the safe reading: nothing is assumed about a call that says
/// nothing.
///
/// How each flag changes a failed call's envelope (the retry rule of
/// [`Effect::allows_repeat`](crate::Effect::allows_repeat)):
///
/// | flag | effect | retryable |
/// |---|---|---|
/// | `read_only` | `nothing`, whatever the error said: a read changed nothing | whether a later attempt may succeed (the class's, or the variant's `retryable`) |
/// | `idempotent` | kept | as above, whatever the effect: repeating changes nothing more |
/// | `keyed` | kept | as `idempotent`: a store runs the call at most once per key; the first next step says to repeat with the same key |
/// | none | kept (the variant's `effect`, else the class's) | only when the effect is `nothing` |
///
/// `destructive` changes no rule and is not logged; it tells a reader of
/// the call that an unknown effect may have destroyed something.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct CallBehaviour {
    /// The call does not change the state behind the tool (MCP
    /// `readOnlyHint`; HTTP `GET`, `HEAD`, `OPTIONS`).
    pub read_only: bool,
    /// Repeating the call with the same arguments has no effect beyond the
    /// first (MCP `idempotentHint`; HTTP `PUT`, `DELETE` and the safe
    /// methods).
    pub idempotent: bool,
    /// The call may destroy or overwrite state (MCP `destructiveHint`).
    pub destructive: bool,
    /// The call carries an idempotency key that the server's store
    /// deduplicates by (MCP `_meta.idempotencyKey`, HTTP
    /// `Idempotency-Key`; see [`crate::idempotency`]): the call runs at
    /// most once per key, so repeating it with the same key is safe
    /// whatever a failure did. Set by the server for a call whose key it
    /// stores, and by a host for a tool that declares keys and that it
    /// sends one to.
    pub keyed: bool,
}

/// The first next step of a keyed call's failure that a repeat may fix:
/// the same call again, with the same key.
pub(crate) const KEY_STEP: &str =
    "repeat the same call with the same idempotency key: the server runs it at most once";

/// The first next step of a keyed call's stored failure sent again: the
/// same key gets the same answer, so a new attempt is a new call (worded
/// without "repeat", so no text reads it as a plain repeat).
#[cfg_attr(not(any(feature = "rmcp", feature = "axum")), allow(dead_code))]
pub(crate) const REPLAY_STEP: &str = "this is the stored answer of the first call with this idempotency key, sent again: the same key always gets it; check first whether the call took effect, and make it again only with a new idempotency key";

/// `envelope`, a keyed call's stored failure, as it is sent again (MCP and
/// HTTP alike): not `retryable`, since a repeat with the same key gets the
/// same answer, and [`REPLAY_STEP`] first among its next steps in place of
/// [`KEY_STEP`], so a client that ignores the replay mark does not loop.
/// Its effect stays: a failure that may have taken effect still says so.
#[cfg_attr(not(any(feature = "rmcp", feature = "axum")), allow(dead_code))]
pub(crate) fn replayed(envelope: ErrorEnvelope) -> ErrorEnvelope {
    let mut envelope = envelope.with_retryable(false);
    let steps = &mut envelope.fields_mut().next_steps;
    steps.retain(|step| step != KEY_STEP && step != REPLAY_STEP);
    steps.insert(0, String::from(REPLAY_STEP));
    envelope
}

impl CallBehaviour {
    /// A read: read-only, and so idempotent.
    pub const READ: CallBehaviour = CallBehaviour {
        read_only: true,
        idempotent: true,
        destructive: false,
        keyed: false,
    };

    /// From MCP `ToolAnnotations` hints, each `None` when the tool does not
    /// declare it. A read-only tool is idempotent too; MCP's default for an
    /// undeclared `destructiveHint` of a tool that is not read-only is
    /// `true`, and so is this.
    #[must_use]
    pub fn from_hints(
        read_only: Option<bool>,
        idempotent: Option<bool>,
        destructive: Option<bool>,
    ) -> Self {
        let read_only = read_only.unwrap_or(false);
        CallBehaviour {
            read_only,
            idempotent: read_only || idempotent.unwrap_or(false),
            destructive: !read_only && destructive.unwrap_or(true),
            keyed: false,
        }
    }

    /// This behaviour, with the call keyed (see [`CallBehaviour::keyed`])
    /// when `keyed` is true.
    #[must_use]
    pub const fn keyed_if(mut self, keyed: bool) -> Self {
        self.keyed |= keyed;
        self
    }
}

#[cfg(feature = "http")]
impl CallBehaviour {
    /// The behaviour an HTTP method declares (feature `http`; RFC 9110,
    /// section 9.2): `GET`, `HEAD`, `OPTIONS` and `TRACE` are safe, so a
    /// read; `PUT` and `DELETE` are idempotent, and `DELETE` destructive;
    /// `POST`, `PATCH`, `CONNECT` and extension methods declare nothing.
    #[must_use]
    pub fn from_method(method: &http::Method) -> Self {
        use http::Method;
        match *method {
            Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE => CallBehaviour::READ,
            Method::PUT => CallBehaviour {
                idempotent: true,
                ..CallBehaviour::default()
            },
            Method::DELETE => CallBehaviour {
                idempotent: true,
                destructive: true,
                ..CallBehaviour::default()
            },
            _ => CallBehaviour::default(),
        }
    }
}

#[cfg(all(test, any(feature = "rmcp", feature = "axum")))]
mod tests {
    use super::*;
    use crate::model::class::ErrorClass;

    #[test]
    fn a_stored_failure_sent_again_leads_with_the_replay_step_once() {
        let stored = ErrorEnvelope::new(ErrorClass::Timeout, "timed out")
            .with_next_step(KEY_STEP)
            .with_next_step("check the note")
            .with_next_step(REPLAY_STEP);
        let sent_again = replayed(stored);
        assert_eq!(
            sent_again.next_steps,
            [
                REPLAY_STEP,
                "the call may have taken effect: check its result before repeating it",
                "check the note"
            ]
        );
        assert!(!sent_again.retryable);
        // Sent again a second time: the same steps.
        assert_eq!(replayed(sent_again.clone()), sent_again);
    }
}
