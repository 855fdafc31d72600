//! [`ErrorEnvelope`], the agent-facing error payload, and its wire form.

use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::model::argument_error::ArgumentError;
use crate::model::category::UserErrorCategory;
use crate::model::class::{ErrorClass, Owner};
use crate::model::effect::Effect;
use crate::model::retry::RetryInputs;

mod read;

/// The actionable error payload a tool returns to an LLM agent.
///
/// Wire form (JSON object), in this field order, with every empty optional
/// field left out:
///
/// | key | type | when present |
/// |---|---|---|
/// | `isError` | boolean | always (the MCP tool-result flag; `true` for every envelope this crate makes) |
/// | `error_class` | [`ErrorClass`] wire name | always |
/// | `message` | string | always |
/// | `ora_code` | integer | the backend gave a numeric code |
/// | `suggested_tool` | string | a tool to call next is known |
/// | `fuzzy_matches` | array of strings | non-empty |
/// | `next_steps` | array of strings | non-empty |
/// | `retry_after_ms` | integer, milliseconds | a retry hint is known |
/// | `code` | string, `UPPER_SNAKE_CASE` | a domain reason is known |
/// | `category` | [`UserErrorCategory`] wire name | set |
/// | `retryable` | `true` | only when true: repeating the same call later may succeed and is safe (see [`Effect::allows_repeat`]) |
/// | `effect` | [`Effect`] wire name | something may have changed |
/// | `correlation_id` | string, at most 256 bytes | set |
/// | `help_url` | string | set |
/// | `details` | object | non-empty |
/// | `argument_errors` | array of [`ArgumentError`] objects | non-empty: the problems in a tool's arguments (see [`crate::args`]) |
///
/// The first eight keys are those of `oraclemcp-error`'s `ErrorEnvelope`,
/// so we read its envelopes, and its readers read ours whenever
/// the class is one it knows (its class enum has no catch-all, so
/// `PRECONDITION_FAILED` or `CONFLICT`, say, fail there).
///
/// # Reading
///
/// Writing is strict (the table above); reading is lenient, so envelopes
/// written by other implementations read too: Go writes a nil slice or
/// pointer as `null`, pydantic writes `null` for every unset field, Python
/// writes `seconds * 1000` as a float. Exactly this is accepted:
///
/// - Unknown keys are ignored. A key given twice is an error.
/// - `error_class` and `message` are required strings (`null` is an
///   error). A class this version does not know reads as
///   [`ErrorClass::Unknown`].
/// - `isError`: a boolean; missing or `null` reads as `true`, `false` is
///   kept.
/// - `ora_code`: a whole number from `-2147483648` to `2147483647`, as an
///   integer or as a float without a fraction (`942.0`); `retry_after_ms`:
///   likewise from `0` to `18446744073709551615` (`1500.0`). Missing or
///   `null` reads as `None`. A fraction (`1500.5`), a number out of range
///   (`-3` for `retry_after_ms`, `1e30`) or another type is an error whose
///   message names the key.
/// - `suggested_tool`, `code`, `help_url`: a string; missing or `null`
///   reads as `None`.
/// - `category`: a [`UserErrorCategory`] wire name; missing or `null` reads
///   as `None`, a name this version does not know as
///   [`UserErrorCategory::Unknown`].
/// - `fuzzy_matches`, `next_steps`: an array of strings; `details`: an
///   object; `argument_errors`: an array of [`ArgumentError`] objects (read
///   leniently, see there). Missing or `null` reads as empty.
/// - `retryable`: a boolean; missing reads as `false` (the writer leaves it
///   out exactly when it is false), `null` as the class's default
///   ([`ErrorClass::is_retryable`]).
///
/// Every envelope this crate writes reads back equal, and anything read
/// writes back in the strict form above. (A float inside `details` goes
/// through `serde_json`'s number parsing, which without its
/// `float_roundtrip` feature may land one ulp away.)
///
/// # Fields, and why they are read-only
///
/// The fields are those of [`EnvelopeFields`], readable through `Deref`
/// (`envelope.message`, `envelope.retryable`) and written only through the
/// `with_*` builders. `retryable` is derived: every builder that changes
/// an input of the retry rule (the effect, idempotence, whether a later
/// attempt may succeed) applies the rule again, so no sequence of calls
/// puts `retryable: true` on the wire for a call that is not safe to
/// repeat. [`ErrorEnvelope::into_fields`] gives the fields by value, for a
/// reader that takes the envelope apart.
///
/// The envelope is one pointer wide (the fields live in a `Box`), so
/// `Result<T, ErrorEnvelope>` and an enum with an `ErrorEnvelope` variant
/// stay under clippy's `result_large_err` and `large_enum_variant`
/// thresholds.
///
/// Two envelopes are equal when their wire forms are: the retry rule's
/// inputs that the wire does not carry (whether the operation was declared
/// idempotent) are not compared.
///
/// With the `schemars` feature: implements `schemars::JsonSchema` (schemars
/// 1.x), for a tool's `outputSchema`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorEnvelope(pub(crate) Box<EnvelopeFields>);

