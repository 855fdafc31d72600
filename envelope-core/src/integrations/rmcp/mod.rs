//! rmcp (feature `rmcp`): tool errors that need no glue.
//!
//! - [`Router`] is the server's tool router: rmcp's `ToolRouter` plus
//!   the answer to every failure. rmcp's `#[tool_handler(router =
//!   self.tool_router)]` routes each `tools/call` through it, and it runs
//!   the tool inside the call's [`CallContext`] (the tool's name, its
//!   declared annotations `readOnlyHint`, `idempotentHint`,
//!   `destructiveHint`, a correlation id from the request, the client's
//!   cancellation). Every error result of the tool then goes out through
//!   that context, whether the tool wrote `?`, `.or_fail(&call)?` or
//!   returned an envelope: the retry rule over the annotations, the
//!   correlation id, one log line (feature `tracing`).
//! - A call of a tool the router does not have gets the current revision's
//!   protocol error `-32602` with the near-miss tool names
//!   ([`UnknownTool`]); a rate-limited call a tool error result
//!   ([`RateLimited`]). Drafts are opt-ins that name them: the tool error
//!   of SEP-2145 for an unknown tool, SEP-3304's `-32023`, and SEP-3313's
//!   tool-failure object on every error result
//!   ([`Router::with_tool_failure_meta`]).
//! - `ErrorEnvelope`, and through the facade every derived type, is an
//!   rmcp tool error (`IntoCallToolResult`): `Result<Json<T>, ErrorEnvelope>`
//!   is a valid `#[tool]` return type. The error result carries the
//!   envelope's compact JSON in a text block, then the text a model reads
//!   in another, and no `structuredContent`,
//!   which a declared `outputSchema` describes (MCP 2025-06-18,
//!   "Structured Content").
//! - `From<ErrorEnvelope> for CallToolResult` gives the full result, the
//!   envelope in `structuredContent` too (the JSON of
//!   [`Envelope::to_mcp_result`](crate::Envelope::to_mcp_result)), for a tool without an `outputSchema`.
//! - [`CallContext`] is a tool-function parameter (rmcp's
//!   `FromContextPart`): the same context the router runs the call in,
//!   for a tool that wants an answer in hand (`.or_fail(&call)`) or the
//!   call's span.
//!
//! A server wires it with the router's type and rmcp's own attribute:
//!
//! ```text
//! struct NotesServer { tool_router: envelope::rmcp::Router<Self> }
//!
//! #[tool_router]
//! impl NotesServer {
//!     fn new() -> Self { NotesServer { tool_router: Self::tool_router().into() } }
//!     // #[tool] async fn get_note(...) -> Result<Json<Note>, ErrorEnvelope>
//! }
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for NotesServer {}
//! ```
//!
//! (the whole server: `test_suite/examples/mcp_server.rs`). A call routed
//! around [`Router`] (rmcp's `ToolRouter` as the field, or
//! `#[tool_handler]` without `router = self.tool_router`, which builds
//! rmcp's router again for each call) is not answered silently: a tool
//! that takes a `CallContext` fails with a JSON-RPC error naming the fix,
//! and any other tool's failure goes out as the tool made it, with one
//! warning per process under `tracing` (a conversion outside a server
//! call, in a test say, warns the same way).

use ::rmcp::ErrorData;
use ::rmcp::handler::server::tool::IntoCallToolResult;
use ::rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::router::tool::ToolRouter;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model::{MetaObject, RequestId, Tool};
use serde_json::Value;

mod keyed;
mod limit;

/// rmcp's errors are the transport's, not a tool's: none is recognised in
/// a source chain.
pub(crate) fn find<'e>(
    _: &'e (dyn std::error::Error + 'static),
) -> Option<&'e dyn crate::Envelope> {
    None
}

pub use keyed::{Idempotency, Principal};
use limit::RateLimit;

use crate::call::{CallBehaviour, CallContext};
use crate::model::contract::{DeclaredFailure, FAILURES_META_KEY};
use crate::model::envelope::ErrorEnvelope;
use crate::model::variant_spec::VariantSpec;

tokio::task_local! {
    /// The context of the call [`Router::call`] is running, for the
    /// conversions of the tool's error results and the tool's own
    /// `CallContext` parameter.
    static CALL: CallContext;
}

