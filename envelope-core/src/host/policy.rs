//! What a host honours: [`RetryPolicy`] bounds every wait and repeat of
//! one call, [`Retries`] adds full jitter and the budget of an agent run.

use std::time::Duration;

use crate::model::envelope::ErrorEnvelope;
use crate::model::next_move::{Attempt, NextMove};

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
    /// the move is [`NextMove::Exhausted`]. `0` never repeats.
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
    /// [`NextMove::Exhausted`].
    #[must_use]
    pub const fn with_run_repeats(mut self, repeats: u32) -> Self {
        self.run_repeats = repeats;
        self
    }

    /// How long one agent run ([`Retries`]) waits in all, over all its
    /// repeats; a repeat whose wait would pass it is not made
    /// ([`NextMove::Exhausted`]).
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

    /// The next move after `envelope`, the failure of the `number`-th
    /// attempt (1 for the first call) of a call known as `attempt` says
    /// (a [`CallBehaviour`](crate::CallBehaviour) converts), within this
    /// policy and without jitter: the one decision ([`NextMove::of`]), whose
    /// [`NextMove::Repeat`] this policy bounds (see [`next_move`]). A host
    /// that makes many calls uses [`Retries`], which jitters the backoff
    /// and keeps the run's budget.
    #[must_use]
    pub fn next_move(
        &self,
        envelope: &ErrorEnvelope,
        attempt: impl Into<Attempt>,
        number: u32,
    ) -> NextMove {
        match NextMove::of(envelope, &attempt.into()) {
            NextMove::Repeat { .. } => self.repeat(envelope, number, |ceiling| ceiling),
            next => next,
        }
    }

    /// The move for a repeat the failure allows: [`NextMove::Exhausted`]
    /// past the repeats of one call, [`NextMove::Postpone`] for a hint
    /// beyond the longest wait, else a repeat after the hint or after
    /// `jitter` of the backoff.
    fn repeat(
        &self,
        envelope: &ErrorEnvelope,
        number: u32,
        jitter: impl FnOnce(Duration) -> Duration,
    ) -> NextMove {
        if number > self.max_repeats {
            return NextMove::Exhausted { attempts: number };
        }
        match envelope.retry_after_ms.map(Duration::from_millis) {
            Some(asked) if asked > self.max_wait => NextMove::Postpone { asked },
            Some(after) => NextMove::Repeat { after },
            None => NextMove::Repeat {
                after: jitter(self.backoff(number)),
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

    /// The next move after `envelope`, the failure of the `number`-th
    /// attempt (1 for the first call) of a call known as `attempt` says:
    /// [`RetryPolicy::next_move`], with jitter and the run's budget (a
    /// repeat past it is [`NextMove::Exhausted`]). A [`NextMove::Repeat`]
    /// returned is counted as made: the host is to wait it, then repeat.
    pub fn next_move(
        &mut self,
        envelope: &ErrorEnvelope,
        attempt: impl Into<Attempt>,
        number: u32,
    ) -> NextMove {
        let next = NextMove::of(envelope, &attempt.into());
        if !next.is_repeat() {
            return next;
        }
        let random = &mut self.random;
        let next = self.policy.repeat(envelope, number, |ceiling| {
            // Whole milliseconds, 0 to the ceiling inclusive.
            let ceiling = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
            Duration::from_millis(random.u64(0..=ceiling))
        });
        let NextMove::Repeat { after } = next else {
            return next;
        };
        let waited = self.waited.saturating_add(after);
        if self.repeats >= self.policy.run_repeats || waited > self.policy.run_wait {
            return NextMove::Exhausted { attempts: number };
        }
        self.repeats += 1;
        self.waited = waited;
        NextMove::Repeat { after }
    }
}

/// The next move after `envelope`, the failure of the `number`-th attempt
/// (1 for the first call) of a call known as `attempt` says (a
/// [`CallBehaviour`](crate::CallBehaviour) from the tool's MCP annotations,
/// [`CallBehaviour::from_hints`](crate::CallBehaviour::from_hints), converts;
/// `CallBehaviour::default()` when it declares nothing), under
/// [`RetryPolicy::default()`] and without jitter. A host that makes many
/// calls keeps a [`Retries`] per agent run instead: the same rules, with
/// jitter and a budget for the run.
///
/// The move is the one decision's, [`NextMove::of`] (its docs list the
/// rules, the guide tables the moves of each class), so the host acts on
/// what the server's text tells the model. The policy changes only a
/// [`NextMove::Repeat`]: it waits the failure's hint, else the backoff
/// ([`RetryPolicy::backoff`]); a hint beyond the longest wait is
/// [`NextMove::Postpone`]; past the repeats of one call (or the run's
/// budget, with [`Retries`]) it is [`NextMove::Exhausted`].
#[must_use]
pub fn next_move(envelope: &ErrorEnvelope, attempt: impl Into<Attempt>, number: u32) -> NextMove {
    RetryPolicy::DEFAULT.next_move(envelope, attempt, number)
}
