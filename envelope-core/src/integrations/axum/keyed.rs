//! Keyed HTTP requests: the `Idempotency-Key` header
//! (draft-ietf-httpapi-idempotency-key-header), as an axum middleware.

use std::fmt;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::header::{CONTENT_TYPE, HeaderName, HeaderValue, LOCATION};
use http::request::Parts;
use http::StatusCode;
use serde_json::Value;

use super::{Failure, Rejection};
use crate::call::idempotency::{self, Claim, Claimed, Key, KeyRule, Scope, Store};
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;

/// The request header of an idempotency key.
pub const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

/// The response header set to `true` on a stored response sent again.
pub const IDEMPOTENT_REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");

/// How many bytes of a keyed request's body, and of its response's, the
/// middleware reads (axum's own default body limit): a larger request is
/// refused with `413`; a larger response, or one streamed (its length not
/// known), is sent as it is, and the key's repeats get `409`
/// `IDEMPOTENCY_ANSWER_NOT_KEPT`.
pub const MAX_KEYED_BODY: usize = 2 * 1024 * 1024;

/// Who made a request, for the scope of its key.
pub type HttpPrincipal = dyn Fn(&Parts) -> Option<String> + Send + Sync;

/// The state of the [`keyed`] middleware: the store, whether routes
/// require keys, and who made a request.
///
/// ```text
/// use envelope::axum::{Keys, keyed};
/// use envelope::idempotency::MemoryStore;
///
/// let keys = Keys::required(MemoryStore::new());
/// let app = Router::new()
///     .route("/notes", post(add_note).route_layer(
///         axum::middleware::from_fn_with_state(keys, keyed),
///     ))
///     .answer_failures();
/// ```
#[derive(Clone)]
pub struct Keys {
    store: Arc<dyn Store>,
    rule: KeyRule,
    rerun: bool,
    check: Option<String>,
    principal: Option<Arc<HttpPrincipal>>,
}

impl fmt::Debug for Keys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Keys")
            .field("rule", &self.rule)
            .field("rerun", &self.rerun)
            .field("check", &self.check)
            .field("principal", &self.principal.is_some())
            .finish_non_exhaustive()
    }
}

impl Keys {
    /// Every request must carry a key: one without is refused with `400`.
    #[must_use]
    pub fn required(store: impl Store + 'static) -> Self {
        Keys {
            store: Arc::new(store),
            rule: KeyRule::Required,
            rerun: false,
            check: None,
            principal: None,
        }
    }

    /// A request may carry a key; one without runs as any request.
    #[must_use]
    pub fn optional(store: impl Store + 'static) -> Self {
        Keys {
            rule: KeyRule::Optional,
            ..Keys::required(store)
        }
    }

    /// The routes may run again when a repeat finds the first request's
    /// lease run out with no response: their handlers commit their write
    /// with the key's record (`SqliteStore::record_in`,
    /// `PostgresStore::record_in`, given the request's
    /// `Extension<Claimed>`), so a first request that left no record wrote
    /// nothing; or running them twice is harmless. Without it, such a
    /// repeat of a `POST` or `PATCH` gets `500`, code
    /// `IDEMPOTENCY_OUTCOME_UNKNOWN` (the methods HTTP calls idempotent,
    /// `PUT` and `DELETE`, run again).
    #[must_use]
    pub fn rerun_after_lease(mut self) -> Self {
        self.rerun = true;
        self
    }

    /// `check` is the tool or route that tells whether a request took
    /// effect: the suggested tool of the answer to a repeat whose first
    /// request's outcome is unknown, or whose response was lost after its
    /// write committed (`IDEMPOTENCY_ANSWER_LOST`).
    #[must_use]
    pub fn check_with(mut self, check: impl Into<String>) -> Self {
        self.check = Some(check.into());
        self
    }

