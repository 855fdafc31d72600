//! Renderers: the envelope and tool results in the shapes other parties read.
//!
//! Types own their own wire form (serde); these modules build the shapes of
//! protocols around them: MCP's `CallToolResult`, provider tool messages,
//! the prose form of `Display`, and a type's error catalog as Markdown and
//! JSON.

pub mod catalog;
pub mod mcp;
pub mod provider;
pub(crate) mod text;
