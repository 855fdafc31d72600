//! A rate limit in front of routes, as an axum middleware (the HTTP form
//! of MCP's draft SEP-3304: `429` with the IETF draft's `RateLimit`
//! fields; the rules are [`crate::rate_limit`]'s).

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::header::{HeaderName, HeaderValue};
use http::request::Parts;
use http::StatusCode;

use crate::call::rate_limit::Limited;

/// The response header of the quota policy (`"default";q=60;w=60`).
pub const RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");

/// The response header of the limit's current state (`"default";r=0;t=2`).
pub const RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");

/// The state of the [`rate_limited`] middleware (see
/// [`crate::rate_limit::RateLimit`]): the limiter, asked by method and
/// route, and who made a request, named from its `http::request::Parts`.
pub(crate) type RateLimit = crate::call::rate_limit::RateLimit<Parts>;

/// The middleware of rate-limited routes, for
/// `axum::middleware::from_fn_with_state(limit, rate_limited)` on the
/// routes, added before
/// [`RouterExt::answer_failures`](super::RouterExt::answer_failures) so
/// that its refusals are answered as every failure (correlation id, log
/// line). Each request is put to the limiter with its operation, the
/// method and matched route (`"POST /notes/{id}"`), and its principal
/// ([`with_principal`](crate::rate_limit::RateLimit::with_principal)). Under `route_layer` only requests that match a route are
/// limited; under `Router::layer` a request that matches none is limited
/// by its path as sent, so a limiter keyed by operation grows a key per
/// unknown path (governor's `retain_recent` prunes them).
///
/// A refused request never reaches the handler. It is answered `429 Too
/// Many Requests` with the problem details of a `RATE_LIMITED` envelope
/// ([`Limited::to_envelope`]) and the headers:
///
/// | header | value |
/// |---|---|
/// | `Retry-After` | the wait in whole seconds, rounded up (RFC 9110) |
/// | `RateLimit-Policy` ([`RATELIMIT_POLICY`]) | `"default";q=60;w=60`: the limit and its window in seconds |
/// | `RateLimit` ([`RATELIMIT`]) | `"default";r=0;t=2`: the requests left and the wait in seconds |
///
/// (draft-ietf-httpapi-ratelimit-headers-09.)
pub async fn rate_limited(State(limit): State<RateLimit>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let route = parts
        .extensions
        .get::<MatchedPath>()
        .map_or_else(|| parts.uri.path(), MatchedPath::as_str);
    let operation = format!("{} {route}", parts.method);
    match limit.check(&operation, &parts) {
        Ok(()) => next.run(Request::from_parts(parts, body)).await,
        Err(limited) => refusal(&limited),
    }
}

/// The `429` of a refused request.
fn refusal(limited: &Limited) -> Response {
    let mut response = super::respond(limited.to_envelope(), StatusCode::TOO_MANY_REQUESTS, None);
    let headers = response.headers_mut();
    for (name, value) in [
        (RATELIMIT_POLICY, limited.policy_field()),
        (RATELIMIT, limited.limit_field()),
    ] {
        // Digits, quotes, `;` and `=`: always a valid header value.
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
    response
}
