//! What a host honours: [`RetryPolicy`] bounds every wait and repeat of
//! one call, [`Retries`] adds full jitter and the budget of an agent run.

use std::time::Duration;

use super::decide::{self, NextMove};
use crate::call::CallBehaviour;
use crate::model::envelope::ErrorEnvelope;

/// The limits a host puts on repeating failed tool calls. Every wait
/// [`RetryPolicy::next_move`] and [`Retries::next_move`] return is within
/// them.
///
/// | limit | default | setter |
/// |---|---|---|
/// | the longest wait honoured, a hint's or the backoff's | 5 minutes | [`with_max_wait`](Self::with_max_wait) |
/// | repeats of one call | 3 | [`with_max_repeats`](Self::with_max_repeats) |
/// | the backoff's first wait, doubled on each repeat | 1 s | [`with_backoff`](Self::with_backoff) |
/// | the backoff's longest wait | 30 s | [`with_backoff`](Self::with_backoff) |
/// | repeats in one agent run ([`Retries`]) | 10 | [`with_run_repeats`](Self::with_run_repeats) |
/// | time spent waiting in one agent run ([`Retries`]) | 10 minutes | [`with_run_wait`](Self::with_run_wait) |
/// | how long one attempt may take (the rmcp retry loop) | 2 minutes | [`with_call_timeout`](Self::with_call_timeout) |
///
/// A failure whose hint asks for more than the longest wait is not
/// repeated: the move is [`NextMove::Postpone`], with what the server
/// asked, so the model can tell the user when to try again. The draft
/// rate-limit SEP-3304 asks clients to clamp large delays and jitter
/// them; waiting hours on a server's word would stall the whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    pub(super) max_wait: Duration,
    pub(super) max_repeats: u32,
    pub(super) backoff_first: Duration,
    pub(super) backoff_max: Duration,
    pub(super) run_repeats: u32,
    pub(super) run_wait: Duration,
    pub(super) call_timeout: Option<Duration>,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl RetryPolicy {
    /// The defaults of the table above.
    pub const DEFAULT: Self = Self {
        max_wait: Duration::from_secs(5 * 60),
        max_repeats: 3,
        backoff_first: Duration::from_secs(1),
        backoff_max: Duration::from_secs(30),
        run_repeats: 10,
        run_wait: Duration::from_secs(10 * 60),
        call_timeout: Some(Duration::from_secs(2 * 60)),
    };

    /// The longest wait the host honours; a hint beyond it gives
    /// [`NextMove::Postpone`]. The backoff's longest wait is lowered to it.
    #[must_use]
    pub const fn with_max_wait(mut self, wait: Duration) -> Self {
        self.max_wait = wait;
        self
    }

    /// How many times one call is repeated; after the last repeat fails
    /// the move is [`NextMove::Stop`]. `0` never repeats.
    #[must_use]
    pub const fn with_max_repeats(mut self, repeats: u32) -> Self {
        self.max_repeats = repeats;
        self
    }

    /// The backoff of a failure without a retry hint: `first` before the
    /// first repeat, doubled for each next one, at most `max` (and at most
    /// the longest wait).
    #[must_use]
    pub const fn with_backoff(mut self, first: Duration, max: Duration) -> Self {
        self.backoff_first = first;
        self.backoff_max = max;
        self
    }

    /// How many repeats one agent run ([`Retries`]) makes over all its
    /// calls; after that every move that would repeat is
    /// [`NextMove::Stop`].
    #[must_use]
    pub const fn with_run_repeats(mut self, repeats: u32) -> Self {
        self.run_repeats = repeats;
        self
    }

    /// How long one agent run ([`Retries`]) waits in all, over all its
    /// repeats; a repeat whose wait would pass it is not made
    /// ([`NextMove::Stop`]).
    #[must_use]
    pub const fn with_run_wait(mut self, wait: Duration) -> Self {
        self.run_wait = wait;
        self
    }

    /// How long the rmcp retry loop lets one attempt run before it gives
    /// up on it (a `TIMEOUT` of effect unknown, repeated only where that is
    /// safe); `None` lets it run as long as it takes.
    #[must_use]
    pub const fn with_call_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// The longest wait honoured.
    #[must_use]
    pub const fn max_wait(&self) -> Duration {
        self.max_wait
    }

    /// How long one attempt of the rmcp retry loop may take.
    #[must_use]
    pub const fn call_timeout(&self) -> Option<Duration> {
        self.call_timeout
    }

    /// The backoff's wait before repeat `attempt` (1 for the first):
    /// the first wait doubled `attempt - 1` times, at most the backoff's
    /// longest wait and the longest wait honoured. With the defaults: 1 s,
    /// 2 s, 4 s, ..., 30 s. This is the ceiling; [`Retries`] waits a random
    /// part of it (full jitter).
    #[must_use]
    pub fn backoff(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(31);
        self.backoff_first
            .saturating_mul(1 << doublings)
            .min(self.backoff_max)
            .min(self.max_wait)
    }

    /// The next move after `envelope`, the failure of `attempt` (1 for the
    /// first call) of a tool that behaves as `tool` declares, within this
    /// policy and without jitter: a repeat waits the failure's hint, else
    /// [`RetryPolicy::backoff`]. The rules are [`next_move`]'s;
    /// a host that makes many calls uses [`Retries`], which jitters the
    /// backoff and keeps the run's budget.
    #[must_use]
    pub fn next_move(
        &self,
        envelope: &ErrorEnvelope,
        tool: CallBehaviour,
        attempt: u32,
    ) -> NextMove {
        match decide::decide(envelope, tool) {
            decide::Decision::Repeat { hint } => self.repeat(hint, attempt, |ceiling| ceiling),
            decide::Decision::Move(next) => next,
        }
    }

    /// The move for a repeat the failure allows: [`NextMove::Stop`] past
    /// the repeats of one call, [`NextMove::Postpone`] for a hint beyond
    /// the longest wait, else a repeat after the hint or after `jitter` of
    /// the backoff.
    fn repeat(
        &self,
        hint: Option<Duration>,
        attempt: u32,
        jitter: impl FnOnce(Duration) -> Duration,
    ) -> NextMove {
        if attempt > self.max_repeats {
            return NextMove::Stop;
        }
        match hint {
            Some(asked) if asked > self.max_wait => NextMove::Postpone { asked },
            Some(after) => NextMove::Repeat { after },
            None => NextMove::Repeat {
                after: jitter(self.backoff(attempt)),
            },
        }
    }
}

