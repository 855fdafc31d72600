//! A rate limit in front of a [`Router`](super::Router)'s tools (MCP draft
//! SEP-3304; the rules are [`crate::rate_limit`]'s).

use std::fmt;
use std::sync::Arc;

use ::rmcp::ErrorData;
use ::rmcp::model::ErrorCode;
use ::rmcp::service::{RequestContext, RoleServer};

use super::keyed::Principal;
use crate::call::rate_limit::{JSONRPC_RATE_LIMITED, Limited, RateLimiter};
use crate::model::class::ErrorClass;
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;
use crate::model::variant_spec::VariantSpec;

/// The [`RateLimiter`] a [`Router`](super::Router) asks before each call of
/// one of its tools, and who made the call. Set with
/// [`Router::with_rate_limit`](super::Router::with_rate_limit):
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
/// client gets the JSON-RPC error `-32023` with `data` `{"retryAfterMs",
/// "limit", "remaining"}`, and the router logs it as the call's failure
/// (`RATE_LIMITED`, code `RATE_LIMITED`).
#[derive(Clone)]
pub struct RateLimit {
    limiter: Arc<dyn RateLimiter>,
    principal: Option<Arc<Principal>>,
}

impl fmt::Debug for RateLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimit")
            .field("principal", &self.principal.is_some())
            .finish_non_exhaustive()
    }
}

impl RateLimit {
    /// Asks `limiter` about each call, by tool name; no principal.
    #[must_use]
    pub fn new(limiter: impl RateLimiter + 'static) -> Self {
        RateLimit {
            limiter: Arc::new(limiter),
            principal: None,
        }
    }

    /// Names who made each call for the limiter (from the request: its
    /// extensions hold what the transport's authentication put there), so
    /// a limiter can keep a budget per client.
    #[must_use]
    pub fn with_principal(
        mut self,
        principal: impl Fn(&RequestContext<RoleServer>) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.principal = Some(Arc::new(principal));
        self
    }

    /// The limiter's answer for a call of `tool`.
    pub(super) fn check(&self, tool: &str, request: &RequestContext<RoleServer>) -> Result<(), Limited> {
        let principal = self.principal.as_ref().and_then(|principal| principal(request));
        self.limiter.check(tool, principal.as_deref())
    }
}

/// The failure every tool of a rate-limited router can get, for its
/// declared contract.
pub(super) const REFUSED: VariantSpec = VariantSpec::new("RateLimited")
    .with_class(ErrorClass::RateLimited)
    .with_code("RATE_LIMITED")
    .with_effect(Effect::Nothing);

/// The JSON-RPC error of a refused call: code `-32023`, the answered
/// envelope's message, SEP-3304's `data`.
pub(super) fn refusal(limited: &Limited, answered: &ErrorEnvelope) -> ErrorData {
    ErrorData::new(
        ErrorCode(JSONRPC_RATE_LIMITED),
        answered.message.clone(),
        Some(limited.jsonrpc_data()),
    )
}
