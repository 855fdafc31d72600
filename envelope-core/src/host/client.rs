//! The retry loop over rmcp's client (features `host` and `rmcp`).

use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::{Peer, RoleClient};
use serde_json::Value;

use super::model_text::model_text;
use super::policy::Retries;
use crate::call::CallBehaviour;
use crate::call::idempotency;
use crate::model::envelope::ErrorEnvelope;
use crate::model::next_move::{Attempt, NextMove};

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

/// What a tool declares of itself: its MCP annotations (`readOnlyHint`,
/// `idempotentHint`, `destructiveHint`), as [`CallBehaviour::from_hints`]
/// reads them (the MCP defaults for a tool without annotations), and
/// whether it takes idempotency keys (`_meta.idempotency` `"required"` or
/// `"optional"`, [`crate::idempotency::TOOL_META_KEY`]): then
/// [`CallBehaviour::keyed`], and [`call_tool`] sends a key.
#[must_use]
pub fn behaviour_of(tool: &Tool) -> CallBehaviour {
    let hints = tool.annotations.clone().unwrap_or_default();
    let keyed = tool
        .meta
        .as_ref()
        .and_then(|meta| meta.get(idempotency::TOOL_META_KEY))
        .and_then(Value::as_str)
        .and_then(idempotency::KeyRule::from_wire)
        .is_some();
    CallBehaviour::from_hints(
        hints.read_only_hint,
        hints.idempotent_hint,
        hints.destructive_hint,
    )
    .keyed_if(keyed)
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
/// - For a keyed tool ([`CallBehaviour::keyed`], from [`behaviour_of`]) the
///   loop sends an idempotency key (`_meta.idempotencyKey`, a random UUID
///   v4, unless `params` carries one) and the same key on every repeat, so
///   a write whose answer was lost is repeated safely: the server runs it
///   at most once and answers the repeat from its store. A stored failure
///   sent again (`_meta.idempotentReplay`) is not repeated: the decision
///   for a replay is [`NextMove::Replayed`].
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
    let mut params = params;
    if tool.keyed {
        let meta = params.meta.get_or_insert_with(Default::default);
        if !meta.0.contains_key(idempotency::META_KEY) {
            meta.0.insert(
                String::from(idempotency::META_KEY),
                Value::from(uuid::Uuid::new_v4().to_string()),
            );
        }
    }
    let arguments = params.arguments.clone().map(Value::Object);
    let mut attempt = 1;
    loop {
        let call = peer.call_tool(params.clone());
        let outcome = match retries.policy().call_timeout() {
            Some(limit) => tokio::time::timeout(limit, call).await.ok(),
            None => Some(call.await),
        };
        let mut replayed = false;
        let mut envelope = match outcome {
            Some(Ok(result)) => match super::read_call_tool_result(&result) {
                None => return Ok(result),
                Some(envelope) => {
                    replayed = result
                        .meta
                        .as_ref()
                        .and_then(|meta| meta.get(idempotency::REPLAY_META_KEY))
                        == Some(&Value::Bool(true));
                    envelope
                }
            },
            Some(Err(error)) => super::read_service_error(&error),
            None => super::mcp::timed_out(),
        };
        if let Some(arguments) = &arguments {
            super::fit_paths(&mut envelope, arguments);
        }
        let next = retries.next_move(&envelope, Attempt::of(tool).replayed_if(replayed), attempt);
        match next {
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
