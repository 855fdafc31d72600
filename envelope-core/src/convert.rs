//! The [`Envelope`] trait: how an error type turns into an [`ErrorEnvelope`].

use serde_json::Value;

use crate::catalog::VariantSpec;
use crate::category::UserErrorCategory;
use crate::class::ErrorClass;
use crate::envelope::ErrorEnvelope;
use crate::tool_result::ToolResult;

/// An error that can describe itself to an LLM agent.
///
/// Usually implemented by `#[derive(Envelope)]`; implementing it by hand is
/// fine too (see the impl for [`ErrorEnvelope`] itself). The three accessors
/// never allocate; `to_envelope` borrows, so the error can still be logged
/// afterwards, and `into_envelope` moves owned strings and vectors into the
/// envelope instead of copying them.
pub trait Envelope {
    /// The machine-stable class of this error. Does not allocate.
    fn error_class(&self) -> ErrorClass;

    /// The conversation-flow category. Does not allocate. The provided
    /// method returns the class's default category.
    fn user_category(&self) -> UserErrorCategory {
        self.error_class().default_category()
    }

    /// The domain code (`"LEASE_REQUIRED"`), if any. Does not allocate. The
    /// provided method returns `None`.
    fn code(&self) -> Option<&'static str> {
        None
    }

    /// The full envelope, built from a borrow of the error.
    fn to_envelope(&self) -> ErrorEnvelope;

    /// The full envelope, consuming the error so owned fields move instead
    /// of being cloned. The provided method calls `to_envelope`.
    fn into_envelope(self) -> ErrorEnvelope
    where
        Self: Sized,
    {
        self.to_envelope()
    }

    /// The `ToolResult` for the tool call `tool_call_id`, with the envelope
    /// JSON as content (see [`ToolResult::error`]).
    ///
    /// For a derived type the JSON is written straight from the error's
    /// fields: the result's two strings are its only allocations.
    fn to_tool_result(&self, tool_call_id: impl Into<String>) -> ToolResult {
        let (content, category) = crate::__private::to_json(self);
        ToolResult {
            tool_call_id: tool_call_id.into(),
            content,
            is_error: true,
            error_category: category,
        }
    }

    /// Appends the envelope's compact JSON to `out`, the same bytes as
    /// `self.to_envelope().to_json_string()`. For a derived type nothing is
    /// allocated besides `out`'s own growth.
    fn write_json(&self, out: &mut String) {
        crate::__private::write_json(self, out);
    }

    /// The envelope's compact JSON, the same bytes as
    /// `self.to_envelope().to_json_string()`; see [`Envelope::write_json`].
    fn to_json_string(&self) -> String {
        crate::__private::to_json(self).0
    }

    /// Describes the envelope to `builder`, part by part. Support for the
    /// derive, which overrides it to pass the error's fields by reference,
    /// so JSON is written without copying them; not public API.
    #[doc(hidden)]
    fn __build<B: crate::__private::Builder>(&self, builder: B) -> B {
        builder.envelope_owned(self.to_envelope())
    }

    /// The MCP `CallToolResult` JSON (see
    /// [`crate::render::mcp::call_tool_result`]).
    fn to_mcp_result(&self) -> Value {
        crate::render::mcp::call_tool_result(&self.to_envelope())
    }

    /// The rmcp SDK's `CallToolResult` for this error (feature `rmcp`):
    /// `is_error: Some(true)`, one text block with the envelope's compact
    /// JSON and `structured_content` set to the envelope object, the same
    /// shape as [`Envelope::to_mcp_result`].
    ///
    /// Return it (or `Err` of it) from a tool that declares no
    /// `outputSchema`; a tool that declares one should leave the envelope out
    /// of `structured_content`, which the derived rmcp conversions do (see
    /// the README's section on rmcp).
    #[cfg(feature = "rmcp")]
    fn to_call_tool_result(&self) -> rmcp::model::CallToolResult {
        crate::render::mcp::rmcp_call_tool_result(&self.to_envelope())
    }

    /// A static description of every variant this type can produce, in
    /// declaration order. The provided method returns an empty slice.
    fn catalog() -> &'static [VariantSpec]
    where
        Self: Sized,
    {
        &[]
    }
}

/// An envelope is its own envelope: the accessors read its fields, and
/// converting clones or moves it.
impl Envelope for ErrorEnvelope {
    fn error_class(&self) -> ErrorClass {
        self.error_class
    }

    fn user_category(&self) -> UserErrorCategory {
        self.effective_category()
    }

    /// The code when it is a `&'static str` (as the derive sets it); `None`
    /// for a code built at run time, which cannot be lent as `'static`.
    fn code(&self) -> Option<&'static str> {
        match &self.code {
            Some(std::borrow::Cow::Borrowed(code)) => Some(code),
            _ => None,
        }
    }

    fn to_envelope(&self) -> ErrorEnvelope {
        self.clone()
    }

    fn into_envelope(self) -> ErrorEnvelope {
        self
    }

    fn to_tool_result(&self, tool_call_id: impl Into<String>) -> ToolResult {
        ToolResult::error(tool_call_id, self)
    }

    fn __build<B: crate::__private::Builder>(&self, builder: B) -> B {
        builder.envelope(self)
    }

    fn to_mcp_result(&self) -> Value {
        crate::render::mcp::call_tool_result(self)
    }

    #[cfg(feature = "rmcp")]
    fn to_call_tool_result(&self) -> rmcp::model::CallToolResult {
        crate::render::mcp::rmcp_call_tool_result(self)
    }
}

impl<T: Envelope + ?Sized> Envelope for Box<T> {
    fn error_class(&self) -> ErrorClass {
        (**self).error_class()
    }

    fn user_category(&self) -> UserErrorCategory {
        (**self).user_category()
    }

    fn code(&self) -> Option<&'static str> {
        (**self).code()
    }

    fn to_envelope(&self) -> ErrorEnvelope {
        (**self).to_envelope()
    }

    fn __build<B: crate::__private::Builder>(&self, builder: B) -> B {
        (**self).__build(builder)
    }
}
