//! Turn error enums into actionable, agent-facing error payloads.
//!
//! When a tool called by an LLM agent fails, the model needs more than a
//! string: a stable class, a clean message with no secrets, who has to fix
//! it, the next tool to call, near-miss names, next steps and how long to
//! wait. `#[derive(Envelope)]` generates that payload, an [`ErrorEnvelope`],
//! from annotations on your error type, together with the seed-compatible
//! [`ToolResult`] and the MCP `CallToolResult` JSON.
//!
//! This crate is the facade: it re-exports the runtime types of
//! `envelope-core` and the derive of `envelope-derive`, so one dependency is
//! enough.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use envelope_core::{
    Envelope, ErrorClass, ErrorEnvelope, Owner, ParseClassError, ToolResult, UserErrorCategory,
    VariantSpec, fuzzy, render,
};
pub use envelope_derive::Envelope;

/// Support for derived code; not public API and exempt from semver.
#[doc(hidden)]
pub mod __private {
    pub use envelope_core::__private::*;

    pub use crate::__envelope_integrations as integrations;
}

/// Impls of other crates' traits for a derived type, one block per optional
/// integration feature. The derive calls it for every type as
/// `integrations! { impl [<generics>] for [<type>] [<where clause>] }`, so
/// the derive never needs to know which features are on. With no
/// integration feature enabled it expands to nothing.
#[doc(hidden)]
#[macro_export]
macro_rules! __envelope_integrations {
    (impl [$($generics:tt)*] for [$($ty:tt)*] [$($where:tt)*]) => {};
}
