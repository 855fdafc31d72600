//! serde's first problem as an [`ArgumentError`].
//!
//! `serde_path_to_error` gives the path; the kind, the expected text and
//! the allowed names come from serde's error message, whose forms are fixed
//! by `serde::de::Error`'s provided methods (`missing field `x``, `unknown
//! field `x`, expected one of `a`, `b``, `invalid type: string "x",
//! expected u32`, ...). The message embeds the received value, so only the
//! parts that come from the type are kept: the text after the *last*
//! `, expected ` (a received string cannot end the message), and names
//! between backticks in that text.

use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_path_to_error::{Error, Segment};

use super::{lookup, near_misses, one_of, pointer, variant_near_misses};
use crate::model::argument_error::{ArgumentError, ArgumentErrorKind, json_type};

mod locate;

pub(in crate::args) use locate::Retry;
use locate::{Fault, Place, Quoted};

/// The problem serde stopped at, located in `arguments`, which serde
/// could not read as a `T`. Where serde's path stops at a value it read
/// through a buffer (see [`locate`]), `T` is deserialized again from
/// changed arguments to find the place.
pub(super) fn problem<T: DeserializeOwned>(
    error: &Error<serde_json::Error>,
    arguments: &Value,
) -> ArgumentError {
    let retry = |changed: &Value| {
        serde_path_to_error::deserialize::<_, T>(changed)
            .err()
            .map(|error| (tokens(error.path(), changed), error.inner().to_string()))
    };
    problem_with(error, arguments, &retry)
}

/// [`problem`], with `retry` reading changed arguments as the caller
/// read the first ones (the strings of a URL, through their own
/// deserializer).
pub(crate) fn problem_with(
    error: &Error<serde_json::Error>,
    arguments: &Value,
    retry: Retry<'_>,
) -> ArgumentError {
    let tokens = tokens(error.path(), arguments);
    let message = error.inner().to_string();
    let path = tokens.clone();
    let said = (path.as_slice(), message.as_str());
    let locate = |fault: &Fault<'_>, tokens: Vec<String>| {
        locate::locate(fault, tokens, arguments, said, retry)
    };
    // Somewhere inside the value at `tokens`: no claim about the value
    // itself beyond that.
    let within = |tokens: Vec<String>| {
        let mut problem = ArgumentError::new(ArgumentErrorKind::Other, pointer(&tokens));
        if let Some(value) = lookup(arguments, &tokens) {
            problem = problem.with_received(value);
        }
        problem
    };

    if let Some(name) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        return match locate(&Fault::Missing(name), tokens) {
            Place::Exact(tokens) => {
                ArgumentError::new(ArgumentErrorKind::Missing, pointer(&tokens))
            }
            Place::Within(tokens) => within(tokens),
        };
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (name, names) = name_and_names(rest, "there are no fields");
        // serde_path_to_error records the key, except when serde finds the
        // key only after reading the object (`flatten`).
        let mut object = tokens;
        if object.last().map(String::as_str) == Some(name) {
            object.pop();
        }
        let tokens = match locate(&Fault::UnknownField(name), object) {
            Place::Exact(tokens) => tokens,
            Place::Within(tokens) => return within(tokens),
        };
        let object = lookup(arguments, &tokens[..tokens.len() - 1]).and_then(Value::as_object);
        // A name already sent is no near miss.
        let absent =
            |candidate: &&str| object.is_none_or(|object| !object.contains_key(*candidate));
        let mut problem = ArgumentError::new(ArgumentErrorKind::UnknownField, pointer(&tokens))
            .with_suggestions(near_misses(name, names.iter().copied().filter(absent)));
        if let Some(value) = lookup(arguments, &tokens) {
            problem = problem.with_received(value);
        }
        return problem;
    }
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        let (name, names) = name_and_names(rest, "there are no variants");
        let tokens = match locate(&Fault::UnknownVariant(name), tokens) {
            Place::Exact(tokens) => tokens,
            Place::Within(tokens) => return within(tokens),
        };
        let mut problem = ArgumentError::new(ArgumentErrorKind::UnknownVariant, pointer(&tokens))
            .with_suggestions(variant_near_misses(name, &names));
        problem.expected = one_of(names);
        if let Some(value) = lookup(arguments, &tokens) {
            problem = problem.with_received(value);
        }
        return problem;
    }
    if let Some((unexpected, expected)) = split_invalid(&message) {
        let tokens = match locate(
            &Fault::Value {
                unexpected,
                expected,
            },
            tokens,
        ) {
            Place::Exact(tokens) => tokens,
            Place::Within(tokens) => return within(tokens),
        };
        return invalid(
            message.starts_with("invalid value: "),
            unexpected,
            expected,
            pointer(&tokens),
            lookup(arguments, &tokens),
        );
    }
    if let Some((_, expected)) = split(&message, "invalid length ") {
        let tokens = match locate(&Fault::Length, tokens) {
            Place::Exact(tokens) => tokens,
            Place::Within(tokens) => return within(tokens),
        };
        let mut problem = ArgumentError::new(ArgumentErrorKind::Other, pointer(&tokens))
            .with_expected(json_expected(expected, false));
        if let Some(value) = lookup(arguments, &tokens) {
            problem = problem.with_received(value);
        }
        return problem;
    }
    // A custom message may quote the value: keep only where it is.
    let at = lookup(arguments, &tokens);
    let mut problem = ArgumentError::new(ArgumentErrorKind::Other, pointer(&tokens));
    if let Some(value) = at {
        problem = problem.with_received(value);
    }
    problem
}

