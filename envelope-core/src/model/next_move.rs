//! [`NextMove`]: the one decision of what a failure asks for next, and
//! [`Attempt`], what is known of the failed call besides its envelope.
//!
//! Everything that tells or acts renders this one move: the text a model
//! reads (its first and last sentence, `render/text.rs`), the next call's
//! arguments (`args/next_call.rs`), the host's move and its `model_text`.
//! The host adds only its policy (bounded waits, jitter, budgets).

use std::time::Duration;

use serde_json::Value;

use crate::model::argument_error::{
    ArgumentError, CORRECTED_ARGUMENTS, SUGGESTED_ARGUMENTS, offered,
};
use crate::model::behaviour::CallBehaviour;
use crate::model::class::Owner;
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;
use crate::model::retry::RetryInputs;

/// What is known of a failed call besides its envelope: what the tool
/// declares of itself, and whether the answer is a keyed call's stored
/// answer sent again. `Attempt::default()` knows nothing more: the
/// decision a server's own text renders, whose envelope already carries
/// the call's behaviour (the call context applied it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Attempt {
    /// The tool's declared behaviour (MCP `ToolAnnotations`, the HTTP
    /// method, whether the call carried an idempotency key).
    pub behaviour: CallBehaviour,
    /// The answer is the stored answer of the first call with the same
    /// idempotency key (MCP `_meta.idempotentReplay`, HTTP
    /// `Idempotent-Replayed: true`): a repeat with that key gets it again.
    pub replayed: bool,
}

impl Attempt {
    /// A call of a tool that behaves as `behaviour` declares.
    #[must_use]
    pub const fn of(behaviour: CallBehaviour) -> Self {
        Attempt {
            behaviour,
            replayed: false,
        }
    }

    /// This attempt, marked as a stored answer sent again when `replayed`
    /// is true.
    #[must_use]
    pub const fn replayed_if(mut self, replayed: bool) -> Self {
        self.replayed |= replayed;
        self
    }
}

impl From<CallBehaviour> for Attempt {
    /// A call of a tool that behaves as declared ([`Attempt::of`]).
    fn from(behaviour: CallBehaviour) -> Self {
        Attempt::of(behaviour)
    }
}

/// What to do after a failed tool call: the one decision
/// ([`NextMove::of`]), which the text a model reads leads and ends with,
/// and which an agent host acts on (`host::next_move` adds its policy).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NextMove {
    /// A person must act (the class's `person_acts`): sign in, grant a
    /// permission, approve, raise a quota, say whether a cancelled call
    /// should go on. The host asks the user, not the model.
    AskUser,
    /// Call the same tool again with changed arguments: the failure names
    /// the problems in them, or the corrected arguments whole.
    FixArguments {
        /// The argument problems the failure names (empty only when it
        /// gives the corrected arguments alone).
        problems: Vec<ArgumentError>,
        /// The corrected arguments whole, when the server computed them
        /// (`details.corrected_arguments`: a JSON object of at most 1 KiB,
        /// the failed call's arguments with the fix applied).
        arguments: Option<Value>,
    },
    /// The call named something that does not exist; one of these names
    /// is probably meant.
    PickNearMiss {
        /// The near misses, best first.
        names: Vec<String>,
    },
    /// Repeat the same call, with the same arguments (and idempotency
    /// key), after `after`.
    Repeat {
        /// The wait: the failure's hint (`retry_after_ms`, a SEP-3313
        /// `retryNotBefore`, an HTTP `Retry-After`); zero in
        /// [`NextMove::of`] when the failure gives none, where a host
        /// waits its own backoff (`host::RetryPolicy::backoff`, jittered
        /// by `host::Retries`).
        after: Duration,
    },
    /// The call may pass later, but only after a wait longer than the
    /// host's policy allows (a host's move, never [`NextMove::of`]'s): the
    /// host does not repeat it now; the model tells the user when it can
    /// be tried again, or goes on without it.
    Postpone {
        /// What the failure asked to wait; not a wait the host makes.
        asked: Duration,
    },
    /// Do not repeat: the call may have taken effect (effect `unknown` or
    /// `partial`) and a repeat is not known to be safe. Check with `tool`
    /// whether it did; without one, tell the user.
    Check {
        /// The tool that tells whether the call took effect (the
        /// failure's `suggested_tool`).
        tool: Option<String>,
        /// The arguments to call it with, when the failure gives them
        /// (`details.suggested_arguments`, at most 1 KiB of JSON).
        arguments: Option<Value>,
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
        arguments: Option<Value>,
    },
    /// The answer is the stored answer of the first call with this
    /// idempotency key, which a repeat with the key gets again: check with
    /// `tool` whether it took effect, or make a new call (a new key) to
    /// run it again.
    Replayed {
        /// The tool to check with (the failure's `suggested_tool`).
        tool: Option<String>,
        /// The arguments to call it with, when the failure gives them.
        arguments: Option<Value>,
    },
    /// A repeat the failure allows, which the host's policy no longer does
    /// (a host's move, never [`NextMove::of`]'s): the call was made
    /// `attempts` times, the repeats of one call or of the agent run are
    /// used up. Do not repeat it now; report the failure.
    Exhausted {
        /// How many times the call was made, the first included.
        attempts: u32,
    },
    /// Do not repeat the call as it was made: it asked for what cannot be
    /// (an object that does not exist, an option the tool does not
    /// support, a tool the server has turned off, a conflict) and the
    /// failure names no argument to fix. The class's sentence says what to
    /// change: the arguments, the tool, or going on without it. The host
    /// hands it to the model, as it does [`NextMove::FixArguments`].
    ChangeCall,
    /// Do not repeat the call: report the failure (a fault of the server
    /// that changed nothing, a class this crate does not know).
    Stop,
}

