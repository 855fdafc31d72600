//! [`CallContext`]: one tool call, the place where an error becomes the
//! agent's answer, and [`OrFail`], the `?`-friendly way to get there.

use std::borrow::Cow;
use std::error::Error;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::CallBehaviour;
use crate::convert::envelope_trait::Envelope;
use crate::model::class::ErrorClass;
use crate::model::envelope::{ErrorEnvelope, correlation_id};

/// A check for a cancellation the client may have sent.
type Cancelled = Arc<dyn Fn() -> bool + Send + Sync>;

/// A tool's input schema by name.
type InputSchemas = Arc<dyn Fn(&str) -> Option<Value> + Send + Sync>;

/// One tool call (an MCP `tools/call`, a function call in a chat loop, an
/// HTTP request), created once when the call starts. Every error of the
/// call becomes the agent's answer through it, in one place
/// ([`CallContext::fail`], or [`OrFail::or_fail`] on a `Result`):
///
/// 1. a call the client cancelled answers `CANCELLED` (code `CANCELLED`),
///    whatever the interrupted code returned;
/// 2. the call's [`CallBehaviour`] is applied through the retry rule;
/// 3. given the call's arguments ([`CallContext::with_arguments`]), the
///    next call is computed where the failure says what to change: a near
///    miss of a value sent (`details.corrected_arguments`), the arguments
///    of the tool the text tells the model to call, from the tools' input
///    schemas ([`CallContext::with_input_schemas`];
///    `details.suggested_arguments`);
/// 4. the correlation id is set, unless the error carried its own;
/// 5. with the `tracing` feature, one operator log line
///    (`log::record`), inside the call's span;
/// 6. the envelope is returned, for the transport to render (rmcp's
///    `CallToolResult`, problem details).
///
/// The transports do this for every failure of a call they route: rmcp's
/// `envelope::rmcp::Router` (feature `rmcp`) and axum's `answer_failures`
/// (feature `axum`), so a tool or handler there writes plain `?`. Elsewhere
/// (a chat loop, a script runner), an error that does not go through the
/// context gets none of this: answer every error of the call through it.
///
/// ```
/// # extern crate envelope_core as envelope;
/// use envelope::{CallContext, ErrorClass, ErrorEnvelope, OrFail};
///
/// // Any `Envelope` error works here; a derived `NotesError::Locked`, say.
/// fn search(call: &CallContext) -> Result<Vec<String>, ErrorEnvelope> {
///     let rows: Result<Vec<String>, ErrorEnvelope> =
///         Err(ErrorEnvelope::new(ErrorClass::Transient, "the database is locked"));
///     let rows = rows.or_fail(call)?;
///     Ok(rows)
/// }
///
/// // A read: the transient failure changed nothing, so it is retryable.
/// let read = CallContext::new("search_notes").read_only().with_correlation_id("req-7");
/// let envelope = search(&read).unwrap_err();
/// assert!(envelope.retryable);
/// assert_eq!(envelope.correlation_id.as_deref(), Some("req-7"));
///
/// // The same failure of a write that is not idempotent: check first.
/// let write = CallContext::new("create_note");
/// let envelope = search(&write).unwrap_err();
/// assert!(!envelope.retryable);
/// assert_eq!(
///     envelope.next_steps[0],
///     "the call may have taken effect: check its result before repeating it"
/// );
/// ```
#[derive(Clone)]
pub struct CallContext {
    tool: Cow<'static, str>,
    correlation_id: String,
    behaviour: CallBehaviour,
    cancelled: Option<Cancelled>,
    arguments: Option<Arc<Value>>,
    input_schemas: Option<InputSchemas>,
    busy_retry_after: Option<Duration>,
    claim: Option<Arc<super::idempotency::Claimed>>,
    /// What carries the call, for its span's conventions.
    #[cfg(feature = "tracing")]
    transport: super::span::Transport,
    /// Made on first use, so it carries the final tool name and id.
    #[cfg(feature = "tracing")]
    span: std::sync::OnceLock<tracing::Span>,
}

impl fmt::Debug for CallContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("tool", &self.tool)
            .field("correlation_id", &self.correlation_id)
            .field("behaviour", &self.behaviour)
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

