//! The [`Envelope`] trait: how an error type turns into an [`ErrorEnvelope`].

use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use crate::model::category::UserErrorCategory;
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;
use crate::model::tool_result::ToolResult;
use crate::model::variant_spec::VariantSpec;
#[cfg(feature = "http")]
use crate::render::problem::ProblemDetails;

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
/// that `to_envelope` returns. The provided methods are the one path to
/// each form, for every error type and for [`ErrorEnvelope`] itself:
///
/// | output | method |
/// |---|---|
/// | the envelope | [`to_envelope`](Envelope::to_envelope) / [`into_envelope`](Envelope::into_envelope) (or `ErrorEnvelope::from(error)` for a derived type) |
/// | its JSON text | [`to_json_string`](Envelope::to_json_string) |
/// | the LLM tool result | [`to_tool_result`](Envelope::to_tool_result), [`to_tool_result_json`](Envelope::to_tool_result_json); the provider shapes are methods of [`ToolResult`] |
/// | the MCP `CallToolResult` JSON | [`to_mcp_result`](Envelope::to_mcp_result) |
/// | rmcp's `CallToolResult` (feature `rmcp`) | `CallToolResult::from(error)` |
/// | RFC 9457 problem details (feature `http`) | [`to_problem_details`](Envelope::to_problem_details); the HTTP response is `problem::http_response`, axum's `IntoResponse` (feature `axum`) |
/// | the catalog | [`catalog`](Envelope::catalog), rendered by [`catalog_markdown`](crate::catalog_markdown) and [`catalog_json`](crate::catalog_json) |
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

    /// The envelope's compact JSON, written by serde straight from the
    /// envelope (no intermediate `Value`), keys in the order of the wire
    /// table on [`ErrorEnvelope`]. Never panics: should serde ever fail,
    /// the result is the fixed `INTERNAL` envelope of
    /// [`ErrorEnvelope::to_json`].
    fn to_json_string(&self) -> String {
        self.to_envelope().json_string()
    }

    /// The LLM tool result for the tool call `tool_call_id`, in the shape of
    /// `multi-llm`'s `ToolResult`: `content` is what a model reads, the
    /// same as the text blocks of [`to_mcp_result`](Envelope::to_mcp_result)
    /// joined by a newline: the envelope's compact JSON on the first line
    /// (the facts), then the lead of its text (what to do, and each
    /// argument problem as its fix; the whole text with the facts as lines
    /// is the `Display`). `is_error` is the envelope's flag,
    /// `error_category` its category (the class's default when it has
    /// none). The recovery benchmark (`scripts/recovery/`, `BENCHMARKS.md`)
    /// measured this content against the JSON followed by the whole text,
    /// the JSON alone and the text alone with real models; the JSON alone,
    /// the seed's form, is
    /// [`to_tool_result_json`](Envelope::to_tool_result_json).
    ///
    /// Takes the id as `&str`, not `impl Into<String>`, so the method can
    /// be called on a trait object.
    fn to_tool_result(&self, tool_call_id: &str) -> ToolResult {
        let envelope = self.to_envelope();
        ToolResult::failure(
            tool_call_id,
            &envelope,
            crate::render::text::joined(&envelope),
        )
    }

    /// Like [`to_tool_result`](Envelope::to_tool_result), but `content` is
    /// the envelope's compact JSON, the seed's form, for a client that
    /// parses the content.
    fn to_tool_result_json(&self, tool_call_id: &str) -> ToolResult {
        let envelope = self.to_envelope();
        ToolResult::failure(tool_call_id, &envelope, envelope.json_string())
    }

    /// The MCP `tools/call` result for the failed call, as JSON:
    ///
    /// ```json
    /// {"content":[{"type":"text","text":"<envelope JSON>"},
    ///             {"type":"text","text":"<the text a model reads>"}],
    ///  "structuredContent":{<envelope>},
    ///  "isError":true,
    ///  "resultType":"complete"}
    /// ```
    ///
    /// The MCP specification (2025-06-18 and later) asks tools to report
    /// failures the model can act on as results with `isError: true`
    /// rather than as JSON-RPC errors, and to repeat structured content as
    /// text for clients that only read `content`; both are done here. The
    /// first text block is the JSON, the second, last, what a model reads
    /// (see [`to_tool_result`](Envelope::to_tool_result)): a host that
    /// passes every block on shows the instruction after the facts.
    /// `isError` is the envelope's own flag. The 2026-07-28 schema requires
    /// `resultType` on every result (SEP-2322); a finished tool call is
    /// `"complete"`.
    fn to_mcp_result(&self) -> Value {
        crate::render::mcp::call_tool_result(&self.to_envelope())
    }

    /// The RFC 9457 problem details of this error (feature `http`), for an
    /// HTTP API's `application/problem+json` body: see
    /// [`ProblemDetails`] for the members.
    #[cfg(feature = "http")]
    fn to_problem_details(&self) -> ProblemDetails {
        crate::render::problem::problem_details(&self.to_envelope())
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
        self.category_or_default()
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
        self.json_string()
    }

    fn to_tool_result(&self, tool_call_id: &str) -> ToolResult {
        ToolResult::failure(tool_call_id, self, crate::render::text::joined(self))
    }

    fn to_tool_result_json(&self, tool_call_id: &str) -> ToolResult {
        ToolResult::failure(tool_call_id, self, self.json_string())
    }

    fn to_mcp_result(&self) -> Value {
        crate::render::mcp::call_tool_result(self)
    }

    #[cfg(feature = "http")]
    fn to_problem_details(&self) -> ProblemDetails {
        crate::render::problem::problem_details(self)
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

        fn to_tool_result_json(&self, tool_call_id: &str) -> ToolResult {
            (**self).to_tool_result_json(tool_call_id)
        }

        fn to_mcp_result(&self) -> Value {
            (**self).to_mcp_result()
        }

        #[cfg(feature = "http")]
        fn to_problem_details(&self) -> ProblemDetails {
            (**self).to_problem_details()
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
