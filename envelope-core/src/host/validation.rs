//! The validation reports of other frameworks, read into argument
//! problems with JSON Pointer paths: RFC 9457 `errors`, RFC 7807
//! `invalid-params`, ASP.NET's and Spring's maps, FastAPI's (pydantic's)
//! `detail` array, zod 3 and zod 4 issues.

use serde_json::{Map, Value};

use super::bound::{MAX_ARGUMENT_ERRORS, MAX_NAME_CHARS, cut_to};
use super::words::{dot_path, said};
use super::{pydantic, zod};
use crate::model::argument_error::ArgumentError;

/// The argument problems a JSON error body reports, in the first member
/// that holds a report (the table on [`read_http`](super::read_http)); empty
/// when it reports none. At most [`MAX_ARGUMENT_ERRORS`] are read.
pub(super) fn problems(body: &Map<String, Value>) -> Vec<ArgumentError> {
    let problems = if let Some(errors) = body.get("errors") {
        match errors {
            // RFC 9457: `{"detail": ..., "pointer": "#/age"}`.
            Value::Array(items) => items.iter().filter_map(rfc9457).collect(),
            // ASP.NET's `ValidationProblemDetails`, Spring's maps:
            // `{"Title": ["..."]}`, `{"address.city": "..."}`.
            Value::Object(map) => map
                .iter()
                .flat_map(|(name, said)| property(name, said))
                .collect(),
            _ => Vec::new(),
        }
    } else if let Some(Value::Array(items)) = body.get("invalid-params") {
        // RFC 7807: `{"name": "age", "reason": "..."}`.
        items.iter().filter_map(rfc7807).collect()
    } else if let Some(Value::Array(items)) = body.get("detail") {
        // FastAPI: `{"loc": ["body", "id"], "msg": "...", "type": "..."}`.
        items.iter().filter_map(pydantic::fastapi_item).collect()
    } else if let Some(issues) = body
        .get("issues")
        .or_else(|| body.get("error").and_then(|error| error.get("issues")))
        .and_then(Value::as_array)
    {
        zod::json_issues(issues)
    } else {
        Vec::new()
    };
    problems.into_iter().take(MAX_ARGUMENT_ERRORS).collect()
}

/// An item of RFC 9457's `errors`: `pointer` (a JSON Pointer, or its URI
/// fragment `#/age`) and `detail`.
fn rfc9457(item: &Value) -> Option<ArgumentError> {
    let pointer = item.get("pointer").and_then(Value::as_str)?;
    // The URI fragment form (`#/first%20name`) is percent-encoded (RFC
    // 6901, section 6).
    let pointer = match pointer.strip_prefix('#') {
        Some(fragment) => percent_decoded(fragment),
        None => pointer.to_owned(),
    };
    if !(pointer.is_empty() || pointer.starts_with('/')) {
        return None;
    }
    let detail = item
        .get("detail")
        .and_then(Value::as_str)
        .unwrap_or_default();
    Some(said(cut_to(&pointer, MAX_NAME_CHARS), detail))
}

/// `text` with each `%XX` decoded (as UTF-8, a byte that is not replaced
/// by U+FFFD); a `%` not followed by two hex digits is kept.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = |i: usize| bytes.get(i).and_then(|b| (*b as char).to_digit(16));
        match (bytes[at], hex(at + 1), hex(at + 2)) {
            (b'%', Some(high), Some(low)) => {
                // Two hex digits: a value below 256.
                #[allow(clippy::cast_possible_truncation)]
                out.push((high * 16 + low) as u8);
                at += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An item of RFC 7807's `invalid-params`: `name` (a property name) and
/// `reason`.
fn rfc7807(item: &Value) -> Option<ArgumentError> {
    let name = item.get("name").and_then(Value::as_str)?;
    let reason = item
        .get("reason")
        .and_then(Value::as_str)
        .unwrap_or_default();
    Some(said(property_pointer(name), reason))
}

/// The problems of one entry of a property map: a message or a list of
/// them.
fn property(name: &str, said_there: &Value) -> Vec<ArgumentError> {
    let path = property_pointer(name);
    match said_there {
        Value::String(text) => vec![said(path, text)],
        Value::Array(texts) => texts
            .iter()
            .filter_map(Value::as_str)
            .take(MAX_ARGUMENT_ERRORS)
            .map(|text| said(path.clone(), text))
            .collect(),
        _ => vec![said(path, "")],
    }
}

/// A property name as ASP.NET and Spring write it (`Title`,
/// `items[0].name`, `$.items[0].name`) as a JSON Pointer. Its case is
/// kept: the report does not say how the JSON spells it.
fn property_pointer(name: &str) -> String {
    let name = name.strip_prefix('$').unwrap_or(name);
    let name = name.strip_prefix('.').unwrap_or(name);
    crate::args::pointer(dot_path(name))
}
