//! Keyed tool calls through the [`Router`](super::Router): which tools
//! take idempotency keys, and the store of their answers.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use ::rmcp::ErrorData;
use ::rmcp::model::{CallToolResponse, CallToolResult, ErrorCode, MetaObject, Tool};
use ::rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use crate::call::idempotency::{self, Claim, Key, KeyRule, Scope, Store};
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
#[derive(Clone)]
pub struct Idempotency {
    store: Arc<dyn Store>,
    tools: HashMap<String, KeyRule>,
    principal: Option<Arc<Principal>>,
}

impl fmt::Debug for Idempotency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Idempotency")
            .field("tools", &self.tools)
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
    /// Run the call, keyed, and then [`Keyed::settle`] it.
    Run { scope: Scope, key: Key },
}

impl Idempotency {
    /// What to do with a call of `tool` (whose rule is `rule`) carrying
    /// `arguments`, by what the store says of its key.
    pub(super) async fn begin(
        &self,
        tool: &str,
        rule: KeyRule,
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
        match self.store.claim(&scope, &key, &fingerprint).await {
            Ok(Claim::Run) => Keyed::Run { scope, key },
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
        scope: &Scope,
        key: &Key,
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
        // call's; the key's repeats run the call again.
        let _ = match stored {
            Some(answer) => self.store.finish(scope, key, &answer).await,
            None => self.store.release(scope, key).await,
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
