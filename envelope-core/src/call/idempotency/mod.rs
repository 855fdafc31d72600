//! Exactly-once calls: idempotency keys, and the stores that remember what
//! each keyed call answered.
//!
//! A write whose answer is lost (a timeout, a broken stream, a restarted
//! client) has an unknown effect, and repeating it may do it twice. A key
//! fixes that: the host sends one with the call, a new one per logical
//! call and the same one on every repeat; the server runs the call at most
//! once per key and answers every repeat from its [`Store`].
//!
//! | where | the key | the declaration |
//! |---|---|---|
//! | MCP | the request's `_meta.idempotencyKey` ([`META_KEY`], the name of the closed SEP-3182), a string | the tool's `_meta.idempotency` ([`TOOL_META_KEY`]): `"required"` or `"optional"` ([`KeyRule`]) |
//! | HTTP (feature `axum`) | the `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header) | the route's documentation; `envelope::axum::keyed` on the route |
//!
//! Per key and scope (the operation, and the authenticated principal where
//! there is one) the server keeps the call's [fingerprint] (its arguments,
//! as canonical JSON) and its state:
//!
//! | the call | the answer ([`Claim`]) |
//! |---|---|
//! | first of its key | run; a success, or a failure that may have changed something, is stored (`ttl`); a failure that changed nothing frees the key |
//! | same key and arguments, the first done | the stored answer, marked as a replay (`_meta.idempotentReplay: true`, [`REPLAY_META_KEY`]) |
//! | same key, the first still running | `CONFLICT`, code `IDEMPOTENCY_KEY_IN_USE`, retryable after [`IN_FLIGHT_RETRY_MS`] |
//! | same key, other arguments | `INVALID_ARGUMENTS`, code `IDEMPOTENCY_KEY_REUSED` (HTTP `422`, as the draft says) |
//! | no key to a tool that requires one | `INVALID_ARGUMENTS`, code `IDEMPOTENCY_KEY_REQUIRED`, saying how to send it |
//! | a key that is not 1 to [`MAX_KEY_CHARS`] visible ASCII characters | `INVALID_ARGUMENTS`, code `IDEMPOTENCY_KEY_INVALID` |
//! | the store fails | `TRANSIENT`, code `IDEMPOTENCY_STORE_FAILED`, effect nothing: the call did not run |
//! | the first call ran, its stored answer cannot be read | `INTERNAL`, code `IDEMPOTENCY_ANSWER_UNREADABLE`, effect unknown |
//! | the first call failed with a JSON-RPC error (MCP) | that error again; a `-32602` (arguments rmcp could not read: the tool never ran) frees the key |
//! | the first HTTP response was streamed or larger than [`MAX_KEYED_BODY`](crate::axum::MAX_KEYED_BODY) (sent whole) | `409`, code `IDEMPOTENCY_ANSWER_NOT_KEPT`: it ran once |
//! | the first HTTP handler panicked | `500`, code `IDEMPOTENCY_HANDLER_FAILED`, effect unknown, then and on every repeat |
//! | the first call's lease ran out with no answer, its write committed with the key's record | `CONFLICT`, code `IDEMPOTENCY_ANSWER_LOST`: it ran once |
//! | the first call's lease ran out with no answer and no committed write, a tool that reruns safely | runs under a new [`Token`]: the first can no longer record |
//! | the first call's lease ran out with no answer, any other tool | `INTERNAL`, code `IDEMPOTENCY_OUTCOME_UNKNOWN`, effect unknown, naming the check tool, then and on every repeat |
//!
//! A keyed call's failure that may have taken effect is retryable with the
//! same key ([`CallBehaviour::keyed`](crate::CallBehaviour::keyed)): the
//! repeat gets the stored answer, or runs the call if the first never
//! arrived. A call running when its server dies holds its key for the
//! store's lease. After it, the repeat runs only when that is safe: the
//! tool's write commits with the key's record (`SqliteStore::record_in`,
//! `PostgresStore::record_in`: then a record without a committed write
//! means nothing was written, and the call is exactly once), or a second
//! run is harmless; any other tool's repeat is answered as an unknown
//! outcome (at most once). Each claim carries a fencing [`Token`]: a call
//! that outlived its lease cannot record its answer, or commit with the
//! key, once another call holds it.
//!
//! Stores: [`MemoryStore`] (one process; bounded, with a TTL); with
//! `rusqlite`, [`SqliteStore`] (kept across restarts, on one host); with
//! `postgres`, [`PostgresStore`] (shared by the replicas of a server).

