//! Keyed tool calls through the [`Router`](super::Router): which tools
//! take idempotency keys, and the store of their answers.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use ::rmcp::ErrorData;
use ::rmcp::model::{CallToolResponse, CallToolResult, ErrorCode, MetaObject, Tool};
use ::rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use crate::call::idempotency::{self, Claim, Claimed, Key, KeyRule, Scope, Store};
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;

/// Who made a call, for the scope of its key: a function of the request
/// (its extensions hold what the transport's authentication put there).
pub type Principal = dyn Fn(&RequestContext<RoleServer>) -> Option<String> + Send + Sync;

/// Which tools of a [`Router`](super::Router) take idempotency keys, and
/// the [`Store`] that keeps their answers (see [`crate::idempotency`] for
/// the rules). Set with [`Router::with_idempotency`](super::Router::with_idempotency):
///
/// ```text
/// tool_router: envelope::rmcp::Router::new(Self::tool_router()).with_idempotency(
///     Idempotency::new(MemoryStore::new()).require("create_note"),
/// ),
/// ```
///
/// The router lists each such tool with `_meta.idempotency` (`"required"`
/// or `"optional"`), which a host reads to send keys
/// ([`host::call_tool`](crate::host) mints one per logical call).
///
/// A call whose server died mid-call holds its key for the store's lease.
/// A repeat after the lease ran out runs the call again only when that is
/// safe: the tool commits its write with its key's record
/// ([`Idempotency::rerun_after_lease`]) or is declared idempotent
/// (`idempotentHint`). Any other tool's repeat is answered `INTERNAL`,
/// code `IDEMPOTENCY_OUTCOME_UNKNOWN`, effect `unknown`, naming the tool
/// that tells what happened ([`Idempotency::check_with`]), then and on
/// every later repeat.
#[derive(Clone)]
pub struct Idempotency {
    store: Arc<dyn Store>,
    tools: HashMap<String, KeyRule>,
    reruns: HashSet<String>,
    checks: HashMap<String, String>,
    principal: Option<Arc<Principal>>,
}

impl fmt::Debug for Idempotency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Idempotency")
            .field("tools", &self.tools)
            .field("reruns", &self.reruns)
            .field("checks", &self.checks)
            .field("principal", &self.principal.is_some())
            .finish_non_exhaustive()
    }
}

impl Idempotency {
    /// Keys kept in `store`, for no tool yet.
    #[must_use]
    pub fn new(store: impl Store + 'static) -> Self {
        Idempotency {
            store: Arc::new(store),
            tools: HashMap::new(),
            reruns: HashSet::new(),
            checks: HashMap::new(),
            principal: None,
        }
    }

    /// `tool` requires a key: a call without one is refused before it
    /// runs (`INVALID_ARGUMENTS`, code `IDEMPOTENCY_KEY_REQUIRED`).
    #[must_use]
    pub fn require(mut self, tool: impl Into<String>) -> Self {
        self.tools.insert(tool.into(), KeyRule::Required);
        self
    }

    /// `tool` takes a key when the call carries one.
    #[must_use]
    pub fn allow(mut self, tool: impl Into<String>) -> Self {
        self.tools.insert(tool.into(), KeyRule::Optional);
        self
    }

    /// `tool` may run again when a repeat finds its first call's lease run
    /// out with no answer: its write commits with its key's record
    /// (`SqliteStore::record_in`, `PostgresStore::record_in`, given
    /// [`CallContext::claim`](crate::CallContext::claim)), so a first call
    /// that left no record wrote nothing; or running it twice is harmless.
    /// Without it (and without `idempotentHint`), such a repeat is told
    /// the outcome is unknown.
    #[must_use]
    pub fn rerun_after_lease(mut self, tool: impl Into<String>) -> Self {
        self.reruns.insert(tool.into());
        self
    }

    /// `check` is the tool that tells whether a call of `tool` took effect:
    /// the suggested tool of the answer to a repeat whose first call's
    /// outcome is unknown (`IDEMPOTENCY_OUTCOME_UNKNOWN`) or whose answer
    /// was lost after its write committed (`IDEMPOTENCY_ANSWER_LOST`).
    #[must_use]
    pub fn check_with(mut self, tool: impl Into<String>, check: impl Into<String>) -> Self {
        self.checks.insert(tool.into(), check.into());
        self
    }

    /// Scopes keys by who made the call, as `principal` names them (from
    /// the request's extensions, where the transport's authentication puts
    /// them); without it a key is unique per tool.
    #[must_use]
    pub fn with_principal(
        mut self,
        principal: impl Fn(&RequestContext<RoleServer>) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.principal = Some(Arc::new(principal));
        self
    }

    /// The rule of `tool`, if it takes keys.
    pub(super) fn rule(&self, tool: &str) -> Option<KeyRule> {
        self.tools.get(tool).copied()
    }

    /// `tool` with its `_meta.idempotency` declaration, if it takes keys.
    pub(super) fn declare(&self, mut tool: Tool) -> Tool {
        if let Some(rule) = self.rule(&tool.name) {
            tool.meta.get_or_insert_with(MetaObject::default).insert(
                String::from(idempotency::TOOL_META_KEY),
                Value::from(rule.as_str()),
            );
        }
        tool
    }
}

