//! `argument(path = "/tag", kind = unknown_variant, ...)` on a variant: one
//! problem in the tool's arguments, as `envelope::ArgumentError` holds it.
//! The kinds mirror the runtime's `ArgumentErrorKind`, checked against it
//! by the test below.

use proc_macro2::Span;
use syn::{Ident, LitStr};

use crate::fmt::FieldRef;
use crate::names::{self, Named};

/// An `ArgumentErrorKind`, written as its wire name (`unknown_variant`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ArgKind {
    Missing,
    WrongType,
    UnknownField,
    UnknownVariant,
    OutOfRange,
    Other,
}

impl Named for ArgKind {
    const KEY: &'static str = "argument kind";
    const ENUM: &'static str = "ArgumentErrorKind";
    /// In the runtime's order.
    const ALL: &'static [ArgKind] = &[
        ArgKind::Missing,
        ArgKind::WrongType,
        ArgKind::UnknownField,
        ArgKind::UnknownVariant,
        ArgKind::OutOfRange,
        ArgKind::Other,
    ];

    fn name(self) -> &'static str {
        match self {
            ArgKind::Missing => "Missing",
            ArgKind::WrongType => "WrongType",
            ArgKind::UnknownField => "UnknownField",
            ArgKind::UnknownVariant => "UnknownVariant",
            ArgKind::OutOfRange => "OutOfRange",
            ArgKind::Other => "Other",
        }
    }

    /// The attribute writes a kind as its wire name.
    fn from_ident(ident: &Ident) -> syn::Result<ArgKind> {
        let text = names::unraw(ident);
        if let Some(kind) = ArgKind::ALL.iter().copied().find(|k| k.spelling() == text) {
            return Ok(kind);
        }
        let spellings: Vec<String> = ArgKind::ALL.iter().map(|k| k.spelling()).collect();
        let known: Vec<&str> = spellings.iter().map(String::as_str).collect();
        Err(names::unknown_name(ident, Self::KEY, &known))
    }
}

impl ArgKind {
    /// The wire name: `unknown_variant`.
    pub fn spelling(self) -> String {
        names::upper_snake(self.name()).to_lowercase()
    }
}

/// One `argument(...)` as written: the keys checked one by one, the
/// `suggestions` field resolved later, in `valid.rs`.
pub(crate) struct ArgumentAttr {
    /// The span of the `argument` key.
    pub span: Span,
    /// A JSON Pointer: `""` or starting with `/`.
    pub path: LitStr,
    pub kind: ArgKind,
    pub expected: Option<LitStr>,
    /// The field whose list of strings becomes the problem's suggestions.
    pub suggestions: Option<(FieldRef, Span)>,
}

/// The keys inside `argument(...)`, for "did you mean".
pub(crate) const KEYS: [&str; 4] = ["path", "kind", "expected", "suggestions"];

/// The example every message about `argument(...)` shows.
pub(crate) const EXAMPLE: &str = "argument(path = \"/tag\", kind = unknown_variant)";

#[cfg(test)]
mod tests {
    use super::*;

    /// The derive's kinds are the runtime's, spelled as its wire form.
    #[test]
    fn kinds_mirror_the_runtime() {
        use envelope::ArgumentErrorKind as Theirs;
        let theirs = [
            Theirs::Missing,
            Theirs::WrongType,
            Theirs::UnknownField,
            Theirs::UnknownVariant,
            Theirs::OutOfRange,
            Theirs::Other,
        ];
        assert_eq!(ArgKind::ALL.len(), theirs.len());
        for (ours, theirs) in ArgKind::ALL.iter().zip(theirs) {
            assert_eq!(ours.spelling(), theirs.as_str());
            assert_eq!(ours.name(), format!("{theirs:?}"));
            let ident = Ident::new(theirs.as_str(), Span::call_site());
            assert_eq!(ArgKind::from_ident(&ident).ok(), Some(*ours));
        }
        let typo = Ident::new("unknown_varient", Span::call_site());
        assert_eq!(
            ArgKind::from_ident(&typo)
                .err()
                .map(|e| e.to_string())
                .as_deref(),
            Some("unknown argument kind `unknown_varient`; did you mean `unknown_variant`?")
        );
    }
}
