//! The retry rule and its inputs: whether repeating a failed call is worth
//! it and safe. Every envelope's `retryable`, every catalog row's and the
//! host's judgement of a repeat are computed by [`RetryInputs::retryable`].

use crate::model::class::ErrorClass;
use crate::model::effect::Effect;

/// What the retry rule combines with a failure's [`Effect`]: what is
/// known about the call besides what it changed. Not on the wire; an
/// envelope keeps its inputs so a later builder (a new effect, a call's
/// declared behaviour) applies the rule again over all of them.
///
/// A new input is a field here, set by the code that knows it; the other
/// constructors keep it unset (see [`RetryInputs::of_class`]), and
/// [`ErrorEnvelope::for_server_resource`](crate::ErrorEnvelope::for_server_resource)
/// carries every input over.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RetryInputs {
    /// Whether a later attempt may succeed: the class's judgement
    /// ([`ErrorClass::is_retryable`]), or an author's or a call's.
    pub(crate) may_succeed: bool,
    /// Whether the operation is idempotent (repeating it has the same
    /// effect as doing it once).
    pub(crate) idempotent: bool,
}

impl RetryInputs {
    /// The inputs of a fresh failure of `class`: its class's judgement of
    /// whether a later attempt may succeed, nothing declared idempotent.
    pub(crate) const fn of_class(class: ErrorClass) -> Self {
        RetryInputs::may_succeed(class.is_retryable())
    }

    /// The inputs of a failure that may succeed later or not, nothing
    /// declared idempotent.
    pub(crate) const fn may_succeed(may_succeed: bool) -> Self {
        RetryInputs {
            may_succeed,
            idempotent: false,
        }
    }

    /// These inputs, with the operation also declared idempotent when
    /// `idempotent` is true (a declaration is never taken back).
    pub(crate) const fn idempotent_if(mut self, idempotent: bool) -> Self {
        self.idempotent |= idempotent;
        self
    }

    /// Whether repeating the call is safe after a failure with `effect`:
    /// it changed nothing, or the operation is idempotent
    /// ([`Effect::allows_repeat`]).
    pub(crate) const fn allows_repeat(self, effect: Effect) -> bool {
        effect.allows_repeat(self.idempotent)
    }

    /// The retry rule: a failure with `effect` is `retryable` when a later
    /// attempt may succeed *and* repeating the call is safe
    /// ([`RetryInputs::allows_repeat`]).
    pub(crate) const fn retryable(self, effect: Effect) -> bool {
        self.may_succeed && self.allows_repeat(effect)
    }

    /// The inputs as far as a peer's wire form tells them, for an envelope
    /// of `class` and `effect` that says `retryable`: a retryable envelope
    /// may succeed, and was idempotent if its effect alone forbids a
    /// repeat; a safe repeat that is not retryable cannot succeed;
    /// otherwise the class judges.
    pub(crate) const fn read(class: ErrorClass, effect: Effect, retryable: bool) -> Self {
        let safe = effect.allows_repeat(false);
        RetryInputs {
            may_succeed: retryable || (!safe && class.is_retryable()),
            idempotent: retryable && !safe,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every combination of inputs and effect against the rule written
    /// out, and a read-back of each envelope's `retryable` giving inputs
    /// that compute it again.
    #[test]
    fn the_rule_and_its_reading() {
        for may_succeed in [false, true] {
            for idempotent in [false, true] {
                for effect in [Effect::Nothing, Effect::Partial, Effect::Unknown] {
                    let inputs = RetryInputs::may_succeed(may_succeed).idempotent_if(idempotent);
                    let expected = may_succeed && (idempotent || effect == Effect::Nothing);
                    assert_eq!(inputs.retryable(effect), expected, "{inputs:?} {effect:?}");
                    for &class in ErrorClass::ALL {
                        let read = RetryInputs::read(class, effect, expected);
                        assert_eq!(read.retryable(effect), expected, "{class:?} {effect:?}");
                    }
                }
            }
        }
        assert_eq!(
            RetryInputs::of_class(ErrorClass::Busy),
            RetryInputs::may_succeed(true)
        );
        assert!(!RetryInputs::of_class(ErrorClass::ObjectNotFound).may_succeed);
        assert!(
            RetryInputs::may_succeed(false)
                .idempotent_if(true)
                .idempotent_if(false)
                .idempotent
        );
    }
}
