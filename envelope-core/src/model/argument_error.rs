//! [`ArgumentError`]: one problem with a tool's arguments, the items of an
//! `INVALID_ARGUMENTS` envelope's `argument_errors`.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::model::lenient::null_as_default;

/// The next step of an `INVALID_ARGUMENTS` envelope that lists its
/// problems (`args`, the derive's `argument(...)`), in a tool call's words.
pub(crate) const FIX_STEP: &str = "fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument";

/// The `details` key of the corrected arguments of an `INVALID_ARGUMENTS`
/// envelope: what the caller sent with every problem fixed, when each fix
/// follows from what was sent (see `args`' `correct.rs`).
pub(crate) const CORRECTED_ARGUMENTS: &str = "corrected_arguments";

/// The `details` key of the arguments to call the envelope's
/// `suggested_tool` with, from the failure's details and the failed
/// call's arguments (see `args`' `next_call.rs`).
pub(crate) const SUGGESTED_ARGUMENTS: &str = "suggested_arguments";

/// The `details` keys of a next call's arguments.
pub(crate) const NEXT_CALL_KEYS: [&str; 2] = [CORRECTED_ARGUMENTS, SUGGESTED_ARGUMENTS];

/// The longest arguments of a next call offered (corrected or suggested),
/// as compact JSON in bytes; larger ones are not offered, nor shown when
/// a peer sends them.
pub(crate) const MAX_CORRECTED_BYTES: usize = 1024;

/// The arguments of a next call that `details` offers under `key`
/// ([`CORRECTED_ARGUMENTS`] or [`SUGGESTED_ARGUMENTS`]): a JSON object of
/// at most [`MAX_CORRECTED_BYTES`]. Anything else under the key (a
/// peer's, a detail of that name) is no call's arguments.
pub(crate) fn offered<'a>(details: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    details
        .get(key)
        .filter(|arguments| arguments.is_object() && fits(arguments))
}

/// Whether `arguments` are small enough to offer.
pub(crate) fn fits(arguments: &Value) -> bool {
    arguments.to_string().len() <= MAX_CORRECTED_BYTES
}

/// [`FIX_STEP`] in HTTP's words, for a problem details body: a request,
/// not a tool call, and no `inputSchema`.
#[allow(dead_code)] // read by the `http` feature's renderer
pub(crate) const FIX_STEP_HTTP: &str = "fix each argument listed in argument_errors, then send the request again with the fixed arguments";

/// A next step in HTTP's words: [`FIX_STEP_HTTP`] for [`FIX_STEP`], `None`
/// for any other step, which is the same on every transport.
#[allow(dead_code)] // read by the `http` feature's renderer
pub(crate) fn http_words(step: &str) -> Option<&'static str> {
    (step == FIX_STEP).then_some(FIX_STEP_HTTP)
}