// The same bodies as a derived type's impls.
impl From<ErrorEnvelope> for CallToolResult {
    fn from(envelope: ErrorEnvelope) -> Self {
        full_result(&answered(envelope, None))
    }
}

impl IntoCallToolResult for ErrorEnvelope {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(text_result(&answered(self, None)).into())
    }
}

/// The result with the envelope as text only, the JSON and the text a model
/// reads (`render::text::blocks`): what a tool's `Err` becomes.
fn text_result(envelope: &ErrorEnvelope) -> CallToolResult {
    let blocks = crate::render::text::blocks(envelope).map(ContentBlock::text);
    let mut result = CallToolResult::error(blocks.into());
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

/// `envelope` answered through the context of the call being run (see
/// [`CallContext::fail`]), logging `text` (the error's `Display` and
/// `source()` chain) when there is one, else the envelope's message. Out
/// of a routed call, as it is, with one warning per process.
fn answered(mut envelope: ErrorEnvelope, text: Option<(String, Vec<String>)>) -> ErrorEnvelope {
    let Ok(call) = CALL.try_with(CallContext::clone) else {
        warn_unrouted();
        return envelope;
    };
    // The text a derived `From` kept, when the tool returned the envelope.
    let kept = envelope.fields_mut().rule.log_text.take();
    let text = text.or_else(|| kept.map(|text| *text));
    // Only the log line reads the text.
    #[cfg(not(feature = "tracing"))]
    let _ = text;
    call.answer(envelope, |_envelope| {
        #[cfg(feature = "tracing")]
        crate::call::log::record_text(_envelope, text.as_ref());
    })
}

/// The message of a failure answered outside [`Router::call`], and of the
/// JSON-RPC error of a `CallContext` parameter there.
const UNROUTED: &str = "this tools/call was not routed through envelope::rmcp::Router, so its failures miss the tool's annotations and correlation id: declare the server's router field as `envelope::rmcp::Router<Self>` (`tool_router: Self::tool_router().into()`) and write `#[tool_handler(router = self.tool_router)]`";

/// Warns once per process (feature `tracing`) that a failure was answered
/// outside [`Router::call`].
fn warn_unrouted() {
    #[cfg(feature = "tracing")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| tracing::warn!(target: "envelope", "{UNROUTED}"));
    }
}

/// What the derived impls call (through `__private::rmcp`, with rmcp's
/// own types): not public API.
pub(crate) mod glue {
    use ::rmcp::ErrorData;
    use ::rmcp::model::{CallToolResponse, CallToolResult};

    use crate::convert::envelope_trait::Envelope;

    /// The body of a derived type's `IntoCallToolResult`: `text` is the
    /// error's `Display` and `source()` chain when the type is a
    /// `std::error::Error` (`__private::Cause`), for the log line.
    ///
    /// # Errors
    ///
    /// Never: the error is the result, `isError: true`.
    pub fn into_call_tool_result<E: Envelope>(
        error: E,
        text: Option<(String, Vec<String>)>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(super::text_result(&super::answered(error.into_envelope(), text)).into())
    }

    /// The body of a derived type's `From<T> for CallToolResult`.
    #[must_use]
    pub fn call_tool_result<E: Envelope>(
        error: E,
        text: Option<(String, Vec<String>)>,
    ) -> CallToolResult {
        super::full_result(&super::answered(error.into_envelope(), text))
    }
}

/// A server's tool router: rmcp's [`ToolRouter`] (reached through
/// `Deref`, for `add_route`, `disable_route` and the rest), plus the
/// answer to every failure of the calls it routes.
///
/// Declare the server's router field with it, convert the router
/// `#[tool_router]` builds (`Self::tool_router().into()`), and let rmcp's
/// `#[tool_handler(router = self.tool_router)]` route through it: that
/// attribute calls the three methods of the same names as rmcp's,
/// [`Router::call`], [`Router::list_all`] and [`Router::get`].
///
/// ```text
/// tool_router: Self::tool_router().into(),
/// // or, answering an unknown tool with a tool error result (draft SEP-2145):
/// tool_router: envelope::rmcp::Router::new(Self::tool_router())
///     .with_unknown_tool(envelope::rmcp::UnknownTool::Sep2145ToolError),
/// ```
pub struct Router<S> {
    /// Shared with the calls it routes, for their tools' input schemas
    /// (`CallContext::with_input_schemas`); copied on write.
    tools: Arc<ToolRouter<S>>,
    unknown_tool: UnknownTool,
    tool_failure_meta: bool,
    idempotency: Option<Idempotency>,
    rate_limit: Option<RateLimit>,
    rate_limited: RateLimited,
    /// Each tool's declared failures (`with_failures`), in order.
    failures: Vec<(String, Vec<DeclaredFailure>)>,
    busy_retry_after: Option<Duration>,
}

