//! [`RouterExt::answer_failures`]: the request's [`CallContext`], the
//! fallbacks for unknown routes and wrong methods, and the middleware that
//! answers every failure through the context.

use axum::Router;
use axum::body::Body;
use axum::extract::{MatchedPath, OriginalUri, Request};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use http::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderName, HeaderValue, RETRY_AFTER};
use http::request::Parts;
use http::{Method, StatusCode};
use serde_json::Value;
use std::time::Duration;

use super::{Failure, Rejection};
use crate::call::trace_context::sent_correlation_id;
use crate::call::{CallBehaviour, CallContext};
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// The header of a request's correlation id, read from the request and
/// echoed on the response.
const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The header of a W3C Trace Context parent (`00-<trace id>-<parent
/// id>-<flags>`), whose trace id is the correlation id of a request that
/// has no `x-request-id`.
const TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");

/// One line on an axum [`Router`] that makes every failure of it answer in
/// problem details, through the request's [`CallContext`].
pub trait RouterExt: private::Sealed {
    /// Installs, on the routes and fallbacks added so far (so call it
    /// last, after `route`, `merge` and `nest`):
    ///
    /// - a fallback for paths no route matches: `404`, class
    ///   `OBJECT_NOT_FOUND`, code `ROUTE_NOT_FOUND`; it replaces a
    ///   fallback set before;
    /// - a fallback for a route's methods it has no handler for: `405`,
    ///   class `UNSUPPORTED`, code `METHOD_NOT_ALLOWED`, with axum's `Allow`
    ///   header listing the route's methods;
    /// - a middleware that gives each request a [`CallContext`] and
    ///   answers through it every failure a response carries (a handler's
    ///   error, an extractor's rejection, the fallbacks above), as
    ///   [`CallContext::fail`] does: the method's behaviour applied through
    ///   the retry rule (RFC 9110, [`CallBehaviour::from_method`]), the
    ///   correlation id set unless the error had its own, one log line
    ///   (feature `tracing`) unless the handler answered through the
    ///   context itself; then the body is rendered again with the result.
    ///
    /// The context's tool name is the method and the matched route
    /// (`"GET /tables/{table}"`, or `"GET (no route)"`); its correlation
    /// id is the request's `x-request-id` (cleaned as
    /// [`ErrorEnvelope::with_correlation_id`] cleans an id), else the
    /// trace id of its `traceparent`, else generated
    /// ([`CallContext::generated_id`]). Every response, good or bad, gets
    /// that id as its `x-request-id` header unless the handler set one.
    /// A handler that takes `call: CallContext` gets the same context; one
    /// that sets its own `x-request-id` header answers with that id. A
    /// response whose status is not an error (below 400) is left as the
    /// handler made it, even one made from an error.
    #[must_use]
    fn answer_failures(self) -> Self;

    /// As [`RouterExt::answer_failures`], with each request's context set
    /// up as `answering` says.
    #[must_use]
    fn answer_failures_with(self, answering: Answering) -> Self;
}

impl<S: Clone + Send + Sync + 'static> RouterExt for Router<S> {
    fn answer_failures(self) -> Self {
        self.answer_failures_with(Answering::new())
    }

    fn answer_failures_with(self, answering: Answering) -> Self {
        self.method_not_allowed_fallback(method_not_allowed)
            .fallback(not_found)
            .layer(middleware::from_fn(move |request: Request, next: Next| {
                answer(answering, request, next)
            }))
    }
}

/// The settings of every request's [`CallContext`] under
/// [`RouterExt::answer_failures_with`]; [`Answering::new`] is what
/// [`RouterExt::answer_failures`] uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Answering {
    busy_retry_after: Option<Duration>,
}

impl Answering {
    /// The defaults: each context as [`RouterExt::answer_failures`]
    /// describes it.
    #[must_use]
    pub const fn new() -> Self {
        Answering {
            busy_retry_after: None,
        }
    }

    /// Each request's [`CallContext::with_busy_retry_after`]: how long a
    /// caller should wait before repeating a request that failed because a
    /// lock was held or the server was busy (the `Retry-After` and
    /// `retry_after_ms` of a library mapping's `BUSY` answer, one second
    /// by default, [`DEFAULT_BUSY_RETRY_AFTER`](crate::DEFAULT_BUSY_RETRY_AFTER)).
    #[must_use]
    pub const fn with_busy_retry_after(mut self, wait: Duration) -> Self {
        self.busy_retry_after = Some(wait);
        self
    }
}

mod private {
    /// Only `Router` has [`super::RouterExt`].
    pub trait Sealed {}

    impl<S> Sealed for axum::Router<S> {}
}

/// The request's context: the one the middleware made, else one made by
/// the same rules.
pub(super) fn context(parts: &Parts) -> CallContext {
    if let Some(call) = parts.extensions.get::<CallContext>() {
        return call.clone();
    }
    let header = |name: &HeaderName| {
        parts
            .headers
            .get(name)
            .and_then(|value| value.to_str().ok())
    };
    let route = parts
        .extensions
        .get::<MatchedPath>()
        .map_or("(no route)", MatchedPath::as_str);
    let id = sent_correlation_id(header(&REQUEST_ID), header(&TRACEPARENT))
        .unwrap_or_else(CallContext::generated_id);
    let call = CallContext::identified(format!("{} {route}", parts.method).into(), id)
        .with_behaviour(CallBehaviour::from_method(&parts.method));
    #[cfg(feature = "tracing")]
    let call = call.over(crate::call::span::Transport::Http);
    call
}

