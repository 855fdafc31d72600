//! Runtime half of `envelope`: the agent-facing error payload and its
//! renderers.
//!
//! Users depend on the facade, package `agent-envelope` (library
//! `envelope`), which re-exports this crate together with
//! `#[derive(Envelope)]`; its documentation describes every item and every
//! feature, and the examples here are written with its paths.
//!
//! The files run one way: the types (`class`, `category`, `effect`,
//! `argument_error`, `envelope`, `tool_result`, `variant_spec`), then the
//! renderers (`render/`), then the [`Envelope`] trait over them, the call
//! context that answers a tool call's errors (`call`), the impls
//! for std errors (`std_errors`), the readers (`chain`, `args`), the
//! operator log (`log`, feature `tracing`), one module per integration
//! (`integrations/`) and the derive's support (`role`, `__private`).

#![forbid(unsafe_code)]
// On docs.rs: label each feature-gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod args;
mod argument_error;
mod call;
mod category;
mod chain;
mod class;
mod effect;
mod envelope;
mod envelope_trait;
pub mod fuzzy;
#[cfg(feature = "host")]
pub mod host;
#[cfg(any(
    feature = "axum",
    feature = "rmcp",
    feature = "rusqlite",
    feature = "sqlx",
    feature = "reqwest",
    feature = "tokio"
))]
#[doc(hidden)]
pub mod integrations;
mod lenient;
#[cfg(feature = "tracing")]
pub mod log;
mod render;
mod role;
mod std_errors;
mod tool_result;
mod variant_spec;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use crate::argument_error::{ArgumentError, ArgumentErrorKind};
pub use crate::call::{CallBehaviour, CallContext, OrFail};
pub use crate::category::UserErrorCategory;
pub use crate::chain::{MAX_SOURCE_LINKS, Recognizer, UNCLASSIFIED, from_error};
pub use crate::class::{ErrorClass, Owner, ParseClassError};
pub use crate::effect::Effect;
pub use crate::envelope::{EnvelopeFields, ErrorEnvelope};
pub use crate::envelope_trait::Envelope;
#[cfg(feature = "axum")]
#[doc(inline)]
pub use crate::integrations::axum;
#[cfg(feature = "reqwest")]
#[doc(inline)]
pub use crate::integrations::reqwest;
#[cfg(feature = "rmcp")]
#[doc(inline)]
pub use crate::integrations::rmcp;
#[cfg(feature = "rusqlite")]
#[doc(inline)]
pub use crate::integrations::rusqlite;
#[cfg(feature = "sqlx")]
#[doc(inline)]
pub use crate::integrations::sqlx;
#[cfg(feature = "tokio")]
#[doc(inline)]
pub use crate::integrations::tokio;
#[cfg(feature = "http")]
pub use crate::render::problem;
pub use crate::render::{catalog_json, catalog_markdown};
pub use crate::tool_result::ToolResult;
pub use crate::variant_spec::VariantSpec;