    /// Scopes keys by who made the request, as `principal` names them
    /// (from the request's headers or extensions); without it a key is
    /// unique per route.
    #[must_use]
    pub fn with_principal(mut self, principal: impl Fn(&Parts) -> Option<String> + Send + Sync + 'static) -> Self {
        self.principal = Some(Arc::new(principal));
        self
    }
}

/// The marker a keyed request's response carries to
/// [`RouterExt::answer_failures`](super::RouterExt::answer_failures), so
/// its failure is answered as a keyed call's
/// ([`CallBehaviour::keyed`](crate::CallBehaviour::keyed)).
#[derive(Debug, Clone, Copy)]
pub(super) struct KeyedRequest;

/// The middleware of keyed requests, for
/// `axum::middleware::from_fn_with_state(keys, keyed)` on the routes that
/// take keys (the rules are [`crate::idempotency`]'s):
///
/// | the request | the response |
/// |---|---|
/// | no `Idempotency-Key`, keys required | `400`, code `IDEMPOTENCY_KEY_REQUIRED` |
/// | a key that is not one (1 to 255 visible ASCII characters; a structured-field string `"..."` is unquoted) | `400`, code `IDEMPOTENCY_KEY_INVALID` |
/// | the first with its key | the handler's; a success, or a failure that may have changed something, stored |
/// | the same key, method, route, query and body, the first done | the stored response (status, `Content-Type`, `Location`, body), with `Idempotent-Replayed: true` |
/// | the same key, the first still running | `409`, code `IDEMPOTENCY_KEY_IN_USE`, `Retry-After: 1` |
/// | the same key, another path, query or body | `422`, code `IDEMPOTENCY_KEY_REUSED` |
/// | a body over [`MAX_KEYED_BODY`] | `413`, code `BODY_TOO_LARGE` |
///
/// The scope is the method and matched route with the principal
/// ([`Keys::with_principal`]); the fingerprint is the path (the route's
/// parameters: a key sent to another resource is another call), the query and the body
/// (canonical JSON when it is JSON). The first request's handler runs on a
/// task of its own (`tokio::spawn`, so the server's runtime is tokio, as
/// axum's `serve` is): a client that hangs up mid-answer does not cancel
/// it, and its response is stored for the client's repeat.
pub async fn keyed(State(keys): State<Keys>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let key = match parts.headers.get(&IDEMPOTENCY_KEY) {
        None if keys.rule == KeyRule::Required => {
            return idempotency::key_required_header().into_response();
        }
        None => return next.run(Request::from_parts(parts, body)).await,
        Some(value) => match value.to_str().ok().map(unquoted).map(Key::parse) {
            Some(Ok(key)) => key,
            _ => return idempotency::key_invalid().into_response(),
        },
    };
    let Ok(bytes) = axum::body::to_bytes(body, MAX_KEYED_BODY).await else {
        let refused = crate::model::envelope::ErrorEnvelope::new(
            crate::model::class::ErrorClass::InvalidArguments,
            format!("a keyed request's body may hold at most {MAX_KEYED_BODY} bytes"),
        )
        .with_code("BODY_TOO_LARGE");
        return Rejection::with_status(refused, StatusCode::PAYLOAD_TOO_LARGE).into_response();
    };
    let route = parts
        .extensions
        .get::<MatchedPath>()
        .map_or("(no route)", MatchedPath::as_str);
    let principal = keys.principal.as_ref().and_then(|principal| principal(&parts));
    let scope = Scope::new(principal, format!("{} {route}", parts.method));
    let fingerprint = fingerprint(parts.uri.path(), parts.uri.query(), &bytes);
    let idempotent = matches!(parts.method, http::Method::PUT | http::Method::DELETE);
    let check = keys.check.as_deref();
    let mut response = match keys.store.claim(&scope, &key, &fingerprint).await {
        Ok(Claim::Run(token)) => run(keys.clone(), Claimed { scope, key, token }, parts, bytes, next).await,
        Ok(Claim::Expired(token)) if keys.rerun || idempotent => {
            run(keys.clone(), Claimed { scope, key, token }, parts, bytes, next).await
        }
        Ok(Claim::Expired(token)) => {
            let response = idempotency::outcome_unknown(check).into_response();
            settle(&keys, &Claimed { scope, key, token }, response).await
        }
        Ok(Claim::Committed) => idempotency::answer_lost(check).into_response(),
        Ok(Claim::Running) => idempotency::key_in_use().into_response(),
        Ok(Claim::Mismatch) => {
            Rejection::with_status(idempotency::key_reused(), StatusCode::UNPROCESSABLE_ENTITY)
                .into_response()
        }
        Ok(Claim::Done(stored)) => match replay(&stored) {
            Some(response) => response,
            None => idempotency::answer_unreadable().into_response(),
        },
        Err(_) => idempotency::store_failed().into_response(),
    };
    response.extensions_mut().insert(KeyedRequest);
    response
}

