//! [`Json`], [`Query`] and [`Path`]: axum's extractors of the same names,
//! rejecting in problem details; and [`CallContext`] as an extractor.

use std::convert::Infallible;

use axum::body::{Body, Bytes};
use axum::extract::rejection::{BytesRejection, RawPathParamsRejection};
use axum::extract::{
    FromRequest, FromRequestParts, OptionalFromRequest, OptionalFromRequestParts, RawPathParams,
    Request,
};
use axum::response::{IntoResponse, Response};
use http::header::{CONTENT_TYPE, HeaderValue};
use http::request::Parts;
use http::{HeaderMap, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{Rejection, answer};
use super::strings::{self, Strings};
use crate::call::CallContext;
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;
use crate::convert::envelope_trait::Envelope;

/// A JSON request body read into `T`, or a problem details rejection; and,
/// as a response, `T` serialized as JSON. A drop-in for `axum::Json`.
///
/// The request must have `Content-Type: application/json` (or another
/// `application/*+json` type, as axum accepts). Rejections:
///
/// | request | status | class, code |
/// |---|---|---|
/// | no `Content-Type`, or another type | 415 | `INVALID_ARGUMENTS`, `UNSUPPORTED_MEDIA_TYPE` |
/// | a body over the router's limit (axum's `DefaultBodyLimit`, 2 MB unless set) | 413 | `INVALID_ARGUMENTS`, `BODY_TOO_LARGE` |
/// | a body that could not be read | 400 | `INVALID_ARGUMENTS`, `BODY_UNREADABLE` |
/// | an empty body | 400 | `INVALID_ARGUMENTS`, `BODY_EMPTY` |
/// | a body that is not JSON | 400 | `SYNTAX_ERROR`, with serde_json's line and column |
/// | JSON nested more than 128 levels deep (serde_json's limit) | 400 | `INVALID_ARGUMENTS`, `JSON_TOO_DEEP` |
/// | JSON that is not a `T` (a key given twice included, as serde reads it) | 400 | `INVALID_ARGUMENTS`, with `argument_errors` (JSON Pointers into the body) |
///
/// The arguments are checked as [`crate::args::Args`] checks a tool's:
/// serde's first problem, or with the `jsonschema` feature every problem
/// `T`'s JSON Schema finds. `T` implements `schemars::JsonSchema` for
/// that (the schema is built only when the body is not a `T`).
///
/// `Option<Json<T>>` is `None` for a request without `Content-Type` (no
/// body sent) and otherwise as `Json<T>`, rejections included, as axum's.
///
/// As a response: status 200, `Content-Type: application/json`, the
/// compact JSON of `T`; should `T` fail to serialize (a map with keys
/// that are not strings), a 500 problem with the generic message.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

/// A URL's query string read into `T`, or a problem details rejection
/// (400, `INVALID_ARGUMENTS`, each problem at the parameter's name:
/// `/limit`). A drop-in for `axum::extract::Query`.
///
/// Values are percent-decoded (`+` is a space) and read by what `T` asks
/// for, as `serde_urlencoded` reads them: `"5"` for an integer field is 5,
/// `"true"` for a boolean is true, a present key of an `Option` is `Some`,
/// an integer out of the field's range (`?limit=300` for a `u8`) is
/// `out_of_range` with the bounds. Unlike `serde_urlencoded`, a key given
/// several times is an array (`?tag=a&tag=b` for a `Vec<String>`), and a
/// key given once fills a one-item `Vec`; `Vec<(String, String)>` reads
/// the pairs in order. A number is a JSON number literal with an optional
/// leading `+`: `NaN` and `inf` are not numbers here. A value that is not
/// UTF-8 once percent-decoded is read with U+FFFD in place of the bad
/// bytes, as `serde_urlencoded` reads it. What serde reads through
/// a buffer (`#[serde(flatten)]`, untagged enums) gets the strings as
/// they are, as with `serde_urlencoded`. A missing query string is an
/// empty one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Query<T>(pub T);

/// A route's path parameters read into `T`, or a problem details
/// rejection. A drop-in for `axum::extract::Path`.
///
/// `T` reads the parameters by name (a struct, a map), by position (a
/// tuple: `Path<(String, u32)>` for `/tables/{table}/rows/{row}`), or as
/// one value when the route has one (`Path<u32>`). Values are read as
/// [`Query`] reads them. Rejections:
///
/// | problem | status | class |
/// |---|---|---|
/// | a value that is not what `T` asks for | 400 | `INVALID_ARGUMENTS`, each problem at the parameter's name (`/row`), for a tuple too |
/// | a value that is not UTF-8 once percent-decoded | 400 | `INVALID_ARGUMENTS` |
/// | the route and `T` disagree: a route without parameters, one value read from several, a tuple of another length, a field the route does not have (`note_id` for `/notes/{id}`), a route parameter `T` does not take (under `deny_unknown_fields`) | 500 | `INTERNAL`, code `ROUTE_MISMATCH`: a server's mistake, whatever the client sent |
///
/// The client chooses the values of a route's parameters, never their
/// names or number: a problem with those is the server's.
///
/// `Option<Path<T>>` is `None` on a route without parameters and
/// otherwise as `Path<T>`, as axum's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Path<T>(pub T);

impl<T, S> FromRequest<S> for Json<T>
where
    T: DeserializeOwned + schemars::JsonSchema,
    S: Send + Sync,
{
    type Rejection = Rejection;

    async fn from_request(request: Request, state: &S) -> Result<Self, Rejection> {
        if let Some(problem) = content_type_problem(request.headers()) {
            return Err(problem);
        }
        let body = Bytes::from_request(request, state)
            .await
            .map_err(body_problem)?;
        if body.is_empty() {
            return Err(Rejection::new(
                ErrorEnvelope::new(
                    ErrorClass::InvalidArguments,
                    "the request body is empty; it must be a JSON value",
                )
                .with_code("BODY_EMPTY")
                .with_next_step("send the request again with a JSON body"),
            ));
        }
        // The raw text first: it sees a key given twice, which a `Value`
        // keeps once.
        let mut reader = serde_json::Deserializer::from_slice(&body);
        let error = match serde_path_to_error::deserialize::<_, T>(&mut reader) {
            Ok(value) if reader.end().is_ok() => return Ok(Json(value)),
            Ok(_) => None,
            Err(error) => Some(error),
        };
        let arguments: Value = serde_json::from_slice(&body).map_err(|error| {
            Rejection::new(
                error
                    .into_envelope()
                    .with_next_step("send the request again with a well-formed JSON body"),
            )
        })?;
        match crate::args::check::<T>(arguments.clone()) {
            Err(envelope) => Err(Rejection::new(envelope)),
            // The `Value` passed where the text did not (a duplicate key):
            // the text's problem.
            Ok(_) => Err(Rejection::new(match &error {
                Some(error) => crate::args::serde_problem::<T>(error, &arguments),
                None => crate::args::invalid_arguments(Vec::new()),
            })),
        }
    }
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        match serde_json::to_vec(&self.0) {
            Ok(body) => {
                let mut response = Response::new(Body::from(body));
                response
                    .headers_mut()
                    .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                response
            }
            Err(_) => {
                ErrorEnvelope::new(ErrorClass::Internal, ErrorClass::Internal.generic_message())
                    .with_code("RESPONSE_NOT_SERIALIZABLE")
                    .into_response()
            }
        }
    }
}

