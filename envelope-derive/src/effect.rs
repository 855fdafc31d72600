//! What a failed call did, as `effect = ...` names it: a mirror of the
//! runtime's `Effect`, checked against it by the test below.

use syn::Ident;

use crate::names::{self, Named};

/// `effect = nothing | unknown | partial`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Effect {
    Nothing,
    Unknown,
    Partial,
}

impl Named for Effect {
    const KEY: &'static str = "effect";
    const ENUM: &'static str = "Effect";
    /// In the order messages list them.
    const ALL: &'static [Effect] = &[Effect::Nothing, Effect::Unknown, Effect::Partial];

    fn name(self) -> &'static str {
        match self {
            Effect::Nothing => "Nothing",
            Effect::Unknown => "Unknown",
            Effect::Partial => "Partial",
        }
    }

    /// The attribute writes an effect in lower case, in any case.
    fn from_ident(ident: &Ident) -> syn::Result<Effect> {
        let text = names::unraw(ident).to_lowercase();
        if let Some(effect) = Effect::ALL.iter().copied().find(|e| e.spelling() == text) {
            return Ok(effect);
        }
        let spellings: Vec<String> = Effect::ALL.iter().map(|e| e.spelling()).collect();
        let known: Vec<&str> = spellings.iter().map(String::as_str).collect();
        Err(names::unknown_name(ident, Self::KEY, &known))
    }
}

include!("repeat_rule.rs");

impl Effect {
    /// Whether a blind repeat of a failure with this effect is safe, for
    /// an operation that is `idempotent` or not: the runtime's rule
    /// (`Effect::allows_repeat`), from the same file.
    pub fn allows_repeat(self, idempotent: bool) -> bool {
        repeat_is_safe(self == Effect::Nothing, idempotent)
    }

    /// As the attribute and messages write it: `unknown`.
    pub fn spelling(self) -> String {
        self.name().to_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derive's effects are the runtime's, spelled as its wire form.
    #[test]
    fn effects_mirror_the_runtime() {
        use envelope::Effect as Theirs;
        let theirs = [Theirs::Nothing, Theirs::Partial, Theirs::Unknown];
        assert_eq!(Effect::ALL.len(), theirs.len());
        for theirs in theirs {
            let ours = Effect::from_name(&format!("{theirs:?}"));
            assert_eq!(ours.map(Effect::spelling).as_deref(), Some(theirs.as_str()));
        }
        for effect in Effect::ALL {
            assert_eq!(Effect::from_ident(&effect.ident()).ok(), Some(*effect));
        }
    }
}
