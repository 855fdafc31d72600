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

/// The limit a [`Router`](super::Router) asks before each call of one of
/// its tools (see [`crate::rate_limit::RateLimit`]): by tool name, and who
/// made the call, named from the rmcp request.
pub(crate) type RateLimit = crate::call::rate_limit::RateLimit<RequestContext<RoleServer>>;

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