impl<T, S> FromRequestParts<S> for Query<T>
where
    T: DeserializeOwned + schemars::JsonSchema,
    S: Send + Sync,
{
    type Rejection = Rejection;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Rejection> {
        let query = parts.uri.query().unwrap_or_default();
        let pairs =
            form_urlencoded::parse(query.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned()));
        parse_strings(&Strings::query(pairs)).map(Query)
    }
}

impl<T, S> FromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + schemars::JsonSchema,
    S: Send + Sync,
{
    type Rejection = Rejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Rejection> {
        let params = RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(path_problem)?;
        path_from(&params)
    }
}

impl<T, S> OptionalFromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + schemars::JsonSchema,
    S: Send + Sync,
{
    type Rejection = Rejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Option<Self>, Rejection> {
        match RawPathParams::from_request_parts(parts, state).await {
            Ok(params) if params.iter().next().is_none() => Ok(None),
            Ok(params) => path_from(&params).map(Some),
            Err(RawPathParamsRejection::MissingPathParams(_)) => Ok(None),
            Err(rejection) => Err(path_problem(rejection)),
        }
    }
}

/// The route's parameters read into `T`, for both forms of [`Path`].
fn path_from<T>(params: &RawPathParams) -> Result<Path<T>, Rejection>
where
    T: DeserializeOwned + schemars::JsonSchema,
{
    parse_strings(&Strings::path(params.iter())).map(Path)
}

impl<T, S> OptionalFromRequest<S> for Json<T>
where
    T: DeserializeOwned + schemars::JsonSchema,
    S: Send + Sync,
{
    type Rejection = Rejection;

    async fn from_request(request: Request, state: &S) -> Result<Option<Self>, Rejection> {
        if request.headers().get(CONTENT_TYPE).is_none() {
            return Ok(None);
        }
        <Self as FromRequest<S>>::from_request(request, state)
            .await
            .map(Some)
    }
}

/// The context of the request: the one [`RouterExt::answer_failures`]
/// made for it (the same correlation id as its response), else one made
/// from the request by the same rules.
///
/// [`RouterExt::answer_failures`]: super::RouterExt::answer_failures
impl<S: Send + Sync> FromRequestParts<S> for CallContext {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        Ok(answer::context(parts))
    }
}

