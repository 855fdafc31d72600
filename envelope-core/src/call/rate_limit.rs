//! Rate limits the server enforces: a [`RateLimiter`] in front of the
//! tools or routes, and its refusal, [`Limited`], on each wire.
//!
//! A limiter is asked before a call runs (before its idempotency key is
//! claimed, so a refused call holds nothing), with the call's operation
//! (the MCP tool's name, or an HTTP request's method and matched route)
//! and, when the server names one, its principal (who made the call). A
//! refused call never runs, so its failure changed nothing and is
//! repeated safely after the wait:
//!
//! | where | wired by | the refusal |
//! |---|---|---|
//! | MCP | `envelope::rmcp::Router::with_rate_limit` | a tool error result with the envelope of [`Limited::to_envelope`] (MCP 2026-07-28); opt-in (`RateLimited::Sep3304Error`), the draft SEP-3304's JSON-RPC error [`JSONRPC_RATE_LIMITED`] (`-32023`), message the envelope's, `data` `{"retryAfterMs": 1200, "limit": 60, "remaining": 0}` ([`Limited::jsonrpc_data`]) |
//! | HTTP | `envelope::axum::rate_limited` on the routes | `429 Too Many Requests`, `Retry-After` in whole seconds, `RateLimit-Policy: "default";q=60;w=60` and `RateLimit: "default";r=0;t=2` ([`Limited::policy_field`], [`Limited::limit_field`]), the problem details of [`Limited::to_envelope`] |
//!
//! The MCP default follows the current revision, which defines no
//! rate-limit code; the JSON-RPC form is the draft SEP-3304's ("Rate
//! limiting"), opt-in. The HTTP fields are the IETF draft it points to
//! (draft-ietf-httpapi-ratelimit-headers-09, structured fields: `q` the
//! quota, `w` the window in seconds, `r` the calls remaining, `t` seconds
//! until the next call is admitted). A limiter is opt-in. The host reads them back
//! (`host::read_jsonrpc_error`, `host::read_http_response`): a
//! `RATE_LIMITED` envelope whose `retry_after_ms` is the wait, with
//! `details.limit` and `details.remaining`.
//!
//! A limiter is any `Fn(&str, Option<&str>) -> Result<(), Limited>`, or,
//! with the `governor` feature, a `governor::RateLimiter` (see
//! `envelope::governor`).

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// The JSON-RPC error code of a call refused by a rate limit (MCP draft
/// SEP-3304).
pub const JSONRPC_RATE_LIMITED: i32 = -32023;

/// The policy name of the HTTP `RateLimit` fields: one policy per limiter.
const POLICY: &str = "default";

/// Admits or refuses a call before it runs.
///
/// `operation` is the MCP tool's name or the HTTP request's method and
/// matched route (`"POST /notes"`); `principal` is who made the call, when
/// the server names it (`RateLimit::with_principal` of the rmcp and axum
/// integrations). A limiter keeps its own state: one budget for the
/// server, one per operation, one per principal, as it likes.
///
/// ```
/// # extern crate envelope_core as envelope;
/// use envelope::rate_limit::{Limited, RateLimiter};
///
/// // No one may call `send_mail` at all this minute.
/// let closed = |operation: &str, _principal: Option<&str>| match operation {
///     "send_mail" => Err(Limited::new(60_000, 0).with_window_ms(60_000)),
///     _ => Ok(()),
/// };
/// assert!(closed.check("get_note", None).is_ok());
/// assert_eq!(closed.check("send_mail", None).unwrap_err().retry_after_ms, 60_000);
/// ```
pub trait RateLimiter: Send + Sync {
    /// `Ok` to run the call; `Err` with the limit it ran into to refuse it.
    ///
    /// # Errors
    ///
    /// The refusal: how long until a call is admitted, the limit and the
    /// calls left.
    fn check(&self, operation: &str, principal: Option<&str>) -> Result<(), Limited>;
}

impl<F> RateLimiter for F
where
    F: Fn(&str, Option<&str>) -> Result<(), Limited> + Send + Sync,
{
    fn check(&self, operation: &str, principal: Option<&str>) -> Result<(), Limited> {
        self(operation, principal)
    }
}