/// The retry state of one agent run: a [`RetryPolicy`], the repeats made
/// and the time waited so far, and the random source of the backoff's
/// jitter.
///
/// [`Retries::next_move`] is [`RetryPolicy::next_move`] with full jitter
/// (a wait drawn uniformly between zero and the backoff, as AWS's
/// "exponential backoff and jitter" does, so clients that failed together
/// do not repeat together) and with the run's budget: a repeat past the
/// run's repeats or waiting time is [`NextMove::Stop`]. A server's hint is
/// waited as given (it is a "not before", not a ceiling). Create one per
/// agent run (a conversation, a task); [`Retries::with_seed`] makes the
/// jitter reproducible, for tests.
#[derive(Debug, Clone)]
pub struct Retries {
    policy: RetryPolicy,
    repeats: u32,
    waited: Duration,
    random: fastrand::Rng,
}

impl Retries {
    /// A run under `policy`, its jitter seeded from the system's entropy.
    #[must_use]
    pub fn new(policy: RetryPolicy) -> Self {
        Self::from_rng(policy, fastrand::Rng::new())
    }

    /// A run under `policy` whose jitter is the same for every run with
    /// the same `seed`.
    #[must_use]
    pub fn with_seed(policy: RetryPolicy, seed: u64) -> Self {
        Self::from_rng(policy, fastrand::Rng::with_seed(seed))
    }

    fn from_rng(policy: RetryPolicy, random: fastrand::Rng) -> Self {
        Self {
            policy,
            repeats: 0,
            waited: Duration::ZERO,
            random,
        }
    }