/// An `invalid type` or `invalid value` problem (`value`) at `path`, where
/// `at` is found. `invalid type` is a wrong type; `invalid value` of a
/// number is out of range (`300` for a `u8`, `0` for a nonzero one), of
/// anything else `other`. A whole number serde_json read as a float (a
/// literal beyond 64 bits, or one written `5.0`) is out of range when its
/// value is outside an integer type's bounds, whatever serde calls it.
fn invalid(
    value: bool,
    unexpected: &str,
    expected: &str,
    path: String,
    at: Option<&Value>,
) -> ArgumentError {
    // serde's word for what it read; else the type of what is there.
    let received = received(unexpected).or_else(|| at.map(json_type));
    let bounds = integer_type(expected).and_then(|(name, _)| bounds(name));
    let kind = match (Quoted::read(unexpected), bounds) {
        (Some(Quoted::Float(x)), Some((min, max))) if x.fract() == 0.0 => {
            if within_float(x, min, max) {
                return ArgumentError {
                    received: received.map(String::from),
                    ..ArgumentError::new(ArgumentErrorKind::Other, path)
                        .with_expected(unreadable(x, min, max))
                };
            }
            ArgumentErrorKind::OutOfRange
        }
        _ if !value => ArgumentErrorKind::WrongType,
        _ if matches!(received, Some("integer" | "number")) => ArgumentErrorKind::OutOfRange,
        _ => ArgumentErrorKind::Other,
    };
    let range = kind == ArgumentErrorKind::OutOfRange;
    let mut problem = ArgumentError::new(kind, path).with_expected(json_expected(expected, range));
    problem.received = received.map(String::from);
    problem
}

/// What a whole number `x` within an integer type's bounds (`min`,
/// `max`) must be for serde_json to read it as an integer: written
/// without a fraction or exponent; beyond 64 bits (only a 128-bit type
/// holds it), within them.
fn unreadable(x: f64, min: i128, max: u128) -> String {
    if x > I64_MIN && x < U64_END {
        String::from("an integer without a fraction or exponent")
    } else {
        format!(
            "an integer from {} to {}",
            min.max(i128::from(i64::MIN)),
            max.min(u128::from(u64::MAX))
        )
    }
}

/// `invalid type: <unexpected>, expected <expected>` or `invalid value:
/// ...`, split.
fn split_invalid(message: &str) -> Option<(&str, &str)> {
    split(message, "invalid type: ").or_else(|| split(message, "invalid value: "))
}

/// The reference tokens of serde's path, checked against `arguments`: an
/// enum variant is a token only where it is a key (`{"Variant": {...}}`),
/// and an unknown segment (a key that was not a string) ends the path.
pub(crate) fn tokens(path: &serde_path_to_error::Path, arguments: &Value) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    for segment in path {
        match segment {
            Segment::Seq { index } => tokens.push(index.to_string()),
            Segment::Map { key } => tokens.push(key.clone()),
            Segment::Enum { variant } => {
                let keyed = lookup(arguments, &tokens)
                    .and_then(Value::as_object)
                    .is_some_and(|object| object.contains_key(variant));
                if keyed {
                    tokens.push(variant.clone());
                }
            }
            Segment::Unknown => break,
        }
    }
    tokens
}

/// `"x`, expected one of `a`, `b`"` gives `x` and `[a, b]`.
fn name_and_names<'m>(rest: &'m str, none: &str) -> (&'m str, Vec<&'m str>) {
    if let Some(at) = rest.rfind("`, expected ") {
        let names = rest[at + "`, expected ".len()..]
            .split('`')
            .skip(1)
            .step_by(2)
            .collect();
        return (&rest[..at], names);
    }
    let name = rest
        .strip_suffix(&format!("`, {none}"))
        .or_else(|| rest.strip_suffix('`'))
        .unwrap_or(rest);
    (name, Vec::new())
}

