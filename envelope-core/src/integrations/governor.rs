//! governor 0.10 (feature `governor`): a `governor::RateLimiter` is a
//! [`RateLimiter`], so a server enforces a rate limit with a well-kept
//! GCRA limiter and no glue. The hook itself ([`crate::rate_limit`],
//! `rmcp::Router::with_rate_limit`, `axum::rate_limited`) needs no
//! feature; this one adds governor 0.10 without its default features
//! (`std` and `quanta` only: no `dashmap`, no `jitter`): 28 crates over
//! envelope-core alone, 18 over an rmcp and axum server's
//! (`cargo tree -e normal,build`; `parking_lot`, `hashbrown`, `quanta` and
//! their dependencies). It builds on Rust 1.88, as envelope-core does.
//!
//! | limiter | budget |
//! |---|---|
//! | direct (`governor::RateLimiter::direct(quota)`) | one for every call the limiter guards |
//! | keyed by `String` (`governor::RateLimiter::keyed(quota)`) | one per operation: per tool (MCP), per method and route (HTTP) |
//! | any other key (per principal, per principal and tool) | [`check_key`] in a closure |
//!
//! A refusal is [`Limited`]: the wait governor computes (rounded up to
//! the millisecond), the quota's burst size as `limit`, none remaining,
//! and the time the whole burst takes to replenish as the window.
//!
//! ```
//! # extern crate envelope_core as envelope;
//! use std::num::NonZeroU32;
//!
//! use envelope::rate_limit::RateLimiter;
//! use governor::Quota;
//!
//! let two = Quota::per_minute(NonZeroU32::new(2).unwrap());
//! let per_tool = governor::RateLimiter::keyed(two);
//! assert!(per_tool.check("send_mail", None).is_ok());
//! assert!(per_tool.check("send_mail", None).is_ok());
//! let refused = per_tool.check("send_mail", None).unwrap_err();
//! assert_eq!((refused.limit, refused.remaining, refused.window_ms), (2, 0, Some(60_000)));
//! assert!(refused.retry_after_ms > 29_000 && refused.retry_after_ms <= 30_000);
//! // Another tool has a budget of its own.
//! assert!(per_tool.check("get_note", None).is_ok());
//!
//! // Per principal: a keyed limiter of its own, asked in a closure (every
//! // call without a principal shares the budget of the key "").
//! let per_client = governor::RateLimiter::keyed(two);
//! let limiter = move |_tool: &str, principal: Option<&str>| {
//!     envelope::governor::check_key(&per_client, &principal.unwrap_or_default().to_owned())
//! };
//! # let _ = limiter.check("send_mail", Some("alice"));
//! ```

use std::hash::Hash;
use std::time::Duration;

use governor::clock::{Clock, Reference};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::KeyedStateStore;
use governor::state::{DirectStateStore, NotKeyed};
use governor::NotUntil;

use crate::call::rate_limit::{Limited, RateLimiter};

/// No error type of governor's reaches a source chain.
pub(crate) fn find<'e>(
    _: &'e (dyn std::error::Error + 'static),
) -> Option<&'e dyn crate::Envelope> {
    None
}

/// One budget for every call the limiter guards.
impl<S, C> RateLimiter for governor::RateLimiter<NotKeyed, S, C, NoOpMiddleware<C::Instant>>
where
    S: DirectStateStore + Send + Sync,
    C: Clock + Send + Sync,
{
    fn check(&self, _operation: &str, _principal: Option<&str>) -> Result<(), Limited> {
        governor::RateLimiter::check(self).map_err(|refusal| limited(&refusal, self.clock().now()))
    }
}

/// One budget per operation: per tool, or per method and route.
impl<S, C> RateLimiter for governor::RateLimiter<String, S, C, NoOpMiddleware<C::Instant>>
where
    S: KeyedStateStore<String> + Send + Sync,
    C: Clock + Send + Sync,
{
    fn check(&self, operation: &str, _principal: Option<&str>) -> Result<(), Limited> {
        check_key(self, &operation.to_owned())
    }
}

/// Asks a keyed governor limiter about `key`: `Ok` when admitted, else
/// the refusal as [`Limited`]. For a limiter keyed by something other
/// than the operation (the principal, a pair), inside a closure that is
/// the [`RateLimiter`].
///
/// # Errors
///
/// The refusal: the wait until `key` is admitted again and the quota.
pub fn check_key<K, S, C>(
    limiter: &governor::RateLimiter<K, S, C, NoOpMiddleware<C::Instant>>,
    key: &K,
) -> Result<(), Limited>
where
    K: Hash + Eq + Clone,
    S: KeyedStateStore<K>,
    C: Clock,
{
    limiter
        .check_key(key)
        .map_err(|refusal| limited(&refusal, limiter.clock().now()))
}

/// governor's refusal, as of `now`.
fn limited<P: Reference>(refusal: &NotUntil<P>, now: P) -> Limited {
    let quota = refusal.quota();
    Limited::new(ceil_ms(refusal.wait_time_from(now)), u64::from(quota.burst_size().get()))
        .with_window_ms(ceil_ms(quota.burst_size_replenished_in()))
}

/// A duration in milliseconds, rounded up so a wait never ends early.
fn ceil_ms(wait: Duration) -> u64 {
    u64::try_from(wait.as_nanos().div_ceil(1_000_000)).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU32;
    use std::sync::Arc;

    use governor::Quota;
    use governor::clock::FakeRelativeClock;

    use super::*;

    #[test]
    fn a_refusal_carries_the_exact_wait_and_quota() {
        let clock = FakeRelativeClock::default();
        let quota = Quota::per_second(NonZeroU32::new(4).unwrap());
        let limiter = governor::RateLimiter::direct_with_clock(quota, clock.clone());
        for _ in 0..4 {
            assert_eq!(RateLimiter::check(&limiter, "t", None), Ok(()));
        }
        let refused = RateLimiter::check(&limiter, "t", None).unwrap_err();
        assert_eq!(refused, Limited::new(250, 4).with_window_ms(1000));
        clock.advance(Duration::from_millis(100));
        let refused = RateLimiter::check(&limiter, "t", None).unwrap_err();
        assert_eq!(refused.retry_after_ms, 150);
        clock.advance(Duration::from_millis(150));
        assert_eq!(RateLimiter::check(&limiter, "t", None), Ok(()));
    }

    #[test]
    fn keyed_by_operation_and_shared() {
        let quota = Quota::per_hour(NonZeroU32::new(1).unwrap());
        let limiter: Arc<dyn RateLimiter> = Arc::new(governor::RateLimiter::keyed(quota));
        assert_eq!(limiter.check("a", Some("alice")), Ok(()));
        assert_eq!(limiter.check("b", Some("alice")), Ok(()));
        let refused = limiter.check("a", Some("bob")).unwrap_err();
        assert_eq!((refused.limit, refused.window_ms), (1, Some(3_600_000)));
        assert_eq!(ceil_ms(Duration::from_nanos(1)), 1);
        assert_eq!(ceil_ms(Duration::ZERO), 0);
    }
}
