//! [`next_move`]: one decision from a failure and what the host knows
//! about the tool.

use std::time::Duration;

use crate::call::CallBehaviour;
use crate::model::argument_error::{ArgumentError, SUGGESTED_ARGUMENTS, offered};
use crate::model::class::{ErrorClass, Owner};
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;
use crate::model::retry::RetryInputs;

use super::bound::{MAX_MODEL_TEXT_CHARS, cut_to};
use crate::render::text::{self, Lead};

/// What an agent host does after a failed tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NextMove {
    /// Repeat the same call, with the same arguments, after `after`
    /// (within the [`RetryPolicy`](crate::host::RetryPolicy)'s longest wait).
    Repeat {
        /// The wait: the failure's hint (`retry_after_ms`, a SEP-3313
        /// `retryNotBefore`, an HTTP `Retry-After`), else the policy's
        /// backoff ([`RetryPolicy::backoff`](crate::host::RetryPolicy::backoff); jittered by [`Retries`](crate::host::Retries)).
        after: Duration,
    },
    /// The call may pass later, but only after a wait longer than the
    /// [`RetryPolicy`](crate::host::RetryPolicy)'s longest: the host does not wait and does not
    /// repeat it now; the model tells the user when it can be tried again,
    /// or goes on without it.
    Postpone {
        /// What the failure asked to wait; not a wait the host makes.
        asked: Duration,
    },
    /// Let the model change the call: the arguments were wrong, or the
    /// call asked for what cannot be (a missing object, a conflict).
    FixArguments {
        /// The argument problems the failure names; empty when it names
        /// none and its message says what is wrong.
        problems: Vec<ArgumentError>,
    },
    /// Call another tool first (the failure's `suggested_tool`), then
    /// decide again.
    CallTool {
        /// The tool's name.
        tool: String,
        /// The arguments to call it with, when the failure gives them
        /// (`details.suggested_arguments`: a JSON object of at most 1 KiB,
        /// which the server took from the failure's details and the failed
        /// call's arguments); `None` leaves them to the model.
        arguments: Option<serde_json::Value>,
    },
    /// The call named something that does not exist; one of these names
    /// is probably meant.
    PickNearMiss {
        /// The near misses, best first.
        names: Vec<String>,
    },
    /// A person must act: sign in, grant a permission, approve, raise a
    /// quota. The host asks the user, not the model.
    AskUser,
    /// Do not repeat the call: report the failure (a fault of the server,
    /// a call that may have taken effect and cannot be repeated safely, or
    /// repeats the policy no longer allows).
    Stop,
}

/// The decision before the policy: a move, or a repeat the failure allows
/// (after its hint, if it gives one), which the policy bounds.
pub(super) enum Decision {
    Repeat { hint: Option<Duration> },
    Move(NextMove),
}

/// Rules 1 to 8 of [`next_move`](crate::host::next_move), before the policy.
pub(super) fn decide(envelope: &ErrorEnvelope, tool: CallBehaviour) -> Decision {
    let class = envelope.error_class;
    let owner = class.owner();
    let caller = owner == Owner::Caller;
    let next = if owner == Owner::User
        || matches!(
            class,
            ErrorClass::Unauthenticated
                | ErrorClass::InsufficientPrivilege
                | ErrorClass::PolicyDenied
                | ErrorClass::QuotaExceeded
        ) {
        NextMove::AskUser
    } else if caller && !envelope.fuzzy_matches.is_empty() {
        NextMove::PickNearMiss {
            names: envelope.fuzzy_matches.clone(),
        }
    } else if !envelope.argument_errors.is_empty()
        || matches!(
            class,
            ErrorClass::InvalidArguments | ErrorClass::SyntaxError
        )
    {
        NextMove::FixArguments {
            problems: envelope.argument_errors.clone(),
        }
    } else if let Some(tool) = envelope.suggested_tool.as_ref().filter(|_| caller) {
        call_tool(envelope, tool)
    } else if repeat_is_safe(envelope, tool) {
        return Decision::Repeat {
            hint: envelope.retry_after_ms.map(Duration::from_millis),
        };
    } else if let Some(tool) = envelope
        .suggested_tool
        .as_ref()
        .filter(|_| envelope.effect != Effect::Nothing)
    {
        // The tool to check with whether the call took effect.
        call_tool(envelope, tool)
    } else if caller && class != ErrorClass::Cancelled {
        NextMove::FixArguments {
            problems: envelope.argument_errors.clone(),
        }
    } else {
        NextMove::Stop
    };
    Decision::Move(next)
}

/// The move to call `tool`, with the envelope's arguments for it.
fn call_tool(envelope: &ErrorEnvelope, tool: &str) -> NextMove {
    NextMove::CallTool {
        tool: tool.to_owned(),
        arguments: offered(&envelope.details, SUGGESTED_ARGUMENTS).cloned(),
    }
}