/// One problem with a tool call's JSON arguments: where it is, what kind of
/// problem it is, what was expected there and what kind of value came.
///
/// Wire form (an item of the envelope's `argument_errors`), in this key
/// order, empty optional keys left out:
///
/// | key | type | when present |
/// |---|---|---|
/// | `path` | string, a JSON Pointer (RFC 6901) into the arguments | always; `""` is the arguments object itself |
/// | `kind` | [`ArgumentErrorKind`] wire name | always |
/// | `expected` | string, what would have been accepted (`"an integer"`, `"one of \"fast\", \"slow\""`) | known |
/// | `received` | string, the JSON type of the value at `path`: `"null"`, `"boolean"`, `"integer"`, `"number"`, `"string"`, `"array"` or `"object"` | a value is there (every kind but `missing`) |
/// | `suggestions` | array of strings | near misses exist |
///
/// ```json
/// {"path":"/limit","kind":"wrong_type","expected":"an integer","received":"string"}
/// {"path":"/tabel","kind":"unknown_field","received":"string","suggestions":["table"]}
/// ```
///
/// `path` uses the argument names as they are on the wire (after
/// `#[serde(rename)]` and `rename_all`); a key holding `~` or `/` is
/// escaped as `~0` and `~1`, and array items are addressed by index
/// (`/rows/3/id`). A key longer than 64 characters is cut to its first 64
/// characters followed by `…`, so a huge key is never echoed back.
///
/// Nothing in an argument error repeats a value the caller sent: `received`
/// is a type name, `expected` and `suggestions` come from the argument
/// type itself (its field names, variant names and limits). Only `path`
/// holds the caller's keys.
///
/// Reading is lenient like the envelope's: unknown keys are ignored,
/// `null` reads as unset (`suggestions: null` as empty), and a kind this
/// version does not know reads as [`ArgumentErrorKind::Other`].
///
/// `Display` writes the one-line form the envelope's message joins
/// (`/limit must be an integer, got a string`); see
/// [`crate::args::invalid_arguments`].
///
/// With the `schemars` feature: implements `schemars::JsonSchema` (schemars
/// 1.x), for a tool's `outputSchema`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ArgumentError {
    /// Where the problem is: a JSON Pointer (RFC 6901) into the arguments,
    /// `""` for the arguments themselves, `"/filter/limit"` for a nested
    /// field, `"/rows/3/id"` inside an array. For a missing field, the
    /// pointer the field would have.
    pub path: String,
    /// What kind of problem it is.
    pub kind: ArgumentErrorKind,
    /// What would have been accepted at `path`, in JSON terms: `"an
    /// integer"`, `"an integer from 0 to 255"`, `"one of \"fast\",
    /// \"slow\""`. Taken from the argument type, never from the value sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The JSON type of the value found at `path` (`"string"`, `"integer"`,
    /// ...; `"integer"` for a number without a fraction), never the value
    /// itself. `None` for a missing field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received: Option<String>,
    /// Names from the argument type that look like a misspelling of what
    /// was sent: field names for an unknown field, variant names for an
    /// unknown variant. Best first (see [`crate::model::fuzzy::suggest`]).
    #[serde(
        default,
        deserialize_with = "null_as_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub suggestions: Vec<String>,
}

/// The kind of an [`ArgumentError`].
///
/// Wire form: `snake_case` (`"wrong_type"`). A kind sent by a newer peer
/// reads as [`ArgumentErrorKind::Other`]. The order of the variants is the
/// order in which [`crate::args::invalid_arguments`] lists problems.
///
/// With the `schemars` feature: implements `schemars::JsonSchema` (schemars
/// 1.x), for a tool's `outputSchema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ArgumentErrorKind {
    /// A required field is not there (`"missing"`).
    Missing,
    /// The value has the wrong JSON type: a string where an integer belongs
    /// (`"wrong_type"`).
    WrongType,
    /// A key the argument type does not have (`"unknown_field"`); reported
    /// when the type refuses unknown keys (`#[serde(deny_unknown_fields)]`).
    UnknownField,
    /// A value that is not one of the allowed names of an enum
    /// (`"unknown_variant"`).
    UnknownVariant,
    /// A number outside the allowed range: `300` for a `u8`, `0` below a
    /// `minimum` of `1` (`"out_of_range"`).
    OutOfRange,
    /// Anything else: a string that does not match a pattern, an array of
    /// the wrong length, a custom check of the type (`"other"`). Also what
    /// a kind from a newer peer reads as.
    #[serde(other)]
    Other,
}

impl ArgumentErrorKind {
    /// The wire name: `"missing"`, `"wrong_type"`, `"unknown_field"`,
    /// `"unknown_variant"`, `"out_of_range"` or `"other"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ArgumentErrorKind::Missing => "missing",
            ArgumentErrorKind::WrongType => "wrong_type",
            ArgumentErrorKind::UnknownField => "unknown_field",
            ArgumentErrorKind::UnknownVariant => "unknown_variant",
            ArgumentErrorKind::OutOfRange => "out_of_range",
            ArgumentErrorKind::Other => "other",
        }
    }
}

