//! [`ErrorClass`], the machine-stable class every envelope carries, and
//! [`Owner`], the party that has to act on it.

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::model::category::UserErrorCategory;

/// Who has to act for an error to go away.
///
/// A caller-owned error is a tool-level rejection: the model can fix it by
/// changing its call. A server-owned error is not the caller's fault, and the
/// model should wait, retry or report it rather than rewrite its arguments.
///
/// A user-owned error needs a person: neither a changed call nor a retry
/// helps until someone signs in again, approves or grants something
/// outside the conversation; the model should tell the user what to do.
///
/// Wire form: `"caller"`, `"server"` or `"user"` (used by the catalog
/// renderers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Owner {
    /// The caller (the model, or whoever built the request) must change the call.
    Caller,
    /// The server, or something behind it, failed; the call itself was fine.
    Server,
    /// A person must act outside the conversation (see
    /// [`ErrorClass::InteractionRequired`]).
    User,
}

impl Owner {
    /// The wire name: `"caller"`, `"server"` or `"user"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Owner::Caller => "caller",
            Owner::Server => "server",
            Owner::User => "user",
        }
    }
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The machine-stable class of an agent-facing error.
///
/// A small taxonomy shared by every server that uses this crate, in the spirit
/// of gRPC's canonical status codes: a model can branch on it without knowing
/// the server. Domain-specific precision belongs in the envelope's `code`
/// (`"LEASE_REQUIRED"`), not in new classes.
///
/// Wire form: `SCREAMING_SNAKE_CASE` (`"OBJECT_NOT_FOUND"`). A class this
/// version does not know deserializes to [`ErrorClass::Unknown`] instead of
/// failing, so an older client can read a newer server's envelopes.
///
/// | class | owner | retryable | default category | HTTP |
/// |---|---|---|---|---|
/// | `InvalidArguments` | caller | no | `Validation` | 400 |
/// | `SyntaxError` | caller | no | `Validation` | 400 |
/// | `RuntimeError` | caller | no | `Validation` | 422 |
/// | `ObjectNotFound` | caller | no | `NotFound` | 404 |
/// | `AlreadyExists` | caller | no | `Duplicate` | 409 |
/// | `PreconditionFailed` | caller | no | `WorkflowDependency` | 412 |
/// | `Conflict` | caller | no | `WorkflowDependency` | 409 |
/// | `Unauthenticated` | caller | no | `WorkflowDependency` | 401 |
/// | `InteractionRequired` | user | no | `WorkflowDependency` | 403 |
/// | `InsufficientPrivilege` | caller | no | `WorkflowDependency` | 403 |
/// | `PolicyDenied` | caller | no | `Validation` | 403 |
/// | `Unsupported` | caller | no | `Validation` | 501 |
/// | `RateLimited` | caller | yes | `Technical` | 429 |
/// | `QuotaExceeded` | caller | no | `Technical` | 429 |
/// | `Busy` | server | yes | `Technical` | 503 |
/// | `Timeout` | server | yes | `Technical` | 504 |
/// | `Transient` | server | yes | `Technical` | 503 |
/// | `ConnectionFailed` | server | yes | `Technical` | 502 |
/// | `Cancelled` | caller | no | `Technical` | 499 |
/// | `Internal` | server | no | `Technical` | 500 |
/// | `Unknown` | server | no | `Technical` | 500 |
///
/// With the `schemars` feature: implements `schemars::JsonSchema` (schemars
/// 1.x), for a tool's `outputSchema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum ErrorClass {
    /// The arguments are malformed or fail validation (a missing field, a
    /// value out of range). The caller fixes the arguments.
    InvalidArguments,
    /// A query or script the caller sent does not parse or compile.
    SyntaxError,
    /// The caller's script or query parsed and ran, then failed on its own
    /// terms: a thrown exception, a failed assertion, a division by zero, a
    /// reference to a name the script never defined (pmcp-code-mode's
    /// `ExecutionError::RuntimeError`). The caller fixes its code.
    ///
    /// Caller-owned, unlike [`ErrorClass::Internal`], because the code was
    /// the caller's; distinct from [`ErrorClass::SyntaxError`] because it
    /// ran, so its default effect is [`Effect::Unknown`](crate::Effect):
    /// statements before the failing one may have taken effect. HTTP 422
    /// (Unprocessable Content): well formed, but it cannot be carried out.
    RuntimeError,
    /// A named object (table, file, user, city) does not exist or is not
    /// visible. Pair it with near-miss names and an inspection tool.
    ObjectNotFound,
    /// The caller tried to create something that already exists.
    AlreadyExists,
    /// A prerequisite step is missing: connect first, acquire a lease, raise
    /// the session level.
    PreconditionFailed,
    /// The state changed under the caller (a stale version, a context that
    /// moved on); it must re-read before trying again.
    Conflict,
    /// Credentials are missing, expired or invalid, and the caller can
    /// supply or renew them (call a login tool, pass a token). When only a
    /// person can (an expired single sign-on session, a second factor), use
    /// [`ErrorClass::InteractionRequired`].
    Unauthenticated,
    /// A person must act outside the conversation before the call can
    /// succeed: sign in again in a browser, approve a pending request,
    /// grant a permission, accept terms. Neither a changed call nor a retry
    /// helps; the model should tell the user what to do and stop.
    ///
    /// Its owner is [`Owner::User`]. The name is OpenID Connect's
    /// `interaction_required` error. HTTP 403.
    InteractionRequired,
    /// The caller is known but lacks the privilege for this operation.
    ///
    /// Its category is `WorkflowDependency`, not `Validation`: no argument
    /// the model could change fixes it; a privilege must be granted first
    /// (a person grants it: [`ErrorClass::InteractionRequired`] when the
    /// model can do nothing until then).
    InsufficientPrivilege,
    /// A policy refused the request before it was sent anywhere.
    PolicyDenied,
    /// The operation or one of its options is not supported here.
    Unsupported,
    /// The caller exceeded a rate limit (requests or tokens per unit of
    /// time); the same call succeeds once the window allows it, so wait for
    /// the retry hint (`retry_after_ms`) and repeat it unchanged.
    ///
    /// Also the class for an upstream API's rate limit (an HTTP 429 with
    /// `Retry-After` from the weather service behind the tool): the fix is
    /// the same, wait and repeat. Choose among the four classes that look
    /// alike by what lifts the refusal: a window that reopens after a wait
    /// is `RateLimited`; a budget that does not refill within the
    /// conversation (a daily allowance, credits) is
    /// [`ErrorClass::QuotaExceeded`]; the server's own capacity (a lock, a
    /// full pool), whatever the caller's rate, is [`ErrorClass::Busy`]; an
    /// upstream failure that says nothing about rates (a 503 without
    /// `Retry-After`) is [`ErrorClass::Transient`].
    ///
    /// Caller-owned because the caller sent too much, not because the server
    /// failed. gRPC and Google's AIP-193 report it as `RESOURCE_EXHAUSTED`
    /// with reason `RATE_LIMIT_EXCEEDED`; HTTP as 429 Too Many Requests
    /// (RFC 6585) with `Retry-After`.
    RateLimited,
    /// A quota or budget (a daily allowance, credits, a storage quota) is
    /// used up. Retrying will not help until it resets or is raised; the
    /// caller should stop and tell the user, or do without.
    ///
    /// gRPC and AIP-193 report it as `RESOURCE_EXHAUSTED` with reason
    /// `RESOURCE_QUOTA_EXCEEDED`, HTTP as 429. Not retryable, unlike
    /// [`ErrorClass::RateLimited`]; a known reset time may still go into
    /// `retry_after_ms`.
    QuotaExceeded,
    /// The server is overloaded and admission control turned the call away
    /// (lock contention, a full connection pool); retry later. A limit on
    /// what the caller may send is [`ErrorClass::RateLimited`] or
    /// [`ErrorClass::QuotaExceeded`] instead.
    ///
    /// HTTP 503 Service Unavailable, the status for a server that is
    /// temporarily unable to handle the request (RFC 9110, 15.6.4); 429 is
    /// left to the caller's own rate. Routine contention, so the operator
    /// log records it at `WARN`, not `ERROR`.
    Busy,
    /// The operation ran past its deadline; it may succeed when retried.
    Timeout,
    /// A temporary failure behind the server; retrying is expected to help.
    Transient,
    /// The server could not reach a backend it depends on.
    ConnectionFailed,
    /// The caller cancelled the operation.
    Cancelled,
    /// An unexpected fault inside the server. Nothing the caller changes
    /// will fix it.
    Internal,
    /// A class sent by a newer peer that this version does not know. Never
    /// produced by the derive; it only appears when deserializing.
    #[serde(other)]
    Unknown,
}