/// The middleware: the context in, every failure out through it.
async fn answer(answering: Answering, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let mut call = context(&parts);
    if let Some(wait) = answering.busy_retry_after {
        call = call.with_busy_retry_after(wait);
    }
    parts.extensions.insert(call.clone());
    let response = next.run(Request::from_parts(parts, body));
    // The handler runs inside the request's span (made here, before the
    // context is cloned, so every clone shares it).
    #[cfg(feature = "tracing")]
    let response = tracing::Instrument::instrument(response, call.span().clone());
    let response = response.await;
    // A keyed request's failure is a keyed call's: safe to repeat with
    // its key.
    let call = match response.extensions().get::<super::keyed::KeyedRequest>() {
        Some(_) => call.clone().with_behaviour(call.behaviour().keyed_if(true)),
        None => call,
    };
    finish(&call, response)
}

/// `response`, its failure (if it carries one) answered through `call`
/// and rendered again, with the request id header.
fn finish(call: &CallContext, response: Response) -> Response {
    let (mut parts, mut body) = response.into_parts();
    // A handler that set its own request id answers with it.
    let id = parts
        .headers
        .get(REQUEST_ID)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let failed = parts.status.is_client_error() || parts.status.is_server_error();
    // A failure whose response a handler turned into a success is not one.
    if let Some(Failure { mut envelope, text }) = parts.extensions.remove::<Failure>()
        && failed
    {
        // The text a derived `From` kept, when the handler returned the
        // envelope.
        let kept = envelope.fields_mut().rule.log_text.take();
        let text = text.or_else(|| kept.map(std::sync::Arc::from));
        if envelope.correlation_id.is_none()
            && let Some(id) = &id
        {
            envelope = envelope.with_correlation_id(id);
        }
        let envelope = call.answer(envelope, |_envelope| {
            #[cfg(feature = "tracing")]
            crate::call::log::record_text(_envelope, text.as_deref());
        });
        let (rendered, problem) =
            crate::render::problem::response_with_status(&envelope, parts.status).into_parts();
        for name in [CONTENT_TYPE, RETRY_AFTER] {
            match rendered.headers.get(&name) {
                Some(value) => parts.headers.insert(name, value.clone()),
                None => parts.headers.remove(name),
            };
        }
        parts.headers.remove(CONTENT_LENGTH);
        body = Body::from(problem);
        // Answered: a context around this one renders it, and logs nothing.
        parts.extensions.insert(Failure { envelope, text });
    }
    if id.is_none()
        && let Ok(id) = HeaderValue::from_str(call.correlation_id())
    {
        parts.headers.insert(REQUEST_ID, id);
    }
    Response::from_parts(parts, body)
}

/// What the client sent, echoed: its first 64 characters, `…` after a cut,
/// as a JSON string.
fn echo(text: &str) -> String {
    let (shown, cut) = crate::args::shown(text);
    let mut echo = Value::from(shown).to_string();
    if cut {
        echo.insert(echo.len() - 1, '…');
    }
    echo
}

/// A method's name as the client sent it (a token: no spaces, quotes or
/// control characters), its first 64 characters.
fn token(method: &Method) -> String {
    let (shown, cut) = crate::args::shown(method.as_str());
    format!("{shown}{}", if cut { "…" } else { "" })
}

/// No route matches the path (the whole path the client sent, also under
/// a nested router).
async fn not_found(method: Method, OriginalUri(uri): OriginalUri) -> Response {
    ErrorEnvelope::new(
        ErrorClass::ObjectNotFound,
        format!("no route answers {} {}", token(&method), echo(uri.path())),
    )
    .with_code("ROUTE_NOT_FOUND")
    .with_next_step("check the request's path against the API's routes")
    .into_response()
}

/// The route has no handler for the method.
async fn method_not_allowed(method: Method) -> Response {
    let envelope = ErrorEnvelope::new(
        ErrorClass::Unsupported,
        format!("this route does not answer {}", token(&method)),
    )
    .with_code("METHOD_NOT_ALLOWED")
    .with_next_step("send the request again with one of the methods its Allow header lists");
    Rejection::with_status(envelope, StatusCode::METHOD_NOT_ALLOWED).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(method: Method, headers: &[(&str, &str)]) -> Parts {
        let mut request = http::Request::builder().method(method).uri("/notes/7");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn the_context_of_a_request() {
        let trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        let call = context(&parts(
            Method::GET,
            &[("x-request-id", "req-9"), ("traceparent", trace)],
        ));
        assert_eq!(call.correlation_id(), "req-9");
        assert_eq!(call.tool(), "GET (no route)");
        assert_eq!(call.behaviour(), CallBehaviour::READ);

        let call = context(&parts(
            Method::POST,
            &[("x-request-id", " "), ("traceparent", trace)],
        ));
        assert_eq!(call.correlation_id(), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(call.behaviour(), CallBehaviour::default());

        let long = "r".repeat(300);
        let call = context(&parts(Method::PUT, &[("x-request-id", &long)]));
        assert_eq!(call.correlation_id(), "r".repeat(256));
        assert!(call.behaviour().idempotent);

        // The context the middleware made is the one a handler gets.
        let mut made = parts(Method::DELETE, &[]);
        let first = context(&made);
        made.extensions.insert(first.clone());
        assert_eq!(context(&made).correlation_id(), first.correlation_id());
        assert_ne!(
            context(&parts(Method::DELETE, &[])).correlation_id(),
            first.correlation_id()
        );
    }

    #[test]
    fn echoes_are_cut_and_quoted() {
        assert_eq!(echo("/a\"b"), r#""/a\"b""#);
        assert_eq!(echo(&"x".repeat(70)), format!("\"{}…\"", "x".repeat(64)));
        let method = Method::from_bytes("M".repeat(70).as_bytes()).unwrap();
        assert_eq!(token(&method), format!("{}…", "M".repeat(64)));
    }
}
