//! reqwest 0.13 (feature `reqwest`; reqwest 0.12 is feature `reqwest012`,
//! [`reqwest012`](crate::reqwest012)): [`Envelope`](crate::Envelope) for
//! `reqwest::Error`, and [`error_for_status`], which turns an upstream
//! API's error status into an envelope with its `Retry-After`. It adds 63
//! crates (`cargo tree -e normal,build`: reqwest without its default
//! features, and `httpdate`).
//!
//! What a failed upstream request did decides whether the tool call may be
//! repeated, so the effect comes from when it failed:
//!
//! | error | class | code | effect |
//! |---|---|---|---|
//! | could not connect (`is_connect`, a connect timeout included): nothing was sent | `CONNECTION_FAILED`, retryable | `UPSTREAM_CONNECT` | nothing |
//! | timed out after connecting (`is_timeout`): the request may have been sent and processed | `TIMEOUT` | `UPSTREAM_TIMEOUT` | unknown |
//! | an error status (`error_for_status`, here or reqwest's) | the status's class, [`ErrorClass::from_http_status`] (404 `OBJECT_NOT_FOUND`, 429 `RATE_LIMITED`, 503 `TRANSIENT`, ...) | `UPSTREAM_STATUS`, with `details.status` | a 4xx: nothing (the upstream refused it); a 5xx: the class's (unknown) |
//! | the response body failed (`is_body`) | `CONNECTION_FAILED` | `UPSTREAM_BODY` | unknown |
//! | the response body did not decode (`is_decode`) | `INTERNAL` | `UPSTREAM_DECODE` | unknown |
//! | the request could not be built (`is_builder`: a bad URL or header), too many redirects (`is_redirect`) | `INTERNAL` | `UPSTREAM_REQUEST` | nothing, unknown |
//! | anything else (`is_request`, ...) | `CONNECTION_FAILED` | `UPSTREAM_REQUEST` | unknown |
//!
//! `TIMEOUT` and `CONNECTION_FAILED` with effect `unknown` are retryable
//! only for an idempotent call (the retry rule; an idempotent method, or the
//! call's declared behaviour through a [`CallContext`](crate::CallContext)).
//!
//! The message is never reqwest's text, which holds the URL (with its
//! query, and credentials if the URL has them) and the host name: a
//! caller-owned class from a status says `the upstream service answered
//! 404 Not Found`, every other class has its generic message.
//!
//! A status is read as [`ErrorClass::from_http_status`] reads it: as an
//! answer about the caller's own request. When the server calls the
//! upstream with its own credentials, a `401` or `403` is the server's
//! problem; give that error a server-owned class.

use ::reqwest as lib;

include!("reqwest/body.rs");