impl<S> Clone for Router<S> {
    fn clone(&self) -> Self {
        Router {
            tools: self.tools.clone(),
            unknown_tool: self.unknown_tool,
            tool_failure_meta: self.tool_failure_meta,
            idempotency: self.idempotency.clone(),
            rate_limit: self.rate_limit.clone(),
            rate_limited: self.rate_limited,
            failures: self.failures.clone(),
            busy_retry_after: self.busy_retry_after,
        }
    }
}

impl<S> std::fmt::Debug for Router<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router")
            .field("tools", &self.tools)
            .field("unknown_tool", &self.unknown_tool)
            .field("tool_failure_meta", &self.tool_failure_meta)
            .field("idempotency", &self.idempotency)
            .field("rate_limit", &self.rate_limit)
            .field("rate_limited", &self.rate_limited)
            .field("failures", &self.failures)
            .field("busy_retry_after", &self.busy_retry_after)
            .finish()
    }
}

impl<S: Send + Sync + 'static> From<ToolRouter<S>> for Router<S> {
    fn from(tools: ToolRouter<S>) -> Self {
        Router::new(tools)
    }
}

impl<S> std::ops::Deref for Router<S> {
    type Target = ToolRouter<S>;

    fn deref(&self) -> &ToolRouter<S> {
        &self.tools
    }
}

impl<S> std::ops::DerefMut for Router<S> {
    fn deref_mut(&mut self) -> &mut ToolRouter<S> {
        Arc::make_mut(&mut self.tools)
    }
}