impl CallContext {
    /// The context of a call of `tool`, with a generated correlation id
    /// ([`CallContext::generated_id`]) and no declared behaviour.
    #[must_use]
    pub fn new(tool: impl Into<Cow<'static, str>>) -> Self {
        Self::identified(tool.into(), Self::generated_id())
    }

    /// The context of a call of `tool` whose correlation id is known.
    pub(crate) fn identified(tool: Cow<'static, str>, correlation_id: String) -> Self {
        CallContext {
            tool,
            correlation_id,
            behaviour: CallBehaviour::default(),
            cancelled: None,
            arguments: None,
            input_schemas: None,
            busy_retry_after: None,
            claim: None,
            #[cfg(feature = "tracing")]
            transport: super::span::Transport::Tool,
            #[cfg(feature = "tracing")]
            span: std::sync::OnceLock::new(),
        }
    }

    /// The same context, carried by `transport` (set by the transports
    /// before the span is made).
    #[cfg(feature = "tracing")]
    #[cfg_attr(not(any(feature = "rmcp", feature = "axum")), allow(dead_code))]
    pub(crate) fn over(mut self, transport: super::span::Transport) -> Self {
        self.transport = transport;
        self
    }

    /// An id unique within this process: `"<process>-<n>"`, where
    /// `<process>` is 8 hex digits drawn once per process from the standard
    /// library's random hasher seed (so two runs of a server do not repeat
    /// ids in one log) and `<n>` counts from 1.
    #[must_use]
    pub fn generated_id() -> String {
        crate::model::envelope::generated_id()
    }

    /// Replaces the correlation id (one the client sent: a request id, a
    /// W3C `traceparent`'s trace id), cleaned as
    /// [`ErrorEnvelope::with_correlation_id`] cleans it; an empty one keeps
    /// the generated id.
    #[must_use]
    pub fn with_correlation_id(mut self, id: impl fmt::Display) -> Self {
        if let Some(id) = correlation_id(id.to_string()) {
            self.correlation_id = id;
            // A span made before carries the old id: make it again.
            #[cfg(feature = "tracing")]
            {
                self.span = std::sync::OnceLock::new();
            }
        }
        self
    }

    /// Sets the call's behaviour, replacing what was declared before.
    #[must_use]
    pub fn with_behaviour(mut self, behaviour: CallBehaviour) -> Self {
        self.behaviour = behaviour;
        self
    }

    /// Declares the call read-only (and so idempotent): its failures
    /// changed nothing.
    #[must_use]
    pub fn read_only(mut self) -> Self {
        self.behaviour.read_only = true;
        self.behaviour.idempotent = true;
        self
    }

    /// Declares the call idempotent: repeating it is safe whatever a
    /// failure did.
    #[must_use]
    pub fn idempotent(mut self) -> Self {
        self.behaviour.idempotent = true;
        self
    }

    /// Declares the call destructive (see [`CallBehaviour::destructive`]).
    #[must_use]
    pub fn destructive(mut self) -> Self {
        self.behaviour.destructive = true;
        self
    }

    /// Sets the check for a cancellation by the client (rmcp's
    /// `CancellationToken::is_cancelled`, say): while it returns true,
    /// every failure of the call answers `CANCELLED`.
    #[must_use]
    pub fn with_cancellation(
        mut self,
        cancelled: impl Fn() -> bool + Send + Sync + 'static,
    ) -> Self {
        self.cancelled = Some(Arc::new(cancelled));
        self
    }

    /// Sets the arguments the call was made with (a JSON object), from
    /// which a failure's next call is computed (step 3 above): a value
    /// the failure names a near miss of, replaced by it, and the arguments
    /// of the tool the failure suggests. `envelope::rmcp::Router` sets
    /// the arguments and the input schemas for every call it routes.
    #[must_use]
    pub fn with_arguments(mut self, arguments: Value) -> Self {
        self.arguments = Some(Arc::new(arguments));
        self
    }

    /// Sets the lookup of a tool's input schema (its MCP `inputSchema`, a
    /// JSON Schema of an object) by name: a failure that tells the model to
    /// call another tool gets, for each argument the tool's schema lists,
    /// the failure's detail of that name, else this call's argument, when
    /// together they include every one it requires (see
    /// [`CallContext::with_arguments`]). Asked on a failure only.
    #[must_use]
    pub fn with_input_schemas(
        mut self,
        input_schemas: impl Fn(&str) -> Option<Value> + Send + Sync + 'static,
    ) -> Self {
        self.input_schemas = Some(Arc::new(input_schemas));
        self
    }