/// The [`RateLimiter`] a transport asks before each call, and who made
/// the call: `R` is the transport's request, from which
/// [`with_principal`](RateLimit::with_principal) names the caller (rmcp's
/// `RequestContext<RoleServer>` for `envelope::rmcp::Router::with_rate_limit`,
/// `http::request::Parts` for the axum middleware `envelope::axum::rate_limited`;
/// the type is inferred where it is used).
///
/// ```text
/// use envelope::rate_limit::RateLimit;
///
/// // MCP: 60 calls a minute per tool (feature `governor`).
/// tool_router: envelope::rmcp::Router::new(Self::tool_router()).with_rate_limit(
///     RateLimit::new(governor::RateLimiter::keyed(Quota::per_minute(sixty))),
/// ),
///
/// // HTTP: 60 requests a minute per method and route.
/// let limit = RateLimit::new(governor::RateLimiter::keyed(Quota::per_minute(sixty)));
/// let app = Router::new()
///     .route("/notes", post(add_note))
///     .route_layer(axum::middleware::from_fn_with_state(limit, envelope::axum::rate_limited))
///     .answer_failures();
/// ```
pub struct RateLimit<R> {
    limiter: Arc<dyn RateLimiter>,
    principal: Option<Arc<Principal<R>>>,
}

/// Who made a call, named from the transport's request `R`.
type Principal<R> = dyn Fn(&R) -> Option<String> + Send + Sync;

impl<R> Clone for RateLimit<R> {
    fn clone(&self) -> Self {
        RateLimit {
            limiter: Arc::clone(&self.limiter),
            principal: self.principal.clone(),
        }
    }
}

impl<R> fmt::Debug for RateLimit<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimit")
            .field("principal", &self.principal.is_some())
            .finish_non_exhaustive()
    }
}

impl<R> RateLimit<R> {
    /// Asks `limiter` about each call, by operation; no principal.
    #[must_use]
    pub fn new(limiter: impl RateLimiter + 'static) -> Self {
        RateLimit {
            limiter: Arc::new(limiter),
            principal: None,
        }
    }

    /// Names who made each call for the limiter, from the request (its
    /// headers, or the extensions the transport's authentication filled),
    /// so a limiter can keep a budget per client. A limiter keyed by
    /// principal that puts every call without one under the same key
    /// gives them one budget to share.
    #[must_use]
    pub fn with_principal(
        mut self,
        principal: impl Fn(&R) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.principal = Some(Arc::new(principal));
        self
    }

    /// The limiter's answer for a call of `operation` made by `request`.
    #[cfg(any(feature = "rmcp", feature = "axum"))]
    pub(crate) fn check(&self, operation: &str, request: &R) -> Result<(), Limited> {
        let principal = self
            .principal
            .as_ref()
            .and_then(|principal| principal(request));
        self.limiter.check(operation, principal.as_deref())
    }
}

/// A call refused by a rate limit: how long until a call is admitted
/// again, and the limit it ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limited {
    /// Milliseconds until a call is admitted again (`retryAfterMs`).
    pub retry_after_ms: u64,
    /// The calls admitted per window (`limit`; the policy's `q`).
    pub limit: u64,
    /// The calls left in the window (`remaining`; `r`): 0 unless the
    /// limiter refused a call that asked for more than one unit.
    pub remaining: u64,
    /// The window the limit counts over, in milliseconds (`w`, in
    /// seconds, rounded up), when the limiter has one; `Some(0)` is read
    /// as none.
    pub window_ms: Option<u64>,
}

impl Limited {
    /// A refusal: admitted again after `retry_after_ms`, `limit` calls per
    /// window, none left.
    #[must_use]
    pub const fn new(retry_after_ms: u64, limit: u64) -> Self {
        Limited {
            retry_after_ms,
            limit,
            remaining: 0,
            window_ms: None,
        }
    }

    /// Sets the calls left in the window.
    #[must_use]
    pub const fn with_remaining(mut self, remaining: u64) -> Self {
        self.remaining = remaining;
        self
    }

    /// Sets the window the limit counts over, in milliseconds.
    #[must_use]
    pub const fn with_window_ms(mut self, window_ms: u64) -> Self {
        self.window_ms = Some(window_ms);
        self
    }

