//! rmcp (feature `rmcp`): tool errors that need no glue.
//!
//! - [`CallContext`] is a tool-function parameter: rmcp fills it for each
//!   call (`FromContextPart`) with the tool's name, its declared
//!   annotations (`readOnlyHint`, `idempotentHint`, `destructiveHint`, read
//!   from the server's router through [`Tools`]), a correlation id from the
//!   request and the client's cancellation. A fallible line in a tool is
//!   then `.or_fail(&call)?`.
//! - `ErrorEnvelope`, and through the facade every derived type, is an
//!   rmcp tool error (`IntoCallToolResult`): `Result<Json<T>, ErrorEnvelope>`
//!   is a valid `#[tool]` return type. The error result carries the
//!   envelope's compact JSON in one text block and no `structuredContent`,
//!   which a declared `outputSchema` describes (MCP 2025-06-18,
//!   "Structured Content").
//! - `From<ErrorEnvelope> for CallToolResult` gives the full result, the
//!   envelope in `structuredContent` too (the JSON of
//!   [`Envelope::to_mcp_result`]), for a tool without an `outputSchema`.
//! - [`call_tool`] routes a `tools/call`, answers a call of an unknown tool
//!   with the near-miss tool names ([`UnknownTool`]) and, when the server
//!   turns it on ([`Tools::tool_failure_meta`]), adds the draft SEP-3313
//!   tool-failure object to every error result.
//!
//! A server wires it with one impl and one method:
//!
//! ```text
//! impl envelope::rmcp::Tools for NotesServer {
//!     fn tool_router(&self) -> &ToolRouter<Self> { &self.tool_router }
//! }
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for NotesServer {
//!     async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>)
//!         -> Result<CallToolResponse, ErrorData> {
//!         envelope::rmcp::call_tool(self, request, context).await
//!     }
//! }
//! ```
//!
//! and a tool reads
//! `async fn get_note(&self, call: CallContext, Parameters(Args(args)): Parameters<Args<GetNote>>) -> Result<Json<Note>, ErrorEnvelope>`
//! (the whole server: `test_suite/examples/mcp_server.rs`).

// rmcp's own types, for the derived impls (through `__private`); not
// public API: users name them from rmcp.
#[doc(hidden)]
pub use ::rmcp::ErrorData;
#[doc(hidden)]
pub use ::rmcp::handler::server::tool::IntoCallToolResult;
#[doc(hidden)]
pub use ::rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};

use ::rmcp::RoleServer;
use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::router::tool::ToolRouter;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model::{CallToolRequestParams, MetaObject, RequestId};
use ::rmcp::service::RequestContext;
use serde_json::Value;

use crate::call::{CallBehaviour, CallContext};
use crate::model::envelope::ErrorEnvelope;
use crate::convert::envelope_trait::Envelope;

// The same bodies as a derived type's impls.
impl From<ErrorEnvelope> for CallToolResult {
    fn from(envelope: ErrorEnvelope) -> Self {
        call_tool_result(envelope)
    }
}

impl IntoCallToolResult for ErrorEnvelope {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        into_call_tool_result(self)
    }
}

/// The result with the envelope as text only: what a tool's `Err` becomes.
fn text_result(envelope: &ErrorEnvelope) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(envelope.json_string())]);
    result.is_error = Some(envelope.is_error);
    result
}

/// The result with the envelope in `structured_content` too.
fn full_result(envelope: &ErrorEnvelope) -> CallToolResult {
    // Not `CallToolResult::structured_error`: it would write the text from a
    // `Value`, losing the envelope's documented key order.
    let mut result = text_result(envelope);
    result.structured_content = Some(envelope.to_json());
    result
}

/// The body of a derived type's `IntoCallToolResult`.
#[doc(hidden)]
pub fn into_call_tool_result<E: Envelope>(error: E) -> Result<CallToolResponse, ErrorData> {
    Ok(text_result(&error.into_envelope()).into())
}

/// The body of a derived type's `From<T> for CallToolResult`.
#[doc(hidden)]
#[must_use]
pub fn call_tool_result<E: Envelope>(error: E) -> CallToolResult {
    full_result(&error.into_envelope())
}