    /// The tool's name.
    #[must_use]
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The call's correlation id, the one its envelopes and log lines
    /// carry.
    #[must_use]
    pub fn correlation_id(&self) -> &str {
        &self.correlation_id
    }

    /// Sets how long a caller should wait before repeating this call when
    /// it fails because a lock was held or the server was busy: the
    /// `retry_after_ms` (in whole milliseconds) of a `BUSY` envelope from a
    /// library mapping (SQLite's `SQLITE_BUSY`, a full sqlx pool, an
    /// `io::Error` of kind `WouldBlock`), in place of its
    /// [`DEFAULT_BUSY_RETRY_AFTER`](crate::DEFAULT_BUSY_RETRY_AFTER) of one
    /// second. Take it from the connection's busy timeout or the pool's
    /// acquire timeout. A hint the error set itself (an upstream's
    /// `Retry-After`, a derived variant's `retry_after_ms`) is kept.
    #[must_use]
    pub fn with_busy_retry_after(mut self, wait: Duration) -> Self {
        self.busy_retry_after = Some(wait);
        self
    }

    /// The call's hold on its idempotency key, when it is a keyed call
    /// that runs (set by `envelope::rmcp::Router`; `None` otherwise): what
    /// a tool hands to `SqliteStore::record_in` or
    /// `PostgresStore::record_in` so that its write commits with the key's
    /// record.
    #[must_use]
    pub fn claim(&self) -> Option<&super::idempotency::Claimed> {
        self.claim.as_deref()
    }

    /// The same context, holding `claimed` (the router's, for a keyed
    /// call).
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn with_claim(mut self, claimed: super::idempotency::Claimed) -> Self {
        self.claim = Some(Arc::new(claimed));
        self
    }

    /// The call's declared behaviour.
    #[must_use]
    pub fn behaviour(&self) -> CallBehaviour {
        self.behaviour
    }

