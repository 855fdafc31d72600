//! axum 0.8 (feature `axum`): the failures of a server's handlers, of its
//! `Json`, `Query` and `Path` extractors and of its routing (unknown
//! paths, wrong methods) answer in RFC 9457 problem details
//! (`application/problem+json`). Other extractors keep axum's own
//! rejections (a `String` body that is not UTF-8 answers in plain text).
//!
//! - **Handler errors.** [`ErrorEnvelope`], and through the facade every
//!   derived type, is an `IntoResponse`: the problem details response of
//!   [`crate::problem::http_response`], so a handler returns
//!   `Result<Json<T>, E>` and uses `?`.
//! - **Extractors.** [`Json`], [`Query`] and [`Path`] read a request's
//!   body, query string and path parameters as axum's extractors of the
//!   same names do, and reject bad input with the `INVALID_ARGUMENTS`
//!   problem of [`crate::args`]: each problem's JSON Pointer into the body,
//!   or the parameter's name (`/limit`), what was expected, the JSON type
//!   received and near-miss names; every problem at once with the
//!   `jsonschema` feature. Query and path values are strings, read by what
//!   the type asks for, as `serde_urlencoded` and axum's `Path` read them:
//!   `?limit=5` is the integer 5 for a `u32`.
//! - **The request's context.** [`RouterExt::answer_failures`], one line
//!   on a `Router`, answers unknown routes (`404`) and wrong methods
//!   (`405`, with axum's `Allow` header) in problem details, and gives
//!   every request a [`CallContext`](crate::CallContext): its correlation id (the
//!   `x-request-id` the client sent, else the trace id of its
//!   `traceparent`, else generated) echoed in the response's `x-request-id`
//!   header and in the body, its method's retry safety (RFC 9110: a `GET`
//!   failure changed nothing, a `PUT` may be repeated, a `POST` may not) and,
//!   with the `tracing` feature, one operator log line per failure. A
//!   handler takes the context as an extractor to answer through it
//!   (`.or_fail(&call)?`), or simply returns its error.
//! - **Rate limits and keys.** [`rate_limited`] puts a route behind a
//!   [`RateLimit`](crate::rate_limit::RateLimit) (`429` with `Retry-After` and the `RateLimit` fields);
//!   [`keyed`] runs a keyed request at most once per `Idempotency-Key`.
//!
//! ```
//! # extern crate envelope_core as envelope;
//! use axum::Router;
//! use axum::routing::get;
//! use envelope::ErrorEnvelope;
//! use envelope::axum::{Json, Path, Query, RouterExt};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Deserialize, schemars::JsonSchema)]
//! struct Search {
//!     q: String,
//!     limit: Option<u32>,
//! }
//!
//! #[derive(Serialize)]
//! struct Note {
//!     id: u64,
//!     text: String,
//! }
//!
//! async fn search(Query(search): Query<Search>) -> Json<Vec<Note>> {
//!     let _ = (search.q, search.limit);
//!     Json(Vec::new())
//! }
//!
//! async fn read(Path(id): Path<u64>) -> Result<Json<Note>, ErrorEnvelope> {
//!     Ok(Json(Note { id, text: String::from("hello") }))
//! }
//!
//! let app: Router = Router::new()
//!     .route("/notes", get(search))
//!     .route("/notes/{id}", get(read))
//!     .answer_failures();
//! ```
//!
//! The whole server: `test_suite/examples/http_server.rs`.

mod answer;
mod extract;
mod keyed;
mod limit;
mod strings;

pub use answer::{Answering, RouterExt};
pub use keyed::{HttpPrincipal, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, Keys, MAX_KEYED_BODY, keyed};
pub use limit::{RATELIMIT, RATELIMIT_POLICY, rate_limited};
use axum::response::{IntoResponse, Response};
pub use extract::{Json, Path, Query};

use std::error::Error;
use std::fmt;
use std::sync::Arc;

use axum::body::Body;
use http::StatusCode;

use crate::model::category::UserErrorCategory;
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;
use crate::convert::envelope_trait::Envelope;