impl NextMove {
    /// The one decision: the next move after `envelope`, for a call known
    /// as `attempt` says. The first rule that holds decides:
    ///
    /// 1. a class a person must act on
    ///    ([`ErrorClass::person_acts`](crate::ErrorClass::person_acts)):
    ///    [`NextMove::AskUser`];
    /// 2. corrected arguments (`details.corrected_arguments`) or argument
    ///    problems: [`NextMove::FixArguments`];
    /// 3. a repeat that is safe and may pass (below): on a stored answer
    ///    sent again, [`NextMove::Replayed`]; else [`NextMove::Repeat`]
    ///    after the failure's hint (zero without one);
    /// 4. a failure of the server's side that may have taken effect
    ///    (effect `unknown` or `partial`, and the tool not declared
    ///    read-only): [`NextMove::Check`], with the `suggested_tool` to
    ///    check with;
    /// 5. near misses of a caller's mistake: [`NextMove::PickNearMiss`];
    /// 6. a `suggested_tool`: [`NextMove::CallTool`];
    /// 7. any other caller-owned class (a missing object, a conflict, an
    ///    unsupported option or tool): [`NextMove::ChangeCall`], the
    ///    class's sentence saying what to change;
    /// 8. otherwise [`NextMove::Stop`].
    ///
    /// A repeat is safe and may pass when the envelope is `retryable` (its
    /// writer applied the retry rule knowing what the call did), or when
    /// its class's failures may pass
    /// ([`ErrorClass::is_retryable`](crate::ErrorClass::is_retryable)), it
    /// may have taken effect, and `attempt` declares the tool read-only,
    /// idempotent or keyed (the retry rule,
    /// [`Effect::allows_repeat`](crate::Effect::allows_repeat), with what
    /// the host knows). A write whose effect is unknown is never repeated
    /// otherwise.
    ///
    /// The moves each class can give are tabled in the guide's chapter on
    /// the host (generated from this function by a test).
    #[must_use]
    pub fn of(envelope: &ErrorEnvelope, attempt: &Attempt) -> NextMove {
        let class = envelope.error_class;
        let caller = class.owner() == Owner::Caller;
        // The suggested tool and, only with one, the arguments to call it with.
        let tool = envelope.suggested_tool.as_ref();
        let arguments = tool.and(offered(&envelope.details, SUGGESTED_ARGUMENTS));
        let corrected = offered(&envelope.details, CORRECTED_ARGUMENTS);
        if class.person_acts(tool.is_some()) {
            NextMove::AskUser
        } else if corrected.is_some() || !envelope.argument_errors.is_empty() {
            NextMove::FixArguments {
                problems: envelope.argument_errors.clone(),
                arguments: corrected.cloned(),
            }
        } else if repeat_is_safe(envelope, attempt.behaviour) {
            if attempt.replayed {
                NextMove::Replayed {
                    tool: tool.cloned(),
                    arguments: arguments.cloned(),
                }
            } else {
                NextMove::Repeat {
                    after: Duration::from_millis(envelope.retry_after_ms.unwrap_or(0)),
                }
            }
        } else if envelope.effect != Effect::Nothing && !attempt.behaviour.read_only && !caller {
            NextMove::Check {
                tool: tool.cloned(),
                arguments: arguments.cloned(),
            }
        } else if caller && !envelope.fuzzy_matches.is_empty() {
            NextMove::PickNearMiss {
                names: envelope.fuzzy_matches.clone(),
            }
        } else if let Some(tool) = tool {
            NextMove::CallTool {
                tool: tool.clone(),
                arguments: arguments.cloned(),
            }
        } else if caller {
            NextMove::ChangeCall
        } else {
            NextMove::Stop
        }
    }

    /// Whether this move asks for the same call again ([`NextMove::Repeat`]).
    #[must_use]
    pub const fn is_repeat(&self) -> bool {
        matches!(self, NextMove::Repeat { .. })
    }
}

/// Whether repeating the same call is worth it and safe (see
/// [`NextMove::of`]).
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