/// Runs the first request of a key, whose claim is `claimed`, on a task
/// of its own: a client that hangs up mid-answer (hyper then drops this
/// future) does not cut the handler short, so its response is still
/// stored for the repeat. The handler finds `claimed` among the request's
/// extensions.
async fn run(keys: Keys, claimed: Claimed, parts: Parts, bytes: Bytes, next: Next) -> Response {
    let mut request = Request::from_parts(parts, Body::from(bytes));
    request.extensions_mut().insert(claimed.clone());
    let (keys_again, claimed_again) = (keys.clone(), claimed.clone());
    let run = tokio::spawn(async move {
        let response = next.run(request).await;
        settle(&keys, &claimed, response).await
    });
    match run.await {
        Ok(response) => response,
        // The handler panicked, maybe after its write: that answer is the
        // key's, now and for every repeat.
        Err(_) => {
            let response = idempotency::handler_panicked().into_response();
            settle(&keys_again, &claimed_again, response).await
        }
    }
}

/// A header value as a key: a structured-field string (`"abc"`, RFC 8941)
/// unquoted, a bare token as it is.
fn unquoted(value: &str) -> &str {
    let value = value.trim();
    value
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or(value)
}

/// The fingerprint of a request: its path (the route's parameters: a key
/// sent to another resource is another call), its query and its body
/// (canonical JSON when the body is JSON, its bytes in hex otherwise).
fn fingerprint(path: &str, query: Option<&str>, body: &Bytes) -> String {
    let body = match serde_json::from_slice::<Value>(body) {
        Ok(json) => idempotency::fingerprint(&json),
        Err(_) => format!("hex:{}", hex(body)),
    };
    Value::Array(vec![
        Value::from(path),
        Value::from(query.unwrap_or_default()),
        Value::from(body),
    ])
    .to_string()
}

/// `bytes` as lowercase hex digits.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}

/// `hex`'s bytes, if it is hex digits.
fn unhex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(hex.get(at..at + 2)?, 16).ok())
        .collect()
}

/// Stores `response` for the key's repeats, and returns it: its status,
/// `Content-Type`, `Location` and body (as text, or as hex when it is not
/// UTF-8). A failure that changed nothing frees the key instead. A body
/// that may be larger than [`MAX_KEYED_BODY`] (a stream, whose length is
/// not known, or a long one) is sent as it is, and the key's repeats get
/// `409` `IDEMPOTENCY_ANSWER_NOT_KEPT`: it ran once.
async fn settle(keys: &Keys, claimed: &Claimed, response: Response) -> Response {
    use http_body::Body as _;
    let (parts, body) = response.into_parts();
    let changed_nothing = parts.status.as_u16() >= 400
        && parts
            .extensions
            .get::<Failure>()
            .is_some_and(|failure| failure.envelope.effect == Effect::Nothing);
    if changed_nothing {
        let _ = keys.store.release(claimed).await;
        return Response::from_parts(parts, body);
    }
    let fits = body
        .size_hint()
        .upper()
        .is_some_and(|upper| upper <= MAX_KEYED_BODY as u64);
    if !fits {
        let _ = keys.store.finish(claimed, &stored_not_kept()).await;
        return Response::from_parts(parts, body);
    }
    let Ok(bytes) = axum::body::to_bytes(body, MAX_KEYED_BODY).await else {
        // A body that failed while it was read has failed the client too.
        let _ = keys.store.release(claimed).await;
        return Response::from_parts(parts, Body::empty());
    };
    let _ = keys.store.finish(claimed, &stored(&parts, &bytes)).await;
    Response::from_parts(parts, Body::from(bytes))
}

