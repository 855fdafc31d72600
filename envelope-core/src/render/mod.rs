//! Renderers: the envelope and tool results in the shapes other parties read.
//!
//! Types own their own wire form (serde); these modules build the shapes of
//! protocols around them: MCP's `CallToolResult`, provider tool messages,
//! the prose form of `Display`, a type's error catalog as Markdown and
//! JSON, and RFC 9457 problem details for HTTP APIs (feature `http`).

pub mod catalog;
pub mod mcp;
#[cfg(feature = "http")]
pub mod problem;
pub mod provider;
pub(crate) mod text;