impl<S: Send + Sync + 'static> Router<S> {
    /// Routes through `tools`, as the current MCP revision (2026-07-28)
    /// asks: an unknown tool is answered with the protocol error `-32602`
    /// ([`UnknownTool::ProtocolError`]), a rate limit (when one is set)
    /// with a tool error result ([`RateLimited::ToolError`]), and no draft
    /// SEP-3313 object is added.
    #[must_use]
    pub fn new(tools: ToolRouter<S>) -> Self {
        Router {
            tools: Arc::new(tools),
            unknown_tool: UnknownTool::ProtocolError,
            tool_failure_meta: false,
            idempotency: None,
            rate_limit: None,
            rate_limited: RateLimited::ToolError,
            failures: Vec::new(),
            busy_retry_after: None,
        }
    }

    /// Declares the failures `tool` can return: one per variant of
    /// `catalog`, its error type's [`Envelope::catalog`](crate::Envelope::catalog) (a delegating
    /// variant declares nothing: give its inner type's catalog too; the
    /// lists add up). [`Router::list_all`] publishes them, with the ones
    /// every call can get ([`DeclaredFailure::COMMON`]), as the tool's
    /// `_meta.failures` ([`FAILURES_META_KEY`]), an array of
    /// [`DeclaredFailure`]s, so a host knows a tool's failures before it
    /// calls it (`host::read_failures`).
    #[must_use]
    pub fn with_failures(mut self, tool: impl Into<String>, catalog: &[VariantSpec]) -> Self {
        let tool = tool.into();
        let index = match self.failures.iter().position(|(name, _)| *name == tool) {
            Some(index) => index,
            None => {
                let common = DeclaredFailure::COMMON.iter().filter_map(DeclaredFailure::of);
                self.failures.push((tool, common.collect()));
                self.failures.len() - 1
            }
        };
        let declared = &mut self.failures[index].1;
        for failure in catalog.iter().filter_map(DeclaredFailure::of) {
            if !declared.contains(&failure) {
                declared.push(failure);
            }
        }
        self
    }

    /// The failures declared for `tool` ([`Router::with_failures`]), the
    /// common ones first; empty for a tool without a declaration.
    /// [`Router::list_all`] publishes them with `RATE_LIMITED` added when
    /// the router has a rate limit ([`Router::with_rate_limit`]).
    #[must_use]
    pub fn failures(&self, tool: &str) -> &[DeclaredFailure] {
        self.failures
            .iter()
            .find(|(name, _)| name == tool)
            .map_or(&[], |(_, failures)| failures.as_slice())
    }

    /// Sets which tools take idempotency keys and where their answers are
    /// kept ([`Idempotency`]; the rules are [`crate::idempotency`]'s): a
    /// call of such a tool runs at most once per key, its repeats get the
    /// stored result (`_meta.idempotentReplay: true`), and
    /// [`Router::list_all`] declares the tool's `_meta.idempotency`.
    #[must_use]
    pub fn with_idempotency(mut self, idempotency: Idempotency) -> Self {
        self.idempotency = Some(idempotency);
        self
    }

    /// Puts a rate limit in front of the tools ([`RateLimit`](crate::rate_limit::RateLimit),
    /// [`crate::rate_limit`]): each call of a tool the router has is first
    /// put to the limiter, and a refused call does not run. It is answered
    /// as [`Router::with_rate_limited`] says: by default a tool error
    /// result with the `RATE_LIMITED` envelope and its `retry_after_ms`,
    /// which a model reads and a host's retry loop waits on (the current
    /// revision defines no rate-limit code). A tool with declared failures
    /// ([`Router::with_failures`]) lists `RATE_LIMITED` among them.
    #[must_use]
    pub fn with_rate_limit(mut self, limit: RateLimit) -> Self {
        self.rate_limit = Some(limit);
        self
    }

    /// Sets how long a caller should wait before repeating a call that
    /// failed because a lock was held or the server was busy, on every
    /// call the router routes: [`CallContext::with_busy_retry_after`],
    /// in place of the library mappings'
    /// [`DEFAULT_BUSY_RETRY_AFTER`](crate::DEFAULT_BUSY_RETRY_AFTER) of one
    /// second. Take it from the connection's busy timeout or the pool's
    /// acquire timeout.
    #[must_use]
    pub fn with_busy_retry_after(mut self, wait: Duration) -> Self {
        self.busy_retry_after = Some(wait);
        self
    }

    /// Sets how a call the rate limit refuses is answered; see
    /// [`RateLimited`].
    #[must_use]
    pub fn with_rate_limited(mut self, answer: RateLimited) -> Self {
        self.rate_limited = answer;
        self
    }

    /// Sets how a call of a tool the router does not have (or has
    /// disabled) is answered; see [`UnknownTool`].
    #[must_use]
    pub fn with_unknown_tool(mut self, answer: UnknownTool) -> Self {
        self.unknown_tool = answer;
        self
    }

    /// Sets whether every error result whose text is an envelope carries
    /// the tool-failure object of MCP's draft SEP-3313 ("Structured
    /// Tool-Failure Classification"), under
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
    /// that returns a plain `String` error) gets no object. Off by
    /// default while the SEP is a draft.
    #[must_use]
    pub fn with_tool_failure_meta(mut self, on: bool) -> Self {
        self.tool_failure_meta = on;
        self
    }

    /// The tools the router lists (`tools/list`), as rmcp's
    /// `ToolRouter::list_all`: enabled tools, by name; a tool that takes
    /// idempotency keys ([`Router::with_idempotency`]) with
    /// `_meta.idempotency`, a tool with declared failures
    /// ([`Router::with_failures`]) with `_meta.failures`.
    #[must_use]
    pub fn list_all(&self) -> Vec<Tool> {
        let mut tools = self.tools.list_all();
        if let Some(idempotency) = &self.idempotency {
            tools = tools.into_iter().map(|tool| idempotency.declare(tool)).collect();
        }
        let limited = self
            .rate_limit
            .as_ref()
            .and_then(|_| DeclaredFailure::of(&limit::REFUSED));
        for tool in &mut tools {
            let failures = self.failures(&tool.name);
            if !failures.is_empty() {
                let mut failures = failures.to_vec();
                failures.extend(limited.clone().filter(|refused| !failures.contains(refused)));
                // Serializing these plain structs cannot fail.
                let failures = serde_json::to_value(failures).unwrap_or_default();
                tool.meta
                    .get_or_insert_with(MetaObject::default)
                    .insert(String::from(FAILURES_META_KEY), failures);
            }
        }
        tools
    }

    /// The definition of the enabled tool `name`, as rmcp's
    /// `ToolRouter::get`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.get(name)
    }

    /// Routes one `tools/call`: runs the tool inside the call's
    /// [`CallContext`], so each of its error results goes out through
    /// that context (see the module docs); a call of a tool the router
    /// does not have (or has disabled) is answered as
    /// [`Router::with_unknown_tool`] says, through a context of its own
    /// (correlation id, one log line).
    ///
    /// # Errors
    ///
    /// What rmcp's router returns (a tool's protocol error, an argument
    /// that does not deserialize: `-32602`; a tool that could not be
    /// routed: `-32603`); for an unknown tool, `-32602` with the near
    /// misses (unless [`UnknownTool::Sep2145ToolError`]); for a call the
    /// rate limit refuses, only with [`RateLimited::Sep3304Error`],
    /// the draft's `-32023`.
    pub async fn call(&self, context: ToolCallContext<'_, S>) -> Result<CallToolResponse, ErrorData> {
        let name = context.name.clone();
        let request = &context.request_context;
        let id = correlation_id(&request.meta, &request.id);
        let meta = self.tool_failure_meta;
        let Some(tool) = self.tools.get(&name) else {
            return self.unknown(name, id);
        };
        let behaviour = tool
            .annotations
            .as_ref()
            .map(|hints| {
                CallBehaviour::from_hints(
                    hints.read_only_hint,
                    hints.idempotent_hint,
                    hints.destructive_hint,
                )
            })
            .unwrap_or_default();
        if let Some(limit) = &self.rate_limit
            && let Err(limited) = limit.check(&name, request)
        {
            let call = CallContext::identified(name, id).with_behaviour(behaviour);
            #[cfg(feature = "tracing")]
            let call = call.over(crate::call::span::Transport::Mcp);
            let answered = call.fail(limited.to_envelope());
            return match self.rate_limited {
                RateLimited::ToolError => Ok(self.error_result(&answered).into()),
                RateLimited::Sep3304Error => Err(limit::refusal(&limited, &answered)),
            };
        }
        let rule = self.idempotency.as_ref().and_then(|keys| Some((keys, keys.rule(&name)?)));
        let keyed = match rule {
            Some((idempotency, rule)) => {
                idempotency
                    .begin(
                        &name,
                        (rule, behaviour.idempotent),
                        request,
                        context.arguments.as_ref(),
                    )
                    .await
            }
            // A key the tool does not take is never ignored in silence.
            None if request.meta.contains_key(crate::call::idempotency::META_KEY) => {
                keyed::Keyed::Refuse(crate::call::idempotency::key_not_taken(&name))
            }
            None => keyed::Keyed::Unkeyed,
        };
        let cancelled = request.ct.clone();
        let tools = Arc::clone(&self.tools);
        // No `arguments` member is no arguments.
        let arguments = context.arguments.clone().unwrap_or_default();
        let mut call = CallContext::identified(name, id)
            .with_cancellation(move || cancelled.is_cancelled())
            .with_arguments(Value::Object(arguments))
            .with_input_schemas(move |tool| {
                let schema = &tools.get(tool)?.input_schema;
                Some(Value::Object(schema.as_ref().clone()))
            });
        if let Some(wait) = self.busy_retry_after {
            call = call.with_busy_retry_after(wait);
        }
        #[cfg(feature = "tracing")]
        let call = call.over(crate::call::span::Transport::Mcp);
        let (call, claimed) = match keyed {
            keyed::Keyed::Unkeyed => (call.with_behaviour(behaviour), None),
            keyed::Keyed::Run(claimed) => (
                call.with_behaviour(behaviour.keyed_if(true))
                    .with_claim(claimed.clone()),
                Some(claimed),
            ),
            keyed::Keyed::Answer(claimed, answer) => {
                let envelope = call.with_behaviour(behaviour).fail(answer);
                let result = self.error_result(&envelope);
                if let Some(idempotency) = &self.idempotency {
                    let response = Ok(CallToolResponse::Complete(result.clone()));
                    idempotency.settle(&claimed, &response).await;
                }
                return Ok(result.into());
            }
            keyed::Keyed::Replay(Ok(result)) if meta => return Ok(with_failure_meta(result).into()),
            keyed::Keyed::Replay(Ok(result)) => return Ok(result.into()),
            keyed::Keyed::Replay(Err(error)) => return Err(error),
            keyed::Keyed::Refuse(refused) => {
                let envelope = call.with_behaviour(behaviour).fail(refused);
                return Ok(self.error_result(&envelope).into());
            }
        };
        // The tool runs inside the call's span.
        #[cfg(feature = "tracing")]
        let span = call.span().clone();
        let response = CALL.scope(call, self.tools.call(context));
        #[cfg(feature = "tracing")]
        let response = tracing::Instrument::instrument(response, span);
        let response = response.await;
        if let (Some(claimed), Some(idempotency)) = (&claimed, &self.idempotency) {
            idempotency.settle(claimed, &response).await;
        }
        Ok(match response? {
            CallToolResponse::Complete(result) if meta => with_failure_meta(result).into(),
            other => other,
        })
    }

    /// The error result of `envelope`, answered already: its JSON and text
    /// blocks, and the SEP-3313 object when the router adds it.
    fn error_result(&self, envelope: &ErrorEnvelope) -> CallToolResult {
        let mut result = text_result(envelope);
        if self.tool_failure_meta {
            add_failure_meta(&mut result, envelope);
        }
        result
    }

    /// The answer to a call of the unknown tool `name`.
    fn unknown(&self, name: Cow<'static, str>, id: String) -> Result<CallToolResponse, ErrorData> {
        let known: Vec<String> = self
            .tools
            .list_all()
            .into_iter()
            .map(|tool| tool.name.into_owned())
            .collect();
        let call = CallContext::identified(name.clone(), id).with_behaviour(CallBehaviour::READ);
        #[cfg(feature = "tracing")]
        let call = call.over(crate::call::span::Transport::Mcp);
        let envelope = call.fail(unknown_tool(&name, &known));
        match self.unknown_tool {
            UnknownTool::Sep2145ToolError => Ok(self.error_result(&envelope).into()),
            UnknownTool::ProtocolError => {
                let mut message = format!("Unknown tool: {}", cut(&name));
                if !envelope.fuzzy_matches.is_empty() {
                    // The near miss as the name to send, in the words of
                    // the text a tool error result would carry.
                    message.push_str(". ");
                    message.push_str(&crate::render::text::server_lead(&envelope));
                }
                Err(ErrorData::invalid_params(message, Some(envelope.to_json())))
            }
        }
    }
}

