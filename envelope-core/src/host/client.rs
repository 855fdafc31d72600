//! The retry loop over rmcp's client (features `host` and `rmcp`).

use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::{Peer, RoleClient};
use serde_json::Value;

use super::decide::{NextMove, model_text};
use super::policy::Retries;
use crate::call::CallBehaviour;
use crate::model::envelope::ErrorEnvelope;

/// A tool call that failed for good: what the host read, the move it
/// leaves to the model (or the user), and the text to show the model.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Failure {
    /// The last attempt's failure, as read (within the host's bounds).
    pub envelope: ErrorEnvelope,
    /// The next move: never [`NextMove::Repeat`] (the loop made those).
    pub next: NextMove,
    /// [`model_text`] of the two, for the model.
    pub model_text: String,
    /// How many times the call was made, the first included.
    pub attempts: u32,
}

/// What a tool declares of itself in its MCP annotations
/// (`readOnlyHint`, `idempotentHint`, `destructiveHint`), as
/// [`CallBehaviour::from_hints`] reads them; the MCP defaults for a tool
/// without annotations.
#[must_use]
pub fn behaviour_of(tool: &Tool) -> CallBehaviour {
    let hints = tool.annotations.clone().unwrap_or_default();
    CallBehaviour::from_hints(
        hints.read_only_hint,
        hints.idempotent_hint,
        hints.destructive_hint,
    )
}

/// Calls a tool through rmcp's client and repeats it while the host's
/// rules say so: the same request (the same arguments and `_meta`), after
/// the wait [`Retries::next_move`] gives, at most as often as its policy
/// allows. Returns the first result that is not a failure, or the
/// [`Failure`] the loop stops at, with its next move and the text for the
/// model.
///
/// - Each attempt runs at most the policy's
///   [`call_timeout`](super::RetryPolicy::call_timeout); one that runs
///   longer is cancelled and reads as `TIMEOUT` of effect unknown, so only
///   a read-only or idempotent tool is repeated after it.
/// - The waits are `tokio::time::sleep`s: a paused test clock runs them at
///   once.
/// - Dropping the returned future (the caller's own timeout, a cancelled
///   task) stops the loop: the request in flight is cancelled
///   (`notifications/cancelled`) and no repeat is made.
/// - Argument paths are fitted to the call's arguments ([`fit_paths`](super::fit_paths)).
///
/// # Errors
///
/// The [`Failure`] of the last attempt, when the move is not a repeat (or
/// no repeat is left): a transport failure, a JSON-RPC error or a tool
/// result with `isError: true`, read by [`read_service_error`](super::read_service_error)
/// and [`read_call_tool_result`](super::read_call_tool_result).
pub async fn call_tool(
    peer: &Peer<RoleClient>,
    params: CallToolRequestParams,
    tool: CallBehaviour,
    retries: &mut Retries,
) -> Result<CallToolResult, Failure> {
    let arguments = params.arguments.clone().map(Value::Object);
    let mut attempt = 1;
    loop {
        let call = peer.call_tool(params.clone());
        let outcome = match retries.policy().call_timeout() {
            Some(limit) => tokio::time::timeout(limit, call).await.ok(),
            None => Some(call.await),
        };
        let mut envelope = match outcome {
            Some(Ok(result)) => match super::read_call_tool_result(&result) {
                None => return Ok(result),
                Some(envelope) => envelope,
            },
            Some(Err(error)) => super::read_service_error(&error),
            None => super::mcp::timed_out(),
        };
        if let Some(arguments) = &arguments {
            super::fit_paths(&mut envelope, arguments);
        }
        match retries.next_move(&envelope, tool, attempt) {
            NextMove::Repeat { after } => {
                tokio::time::sleep(after).await;
                attempt += 1;
            }
            next => {
                return Err(Failure {
                    model_text: model_text(&envelope, &next),
                    envelope,
                    next,
                    attempts: attempt,
                });
            }
        }
    }
}
