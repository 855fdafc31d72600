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
//! enough. It is published as `agent-envelope` (the name `envelope` is taken
//! on crates.io) and imported as `envelope`:
//!
//! ```toml
//! [dependencies]
//! agent-envelope = "0.1"
//! ```
//!
//! # Optional features
//!
//! - `rmcp`: conversions into the rmcp SDK's `CallToolResult`
//!   (`Envelope::to_call_tool_result`), and every derived type and
//!   [`ErrorEnvelope`] itself become rmcp tool errors, so a tool returning
//!   `Result<Json<T>, MyError>` or `Result<String, ErrorEnvelope>` needs
//!   no glue. The envelope then travels as JSON text and stays out of
//!   `structuredContent`, which the tool's `outputSchema` describes. Turns
//!   on `schemars`, for the argument extractor `args::Args`
//!   (`Parameters<Args<T>>`).
//! - `schemars`: `JsonSchema` (schemars 1.x) for [`ErrorEnvelope`],
//!   [`ErrorClass`], [`UserErrorCategory`] and [`ToolResult`], for a tool's
//!   `outputSchema`; and `args::Args`.
//! - `jsonschema`: `args::parse_with_schema`, which reports every problem
//!   in a tool's arguments at once by checking them against the argument
//!   type's JSON Schema (the `jsonschema` crate); `args::Args` uses it.
//! - `http`: RFC 9457 problem details for HTTP APIs:
//!   `render::problem::problem_details` (`ErrorEnvelope::to_problem_details`,
//!   `Envelope::to_problem_details`) gives `type`, `title`, `status`,
//!   `detail`, `instance` and the envelope's other keys as extension
//!   members; `render::problem::http_response` the `http::Response` with
//!   `Content-Type: application/problem+json` and `Retry-After`;
//!   `ErrorClass::status_code` the `http` crate's status. Uses the `http`
//!   crate.
//! - `axum`: every derived type and [`ErrorEnvelope`] itself implement
//!   axum 0.8's `IntoResponse` (that problem details response), so a
//!   handler returning `Result<Json<T>, MyError>` needs no glue. Turns on
//!   `http`; depends on `axum-core` only, no server or runtime.
//!
//! [`args::parse`] turns a tool's JSON arguments into its argument type or
//! an `INVALID_ARGUMENTS` envelope whose `argument_errors` say where each
//! problem is (a JSON Pointer), what kind it is, what was expected and
//! which names were probably meant.
//!
//! [`catalog_markdown`] and [`catalog_json`] render a type's
//! `Envelope::catalog()` for tool descriptions and docs.
//!
//! [`from_error`] and [`Recognizer`] give an envelope for any
//! `&dyn std::error::Error` (an `anyhow::Error`, a `Box<dyn Error>`) by
//! walking its `source()` chain; `std::io::Error`, `serde_json::Error` and
//! the std parse errors implement [`Envelope`] themselves, so they can be
//! `#[envelope(transparent)]` fields.

#![forbid(unsafe_code)]
// On docs.rs: label each feature-gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

#[cfg(feature = "tracing")]
pub use envelope_core::log;
pub use envelope_core::render::catalog::{catalog_json, catalog_markdown};
pub use envelope_core::{
    ArgumentError, ArgumentErrorKind, Effect, Envelope, ErrorClass, ErrorEnvelope, Owner,
    ParseClassError, ToolResult, UserErrorCategory, VariantSpec, args, fuzzy, render,
};
pub use envelope_core::{MAX_SOURCE_LINKS, Recognizer, UNCLASSIFIED, from_error};
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
///
/// It calls one helper macro per integration feature (`__envelope_rmcp`,
/// `__envelope_axum`), each defined twice here in the facade, selected by
/// `cfg`: with its feature it emits that feature's impls, without it
/// nothing; so any combination of features composes. A `cfg` written
/// inside the expansion would be evaluated against the user's crate, whose
/// features are not ours.
#[doc(hidden)]
#[macro_export]
macro_rules! __envelope_integrations {
    (impl [$($generics:tt)*] for [$($ty:tt)*] [$($where:tt)*]) => {
        $crate::__envelope_rmcp! { impl [$($generics)*] for [$($ty)*] [$($where)*] }
        $crate::__envelope_axum! { impl [$($generics)*] for [$($ty)*] [$($where)*] }
    };
}

/// Under `rmcp`, for the derived type `T`:
/// - `rmcp::model::IntoContents for T`: one text block with the envelope's
///   JSON. Through rmcp's blanket impls this makes `T` an
///   `IntoCallToolResult`, so a tool returning `Result<Json<Row>, T>` needs
///   no glue; rmcp marks the `Err` result `is_error: true` and the envelope
///   stays out of `structuredContent`, which a declared `outputSchema`
///   describes (MCP 2025-06-18, "Structured Content").
/// - `From<T> for rmcp::model::CallToolResult`: the full result with the
///   envelope in `structuredContent`, for tools without an `outputSchema`
///   (`Result<String, CallToolResult>` and `?`).
#[cfg(feature = "rmcp")]
#[doc(hidden)]
#[macro_export]
macro_rules! __envelope_rmcp {
    (impl [$($generics:tt)*] for [$($ty:tt)*] [$($where:tt)*]) => {
        #[automatically_derived]
        #[allow(deprecated)]
        impl $($generics)* $crate::__private::rmcp::IntoContents for $($ty)* $($where)* {
            fn into_contents(self) -> $crate::__private::Vec<$crate::__private::rmcp::ContentBlock> {
                $crate::__private::rmcp::contents(self)
            }
        }

        #[automatically_derived]

        #[allow(deprecated)]
        impl $($generics)* ::core::convert::From<$($ty)*> for $crate::__private::rmcp::CallToolResult $($where)* {
            #[inline]
            fn from(error: $($ty)*) -> Self {
                $crate::__private::rmcp::call_tool_result(error)
            }
        }
    };
}

/// Without `rmcp`: nothing.
#[cfg(not(feature = "rmcp"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __envelope_rmcp {
    (impl [$($generics:tt)*] for [$($ty:tt)*] [$($where:tt)*]) => {};
}

/// Under `axum`, for the derived type `T`: `axum::response::IntoResponse
/// for T` (axum 0.8, through `axum-core`), the envelope as an RFC 9457
/// problem details response with the class's status and `Retry-After`
/// (`render::problem::http_response`), so a handler returns
/// `Result<Json<Row>, T>` with no glue.
#[cfg(feature = "axum")]
#[doc(hidden)]
#[macro_export]
macro_rules! __envelope_axum {
    (impl [$($generics:tt)*] for [$($ty:tt)*] [$($where:tt)*]) => {
        #[automatically_derived]
        #[allow(deprecated)]
        impl $($generics)* $crate::__private::axum::IntoResponse for $($ty)* $($where)* {
            fn into_response(self) -> $crate::__private::axum::Response {
                $crate::__private::axum::into_response(self)
            }
        }
    };
}

/// Without `axum`: nothing.
#[cfg(not(feature = "axum"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __envelope_axum {
    (impl [$($generics:tt)*] for [$($ty:tt)*] [$($where:tt)*]) => {};
}

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
