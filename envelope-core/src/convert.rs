//! The [`Envelope`] trait: how an error type turns into an [`ErrorEnvelope`].

use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use crate::catalog::VariantSpec;
use crate::category::UserErrorCategory;
use crate::class::ErrorClass;
use crate::envelope::ErrorEnvelope;
use crate::tool_result::ToolResult;

/// An error that can describe itself to an LLM agent.
///
/// Usually implemented by `#[derive(Envelope)]`; implementing it by hand
/// needs only [`error_class`](Envelope::error_class) and
/// [`to_envelope`](Envelope::to_envelope) (see the impl for
/// [`ErrorEnvelope`] itself). The three accessors never allocate;
/// `to_envelope` borrows, so the error can still be logged afterwards, and
/// `into_envelope` moves owned strings and vectors into the envelope instead
/// of copying them.
///
/// The trait is dyn compatible: `&dyn Envelope`, `Box<dyn Envelope + Send +
/// Sync>` and `Arc<dyn Envelope + Send + Sync>` produce envelopes, tool
/// results and MCP results, so one collection can hold errors of several
/// types. `Box`, `Arc`, `Rc` and `&` forward every method to the error they
/// point at, [`catalog`](Envelope::catalog) included.
///
/// Every JSON form is the serde serialization of the [`ErrorEnvelope`]
/// that `to_envelope` returns.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not implement `Envelope`",
    label = "not an `Envelope` error type",
    note = "derive it with `#[derive(Envelope)]` or implement `envelope::Envelope` by hand",
    note = "for a `#[envelope(transparent)]` field whose type you cannot change, give the variant its own `class = ...` instead, or build its envelope with `#[envelope(with = path::to::function)]`"
)]
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

    /// The envelope's compact JSON (see [`ErrorEnvelope::to_json_string`]).
    fn to_json_string(&self) -> String {
        self.to_envelope().to_json_string()
    }

    /// The `ToolResult` for the tool call `tool_call_id`, with the envelope
    /// JSON as content (see [`ToolResult::error`]).
    ///
    /// Takes the id as `&str`, not `impl Into<String>`, so the method can
    /// be called on a trait object.
    fn to_tool_result(&self, tool_call_id: &str) -> ToolResult {
        ToolResult::error(tool_call_id, &self.to_envelope())
    }

    /// The MCP `CallToolResult` JSON (see
    /// [`crate::render::mcp::call_tool_result`]).
    fn to_mcp_result(&self) -> Value {
        crate::render::mcp::call_tool_result(&self.to_envelope())
    }

    /// The RFC 9457 problem details of this error (feature `http`), for an
    /// HTTP API's `application/problem+json` body (see
    /// [`crate::render::problem::problem_details`]).
    #[cfg(feature = "http")]
    fn to_problem_details(&self) -> crate::render::problem::ProblemDetails {
        crate::render::problem::problem_details(&self.to_envelope())
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

    // The renderers borrow the envelope instead of cloning it.
    fn to_json_string(&self) -> String {
        ErrorEnvelope::to_json_string(self)
    }

    fn to_tool_result(&self, tool_call_id: &str) -> ToolResult {
        ToolResult::error(tool_call_id, self)
    }

    fn to_mcp_result(&self) -> Value {
        crate::render::mcp::call_tool_result(self)
    }

    #[cfg(feature = "http")]
    fn to_problem_details(&self) -> crate::render::problem::ProblemDetails {
        crate::render::problem::problem_details(self)
    }

    #[cfg(feature = "rmcp")]
    fn to_call_tool_result(&self) -> rmcp::model::CallToolResult {
        crate::render::mcp::rmcp_call_tool_result(self)
    }
}

/// The methods every pointer forwards, whatever it points at.
macro_rules! forward_by_ref {
    () => {
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

        fn to_json_string(&self) -> String {
            (**self).to_json_string()
        }

        fn to_tool_result(&self, tool_call_id: &str) -> ToolResult {
            (**self).to_tool_result(tool_call_id)
        }

        fn to_mcp_result(&self) -> Value {
            (**self).to_mcp_result()
        }

        #[cfg(feature = "http")]
        fn to_problem_details(&self) -> crate::render::problem::ProblemDetails {
            (**self).to_problem_details()
        }

        #[cfg(feature = "rmcp")]
        fn to_call_tool_result(&self) -> rmcp::model::CallToolResult {
            (**self).to_call_tool_result()
        }
    };
}

/// Impls for one pointer type: over any sized error, which also forwards
/// `catalog` and moves in `into_envelope` where the pointer allows it; and
/// over the three usual trait objects, which have no catalog.
macro_rules! forward {
    (
        impl<$a:lifetime, T> for $sized:ty, |$this:ident| $into:expr;
        dyn: $($object:ty),* $(,)?
    ) => {
        impl<$a, T: Envelope> Envelope for $sized {
            forward_by_ref!();

            fn into_envelope(self) -> ErrorEnvelope {
                let $this = self;
                $into
            }

            fn catalog() -> &'static [VariantSpec] {
                T::catalog()
            }
        }

        $(
            impl<$a> Envelope for $object {
                forward_by_ref!();
            }
        )*
    };
}

forward! {
    impl<'a, T> for Box<T>, |this| T::into_envelope(*this);
    dyn: Box<dyn Envelope + 'a>, Box<dyn Envelope + Send + 'a>, Box<dyn Envelope + Send + Sync + 'a>,
}

// A shared pointer moves the error out when it holds the last reference.
forward! {
    impl<'a, T> for Arc<T>, |this| match Arc::try_unwrap(this) {
        Ok(error) => error.into_envelope(),
        Err(shared) => shared.to_envelope(),
    };
    dyn: Arc<dyn Envelope + 'a>, Arc<dyn Envelope + Send + 'a>, Arc<dyn Envelope + Send + Sync + 'a>,
}

forward! {
    impl<'a, T> for Rc<T>, |this| match Rc::try_unwrap(this) {
        Ok(error) => error.into_envelope(),
        Err(shared) => shared.to_envelope(),
    };
    dyn: Rc<dyn Envelope + 'a>, Rc<dyn Envelope + Send + 'a>, Rc<dyn Envelope + Send + Sync + 'a>,
}

forward! {
    impl<'a, T> for &'a T, |this| this.to_envelope();
    dyn: &'a (dyn Envelope + 'a), &'a (dyn Envelope + Send + 'a), &'a (dyn Envelope + Send + Sync + 'a),
}