    /// The refusal as an envelope: `RATE_LIMITED`, code `RATE_LIMITED`,
    /// the message naming the limit (`the rate limit of 60 calls per 60 s
    /// was reached`), `retry_after_ms`, and `details` `limit`,
    /// `remaining` and, with a window, `window_ms`. The call never ran:
    /// effect nothing, retryable.
    #[must_use]
    pub fn to_envelope(&self) -> ErrorEnvelope {
        let per = match self.window() {
            Some(ms) if ms % 1000 == 0 => format!(" per {} s", ms / 1000),
            Some(ms) => format!(" per {ms} ms"),
            None => String::new(),
        };
        let calls = if self.limit == 1 { "call" } else { "calls" };
        let mut envelope = ErrorEnvelope::new(
            ErrorClass::RateLimited,
            format!("the rate limit of {} {calls}{per} was reached", self.limit),
        )
        .with_code("RATE_LIMITED")
        .with_retry_after_ms(self.retry_after_ms)
        .with_detail("limit", self.limit)
        .with_detail("remaining", self.remaining);
        if let Some(window) = self.window() {
            envelope = envelope.with_detail("window_ms", window);
        }
        envelope
    }

    /// The window, unless it is zero.
    fn window(&self) -> Option<u64> {
        self.window_ms.filter(|window| *window > 0)
    }

    /// The `data` of the JSON-RPC error [`JSONRPC_RATE_LIMITED`], as
    /// SEP-3304 names its members: `{"retryAfterMs": 1200, "limit": 60,
    /// "remaining": 0}`.
    #[must_use]
    pub fn jsonrpc_data(&self) -> Value {
        let mut data = Map::new();
        data.insert(
            String::from("retryAfterMs"),
            Value::from(self.retry_after_ms),
        );
        data.insert(String::from("limit"), Value::from(self.limit));
        data.insert(String::from("remaining"), Value::from(self.remaining));
        Value::Object(data)
    }

    /// The value of the HTTP `RateLimit-Policy` field: `"default";q=60`,
    /// with `;w=` and the window in seconds (rounded up) when there is one.
    #[must_use]
    pub fn policy_field(&self) -> String {
        match self.window() {
            Some(window) => format!("\"{POLICY}\";q={};w={}", self.limit, window.div_ceil(1000)),
            None => format!("\"{POLICY}\";q={}", self.limit),
        }
    }

    /// The value of the HTTP `RateLimit` field: `"default";r=0;t=2`, `t`
    /// the wait in seconds, rounded up as `Retry-After` is.
    #[must_use]
    pub fn limit_field(&self) -> String {
        format!(
            "\"{POLICY}\";r={};t={}",
            self.remaining,
            self.retry_after_ms.div_ceil(1000)
        )
    }
}

/// What a peer's rate-limit signals say, for the host: the wait in
/// milliseconds, the limit and the calls left, each when given.
#[cfg(feature = "host")]
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Signals {
    pub(crate) retry_after_ms: Option<u64>,
    pub(crate) limit: Option<u64>,
    pub(crate) remaining: Option<u64>,
}

#[cfg(feature = "host")]
impl Signals {
    /// The members of a `-32023` error's `data`: each a JSON number, a
    /// float rounded up (as every wait the host reads), anything else
    /// ignored.
    pub(crate) fn of_jsonrpc_data(data: &Value) -> Self {
        let number = |key: &str| data.get(key).and_then(crate::model::lenient::millis);
        Signals {
            retry_after_ms: number("retryAfterMs"),
            limit: number("limit"),
            remaining: number("remaining"),
        }
    }

    /// The HTTP `RateLimit` and `RateLimit-Policy` fields of a `429`,
    /// each the field's lines joined by commas (RFC 9110, section 5.3).
    /// The policy the server ran out of is the `RateLimit` item with `r=0`
    /// and the longest `t`: its `t` (seconds) is the wait, its `r` the
    /// calls left, and the `q` of the `RateLimit-Policy` item of the same
    /// name the limit. With no item at `r=0`, the first item's `r` and its
    /// policy's `q`, and no wait (its `t` is when the quota resets, not
    /// when a call is admitted). Items and parameters that do not parse
    /// are skipped.
    #[cfg(feature = "http")]
    pub(crate) fn of_http_fields(limit: Option<&str>, policy: Option<&str>) -> Self {
        let limits = limit.map(items).unwrap_or_default();
        let policies = policy.map(items).unwrap_or_default();
        let exhausted = limits
            .iter()
            .filter(|item| item.param("r") == Some(0))
            .max_by_key(|item| item.param("t").unwrap_or(0));
        let Some(state) = exhausted.or(limits.first()) else {
            return Signals::default();
        };
        let limit = policies
            .iter()
            .find(|item| item.name == state.name)
            .and_then(|item| item.param("q"));
        Signals {
            retry_after_ms: exhausted
                .and_then(|item| item.param("t"))
                .map(|seconds| seconds.saturating_mul(1000)),
            limit,
            remaining: state.param("r"),
        }
    }

