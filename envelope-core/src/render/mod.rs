//! Renderers: the envelope and tool results in the shapes other parties read.
//!
//! Types own their own wire form (serde); these modules build the shapes of
//! protocols around them: MCP's `CallToolResult`, provider tool messages, and
//! the prose form of `Display`.

pub mod mcp;
pub mod provider;
pub(crate) mod text;
