//! [`Effect`]: whether a failed call changed anything, and the one rule
//! that combines it with `retryable`.

use serde::{Deserialize, Serialize};

use crate::class::ErrorClass;

/// What a failed call did to the state behind the tool before it failed.
///
/// Wire form (the envelope's `effect` key): `"nothing"`, `"unknown"` or
/// `"partial"`; the envelope leaves the key out when nothing changed. A
/// value this version does not know reads as [`Effect::Unknown`], the safe
/// reading.
///
/// Together with the class it decides whether repeating the same call is
/// safe; see [`Effect::allows_repeat`].
///
/// With the `schemars` feature: implements `schemars::JsonSchema` (schemars
/// 1.x), for a tool's `outputSchema`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Effect {
    /// The call was refused before it changed anything: a rejected
    /// argument, a missing object, a busy refusal.
    #[default]
    Nothing,
    /// Part of the call took effect (some rows of a batch were written).
    Partial,
    /// The call may or may not have taken effect: a timeout during a write,
    /// a connection lost mid-call, an internal fault. Check before
    /// repeating. Also what a value from a newer peer reads as.
    #[serde(other)]
    Unknown,
}

/// The next step an envelope carries when repeating the call is not known
/// to be safe, by effect.
const CHECK_UNKNOWN: &str = "the call may have taken effect: check its result before repeating it";
const CHECK_PARTIAL: &str =
    "part of the call took effect: check what was applied and repeat only the rest";

impl Effect {
    /// The wire name: `"nothing"`, `"unknown"` or `"partial"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Effect::Nothing => "nothing",
            Effect::Partial => "partial",
            Effect::Unknown => "unknown",
        }
    }

    /// Whether this is [`Effect::Nothing`]; the envelope omits the key then.
    #[must_use]
    pub const fn is_nothing(&self) -> bool {
        matches!(self, Effect::Nothing)
    }

    /// The retry rule: repeating the same call is safe when the failed call
    /// changed nothing, or when the operation is idempotent (repeating it
    /// has the same effect as doing it once). An envelope is `retryable`
    /// only when its class (or an explicit override) says a later attempt
    /// may succeed *and* this returns true.
    #[must_use]
    pub const fn allows_repeat(self, idempotent: bool) -> bool {
        idempotent || self.is_nothing()
    }

    /// The next step that tells the model to check before repeating, for
    /// an effect that does not allow a blind repeat.
    #[must_use]
    pub const fn check_step(self) -> Option<&'static str> {
        match self {
            Effect::Nothing => None,
            Effect::Unknown => Some(CHECK_UNKNOWN),
            Effect::Partial => Some(CHECK_PARTIAL),
        }
    }

    /// Whether `step` is one of the texts [`Effect::check_step`] returns.
    pub(crate) fn is_check_step(step: &str) -> bool {
        step == CHECK_UNKNOWN || step == CHECK_PARTIAL
    }
}

impl core::fmt::Display for Effect {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ErrorClass {
    /// What a failure of this class did, when nothing else is known: a
    /// deadline, a lost connection, a transient backend failure, a
    /// cancellation, an internal fault or a script that failed while it ran
    /// may have struck mid-call ([`Effect::Unknown`]); every other class
    /// refuses the call before it changes anything ([`Effect::Nothing`]).
    #[must_use]
    pub const fn default_effect(self) -> Effect {
        match self {
            ErrorClass::RuntimeError
            | ErrorClass::Timeout
            | ErrorClass::Transient
            | ErrorClass::ConnectionFailed
            | ErrorClass::Cancelled
            | ErrorClass::Internal
            | ErrorClass::Unknown => Effect::Unknown,
            _ => Effect::Nothing,
        }
    }
}