/// A failure as a response carries it to [`RouterExt::answer_failures`],
/// in the response's extensions: the envelope, and the error's text for
/// the log line (its `Display` and `source()` chain) when it had one.
#[derive(Clone)]
struct Failure {
    envelope: ErrorEnvelope,
    text: Option<Arc<(String, Vec<String>)>>,
}

/// The problem details response of `envelope` with `status`, carrying the
/// failure for the request's context.
fn respond(
    envelope: ErrorEnvelope,
    status: StatusCode,
    text: Option<Arc<(String, Vec<String>)>>,
) -> Response {
    let mut response =
        crate::render::problem::response_with_status(&envelope, status).map(Body::from);
    response.extensions_mut().insert(Failure { envelope, text });
    response
}

/// The rejection of [`Json`], [`Query`] and [`Path`]: a request the
/// handler never saw, as its envelope and the status it answers with
/// (`415` for a body that is not declared JSON, `413` for one too large,
/// else the class's).
///
/// As a response it is the problem details response with that status. A
/// handler that takes `Result<Query<T>, Rejection>` to answer it itself
/// can use it as any error: it is an [`Envelope`] and a
/// `std::error::Error`, whose `Display` is the envelope's message.
#[derive(Debug, Clone)]
pub struct Rejection {
    envelope: ErrorEnvelope,
    status: StatusCode,
    /// The text for the log line, when it says more than the message.
    text: Option<Arc<(String, Vec<String>)>>,
}

impl Rejection {
    /// A rejection answered with the class's status.
    fn new(envelope: ErrorEnvelope) -> Self {
        let status = crate::render::problem::status_of(envelope.error_class);
        Rejection::with_status(envelope, status)
    }

    fn with_status(envelope: ErrorEnvelope, status: StatusCode) -> Self {
        Rejection {
            envelope,
            status,
            text: None,
        }
    }

    /// The envelope the rejection answers with.
    #[must_use]
    pub fn envelope(&self) -> &ErrorEnvelope {
        &self.envelope
    }

    /// The HTTP status it answers with.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        self.status
    }
}

impl IntoResponse for Rejection {
    fn into_response(self) -> Response {
        respond(self.envelope, self.status, self.text)
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.envelope.message)
    }
}

impl Error for Rejection {}

/// A [`Rejection`] in a source chain, as the error it is.
pub(crate) fn find<'e>(error: &'e (dyn Error + 'static)) -> Option<&'e dyn Envelope> {
    error
        .downcast_ref::<Rejection>()
        .map(|rejection| rejection as &dyn Envelope)
}

impl Envelope for Rejection {
    fn error_class(&self) -> ErrorClass {
        self.envelope.error_class
    }

    fn user_category(&self) -> UserErrorCategory {
        self.envelope.user_category()
    }

    fn code(&self) -> Option<&'static str> {
        Envelope::code(&self.envelope)
    }

    fn to_envelope(&self) -> ErrorEnvelope {
        self.envelope.clone()
    }

    fn into_envelope(self) -> ErrorEnvelope {
        self.envelope
    }
}

/// An envelope as an axum response: the problem details response with the
/// class's status, `Content-Type: application/problem+json` and
/// `Retry-After`, so a handler returns `Result<Json<T>, ErrorEnvelope>`
/// with no glue. Under [`RouterExt::answer_failures`] the request's
/// context is applied first.
impl IntoResponse for ErrorEnvelope {
    fn into_response(self) -> Response {
        let status = crate::render::problem::status_of(self.error_class);
        respond(self, status, None)
    }
}

/// What the derived impls call (through `__private::axum`, with axum's own
/// types): not public API.
pub(crate) mod glue {
    use std::sync::Arc;

    use axum::response::Response;

    use crate::convert::envelope_trait::Envelope;

    /// The body of a derived type's `IntoResponse`: its envelope's
    /// response, with `text`, the error's `Display` and `source()` chain
    /// when the type is a `std::error::Error` (`__private::Cause`), for the
    /// log line.
    #[must_use]
    pub fn into_response<E: Envelope>(error: E, text: Option<(String, Vec<String>)>) -> Response {
        let envelope = error.into_envelope();
        let status = crate::render::problem::status_of(envelope.error_class);
        super::respond(envelope, status, text.map(Arc::new))
    }
}

