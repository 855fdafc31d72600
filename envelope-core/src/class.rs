//! [`ErrorClass`], the machine-stable class every envelope carries, and
//! [`Owner`], the party that has to act on it.

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::category::UserErrorCategory;

/// Who has to act for an error to go away.
///
/// A caller-owned error is a tool-level rejection: the model can fix it by
/// changing its call. A server-owned error is not the caller's fault, and the
/// model should wait, retry or report it rather than rewrite its arguments.
///
/// Wire form: `"caller"` or `"server"` (used by the catalog renderers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Owner {
    /// The caller (the model, or whoever built the request) must change the call.
    Caller,
    /// The server, or something behind it, failed; the call itself was fine.
    Server,
}

impl Owner {
    /// The wire name: `"caller"` or `"server"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Owner::Caller => "caller",
            Owner::Server => "server",
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
/// | `ObjectNotFound` | caller | no | `NotFound` | 404 |
/// | `AlreadyExists` | caller | no | `Duplicate` | 409 |
/// | `PreconditionFailed` | caller | no | `WorkflowDependency` | 412 |
/// | `Conflict` | caller | no | `WorkflowDependency` | 409 |
/// | `Unauthenticated` | caller | no | `WorkflowDependency` | 401 |
/// | `InsufficientPrivilege` | caller | no | `Validation` | 403 |
/// | `PolicyDenied` | caller | no | `Validation` | 403 |
/// | `Unsupported` | caller | no | `Validation` | 501 |
/// | `Busy` | server | yes | `Technical` | 429 |
/// | `Timeout` | server | yes | `Technical` | 504 |
/// | `Transient` | server | yes | `Technical` | 503 |
/// | `ConnectionFailed` | server | yes | `Technical` | 502 |
/// | `Cancelled` | caller | no | `Technical` | 499 |
/// | `Internal` | server | no | `Technical` | 500 |
/// | `Unknown` | server | no | `Technical` | 500 |
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
    /// Credentials are missing, expired or invalid.
    Unauthenticated,
    /// The caller is known but lacks the privilege for this operation.
    InsufficientPrivilege,
    /// A policy refused the request before it was sent anywhere.
    PolicyDenied,
    /// The operation or one of its options is not supported here.
    Unsupported,
    /// Admission control or a rate limit turned the call away; retry later.
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
        ErrorClass::ObjectNotFound,
        ErrorClass::AlreadyExists,
        ErrorClass::PreconditionFailed,
        ErrorClass::Conflict,
        ErrorClass::Unauthenticated,
        ErrorClass::InsufficientPrivilege,
        ErrorClass::PolicyDenied,
        ErrorClass::Unsupported,
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
            ErrorClass::ObjectNotFound => "OBJECT_NOT_FOUND",
            ErrorClass::AlreadyExists => "ALREADY_EXISTS",
            ErrorClass::PreconditionFailed => "PRECONDITION_FAILED",
            ErrorClass::Conflict => "CONFLICT",
            ErrorClass::Unauthenticated => "UNAUTHENTICATED",
            ErrorClass::InsufficientPrivilege => "INSUFFICIENT_PRIVILEGE",
            ErrorClass::PolicyDenied => "POLICY_DENIED",
            ErrorClass::Unsupported => "UNSUPPORTED",
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
            ErrorClass::ObjectNotFound => "ObjectNotFound",
            ErrorClass::AlreadyExists => "AlreadyExists",
            ErrorClass::PreconditionFailed => "PreconditionFailed",
            ErrorClass::Conflict => "Conflict",
            ErrorClass::Unauthenticated => "Unauthenticated",
            ErrorClass::InsufficientPrivilege => "InsufficientPrivilege",
            ErrorClass::PolicyDenied => "PolicyDenied",
            ErrorClass::Unsupported => "Unsupported",
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
            | ErrorClass::ObjectNotFound
            | ErrorClass::AlreadyExists
            | ErrorClass::PreconditionFailed
            | ErrorClass::Conflict
            | ErrorClass::Unauthenticated
            | ErrorClass::InsufficientPrivilege
            | ErrorClass::PolicyDenied
            | ErrorClass::Unsupported
            | ErrorClass::Cancelled => Owner::Caller,
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
    /// True for `Busy`, `Timeout`, `Transient` and `ConnectionFailed` only.
    /// This speaks about the condition, not about idempotence: whether a
    /// write may be replayed is the caller's decision.
    #[inline]
    #[must_use]
    pub const fn is_retryable(self) -> bool {
        matches!(
            self,
            ErrorClass::Busy
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
            | ErrorClass::InsufficientPrivilege
            | ErrorClass::PolicyDenied
            | ErrorClass::Unsupported => UserErrorCategory::Validation,
            ErrorClass::ObjectNotFound => UserErrorCategory::NotFound,
            ErrorClass::AlreadyExists => UserErrorCategory::Duplicate,
            ErrorClass::PreconditionFailed | ErrorClass::Conflict | ErrorClass::Unauthenticated => {
                UserErrorCategory::WorkflowDependency
            }
            ErrorClass::Busy
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
    #[must_use]
    pub const fn http_status(self) -> u16 {
        match self {
            ErrorClass::InvalidArguments | ErrorClass::SyntaxError => 400,
            ErrorClass::Unauthenticated => 401,
            ErrorClass::InsufficientPrivilege | ErrorClass::PolicyDenied => 403,
            ErrorClass::ObjectNotFound => 404,
            ErrorClass::AlreadyExists | ErrorClass::Conflict => 409,
            ErrorClass::PreconditionFailed => 412,
            ErrorClass::Busy => 429,
            ErrorClass::Cancelled => 499,
            ErrorClass::Internal | ErrorClass::Unknown => 500,
            ErrorClass::Unsupported => 501,
            ErrorClass::ConnectionFailed => 502,
            ErrorClass::Transient => 503,
            ErrorClass::Timeout => 504,
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
            ErrorClass::ObjectNotFound => "the requested object does not exist",
            ErrorClass::AlreadyExists => "the object already exists",
            ErrorClass::PreconditionFailed => "a required earlier step is missing",
            ErrorClass::Conflict => "the state changed; read it again before retrying",
            ErrorClass::Unauthenticated => "authentication is required",
            ErrorClass::InsufficientPrivilege => {
                "the caller lacks the privilege for this operation"
            }
            ErrorClass::PolicyDenied => "a policy refused the request",
            ErrorClass::Unsupported => "the operation is not supported",
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
        let class: ErrorClass = serde_json::from_str("\"QUOTA_EXCEEDED\"").unwrap();
        assert_eq!(class, ErrorClass::Unknown);
        let err = "QUOTA_EXCEEDED".parse::<ErrorClass>().unwrap_err();
        assert_eq!(err.to_string(), "unknown error class `QUOTA_EXCEEDED`");
    }

    #[test]
    fn table_rows() {
        use ErrorClass as C;
        use Owner::{Caller, Server};
        use UserErrorCategory as U;
        let rows: &[(ErrorClass, Owner, bool, UserErrorCategory, u16)] = &[
            (C::InvalidArguments, Caller, false, U::Validation, 400),
            (C::SyntaxError, Caller, false, U::Validation, 400),
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
            (C::InsufficientPrivilege, Caller, false, U::Validation, 403),
            (C::PolicyDenied, Caller, false, U::Validation, 403),
            (C::Unsupported, Caller, false, U::Validation, 501),
            (C::Busy, Server, true, U::Technical, 429),
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
