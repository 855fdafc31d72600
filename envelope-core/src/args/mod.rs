//! Argument validation: a tool's JSON arguments parsed into its argument
//! type, or an `INVALID_ARGUMENTS` envelope that names every problem found.
//!
//! Malformed arguments are the most common tool failure in agent loops: a
//! missing field, a number sent as a string, a misspelled key, an enum
//! value that does not exist. What comes back decides whether the model's
//! next call succeeds, so the envelope says where each problem is (a JSON
//! Pointer, RFC 6901), what kind it is, what was expected and which names
//! of the argument type look like what was meant:
//!
//! ```
//! # extern crate envelope_core as envelope;
//! use envelope::{Envelope, args};
//! use serde::Deserialize;
//! use serde_json::json;
//!
//! #[derive(Debug, Deserialize)]
//! #[serde(deny_unknown_fields)]
//! struct Query {
//!     table: String,
//!     limit: u32,
//! }
//!
//! let error = args::parse::<Query>(json!({"table": "EMP", "limit": "5"})).unwrap_err();
//! assert_eq!(
//!     error.to_json_string(),
//!     concat!(
//!         r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","#,
//!         r#""message":"1 problem in the arguments: /limit must be an integer, got a string","#,
//!         r#""next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"#,
//!         r#""category":"Validation","#,
//!         r#""details":{"corrected_arguments":{"limit":5,"table":"EMP"}},"#,
//!         r#""argument_errors":[{"path":"/limit","kind":"wrong_type","expected":"an integer","received":"string"}]}"#,
//!     )
//! );
//! ```
//!
//! When every problem's fix follows from what was sent (a misspelled key,
//! a number or a boolean sent as a string, an enum value with one near
//! miss), the envelope's `details.corrected_arguments` holds the arguments
//! with the fixes made, checked against the argument type (at most 1 KiB
//! of JSON): the one place where a value the caller sent comes back, to
//! the caller that sent it. The text a model reads leads with them.
//!
//! Three entry points, by what the argument type offers:
//!
//! - [`parse`]: any `T: DeserializeOwned`. serde stops at the first
//!   problem, so this reports exactly one, with its exact path (through
//!   `serde_path_to_error`).
//! - `parse_with_schema` (feature `jsonschema`): `T` also implements
//!   `schemars::JsonSchema`. When serde fails, the arguments are checked
//!   against `T`'s JSON Schema (draft 2020-12, the schema an MCP tool
//!   publishes as its `inputSchema`) with the `jsonschema` crate, so every
//!   missing required field, every unknown key and every wrong value is
//!   reported at once.
//! - `Args` (feature `schemars`, which `rmcp` turns on): the rmcp
//!   extractor. A tool takes `Parameters<Args<T>>` and gets `Ok(T)` or the
//!   envelope to return with `?`; its `inputSchema` is exactly `T`'s.
//!
//! Parsing costs one serde pass over the arguments; the schema is built
//! and checked only after serde has failed. serde decides what is valid:
//! a value serde accepts is returned even if the schema would object, and
//! the schema only adds detail to a failure.
//!
//! [`invalid_arguments`] builds the same envelope from problems a server
//! finds itself ("`days` must be from 1 to 14"), so every argument failure
//! of a server reads alike.

mod correct;
pub(crate) mod from_serde;
pub(crate) mod next_call;

#[cfg(feature = "jsonschema")]
mod from_schema;

#[cfg(feature = "schemars")]
mod extract;

use std::cmp::Ordering;

use serde::de::DeserializeOwned;
use serde_json::Value;

#[cfg(any(test, feature = "jsonschema", feature = "schemars"))]
use crate::model::argument_error::ArgumentErrorKind;
pub use crate::model::argument_error::json_type;
use crate::model::argument_error::{ArgumentError, FIX_STEP};
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;
#[cfg(feature = "schemars")]
pub use extract::Args;

/// How many problems the envelope lists; the message counts the rest
/// ("; and 4 more").
const MAX_LISTED: usize = 20;

/// How many characters of one key a path keeps; a longer key is cut and
/// marked with `…`.
const MAX_KEY_CHARS: usize = 64;

