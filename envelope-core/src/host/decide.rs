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

/// How many times [`next_move`] repeats one call: after the third failed
/// repeat it answers [`NextMove::Stop`].
pub const MAX_REPEATS: u32 = 3;

/// What an agent host does after a failed tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NextMove {
    /// Repeat the same call, with the same arguments, after `after`.
    Repeat {
        /// The wait: the failure's hint (`retry_after_ms`, a SEP-3313
        /// `retryNotBefore`, an HTTP `Retry-After`), else [`backoff`].
        after: Duration,
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
    /// or a call that may have taken effect and cannot be repeated
    /// safely).
    Stop,
}

/// The wait before repeat `attempt` (1 for the first repeat) when the
/// failure gives no hint: 1 s, 2 s, 4 s, ... doubling, at most 30 s.
#[must_use]
pub fn backoff(attempt: u32) -> Duration {
    let seconds = 1u64 << attempt.saturating_sub(1).min(5);
    Duration::from_secs(seconds.min(30))
}

/// The next move after `envelope`, the failure of a call of a tool that
/// behaves as `tool` declares (from its MCP annotations:
/// [`CallBehaviour::from_hints`]; `CallBehaviour::default()` when it
/// declares nothing), whose `attempt`-th repeat this would be (1 after the
/// first failure).
///
/// The first rule that holds decides:
///
/// 1. a class a person must resolve (owner `user`; `UNAUTHENTICATED`,
///    `INSUFFICIENT_PRIVILEGE`, `POLICY_DENIED`, `QUOTA_EXCEEDED`):
///    [`NextMove::AskUser`];
/// 2. near misses (`fuzzy_matches`) of a caller-owned class:
///    [`NextMove::PickNearMiss`];
/// 3. argument problems, or `INVALID_ARGUMENTS` / `SYNTAX_ERROR`:
///    [`NextMove::FixArguments`];
/// 4. a `suggested_tool` of a caller-owned class: [`NextMove::CallTool`];
/// 5. a failure a later attempt may fix, when a repeat is safe: the retry
///    rule ([`Effect::allows_repeat`]) with what the host knows (a
///    read-only tool changed nothing, an idempotent one may be repeated
///    whatever the effect), and while `attempt` is at most
///    [`MAX_REPEATS`]: [`NextMove::Repeat`] after the failure's hint, else
///    [`backoff`];
/// 6. any other caller-owned class but `CANCELLED` (a missing object, a
///    conflict, an unsupported call): [`NextMove::FixArguments`], with the
///    problems it names (usually none);
/// 7. otherwise (a server fault, a repeat that is not safe, a class this
///    crate does not know): [`NextMove::Stop`].
///
/// A `retryable` envelope may be repeated: its writer applied the retry
/// rule knowing what the call did. One that is not, but may have changed
/// something (effect `unknown`, `partial`, so its writer could not call it
/// retryable), may be repeated when its class's failures may pass
/// ([`ErrorClass::is_retryable`]) and the host knows the tool is read-only
/// or idempotent. A write whose effect is unknown is never repeated
/// otherwise.
#[must_use]
pub fn next_move(envelope: &ErrorEnvelope, tool: CallBehaviour, attempt: u32) -> NextMove {
    let class = envelope.error_class;
    let owner = class.owner();
    let caller = owner == Owner::Caller;
    if owner == Owner::User
        || matches!(
            class,
            ErrorClass::Unauthenticated
                | ErrorClass::InsufficientPrivilege
                | ErrorClass::PolicyDenied
                | ErrorClass::QuotaExceeded
        )
    {
        return NextMove::AskUser;
    }
    if caller && !envelope.fuzzy_matches.is_empty() {
        return NextMove::PickNearMiss {
            names: envelope.fuzzy_matches.clone(),
        };
    }
    if !envelope.argument_errors.is_empty()
        || matches!(
            class,
            ErrorClass::InvalidArguments | ErrorClass::SyntaxError
        )
    {
        return NextMove::FixArguments {
            problems: envelope.argument_errors.clone(),
        };
    }
    if caller && let Some(tool) = &envelope.suggested_tool {
        return NextMove::CallTool { tool: tool.clone() };
    }
    if repeat_is_safe(envelope, tool) {
        if attempt > MAX_REPEATS {
            return NextMove::Stop;
        }
        let after = envelope
            .retry_after_ms
            .map_or_else(|| backoff(attempt), Duration::from_millis);
        return NextMove::Repeat { after };
    }
    if caller && class != ErrorClass::Cancelled {
        return NextMove::FixArguments {
            problems: envelope.argument_errors.clone(),
        };
    }
    NextMove::Stop
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
        .idempotent_if(tool.idempotent || tool.read_only)
        .retryable(effect)
}

/// The text to show the model for `envelope` and the host's `next` move,
/// one paragraph: the class and message, what the host did or wants the
/// model to do, and the failure's first next step when the model is to act
/// on it (not for a repeat, which the host makes; for a stop only the step
/// that says to check a call that may have taken effect). For example:
///
/// ```text
/// OBJECT_NOT_FOUND: table EMPLOYES does not exist. Did you mean: EMPLOYEES? Call the tool again with one of these.
/// TIMEOUT: the operation timed out. The host repeats the same call in 2000 ms.
/// ```
#[must_use]
pub fn model_text(envelope: &ErrorEnvelope, next: &NextMove) -> String {
    let mut text = format!("{}: {}", envelope.error_class, envelope.message);
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
        NextMove::FixArguments { problems } => {
            // The problems the message does not already list.
            for problem in problems.iter().take(5) {
                let line = problem.to_string();
                if !text.contains(&line) {
                    let _ = write!(text, " {line}.");
                }
            }
            text.push_str(" Change the call, then make it again.");
        }
        NextMove::CallTool { tool } => {
            let _ = write!(text, " Call {tool} first.");
        }
        NextMove::PickNearMiss { names } => {
            let _ = write!(
                text,
                " Did you mean: {}? Call the tool again with one of these.",
                names.join(", ")
            );
        }
        NextMove::AskUser => {
            text.push_str(" Ask the user to resolve this; do not repeat the call.")
        }
        NextMove::Stop => {
            text.push_str(" Do not repeat the call; report the failure");
            if let Some(id) = &envelope.correlation_id {
                let _ = write!(text, " (correlation id {id})");
            }
            text.push('.');
        }
    }
    // The failure's own first step, when it is for the model: none for a
    // repeat (the host makes it), and for a stop only the check of a call
    // that may have taken effect.
    let step = match next {
        NextMove::Repeat { .. } => None,
        NextMove::Stop => envelope
            .next_steps
            .iter()
            .find(|step| Effect::is_check_step(step)),
        _ => envelope.next_steps.first(),
    };
    if let Some(step) = step.filter(|step| !text.contains(step.as_str())) {
        let _ = write!(text, " Hint: {step}.");
    }
    text
}
