// The body of `envelope::reqwest` and `envelope::reqwest012`: each
// includes it after naming its reqwest line `lib`.

use std::time::SystemTime;

use lib::StatusCode;
use lib::header::RETRY_AFTER;

use crate::model::class::{ErrorClass, Owner};
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;
use crate::convert::std_errors::{GENERIC, Row, StdError, foreign_envelope, row};

foreign_envelope!(lib::Error);

impl StdError for lib::Error {
    fn row(&self) -> Row {
        use ErrorClass as C;
        if let Some(status) = self.status() {
            return status_row(status);
        }
        if self.is_connect() {
            row(C::ConnectionFailed, "UPSTREAM_CONNECT", GENERIC).with_effect(Effect::Nothing)
        } else if self.is_timeout() {
            row(C::Timeout, "UPSTREAM_TIMEOUT", GENERIC)
        } else if self.is_body() {
            row(C::ConnectionFailed, "UPSTREAM_BODY", GENERIC)
        } else if self.is_decode() {
            row(C::Internal, "UPSTREAM_DECODE", GENERIC)
        } else if self.is_builder() {
            row(C::Internal, "UPSTREAM_REQUEST", GENERIC).with_effect(Effect::Nothing)
        } else if self.is_redirect() {
            row(C::Internal, "UPSTREAM_REQUEST", GENERIC)
        } else {
            row(C::ConnectionFailed, "UPSTREAM_REQUEST", GENERIC)
        }
    }

    fn add_details(&self, envelope: &mut ErrorEnvelope) {
        if let Some(status) = self.status() {
            name_status(envelope, status);
        }
    }
}

/// The row of an error status: its class, and for a 4xx the effect
/// `nothing`.
fn status_row(status: StatusCode) -> Row {
    let class = ErrorClass::from_http_status(status.as_u16());
    let row = row(class, "UPSTREAM_STATUS", GENERIC);
    if status.is_client_error() {
        row.with_effect(Effect::Nothing)
    } else {
        row
    }
}

/// Completes the envelope of [`status_row`]: the status in `details`, and
/// for a caller-owned class the message naming it.
fn name_status(envelope: &mut ErrorEnvelope, status: StatusCode) {
    let server = envelope.error_class.owner() == Owner::Server;
    let fields = envelope.fields_mut();
    fields
        .details
        .insert(String::from("status"), status.as_u16().into());
    if !server {
        fields.message = format!("the upstream service answered {status}");
    }
}

/// The whole envelope of an error status.
fn status_envelope(status: StatusCode) -> ErrorEnvelope {
    let mut envelope = status_row(status).envelope();
    name_status(&mut envelope, status);
    envelope
}

/// `response` when its status is not an error (below 400); else the
/// envelope of the status (the table on the [module](self)), with the
/// response's `Retry-After` as `retry_after_ms` (delay-seconds, or an HTTP
/// date, RFC 9110 section 10.2.3, counted from now; a date in the past is
/// `0`). reqwest's own `error_for_status` drops the headers, and with them
/// the hint.
///
/// # Errors
///
/// The envelope of an error status.
pub fn error_for_status(response: lib::Response) -> Result<lib::Response, ErrorEnvelope> {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return Ok(response);
    }
    let mut envelope = status_envelope(status);
    let wait = response
        .headers()
        .get(RETRY_AFTER)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| crate::model::lenient::retry_after(value, SystemTime::now()));
    if let Some(wait) = wait {
        envelope = envelope.with_retry_after(wait);
    }
    Err(envelope)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_rows() {
        let not_found = status_envelope(StatusCode::NOT_FOUND);
        assert_eq!(
            crate::Envelope::to_json_string(&not_found),
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"the upstream service answered 404 Not Found","code":"UPSTREAM_STATUS","category":"NotFound","details":{"status":404}}"#
        );
        let unavailable = status_envelope(StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(unavailable.error_class, ErrorClass::Transient);
        assert_eq!(unavailable.effect, Effect::Unknown);
        assert_eq!(unavailable.message, ErrorClass::Transient.generic_message());
        let rate = status_row(StatusCode::TOO_MANY_REQUESTS).envelope();
        assert_eq!(rate.error_class, ErrorClass::RateLimited);
        assert_eq!(rate.effect, Effect::Nothing);
    }
}