/// What the router does with a call of a tool that takes keys.
pub(super) enum Keyed {
    /// No key, and none required: an ordinary call.
    Unkeyed,
    /// Answer the call with this failure; it does not run.
    Refuse(ErrorEnvelope),
    /// Answer with the stored answer of the key's first call: a result, or
    /// the JSON-RPC error it failed with.
    Replay(Result<CallToolResult, ErrorData>),
    /// Run the call, keyed, and then [`Idempotency::settle`] it.
    Run(Claimed),
    /// Answer with this failure, and keep it as the key's answer (a first
    /// call of unknown outcome): it does not run.
    Answer(Claimed, ErrorEnvelope),
}

impl Idempotency {
    /// What to do with a call of `tool` (whose rule is `rule`, declared
    /// idempotent or not) carrying `arguments`, by what the store says of
    /// its key.
    pub(super) async fn begin(
        &self,
        tool: &str,
        (rule, idempotent): (KeyRule, bool),
        request: &RequestContext<RoleServer>,
        arguments: Option<&serde_json::Map<String, Value>>,
    ) -> Keyed {
        let key = match request.meta.get(idempotency::META_KEY) {
            None if rule == KeyRule::Required => return Keyed::Refuse(idempotency::key_required(tool)),
            None => return Keyed::Unkeyed,
            Some(Value::String(text)) => match Key::parse(text) {
                Ok(key) => key,
                Err(refused) => return Keyed::Refuse(refused),
            },
            Some(_) => return Keyed::Refuse(idempotency::key_invalid()),
        };
        let principal = self.principal.as_ref().and_then(|principal| principal(request));
        let scope = Scope::new(principal, tool);
        let arguments = arguments.cloned().map_or(Value::Object(serde_json::Map::new()), Value::Object);
        let fingerprint = idempotency::fingerprint(&arguments);
        let check = self.checks.get(tool).map(String::as_str);
        match self.store.claim(&scope, &key, &fingerprint).await {
            Ok(Claim::Run(token)) => Keyed::Run(Claimed { scope, key, token }),
            Ok(Claim::Expired(token)) if idempotent || self.reruns.contains(tool) => {
                Keyed::Run(Claimed { scope, key, token })
            }
            Ok(Claim::Expired(token)) => Keyed::Answer(
                Claimed { scope, key, token },
                idempotency::outcome_unknown(check),
            ),
            Ok(Claim::Committed) => Keyed::Refuse(idempotency::answer_lost(check)),
            Ok(Claim::Running) => Keyed::Refuse(idempotency::key_in_use()),
            Ok(Claim::Mismatch) => Keyed::Refuse(idempotency::key_reused()),
            Ok(Claim::Done(answer)) => match serde_json::from_str::<Stored>(&answer) {
                Ok(Stored::Result(result)) => Keyed::Replay(Ok(super::replay(result))),
                Ok(Stored::Error { jsonrpc_error }) => Keyed::Replay(Err(jsonrpc_error)),
                Err(_) => Keyed::Refuse(idempotency::answer_unreadable()),
            },
            Err(_) => Keyed::Refuse(idempotency::store_failed()),
        }
    }

    /// Records the outcome of the keyed call that ran: a result is stored
    /// for the key's repeats, unless it is a failure that changed nothing
    /// (effect `nothing`), which frees the key; a response that is not a
    /// result (a task, a request for input) frees it too. A JSON-RPC error
    /// is stored, but for `-32602` (invalid params: rmcp could not read the
    /// arguments, so the tool never ran), which frees the key.
    pub(super) async fn settle(
        &self,
        claimed: &Claimed,
        response: &Result<CallToolResponse, ErrorData>,
    ) {
        let stored = match response {
            Ok(CallToolResponse::Complete(result)) if !changed_nothing(result) => {
                serde_json::to_string(&Stored::Result(result.clone())).ok()
            }
            Err(error) if error.code != ErrorCode::INVALID_PARAMS => serde_json::to_string(&Stored::Error {
                jsonrpc_error: error.clone(),
            })
            .ok(),
            _ => None,
        };
        // A store that fails now cannot change the answer, which is the
        // call's; the key's repeats run the call again. A claim that passed
        // to another call records nothing: that call's answer is the key's.
        let _ = match stored {
            Some(answer) => self.store.finish(claimed, &answer).await.map(drop),
            None => self.store.release(claimed).await,
        };
    }
}

/// A keyed call's answer as a store keeps it: the result, or the JSON-RPC
/// error (`{"jsonrpc_error": ...}`).
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
enum Stored {
    Error { jsonrpc_error: ErrorData },
    Result(CallToolResult),
}

/// Whether `result` is a failure whose envelope says it changed nothing.
fn changed_nothing(result: &CallToolResult) -> bool {
    result.is_error == Some(true)
        && super::envelope_of(result).is_some_and(|envelope| envelope.effect == Effect::Nothing)
}