/// How a call of an unknown tool (or of a disabled one) is answered.
///
/// The default is the current MCP revision's (2026-07-28, `server/tools`:
/// "Unknown tool" is a protocol error, answered as JSON-RPC `-32602`), with
/// the near misses in the message, so a host that shows protocol errors to
/// the model still recovers, and the envelope in `data` for a host that
/// reads it (`host::read_jsonrpc_error`). The tool error result of the
/// open draft SEP-2145 is an opt-in: the official SDK servers answer so
/// (TypeScript SDK 1.32, Python SDK 2.3), and a host passes a tool result
/// to the model, but a conformance check of the revision fails it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UnknownTool {
    /// The JSON-RPC error `-32602` (invalid params), its message the
    /// revision's `Unknown tool: NAME`, followed by the near misses as the
    /// name to send (`Unknown tool: list_todo. Call again with "list_todos"
    /// in place of the name you sent.`), and its
    /// `data` the `OBJECT_NOT_FOUND` envelope (code `UNKNOWN_TOOL`) as
    /// JSON. Follows MCP 2026-07-28.
    #[default]
    ProtocolError,
    /// A tool error result (`isError: true`) carrying the same envelope:
    /// the answer of the draft SEP-2145, opt-in while it is a draft.
    Sep2145ToolError,
}

