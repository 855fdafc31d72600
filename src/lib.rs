//! Turn error enums into actionable, agent-facing error payloads.
//!
//! When a tool called by an LLM agent fails, the model needs more than a
//! string: a stable class, a clean message with no secrets, who has to fix
//! it, the next tool to call, near-miss names, next steps and how long to
//! wait. `#[derive(Envelope)]` generates that payload, an [`ErrorEnvelope`],
//! from annotations on your error type, together with a [`ToolResult`] in
//! the wire form of the `multi-llm` crate and the MCP `CallToolResult` JSON.
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
//! The [`guide`] has a chapter per topic: the attributes, retries and side
//! effects, the wire forms, one server with many error types, real-world
//! ports and the integrations. The attribute reference is the documentation
//! of the [`Envelope`](macro@Envelope) derive.
//!
//! - [`args::parse`] turns a tool's JSON arguments into its argument type or
//!   an `INVALID_ARGUMENTS` envelope whose `argument_errors` say where each
//!   problem is.
//! - [`catalog_markdown`] and [`catalog_json`] render a type's
//!   `Envelope::catalog()` for tool descriptions and docs.
//! - [`from_error`] and [`Recognizer`] give an envelope for any
//!   `&dyn std::error::Error` by walking its `source()` chain (a derived
//!   type is seen only through a `Recognizer` that names it; see
//!   [`guide::many_errors`]).
//!
//! # Tool calls
//!
//! The facts that decide an agent's next move belong to the call, not to
//! the error type: did the call change anything, may it be repeated, which
//! id ties the answer to the server's log, did the client cancel. A
//! [`CallContext`] is made once per tool call (with rmcp, it is a tool
//! parameter that rmcp fills), and every error of the call becomes the
//! answer through it: `let note = store.get(&id).or_fail(&call)?;`
//! ([`OrFail`]). A read-only call's transient failure is retryable; the
//! same failure of a write that is not idempotent says to check first.
//!
//! # One path per output
//!
//! Every output has one public path, on the [`Envelope`] trait where it
//! applies to every error (and so to [`ErrorEnvelope`] itself; bring the
//! trait into scope with `use envelope::Envelope`):
//!
//! | output | path |
//! |---|---|
//! | the envelope | [`Envelope::to_envelope`], [`Envelope::into_envelope`], `ErrorEnvelope::from(error)` |
//! | its JSON | [`Envelope::to_json_string`] (text), [`ErrorEnvelope::to_json`] (a `serde_json::Value`) |
//! | its prose form | `Display` of [`ErrorEnvelope`] |
//! | the LLM tool result (`multi-llm`'s shape) | [`Envelope::to_tool_result`], [`Envelope::to_tool_result_json`] |
//! | a provider's tool message | the [`ToolResult`] methods below |
//! | the MCP `CallToolResult` JSON | [`Envelope::to_mcp_result`] |
//! | rmcp's `CallToolResult` (feature `rmcp`) | `CallToolResult::from(error)` |
//! | RFC 9457 problem details (feature `http`) | `Envelope::to_problem_details`; the response: `problem::http_response`, or axum's `IntoResponse` (feature `axum`) |
//! | the catalog of a type's errors | [`catalog_markdown`], [`catalog_json`] over [`Envelope::catalog`] |
//!
//! # Provider shapes
//!
//! A chat loop sends a tool's outcome back in its provider's shape. Build
//! the [`ToolResult`] (`ToolResult::success(id, output)`, or
//! `error.to_tool_result(id)`), then:
//!
//! | API | method | shape |
//! |---|---|---|
//! | OpenAI Chat Completions | [`ToolResult::to_openai_message`] | `{"role":"tool","tool_call_id":..,"content":..}` |
//! | OpenAI Responses | [`ToolResult::to_openai_responses_item`] | `{"type":"function_call_output","call_id":..,"output":..}` |
//! | Anthropic Messages | [`ToolResult::to_anthropic_block`] | `{"type":"tool_result","tool_use_id":..,"content":..,"is_error":true}` |
//! | Gemini | [`ToolResult::to_gemini_part`] | `{"functionResponse":{"id":..,"name":..,"response":{"output":..}}}`, a failure under `"error"` |
//!
//! ```
//! use envelope::{Envelope, ErrorClass, ErrorEnvelope, ToolResult};
//! use serde_json::json;
//!
//! let failure = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "no city named Pariss")
//!     .with_fuzzy_matches(vec!["Paris".into()])
//!     .to_tool_result("call_7");
//! assert_eq!(
//!     failure.to_openai_message(),
//!     json!({"role": "tool", "tool_call_id": "call_7", "content": failure.content}),
//! );
//! assert_eq!(
//!     failure.to_openai_responses_item(),
//!     json!({"type": "function_call_output", "call_id": "call_7", "output": failure.content}),
//! );
//! assert_eq!(
//!     failure.to_anthropic_block(),
//!     json!({"type": "tool_result", "tool_use_id": "call_7", "content": failure.content, "is_error": true}),
//! );
//! assert_eq!(
//!     failure.to_gemini_part("get_weather"),
//!     json!({"functionResponse": {"id": "call_7", "name": "get_weather", "response": {
//!         "error": failure.content
//!     }}}),
//! );
//!
//! let success = ToolResult::success("call_8", "18 °C, clear");
//! assert_eq!(
//!     success.to_anthropic_block(),
//!     json!({"type": "tool_result", "tool_use_id": "call_8", "content": "18 °C, clear"}),
//! );
//! assert_eq!(
//!     success.to_gemini_part("get_weather"),
//!     json!({"functionResponse": {"id": "call_8", "name": "get_weather", "response": {"output": "18 °C, clear"}}}),
//! );
//! ```
//!
//! The `chat_tools` example runs a tool loop with all four
//! (`cargo run -p envelope-test-suite --example chat_tools`).
//!
//! # Optional features
//!
//! All off by default. This table is the one description of each, except
//! that a library's feature is described by its module; the
//! [`guide::integrations`] chapter shows them at work.
//!
//! | feature | adds | turns on |
//! |---|---|---|
//! | `rmcp` | rmcp (3.11) servers: `rmcp::Router`, the tool router that runs each call inside its [`CallContext`] (name, declared annotations, correlation id, cancellation) so every error result, plain `?` included, is answered through it, with near-miss names for unknown tools and, opt-in, the draft SEP-3313 tool-failure `_meta` (`rmcp::Router::with_tool_failure_meta`); derived types and `ErrorEnvelope` are tool errors (`IntoCallToolResult`) and convert into `rmcp::model::CallToolResult`, so `Result<Json<T>, ErrorEnvelope>` is a tool's return type with no glue; the argument extractor `args::Args` | `schemars` |
//! | `schemars` | `JsonSchema` (schemars 1.x) for [`ErrorEnvelope`], [`ErrorClass`], [`UserErrorCategory`] and [`ToolResult`], for a tool's `outputSchema`; `args::Args` | |
//! | `jsonschema` | `args::parse_with_schema`: every problem in a tool's arguments at once, checked against the argument type's JSON Schema | |
//! | `tracing` | `log::report`: one `tracing` event per error for the operator, with its `source()` chain and correlation id | |
//! | `http` | RFC 9457 problem details: `Envelope::to_problem_details()`, the `problem` module (`ProblemDetails`, `http_response`, `CONTENT_TYPE`), with the `http` crate's types | |
//! | `axum` | axum 0.8 (without its default features): `IntoResponse` for derived types and `ErrorEnvelope` (a problem details response with `Retry-After`); the extractors `axum::{Json, Query, Path}` that reject in problem details; `axum::RouterExt::answer_failures` (404 and 405 in problem details, the request's `CallContext`: correlation id, the method's retry safety, one log line) | `http`, `schemars` |
//! | a library's name: the modules labelled with a feature under [Modules](#modules) (`rusqlite`, `sqlx`, ...) | [`Envelope`] for that library's error types: `?` turns one into a classified envelope, `#[envelope(transparent)]` wraps it, and a source chain through one is recognised. The module's documentation is the one description of its mapping: the table, the versions it covers, the crates it adds and the Rust it needs | |
//! | `postgres` | `idempotency::PostgresStore`: keyed calls' answers in a Postgres table shared by a server's replicas (sqlx's Postgres driver, no runtime or TLS of its own: your `sqlx` features choose them). Turns on `sqlx`; adds 38 crates to it (`cargo tree -e normal,build`). Needs Rust 1.94, as sqlx 0.9 does | |
//! | `host` | the other side, for agent hosts: `host::read_tool_result` (an MCP `CallToolResult` of any server: our envelope, the draft SEP-3313 `_meta`, the official SDKs' texts, plain text), `host::read_jsonrpc_error`, `host::read_http` (problem details, other frameworks' validation bodies, bare statuses, `Retry-After`), with `rmcp` and `http` for their types, every text bounded; `host::next_move` (repeat after a delay, postpone, fix the arguments, call another tool, pick a near miss, ask the user, stop) within a `host::RetryPolicy`, `host::Retries` (jitter, a budget per run) and `host::model_text`; with `rmcp`, `host::call_tool`, the retry loop over rmcp's client. Adds 6 crates (`httpdate`, `fastrand`, `uuid` and its `getrandom`, `cfg-if`, `libc`), and with `rmcp` turns on rmcp's `client` (1 more: `tokio-stream`) | |