/// `"invalid type: string \"x\", expected u32"` gives `string "x"` and
/// `u32`.
fn split<'m>(message: &'m str, prefix: &str) -> Option<(&'m str, &'m str)> {
    let rest = message.strip_prefix(prefix)?;
    let at = rest.rfind(", expected ")?;
    Some((&rest[..at], &rest[at + ", expected ".len()..]))
}

/// The JSON type of serde's `Unexpected` text (`string "x"`, ``integer
/// `5` ``, `map`, `unit value`).
fn received(unexpected: &str) -> Option<&'static str> {
    let word = |w: &str| unexpected == w || unexpected.starts_with(&format!("{w} "));
    let name = if word("string") {
        "string"
    } else if word("integer") {
        "integer"
    } else if word("floating point") {
        // A number without a fraction is an integer, as `json_type` says.
        match Quoted::read(unexpected) {
            Some(Quoted::Float(x)) if x.fract() == 0.0 => "integer",
            _ => "number",
        }
    } else if word("boolean") {
        "boolean"
    } else if word("map") {
        "object"
    } else if word("sequence") {
        "array"
    } else if word("unit value") || word("null") {
        "null"
    } else {
        return None;
    };
    Some(name)
}

/// serde's "expected" text in JSON terms: `u32` is `an integer` (with its
/// bounds when `range`), `a sequence` is `an array`, `struct Filter` is
/// `an object`. Anything else is the type's own text, kept as it is.
fn json_expected(expected: &str, range: bool) -> String {
    if let Some((name, nonzero)) = integer_type(expected)
        && let Some((min, max)) = bounds(name)
    {
        let min = if nonzero && min == 0 { 1 } else { min };
        return match (range, nonzero && min != 1) {
            (true, false) => format!("an integer from {min} to {max}"),
            (true, true) => format!("an integer other than 0, from {min} to {max}"),
            (false, _) => String::from("an integer"),
        };
    }
    let json = match expected {
        "f32" | "f64" => "a number",
        // A tag or a key of an enum's or a struct's own names.
        "a string" | "a borrowed string" | "string" | "variant identifier" | "field identifier" => {
            "a string"
        }
        "a boolean" => "a boolean",
        "a character" | "char" => "a string of one character",
        "a sequence" => "an array",
        "a map" => "an object",
        "unit" => "null",
        "string or map" => "a string or an object",
        other if other.starts_with("struct ") || other.starts_with("struct variant ") => {
            "an object"
        }
        other if other.starts_with("tuple struct ") || other.starts_with("tuple variant ") => {
            "an array"
        }
        other => {
            if let Some(size) = other.strip_prefix("a tuple of size ") {
                return format!("an array of {size} items");
            }
            return String::from(other);
        }
    };
    String::from(json)
}

/// serde's name of an integer type (`u32`, `a nonzero u32`), and whether
/// it is a nonzero one.
fn integer_type(expected: &str) -> Option<(&str, bool)> {
    let (name, nonzero) = match expected.strip_prefix("a nonzero ") {
        Some(rest) => (rest, true),
        None => (expected, false),
    };
    bounds(name).map(|_| (name, nonzero))
}

/// The bounds of a primitive integer type named as serde names it
/// (`usize` and `isize` as wide as on the target).
fn bounds(name: &str) -> Option<(i128, u128)> {
    macro_rules! bounds {
        ($($ty:ident)*) => {
            match name {
                // Lossless: every bound fits (`MIN` is never below
                // `i128::MIN`, `MAX` never above `u128::MAX`).
                $(stringify!($ty) => Some((
                    i128::try_from($ty::MIN).unwrap_or(i128::MIN),
                    u128::try_from($ty::MAX).unwrap_or(u128::MAX),
                )),)*
                _ => None,
            }
        };
    }
    bounds!(u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize)
}

/// The least and the greatest integer serde_json reads as an integer
/// (`i64::MIN`, `u64::MAX`) as floats: -2^63 and 2^64.
const I64_MIN: f64 = -9_223_372_036_854_775_808.0;
const U64_END: f64 = 18_446_744_073_709_551_616.0;