mod memory;
#[cfg(feature = "postgres")]
mod postgres;
#[cfg(feature = "rusqlite")]
mod sqlite;

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

pub use memory::MemoryStore;
#[cfg(feature = "postgres")]
pub use postgres::{POSTGRES_SCHEMA, PostgresStore};
#[cfg(feature = "rusqlite")]
pub use sqlite::{SQLITE_SCHEMA, SqliteStore};

use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// The request `_meta` key of an MCP call's idempotency key.
pub const META_KEY: &str = "idempotencyKey";

/// The tool `_meta` key that declares whether a tool takes keys: its value
/// is a [`KeyRule`]'s wire name.
pub const TOOL_META_KEY: &str = "idempotency";

/// The result `_meta` key set to `true` on a stored answer sent again.
pub const REPLAY_META_KEY: &str = "idempotentReplay";

/// The longest key accepted, in characters (Stripe's limit).
pub const MAX_KEY_CHARS: usize = 255;

/// The retry hint of a call whose key is held by a call still running, in
/// milliseconds.
pub const IN_FLIGHT_RETRY_MS: u64 = 1000;

/// Whether a tool takes idempotency keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyRule {
    /// Every call must carry a key (`"required"`): one without is refused
    /// before it runs.
    Required,
    /// A call may carry a key (`"optional"`); one without runs as any call.
    Optional,
}

impl KeyRule {
    /// The wire name: `"required"` or `"optional"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            KeyRule::Required => "required",
            KeyRule::Optional => "optional",
        }
    }

    /// The rule of a wire name, `None` for anything else.
    #[must_use]
    pub fn from_wire(name: &str) -> Option<Self> {
        match name {
            "required" => Some(KeyRule::Required),
            "optional" => Some(KeyRule::Optional),
            _ => None,
        }
    }
}

/// An idempotency key as a client sent it: 1 to [`MAX_KEY_CHARS`] visible
/// ASCII characters (`!` to `~`), which a UUID is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key(String);

impl Key {
    /// The key `text`, or the `INVALID_ARGUMENTS` envelope (code
    /// `IDEMPOTENCY_KEY_INVALID`) that refuses it.
    ///
    /// # Errors
    ///
    /// When `text` is empty, longer than [`MAX_KEY_CHARS`] or holds a
    /// character outside `!` to `~`.
    pub fn parse(text: &str) -> Result<Key, ErrorEnvelope> {
        let visible = text.bytes().all(|byte| (b'!'..=b'~').contains(&byte));
        if text.is_empty() || text.len() > MAX_KEY_CHARS || !visible {
            return Err(key_invalid());
        }
        Ok(Key(text.to_owned()))
    }

    /// The key.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a key is unique within: the operation (an MCP tool's name; an
/// HTTP route) and the authenticated principal, when there is one. Two
/// principals may use the same key without meeting.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Scope {
    /// Who made the call, as the server's authentication names them;
    /// `None` without authentication.
    pub principal: Option<String>,
    /// The tool or route.
    pub operation: String,
}

impl Scope {
    /// The scope of `operation` for `principal`.
    #[must_use]
    pub fn new(principal: Option<String>, operation: impl Into<String>) -> Self {
        Scope {
            principal,
            operation: operation.into(),
        }
    }

    /// The scope as one string, for a store's column: the principal as
    /// JSON (`null` without one), a space, the operation.
    #[must_use]
    pub fn to_key_string(&self) -> String {
        format!(
            "{} {}",
            self.principal
                .as_deref()
                .map_or_else(|| String::from("null"), |who| Value::from(who).to_string()),
            self.operation
        )
    }
}

/// The fingerprint of a call's arguments: canonical JSON (object keys
/// sorted at every level, no whitespace), so the same arguments in
/// another key order have the same fingerprint and any other arguments
/// another. The whole JSON, not a hash of it: no collision is possible,
/// and a store compares it as text.
#[must_use]
pub fn fingerprint(arguments: &Value) -> String {
    sorted(arguments).to_string()
}

/// `value` with every object's members inserted in key order: the order
/// `serde_json` writes them in, whether or not its `preserve_order`
/// feature is on somewhere in the build.
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(key, value)| (key.clone(), sorted(value)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        scalar => scalar.clone(),
    }
}

/// A claim's fencing token: a random number a store gives each call that
/// takes a key ([`Claim::Run`], [`Claim::Expired`]). The call's answer
/// ([`Store::finish`]), its freeing ([`Store::release`]) and a write
/// committed with its record (`SqliteStore::record_in`,
/// `PostgresStore::record_in`) count only under the key's current token:
/// once a lease runs out and another call takes the key, the first call
/// can no longer record anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Token(i64);