// A link to an item of a feature that is off cannot resolve, so a docs
// build with a subset of the features does not check links; the build
// with every feature (docs.rs, `.ci/run`) checks every one.
#![cfg_attr(
    not(all(
        feature = "rmcp",
        feature = "schemars",
        feature = "jsonschema",
        feature = "tracing",
        feature = "http",
        feature = "axum",
        feature = "rusqlite",
        feature = "sqlx",
        feature = "sqlx08",
        feature = "postgres",
        feature = "reqwest",
        feature = "reqwest012",
        feature = "tokio",
        feature = "host",
        feature = "governor"
    )),
    allow(rustdoc::broken_intra_doc_links)
)]
#![forbid(unsafe_code)]
// On docs.rs: label each feature-gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

// Everything public of the runtime, integrations included (each under
// its feature), beside the derive of the same name as the trait.
pub use envelope_core::*;
pub use envelope_derive::Envelope;

pub mod guide;

/// Support for derived code; not public API and exempt from semver.
#[doc(hidden)]
pub mod __private {
    pub use envelope_core::__private::*;

    pub use crate::__envelope_error_text as error_text;
    pub use crate::__envelope_integrations as integrations;
}

/// The text of a derived error for its log line, `error_text!(&value)`:
/// its `Display` and `source()` chain when the type is a
/// `std::error::Error`, else `None`. `ErrorText` is found first by method
/// resolution, `NoErrorText` (one `&` further) otherwise, so the derived
/// impls need not name the bound.
#[doc(hidden)]
#[macro_export]
macro_rules! __envelope_error_text {
    ($value:expr) => {{
        #[allow(unused_imports)]
        use $crate::__private::{ErrorText as _, NoErrorText as _};
        (&$crate::__private::Cause($value)).text()
    }};
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
/// - `rmcp::handler::server::tool::IntoCallToolResult for T`: a tool error
///   result with the envelope's JSON in a text block and the text a model
///   reads after it, so a tool returning
///   `Result<Json<Row>, T>` needs no glue; the envelope stays out of
///   `structuredContent`, which a declared `outputSchema` describes (MCP
///   2025-06-18, "Structured Content").
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
        impl $($generics)* $crate::__private::rmcp::IntoCallToolResult for $($ty)* $($where)* {
            fn into_call_tool_result(
                self,
            ) -> ::core::result::Result<
                $crate::__private::rmcp::CallToolResponse,
                $crate::__private::rmcp::ErrorData,
            > {
                let text = $crate::__private::error_text!(&self);
                $crate::__private::rmcp::into_call_tool_result(self, text)
            }
        }

        #[automatically_derived]
        #[allow(deprecated)]
        impl $($generics)* ::core::convert::From<$($ty)*> for $crate::__private::rmcp::CallToolResult $($where)* {
            #[inline]
            fn from(error: $($ty)*) -> Self {
                let text = $crate::__private::error_text!(&error);
                $crate::__private::rmcp::call_tool_result(error, text)
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
/// for T` (axum 0.8), the envelope as an RFC 9457 problem details response
/// with the class's status and `Retry-After` (`problem::http_response`),
/// so a handler returns `Result<Json<Row>, T>` with no glue; the response
/// carries the failure, with the error's `Display` and `source()` chain
/// when `T` is a `std::error::Error`, for `axum::RouterExt::answer_failures`.
#[cfg(feature = "axum")]
#[doc(hidden)]
#[macro_export]
macro_rules! __envelope_axum {
    (impl [$($generics:tt)*] for [$($ty:tt)*] [$($where:tt)*]) => {
        #[automatically_derived]
        #[allow(deprecated)]
        impl $($generics)* $crate::__private::axum::IntoResponse for $($ty)* $($where)* {
            fn into_response(self) -> $crate::__private::axum::Response {
                let text = $crate::__private::error_text!(&self);
                $crate::__private::axum::into_response(self, text)
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