/// A response as the store keeps it, written by [`stored`] and read by
/// [`replay`]: the status, `Content-Type` and `Location`, and the body as
/// text, or as hex digits (`body_hex`) when it is not UTF-8; for a failure
/// answered with an envelope, the envelope too (`envelope`), which a
/// replay answers again.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredResponse {
    status: u16,
    headers: std::collections::BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    body: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    body_hex: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    envelope: Option<Value>,
}

/// `parts` and `bytes` as the store keeps them.
fn stored(parts: &http::response::Parts, bytes: &[u8]) -> String {
    let headers = [CONTENT_TYPE, LOCATION]
        .into_iter()
        .filter_map(|name| {
            let value = parts.headers.get(&name)?.to_str().ok()?;
            Some((name.as_str().to_owned(), value.to_owned()))
        })
        .collect();
    let (body, body_hex) = match std::str::from_utf8(bytes) {
        Ok(text) => (Some(text.to_owned()), None),
        Err(_) => (None, Some(hex(bytes))),
    };
    let envelope = parts
        .extensions
        .get::<Failure>()
        .map(|failure| failure.envelope.to_json());
    let stored = StoredResponse {
        status: parts.status.as_u16(),
        headers,
        body,
        body_hex,
        envelope,
    };
    serde_json::to_string(&stored).unwrap_or_default()
}

/// The stored answer of a response that could not be kept: the problem
/// details of [`idempotency::answer_not_kept`].
fn stored_not_kept() -> String {
    let envelope = idempotency::answer_not_kept();
    let status = crate::render::problem::status_of(envelope.error_class);
    let (parts, problem) = crate::render::problem::response_with_status(&envelope, status).into_parts();
    stored(&parts, problem.as_ref())
}

/// The stored response, with `Idempotent-Replayed: true`: a failure with
/// its envelope as a replay says it (`model::behaviour::replayed`: not
/// retryable, the replay's step first; answered again by
/// `answer_failures`, with this request's correlation id, as the MCP
/// router's replay is), any other response as it was; `None` when the
/// store's text is not a [`StoredResponse`].
fn replay(stored: &str) -> Option<Response> {
    let stored: StoredResponse = serde_json::from_str(stored).ok()?;
    let status = StatusCode::from_u16(stored.status).ok()?;
    let failure = stored
        .envelope
        .and_then(|envelope| serde_json::from_value::<ErrorEnvelope>(envelope).ok());
    if let Some(envelope) = failure {
        let mut response = super::respond(crate::model::behaviour::replayed(envelope), status, None);
        response
            .headers_mut()
            .insert(IDEMPOTENT_REPLAYED, HeaderValue::from_static("true"));
        return Some(response);
    }
    let body = match (stored.body, stored.body_hex) {
        (_, Some(hex)) => Body::from(unhex(&hex)?),
        (Some(text), None) => Body::from(text),
        (None, None) => return None,
    };
    let mut response = Response::new(body);
    *response.status_mut() = status;
    for (name, value) in &stored.headers {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            response.headers_mut().insert(name, value);
        }
    }
    response
        .headers_mut()
        .insert(IDEMPOTENT_REPLAYED, HeaderValue::from_static("true"));
    Some(response)
}
