//! `#[derive(Envelope)]`: the derive half of `envelope`. Use it through the
//! facade, package `agent-envelope` (`use envelope::Envelope;`); this crate
//! holds only the macro. The attribute reference, the rules and the wire
//! forms are in the documentation of the [`Envelope`](macro@Envelope) derive.
//!
//! The pipeline runs one way: `attr` parses `#[envelope(...)]` into typed
//! attributes, `ast` holds the borrowed input with them, `valid` checks every
//! rule and builds the model, `expand` writes the tokens, and `fallback`
//! turns errors into `compile_error!` plus stub impls.

#![forbid(unsafe_code)]
// On docs.rs: label each feature-gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod argument;
mod ast;
mod attr;
mod category;
mod class;
mod constant;
mod ctxt;
mod effect;
mod expand;
mod fallback;
mod fmt;
mod generics;
mod names;
mod resource;
mod valid;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod ui_cases;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `envelope::Envelope` and `From<T>` / `From<&T>` for
/// `envelope::ErrorEnvelope`.
///
/// Every variant of an enum (or a struct, whose container attributes act as
/// its single variant's) needs a class, written on the variant or as a
/// default on the enum; everything else is optional. The sections below are
/// the full reference (`envelope-derive/REFERENCE.md`, which the guide of
/// `agent-envelope` points to), and every example in them runs as a
/// doctest. How retries are decided and the JSON forms are chapters of that
/// guide: <https://docs.rs/agent-envelope/latest/envelope/guide/index.html>.
///
#[doc = include_str!("../REFERENCE.md")]
#[proc_macro_derive(Envelope, attributes(envelope))]
pub fn derive_envelope(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input)
        .unwrap_or_else(|error| fallback::expand(&input, &error))
        .into()
}
