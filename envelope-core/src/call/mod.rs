//! The call: where an error becomes the agent's answer.
//!
//! [`CallContext`] is one tool call or request (`context`); its
//! [`CallBehaviour`] is what the call declares (the model's `behaviour`: MCP
//! hints, the HTTP method); the correlation id comes from the request's own id or its
//! W3C `traceparent` (`trace_context`); the operator's log line is `log`
//! (feature `tracing`) and the call's span, after OpenTelemetry's
//! conventions, is `span`; keyed calls and their stores are `idempotency`;
//! the rate limits a server enforces before a call runs are `rate_limit`.

#[cfg(all(test, feature = "tracing"))]
mod capture;
mod context;
pub mod idempotency;
#[cfg(feature = "tracing")]
pub mod log;
pub mod rate_limit;
#[cfg(feature = "tracing")]
pub(crate) mod span;
pub(crate) mod trace_context;

pub use crate::model::behaviour::CallBehaviour;
pub use context::{CallContext, OrFail};
