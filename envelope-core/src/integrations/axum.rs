//! axum 0.8 (feature `axum`, through `axum-core`): an envelope, and through
//! the facade every derived type, is an `IntoResponse`, the RFC 9457
//! problem details response of [`crate::problem::http_response`].

pub use axum_core::response::{IntoResponse, Response};

use crate::envelope::ErrorEnvelope;
use crate::envelope_trait::Envelope;

/// An envelope as an axum response: the problem details response with the
/// class's status, `Content-Type: application/problem+json` and
/// `Retry-After`, so a handler returns `Result<Json<T>, ErrorEnvelope>`
/// with no glue.
impl IntoResponse for ErrorEnvelope {
    fn into_response(self) -> Response {
        crate::render::problem::http_response(&self).map(axum_core::body::Body::from)
    }
}

/// The body of a derived type's `IntoResponse`: its envelope's response.
#[must_use]
pub fn into_response<E: Envelope>(error: E) -> Response {
    IntoResponse::into_response(error.into_envelope())
}