/// Whether the whole number `x`, which serde_json read as a float, is from
/// `min` to `max`. serde_json reads a literal from `i64::MIN` to
/// `u64::MAX` as an integer, so a float at -2^63 or 2^64 and past them was
/// written beyond 64 bits (its digits rounded to the float): past the
/// 64-bit bounds. The rest is exact (`as` saturates, and -2^127 and 2^128
/// are exact floats).
fn within_float(x: f64, min: i128, max: u128) -> bool {
    if x < 0.0 {
        (x > I64_MIN || min < i128::from(i64::MIN))
            && x >= -170_141_183_460_469_231_731_687_303_715_884_105_728.0
            && (x as i128) >= min
    } else {
        // At 2^64 and past it, `x as u128` is above every 64-bit bound.
        x < 340_282_366_920_938_463_463_374_607_431_768_211_456.0 && (x as u128) <= max
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_serde_messages() {
        assert_eq!(
            name_and_names("x`, expected one of `a`, `b`, `c`", "there are no fields"),
            ("x", vec!["a", "b", "c"])
        );
        assert_eq!(
            name_and_names("x`, expected `a` or `b`", "there are no fields"),
            ("x", vec!["a", "b"])
        );
        assert_eq!(
            name_and_names("x`, expected `a`", "there are no fields"),
            ("x", vec!["a"])
        );
        assert_eq!(
            name_and_names("x`, there are no variants", "there are no variants"),
            ("x", vec![])
        );
        assert_eq!(name_and_names("x`", "there are no fields"), ("x", vec![]));
        // A received name that looks like serde's own text.
        assert_eq!(
            name_and_names("a`, expected `b`, expected `c`", "there are no fields"),
            ("a`, expected `b", vec!["c"])
        );
    }

    #[test]
    fn expected_in_json_terms() {
        assert_eq!(json_expected("u8", false), "an integer");
        assert_eq!(json_expected("u8", true), "an integer from 0 to 255");
        assert_eq!(
            json_expected("i16", true),
            "an integer from -32768 to 32767"
        );
        assert_eq!(
            json_expected("a nonzero u32", true),
            "an integer from 1 to 4294967295"
        );
        assert_eq!(
            json_expected("a nonzero i8", true),
            "an integer other than 0, from -128 to 127"
        );
        assert_eq!(json_expected("f64", false), "a number");
        assert_eq!(json_expected("a sequence", false), "an array");
        assert_eq!(json_expected("a map", false), "an object");
        assert_eq!(json_expected("struct Filter", false), "an object");
        assert_eq!(
            json_expected("a tuple of size 2", false),
            "an array of 2 items"
        );
        assert_eq!(json_expected("a valid date", false), "a valid date");
        assert_eq!(json_expected("variant identifier", false), "a string");
        assert_eq!(json_expected("field identifier", false), "a string");
        assert_eq!(json_expected("tuple struct Point", false), "an array");
        assert_eq!(
            json_expected("tuple variant Shape::Pair", false),
            "an array"
        );
    }

    /// The bounds of every primitive integer type, as serde names it.
    #[test]
    fn bounds_of_every_integer_type() {
        let rows: &[(&str, &str)] = &[
            ("u8", "an integer from 0 to 255"),
            ("u16", "an integer from 0 to 65535"),
            ("u32", "an integer from 0 to 4294967295"),
            ("u64", "an integer from 0 to 18446744073709551615"),
            (
                "u128",
                "an integer from 0 to 340282366920938463463374607431768211455",
            ),
            ("i8", "an integer from -128 to 127"),
            ("i16", "an integer from -32768 to 32767"),
            ("i32", "an integer from -2147483648 to 2147483647"),
            (
                "i64",
                "an integer from -9223372036854775808 to 9223372036854775807",
            ),
            (
                "i128",
                "an integer from -170141183460469231731687303715884105728 to 170141183460469231731687303715884105727",
            ),
        ];
        for &(name, expected) in rows {
            assert_eq!(json_expected(name, true), expected, "{name}");
        }
        #[cfg(target_pointer_width = "64")]
        {
            assert_eq!(
                json_expected("usize", true),
                "an integer from 0 to 18446744073709551615"
            );
            assert_eq!(
                json_expected("isize", true),
                "an integer from -9223372036854775808 to 9223372036854775807"
            );
        }
        #[cfg(target_pointer_width = "32")]
        {
            assert_eq!(
                json_expected("usize", true),
                "an integer from 0 to 4294967295"
            );
            assert_eq!(
                json_expected("isize", true),
                "an integer from -2147483648 to 2147483647"
            );
        }
        assert_eq!(json_expected("u256", true), "u256");
    }

    #[test]
    fn received_from_unexpected() {
        assert_eq!(received(r#"string "x, expected y""#), Some("string"));
        assert_eq!(received("integer `5`"), Some("integer"));
        assert_eq!(received("floating point `1.5`"), Some("number"));
        assert_eq!(received("map"), Some("object"));
        assert_eq!(received("sequence"), Some("array"));
        assert_eq!(received("unit value"), Some("null"));
        assert_eq!(received("boolean `true`"), Some("boolean"));
        assert_eq!(received("newtype variant"), None);
    }
}