impl Token {
    /// A new token: a random positive number (63 bits, from the standard
    /// library's randomly keyed hasher).
    #[must_use]
    pub fn random() -> Self {
        use std::hash::{BuildHasher, Hasher};
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        hasher.write_i64(now_ms());
        Token(i64::try_from(hasher.finish() >> 1).unwrap_or(i64::MAX))
    }

    /// The token a store kept as the number `raw` (a column's value).
    #[must_use]
    pub const fn from_raw(raw: i64) -> Self {
        Token(raw)
    }

    /// The token as a number, for a store's column.
    #[must_use]
    pub const fn raw(self) -> i64 {
        self.0
    }
}

/// A call's hold on its key: the key, its scope and the claim's
/// [`Token`]. The router hands it to the tool
/// ([`CallContext::claim`](crate::CallContext::claim) over MCP; a request
/// extension, `axum::Extension<Claimed>`, over HTTP) for a write committed
/// with the key's record, and gives it back to the store to finish or
/// release the key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Claimed {
    /// What the key is unique within.
    pub scope: Scope,
    /// The key.
    pub key: Key,
    /// The claim's fencing token.
    pub token: Token,
}

/// What a store says of a key a call claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The key is the call's now, under this token: run it, then
    /// [`Store::finish`] or [`Store::release`].
    Run(Token),
    /// A call with the key and the same fingerprint is running (within its
    /// lease).
    Running,
    /// A call with the key and the same fingerprint finished with this
    /// answer (what [`Store::finish`] was given).
    Done(String),
    /// The key was used with other arguments.
    Mismatch,
    /// A call with the key and the same fingerprint ran out of its lease
    /// with no answer and no committed write: its server died mid-call, or
    /// it still runs. It may have taken effect. The key is this call's
    /// now, under the new token (the other call can no longer record);
    /// the caller runs it only when the tool is safe to run again, and
    /// records an answer of unknown outcome otherwise.
    Expired(Token),
    /// A call with the key and the same fingerprint committed its write
    /// with the key's record, and its lease ran out before its answer was
    /// stored (its server died between the two): it ran once, and its
    /// answer is lost.
    Committed,
}

/// A key's record as a store holds it, for [`Claim::of_record`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record<'a> {
    /// The fingerprint of the call that claimed the key.
    pub fingerprint: &'a str,
    /// Whether its answer is stored (the call finished).
    pub answered: bool,
    /// Whether a write committed with the record (`record_in`).
    pub committed: bool,
    /// Whether the record's lease has run out (a running call's; a
    /// finished record past its TTL is gone before this is asked).
    pub lease_over: bool,
}

impl Claim {
    /// What a live `record` of the key says to a call with `fingerprint`,
    /// the answer (`answer`, read when the record has one) aside: the one
    /// rule every store applies. [`Claim::Expired`] carries a new token,
    /// which the store keeps as the record's, with a new lease, before it
    /// answers.
    #[must_use]
    pub fn of_record(
        record: Record<'_>,
        answer: impl FnOnce() -> String,
        fingerprint: &str,
    ) -> Self {
        if record.fingerprint != fingerprint {
            Claim::Mismatch
        } else if record.answered {
            Claim::Done(answer())
        } else if !record.lease_over {
            Claim::Running
        } else if record.committed {
            Claim::Committed
        } else {
            Claim::Expired(Token::random())
        }
    }
}

/// How long a store keeps a finished call's answer by default: 24 hours
/// (Stripe's).
pub const DEFAULT_TTL: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// How long a store holds a running call's key by default: 10 minutes (a
/// call not finished by then is taken to have died with its task).
pub const DEFAULT_LEASE: std::time::Duration = std::time::Duration::from_secs(600);