fn parse_strings<T>(strings: &Strings) -> Result<T, Rejection>
where
    T: DeserializeOwned + schemars::JsonSchema,
{
    strings::parse(strings).map_err(|problem| match problem {
        Some(envelope) => Rejection::new(envelope),
        None => server_mistake(strings::PARAMETER_COUNT),
    })
}

/// The 415 problem of a body that is not declared JSON, if it is not.
fn content_type_problem(headers: &HeaderMap) -> Option<Rejection> {
    let sent = headers.get(CONTENT_TYPE);
    let essence = sent.and_then(|value| value.to_str().ok()).map(|value| {
        value
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    });
    let json = essence.as_deref().is_some_and(|essence| {
        essence == "application/json"
            || essence
                .strip_prefix("application/")
                .is_some_and(|subtype| subtype.ends_with("+json"))
    });
    if json {
        return None;
    }
    let got = match (&essence, sent) {
        (Some(essence), _) => {
            let (shown, cut) = crate::args::shown(essence);
            format!(
                "it was sent as {}{}",
                Value::from(shown),
                if cut { " (cut)" } else { "" }
            )
        }
        (None, Some(_)) => String::from("its Content-Type is not text"),
        (None, None) => String::from("it was sent without a Content-Type"),
    };
    let envelope = ErrorEnvelope::new(
        ErrorClass::InvalidArguments,
        format!("the request body must be JSON with Content-Type: application/json; {got}"),
    )
    .with_code("UNSUPPORTED_MEDIA_TYPE")
    .with_next_step("send the request again with the header Content-Type: application/json");
    Some(Rejection::with_status(
        envelope,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
    ))
}

/// The problem of a body that could not be buffered.
fn body_problem(rejection: BytesRejection) -> Rejection {
    let status = rejection.status();
    let (code, message, step) = if status == StatusCode::PAYLOAD_TOO_LARGE {
        (
            "BODY_TOO_LARGE",
            "the request body is larger than the server accepts",
            "send a smaller body, or split the request",
        )
    } else {
        (
            "BODY_UNREADABLE",
            "the request body could not be read",
            "send the request again with a complete body",
        )
    };
    let envelope = ErrorEnvelope::new(ErrorClass::InvalidArguments, message)
        .with_code(code)
        .with_next_step(step);
    let status = if status.is_client_error() {
        status
    } else {
        StatusCode::BAD_REQUEST
    };
    Rejection::with_status(envelope, status)
}

/// The problem of path parameters axum could not give.
fn path_problem(rejection: RawPathParamsRejection) -> Rejection {
    match rejection {
        RawPathParamsRejection::InvalidUtf8InPathParam(_) => Rejection::new(
            ErrorEnvelope::new(
                ErrorClass::InvalidArguments,
                "a path parameter is not valid UTF-8 once percent-decoded",
            )
            .with_code("PATH_NOT_UTF8")
            .with_next_step("percent-encode the path's text as UTF-8, then send the request again"),
        ),
        _ => server_mistake("the route has no path parameters"),
    }
}

/// A mismatch between a route and its extractor: the server's mistake,
/// with the class's generic message for the client and `detail` for the
/// log.
fn server_mistake(detail: &'static str) -> Rejection {
    let envelope = ErrorEnvelope::new(ErrorClass::Internal, ErrorClass::Internal.generic_message())
        .with_code("ROUTE_MISMATCH");
    Rejection {
        text: Some(std::sync::Arc::new((String::from(detail), Vec::new()))),
        ..Rejection::new(envelope)
    }
}

#[cfg(test)]
mod tests {
    use std::future::Future;

    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)] // only deserialized
    struct Find {
        table: String,
        filter: Filter,
    }

    #[derive(Debug, Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)] // only deserialized
    struct Filter {
        column: String,
    }

    /// The envelope `Json<Find>` rejects the JSON `body` with (a body in
    /// memory, so the extractor is ready at its first poll).
    fn rejected(body: &'static str) -> ErrorEnvelope {
        let request = http::Request::builder()
            .method("POST")
            .header(CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap();
        let mut future = std::pin::pin!(<Json<Find> as FromRequest<()>>::from_request(
            request,
            &(),
        ));
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut context) {
            std::task::Poll::Ready(Err(rejection)) => rejection.envelope().clone(),
            std::task::Poll::Ready(Ok(_)) => panic!("{body} was read as a Find"),
            std::task::Poll::Pending => panic!("a body in memory was not ready"),
        }
    }

    #[test]
    fn a_key_given_twice_is_named_at_its_object() {
        let top = rejected(r#"{"table":"T","table":"U","filter":{"column":"C"}}"#);
        assert_eq!(
            top.message,
            "1 problem in the arguments: /table must be given once"
        );
        let nested = rejected(r#"{"table":"T","filter":{"column":"C","column":"D"}}"#);
        assert_eq!(
            nested.message,
            "1 problem in the arguments: /filter/column must be given once"
        );
        assert_eq!(nested.argument_errors[0].path, "/filter/column");
        assert_eq!(nested.argument_errors[0].received, None);
    }
}