/// Whether repeating the same call is worth it and safe. A `retryable`
/// envelope is: its writer applied the retry rule, knowing what the call
/// did.
fn repeat_is_safe(envelope: &ErrorEnvelope, tool: CallBehaviour) -> bool {
    if envelope.retryable {
        return true;
    }
    let effect = if tool.read_only {
        Effect::Nothing
    } else {
        envelope.effect
    };
    let may_succeed = envelope.effect != Effect::Nothing && envelope.error_class.is_retryable();
    RetryInputs::may_succeed(may_succeed)
        .idempotent_if(tool.idempotent || tool.read_only || tool.keyed)
        .retryable(effect)
}

/// The text to show the model for `envelope` and the host's `next` move,
/// in the form a server of this crate sends: the envelope's compact JSON
/// on the first line, then its text (its `Display`) with the move as the
/// first and the last sentence, an instruction to the model. The JSON is
/// left out when the move is not the one the envelope's own text leads
/// with (a host that stops repeating a `retryable` failure, waits its own
/// backoff, or names other arguments), so the facts never contradict the
/// instruction. For example:
///
/// ```text
/// {"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table EMPLOYES does not exist","fuzzy_matches":["EMPLOYEES","EMPLOYERS"],"category":"NotFound"}
/// Did you mean "EMPLOYEES" or "EMPLOYERS"? Call again with that name in place of the one you sent.
/// OBJECT_NOT_FOUND: table EMPLOYES does not exist
/// Did you mean "EMPLOYEES" or "EMPLOYERS"? Call again with that name in place of the one you sent.
/// ```
///
/// ```text
/// {"isError":true,"error_class":"TIMEOUT","message":"the operation timed out","retry_after_ms":2000,"category":"Technical","retryable":true,"effect":"unknown"}
/// Wait 2000 ms, then repeat the same call unchanged.
/// TIMEOUT: the operation timed out
/// Wait 2000 ms, then repeat the same call unchanged.
/// ```
///
/// The envelope's parts are bounded as the host reads them (see
/// [`read_tool_result`](crate::host::read_tool_result); arguments of a
/// next call only up to 1 KiB of JSON); the text is cut to
/// [`MAX_MODEL_TEXT_CHARS`] characters, and the JSON left out when the two
/// together would be longer.
#[must_use]
pub fn model_text(envelope: &ErrorEnvelope, next: &NextMove) -> String {
    let wait;
    let lead = match next {
        NextMove::Repeat { after } => {
            Lead::Wait(u64::try_from(after.as_millis()).unwrap_or(u64::MAX))
        }
        NextMove::Postpone { asked } => {
            wait = human(*asked);
            Lead::Postpone(&wait)
        }
        NextMove::FixArguments { .. } => match Lead::of(envelope) {
            lead @ (Lead::CallWith(_) | Lead::FixArguments) => lead,
            _ => Lead::Class,
        },
        NextMove::CallTool { tool, arguments }
            if envelope.effect != Effect::Nothing && !caller(envelope) =>
        {
            Lead::Check {
                tool: Some(tool),
                arguments: arguments.as_ref(),
            }
        }
        NextMove::CallTool { tool, arguments } => Lead::CallTool {
            tool,
            arguments: arguments.as_ref(),
        },
        // A near miss the server put in place of the value sent: the call.
        NextMove::PickNearMiss { names } => match Lead::of(envelope) {
            lead @ Lead::CallWith(_) => lead,
            _ => Lead::NearMiss(names),
        },
        NextMove::Stop if envelope.effect != Effect::Nothing => Lead::Check {
            tool: None,
            arguments: None,
        },
        // The class's own sentence when it already says not to repeat (and
        // who acts: "ask the user to sign in again").
        NextMove::AskUser | NextMove::Stop if text::says_no_repeat(envelope.error_class.act()) => {
            Lead::Class
        }
        NextMove::AskUser => Lead::AskUser,
        NextMove::Stop => Lead::Stop,
    };
    let text = cut_to(&text::to_string(envelope, &lead), MAX_MODEL_TEXT_CHARS);
    // The facts first and the instruction last, as a server of this crate
    // sends them (`render::text::blocks`), when the host does what the
    // failure asks (a JSON that says "retryable" before a host's "do not
    // repeat" would contradict it), and when both fit.
    if lead != Lead::of(envelope) {
        return text;
    }
    let json = envelope.json_string();
    if json.chars().count() + 1 + text.chars().count() <= MAX_MODEL_TEXT_CHARS {
        text::join(&json, &text)
    } else {
        text
    }
}

/// Whether the caller owns the envelope's class.
fn caller(envelope: &ErrorEnvelope) -> bool {
    envelope.error_class.owner() == Owner::Caller
}

/// A wait as a person says it, rounded down: `900 ms`, `45 s`, `12 min`,
/// `5 h`, `3 days`.
fn human(wait: Duration) -> String {
    let seconds = wait.as_secs();
    match seconds {
        0 => format!("{} ms", wait.as_millis()),
        1..120 => format!("{seconds} s"),
        120..7200 => format!("{} min", seconds / 60),
        7200..172_800 => format!("{} h", seconds / 3600),
        _ => format!("{} days", seconds / 86_400),
    }
}