/// Parses a tool's JSON arguments into `T`, or returns the
/// `INVALID_ARGUMENTS` envelope of [`invalid_arguments`] naming the
/// problem.
///
/// serde stops at the first problem, so the envelope lists one: its JSON
/// Pointer path (the wire names, after `rename` and `rename_all`), its
/// kind, what was expected (`"an integer"`, `"an integer from 0 to 255"`,
/// `one of "fast", "slow"`), the JSON type received, and for an unknown
/// field or enum value the near misses among the names serde lists. To
/// report every problem at once, use `parse_with_schema` (feature
/// `jsonschema`).
///
/// serde reads an internally or adjacently tagged enum, an untagged enum
/// and a `#[serde(flatten)]`ed field through a buffer that keeps no path.
/// For those the place is found in the arguments: the value serde quotes,
/// the object that lacks the missing field, the object with the unknown
/// key, the unknown variant's name; where several fit, `T` is deserialized
/// again with one of them changed at a time, and the one that moves
/// serde's problem is the place. So a field of a tagged variant inside an
/// array is `/shapes/1/width`, and an integer beyond 64 bits is
/// `out_of_range` with its type's bounds. Exactly two shapes point at an
/// enclosing value instead, as kind `other` with no `expected` and no
/// claim about the value's type (`/shape is invalid`):
///
/// - an untagged enum whose value fits none of its variants: the enum's
///   value (serde says only that none fit);
/// - inside a buffered value, a problem serde states without the value
///   (a `try_from` or `deserialize_with` message, an array of the wrong
///   length), or one that more than one place could hold: the nearest
///   value holding every such place, at most the buffered value.
///
/// `parse_with_schema` finds the exact path of those where the schema can
/// tell (the one variant of an untagged enum whose type fits).
///
/// Never panics, whatever the arguments: any JSON shape, deep nesting,
/// huge strings or keys.
///
/// # Errors
///
/// The `INVALID_ARGUMENTS` envelope, with `argument_errors` holding one
/// [`ArgumentError`], when `arguments` does not deserialize into `T`.
pub fn parse<T: DeserializeOwned>(arguments: Value) -> Result<T, ErrorEnvelope> {
    serde_path_to_error::deserialize(&arguments).map_err(|error| {
        let envelope = invalid_arguments(vec![from_serde::problem::<T>(&error, &arguments)]);
        correct::offer::<T>(envelope, &arguments)
    })
}