/// The fields of an [`ErrorEnvelope`], read through its `Deref`
/// (`envelope.message`); see the wire table on [`ErrorEnvelope`].
///
/// Cannot be built or written outside this crate, so every envelope went
/// through [`ErrorEnvelope::new`] and the builders that keep the retry
/// rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(rename = "ErrorEnvelope"))]
// `Deserialize` is implemented in `envelope/read.rs`. The `default`s below
// only feed the derived `JsonSchema` (what may be left out); reading
// follows the rules on `ErrorEnvelope`.
pub struct EnvelopeFields {
    /// Marks the payload as an error. Wire name `isError`, as in the MCP
    /// tool-result shape. `true` for every envelope this crate makes; a
    /// value read from a peer is kept as it was, and every renderer writes
    /// it unchanged. Missing or `null` reads as `true`.
    #[serde(rename = "isError", default = "always_true")]
    #[cfg_attr(feature = "schemars", schemars(extend("const" = true)))]
    pub is_error: bool,
    /// The machine-stable class the model can branch on.
    pub error_class: ErrorClass,
    /// A readable explanation for the model. Must not hold secrets, bind
    /// values or internals; the derive keeps `secret` fields out of it.
    pub message: String,
    /// The originating backend's numeric error code: `942` for Oracle's
    /// `ORA-00942`, a MySQL errno, an upstream HTTP status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ora_code: Option<i32>,
    /// The single best tool to call next, by its tool name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggested_tool: Option<String>,
    /// Near-miss names the caller may have meant (see [`crate::model::fuzzy`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fuzzy_matches: Vec<String>,
    /// Ordered, concrete steps the model can follow to recover.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next_steps: Vec<String>,
    /// How long to wait before retrying, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// A stable domain reason in `UPPER_SNAKE_CASE` (`"LEASE_REQUIRED"`),
    /// finer than the class. The derive defaults it to the variant name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<Cow<'static, str>>,
    /// The conversation-flow category; [`ErrorEnvelope::new`] sets the
    /// class's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<UserErrorCategory>,
    /// Whether repeating the same call later may succeed. On the wire only
    /// when true; [`ErrorEnvelope::new`] sets it from the class.
    ///
    /// Reading: a missing key is `false`, because that is how `false` is
    /// written, so every envelope round-trips (a `BUSY` envelope whose
    /// `retryable` was set to false reads back false). `null` says nothing
    /// and reads as the class's default, [`ErrorClass::is_retryable`], as
    /// [`ErrorEnvelope::new`] would set it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub retryable: bool,
    /// Whether the failed call changed anything; see [`Effect`]. On the
    /// wire only when something may have changed (`"unknown"`,
    /// `"partial"`); [`ErrorEnvelope::new`] sets the class's default.
    /// Missing or `null` reads as [`Effect::Nothing`].
    #[serde(default, skip_serializing_if = "Effect::is_nothing")]
    pub effect: Effect,
    /// An id that also appears in the server's log line for this failure
    /// (a request id, a UUID), so an operator can find it from what the
    /// model saw. Set it with [`ErrorEnvelope::with_correlation_id`], which
    /// drops an empty id and cuts a long one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correlation_id: Option<String>,
    /// A page that explains the error to a human.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help_url: Option<String>,
    /// Structured, non-secret facts for the model (`{"name": "EMPLOYES"}`).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub details: Map<String, Value>,
    /// The problems in a tool call's arguments, for an `INVALID_ARGUMENTS`
    /// envelope: each with its JSON Pointer path, kind, what was expected,
    /// the JSON type received and near-miss names. Filled by
    /// [`crate::args`]; empty for every other envelope.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub argument_errors: Vec<ArgumentError>,
    /// What the envelope knows that the wire does not carry: the retry
    /// rule's inputs, and whether a call context has answered it.
    #[serde(skip)]
    #[cfg_attr(feature = "schemars", schemars(skip))]
    pub(crate) rule: Unwired,
}

