//! [`Effect`]: whether a failed call changed anything, and whether that
//! allows a blind repeat (the retry rule itself is `model/retry.rs`).

use serde::{Deserialize, Serialize};

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

include!("repeat_rule.rs");

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
        repeat_is_safe(self.is_nothing(), idempotent)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::class::ErrorClass;
    use crate::model::envelope::ErrorEnvelope;

    #[test]
    fn check_steps_are_exactly_the_two_texts() {
        assert!(Effect::is_check_step(CHECK_UNKNOWN));
        assert!(Effect::is_check_step(CHECK_PARTIAL));
        assert!(!Effect::is_check_step("wait, then retry the same call"));
        assert!(!Effect::is_check_step(""));
        assert_eq!(Effect::Unknown.check_step(), Some(CHECK_UNKNOWN));
        assert_eq!(Effect::Partial.check_step(), Some(CHECK_PARTIAL));
        assert_eq!(Effect::Nothing.check_step(), None);
    }

    /// Re-applying the retry rule replaces the check step, never stacks
    /// it, and keeps the other steps in order.
    #[test]
    fn the_check_step_is_replaced_when_the_rule_is_applied_again() {
        let envelope = ErrorEnvelope::new(ErrorClass::Timeout, "slow").with_next_step("wait");
        assert_eq!(envelope.next_steps, [CHECK_UNKNOWN, "wait"]);
        let partial = envelope.clone().with_effect(Effect::Partial);
        assert_eq!(partial.next_steps, [CHECK_PARTIAL, "wait"]);
        let again = partial.with_effect(Effect::Unknown);
        assert_eq!(again.next_steps, [CHECK_UNKNOWN, "wait"]);
        let nothing = again.with_effect(Effect::Nothing);
        assert_eq!(nothing.next_steps, ["wait"]);
        assert!(nothing.retryable);
        let idempotent = envelope.idempotent();
        assert_eq!(idempotent.next_steps, ["wait"]);
        assert!(idempotent.retryable);
    }
}