impl fmt::Display for ArgumentErrorKind {
    /// The wire name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ArgumentError {
    /// A problem of `kind` at `path` (a JSON Pointer; build one with
    /// [`crate::args::pointer`]), with nothing else known.
    #[must_use]
    pub fn new(kind: ArgumentErrorKind, path: impl Into<String>) -> Self {
        ArgumentError {
            path: path.into(),
            kind,
            expected: None,
            received: None,
            suggestions: Vec::new(),
        }
    }

    /// Sets what would have been accepted (`"an integer from 1 to 14"`).
    #[must_use]
    pub fn with_expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    /// Sets the received JSON type from the value found at `path`; see
    /// [`crate::args::json_type`]. Only the type is kept.
    #[must_use]
    pub fn with_received(mut self, value: &serde_json::Value) -> Self {
        self.received = Some(String::from(json_type(value)));
        self
    }

    /// Replaces the suggestions (names from the argument type, best
    /// first).
    #[must_use]
    pub fn with_suggestions(mut self, suggestions: Vec<String>) -> Self {
        self.suggestions = suggestions;
        self
    }
}

impl fmt::Display for ArgumentError {
    /// One line for the envelope's message: the path (`the arguments value`
    /// for `""`), what is wrong, and the suggestions:
    ///
    /// ```text
    /// /table is missing
    /// /limit must be an integer, got a string
    /// /tabel is not a known field (did you mean "table"?)
    /// /mode must be one of "fast", "slow" (did you mean "fast"?)
    /// /days must be an integer from 1 to 14
    /// /when is invalid
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str("the arguments value")?;
        } else {
            f.write_str(&self.path)?;
        }
        match (self.kind, &self.expected) {
            (ArgumentErrorKind::Missing, _) => f.write_str(" is missing")?,
            (ArgumentErrorKind::UnknownField, _) => f.write_str(" is not a known field")?,
            (_, Some(expected)) => write!(f, " must be {expected}")?,
            (ArgumentErrorKind::WrongType, None) => f.write_str(" has the wrong type")?,
            (ArgumentErrorKind::UnknownVariant, None) => f.write_str(" is not an allowed value")?,
            (ArgumentErrorKind::OutOfRange, None) => f.write_str(" is out of range")?,
            (ArgumentErrorKind::Other, None) => f.write_str(" is invalid")?,
        }
        if self.kind == ArgumentErrorKind::WrongType
            && let Some(received) = &self.received
        {
            write!(f, ", got {}", with_article(received))?;
        }
        if !self.suggestions.is_empty() {
            f.write_str(" (did you mean ")?;
            names_list(f, &self.suggestions)?;
            f.write_str("?)")?;
        }
        Ok(())
    }
}

/// `"A", "B" or "C"`: names as JSON string literals, the form a model
/// writes them in; near misses in an argument problem and in the text a
/// model reads.
pub(crate) fn names_list(out: &mut impl fmt::Write, names: &[String]) -> fmt::Result {
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.write_str(if i + 1 == names.len() { " or " } else { ", " })?;
        }
        write!(out, "{}", Value::from(name.as_str()))?;
    }
    Ok(())
}

/// The JSON type name of `value`, as JSON Schema names types: `"null"`,
/// `"boolean"`, `"integer"` (a number without a fraction), `"number"`,
/// `"string"`, `"array"` or `"object"`. What [`ArgumentError::received`]
/// holds. Re-exported as `args::json_type`.
#[must_use]
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        // Every number is a float too (an `i64` or `u64` one exactly or
        // rounded to a whole one), and serde_json reads an integer beyond
        // 64 bits as a float.
        Value::Number(n) if n.as_f64().is_some_and(|x| x.fract() == 0.0) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A JSON type name with its article, as read in a sentence: `"a string"`,