/// A server whose tools take a [`CallContext`]: it lends the router, so
/// the context can read each tool's declared annotations, and says how a
/// call of an unknown tool is answered. One line for most servers:
/// `fn tool_router(&self) -> &ToolRouter<Self> { &self.tool_router }`.
///
/// Without it, a `#[tool]` taking a `CallContext` does not compile, and
/// rustc reports it at `#[tool_router]` as rmcp's "the trait bound
/// `(Tool, fn(..)): IntoToolRoute<..>` is not satisfied": the missing
/// piece is this impl.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not implement `envelope::rmcp::Tools`, which a `CallContext` tool parameter needs",
    label = "the server whose tools take a `CallContext`",
    note = "add `impl envelope::rmcp::Tools for {Self} {{ fn tool_router(&self) -> &ToolRouter<Self> {{ &self.tool_router }} }}`"
)]
pub trait Tools: Sized + Send + Sync + 'static {
    /// The server's tool router (the one `#[tool_router]` built).
    fn tool_router(&self) -> &ToolRouter<Self>;

    /// How [`call_tool`] answers a call of a tool the router does not
    /// have; see [`UnknownTool`]. The provided method returns
    /// [`UnknownTool::ToolError`].
    fn unknown_tool(&self) -> UnknownTool {
        UnknownTool::ToolError
    }

    /// Whether [`call_tool`] adds the tool-failure object of MCP's draft
    /// SEP-3313 ("Structured Tool-Failure Classification") to every error
    /// result whose text is an envelope, under
    /// `_meta["io.modelcontextprotocol/toolFailure"]`:
    ///
    /// | member | value |
    /// |---|---|
    /// | `class` | `"capability"` (the call cannot work as made), `"reliability"` (the server or what it depends on failed) or `"governance"` (a policy, a permission or a person stands in the way); by class in the table below |
    /// | `code` | the envelope's `code`, else its class's wire name |
    /// | `retryable` | the envelope's `retryable`, only for `"reliability"` (as the SEP says) |
    /// | `retryNotBefore` | when the result is sent plus `retry_after_ms`, in Unix epoch milliseconds; only with a retry hint |
    /// | `correlationId` | the envelope's `correlation_id`, the id of the call's log line |
    /// | `agentGuidance` | the envelope's first next step, when it has one |
    ///
    /// | error class | SEP-3313 class |
    /// |---|---|
    /// | `InvalidArguments`, `SyntaxError`, `RuntimeError`, `ObjectNotFound`, `AlreadyExists`, `PreconditionFailed`, `Conflict`, `Unsupported` | `capability` |
    /// | `Unauthenticated`, `InteractionRequired`, `InsufficientPrivilege`, `PolicyDenied`, `QuotaExceeded` | `governance` |
    /// | `RateLimited`, `Busy`, `Timeout`, `Transient`, `ConnectionFailed`, `Cancelled`, `Internal`, `Unknown` | `reliability` |
    ///
    /// `RateLimited` is `reliability` although a limit is a policy: it
    /// lifts after the retry hint, and only `reliability` may carry
    /// `retryable`. An error result whose text is not an envelope (a tool
    /// that returns a plain `String` error) gets no object.
    ///
    /// The provided method returns `false`: off while the SEP is a draft.
    fn tool_failure_meta(&self) -> bool {
        false
    }
}

/// How a call of an unknown tool is answered.
///
/// The default is a tool error. Both official SDK servers answer an
/// unknown tool with a tool result (TypeScript SDK 1.32: `isError` text
/// "MCP error -32602: Tool nope not found"; Python SDK 2.3: "Unknown tool:
/// nope"), the direction of the open SEP-2145, and a host passes a tool
/// result to the model, which can then pick the near miss and call again.
/// A JSON-RPC error often stops at the host, which rmcp's own answer (the
/// `-32602` "tool not found" the current specification's examples show)
/// does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UnknownTool {
    /// A tool error result carrying an `OBJECT_NOT_FOUND` envelope, code
    /// `UNKNOWN_TOOL`, with the near-miss tool names in `fuzzy_matches`
    /// and a next step.
    #[default]
    ToolError,
    /// The JSON-RPC error `-32602` (invalid params), its message naming
    /// the near misses (`unknown tool "get_nte"; did you mean "get_note"?`)
    /// and its `data` the same envelope as JSON.
    ProtocolError,
}

/// Routes one `tools/call` to the server's router, as rmcp's
/// `#[tool_handler]` does, except for a tool the router does not have (or
/// has disabled): that call is answered as [`Tools::unknown_tool`] says,
/// through a [`CallContext`] (correlation id, one log line).
///
/// # Errors
///
/// What the router returns (a tool's protocol error, an argument that
/// does not deserialize); for an unknown tool with
/// [`UnknownTool::ProtocolError`], `-32602` with the near misses.
pub async fn call_tool<S: Tools>(
    server: &S,
    request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let router = server.tool_router();
    let name = request.name.clone();
    let meta = server.tool_failure_meta();
    if router.has_route(&name) && !router.is_disabled(&name) {
        let response = router
            .call(ToolCallContext::new(server, request, context))
            .await?;
        return Ok(match response {
            CallToolResponse::Complete(result) if meta => with_failure_meta(result).into(),
            other => other,
        });
    }
    let call = CallContext::identified(name.clone(), correlation_id(&context.meta, &context.id))
        .with_behaviour(CallBehaviour::READ);
    let known: Vec<String> = router
        .list_all()
        .into_iter()
        .map(|tool| tool.name.into_owned())
        .collect();
    let envelope = call.fail(unknown_tool(&name, &known));
    match server.unknown_tool() {
        UnknownTool::ToolError => {
            let mut result = text_result(&envelope);
            if meta {
                add_failure_meta(&mut result, &envelope);
            }
            Ok(result.into())
        }
        UnknownTool::ProtocolError => {
            let mut message = format!("unknown tool {}", Value::from(cut(&name)));
            if !envelope.fuzzy_matches.is_empty() {
                let names: Vec<String> = envelope
                    .fuzzy_matches
                    .iter()
                    .map(|n| Value::from(n.as_str()).to_string())
                    .collect();
                message.push_str(&format!("; did you mean {}?", names.join(" or ")));
            }
            Err(ErrorData::invalid_params(message, Some(envelope.to_json())))
        }
    }
}