    /// Puts the signals in `envelope`: the wait unless it has one, the
    /// limit and the calls left in `details` unless there already.
    pub(crate) fn apply(self, mut envelope: ErrorEnvelope) -> ErrorEnvelope {
        if envelope.retry_after_ms.is_none()
            && let Some(wait) = self.retry_after_ms
        {
            envelope = envelope.with_retry_after_ms(wait);
        }
        for (key, value) in [("limit", self.limit), ("remaining", self.remaining)] {
            if let Some(value) = value
                && !envelope.details.contains_key(key)
            {
                envelope = envelope.with_detail(key, value);
            }
        }
        envelope
    }
}

/// One item of a structured-field list (RFC 9651): its name (a string
/// without its quotes, escapes kept: only compared with the other
/// field's names, written the same way; or a token) and its non-negative
/// integer parameters, a later duplicate replacing an earlier one.
#[cfg(all(feature = "host", feature = "http"))]
#[derive(Debug, Default)]
struct Item {
    name: String,
    params: Vec<(String, u64)>,
}

#[cfg(all(feature = "host", feature = "http"))]
impl Item {
    fn param(&self, key: &str) -> Option<u64> {
        self.params
            .iter()
            .rev()
            .find(|(name, _)| name == key)
            .map(|(_, value)| *value)
    }
}

/// The items of a list field: split at the commas and semicolons outside
/// quoted strings (`\"` escapes a quote inside one). Parameter names are
/// read case-insensitively; a value that is not a non-negative integer,
/// and a member that is not `key=value`, is skipped.
#[cfg(all(feature = "host", feature = "http"))]
fn items(field: &str) -> Vec<Item> {
    let mut items = Vec::new();
    for member in split_outside_quotes(field, ',') {
        let mut parts = split_outside_quotes(member, ';').into_iter();
        let name = parts.next().unwrap_or_default().trim();
        let name = name
            .strip_prefix('"')
            .and_then(|name| name.strip_suffix('"'))
            .unwrap_or(name)
            .to_owned();
        let params = parts
            .filter_map(|param| {
                let (key, value) = param.split_once('=')?;
                let value = value.trim().parse::<u64>().ok()?;
                Some((key.trim().to_ascii_lowercase(), value))
            })
            .collect();
        items.push(Item { name, params });
    }
    items
}