/// How a call that the router's rate limit refuses is answered
/// ([`Router::with_rate_limit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RateLimited {
    /// A tool error result (`isError: true`) with the `RATE_LIMITED`
    /// envelope (code `RATE_LIMITED`, `retry_after_ms`, `details.limit`
    /// and `details.remaining` when known): what the current revision
    /// (2026-07-28) allows, which defines no rate-limit code; a model
    /// reads when to repeat, a host's retry loop waits it.
    #[default]
    ToolError,
    /// The JSON-RPC error `-32023` with `data` `{"retryAfterMs",
    /// "limit", "remaining"}`: the draft SEP-3304's, opt-in while it is a
    /// draft (the revision reserves `-32020` to `-32099` and forbids
    /// emitting a code of that range it does not define).
    Sep3304Error,
}

/// `result` with the SEP-3313 tool-failure object in its `_meta`, when it
/// is an error result with an envelope in a text block (see
/// [`Router::with_tool_failure_meta`]); other `_meta` keys are kept.
fn with_failure_meta(mut result: CallToolResult) -> CallToolResult {
    if result.is_error != Some(true) {
        return result;
    }
    if let Some(envelope) = envelope_of(&result) {
        add_failure_meta(&mut result, &envelope);
    }
    result
}

/// The envelope of an error result of this crate: its JSON text block,
/// which precedes the text a model reads.
fn envelope_of(result: &CallToolResult) -> Option<ErrorEnvelope> {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text())
        .find_map(|text| serde_json::from_str::<ErrorEnvelope>(&text.text).ok())
}