/// The envelope's state off the wire: the retry rule's inputs (see
/// [`RetryInputs`]), whether a `CallContext` has answered the envelope
/// (applied the call and logged it), so a transport that applies a context
/// again does not log it twice, and the text of the error it was made
/// from, for that log line. Not part of the wire form, and so not of
/// equality: every `Unwired` equals every other.
#[derive(Debug, Clone, Default)]
pub(crate) struct Unwired {
    pub(crate) retry: RetryInputs,
    pub(crate) answered: bool,
    /// The error's `Display` and `source()` chain, kept by a derived
    /// `From` conversion (feature `tracing`): a tool that returns
    /// `ErrorEnvelope` through `?` logs what one returning the derived
    /// type logs.
    pub(crate) log_text: Option<Box<(String, Vec<String>)>>,
    /// The retry hint is a library mapping's stand-in for the server's
    /// wait (a `BUSY` row's [`DEFAULT_BUSY_RETRY_AFTER`](crate::DEFAULT_BUSY_RETRY_AFTER)),
    /// which a call context's own wait replaces
    /// (`CallContext::with_busy_retry_after`); cleared by any hint set
    /// after it.
    pub(crate) stand_in_wait: bool,
}

impl PartialEq for Unwired {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Unwired {}

impl std::ops::Deref for ErrorEnvelope {
    type Target = EnvelopeFields;