    /// Whether the client cancelled the call.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.as_ref().is_some_and(|cancelled| cancelled())
    }

    /// The call's `tracing` span (feature `tracing`), `tool_call` with the
    /// fields `tool` and `correlation_id` (`Debug`-escaped: the id may come
    /// from the client), named and filled after OpenTelemetry's semantic
    /// conventions for `tracing-opentelemetry`:
    ///
    /// | field | a function call | an MCP `tools/call` (rmcp `Router`) | an HTTP request (axum) |
    /// |---|---|---|---|
    /// | `otel.name` (the span's name) | `execute_tool {tool}` | `tools/call {tool}` | `{METHOD} {route}` |
    /// | `otel.kind` | `internal` | `server` | `server` |
    /// | `mcp.method.name` | | `tools/call` | |
    /// | `gen_ai.operation.name` | `execute_tool` | `execute_tool` | |
    /// | `gen_ai.tool.name` | the tool | the tool | |
    /// | on failure: `error.type` | the class (`TIMEOUT`) | `tool_error` | the status, 5xx only |
    /// | on failure: `otel.status_code`, `otel.status_description` | `ERROR`, the envelope's message | the same | the same, 5xx only |
    ///
    /// On failure the span also gets `envelope.error_class`,
    /// `envelope.code`, `envelope.owner`, `envelope.retryable` and
    /// `envelope.effect`, and the failure's log line is recorded inside
    /// it. The routers run each call inside its span; elsewhere, enter it
    /// (or `Instrument` the call's future with it) around the call's work
    /// to tie the call's other events, and its duration, to it.
    #[cfg(feature = "tracing")]
    #[must_use]
    pub fn span(&self) -> &tracing::Span {
        self.span
            .get_or_init(|| super::span::open(&self.tool, &self.correlation_id, self.transport))
    }

    /// The agent's answer to `error`, a failure of this call: see the
    /// steps on [`CallContext`]. Takes the error by value and logs it
    /// whole (its `Display` and `source()` chain) before it is dropped.
    pub fn fail<E: Envelope + Error>(&self, error: E) -> ErrorEnvelope {
        let envelope = error.to_envelope();
        self.answer(envelope, |_envelope| {
            // An envelope's `Display` is the text a model reads; its
            // operator's text is the one a derived `From` kept, else its
            // message.
            #[cfg(feature = "tracing")]
            if std::any::type_name::<E>() == std::any::type_name::<ErrorEnvelope>() {
                crate::call::log::record_text(_envelope, _envelope.rule.log_text.as_deref());
            } else {
                crate::call::log::record(
                    _envelope,
                    &error.to_string(),
                    &crate::call::log::sources(&error),
                );
            }
        })
    }

    /// The one path of every failure of the call: steps 1 to 3 on
    /// `envelope`, then `log` (step 4, inside the call's span) unless a
    /// context answered the envelope before, so an envelope answered by a
    /// tool and again by its transport is logged once.
    pub(crate) fn answer(
        &self,
        envelope: ErrorEnvelope,
        log: impl FnOnce(&ErrorEnvelope),
    ) -> ErrorEnvelope {
        let answered = envelope.rule.answered;
        let mut envelope = if self.is_cancelled() {
            ErrorEnvelope::new(ErrorClass::Cancelled, "the client cancelled the call")
                .with_code("CANCELLED")
        } else {
            envelope
        };
        if let Some(wait) = self.busy_retry_after
            && envelope.rule.stand_in_wait
        {
            envelope = envelope.with_retry_after(wait);
        }
        let behaviour = self.behaviour;
        envelope.apply_call(behaviour.read_only, behaviour.idempotent || behaviour.keyed);
        // A keyed call that may have run: the key makes a repeat safe, and
        // the model is told to keep it.
        let may_have_run = envelope.retryable && envelope.effect != crate::Effect::Nothing;
        let steps = &mut envelope.fields_mut().next_steps;
        if behaviour.keyed
            && may_have_run
            && !steps
                .iter()
                .any(|step| step == crate::model::behaviour::KEY_STEP)
        {
            steps.insert(0, String::from(crate::model::behaviour::KEY_STEP));
        }
        if let Some(arguments) = &self.arguments {
            let none = |_: &str| None;
            let input_schemas = self.input_schemas.as_deref().unwrap_or(&none);
            envelope = crate::args::next_call::complete(
                envelope,
                arguments,
                &self.tool,
                behaviour.read_only,
                input_schemas,
            );
        }
        if envelope.correlation_id.is_none() {
            envelope = envelope.with_correlation_id(&self.correlation_id);
        }
        envelope.fields_mut().rule.answered = true;
        if !answered {
            #[cfg(feature = "tracing")]
            let _entered = {
                super::span::fail(self.span(), &envelope, self.transport);
                self.span().enter()
            };
            log(&envelope);
        }
        envelope
    }
}

/// Turns the error of a fallible line into the call's answer, so a tool
/// reads `let note = store.get(&id).or_fail(&call)?;` with no closure.
///
/// Implemented for every `Result` whose error is an [`Envelope`] and a
/// `std::error::Error`: a derived type, [`ErrorEnvelope`] itself (the
/// argument extractor's), the std errors this crate classifies.
pub trait OrFail<T> {
    /// `Ok` unchanged; `Err` through [`CallContext::fail`].
    ///
    /// # Errors
    ///
    /// The envelope of the error, answered by `call`.
    fn or_fail(self, call: &CallContext) -> Result<T, ErrorEnvelope>;
}