/// `result` with the SEP-3313 tool-failure object in its `_meta`, when it
/// is an error result whose first text block is an envelope (see
/// [`Tools::tool_failure_meta`]); other `_meta` keys are kept.
fn with_failure_meta(mut result: CallToolResult) -> CallToolResult {
    if result.is_error != Some(true) {
        return result;
    }
    let envelope = result
        .content
        .iter()
        .find_map(|block| block.as_text())
        .and_then(|text| serde_json::from_str::<ErrorEnvelope>(&text.text).ok());
    if let Some(envelope) = envelope {
        add_failure_meta(&mut result, &envelope);
    }
    result
}

/// Puts the SEP-3313 tool-failure object of `envelope`, as of now, in
/// `result`'s `_meta`, keeping its other keys.
fn add_failure_meta(result: &mut CallToolResult, envelope: &ErrorEnvelope) {
    let failure = crate::render::mcp::tool_failure(envelope, crate::render::mcp::now_ms());
    result
        .meta
        .get_or_insert_with(MetaObject::default)
        .insert(String::from(crate::render::mcp::TOOL_FAILURE_KEY), failure);
}

/// A caller's tool name as echoed back, cut as argument keys are
/// (`args::shown`).
fn cut(name: &str) -> String {
    match crate::args::shown(name) {
        (kept, true) => format!("{kept}…"),
        (kept, false) => kept.to_owned(),
    }
}

/// The envelope of a call of the unknown tool `name` on a server with the
/// tools `known`.
fn unknown_tool(name: &str, known: &[String]) -> ErrorEnvelope {
    // Stricter than `fuzzy::suggest` alone: tool names share words
    // (`_table`, `get_`), and a name that only shares them is no misspelling.
    let folded = name.to_lowercase();
    let most = (folded.chars().count() / 4).max(2);
    let near: Vec<String> = crate::model::fuzzy::suggest(name, known, 3)
        .into_iter()
        .filter(|tool| strsim::osa_distance(&folded, &tool.to_lowercase()) <= most)
        .collect();
    crate::render::mcp::unknown_tool(&cut(name), near)
}

/// The correlation id of a request: the one the client sent in `_meta`
/// (`correlationId`, else a `traceparent`'s trace id, by the rule of
/// every transport), else a generated id followed by the JSON-RPC request
/// id (`"3f9a1c0d-7-req-12"`), unique within this process.
fn correlation_id(meta: &MetaObject, request: &RequestId) -> String {
    let sent = |key: &str| meta.get(key).and_then(Value::as_str);
    crate::call::trace_context::sent_correlation_id(sent("correlationId"), sent("traceparent"))
        .unwrap_or_else(|| format!("{}-req-{request}", CallContext::generated_id()))
}