    #[inline]
    fn deref(&self) -> &EnvelopeFields {
        &self.0
    }
}

impl Serialize for ErrorEnvelope {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for ErrorEnvelope {
    fn schema_name() -> Cow<'static, str> {
        EnvelopeFields::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        EnvelopeFields::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        EnvelopeFields::json_schema(generator)
    }
}

pub(crate) fn always_true() -> bool {
    true
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_false(value: &bool) -> bool {
    !*value
}

impl ErrorEnvelope {
    /// An envelope of `error_class` with `message`; `category`, `effect`
    /// and `retryable` come from the class, everything else is empty.
    ///
    /// `retryable` follows the retry rule ([`Effect::allows_repeat`]): a
    /// class whose failures may strike mid-call (`Timeout`, `Internal`,
    /// ...; see [`ErrorClass::default_effect`]) is not retryable unless the
    /// operation is marked [idempotent](ErrorEnvelope::idempotent), and its
    /// first next step tells the model to check before repeating.
    ///
    /// Unlike `oraclemcp-error`'s constructor, no suggested tool is filled in: tools
    /// are per server, so the derive's `suggested_tools(...)` supplies them.
    #[inline]
    #[must_use]
    pub fn new(error_class: ErrorClass, message: impl Into<String>) -> Self {
        // The fresh envelope holds the class's rule inputs already.
        let mut envelope = Self::unsettled(error_class, message.into());
        envelope.apply_retry_rule();
        envelope
    }

    /// An envelope of `error_class` with `message`, the class's category,
    /// effect and retry inputs, and `retryable` by the rule, but no check
    /// step yet: [`ErrorEnvelope::new`] and the derive settle it.
    pub(crate) fn unsettled(error_class: ErrorClass, message: String) -> Self {
        let retry = RetryInputs::of_class(error_class);
        let effect = error_class.default_effect();
        ErrorEnvelope(Box::new(EnvelopeFields {
            is_error: true,
            error_class,
            message,
            ora_code: None,
            suggested_tool: None,
            fuzzy_matches: Vec::new(),
            next_steps: Vec::new(),
            retry_after_ms: None,
            code: None,
            category: Some(error_class.default_category()),
            retryable: retry.retryable(effect),
            effect,
            correlation_id: None,
            help_url: None,
            details: Map::new(),
            argument_errors: Vec::new(),
            rule: Unwired {
                retry,
                answered: false,
                log_text: None,
                stand_in_wait: false,
            },
        }))
    }

    /// The fields by value, for a reader that takes the envelope apart
    /// (moves the message out, say). There is no way back: an envelope is
    /// built with [`ErrorEnvelope::new`] and the builders.
    #[must_use]
    pub fn into_fields(self) -> EnvelopeFields {
        *self.0
    }

    /// The fields, for this crate's builders and readers: every write that
    /// touches an input of the retry rule is followed by
    /// [`ErrorEnvelope::apply_retry_rule`].
    pub(crate) fn fields_mut(&mut self) -> &mut EnvelopeFields {
        &mut self.0
    }

    /// Sets the retry rule's inputs and applies the rule
    /// ([`ErrorEnvelope::apply_retry_rule`]).
    pub(crate) fn settle(&mut self, retry: RetryInputs) {
        self.0.rule.retry = retry;
        self.apply_retry_rule();
    }

    /// Applies the retry rule ([`RetryInputs::retryable`]) to the stored
    /// inputs and the effect; when a repeat is not safe, the effect's check
    /// step ([`Effect::check_step`]) comes first among the next steps.
    /// Applying it again replaces the earlier check step.
    pub(crate) fn apply_retry_rule(&mut self) {
        let fields = &mut *self.0;
        fields.retryable = fields.rule.retry.retryable(fields.effect);
        fields
            .next_steps
            .retain(|step| !Effect::is_check_step(step));
        let safe = fields.rule.retry.allows_repeat(fields.effect);
        if let Some(step) = fields.effect.check_step().filter(|_| !safe) {
            fields.next_steps.insert(0, String::from(step));
        }
    }

    /// Applies what a call declares about itself (see `CallBehaviour`): a
    /// read-only call changed nothing, whatever the error said; an
    /// idempotent one may be repeated whatever the effect. What the error
    /// said otherwise (its `retryable`, its effect on a call that is not
    /// read-only) stays, and the retry rule is applied again.
    pub(crate) fn apply_call(&mut self, read_only: bool, idempotent: bool) {
        let fields = self.fields_mut();
        if read_only {
            fields.effect = Effect::Nothing;
        }
        fields.rule.retry = fields.rule.retry.idempotent_if(idempotent);
        self.apply_retry_rule();
    }

    /// Sets what the failed call changed, and applies the retry rule again:
    /// anything but [`Effect::Nothing`] makes the envelope not retryable
    /// and puts a check step first, unless the operation was declared
    /// [idempotent](ErrorEnvelope::idempotent).
    #[must_use]
    pub fn with_effect(mut self, effect: Effect) -> Self {
        self.0.effect = effect;
        self.apply_retry_rule();
        self
    }

    /// Declares the operation idempotent (repeating it has the same effect
    /// as doing it once), so a repeat is safe whatever the effect:
    /// `retryable` becomes whether a later attempt may succeed, and the
    /// check step goes away. The declaration stays through later
    /// [`with_effect`](ErrorEnvelope::with_effect) calls.
    #[must_use]
    pub fn idempotent(mut self) -> Self {
        self.0.rule.retry = self.0.rule.retry.idempotent_if(true);
        self.apply_retry_rule();
        self
    }

    /// Sets whether a later attempt may succeed, against the class's
    /// judgement (for a failure its class misjudges, such as a bad
    /// credential reported as `ConnectionFailed`), and applies the retry
    /// rule again: `retryable` on the wire is `may_succeed` only when a
    /// repeat is also safe (the effect is [`Effect::Nothing`], or the
    /// operation is idempotent). It cannot make an unsafe repeat
    /// retryable.
    #[must_use]
    pub fn with_retryable(mut self, may_succeed: bool) -> Self {
        self.0.rule.retry.may_succeed = may_succeed;
        self.apply_retry_rule();
        self
    }

    /// Sets the correlation id from any `Display` value (a string, a UUID,
    /// a request id). An id that is empty or only whitespace is left out;
    /// one longer than 256 bytes is cut at the last character boundary
    /// before that. Control characters are kept: JSON escapes them on the
    /// wire.
    #[must_use]
    pub fn with_correlation_id(mut self, id: impl fmt::Display) -> Self {
        self.0.correlation_id = correlation_id(id.to_string());
        self
    }

    /// Sets the backend's numeric error code (`942` for `ORA-00942`).
    #[must_use]
    pub fn with_ora_code(mut self, code: i32) -> Self {
        self.0.ora_code = Some(code);
        self
    }

    /// Sets the tool the model should call next, replacing any earlier one.
    #[must_use]
    pub fn with_suggested_tool(mut self, tool: impl Into<String>) -> Self {
        self.0.suggested_tool = Some(tool.into());
        self
    }

    /// Replaces the near-miss candidates.
    #[must_use]
    pub fn with_fuzzy_matches(mut self, matches: Vec<String>) -> Self {
        self.0.fuzzy_matches = matches;
        self
    }

    /// Appends one step to the ordered list of next steps.
    #[must_use]
    pub fn with_next_step(mut self, step: impl Into<String>) -> Self {
        self.0.next_steps.push(step.into());
        self
    }

    /// Sets the retry hint, in milliseconds.
    #[must_use]
    pub fn with_retry_after_ms(mut self, ms: u64) -> Self {
        self.0.retry_after_ms = Some(ms);
        self.0.rule.stand_in_wait = false;
        self
    }

    /// Sets the retry hint from a [`Duration`], in whole milliseconds
    /// (rounded down), saturating at `u64::MAX` instead of wrapping.
    #[must_use]
    pub fn with_retry_after(self, wait: Duration) -> Self {
        self.with_retry_after_ms(duration_ms(wait))
    }

    /// Sets the domain code (`"LEASE_REQUIRED"`). A `&'static str` is kept
    /// without allocating.
    #[must_use]
    pub fn with_code(mut self, code: impl Into<Cow<'static, str>>) -> Self {
        self.0.code = Some(code.into());
        self
    }

    /// Sets the conversation-flow category, replacing the class's default.
    #[must_use]
    pub fn with_category(mut self, category: UserErrorCategory) -> Self {
        self.0.category = Some(category);
        self
    }

    /// Adds one entry to `details`, replacing an earlier one of the same key.
    #[must_use]
    pub fn with_detail(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.0.details.insert(key.into(), value.into());
        self
    }

    /// Replaces the argument problems (see [`crate::args::invalid_arguments`],
    /// which also writes the matching message and next step).
    #[must_use]
    pub fn with_argument_errors(mut self, errors: Vec<ArgumentError>) -> Self {
        self.0.argument_errors = errors;
        self
    }

    /// The envelope of an error about the server's own resources (its
    /// database, its configuration, its files, its credentials upstream)
    /// rather than about anything the caller sent: what
    /// `#[envelope(transparent, resource = server)]` applies to the wrapped
    /// error's envelope, for code that builds envelopes by hand (a `with`
    /// function, a `map_err`).
    ///
    /// A server-owned class (`Busy`, `Timeout`, `Internal`, ...) is kept
    /// as it is. A caller- or user-owned class would tell the model to fix
    /// a call it cannot fix (an `io::Error` `NotFound` on the server's
    /// database reads `OBJECT_NOT_FOUND`), so the envelope becomes
    /// server-owned:
    ///
    /// - class `INTERNAL`, except `RATE_LIMITED`, which becomes `BUSY` (an
    ///   upstream's limit on the server's own key: the same call may
    ///   succeed later) and keeps its `retry_after_ms`;
    /// - the new class's generic message ([`ErrorClass::generic_message`])
    ///   and category;
    /// - the `code`, `ora_code` and `correlation_id` kept, so the operator
    ///   still sees the kind (`IO_NOT_FOUND`);
    /// - nothing else of the caller-facing fields: no details, near misses,
    ///   suggested tool, next steps, help URL or argument errors;
    /// - the effect of the new class ([`ErrorClass::default_effect`]), or
    ///   `partial` when the envelope said so; `retryable` and the check
    ///   step by the retry rule, the operation still idempotent if it was
    ///   declared so.
    ///
    /// ```
    /// # extern crate envelope_core as envelope;
    /// use envelope::{Envelope, ErrorEnvelope};
    ///
    /// let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
    /// assert_eq!(
    ///     missing.to_envelope().for_server_resource().to_json_string(),
    ///     concat!(
    ///         r#"{"isError":true,"error_class":"INTERNAL","#,
    ///         r#""message":"an internal error occurred; changing the call will not help","#,
    ///         r#""next_steps":["the call may have taken effect: check its result before repeating it"],"#,
    ///         r#""code":"IO_NOT_FOUND","category":"Technical","effect":"unknown"}"#,
    ///     ),
    /// );
    /// ```
    #[must_use]
    pub fn for_server_resource(self) -> Self {
        let class = server_resource_class(self.error_class);
        if class == self.error_class {
            return self;
        }
        let old = self.into_fields();
        let mut envelope = ErrorEnvelope::unsettled(class, String::from(class.generic_message()));
        let fields = envelope.fields_mut();
        fields.is_error = old.is_error;
        fields.code = old.code;
        fields.ora_code = old.ora_code;
        fields.correlation_id = old.correlation_id;
        if class.is_retryable() {
            fields.retry_after_ms = old.retry_after_ms;
        }
        if old.effect == Effect::Partial {
            fields.effect = Effect::Partial;
        }
        let retry = old.rule.retry;
        fields.rule = old.rule;
        // Every input carries over but the judgement, which is the new
        // class's.
        envelope.settle(RetryInputs {
            may_succeed: class.is_retryable(),
            ..retry
        });
        envelope
    }

    /// Sets the URL of a page that explains the error.
    #[must_use]
    pub fn with_help_url(mut self, url: impl Into<String>) -> Self {
        self.0.help_url = Some(url.into());
        self
    }

    /// The category on the wire, or the class's default when none is set
    /// (public as [`Envelope::user_category`](crate::Envelope::user_category)).
    #[must_use]
    pub(crate) fn category_or_default(&self) -> UserErrorCategory {
        self.category
            .unwrap_or_else(|| self.error_class.default_category())
    }

    /// The envelope as a JSON object, for embedding in a larger document.
    ///
    /// Never panics: an envelope holds only strings, numbers and JSON values,
    /// which always serialize; should serde ever fail anyway, the result is a
    /// fixed `INTERNAL` envelope saying so rather than a panic.
    #[must_use]
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_else(|_| {
            serde_json::json!({
                "isError": true,
                "error_class": "INTERNAL",
                "message": "error envelope failed to serialize",
            })
        })
    }

    /// The envelope as compact JSON text, written by serde straight from
    /// the struct (no intermediate [`Value`]): the wire form in the table
    /// above. Reached as [`Envelope::to_json_string`](crate::Envelope::to_json_string).
    ///
    /// Never panics: should serde ever fail, the result is the fixed
    /// `INTERNAL` envelope of [`ErrorEnvelope::to_json`].
    pub(crate) fn json_string(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| {
            String::from(
                r#"{"isError":true,"error_class":"INTERNAL","message":"error envelope failed to serialize"}"#,
            )
        })
    }
}

