//! [`next_move`]: one decision from a failure and what the host knows
//! about the tool.

use std::fmt::Write as _;
use std::time::Duration;

use crate::call::CallBehaviour;
use crate::model::argument_error::ArgumentError;
use crate::model::class::{ErrorClass, Owner};
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;
use crate::model::retry::RetryInputs;

use super::bound::{MAX_ITEMS, MAX_MODEL_TEXT_CHARS, MAX_NAME_CHARS, MAX_STEP_CHARS, cut, cut_to};

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

/// Rules 1 to 7 of [`next_move`](crate::host::next_move), before the policy.
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
        NextMove::CallTool { tool: tool.clone() }
    } else if repeat_is_safe(envelope, tool) {
        return Decision::Repeat {
            hint: envelope.retry_after_ms.map(Duration::from_millis),
        };
    } else if caller && class != ErrorClass::Cancelled {
        NextMove::FixArguments {
            problems: envelope.argument_errors.clone(),
        }
    } else {
        NextMove::Stop
    };
    Decision::Move(next)
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
/// one paragraph: the class and message, what the host did or wants the
/// model to do, and the failure's first next step when the model is to act
/// on it (none for a repeat or a postponed call, which the host handles;
/// for a stop the step that says to check a call that may have taken
/// effect and the first other step that does not ask for a retry). For
/// example:
///
/// ```text
/// OBJECT_NOT_FOUND: table EMPLOYES does not exist. Did you mean: EMPLOYEES? Call the tool again with one of these.
/// TIMEOUT: the operation timed out. The host repeats the same call in 2000 ms.
/// ```
///
/// Each part is cut to the host's bounds ([`MAX_TEXT_CHARS`](crate::host::MAX_TEXT_CHARS) for the
/// message, [`MAX_STEP_CHARS`] for a step or an argument problem,
/// [`MAX_NAME_CHARS`] for a name, five problems, [`MAX_ITEMS`] names), and
/// the whole to [`MAX_MODEL_TEXT_CHARS`] characters, whatever the envelope
/// holds.
#[must_use]
pub fn model_text(envelope: &ErrorEnvelope, next: &NextMove) -> String {
    let mut text = format!("{}: {}", envelope.error_class, cut(&envelope.message));
    if !text.ends_with(['.', '!', '?']) {
        text.push('.');
    }
    match next {
        NextMove::Repeat { after } => {
            let _ = write!(
                text,
                " The host repeats the same call in {} ms.",
                after.as_millis()
            );
        }
        NextMove::Postpone { asked } => {
            let _ = write!(
                text,
                " It may pass after {}, longer than the host waits: do not repeat the call now; tell the user when it can be tried again, or go on without it.",
                human(*asked)
            );
        }
        NextMove::FixArguments { problems } => {
            // The problems the message does not already list.
            for problem in problems.iter().take(5) {
                let line = cut_to(&problem.to_string(), MAX_STEP_CHARS);
                if !text.contains(&line) {
                    let _ = write!(text, " {line}.");
                }
            }
            text.push_str(" Change the call, then make it again.");
        }
        NextMove::CallTool { tool } => {
            let _ = write!(text, " Call {} first.", cut_to(tool, MAX_NAME_CHARS));
        }
        NextMove::PickNearMiss { names } => {
            let _ = write!(
                text,
                " Did you mean: {}? Call the tool again with one of these.",
                names
                    .iter()
                    .take(MAX_ITEMS)
                    .map(|name| cut_to(name, MAX_NAME_CHARS))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        NextMove::AskUser => {
            text.push_str(" Ask the user to resolve this; do not repeat the call.")
        }
        NextMove::Stop => {
            text.push_str(" Do not repeat the call; report the failure");
            if let Some(id) = &envelope.correlation_id {
                let _ = write!(text, " (correlation id {})", cut_to(id, MAX_NAME_CHARS));
            }
            text.push('.');
        }
    }
    // The failure's own steps, when they are for the model: none for a
    // repeat (the host makes it); for a stop the check of a call that may
    // have taken effect and the first step that neither checks nor asks for
    // a repeat (a SEP-3313 `agentGuidance` such as "ask an administrator");
    // else the first step.
    let steps: Vec<&String> = match next {
        NextMove::Repeat { .. } | NextMove::Postpone { .. } => Vec::new(),
        NextMove::Stop => {
            let check = envelope
                .next_steps
                .iter()
                .find(|step| Effect::is_check_step(step));
            let other = envelope
                .next_steps
                .iter()
                .find(|step| !Effect::is_check_step(step) && !asks_to_repeat(step));
            check.into_iter().chain(other).collect()
        }
        _ => envelope.next_steps.first().into_iter().collect(),
    };
    for step in steps {
        let step = cut_to(step, MAX_STEP_CHARS);
        if !text.contains(step.as_str()) {
            let _ = write!(text, " Hint: {step}.");
        }
    }
    cut_to(&text, MAX_MODEL_TEXT_CHARS)
}

/// Whether a next step asks for the call again (`retry`, `repeat`, `try
/// again`): not for a host that stops.
fn asks_to_repeat(step: &str) -> bool {
    let step = step.to_ascii_lowercase();
    ["retry", "repeat", "try again", "call again"]
        .iter()
        .any(|words| step.contains(words))
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
