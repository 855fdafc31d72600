//! Runtime half of `envelope`: the agent-facing error payload and its
//! renderers.
//!
//! Users depend on the facade, package `agent-envelope` (library
//! `envelope`), which re-exports this crate together with
//! `#[derive(Envelope)]`; its documentation describes every item and every
//! feature, and the examples here are written with its paths.
//!
//! The folders run one way, each importing only from the ones before it:
//! `model/` (the wire types, with the one table of class facts), `render/`
//! (the envelope in others' shapes), `convert/` (the [`Envelope`] trait,
//! std errors, source chains), `call/` (the call context, correlation ids
//! and trace context, the operator log), `args/` (argument problems from
//! serde and JSON Schema), `integrations/` (one self-contained module per
//! library feature). `host/` is the other side, reading failures; it
//! imports from the model and `call` (a tool's declared behaviour).
//! `support/` is what generated code calls (`__private`). One call runs
//! the other way: the source-chain walk (`convert/chain.rs`) asks
//! `integrations::find` for the library errors of the enabled features.

#![forbid(unsafe_code)]
// On docs.rs: label each feature-gated item with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]
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

pub mod args;
mod call;
mod convert;
#[cfg(feature = "host")]
pub mod host;
mod integrations;
mod model;
mod render;
mod support;

#[doc(hidden)]
pub use crate::support::private as __private;

pub use crate::call::{CallBehaviour, CallContext, OrFail};
pub use crate::convert::chain::{MAX_SOURCE_LINKS, Recognizer, UNCLASSIFIED, from_error};
pub use crate::convert::envelope_trait::Envelope;
pub use crate::convert::std_errors::DEFAULT_BUSY_RETRY_AFTER;
pub use crate::model::argument_error::{ArgumentError, ArgumentErrorKind};
pub use crate::model::category::UserErrorCategory;
pub use crate::model::class::{ErrorClass, Owner, ParseClassError};
pub use crate::model::contract::{DeclaredFailure, FAILURES_META_KEY};
pub use crate::model::effect::Effect;
pub use crate::model::envelope::{EnvelopeFields, ErrorEnvelope};
// One module per library feature (`envelope::rmcp`, `envelope::rusqlite`).
pub use crate::call::idempotency;
#[cfg(feature = "tracing")]
pub use crate::call::log;
pub use crate::call::rate_limit;
#[doc(inline)]
#[allow(unused_imports)] // none without an integration feature
pub use crate::integrations::*;
pub use crate::model::fuzzy;
pub use crate::model::next_move::{Attempt, NextMove};
pub use crate::model::tool_result::ToolResult;
pub use crate::model::variant_spec::VariantSpec;
#[cfg(feature = "http")]
pub use crate::render::problem;
pub use crate::render::{catalog_json, catalog_markdown};
