//! Renderers: the envelope and tool results in the shapes other parties
//! read. Types own their own wire form (serde); these modules build the
//! shapes of protocols around them and know no trait: MCP's
//! `CallToolResult` JSON, the providers' tool messages, the prose form of
//! `Display`, a type's catalog as Markdown and JSON, and RFC 9457 problem
//! details for HTTP APIs (feature `http`).

mod catalog;
pub(crate) mod mcp;
#[cfg(feature = "http")]
pub mod problem;
mod provider;
pub(crate) mod text;

pub use catalog::{catalog_json, catalog_markdown};