    /// The run's policy.
    #[must_use]
    pub const fn policy(&self) -> &RetryPolicy {
        &self.policy
    }

    /// How many repeats the run has made ([`NextMove::Repeat`]s returned).
    #[must_use]
    pub const fn repeats(&self) -> u32 {
        self.repeats
    }

    /// How long the run has waited in all (the sum of the
    /// [`NextMove::Repeat`]s' waits returned).
    #[must_use]
    pub const fn waited(&self) -> Duration {
        self.waited
    }

    /// The next move after `envelope`, the failure of `attempt` (1 for the
    /// first call) of a tool that behaves as `tool` declares: the rules of
    /// [`next_move`] within the policy, with jitter and
    /// the run's budget. A [`NextMove::Repeat`] returned is counted as
    /// made: the host is to wait it, then repeat.
    pub fn next_move(
        &mut self,
        envelope: &ErrorEnvelope,
        tool: CallBehaviour,
        attempt: u32,
    ) -> NextMove {
        let hint = match decide::decide(envelope, tool) {
            decide::Decision::Repeat { hint } => hint,
            decide::Decision::Move(next) => return next,
        };
        let random = &mut self.random;
        let next = self.policy.repeat(hint, attempt, |ceiling| {
            // Whole milliseconds, 0 to the ceiling inclusive.
            let ceiling = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
            Duration::from_millis(random.u64(0..=ceiling))
        });
        let NextMove::Repeat { after } = next else {
            return next;
        };
        let waited = self.waited.saturating_add(after);
        if self.repeats >= self.policy.run_repeats || waited > self.policy.run_wait {
            return NextMove::Stop;
        }
        self.repeats += 1;
        self.waited = waited;
        NextMove::Repeat { after }
    }
}

/// The next move after `envelope`, the failure of a call of a tool that
/// behaves as `tool` declares (from its MCP annotations:
/// [`CallBehaviour::from_hints`]; `CallBehaviour::default()` when it
/// declares nothing), whose `attempt`-th repeat this would be (1 after the
/// first failure), under [`RetryPolicy::default()`] and without jitter
/// ([`RetryPolicy::next_move`]). A host that makes many calls keeps a
/// [`Retries`] per agent run instead: the same rules, with jitter and a
/// budget for the run.
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
/// 4. a `suggested_tool` of a caller-owned class: [`NextMove::CallTool`],
///    with the failure's `details.suggested_arguments` when it gives them;
/// 5. a failure a later attempt may fix, when a repeat is safe: the retry
///    rule ([`Effect::allows_repeat`](crate::Effect::allows_repeat)) with what the host knows (a
///    read-only tool changed nothing, an idempotent one may be repeated
///    whatever the effect). Within the policy's repeats of one call,
///    [`NextMove::Repeat`] after the failure's hint, else the backoff; a
///    hint beyond the policy's longest wait is [`NextMove::Postpone`];
///    past the repeats, [`NextMove::Stop`];
/// 6. a `suggested_tool` of a failure that may have taken effect (effect
///    `unknown` or `partial`) and cannot be repeated: [`NextMove::CallTool`],
///    the tool that tells whether it did;
/// 7. any other caller-owned class but `CANCELLED` (a missing object, a
///    conflict, an unsupported call): [`NextMove::FixArguments`], with the
///    problems it names (usually none);
/// 8. otherwise (a server fault, a repeat that is not safe, a class this
///    crate does not know): [`NextMove::Stop`].
///
/// A `retryable` envelope may be repeated: its writer applied the retry
/// rule knowing what the call did. One that is not, but may have changed
/// something (effect `unknown`, `partial`, so its writer could not call it
/// retryable), may be repeated when its class's failures may pass
/// ([`ErrorClass::is_retryable`](crate::ErrorClass::is_retryable)) and the host knows the tool is read-only
/// or idempotent. A write whose effect is unknown is never repeated
/// otherwise.
#[must_use]
pub fn next_move(envelope: &ErrorEnvelope, tool: CallBehaviour, attempt: u32) -> NextMove {
    RetryPolicy::DEFAULT.next_move(envelope, tool, attempt)
}