/// A store's failure (its database's error, a full store), or a write
/// refused its commit because the call's claim has passed to another
/// ([`StoreError::is_superseded`]).
///
/// A tool that commits its write with its key's record returns it with
/// `?` before it commits, so its transaction rolls back; as an
/// [`ErrorEnvelope`] it is `TRANSIENT`, code `IDEMPOTENCY_STORE_FAILED`,
/// or, superseded, `CONFLICT`, code `IDEMPOTENCY_KEY_SUPERSEDED`; effect
/// `nothing` either way.
#[derive(Debug)]
pub struct StoreError {
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl StoreError {
    /// A store failure caused by `error`.
    #[must_use]
    pub fn new(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        StoreError {
            source: Some(error.into()),
        }
    }

    /// The refusal of a write whose call's claim has passed to another
    /// call (its lease ran out): the write must not commit.
    #[must_use]
    pub fn superseded() -> Self {
        StoreError { source: None }
    }

    /// Whether this is [`StoreError::superseded`]'s refusal.
    #[must_use]
    pub fn is_superseded(&self) -> bool {
        self.source.is_none()
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            Some(source) => write!(f, "the idempotency store failed: {source}"),
            None => f.write_str(
                "the call's idempotency key passed to a newer call after its lease ran out; its write must not commit",
            ),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|source| source as &(dyn std::error::Error + 'static))
    }
}

impl From<StoreError> for ErrorEnvelope {
    fn from(error: StoreError) -> Self {
        if error.is_superseded() {
            key_superseded()
        } else {
            store_failed()
        }
    }
}

/// `wait` in whole milliseconds, saturating: a store's column of times.
fn millis(wait: std::time::Duration) -> i64 {
    i64::try_from(wait.as_millis()).unwrap_or(i64::MAX)
}

/// Now, in Unix epoch milliseconds (0 before 1970): the clock of the
/// stores that outlive a process.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, millis)
}

/// The future a [`Store`] method returns.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Where keyed calls are remembered. Implementations decide how records
/// expire (a finished record after its TTL; a running one after a lease,
/// for a call whose server died) and must make [`Store::claim`] atomic:
/// two calls with one key never both get [`Claim::Run`].
pub trait Store: Send + Sync {
    /// Claims `key` in `scope` for a call with `fingerprint`.
    fn claim<'a>(
        &'a self,
        scope: &'a Scope,
        key: &'a Key,
        fingerprint: &'a str,
    ) -> StoreFuture<'a, Claim>;

    /// Records the answer of the call holding `claimed` (the MCP result,
    /// as JSON), for its repeats: `true`, or `false` when the key has
    /// passed to another claim (fenced: nothing is recorded).
    fn finish<'a>(&'a self, claimed: &'a Claimed, answer: &'a str) -> StoreFuture<'a, bool>;

    /// Frees the key of `claimed` (the call changed nothing: a repeat runs
    /// it again), unless it has passed to another claim or a write was
    /// committed with its record.
    fn release<'a>(&'a self, claimed: &'a Claimed) -> StoreFuture<'a, ()>;
}

/// A shared store: one store behind an MCP router and an axum router, or
/// chosen at run time (`Arc<dyn Store>`).
impl<S: Store + ?Sized> Store for std::sync::Arc<S> {
    fn claim<'a>(
        &'a self,
        scope: &'a Scope,
        key: &'a Key,
        fingerprint: &'a str,
    ) -> StoreFuture<'a, Claim> {
        (**self).claim(scope, key, fingerprint)
    }

    fn finish<'a>(&'a self, claimed: &'a Claimed, answer: &'a str) -> StoreFuture<'a, bool> {
        (**self).finish(claimed, answer)
    }

    fn release<'a>(&'a self, claimed: &'a Claimed) -> StoreFuture<'a, ()> {
        (**self).release(claimed)
    }
}

/// The answer to a key that is not 1 to [`MAX_KEY_CHARS`] visible ASCII
/// characters (or not a string).
pub(crate) fn key_invalid() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::InvalidArguments,
        format!("the idempotency key must be 1 to {MAX_KEY_CHARS} visible ASCII characters"),
    )
    .with_code("IDEMPOTENCY_KEY_INVALID")
    .with_next_step("send a new UUID as the key, the same one on every repeat of the call")
}

/// The answer to a call without a key to a tool that requires one.
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
pub(crate) fn key_required(tool: &str) -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::InvalidArguments,
        format!(
            "the tool {} requires an idempotency key",
            Value::from(tool)
        ),
    )
    .with_code("IDEMPOTENCY_KEY_REQUIRED")
    .with_next_step(format!(
        "send the call again with _meta.{META_KEY} set to a new UUID, and send that same key on every repeat of this call"
    ))
}

/// The answer to a call that carries a key to a tool that takes none: it
/// does not run, since the key would not stop a repeat from running it
/// again and a client that sends one believes it would.
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
pub(crate) fn key_not_taken(tool: &str) -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::InvalidArguments,
        format!(
            "the tool {} does not take idempotency keys, so a key would not keep a repeat from running it again",
            Value::from(tool)
        ),
    )
    .with_code("IDEMPOTENCY_KEY_NOT_TAKEN")
    .with_next_step(format!(
        "send the call again without _meta.{META_KEY}; it did not run"
    ))
}