/// Parses a tool's JSON arguments into `T`, or returns the
/// `INVALID_ARGUMENTS` envelope naming every problem that `T`'s JSON
/// Schema finds (feature `jsonschema`).
///
/// The arguments go through serde first; only when that fails is `T`'s
/// schema generated (schemars, draft 2020-12, the settings rmcp uses for a
/// tool's `inputSchema`) and checked by the `jsonschema` crate. Each
/// schema error becomes one [`ArgumentError`]:
///
/// | schema keyword | kind | `expected` |
/// |---|---|---|
/// | `required` | `missing` | — |
/// | `additionalProperties: false` (`deny_unknown_fields`), `unevaluatedProperties` | `unknown_field`, one per key, suggestions from the object's `properties` | — |
/// | `type` | `wrong_type` | `"an integer"`, `"a string or null"` |
/// | `enum`, `const` of strings | `unknown_variant`, suggestions from the allowed values | `one of "fast", "slow"` |
/// | `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` | `out_of_range` | `"an integer from 0 to 255"`, `"a number of at least 1"` |
/// | `minLength`, `maxLength`, `minItems`, `maxItems`, `pattern`, `format`, `multipleOf`, `uniqueItems`, ... | `other` | `"a string of at most 30 characters"` |
///
/// The bounds of an integer type are checked whatever its schema says:
/// schemars writes only `minimum: 0` for a `u32` (a `format` is not
/// checked), so the `format`'s bounds are added, and an integer out of its
/// type's range, beyond 64 bits included, is `out_of_range` with the
/// type's bounds, as [`parse`] reports it.
///
/// An `anyOf` / `oneOf` (an `Option` of a struct or enum, an enum with
/// data) is reported through the one alternative whose type matches the
/// value, so `Option<Filter>` names the problems inside the filter; when
/// no single alternative fits, the problem is `wrong_type` (no alternative
/// has the value's type) or `other`. A value whose type is wrong is
/// reported once, as `wrong_type`, not also as out of range. serde's own
/// first problem is kept when the schema missed it.
///
/// Unknown keys are problems only where the type refuses them
/// (`#[serde(deny_unknown_fields)]`, which schemars writes as
/// `additionalProperties: false`); otherwise serde ignores them and so
/// does this function.
///
/// # Errors
///
/// The `INVALID_ARGUMENTS` envelope when `arguments` does not deserialize
/// into `T`. Should the schema fail to compile, the envelope holds serde's
/// first problem, as [`parse`] would.
#[cfg(feature = "jsonschema")]
#[cfg_attr(docsrs, doc(cfg(feature = "jsonschema")))]
pub fn parse_with_schema<T>(arguments: Value) -> Result<T, ErrorEnvelope>
where
    T: DeserializeOwned + schemars::JsonSchema,
{
    let error = match serde_path_to_error::deserialize(&arguments) {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    let first = from_serde::problem::<T>(&error, &arguments);
    let (problems, omitted) = with_schema::<T>(&arguments, first, |_| None);
    Err(correct::offer::<T>(
        summarize(problems, omitted),
        &arguments,
    ))
}

/// serde's `first` problem in `arguments`, merged with every problem `T`'s
/// schema finds there, and how many more the schema found. `prepare`
/// gets the schema and may return the arguments adapted to it (the strings
/// of a URL, typed), which the schema then checks instead. Only serde's
/// problem when the schema does not compile.
#[cfg(feature = "jsonschema")]
pub(crate) fn with_schema<T: schemars::JsonSchema>(
    arguments: &Value,
    first: ArgumentError,
    prepare: impl FnOnce(&Value) -> Option<Value>,
) -> (Vec<ArgumentError>, usize) {
    let schema = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    let prepared = prepare(schema.as_value());
    match from_schema::problems(schema.as_value(), prepared.as_ref().unwrap_or(arguments)) {
        Some(found) => (merge(found.problems, first), found.omitted),
        None => (vec![first], 0),
    }
}

/// The check of [`Args`] and of the axum extractors: [`parse_with_schema`]
/// with the `jsonschema` feature (every problem), else [`parse`] (serde's
/// first).
///
/// A failed check also names every top-level key the type's schema does
/// not list in `properties` as an unknown key, with its near misses
/// ([`unknown_keys`]), whether or not the type refuses unknown keys: a
/// misspelled `titel` for `title` is the reason `/title is missing`, and
/// the corrected call renames it.
#[cfg(feature = "schemars")]
pub(crate) fn check<T>(arguments: Value) -> Result<T, ErrorEnvelope>
where
    T: DeserializeOwned + schemars::JsonSchema,
{
    #[cfg(feature = "jsonschema")]
    let checked = parse_with_schema::<T>(arguments.clone());
    #[cfg(not(feature = "jsonschema"))]
    let checked = parse::<T>(arguments.clone());
    checked.map_err(|envelope| {
        let schema = schemars::generate::SchemaSettings::draft2020_12()
            .into_generator()
            .into_root_schema_for::<T>();
        let mut problems = envelope.argument_errors.clone();
        let known = problems.len();
        for unknown in unknown_keys(schema.as_value(), &arguments) {
            if !problems.iter().any(|problem| problem.path == unknown.path) {
                problems.push(unknown);
            }
        }
        if problems.len() == known {
            return envelope;
        }
        correct::offer::<T>(summarize(problems, 0), &arguments)
    })
}

/// The top-level keys of `arguments` that `schema` (the JSON Schema of an
/// object, a tool's `inputSchema`) does not name in `properties`, each an
/// `unknown_field` problem whose suggestions are the near misses among the
/// properties not sent; none when the schema names no `properties` or
/// takes any key (`additionalProperties` or `patternProperties` of its
/// own), or `arguments` is no object.
#[cfg(feature = "schemars")]
fn unknown_keys(schema: &Value, arguments: &Value) -> Vec<ArgumentError> {
    let (Some(properties), Some(sent)) = (
        schema.get("properties").and_then(Value::as_object),
        arguments.as_object(),
    ) else {
        return Vec::new();
    };
    let open = schema
        .get("additionalProperties")
        .is_some_and(|extra| extra != &Value::Bool(false))
        || schema.get("patternProperties").is_some();
    if open {
        return Vec::new();
    }
    let missing: Vec<&str> = properties
        .keys()
        .map(String::as_str)
        .filter(|name| !sent.contains_key(*name))
        .collect();
    sent.iter()
        .filter(|(key, _)| !properties.contains_key(*key))
        .map(|(key, value)| {
            ArgumentError::new(ArgumentErrorKind::UnknownField, pointer([key.as_str()]))
                .with_suggestions(crate::model::fuzzy::suggest(key, &missing, 3))
                .with_received(value)
        })
        .collect()
}

/// The `INVALID_ARGUMENTS` envelope of serde's problem `error`, located in
/// `arguments`: for a reader that deserialized the raw JSON text (which
/// sees what a `Value` hides, a key given twice) where the `Value` passed.
/// A key given twice is named (`/column must be given once`).
#[cfg(feature = "axum")]
pub(crate) fn serde_problem<T: DeserializeOwned>(
    error: &serde_path_to_error::Error<serde_json::Error>,
    arguments: &Value,
) -> ErrorEnvelope {
    let mut problem = from_serde::problem::<T>(error, arguments);
    let message = error.inner().to_string();
    if let Some(name) = message
        .strip_prefix("duplicate field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(name, _)| name)
    {
        if !problem.path.ends_with(&pointer([name])) {
            problem.path.push_str(&pointer([name]));
        }
        problem.expected = Some(String::from("given once"));
        problem.received = None;
    }
    invalid_arguments(vec![problem])
}

/// Keeps serde's `first` problem unless the schema already reports it,
/// something under its path, or a wrong type above it; a vaguer schema
/// problem (`other`) at or above its path gives way to it.
#[cfg(feature = "jsonschema")]
fn merge(mut problems: Vec<ArgumentError>, first: ArgumentError) -> Vec<ArgumentError> {
    if let Some(same) = problems
        .iter_mut()
        .find(|p| p.path == first.path && p.kind == first.kind)
    {
        if same.suggestions.is_empty() {
            same.suggestions = first.suggestions;
        }
        return problems;
    }
    // An `other` at or above serde's problem says less than it does.
    let vaguer =
        |p: &ArgumentError| p.kind == ArgumentErrorKind::Other && contains(&p.path, &first.path);
    // The schema found it, or something under it; or the schema says an
    // enclosing value has the wrong type, which makes it moot (serde may
    // read a struct from an array, the schema does not).
    let moot = |p: &ArgumentError| {
        !vaguer(p)
            && (contains(&first.path, &p.path)
                || (p.kind == ArgumentErrorKind::WrongType && contains(&p.path, &first.path)))
    };
    if problems.iter().any(moot) {
        return problems;
    }
    problems.retain(|p| !vaguer(p));
    problems.push(first);
    problems
}

/// Whether the pointer `outer` is `inner` or one of its ancestors.
#[cfg(feature = "jsonschema")]
fn contains(outer: &str, inner: &str) -> bool {
    inner
        .strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The `INVALID_ARGUMENTS` envelope for `problems`:
///
/// - `message`: `"2 problems in the arguments: /table is missing; /limit
///   must be an integer, got a string"`, each problem in its
///   [`Display`](ArgumentError#impl-Display-for-ArgumentError) form;
/// - `argument_errors`: the problems, ordered by kind (missing, wrong
///   type, unknown field, unknown variant, out of range, other) and then by
///   path (array indices in numeric order), duplicates removed, at most 20
///   (the message ends with "; and 4 more" for the rest);
/// - `next_steps`: `"fix each argument listed in argument_errors, then call
///   the tool again with the fixed arguments; its inputSchema lists every
///   argument"`;
/// - class `INVALID_ARGUMENTS` (so category `Validation`, not retryable),
///   no `code`.
///
/// With no problems at all the message is `"the arguments are invalid"`.
#[must_use]
pub fn invalid_arguments(problems: Vec<ArgumentError>) -> ErrorEnvelope {
    summarize(problems, 0)
}

/// [`invalid_arguments`], with `omitted` more problems that were found
/// but not built.
pub(crate) fn summarize(mut problems: Vec<ArgumentError>, omitted: usize) -> ErrorEnvelope {
    // The rest of the order only makes equal problems neighbours for dedup.
    problems.sort_by(|a, b| {
        a.kind
            .cmp(&b.kind)
            .then_with(|| compare_paths(&a.path, &b.path))
            .then_with(|| {
                (&a.expected, &a.received, &a.suggestions).cmp(&(
                    &b.expected,
                    &b.received,
                    &b.suggestions,
                ))
            })
    });
    problems.dedup();
    let total = problems.len() + omitted;
    problems.truncate(MAX_LISTED);
    let message = match total {
        0 => String::from("the arguments are invalid"),
        _ => {
            let mut message = format!(
                "{total} problem{} in the arguments: ",
                if total == 1 { "" } else { "s" }
            );
            for (i, problem) in problems.iter().enumerate() {
                if i > 0 {
                    message.push_str("; ");
                }
                message.push_str(&problem.to_string());
            }
            if total > problems.len() {
                message.push_str(&format!("; and {} more", total - problems.len()));
            }
            message
        }
    };
    ErrorEnvelope::new(ErrorClass::InvalidArguments, message)
        .with_next_step(FIX_STEP)
        .with_argument_errors(problems)
}

/// Orders JSON Pointers segment by segment, array indices by number:
/// `/rows/9` before `/rows/10`, a parent before its children.
fn compare_paths(a: &str, b: &str) -> Ordering {
    let mut left = a.split('/');
    let mut right = b.split('/');
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    _ => x.cmp(y),
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

/// A reference token of a JSON Pointer as the key it names (RFC 6901,
/// section 4: `~1` is `/`, then `~0` is `~`); [`pointer`] escapes.
pub(crate) fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// A JSON Pointer (RFC 6901) from unescaped reference tokens:
/// `["rows", "3", "id"]` gives `"/rows/3/id"`, no tokens give `""` (the
/// whole document). In each token `~` is written `~0` and `/` is written
/// `~1` (RFC 6901, section 3).
///
/// A token longer than 64 characters keeps its first 64 and gets `…`
/// appended, so a huge key sent by a caller is never echoed back whole;
/// such a pointer no longer resolves.
///
/// ```
/// # extern crate envelope_core as envelope;
/// assert_eq!(envelope::args::pointer(["filter", "a/b~c"]), "/filter/a~1b~0c");
/// assert_eq!(envelope::args::pointer(Vec::<String>::new()), "");
/// ```
#[must_use]
pub fn pointer<I>(tokens: I) -> String
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    let mut pointer = String::new();
    for token in tokens {
        pointer.push('/');
        let (kept, cut) = shown(token.as_ref());
        for c in kept.chars() {
            match c {
                '~' => pointer.push_str("~0"),
                '/' => pointer.push_str("~1"),
                c => pointer.push(c),
            }
        }
        if cut {
            pointer.push('…');
        }
    }
    pointer
}

/// The part of a name the caller sent that is echoed back: its first
/// [`MAX_KEY_CHARS`] characters, and whether the rest was cut (the echo
/// then ends in `…`). For argument keys here and tool names in the rmcp
/// integration.
pub(crate) fn shown(name: &str) -> (&str, bool) {
    match name.char_indices().nth(MAX_KEY_CHARS) {
        Some((end, _)) => (&name[..end], true),
        None => (name, false),
    }
}

/// The value at the unescaped `tokens` under `root`, if there is one.
fn lookup<'v, S: AsRef<str>>(root: &'v Value, tokens: &[S]) -> Option<&'v Value> {
    tokens.iter().try_fold(root, |value, token| match value {
        Value::Object(map) => map.get(token.as_ref()),
        Value::Array(items) => items.get(token.as_ref().parse::<usize>().ok()?),
        _ => None,
    })
}

/// `one of "a", "b"` for several allowed names, `"a"` for one, `None` for
/// none: the `expected` of an unknown variant.
fn one_of<I>(names: I) -> Option<String>
where
    I: IntoIterator,
    I::Item: Into<Value>,
{
    let names: Vec<String> = names
        .into_iter()
        .map(|name| name.into().to_string())
        .collect();
    match names.len() {
        0 => None,
        1 => names.into_iter().next(),
        _ => Some(format!("one of {}", names.join(", "))),
    }
}

/// Near misses for `received` among `names`, or none when `received` is
/// too long to be a misspelling of a name (which also bounds the work).
fn near_misses<I>(received: &str, names: I) -> Vec<String>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    near_misses_where(received, names, |_, _, _| true)
}