/// rmcp fills a tool's `CallContext` parameter: the tool's name, its
/// declared annotations, the request's correlation id and the client's
/// cancellation token.
impl<S: Tools> FromContextPart<ToolCallContext<'_, S>> for CallContext {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let name = context.name.clone();
        let behaviour = context
            .service
            .tool_router()
            .get(&name)
            .and_then(|tool| tool.annotations.as_ref())
            .map(|hints| {
                CallBehaviour::from_hints(
                    hints.read_only_hint,
                    hints.idempotent_hint,
                    hints.destructive_hint,
                )
            })
            .unwrap_or_default();
        let request = &context.request_context;
        let id = correlation_id(&request.meta, &request.id);
        let cancelled = request.ct.clone();
        Ok(CallContext::identified(name, id)
            .with_behaviour(behaviour)
            .with_cancellation(move || cancelled.is_cancelled()))
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::CallToolResult;
    use serde_json::json;

    use crate::model::class::ErrorClass;

    use super::*;

    fn busy() -> ErrorEnvelope {
        ErrorEnvelope::new(ErrorClass::Busy, "pool full")
            .with_retry_after_ms(250)
            .with_correlation_id("c-1")
    }

    const BUSY_JSON: &str = r#"{"isError":true,"error_class":"BUSY","message":"pool full","retry_after_ms":250,"category":"Technical","retryable":true,"correlation_id":"c-1"}"#;

    #[test]
    fn from_envelope_matches_the_json_renderer() {
        let result = CallToolResult::from(busy());
        assert_eq!(result.is_error, Some(true));
        assert_eq!(result.content.len(), 1);
        assert_eq!(result.content[0].as_text().unwrap().text, BUSY_JSON);
        assert_eq!(result.structured_content, Some(busy().to_json()));
        assert_eq!(result.meta, None);
        // rmcp's own wire form equals `to_mcp_result`, `resultType`
        // included.
        let wire = serde_json::to_value(&result).unwrap();
        assert_eq!(wire["resultType"], json!("complete"));
        assert_eq!(wire, busy().to_mcp_result());
    }

    #[test]
    fn a_tool_error_is_the_text_block_only() {
        let CallToolResponse::Complete(result) = busy().into_call_tool_result().unwrap() else {
            panic!("a complete result")
        };
        assert_eq!(result.is_error, Some(true));
        assert_eq!(result.content.len(), 1);
        assert_eq!(result.content[0].as_text().unwrap().text, BUSY_JSON);
        assert_eq!(result.structured_content, None);
        assert_eq!(result.meta, None);
    }

    #[test]
    fn the_failure_meta_goes_on_error_results_of_envelopes_only() {
        let with = with_failure_meta(text_result(&busy()));
        let failure = &with.meta.as_ref().unwrap()["io.modelcontextprotocol/toolFailure"];
        assert_eq!(failure["class"], json!("reliability"));
        assert_eq!(failure["code"], json!("BUSY"));
        assert_eq!(failure["retryable"], json!(true));
        assert_eq!(failure["correlationId"], json!("c-1"));
        assert!(failure["retryNotBefore"].as_u64().unwrap() >= 250);
        // A plain text error and a success get none.
        let plain = CallToolResult::error(vec![ContentBlock::text("boom")]);
        assert_eq!(with_failure_meta(plain).meta, None);
        let ok = CallToolResult::success(vec![ContentBlock::text(BUSY_JSON)]);
        assert_eq!(with_failure_meta(ok).meta, None);
    }

    #[test]
    fn unknown_tool_names_the_near_misses() {
        let known = ["get_note", "search_notes", "create_note", "delete_note"].map(String::from);
        assert_eq!(
            unknown_tool("get_nte", &known).to_json_string(),
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no tool is called \"get_nte\"","fuzzy_matches":["get_note"],"next_steps":["if a tool in fuzzy_matches is the one meant, call it with the same arguments; otherwise list the tools with tools/list"],"code":"UNKNOWN_TOOL","category":"NotFound"}"#
        );
        assert_eq!(
            unknown_tool("zzzzzzzzzzzz", &known).next_steps,
            ["list the tools with tools/list and call one of them"]
        );
        // Sharing a word is no misspelling.
        let tables = ["list_tables", "describe_table", "row_count"].map(String::from);
        assert!(unknown_tool("drop_table", &tables).fuzzy_matches.is_empty());
        assert_eq!(
            unknown_tool("describe_tabel", &tables).fuzzy_matches,
            ["describe_table"]
        );
        let long = "x".repeat(100);
        assert_eq!(
            unknown_tool(&long, &known).message,
            format!("no tool is called \"{}…\"", "x".repeat(64))
        );
    }

    #[test]
    fn correlation_ids_from_the_request() {
        let meta = |value: Value| MetaObject::from(value.as_object().unwrap().clone());
        let request = RequestId::Number(12);
        assert_eq!(
            correlation_id(
                &meta(
                    json!({"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"})
                ),
                &request
            ),
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        // The id the client chose wins over its trace id.
        assert_eq!(
            correlation_id(
                &meta(json!({
                    "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                    "correlationId": "corr-5"
                })),
                &request
            ),
            "corr-5"
        );
        // Not a traceparent (all-zero trace id), an empty id: generated.
        let generated = correlation_id(
            &meta(json!({
                "traceparent": "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                "correlationId": "  "
            })),
            &request,
        );
        assert!(generated.ends_with("-req-12"), "{generated}");
        let generated = correlation_id(&meta(json!({"traceparent": "junk"})), &request);
        assert!(generated.ends_with("-req-12"), "{generated}");
        assert_eq!(generated.split_once('-').unwrap().0.len(), 8);
        let other = correlation_id(&meta(json!({})), &request);
        assert_ne!(generated, other);
    }
}
