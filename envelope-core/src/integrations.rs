//! The bodies of the impls the facade's `integrations!` macro emits for a
//! derived type, one module per optional integration; `__private`
//! re-exports them for the macro. Not public API.

/// What the facade's `integrations!` macro names under the `axum` feature:
/// the trait it implements and the body of that impl.
#[cfg(feature = "axum")]
pub mod axum {
    pub use axum_core::response::{IntoResponse, Response};

    use crate::convert::Envelope;

    /// The error as a problem details response (see
    /// `render::problem::http_response`).
    #[must_use]
    pub fn into_response<E: Envelope>(error: E) -> Response {
        IntoResponse::into_response(error.into_envelope())
    }
}

/// What the facade's `integrations!` macro names under the `rmcp` feature:
/// the rmcp traits and types it implements, and the bodies of those impls.
#[cfg(feature = "rmcp")]
pub mod rmcp {
    pub use ::rmcp::model::{CallToolResult, ContentBlock, IntoContents};

    use crate::convert::Envelope;

    /// The error as rmcp content: one text block with the envelope's JSON.
    /// rmcp turns `Err` of a type with these contents into a tool result
    /// with `is_error: Some(true)` and no structured content.
    #[must_use]
    pub fn contents<E: Envelope>(error: E) -> Vec<ContentBlock> {
        crate::render::mcp::rmcp_contents(&error.into_envelope())
    }

    /// The error as a full `CallToolResult`, envelope in structured content.
    #[must_use]
    pub fn call_tool_result<E: Envelope>(error: E) -> CallToolResult {
        crate::render::mcp::rmcp_call_tool_result(&error.into_envelope())
    }
}