impl std::error::Error for ErrorEnvelope {}

/// The class of [`ErrorEnvelope::for_server_resource`]: a server-owned
/// class as it is, `RateLimited` as `Busy`, any other class `Internal`.
/// The derive's accessors use it too, so they agree with the envelope.
pub(crate) const fn server_resource_class(class: ErrorClass) -> ErrorClass {
    match (class.owner(), class) {
        (Owner::Server, _) => class,
        (_, ErrorClass::RateLimited) => ErrorClass::Busy,
        _ => ErrorClass::Internal,
    }
}

/// A [`Duration`] in whole milliseconds, saturating at `u64::MAX`.
pub(crate) fn duration_ms(wait: Duration) -> u64 {
    u64::try_from(wait.as_millis()).unwrap_or(u64::MAX)
}

/// An id unique within this process (see `CallContext::generated_id`).
pub(crate) fn generated_id() -> String {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static PROCESS: OnceLock<String> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let process = PROCESS.get_or_init(|| {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        format!("{:08x}", hasher.finish() & 0xffff_ffff)
    });
    format!("{process}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The longest correlation id kept, in bytes.
const MAX_ID_BYTES: usize = 256;

/// A correlation id as the envelope keeps it: `None` when empty or only
/// whitespace, else cut to at most 256 bytes at a character boundary.
pub(crate) fn correlation_id(mut id: String) -> Option<String> {
    if id.trim().is_empty() {
        return None;
    }
    // The last character boundary at or before 256 bytes (0 always is one).
    let end = (0..=MAX_ID_BYTES.min(id.len()))
        .rev()
        .find(|&end| id.is_char_boundary(end))
        .unwrap_or(0);
    id.truncate(end);
    Some(id)
}

/// The setters of the fields a derived arm fills, one per field and named
/// after it: support for generated code (`__private::set`), not public
/// API, kept beside the fields they write. Not generic: each is compiled
/// once, here, so an arm in the user's crate is a short list of calls (a
/// struct literal there would cost the user's compile time a store and a
/// drop per field).
pub mod set {
    use serde_json::{Map, Value};

    use super::ErrorEnvelope;
    use crate::model::effect::Effect;

    macro_rules! setters {
        ($($field:ident: $ty:ty,)*) => {
            $(
                #[doc = concat!("Sets the envelope's `", stringify!($field), "`.")]
                pub fn $field(envelope: &mut ErrorEnvelope, value: $ty) {
                    envelope.fields_mut().$field = value;
                }
            )*
        };
    }

    setters! {
        next_steps: Vec<String>,
        details: Map<String, Value>,
        ora_code: Option<i32>,
        retry_after_ms: Option<u64>,
        help_url: Option<String>,
        suggested_tool: Option<String>,
        fuzzy_matches: Vec<String>,
        correlation_id: Option<String>,
        effect: Effect,
        message: String,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_sets_category_and_retryable_from_class() {
        let busy = ErrorEnvelope::new(ErrorClass::Busy, "busy");
        assert_eq!(busy.category, Some(UserErrorCategory::Technical));
        assert!(busy.retryable);
        let missing = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "gone");
        assert_eq!(missing.category, Some(UserErrorCategory::NotFound));
        assert!(!missing.retryable);
    }

    /// Every trait the seed types implement, on ours: the seed's
    /// `ErrorEnvelope` (`Clone`, `Debug`, `PartialEq`, `Eq`, serde), its
    /// class enum (also `Copy`, `Hash`), multi-llm's `ToolResult` (`Clone`,
    /// `Debug`, `PartialEq`, serde) and `UserErrorCategory` (also `Copy`,
    /// `Eq`), plus the auto traits an error type needs.
    #[test]
    fn seed_parity_of_traits() {
        fn seed_struct<T>()
        where
            T: Clone + fmt::Debug + PartialEq + Eq + Serialize + serde::de::DeserializeOwned,
            T: Send + Sync + Unpin + std::panic::UnwindSafe + std::panic::RefUnwindSafe + 'static,
        {
        }
        fn seed_enum<T>()
        where
            T: Copy + fmt::Debug + Eq + std::hash::Hash + Serialize + serde::de::DeserializeOwned,
            T: Send + Sync + Unpin + std::panic::UnwindSafe + std::panic::RefUnwindSafe + 'static,
        {
        }
        seed_struct::<ErrorEnvelope>();
        seed_struct::<crate::ToolResult>();
        seed_enum::<ErrorClass>();
        seed_enum::<UserErrorCategory>();
    }

    /// `ErrorEnvelope: Eq` where a user needs it: inside a type that
    /// derives `Eq`, and through a generic bound.
    #[test]
    fn envelope_is_eq() {
        #[derive(Debug, Clone, PartialEq, Eq)]
        struct Outcome {
            call_id: String,
            error: Option<ErrorEnvelope>,
        }

        fn distinct<T: Eq>(items: &[T]) -> usize {
            let mut seen: Vec<&T> = Vec::new();
            for item in items {
                if !seen.contains(&item) {
                    seen.push(item);
                }
            }
            seen.len()
        }

        let busy = ErrorEnvelope::new(ErrorClass::Busy, "busy").with_detail("attempt", 3);
        let outcome = Outcome {
            call_id: "call_1".into(),
            error: Some(busy.clone()),
        };
        assert_eq!(outcome.clone(), outcome);
        assert_ne!(
            outcome,
            Outcome {
                error: Some(busy.clone().with_detail("attempt", 4)),
                ..outcome.clone()
            }
        );
        let other = ErrorEnvelope::new(ErrorClass::Internal, "boom");
        assert_eq!(distinct(&[busy.clone(), other.clone(), busy.clone()]), 2);
        assert_eq!(distinct(&[outcome.clone(), outcome]), 1);
    }

    /// No sequence of builders puts `retryable: true` on the wire for a
    /// repeat that is not safe, and each input of the rule sticks.
    #[test]
    fn the_builders_keep_the_retry_rule() {
        // An author's "may succeed" cannot make an unknown effect safe.
        let timeout = ErrorEnvelope::new(ErrorClass::Timeout, "t").with_retryable(true);
        assert!(!timeout.retryable);
        assert_eq!(timeout.next_steps.len(), 1);
        // Idempotence survives a later effect; the check step goes.
        let put = ErrorEnvelope::new(ErrorClass::Timeout, "t")
            .idempotent()
            .with_effect(Effect::Partial);
        assert!(put.retryable);
        assert!(put.next_steps.is_empty());
        // "Will not succeed" survives a later effect too.
        let refused = ErrorEnvelope::new(ErrorClass::Busy, "b")
            .with_retryable(false)
            .with_effect(Effect::Nothing);
        assert!(!refused.retryable);
        // A possible effect takes `retryable` away and brings the step.
        let busy = ErrorEnvelope::new(ErrorClass::Busy, "b").with_effect(Effect::Unknown);
        assert!(!busy.retryable);
        assert_eq!(
            busy.next_steps,
            ["the call may have taken effect: check its result before repeating it"]
        );
        assert!(busy.with_effect(Effect::Nothing).next_steps.is_empty());
    }

    #[test]
    fn retry_after_saturates() {
        let env = ErrorEnvelope::new(ErrorClass::Busy, "b").with_retry_after(Duration::MAX);
        assert_eq!(env.retry_after_ms, Some(u64::MAX));
        let env = ErrorEnvelope::new(ErrorClass::Busy, "b")
            .with_retry_after(Duration::from_micros(2_999));
        assert_eq!(env.retry_after_ms, Some(2));
    }
}