/// `result`, a keyed call's stored answer, as it is sent again: marked
/// `_meta.idempotentReplay: true`, and, when it is a failure of ours, its
/// envelope as a replay says it (`model::behaviour::replayed`: not
/// retryable, the replay's step first), in every block and in
/// `structuredContent`, so a client that does not read the mark does not
/// loop.
fn replay(mut result: CallToolResult) -> CallToolResult {
    if result.is_error == Some(true)
        && let Some(envelope) = envelope_of(&result)
    {
        let envelope = crate::model::behaviour::replayed(envelope);
        result.content = crate::render::text::blocks(&envelope)
            .map(ContentBlock::text)
            .into();
        if result.structured_content.is_some() {
            result.structured_content = Some(envelope.to_json());
        }
    }
    result.meta.get_or_insert_with(MetaObject::default).insert(
        String::from(crate::call::idempotency::REPLAY_META_KEY),
        serde_json::Value::Bool(true),
    );
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
    let near = crate::model::fuzzy::suggest_where(name, known, 3, |name, _, distance| {
        distance <= (name.chars().count() / 4).max(2)
    });
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

/// rmcp fills a tool's `CallContext` parameter with the context
/// [`Router::call`] runs the call in (the tool's name, its declared
/// annotations, the request's correlation id, the client's cancellation).
///
/// A call not routed through [`Router`] has none: the parameter fails
/// with the JSON-RPC error `-32603` (internal error), its message naming
/// the fix, so the wiring mistake shows on the first call.
impl<S: Send + Sync + 'static> FromContextPart<ToolCallContext<'_, S>> for CallContext {
    fn from_context_part(_context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        CALL.try_with(CallContext::clone)
            .map_err(|_| ErrorData::internal_error(UNROUTED, None))
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::CallToolResult;
    use serde_json::json;

    use crate::model::class::ErrorClass;

    use super::*;
    use crate::convert::envelope_trait::Envelope;

    fn busy() -> ErrorEnvelope {
        ErrorEnvelope::new(ErrorClass::Busy, "pool full")
            .with_retry_after_ms(250)
            .with_correlation_id("c-1")
    }

    const BUSY_JSON: &str = r#"{"isError":true,"error_class":"BUSY","message":"pool full","retry_after_ms":250,"category":"Technical","retryable":true,"correlation_id":"c-1"}"#;

    const BUSY_TEXT: &str = "Wait 250 ms, then repeat the same call unchanged.";

    #[test]
    fn from_envelope_matches_the_json_renderer() {
        let result = CallToolResult::from(busy());
        assert_eq!(result.is_error, Some(true));
        assert_eq!(result.content.len(), 2);
        assert_eq!(result.content[0].as_text().unwrap().text, BUSY_JSON);
        assert_eq!(result.content[1].as_text().unwrap().text, BUSY_TEXT);
        assert_eq!(result.structured_content, Some(busy().to_json()));
        assert_eq!(result.meta, None);
        // rmcp's own wire form equals `to_mcp_result`, `resultType`
        // included.
        let wire = serde_json::to_value(&result).unwrap();
        assert_eq!(wire["resultType"], json!("complete"));
        assert_eq!(wire, busy().to_mcp_result());
    }

    #[test]
    fn a_tool_error_is_the_text_blocks_only() {
        let CallToolResponse::Complete(result) = busy().into_call_tool_result().unwrap() else {
            panic!("a complete result")
        };
        assert_eq!(result.is_error, Some(true));
        assert_eq!(result.content.len(), 2);
        assert_eq!(result.content[0].as_text().unwrap().text, BUSY_JSON);
        assert_eq!(result.content[1].as_text().unwrap().text, BUSY_TEXT);
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