/// `field` cut at each `separator` outside a quoted string.
#[cfg(all(feature = "host", feature = "http"))]
fn split_outside_quotes(field: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut quoted, mut escaped, mut from) = (false, false, 0);
    for (at, c) in field.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            _ if c == separator && !quoted => {
                parts.push(&field[from..at]);
                from = at + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&field[from..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A limiter that refuses `ann` on `add_note` and admits the rest.
    fn refuse_ann(operation: &str, principal: Option<&str>) -> Result<(), Limited> {
        match (operation, principal) {
            ("add_note", Some("ann")) => Err(Limited::new(1200, 60)),
            _ => Ok(()),
        }
    }

    #[cfg(any(feature = "rmcp", feature = "axum"))]
    #[test]
    fn the_limiter_hears_the_operation_and_the_principal() {
        // The request here is the caller's name.
        let named = RateLimit::<&str>::new(refuse_ann)
            .with_principal(|request: &&str| Some(request.to_string()));
        assert_eq!(named.check("add_note", &"ann"), Err(Limited::new(1200, 60)));
        assert_eq!(named.check("add_note", &"bob"), Ok(()));
        assert_eq!(named.check("list_notes", &"ann"), Ok(()));
        // Without `with_principal`, the limiter hears none.
        let anonymous = RateLimit::<&str>::new(refuse_ann);
        assert_eq!(anonymous.check("add_note", &"ann"), Ok(()));
    }

    #[test]
    fn debug_says_whether_a_principal_is_named() {
        let anonymous = RateLimit::<&str>::new(refuse_ann);
        assert_eq!(
            format!("{anonymous:?}"),
            "RateLimit { principal: false, .. }"
        );
        let named = anonymous.with_principal(|request: &&str| Some(request.to_string()));
        assert_eq!(format!("{named:?}"), "RateLimit { principal: true, .. }");
    }

    #[test]
    fn the_refusal_on_each_wire() {
        let limited = Limited::new(1200, 60).with_window_ms(60_000);
        assert_eq!(
            limited.jsonrpc_data(),
            serde_json::json!({"retryAfterMs": 1200, "limit": 60, "remaining": 0})
        );
        assert_eq!(limited.policy_field(), r#""default";q=60;w=60"#);
        assert_eq!(limited.limit_field(), r#""default";r=0;t=2"#);
        assert_eq!(
            limited.to_envelope().to_json(),
            serde_json::json!({
                "isError": true,
                "error_class": "RATE_LIMITED",
                "message": "the rate limit of 60 calls per 60 s was reached",
                "retry_after_ms": 1200,
                "code": "RATE_LIMITED",
                "category": "Technical",
                "retryable": true,
                "details": {"limit": 60, "remaining": 0, "window_ms": 60_000}
            })
        );
        let one = Limited::new(500, 1).with_remaining(0).with_window_ms(1500);
        assert_eq!(
            one.to_envelope().message,
            "the rate limit of 1 call per 1500 ms was reached"
        );
        assert_eq!(one.policy_field(), r#""default";q=1;w=2"#);
        assert_eq!(Limited::new(0, 5).policy_field(), r#""default";q=5"#);
        assert_eq!(Limited::new(0, 5).limit_field(), r#""default";r=0;t=0"#);
        let zero = Limited::new(0, 5).with_window_ms(0);
        assert_eq!(zero.policy_field(), r#""default";q=5"#);
        assert_eq!(
            zero.to_envelope().message,
            "the rate limit of 5 calls was reached"
        );
        assert!(!zero.to_envelope().details.contains_key("window_ms"));
    }

    #[cfg(all(feature = "host", feature = "http"))]
    #[test]
    fn the_host_reads_the_fields_back() {
        let read = |limit: &str, policy: &str| Signals::of_http_fields(Some(limit), Some(policy));
        let signals = |wait: Option<u64>, limit: Option<u64>, remaining: Option<u64>| Signals {
            retry_after_ms: wait,
            limit,
            remaining,
        };
        // The exhausted policy, by name, whatever the order.
        assert_eq!(
            read(
                r#""burst";r=5;t=1, "daily";r=0;t=3600"#,
                r#""burst";q=10;w=1, "daily";q=1000;w=86400"#
            ),
            signals(Some(3_600_000), Some(1000), Some(0))
        );
        // Of two exhausted, the longer wait.
        assert_eq!(
            read(r#""a";r=0;t=5, "b";r=0;t=50"#, r#""b";q=2"#),
            signals(Some(50_000), Some(2), Some(0))
        );
        // None exhausted: no wait (`t` is when the quota resets).
        assert_eq!(
            read(
                r#""a,b";r=3;t=7, "daily";r=9;t=100"#,
                r#""a,b";q=10;w=60;qu="request""#
            ),
            signals(None, Some(10), Some(3))
        );
        // Separators and escaped quotes inside strings; the last duplicate
        // wins; names are case-sensitive, parameters are not.
        assert_eq!(
            read(
                r#""a;t=9;\"b";note="x;t=99,y";R=0;t=1;t=2"#,
                r#""a;t=9;\"b";q=4"#
            ),
            signals(Some(2000), Some(4), Some(0))
        );
        // Outside a string a backslash is a character, not an escape.
        assert_eq!(
            read(r#"a\;r=0;t=3"#, ""),
            signals(Some(3000), None, Some(0))
        );
        assert_eq!(
            read(r#""A";r=0;t=1"#, r#""a";q=4"#),
            signals(Some(1000), None, Some(0))
        );
        // Nothing that parses says nothing.
        assert_eq!(read("garbage", ""), signals(None, None, None));
        assert_eq!(read("", ""), signals(None, None, None));
        assert_eq!(
            read(r#""d";r=-1;t=1.5"#, r#""d";q=x"#),
            signals(None, None, None)
        );
        let data = serde_json::json!({"retryAfterMs": 1000.5, "limit": 60.0, "remaining": "x"});
        assert_eq!(
            Signals::of_jsonrpc_data(&data),
            signals(Some(1001), Some(60), None)
        );
    }
}