/// Near misses for `received`, a value that is none of an enum's `names`:
/// only names it misspells (at most one edit per three characters of the
/// longer of the two, case aside) or shortens or lengthens (one is a
/// prefix of the other). One of them becomes the value to send
/// (`correct.rs`), so a different word is no near miss: `hihg` and `hi`
/// give `high`, `euro` gives `eur`, `rectangle` gives `rect`; `done` gives
/// nothing (not `open`, three edits in four letters), nor does `triangle`
/// (not `circle`).
fn variant_near_misses<I>(received: &str, names: I) -> Vec<String>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    near_misses_where(received, names, |received, name, distance| {
        let longer = received.chars().count().max(name.chars().count());
        distance <= (longer / 3).max(1)
            || (!received.is_empty() && (name.starts_with(received) || received.starts_with(name)))
    })
}

/// The best three of `names` near `received` by `fuzzy::suggest_where`'s
/// rule and `also`, or none when `received` is too long to be a
/// misspelling of a name (which also bounds the work).
fn near_misses_where<I>(
    received: &str,
    names: I,
    also: impl Fn(&str, &str, usize) -> bool,
) -> Vec<String>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    if received.len() > 4 * MAX_KEY_CHARS {
        return Vec::new();
    }
    crate::model::fuzzy::suggest_where(received, names, 3, also)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_escapes_and_cuts() {
        assert_eq!(pointer(["a~b/c", "0", ""]), "/a~0b~1c/0/");
        assert_eq!(pointer(["~1"]), "/~01");
        let long = "k".repeat(100);
        assert_eq!(pointer([long.as_str()]), format!("/{}…", "k".repeat(64)));
        let exact = "é".repeat(64);
        assert_eq!(pointer([exact.as_str()]), format!("/{exact}"));
    }

    #[test]
    fn paths_order_by_segment_and_index() {
        let mut paths = vec!["/rows/10", "/rows/9/id", "/rows", "", "/b", "/a/z"];
        paths.sort_by(|a, b| compare_paths(a, b));
        assert_eq!(paths, ["", "/a/z", "/b", "/rows", "/rows/9/id", "/rows/10"]);
    }

    #[test]
    fn summary_orders_dedups_and_caps() {
        let missing = |path: &str| ArgumentError::new(ArgumentErrorKind::Missing, path);
        let envelope = invalid_arguments(vec![
            ArgumentError::new(ArgumentErrorKind::WrongType, "/limit")
                .with_expected("an integer")
                .with_received(&Value::from("5")),
            missing("/table"),
            missing("/table"),
        ]);
        assert_eq!(
            envelope.message,
            "2 problems in the arguments: /table is missing; /limit must be an integer, got a string"
        );
        assert_eq!(envelope.next_steps, [FIX_STEP]);
        assert_eq!(envelope.error_class, ErrorClass::InvalidArguments);
        assert_eq!(envelope.argument_errors.len(), 2);

        let many: Vec<ArgumentError> = (0..25).map(|i| missing(&format!("/f{i:02}"))).collect();
        let envelope = invalid_arguments(many);
        assert_eq!(envelope.argument_errors.len(), MAX_LISTED);
        assert!(
            envelope
                .message
                .starts_with("25 problems in the arguments: /f00 is missing; ")
        );
        assert!(envelope.message.ends_with("/f19 is missing; and 5 more"));

        assert_eq!(
            invalid_arguments(Vec::new()).message,
            "the arguments are invalid"
        );
    }

    #[test]
    fn json_type_names() {
        let names: Vec<&str> = [
            serde_json::json!(null),
            serde_json::json!(true),
            serde_json::json!(-3),
            serde_json::json!(1.5),
            serde_json::json!("s"),
            serde_json::json!([]),
            serde_json::json!({}),
        ]
        .iter()
        .map(json_type)
        .collect();
        assert_eq!(
            names,
            [
                "null", "boolean", "integer", "number", "string", "array", "object"
            ]
        );
    }
}
