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

use serde_json::Value;
use serde_path_to_error::{Error, Segment};

use super::{lookup, near_misses, one_of, pointer};
use crate::argument_error::{ArgumentError, ArgumentErrorKind};

/// The problem serde stopped at, located in `arguments`.
pub(super) fn problem(error: &Error<serde_json::Error>, arguments: &Value) -> ArgumentError {
    let tokens = tokens(error.path(), arguments);
    let message = error.inner().to_string();
    let at = lookup(arguments, &tokens);
    let here = || pointer(&tokens);

    if let Some(name) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        return ArgumentError::new(
            ArgumentErrorKind::Missing,
            pointer(tokens.iter().map(String::as_str).chain([name])),
        );
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (name, names) = name_and_names(rest, "there are no fields");
        // serde_path_to_error records the key, except when serde finds the
        // key only after reading the object (`flatten`): then add it.
        let mut tokens = tokens.clone();
        if tokens.last().map(String::as_str) != Some(name) {
            tokens.push(String::from(name));
        }
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
    let mut problem = if let Some(rest) = message.strip_prefix("unknown variant `") {
        let (name, names) = name_and_names(rest, "there are no variants");
        let mut problem = ArgumentError::new(ArgumentErrorKind::UnknownVariant, here())
            .with_suggestions(near_misses(name, &names));
        problem.expected = one_of(names);
        problem
    } else if let Some((unexpected, expected)) = split(&message, "invalid type: ") {
        let mut problem = ArgumentError::new(ArgumentErrorKind::WrongType, here())
            .with_expected(json_expected(expected, false));
        problem.received = received(unexpected).map(String::from);
        problem
    } else if let Some((unexpected, expected)) = split(&message, "invalid value: ") {
        let received = received(unexpected);
        let number = matches!(received, Some("integer" | "number"));
        let kind = if number {
            ArgumentErrorKind::OutOfRange
        } else {
            ArgumentErrorKind::Other
        };
        let mut problem =
            ArgumentError::new(kind, here()).with_expected(json_expected(expected, number));
        problem.received = received.map(String::from);
        problem
    } else if let Some((_, expected)) = split(&message, "invalid length ") {
        ArgumentError::new(ArgumentErrorKind::Other, here())
            .with_expected(json_expected(expected, false))
    } else {
        // A custom message may quote the value: keep only where it is.
        ArgumentError::new(ArgumentErrorKind::Other, here())
    };
    if problem.received.is_none()
        && let Some(value) = at
    {
        problem = problem.with_received(value);
    }
    problem
}

/// The reference tokens of serde's path, checked against `arguments`: an
/// enum variant is a token only where it is a key (`{"Variant": {...}}`),
/// and an unknown segment (a key that was not a string) ends the path.
fn tokens(path: &serde_path_to_error::Path, arguments: &Value) -> Vec<String> {
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
        "number"
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
    let (expected, nonzero) = match expected.strip_prefix("a nonzero ") {
        Some(rest) => (rest, true),
        None => (expected, false),
    };
    if let Some((min, max)) = integer_bounds(expected) {
        let min = if nonzero && min == "0" { "1" } else { &min };
        return match (range, nonzero && min != "1") {
            (true, false) => format!("an integer from {min} to {max}"),
            (true, true) => format!("an integer other than 0, from {min} to {max}"),
            (false, _) => String::from("an integer"),
        };
    }
    let json = match expected {
        "f32" | "f64" => "a number",
        "a string" | "a borrowed string" | "string" => "a string",
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

/// The bounds of a primitive integer type named as serde names it
/// (`usize` and `isize` as wide as on the target).
fn integer_bounds(name: &str) -> Option<(String, String)> {
    macro_rules! bounds {
        ($($ty:ident)*) => {
            match name {
                $(stringify!($ty) => Some(($ty::MIN.to_string(), $ty::MAX.to_string())),)*
                _ => None,
            }
        };
    }
    bounds!(u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize)
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