impl ErrorClass {
    /// Every class, in declaration order (`Unknown` last).
    pub const ALL: &'static [ErrorClass] = &[
        ErrorClass::InvalidArguments,
        ErrorClass::SyntaxError,
        ErrorClass::RuntimeError,
        ErrorClass::ObjectNotFound,
        ErrorClass::AlreadyExists,
        ErrorClass::PreconditionFailed,
        ErrorClass::Conflict,
        ErrorClass::Unauthenticated,
        ErrorClass::InteractionRequired,
        ErrorClass::InsufficientPrivilege,
        ErrorClass::PolicyDenied,
        ErrorClass::Unsupported,
        ErrorClass::RateLimited,
        ErrorClass::QuotaExceeded,
        ErrorClass::Busy,
        ErrorClass::Timeout,
        ErrorClass::Transient,
        ErrorClass::ConnectionFailed,
        ErrorClass::Cancelled,
        ErrorClass::Internal,
        ErrorClass::Unknown,
    ];

    /// The wire name, as serialized: `"OBJECT_NOT_FOUND"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorClass::InvalidArguments => "INVALID_ARGUMENTS",
            ErrorClass::SyntaxError => "SYNTAX_ERROR",
            ErrorClass::RuntimeError => "RUNTIME_ERROR",
            ErrorClass::ObjectNotFound => "OBJECT_NOT_FOUND",
            ErrorClass::AlreadyExists => "ALREADY_EXISTS",
            ErrorClass::PreconditionFailed => "PRECONDITION_FAILED",
            ErrorClass::Conflict => "CONFLICT",
            ErrorClass::Unauthenticated => "UNAUTHENTICATED",
            ErrorClass::InteractionRequired => "INTERACTION_REQUIRED",
            ErrorClass::InsufficientPrivilege => "INSUFFICIENT_PRIVILEGE",
            ErrorClass::PolicyDenied => "POLICY_DENIED",
            ErrorClass::Unsupported => "UNSUPPORTED",
            ErrorClass::RateLimited => "RATE_LIMITED",
            ErrorClass::QuotaExceeded => "QUOTA_EXCEEDED",
            ErrorClass::Busy => "BUSY",
            ErrorClass::Timeout => "TIMEOUT",
            ErrorClass::Transient => "TRANSIENT",
            ErrorClass::ConnectionFailed => "CONNECTION_FAILED",
            ErrorClass::Cancelled => "CANCELLED",
            ErrorClass::Internal => "INTERNAL",
            ErrorClass::Unknown => "UNKNOWN",
        }
    }

    /// The Rust variant name: `"ObjectNotFound"`. This is the spelling the
    /// derive's `class = ...` attribute takes.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ErrorClass::InvalidArguments => "InvalidArguments",
            ErrorClass::SyntaxError => "SyntaxError",
            ErrorClass::RuntimeError => "RuntimeError",
            ErrorClass::ObjectNotFound => "ObjectNotFound",
            ErrorClass::AlreadyExists => "AlreadyExists",
            ErrorClass::PreconditionFailed => "PreconditionFailed",
            ErrorClass::Conflict => "Conflict",
            ErrorClass::Unauthenticated => "Unauthenticated",
            ErrorClass::InteractionRequired => "InteractionRequired",
            ErrorClass::InsufficientPrivilege => "InsufficientPrivilege",
            ErrorClass::PolicyDenied => "PolicyDenied",
            ErrorClass::Unsupported => "Unsupported",
            ErrorClass::RateLimited => "RateLimited",
            ErrorClass::QuotaExceeded => "QuotaExceeded",
            ErrorClass::Busy => "Busy",
            ErrorClass::Timeout => "Timeout",
            ErrorClass::Transient => "Transient",
            ErrorClass::ConnectionFailed => "ConnectionFailed",
            ErrorClass::Cancelled => "Cancelled",
            ErrorClass::Internal => "Internal",
            ErrorClass::Unknown => "Unknown",
        }
    }

    /// Who has to act: see the table on [`ErrorClass`].
    #[must_use]
    pub const fn owner(self) -> Owner {
        match self {
            ErrorClass::InvalidArguments
            | ErrorClass::SyntaxError
            | ErrorClass::RuntimeError
            | ErrorClass::ObjectNotFound
            | ErrorClass::AlreadyExists
            | ErrorClass::PreconditionFailed
            | ErrorClass::Conflict
            | ErrorClass::Unauthenticated
            | ErrorClass::InsufficientPrivilege
            | ErrorClass::PolicyDenied
            | ErrorClass::Unsupported
            | ErrorClass::RateLimited
            | ErrorClass::QuotaExceeded
            | ErrorClass::Cancelled => Owner::Caller,
            ErrorClass::InteractionRequired => Owner::User,
            ErrorClass::Busy
            | ErrorClass::Timeout
            | ErrorClass::Transient
            | ErrorClass::ConnectionFailed
            | ErrorClass::Internal
            | ErrorClass::Unknown => Owner::Server,
        }
    }

    /// Whether the same call may succeed if repeated later, unchanged.
    ///
    /// True for `RateLimited`, `Busy`, `Timeout`, `Transient` and
    /// `ConnectionFailed` only. This speaks about the condition, not about
    /// idempotence: whether a write may be replayed is the caller's decision.
    #[inline]
    #[must_use]
    pub const fn is_retryable(self) -> bool {
        matches!(
            self,
            ErrorClass::RateLimited
                | ErrorClass::Busy
                | ErrorClass::Timeout
                | ErrorClass::Transient
                | ErrorClass::ConnectionFailed
        )
    }

    /// The conversation-flow category used when a variant does not name one.
    #[inline]
    #[must_use]
    pub const fn default_category(self) -> UserErrorCategory {
        match self {
            ErrorClass::InvalidArguments
            | ErrorClass::SyntaxError
            | ErrorClass::RuntimeError
            | ErrorClass::PolicyDenied
            | ErrorClass::Unsupported => UserErrorCategory::Validation,
            ErrorClass::ObjectNotFound => UserErrorCategory::NotFound,
            ErrorClass::AlreadyExists => UserErrorCategory::Duplicate,
            ErrorClass::PreconditionFailed
            | ErrorClass::Conflict
            | ErrorClass::Unauthenticated
            | ErrorClass::InteractionRequired
            | ErrorClass::InsufficientPrivilege => UserErrorCategory::WorkflowDependency,
            ErrorClass::RateLimited
            | ErrorClass::QuotaExceeded
            | ErrorClass::Busy
            | ErrorClass::Timeout
            | ErrorClass::Transient
            | ErrorClass::ConnectionFailed
            | ErrorClass::Cancelled
            | ErrorClass::Internal
            | ErrorClass::Unknown => UserErrorCategory::Technical,
        }
    }

    /// The closest HTTP status code, for servers that also speak HTTP.
    ///
    /// `Cancelled` maps to 499, the de-facto "client closed request" status.
    /// `RateLimited` and `QuotaExceeded` map to 429 (the caller's own
    /// limits, RFC 6585); `Busy` and `Transient` to 503 (the server cannot
    /// serve now, RFC 9110); `RuntimeError` to 422 (well formed, but it
    /// could not be carried out).
    #[must_use]
    pub const fn http_status(self) -> u16 {
        match self {
            ErrorClass::InvalidArguments | ErrorClass::SyntaxError => 400,
            ErrorClass::Unauthenticated => 401,
            ErrorClass::InsufficientPrivilege
            | ErrorClass::InteractionRequired
            | ErrorClass::PolicyDenied => 403,
            ErrorClass::ObjectNotFound => 404,
            ErrorClass::AlreadyExists | ErrorClass::Conflict => 409,
            ErrorClass::PreconditionFailed => 412,
            ErrorClass::RuntimeError => 422,
            ErrorClass::RateLimited | ErrorClass::QuotaExceeded => 429,
            ErrorClass::Cancelled => 499,
            ErrorClass::Internal | ErrorClass::Unknown => 500,
            ErrorClass::Unsupported => 501,
            ErrorClass::ConnectionFailed => 502,
            ErrorClass::Transient | ErrorClass::Busy => 503,
            ErrorClass::Timeout => 504,
        }
    }

    /// The class of an HTTP error status, for errors of HTTP clients
    /// (`reqwest`, `hyper`, `ureq`) without depending on them. Never panics.
    ///
    /// Every status from 100 to 599 has a class; anything else (0, 99, 600,
    /// 65535) is [`ErrorClass::Internal`]. The 4xx and 5xx statuses follow
    /// RFC 9110 and the gRPC HTTP mapping:
    ///
    /// | status | class |
    /// |---|---|
    /// | 400, 411, 413, 414, 416, 417, 418, 422, 431, other 4xx | `InvalidArguments` |
    /// | 401, 407, 511 | `Unauthenticated` |
    /// | 402 (Payment Required) | `QuotaExceeded` |
    /// | 403 | `InsufficientPrivilege` |
    /// | 404, 410 | `ObjectNotFound` |
    /// | 405, 406, 415, 426, 501, 505 | `Unsupported` |
    /// | 408, 504 | `Timeout` |
    /// | 409, 423 | `Conflict` |
    /// | 412, 424, 428 | `PreconditionFailed` |
    /// | 425 (Too Early), 503 | `Transient` |
    /// | 429 | `RateLimited` |
    /// | 451 | `PolicyDenied` |
    /// | 499 | `Cancelled` |
    /// | 421, 502 | `ConnectionFailed` |
    /// | 500, 506, 507, 508, 510, other 5xx | `Internal` |
    /// | 1xx, 2xx, 3xx (not errors: an error built from one is unexpected) | `Internal` |
    ///
    /// The table reads a status as the caller's own answer, as a gateway
    /// forwarding it would. When the request was the server's own (its
    /// credentials, its quota with an upstream API), a 401, 403 or 429 is
    /// the server's problem: give such errors a server-owned class yourself.
    /// The mapping is not the inverse of [`ErrorClass::http_status`]:
    /// several classes share a status (`Busy` and `QuotaExceeded` give 429,
    /// which reads back as `RateLimited`).
    #[must_use]
    pub const fn from_http_status(status: u16) -> ErrorClass {
        match status {
            401 | 407 | 511 => ErrorClass::Unauthenticated,
            402 => ErrorClass::QuotaExceeded,
            403 => ErrorClass::InsufficientPrivilege,
            404 | 410 => ErrorClass::ObjectNotFound,
            405 | 406 | 415 | 426 | 501 | 505 => ErrorClass::Unsupported,
            408 | 504 => ErrorClass::Timeout,
            409 | 423 => ErrorClass::Conflict,
            412 | 424 | 428 => ErrorClass::PreconditionFailed,
            425 | 503 => ErrorClass::Transient,
            429 => ErrorClass::RateLimited,
            451 => ErrorClass::PolicyDenied,
            499 => ErrorClass::Cancelled,
            421 | 502 => ErrorClass::ConnectionFailed,
            400..=498 => ErrorClass::InvalidArguments,
            _ => ErrorClass::Internal,
        }
    }

    /// The message a server-owned class gets when its variant gives none.
    ///
    /// The derive uses it instead of the error's `Display` text, so paths,
    /// SQL and host names from internals never reach the model by accident.
    /// Caller-owned classes get a short generic text too, used only where no
    /// better message exists.
    #[must_use]
    pub const fn generic_message(self) -> &'static str {
        match self {
            ErrorClass::InvalidArguments => "the arguments are invalid",
            ErrorClass::SyntaxError => "the request does not parse",
            ErrorClass::RuntimeError => "the script failed while it ran",
            ErrorClass::ObjectNotFound => "the requested object does not exist",
            ErrorClass::AlreadyExists => "the object already exists",
            ErrorClass::PreconditionFailed => "a required earlier step is missing",
            ErrorClass::Conflict => "the state changed; read it again before retrying",
            ErrorClass::Unauthenticated => "authentication is required",
            ErrorClass::InteractionRequired => {
                "a person must act before this call can succeed; tell the user"
            }
            ErrorClass::InsufficientPrivilege => {
                "the caller lacks the privilege for this operation"
            }
            ErrorClass::PolicyDenied => "a policy refused the request",
            ErrorClass::Unsupported => "the operation is not supported",
            ErrorClass::RateLimited => {
                "the rate limit was exceeded; wait for the retry hint, then retry the same call"
            }
            ErrorClass::QuotaExceeded => {
                "a quota is used up; retrying will not help until it resets or is raised"
            }
            ErrorClass::Busy => "the server is busy; retry the same call later",
            ErrorClass::Timeout => "the operation timed out; it may succeed if retried",
            ErrorClass::Transient => "a temporary failure occurred; retry the same call",
            ErrorClass::ConnectionFailed => "the server could not reach a service it depends on",
            ErrorClass::Cancelled => "the operation was cancelled",
            ErrorClass::Internal | ErrorClass::Unknown => {
                "an internal error occurred; changing the call will not help"
            }
        }
    }
}

