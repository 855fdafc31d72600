//! The wire fields a constant attribute sets: `ora_code = 942`,
//! `retry_after_ms = 250`, `help_url = "https://..."`. One row each in
//! [`CONSTANTS`]; parsing, the container default, the catalog entry and the
//! envelope's setter all follow from the row. Adding one is a row here plus
//! the field in the core (`ErrorEnvelope` with its setter and reader,
//! `VariantSpec` with its `with_*`).

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::{LitInt, LitStr};

/// The literal a constant takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ty {
    /// A non-empty string literal.
    Str,
    /// An `i32` integer literal.
    I32,
    /// A `u64` integer literal.
    U64,
}

/// One constant attribute.
#[derive(PartialEq, Eq)]
pub(crate) struct Constant {
    /// The key, which is also the name of the envelope field, of its setter
    /// in `__private::set` and of `VariantSpec::with_{name}`.
    pub name: &'static str,
    pub ty: Ty,
    /// Whether the container may set it as every variant's default.
    pub on_container: bool,
    /// The attribute as written, for messages.
    pub example: &'static str,
}

/// Every constant attribute, in the order the envelope's setters run.
pub(crate) const CONSTANTS: &[Constant] = &[
    Constant {
        name: "ora_code",
        ty: Ty::I32,
        on_container: false,
        example: "ora_code = 942",
    },
    Constant {
        name: "retry_after_ms",
        ty: Ty::U64,
        on_container: false,
        example: "retry_after_ms = 250",
    },
    Constant {
        name: "help_url",
        ty: Ty::Str,
        on_container: true,
        example: "help_url = \"https://...\"",
    },
];

/// A constant's parsed value.
#[derive(Clone)]
pub(crate) enum Value {
    Str(LitStr),
    I32(i32),
    U64(u64),
}

impl ToTokens for Value {
    /// The value as a typed literal (`942i32`, `250u64`, `"https://..."`).
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let suffixed = |digits: String| LitInt::new(&digits, Span::call_site());
        match self {
            Value::Str(lit) => {
                let value = lit.value();
                quote!(#value).to_tokens(tokens);
            }
            Value::I32(n) => suffixed(format!("{n}i32")).to_tokens(tokens),
            Value::U64(n) => suffixed(format!("{n}u64")).to_tokens(tokens),
        }
    }
}

/// The constants an item sets, in [`CONSTANTS`]' order.
pub(crate) type Constants = Vec<(&'static Constant, Value)>;

/// The value `item` sets for `constant`.
pub(crate) fn get<'c>(item: &'c Constants, constant: &Constant) -> Option<&'c Value> {
    item.iter()
        .find(|(c, _)| *c == constant)
        .map(|(_, value)| value)
}

/// A variant's constants: its own, else the container's defaults.
pub(crate) fn merged(own: &Constants, container: &Constants) -> Constants {
    CONSTANTS
        .iter()
        .filter_map(|constant| {
            let value = get(own, constant).or_else(|| get(container, constant))?;
            Some((constant, value.clone()))
        })
        .collect()
}