/// `"an integer"`, `"null"`.
pub(crate) fn with_article(type_name: &str) -> String {
    match type_name {
        "null" => String::from("null"),
        "integer" | "array" | "object" => format!("an {type_name}"),
        _ => format!("a {type_name}"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn text(error: &ArgumentError) -> String {
        error.to_string()
    }

    #[test]
    fn wire_form_in_key_order_with_empty_keys_left_out() {
        let error = ArgumentError::new(ArgumentErrorKind::UnknownField, "/tabel")
            .with_received(&json!("x"))
            .with_suggestions(vec!["table".into()]);
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"path":"/tabel","kind":"unknown_field","received":"string","suggestions":["table"]}"#
        );
        let missing = ArgumentError::new(ArgumentErrorKind::Missing, "/table");
        assert_eq!(
            serde_json::to_string(&missing).unwrap(),
            r#"{"path":"/table","kind":"missing"}"#
        );
    }

    #[test]
    fn every_kind_wire_name() {
        for (kind, name) in [
            (ArgumentErrorKind::Missing, "missing"),
            (ArgumentErrorKind::WrongType, "wrong_type"),
            (ArgumentErrorKind::UnknownField, "unknown_field"),
            (ArgumentErrorKind::UnknownVariant, "unknown_variant"),
            (ArgumentErrorKind::OutOfRange, "out_of_range"),
            (ArgumentErrorKind::Other, "other"),
        ] {
            assert_eq!(kind.as_str(), name);
            assert_eq!(kind.to_string(), name);
            assert_eq!(serde_json::to_value(kind).unwrap(), json!(name));
            assert_eq!(
                serde_json::from_value::<ArgumentErrorKind>(json!(name)).unwrap(),
                kind
            );
        }
    }

    #[test]
    fn lenient_reading() {
        let read: ArgumentError = serde_json::from_value(json!({
            "path": "/a", "kind": "too_clever", "expected": null, "received": null,
            "suggestions": null, "severity": "high",
        }))
        .unwrap();
        assert_eq!(read, ArgumentError::new(ArgumentErrorKind::Other, "/a"));
        assert_eq!(
            serde_json::from_value::<ArgumentError>(json!({"kind": "missing"}))
                .unwrap_err()
                .to_string(),
            "missing field `path`"
        );
    }

    #[test]
    fn display_of_each_kind() {
        let at = ArgumentError::new;
        assert_eq!(
            text(&at(ArgumentErrorKind::Missing, "/table")),
            "/table is missing"
        );
        assert_eq!(
            text(
                &at(ArgumentErrorKind::WrongType, "/limit")
                    .with_expected("an integer")
                    .with_received(&json!("5"))
            ),
            "/limit must be an integer, got a string"
        );
        assert_eq!(
            text(&at(ArgumentErrorKind::WrongType, "").with_received(&json!(null))),
            "the arguments value has the wrong type, got null"
        );
        assert_eq!(
            text(
                &at(ArgumentErrorKind::UnknownField, "/tabel").with_suggestions(vec![
                    "table".into(),
                    "tables".into(),
                    "label".into()
                ])
            ),
            r#"/tabel is not a known field (did you mean "table", "tables" or "label"?)"#
        );
        assert_eq!(
            text(
                &at(ArgumentErrorKind::UnknownVariant, "/mode")
                    .with_expected(r#"one of "fast", "slow""#)
                    .with_suggestions(vec!["fast".into()])
            ),
            r#"/mode must be one of "fast", "slow" (did you mean "fast"?)"#
        );
        assert_eq!(
            text(&at(ArgumentErrorKind::UnknownVariant, "/mode")),
            "/mode is not an allowed value"
        );
        assert_eq!(
            text(
                &at(ArgumentErrorKind::OutOfRange, "/days")
                    .with_expected("an integer from 1 to 14")
            ),
            "/days must be an integer from 1 to 14"
        );
        assert_eq!(
            text(&at(ArgumentErrorKind::OutOfRange, "/days")),
            "/days is out of range"
        );
        assert_eq!(
            text(&at(ArgumentErrorKind::Other, "/when")),
            "/when is invalid"
        );
        assert_eq!(
            text(
                &at(ArgumentErrorKind::UnknownField, "/x")
                    .with_suggestions(vec!["a\"b".into(), "c".into()])
            ),
            r#"/x is not a known field (did you mean "a\"b" or "c"?)"#
        );
    }
}