impl<T, E: Envelope + Error> OrFail<T> for Result<T, E> {
    #[inline]
    fn or_fail(self, call: &CallContext) -> Result<T, ErrorEnvelope> {
        self.map_err(|error| call.fail(error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Effect;

    #[derive(Debug)]
    struct Locked;

    impl fmt::Display for Locked {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("database is locked")
        }
    }

    impl Error for Locked {}

    impl Envelope for Locked {
        fn error_class(&self) -> ErrorClass {
            ErrorClass::Timeout
        }

        fn to_envelope(&self) -> ErrorEnvelope {
            ErrorEnvelope::new(ErrorClass::Timeout, "the database is locked")
        }
    }

    #[test]
    fn debug_shows_the_call_not_its_plumbing() {
        let context = CallContext::new("run_query")
            .with_correlation_id("c-1")
            .with_arguments(serde_json::json!({"sql": "SELECT 1"}));
        assert_eq!(
            format!("{context:?}"),
            format!(
                "CallContext {{ tool: \"run_query\", correlation_id: \"c-1\", \
                 behaviour: {:?}, cancelled: false, .. }}",
                CallBehaviour::default()
            )
        );
    }

    #[test]
    fn generated_ids_are_distinct_and_shaped() {
        let a = CallContext::generated_id();
        let b = CallContext::generated_id();
        assert_ne!(a, b);
        let (process, n) = a.split_once('-').unwrap();
        assert_eq!(process.len(), 8);
        assert!(process.chars().all(|c| c.is_ascii_hexdigit()));
        assert!(n.parse::<u64>().is_ok());
        assert_eq!(b.split_once('-').unwrap().0, process);
    }

    #[test]
    fn behaviour_from_mcp_hints() {
        assert_eq!(
            CallBehaviour::from_hints(None, None, None),
            CallBehaviour {
                read_only: false,
                idempotent: false,
                destructive: true,
                keyed: false,
            }
        );
        assert_eq!(
            CallBehaviour::from_hints(Some(true), None, Some(true)),
            CallBehaviour::READ
        );
        assert_eq!(
            CallBehaviour::from_hints(Some(false), Some(true), Some(false)),
            CallBehaviour {
                read_only: false,
                idempotent: true,
                destructive: false,
                keyed: false,
            }
        );
    }

    #[test]
    fn a_keyed_call_holds_its_claim() {
        use crate::call::idempotency::{Claimed, Key, Scope, Token};
        let claimed = Claimed {
            scope: Scope::new(None, "add_note"),
            key: Key::parse("k-1").unwrap(),
            token: Token::random(),
        };
        let context = CallContext::new("add_note").with_claim(claimed.clone());
        assert_eq!(context.claim(), Some(&claimed));
        assert_eq!(CallContext::new("add_note").claim(), None);
    }

    #[test]
    fn a_keyed_call_may_be_repeated_with_its_key() {
        #[derive(Debug)]
        struct Timeout;
        impl fmt::Display for Timeout {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("timed out")
            }
        }
        impl Error for Timeout {}
        impl Envelope for Timeout {
            fn error_class(&self) -> ErrorClass {
                ErrorClass::Timeout
            }
            fn to_envelope(&self) -> ErrorEnvelope {
                ErrorEnvelope::new(ErrorClass::Timeout, ErrorClass::Timeout.generic_message())
                    .with_code("TIMEOUT")
            }
        }
        let keyed = CallContext::new("add_note")
            .with_correlation_id("req-1")
            .with_behaviour(CallBehaviour::default().keyed_if(true));
        let envelope = keyed.fail(Timeout);
        assert_eq!(
            envelope.to_json_string(),
            r#"{"isError":true,"error_class":"TIMEOUT","message":"the operation timed out","next_steps":["repeat the same call with the same idempotency key: the server runs it at most once"],"code":"TIMEOUT","category":"Technical","retryable":true,"effect":"unknown","correlation_id":"req-1"}"#
        );
        // Answered twice (by the tool, then by its transport): one step,
        // and logged once.
        let mut logged = 0;
        let again = keyed.answer(envelope.clone(), |_| logged += 1);
        assert_eq!((again.next_steps.len(), logged), (1, 0));
        keyed.answer(Timeout.to_envelope(), |_| logged += 1);
        assert_eq!(logged, 1);
        // A failure that changed nothing (a rate limit) has no repeat for
        // the key to make safe: no key step.
        let limited = keyed.fail(ErrorEnvelope::new(ErrorClass::RateLimited, "slow down"));
        assert!(limited.retryable);
        assert!(
            !limited
                .next_steps
                .iter()
                .any(|step| step == crate::model::behaviour::KEY_STEP),
            "{:?}",
            limited.next_steps
        );
        // Without the key, the same failure is a check, not a repeat.
        let unkeyed = CallContext::new("add_note").fail(Timeout);
        assert!(!unkeyed.retryable);
    }

    #[cfg(feature = "http")]
    #[test]
    fn behaviour_from_http_methods() {
        use http::Method;
        let put = CallBehaviour {
            idempotent: true,
            ..CallBehaviour::default()
        };
        let delete = CallBehaviour {
            destructive: true,
            ..put
        };
        let cases = [
            (Method::GET, CallBehaviour::READ),
            (Method::HEAD, CallBehaviour::READ),
            (Method::OPTIONS, CallBehaviour::READ),
            (Method::TRACE, CallBehaviour::READ),
            (Method::PUT, put),
            (Method::DELETE, delete),
            (Method::POST, CallBehaviour::default()),
            (Method::PATCH, CallBehaviour::default()),
            (Method::CONNECT, CallBehaviour::default()),
            (
                Method::from_bytes(b"PURGE").unwrap(),
                CallBehaviour::default(),
            ),
        ];
        for (method, behaviour) in cases {
            assert_eq!(CallBehaviour::from_method(&method), behaviour, "{method}");
        }
    }

    #[test]
    fn an_answered_envelope_is_answered_again_without_a_second_log() {
        let call = CallContext::new("x").with_correlation_id("r-6");
        let mut logged = 0;
        let once = call.answer(Locked.to_envelope(), |_| logged += 1);
        let twice = call.answer(once.clone(), |_| logged += 1);
        assert_eq!(logged, 1);
        assert_eq!(once, twice);
        assert_eq!(twice.correlation_id.as_deref(), Some("r-6"));
    }

    #[test]
    fn read_only_timeout_is_retryable_and_changed_nothing() {
        let call = CallContext::new("get_note")
            .read_only()
            .with_correlation_id("r-1");
        let envelope = Err::<(), _>(Locked).or_fail(&call).unwrap_err();
        assert_eq!(
            envelope.to_json_string(),
            r#"{"isError":true,"error_class":"TIMEOUT","message":"the database is locked","category":"Technical","retryable":true,"correlation_id":"r-1"}"#
        );
    }

    #[test]
    fn idempotent_write_keeps_its_effect_and_may_be_repeated() {
        let call = CallContext::new("put_note")
            .idempotent()
            .with_correlation_id("r-2");
        let envelope = call.fail(Locked);
        assert_eq!(envelope.effect, Effect::Unknown);
        assert!(envelope.retryable);
        assert!(envelope.next_steps.is_empty());
    }

    #[test]
    fn undeclared_write_says_check_first() {
        let call = CallContext::new("create_note").with_correlation_id("r-3");
        let envelope = call.fail(Locked);
        assert_eq!(
            envelope.to_json_string(),
            r#"{"isError":true,"error_class":"TIMEOUT","message":"the database is locked","next_steps":["the call may have taken effect: check its result before repeating it"],"category":"Technical","effect":"unknown","correlation_id":"r-3"}"#
        );
    }

    #[test]
    fn an_explicit_not_retryable_is_kept_on_a_read() {
        let call = CallContext::new("get_note").read_only();
        let envelope = call.fail(
            ErrorEnvelope::new(ErrorClass::ConnectionFailed, "bad password").with_retryable(false),
        );
        assert!(!envelope.retryable);
        assert_eq!(envelope.effect, Effect::Nothing);
        assert!(envelope.next_steps.is_empty());
    }

    #[test]
    fn the_error_s_own_correlation_id_is_kept() {
        let call = CallContext::new("get_note").with_correlation_id("ours");
        let envelope = call.fail(
            ErrorEnvelope::new(ErrorClass::Internal, "boom").with_correlation_id("upstream-9"),
        );
        assert_eq!(envelope.correlation_id.as_deref(), Some("upstream-9"));
    }

    #[test]
    fn a_cancelled_call_answers_cancelled() {
        let call = CallContext::new("search_notes")
            .read_only()
            .with_correlation_id("r-4")
            .with_cancellation(|| true);
        assert!(call.is_cancelled());
        let envelope = call.fail(Locked);
        assert_eq!(
            envelope.to_json_string(),
            r#"{"isError":true,"error_class":"CANCELLED","message":"the client cancelled the call","code":"CANCELLED","category":"Technical","correlation_id":"r-4"}"#
        );
        let write = CallContext::new("create_note")
            .with_correlation_id("r-5")
            .with_cancellation(|| true);
        assert_eq!(write.fail(Locked).effect, Effect::Unknown);
        let not_yet = CallContext::new("x").with_cancellation(|| false);
        assert_eq!(not_yet.fail(Locked).error_class, ErrorClass::Timeout);
    }

    #[test]
    fn an_empty_id_keeps_the_generated_one() {
        let call = CallContext::new("x");
        let generated = call.correlation_id().to_owned();
        let call = call.with_correlation_id("  ");
        assert_eq!(call.correlation_id(), generated);
    }
}
