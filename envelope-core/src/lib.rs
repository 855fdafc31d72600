//! Runtime half of `envelope`: the agent-facing error payload and its
//! renderers.
//!
//! Most users depend on the facade, package `agent-envelope` (library
//! `envelope`), which re-exports this crate together with
//! `#[derive(Envelope)]`. The pieces:
//!
//! - [`ErrorClass`] and [`Owner`]: the machine-stable class and who must act.
//! - [`UserErrorCategory`]: how the failure should steer the conversation.
//! - [`ErrorEnvelope`]: the payload, with its JSON wire form and text form.
//! - [`ToolResult`]: the result of one tool call for an LLM client, plus the
//!   Anthropic and OpenAI message shapes.
//! - [`render::mcp`]: the MCP `CallToolResult` JSON.
//! - `render::problem` (feature `http`): RFC 9457 problem details
//!   (`application/problem+json`) and the HTTP response that carries them;
//!   with feature `axum`, `ErrorEnvelope` is an axum `IntoResponse`.
//! - [`Envelope`] and [`VariantSpec`]: the trait the derive implements and
//!   the static catalog of variants.
//! - [`fuzzy::suggest`]: near-miss names for `fuzzy_matches`.
//! - [`args`]: a tool's JSON arguments parsed into its argument type, or an
//!   `INVALID_ARGUMENTS` envelope whose [`ArgumentError`]s name every
//!   problem (path, kind, expected, received, suggestions); `args::Args`
//!   is the rmcp extractor.
//! - [`from_error`] and [`Recognizer`]: an envelope for any `&dyn Error`
//!   (`anyhow`, `Box<dyn Error>`) by walking its `source()` chain; std and
//!   `serde_json` errors implement [`Envelope`] themselves.

#![forbid(unsafe_code)]
// On docs.rs: label each feature-gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod args;
mod argument_error;
mod catalog;
mod category;
mod chain;
mod class;
mod convert;
mod effect;
mod envelope;
pub mod fuzzy;
#[cfg(any(feature = "axum", feature = "rmcp"))]
mod integrations;
mod lenient;
#[cfg(feature = "tracing")]
pub mod log;
pub mod render;
mod role;
mod std_errors;
mod tool_result;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use crate::argument_error::{ArgumentError, ArgumentErrorKind};
pub use crate::catalog::VariantSpec;
pub use crate::category::UserErrorCategory;
pub use crate::chain::{MAX_SOURCE_LINKS, Recognizer, UNCLASSIFIED, from_error};
pub use crate::class::{ErrorClass, Owner, ParseClassError};
pub use crate::convert::Envelope;
pub use crate::effect::Effect;
pub use crate::envelope::ErrorEnvelope;
pub use crate::tool_result::ToolResult;