/// The answer to an HTTP request without an `Idempotency-Key` header to a
/// route that requires one.
#[cfg_attr(not(feature = "axum"), allow(dead_code))]
pub(crate) fn key_required_header() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::InvalidArguments,
        "this request requires an Idempotency-Key header",
    )
    .with_code("IDEMPOTENCY_KEY_REQUIRED")
    .with_next_step("send the request again with an Idempotency-Key header holding a new UUID, and send that same key on every repeat of this request")
}

/// The answer to a call whose key a running call holds.
#[cfg_attr(not(any(feature = "rmcp", feature = "axum")), allow(dead_code))]
pub(crate) fn key_in_use() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::Conflict,
        "a call with this idempotency key is still running",
    )
    .with_code("IDEMPOTENCY_KEY_IN_USE")
    .with_retryable(true)
    .with_retry_after_ms(IN_FLIGHT_RETRY_MS)
    .with_next_step("wait retry_after_ms milliseconds, then repeat the same call with the same key")
}

/// The answer to a key used again with other arguments.
#[cfg_attr(not(any(feature = "rmcp", feature = "axum")), allow(dead_code))]
pub(crate) fn key_reused() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::InvalidArguments,
        "this idempotency key was used with other arguments",
    )
    .with_code("IDEMPOTENCY_KEY_REUSED")
    .with_next_step("use a new key for a new call; repeat a call only with its own arguments")
}

/// The answer to a repeat whose first call ran but whose stored answer
/// cannot be read back (a store edited by hand, a format of another
/// version): the call is not run again, and what it did is unknown.
#[cfg_attr(not(any(feature = "rmcp", feature = "axum")), allow(dead_code))]
pub(crate) fn answer_unreadable() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::Internal,
        "the call with this idempotency key ran, but its stored answer cannot be read",
    )
    .with_code("IDEMPOTENCY_ANSWER_UNREADABLE")
}

/// The stored answer of a first call whose answer could not be kept (an
/// HTTP response streamed, or larger than a store keeps): it ran, and its
/// repeats are not run again.
#[cfg_attr(not(feature = "axum"), allow(dead_code))]
pub(crate) fn answer_not_kept() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::Conflict,
        "the request with this idempotency key ran once; its answer was too large or streamed to keep",
    )
    .with_code("IDEMPOTENCY_ANSWER_NOT_KEPT")
    .with_next_step("read the result of the first request instead of repeating it")
}

/// The stored answer of a first call whose handler panicked: what it did
/// is unknown, and it is not run again.
#[cfg_attr(not(feature = "axum"), allow(dead_code))]
pub(crate) fn handler_panicked() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::Internal,
        "the server failed while it handled the request with this idempotency key",
    )
    .with_code("IDEMPOTENCY_HANDLER_FAILED")
}

/// The answer to a write whose call's key passed to a newer call after
/// its lease ran out: its transaction rolls back.
fn key_superseded() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::Conflict,
        "this call ran past its idempotency key's lease and a newer call with the key took it over; its write was not committed",
    )
    .with_code("IDEMPOTENCY_KEY_SUPERSEDED")
    .with_effect(crate::model::effect::Effect::Nothing)
    .with_next_step("do not send this call again: the newer call with the same key answers for it")
}

/// The answer to a repeat whose first call ran out of its lease with no
/// answer and no write committed with its key (its server died mid-call):
/// it may have taken effect, and it is not run again. `check` is the tool
/// that tells whether it did, when the server named one.
#[cfg_attr(not(any(feature = "rmcp", feature = "axum")), allow(dead_code))]
pub(crate) fn outcome_unknown(check: Option<&str>) -> ErrorEnvelope {
    let envelope = ErrorEnvelope::new(
        ErrorClass::Internal,
        "the server stopped while it ran the call with this idempotency key; whether it took effect is unknown",
    )
    .with_code("IDEMPOTENCY_OUTCOME_UNKNOWN")
    .with_effect(crate::model::effect::Effect::Unknown);
    // The write's own step ("check its result before repeating it") comes
    // from the call's context; this names the tool that checks.
    match check {
        Some(tool) => envelope.with_suggested_tool(tool).with_next_step(format!(
            "call {} to see whether it took effect",
            Value::from(tool)
        )),
        None => envelope,
    }
}

