//! [`ErrorClass`], the machine-stable class every envelope carries, and
//! [`Owner`], the party that has to act on it.

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::model::category::UserErrorCategory;
use crate::model::effect::Effect;

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

/// The one table of class facts (`classes.rs`, whose head lists the
/// columns): the enum, its docs' table and every `const fn` that answers a
/// fact about a class are generated from its rows, in the spirit of axum's
/// `define_rejection!`. The derive reads the same file with a `classes!`
/// of its own.
macro_rules! classes {
    (
        $(#[$enum_attr:meta])*
        pub enum $name:ident;
        $(
            $(#[$attr:meta])*
            $variant:ident = $wire:literal {
                owner: $owner:ident, person: $person:ident, retryable: $retryable:ident, category: $category:ident,
                http: $http:literal, effect: $effect:ident,
                tool_failure: $tool_failure:literal, log: $log:ident, title: $title:literal,
                act: $act:literal, message: $message:literal, $(step: $step:literal,)?
            }
        )*
    ) => {
        $(#[$enum_attr])*
        ///
        /// | class | owner | a person acts | retryable | default category | default effect | HTTP |
        /// |---|---|---|---|---|---|---|
        $(
            #[doc = concat!(
                "| `", stringify!($variant), "` | ", stringify!($owner), " | ",
                stringify!($person), " | ",
                stringify!($retryable), " | `", stringify!($category), "` | ",
                stringify!($effect), " | ", stringify!($http), " |"
            )]
        )*
        ///
        /// With the `schemars` feature: implements `schemars::JsonSchema`
        /// (schemars 1.x), for a tool's `outputSchema`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$attr])* $variant,)*
        }

        impl $name {
            /// Every class, in declaration order (`Unknown` last).
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The wire name, as serialized: `"OBJECT_NOT_FOUND"`.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$variant => $wire,)* }
            }

            /// The Rust variant name: `"ObjectNotFound"`. This is the
            /// spelling the derive's `class = ...` attribute takes.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self { $($name::$variant => stringify!($variant),)* }
            }

            /// Who has to act: see the table on [`ErrorClass`].
            #[must_use]
            pub const fn owner(self) -> Owner {
                match self { $($name::$variant => Owner::$owner,)* }
            }

            /// Whether a person must act before anything the model does
            /// can help: sign in, approve, grant a permission, raise a
            /// quota, say whether a cancelled call should go on
            /// (`InteractionRequired`, `InsufficientPrivilege`,
            /// `PolicyDenied`, `QuotaExceeded`, `Cancelled`; and
            /// `Unauthenticated`, unless the failure names a tool that gets
            /// credentials: [`ErrorClass::person_acts`]).
            #[inline]
            #[must_use]
            pub const fn needs_person(self) -> bool {
                self.person_acts(false)
            }

            /// Whether a person must act on a failure of this class that
            /// names a tool to call (`tool_named`) or not: the first rule
            /// of the one decision ([`NextMove::of`](crate::NextMove::of)).
            /// `Unauthenticated` needs a person only when no tool can renew
            /// the credentials.
            #[inline]
            #[must_use]
            pub const fn person_acts(self, tool_named: bool) -> bool {
                match self { $($name::$variant => person!($person, tool_named),)* }
            }

            /// Whether the same call may succeed if repeated later,
            /// unchanged: true for `RateLimited`, `Busy`, `Timeout`,
            /// `Transient` and `ConnectionFailed` only.
            ///
            /// This speaks about the condition, not about idempotence:
            /// whether the envelope says `retryable` also depends on the
            /// call's effect (the retry rule, [`Effect::allows_repeat`]).
            #[inline]
            #[must_use]
            pub const fn is_retryable(self) -> bool {
                match self { $($name::$variant => yes_no!($retryable),)* }
            }

            /// The conversation-flow category used when a variant does not
            /// name one.
            #[inline]
            #[must_use]
            pub const fn default_category(self) -> UserErrorCategory {
                match self { $($name::$variant => UserErrorCategory::$category,)* }
            }

            /// The closest HTTP status code, for servers that also speak
            /// HTTP (the problem details `status`).
            ///
            /// `Cancelled` maps to 499, the de-facto "client closed
            /// request" status. `RateLimited` and `QuotaExceeded` map to
            /// 429 (the caller's own limits, RFC 6585); `Busy` and
            /// `Transient` to 503 (the server cannot serve now, RFC 9110);
            /// `RuntimeError` to 422 (well formed, but it could not be
            /// carried out).
            #[must_use]
            pub const fn http_status(self) -> u16 {
                match self { $($name::$variant => $http,)* }
            }

            /// What a failure of this class did, when nothing else is
            /// known: a deadline, a lost connection, a transient backend
            /// failure, a cancellation, an internal fault or a script that
            /// failed while it ran may have struck mid-call
            /// ([`Effect::Unknown`]); every other class refuses the call
            /// before it changes anything ([`Effect::Nothing`]).
            #[must_use]
            pub const fn default_effect(self) -> Effect {
                match self { $($name::$variant => Effect::$effect,)* }
            }

            /// The message a class gets when its variant gives none.
            ///
            /// The derive uses it for a server-owned class instead of the
            /// error's `Display` text, so paths, SQL and host names from
            /// internals never reach the model by accident. Caller-owned
            /// classes get a short generic text too, used only where no
            /// better message exists.
            #[must_use]
            pub const fn generic_message(self) -> &'static str {
                match self { $($name::$variant => $message,)* }
            }

            /// The class of MCP's draft SEP-3313 tool-failure object:
            /// `"capability"` (the call cannot work as made: fix it or do
            /// without), `"reliability"` (the server or what it depends on
            /// failed: maybe repeat) or `"governance"` (a policy, a
            /// permission or a person stands in the way). Clients never
            /// repeat the first and the last on their own.
            ///
            /// `RateLimited` is `reliability` although a limit is a
            /// policy: it lifts after the retry hint, and only
            /// `reliability` failures may carry `retryable`. `Cancelled`
            /// and `Internal` are `reliability` with `retryable: false`:
            /// nothing about the call itself was wrong.
            #[allow(dead_code)] // read by the rmcp integration and the host
            #[must_use]
            pub(crate) const fn tool_failure_class(self) -> &'static str {
                match self { $($name::$variant => $tool_failure,)* }
            }

            /// The operator log's level for a failure of this class: a
            /// server-owned class is an `ERROR`, routine contention
            /// (`Busy`) a `WARN`, anything the caller or a person must fix
            /// an `INFO`.
            #[allow(dead_code)] // read by the `tracing` feature's log
            #[must_use]
            pub(crate) const fn log_level(self) -> LogLevel {
                match self { $($name::$variant => LogLevel::$log,)* }
            }

            /// The problem details `title` of a class, for a problem whose
            /// `type` is not `about:blank` (or whose status has no reason
            /// phrase).
            #[allow(dead_code)] // read by the `http` feature's renderer
            #[must_use]
            pub(crate) const fn title(self) -> &'static str {
                match self { $($name::$variant => $title,)* }
            }

            /// What a model reading a failure of this class should do when
            /// the envelope says nothing more precise (no corrected
            /// arguments, repeat, check or tool to call): the lead of the
            /// text a model reads, in the imperative.
            #[must_use]
            pub(crate) const fn act(self) -> &'static str {
                match self { $($name::$variant => $act,)* }
            }

            /// The next step the library mappings give a failure of this
            /// class that carries nothing better (`Busy`: wait the retry
            /// hint, then repeat), if the class has one.
            #[must_use]
            pub(crate) const fn default_step(self) -> Option<&'static str> {
                match self { $($name::$variant => step!($($step)?),)* }
            }
        }
    };
}

/// A row's optional `step`, as an `Option`.
macro_rules! step {
    () => {
        None
    };
    ($step:literal) => {
        Some($step)
    };
}

/// A row's `person`: `yes`, `no`, or `unless_tool` (not when the failure
/// names a tool).
macro_rules! person {
    (yes, $tool_named:ident) => {
        true
    };
    (no, $tool_named:ident) => {
        false
    };
    (unless_tool, $tool_named:ident) => {
        !$tool_named
    };
}

/// `yes` and `no` in the table, as booleans.
macro_rules! yes_no {
    (yes) => {
        true
    };
    (no) => {
        false
    };
}

/// The level of the operator log line for a failure (`log::record`), as
/// the class table gives it; `tracing`'s levels of the same names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LogLevel {
    /// The caller or a person must act; the server is fine.
    Info,
    /// Routine contention on the server's side.
    Warn,
    /// The server or something behind it failed.
    Error,
}

include!("classes.rs");

impl ErrorClass {
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
