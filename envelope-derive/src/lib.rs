//! `#[derive(Envelope)]`: the derive half of the `envelope` crate. Use it
//! through the facade (`envelope::Envelope`); this crate holds only the
//! macro.
//!
//! The pipeline runs one way: `attr` parses `#[envelope(...)]` into typed
//! attributes, `ast` holds the borrowed input with them, `valid` checks every
//! rule and builds the model, `expand` writes the tokens, and `fallback`
//! turns errors into `compile_error!` plus stub impls.

#![forbid(unsafe_code)]

mod ast;
mod attr;
mod ctxt;
mod expand;
mod fallback;
mod fmt;
mod generics;
mod names;
mod valid;

#[cfg(test)]
mod tests;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `envelope::Envelope` and `From<T>` / `From<&T>` for
/// `envelope::ErrorEnvelope`.
///
/// Every variant of an enum (or a struct, whose container attributes act as
/// its single variant's) needs a class, written on the variant or as a
/// default on the enum; everything else is optional. The full attribute
/// reference is in the README of the `envelope` crate.
///
/// ```
/// use envelope::{Envelope, ErrorClass, ErrorEnvelope};
///
/// #[derive(Debug, Envelope)]
/// #[envelope(suggested_tools(ObjectNotFound = "schema_inspect"))]
/// enum DbToolError {
///     #[envelope(class = ObjectNotFound, message = "object {name} does not exist")]
///     ObjectNotFound {
///         name: String,
///         #[envelope(fuzzy_matches)]
///         candidates: Vec<String>,
///     },
///     #[envelope(class = Busy, next_step = "wait, then retry the same call")]
///     Busy {
///         #[envelope(retry_after_ms)]
///         retry_after_ms: u64,
///     },
///     #[envelope(class = Unauthenticated, message = "login failed for {user}")]
///     Login {
///         user: String,
///         #[envelope(secret)]
///         password: String,
///     },
/// }
///
/// # impl std::fmt::Display for DbToolError {
/// #     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
/// #         f.write_str("db tool error")
/// #     }
/// # }
/// let err = DbToolError::ObjectNotFound {
///     name: "EMPLOYES".into(),
///     candidates: vec!["EMPLOYEES".into()],
/// };
/// assert_eq!(err.error_class(), ErrorClass::ObjectNotFound);
/// assert_eq!(err.code(), Some("OBJECT_NOT_FOUND"));
/// let envelope: ErrorEnvelope = err.into();
/// assert_eq!(
///     envelope.to_json_string(),
///     r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"object EMPLOYES does not exist","suggested_tool":"schema_inspect","fuzzy_matches":["EMPLOYEES"],"code":"OBJECT_NOT_FOUND","category":"NotFound"}"#,
/// );
///
/// let login = DbToolError::Login { user: "ada".into(), password: "hunter2".into() };
/// let result = login.to_tool_result("call_42");
/// assert!(!result.content.contains("hunter2"));
/// assert_eq!(login.to_envelope().message, "login failed for ada");
///
/// let busy = DbToolError::Busy { retry_after_ms: 250 };
/// assert_eq!(busy.to_envelope().retry_after_ms, Some(250));
/// assert_eq!(busy.to_envelope().message, "the server is busy; retry the same call later");
/// ```
#[proc_macro_derive(Envelope, attributes(envelope))]
pub fn derive_envelope(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input)
        .unwrap_or_else(|error| fallback::expand(&input, &error))
        .into()
}