impl fmt::Display for ErrorClass {
    /// Writes the wire name (`OBJECT_NOT_FOUND`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing an [`ErrorClass`] from a string it does not name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseClassError {
    input: String,
}

impl fmt::Display for ParseClassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown error class `{}`", self.input)
    }
}

impl std::error::Error for ParseClassError {}

impl FromStr for ErrorClass {
    type Err = ParseClassError;

    /// Parses the wire name (`"OBJECT_NOT_FOUND"`) or the variant name
    /// (`"ObjectNotFound"`), exactly. Unlike deserialization, which lands
    /// unknown input on [`ErrorClass::Unknown`], parsing reports it.
    ///
    /// # Errors
    /// [`ParseClassError`] when `s` names no class.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ErrorClass::ALL
            .iter()
            .copied()
            .find(|class| class.as_str() == s || class.name() == s)
            .ok_or_else(|| ParseClassError {
                input: s.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wire_name_matches_serde() {
        for class in ErrorClass::ALL {
            let json = serde_json::to_string(class).unwrap();
            assert_eq!(json, format!("\"{}\"", class.as_str()));
            assert_eq!(class.as_str().parse::<ErrorClass>().unwrap(), *class);
            assert_eq!(class.name().parse::<ErrorClass>().unwrap(), *class);
        }
    }

    #[test]
    fn unknown_wire_name_lands_on_unknown() {
        let class: ErrorClass = serde_json::from_str("\"LEGAL_HOLD\"").unwrap();
        assert_eq!(class, ErrorClass::Unknown);
        let err = "LEGAL_HOLD".parse::<ErrorClass>().unwrap_err();
        assert_eq!(err.to_string(), "unknown error class `LEGAL_HOLD`");
    }

    #[test]
    fn http_statuses() {
        use ErrorClass as C;
        let rows: &[(u16, ErrorClass)] = &[
            (0, C::Internal),
            (99, C::Internal),
            (100, C::Internal),
            (200, C::Internal),
            (304, C::Internal),
            (399, C::Internal),
            (400, C::InvalidArguments),
            (401, C::Unauthenticated),
            (402, C::QuotaExceeded),
            (403, C::InsufficientPrivilege),
            (404, C::ObjectNotFound),
            (405, C::Unsupported),
            (406, C::Unsupported),
            (407, C::Unauthenticated),
            (408, C::Timeout),
            (409, C::Conflict),
            (410, C::ObjectNotFound),
            (411, C::InvalidArguments),
            (412, C::PreconditionFailed),
            (413, C::InvalidArguments),
            (415, C::Unsupported),
            (421, C::ConnectionFailed),
            (422, C::InvalidArguments),
            (423, C::Conflict),
            (424, C::PreconditionFailed),
            (425, C::Transient),
            (426, C::Unsupported),
            (428, C::PreconditionFailed),
            (429, C::RateLimited),
            (451, C::PolicyDenied),
            (498, C::InvalidArguments),
            (499, C::Cancelled),
            (500, C::Internal),
            (501, C::Unsupported),
            (502, C::ConnectionFailed),
            (503, C::Transient),
            (504, C::Timeout),
            (505, C::Unsupported),
            (507, C::Internal),
            (511, C::Unauthenticated),
            (599, C::Internal),
            (600, C::Internal),
            (65535, C::Internal),
        ];
        for &(status, class) in rows {
            assert_eq!(ErrorClass::from_http_status(status), class, "{status}");
        }
        // Every status: a class, no panic; outside 400-599 always `Internal`,
        // inside it never `Unknown`.
        for status in 0..=u16::MAX {
            let class = ErrorClass::from_http_status(status);
            if (400..600).contains(&status) {
                assert_ne!(class, C::Unknown, "{status}");
            } else {
                assert_eq!(class, C::Internal, "{status}");
            }
        }
        // Every class's own status reads back as that class, except where
        // several classes share one status (400, 403, 409, 429, 503), and
        // 422, which upstream APIs answer for invalid input.
        for &class in ErrorClass::ALL {
            let back = ErrorClass::from_http_status(class.http_status());
            let expected = match class {
                C::SyntaxError => C::InvalidArguments,
                C::AlreadyExists => C::Conflict,
                C::PolicyDenied => C::InsufficientPrivilege,
                C::QuotaExceeded => C::RateLimited,
                C::Busy => C::Transient,
                C::RuntimeError => C::InvalidArguments,
                C::InteractionRequired => C::InsufficientPrivilege,
                C::Unknown => C::Internal,
                other => other,
            };
            assert_eq!(back, expected, "{class:?}");
        }
    }

    #[test]
    fn table_rows() {
        use ErrorClass as C;
        use Owner::{Caller, Server, User};
        use UserErrorCategory as U;
        let rows: &[(ErrorClass, Owner, bool, UserErrorCategory, u16)] = &[
            (C::InvalidArguments, Caller, false, U::Validation, 400),
            (C::SyntaxError, Caller, false, U::Validation, 400),
            (C::RuntimeError, Caller, false, U::Validation, 422),
            (C::ObjectNotFound, Caller, false, U::NotFound, 404),
            (C::AlreadyExists, Caller, false, U::Duplicate, 409),
            (
                C::PreconditionFailed,
                Caller,
                false,
                U::WorkflowDependency,
                412,
            ),
            (C::Conflict, Caller, false, U::WorkflowDependency, 409),
            (
                C::Unauthenticated,
                Caller,
                false,
                U::WorkflowDependency,
                401,
            ),
            (
                C::InteractionRequired,
                User,
                false,
                U::WorkflowDependency,
                403,
            ),
            (
                C::InsufficientPrivilege,
                Caller,
                false,
                U::WorkflowDependency,
                403,
            ),
            (C::PolicyDenied, Caller, false, U::Validation, 403),
            (C::Unsupported, Caller, false, U::Validation, 501),
            (C::RateLimited, Caller, true, U::Technical, 429),
            (C::QuotaExceeded, Caller, false, U::Technical, 429),
            (C::Busy, Server, true, U::Technical, 503),
            (C::Timeout, Server, true, U::Technical, 504),
            (C::Transient, Server, true, U::Technical, 503),
            (C::ConnectionFailed, Server, true, U::Technical, 502),
            (C::Cancelled, Caller, false, U::Technical, 499),
            (C::Internal, Server, false, U::Technical, 500),
            (C::Unknown, Server, false, U::Technical, 500),
        ];
        assert_eq!(rows.len(), ErrorClass::ALL.len());
        for &(class, owner, retryable, category, http) in rows {
            assert_eq!(class.owner(), owner, "{class:?}");
            assert_eq!(class.is_retryable(), retryable, "{class:?}");
            assert_eq!(class.default_category(), category, "{class:?}");
            assert_eq!(class.http_status(), http, "{class:?}");
        }
    }
}
