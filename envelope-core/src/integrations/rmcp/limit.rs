//! A rate limit in front of a [`Router`](super::Router)'s tools (the rules
//! are [`crate::rate_limit`]'s; the draft SEP-3304's error is an opt-in).

use ::rmcp::ErrorData;
use ::rmcp::model::ErrorCode;
use ::rmcp::service::{RequestContext, RoleServer};

use crate::call::rate_limit::{JSONRPC_RATE_LIMITED, Limited};
use crate::model::class::ErrorClass;
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;
use crate::model::variant_spec::VariantSpec;

/// The [`RateLimiter`](crate::rate_limit::RateLimiter) a
/// [`Router`](super::Router) asks before each call of one of its tools,
/// by tool name, and who made the call (named from the rmcp request). Set
/// with [`Router::with_rate_limit`](super::Router::with_rate_limit):
///
/// ```text
/// use std::num::NonZeroU32;
/// use governor::Quota;
///
/// // 60 calls a minute per tool, for every client together (feature `governor`).
/// tool_router: envelope::rmcp::Router::new(Self::tool_router()).with_rate_limit(
///     RateLimit::new(governor::RateLimiter::keyed(Quota::per_minute(NonZeroU32::new(60).unwrap()))),
/// ),
/// ```
///
/// A refused call never runs (its idempotency key is not claimed): the
/// client gets a tool error result with the `RATE_LIMITED` envelope (code
/// `RATE_LIMITED`), or with [`RateLimited::Sep3304Error`](super::RateLimited)
/// the draft's JSON-RPC error `-32023` with `data` `{"retryAfterMs",
/// "limit", "remaining"}`, and the router logs it as the call's failure.
pub type RateLimit = crate::call::rate_limit::RateLimit<RequestContext<RoleServer>>;

/// The failure every tool of a rate-limited router can get, for its
/// declared contract.
pub(super) const REFUSED: VariantSpec = VariantSpec::new("RateLimited")
    .with_class(ErrorClass::RateLimited)
    .with_code("RATE_LIMITED")
    .with_effect(Effect::Nothing);

/// The JSON-RPC error of a refused call, with
/// [`RateLimited::Sep3304Error`](super::RateLimited): code `-32023`, the
/// answered envelope's message, SEP-3304's `data`.
pub(super) fn refusal(limited: &Limited, answered: &ErrorEnvelope) -> ErrorData {
    ErrorData::new(
        ErrorCode(JSONRPC_RATE_LIMITED),
        answered.message.clone(),
        Some(limited.jsonrpc_data()),
    )
}