/// The answer to a repeat whose first call committed its write with its
/// key's record, and whose answer was lost when its server stopped: it
/// ran once. `check` as for [`outcome_unknown`].
#[cfg_attr(not(any(feature = "rmcp", feature = "axum")), allow(dead_code))]
pub(crate) fn answer_lost(check: Option<&str>) -> ErrorEnvelope {
    let envelope = ErrorEnvelope::new(
        ErrorClass::Conflict,
        "the call with this idempotency key ran once and its write committed; its answer was lost when the server stopped",
    )
    .with_code("IDEMPOTENCY_ANSWER_LOST");
    match check {
        Some(tool) => envelope.with_suggested_tool(tool).with_next_step(format!(
            "do not send this call again; call {} to read what it wrote",
            Value::from(tool)
        )),
        None => envelope.with_next_step("do not send this call again: it took effect once"),
    }
}

/// The answer when the store fails before the call runs (or before a
/// write committed with the key's record commits).
pub(crate) fn store_failed() -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::Transient,
        "the server could not record the idempotency key; the call did not run",
    )
    .with_code("IDEMPOTENCY_STORE_FAILED")
    .with_effect(crate::model::effect::Effect::Nothing)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_defaults_are_a_day_and_ten_minutes() {
        // What the constants' documentation promises, to the second.
        assert_eq!(DEFAULT_TTL.as_secs(), 86_400);
        assert_eq!(DEFAULT_LEASE.as_secs(), 600);
    }

    #[test]
    fn a_store_error_says_what_failed_and_becomes_its_envelope() {
        let failed = StoreError::new(std::io::Error::other("disk full"));
        assert_eq!(
            failed.to_string(),
            "the idempotency store failed: disk full"
        );
        assert_eq!(
            std::error::Error::source(&failed).map(ToString::to_string),
            Some("disk full".to_owned())
        );
        assert!(!failed.is_superseded());
        let envelope = ErrorEnvelope::from(failed);
        assert_eq!(envelope.error_class, ErrorClass::Transient);
        assert_eq!(envelope.code.as_deref(), Some("IDEMPOTENCY_STORE_FAILED"));

        let superseded = StoreError::superseded();
        assert_eq!(
            superseded.to_string(),
            "the call's idempotency key passed to a newer call after its lease ran out; its write must not commit"
        );
        assert!(std::error::Error::source(&superseded).is_none());
        assert!(superseded.is_superseded());
        let envelope = ErrorEnvelope::from(superseded);
        assert_eq!(envelope.error_class, ErrorClass::Conflict);
        assert_eq!(envelope.code.as_deref(), Some("IDEMPOTENCY_KEY_SUPERSEDED"));
    }

    #[test]
    fn fingerprints_ignore_key_order_only() {
        assert_eq!(
            fingerprint(&json!({"b": [1, {"d": 2, "c": 3}], "a": "x"})),
            r#"{"a":"x","b":[1,{"c":3,"d":2}]}"#
        );
        assert_ne!(fingerprint(&json!({"a": 1})), fingerprint(&json!({"a": 2})));
        assert_ne!(
            fingerprint(&json!({"a": "1"})),
            fingerprint(&json!({"a": 1}))
        );
    }

    #[test]
    fn keys() {
        assert_eq!(
            Key::parse("8e03978e-40d5-43e8-bc93-6894a57f9324")
                .unwrap()
                .as_str(),
            "8e03978e-40d5-43e8-bc93-6894a57f9324"
        );
        let longest = "x".repeat(MAX_KEY_CHARS);
        assert_eq!(Key::parse(&longest).unwrap().to_string(), longest);
        for rule in [KeyRule::Required, KeyRule::Optional] {
            assert_eq!(KeyRule::from_wire(rule.as_str()), Some(rule));
        }
        assert_eq!(KeyRule::Required.as_str(), "required");
        assert_eq!(KeyRule::Optional.as_str(), "optional");
        for bad in ["", " ", "a b", "é", &"x".repeat(MAX_KEY_CHARS + 1)] {
            let refused = Key::parse(bad).unwrap_err();
            assert_eq!(
                refused.code.as_deref(),
                Some("IDEMPOTENCY_KEY_INVALID"),
                "{bad:?}"
            );
        }
        assert_eq!(
            Scope::new(Some("ann".into()), "add_note").to_key_string(),
            r#""ann" add_note"#
        );
        assert_eq!(
            Scope::new(None, "add_note").to_key_string(),
            "null add_note"
        );
    }
}
