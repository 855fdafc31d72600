//! The problems a JSON Schema finds in the arguments, through the
//! `jsonschema` crate, as [`ArgumentError`]s.

use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

use super::{near_misses, one_of, pointer, variant_near_misses};
use crate::model::argument_error::{ArgumentError, ArgumentErrorKind, with_article};

/// How many problems are built; more are only counted, so a huge object
/// full of unknown keys costs no more than a few suggestions.
const MAX_BUILT: usize = 100;

/// The problems found, and how many more were counted but not built.
pub(super) struct Found {
    pub(super) problems: Vec<ArgumentError>,
    pub(super) omitted: usize,
}

impl Found {
    fn push(&mut self, problem: impl FnOnce() -> ArgumentError) {
        if self.problems.len() < MAX_BUILT {
            self.problems.push(problem());
        } else {
            self.omitted += 1;
        }
    }
}

/// Every problem `schema` finds in `arguments`; `None` when the schema does
/// not compile.
pub(super) fn problems(schema: &Value, arguments: &Value) -> Option<Found> {
    let schema = &bounded(schema);
    let validator = jsonschema::validator_for(schema).ok()?;
    let mut found = Found {
        problems: Vec::new(),
        omitted: 0,
    };
    for error in validator.iter_errors(arguments) {
        collect(&error, schema, &mut found);
    }
    // A value of the wrong type is reported once: not also as a wrong enum
    // value or out of range.
    let mistyped: Vec<String> = found
        .problems
        .iter()
        .filter(|p| p.kind == ArgumentErrorKind::WrongType)
        .map(|p| p.path.clone())
        .collect();
    found
        .problems
        .retain(|p| p.kind == ArgumentErrorKind::WrongType || !mistyped.contains(&p.path));
    Some(found)
}

fn collect(error: &ValidationError<'_>, schema: &Value, found: &mut Found) {
    let tokens = tokens(error.instance_path().as_str());
    let here = || pointer(&tokens);
    let instance: &Value = error.instance();
    // The schema object holding the failed keyword, for its `properties`,
    // `type` and bounds. `schema_path` is canonical: `$ref`s resolved.
    let node = error
        .schema_path()
        .as_str()
        .rsplit_once('/')
        .and_then(|(parent, _)| schema.pointer(parent));
    let at = |kind| ArgumentError::new(kind, here()).with_received(instance);
    let expecting = |kind, expected: String| at(kind).with_expected(expected);
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            if let Some(name) = property.as_str() {
                found.push(|| {
                    let path = pointer(tokens.iter().map(String::as_str).chain([name]));
                    ArgumentError::new(ArgumentErrorKind::Missing, path)
                });
            }
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            let names: Vec<&str> = node
                .and_then(|node| node.get("properties"))
                .and_then(Value::as_object)
                .map(|properties| {
                    // A name already sent is no near miss.
                    properties
                        .keys()
                        .map(String::as_str)
                        .filter(|name| instance.get(name).is_none())
                        .collect()
                })
                .unwrap_or_default();
            for key in unexpected {
                found.push(|| {
                    let path = pointer(tokens.iter().map(String::as_str).chain([key.as_str()]));
                    let mut problem = ArgumentError::new(ArgumentErrorKind::UnknownField, path)
                        .with_suggestions(near_misses(key, &names));
                    if let Some(value) = instance.get(key) {
                        problem = problem.with_received(value);
                    }
                    problem
                });
            }
        }
        ValidationErrorKind::Type { kind } => {
            let expected = type_names(kind).join(" or ");
            found.push(|| expecting(ArgumentErrorKind::WrongType, expected));
        }
        ValidationErrorKind::Enum { options } => {
            let options = options.as_array().map_or(&[][..], Vec::as_slice);
            found.push(|| allowed_values(at(ArgumentErrorKind::Other), instance, options));
        }
        ValidationErrorKind::Constant { expected_value } => {
            let options = std::slice::from_ref(&**expected_value);
            found.push(|| allowed_values(at(ArgumentErrorKind::Other), instance, options));
        }
        ValidationErrorKind::Minimum { limit }
        | ValidationErrorKind::Maximum { limit }
        | ValidationErrorKind::ExclusiveMinimum { limit }
        | ValidationErrorKind::ExclusiveMaximum { limit } => {
            let expected = range(node, error.kind(), limit);
            found.push(|| expecting(ArgumentErrorKind::OutOfRange, expected));
        }
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            alternatives(error, context, schema, found);
        }
        other => {
            let expected = match other {
                ValidationErrorKind::MinLength { limit } => {
                    Some(format!("a string of at least {limit} characters"))
                }
                ValidationErrorKind::MaxLength { limit } => {
                    Some(format!("a string of at most {limit} characters"))
                }
                ValidationErrorKind::MinItems { limit } => {
                    Some(format!("an array of at least {limit} items"))
                }
                ValidationErrorKind::MaxItems { limit } => {
                    Some(format!("an array of at most {limit} items"))
                }
                ValidationErrorKind::MinProperties { limit } => {
                    Some(format!("an object with at least {limit} fields"))
                }
                ValidationErrorKind::MaxProperties { limit } => {
                    Some(format!("an object with at most {limit} fields"))
                }
                ValidationErrorKind::Pattern { pattern } => {
                    Some(format!("a string matching the pattern {pattern}"))
                }
                ValidationErrorKind::MultipleOf { multiple_of } => {
                    Some(format!("a multiple of {multiple_of}"))
                }
                ValidationErrorKind::UniqueItems => {
                    Some(String::from("an array without duplicate items"))
                }
                _ => None,
            };
            found.push(|| match expected {
                Some(expected) => expecting(ArgumentErrorKind::Other, expected),
                None => at(ArgumentErrorKind::Other),
            });
        }
    }
}

/// An `enum` or `const` miss: an unknown variant when the value and the
/// allowed values are strings (with near misses among them), `other`
/// otherwise.
fn allowed_values(
    mut problem: ArgumentError,
    instance: &Value,
    options: &[Value],
) -> ArgumentError {
    let names: Vec<&str> = options.iter().filter_map(Value::as_str).collect();
    if let Some(received) = instance.as_str()
        && names.len() == options.len()
    {
        problem.kind = ArgumentErrorKind::UnknownVariant;
        problem.suggestions = variant_near_misses(received, &names);
    }
    problem.expected = one_of(options.iter().cloned());
    problem
}

/// An `anyOf` / `oneOf` that no alternative satisfied. Alternatives whose
/// type does not match the value, and those whose constant differs (an enum
/// whose variants are documented, the tag of an internally tagged enum) are
/// ruled out. Then:
///
/// - one alternative left: its problems are the problems (`Option<Filter>`
///   with a bad filter);
/// - several left: the fields all of them miss are missing (the tag of an
///   internally tagged enum); if there are none, the value is `other`;
/// - none left: every alternative wanted another type, so the type is
///   wrong; or every one wanted another constant at the same place (the
///   value itself, or the tag key), so that is an unknown variant; else
///   `other`.
fn alternatives(
    error: &ValidationError<'_>,
    context: &[Vec<ValidationError<'static>>],
    schema: &Value,
    found: &mut Found,
) {
    let path = error.instance_path().as_str();
    let mistyped = |e: &ValidationError<'_>| {
        e.instance_path().as_str() == path && matches!(e.kind(), ValidationErrorKind::Type { .. })
    };
    // A constant at the value itself or at one of its keys.
    let other_tag = |e: &ValidationError<'_>| {
        matches!(e.kind(), ValidationErrorKind::Constant { .. })
            && e.instance_path()
                .as_str()
                .strip_prefix(path)
                .is_some_and(|rest| rest.is_empty() || rest.rfind('/') == Some(0))
    };
    let fitting: Vec<&Vec<ValidationError<'static>>> = context
        .iter()
        .filter(|branch| !branch.iter().any(|e| mistyped(e) || other_tag(e)))
        .collect();
    if let [branch] = fitting.as_slice() {
        for inner in branch.iter() {
            collect(inner, schema, found);
        }
        return;
    }
    if let [first, rest @ ..] = fitting.as_slice() {
        let common: Vec<&ValidationError<'static>> = first
            .iter()
            .filter(|e| {
                let required = |other: &ValidationError<'_>| {
                    matches!(
                        (e.kind(), other.kind()),
                        (
                            ValidationErrorKind::Required { property: a },
                            ValidationErrorKind::Required { property: b },
                        ) if a == b && e.instance_path() == other.instance_path()
                    )
                };
                rest.iter().all(|branch| branch.iter().any(required))
            })
            .collect();
        if !common.is_empty() {
            for missing in common {
                collect(missing, schema, found);
            }
            return;
        }
    }
    let tags: Vec<&ValidationError<'static>> = context
        .iter()
        .filter_map(|branch| branch.iter().find(|e| other_tag(e)))
        .collect();
    let one_tag = tags.len() == context.len()
        && tags
            .iter()
            .all(|e| e.instance_path() == tags[0].instance_path());
    let all_mistyped =
        fitting.is_empty() && context.iter().all(|branch| branch.iter().any(mistyped));
    if fitting.is_empty() && one_tag && !all_mistyped {
        let tag = tags[0];
        let options: Vec<Value> = tags
            .iter()
            .filter_map(|e| match e.kind() {
                ValidationErrorKind::Constant { expected_value } => {
                    Some((**expected_value).clone())
                }
                _ => None,
            })
            .collect();
        let tokens = tokens(tag.instance_path().as_str());
        let instance: &Value = tag.instance();
        found.push(|| {
            let problem = ArgumentError::new(ArgumentErrorKind::Other, pointer(&tokens))
                .with_received(instance);
            allowed_values(problem, instance, &options)
        });
        return;
    }
    let tokens = tokens(path);
    let instance: &Value = error.instance();
    found.push(|| {
        let mut problem =
            ArgumentError::new(ArgumentErrorKind::Other, pointer(&tokens)).with_received(instance);
        if all_mistyped {
            let mut types: Vec<String> = Vec::new();
            for e in context.iter().flatten().filter(|e| mistyped(e)) {
                if let ValidationErrorKind::Type { kind } = e.kind() {
                    for name in type_names(kind) {
                        if !types.contains(&name) {
                            types.push(name);
                        }
                    }
                }
            }
            problem.kind = ArgumentErrorKind::WrongType;
            problem.expected = Some(types.join(" or "));
        }
        problem
    });
}

/// The types of a `type` keyword, each with its article (`an integer`),
/// `null` last (`an integer or null`).
fn type_names(kind: &TypeKind) -> Vec<String> {
    let mut names: Vec<&str> = match kind {
        TypeKind::Single(one) => vec![one.as_str()],
        TypeKind::Multiple(set) => set.iter().map(|one| one.as_str()).collect(),
    };
    names.sort_by_key(|name| *name == "null");
    names.into_iter().map(with_article).collect()
}

/// The allowed range at a failed bound: `an integer from 0 to 255` when the
/// schema gives both inclusive bounds, else the failed bound alone (`a
/// number of at least 1`, `an integer less than 10`).
fn range(node: Option<&Value>, kind: &ValidationErrorKind, limit: &Value) -> String {
    let integer = node
        .and_then(|node| node.get("type"))
        .is_some_and(|ty| match ty {
            Value::String(one) => one == "integer",
            Value::Array(many) => many.iter().any(|one| one == "integer"),
            _ => false,
        });
    let noun = if integer { "an integer" } else { "a number" };
    // A bound the schema leaves out is the integer format's, if any
    // (`uint128` has only `minimum: 0`).
    let format = node
        .and_then(|node| node.get("format"))
        .and_then(Value::as_str)
        .filter(|_| integer)
        .and_then(format_bounds_text);
    let bound = |key, of_format: Option<String>| {
        node.and_then(|node| node.get(key))
            .filter(|b| b.is_number())
            .map(Value::to_string)
            .or(of_format)
    };
    let (min_text, max_text) = format.unzip();
    if let (Some(min), Some(max)) = (bound("minimum", min_text), bound("maximum", max_text))
        && matches!(
            kind,
            ValidationErrorKind::Minimum { .. } | ValidationErrorKind::Maximum { .. }
        )
    {
        return format!("{noun} from {min} to {max}");
    }
    let relation = match kind {
        ValidationErrorKind::Minimum { .. } => "of at least",
        ValidationErrorKind::Maximum { .. } => "of at most",
        ValidationErrorKind::ExclusiveMinimum { .. } => "greater than",
        _ => "less than",
    };
    format!("{noun} {relation} {limit}")
}

/// `schema` with the bounds of every integer `format` schemars writes
/// (`uint32`, `int64`, ...) added where the schema leaves them out:
/// schemars writes only `minimum: 0` for a `u32`, and a format is not
/// checked, so a `u32` of 2^32 would pass and a `-1` would read "at least
/// 0" where serde says "from 0 to 4294967295". 128-bit bounds do not fit
/// a JSON number serde_json holds exactly; serde checks those.
fn bounded(schema: &Value) -> Value {
    let mut schema = schema.clone();
    let mut stack = vec![&mut schema];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(object) => {
                let integer = object.get("type").is_some_and(|ty| match ty {
                    Value::String(one) => one == "integer",
                    Value::Array(many) => many.iter().any(|one| one == "integer"),
                    _ => false,
                });
                let limits = match object.get("format").and_then(Value::as_str) {
                    Some(format) if integer => format_bounds(format),
                    _ => None,
                };
                if let Some((min, max)) = limits {
                    object.entry("minimum").or_insert(min);
                    object.entry("maximum").or_insert(max);
                }
                stack.extend(object.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
    schema
}

/// The bounds of an integer `format` as schemars names it, as text: the
/// 128-bit ones too.
fn format_bounds_text(format: &str) -> Option<(String, String)> {
    match format {
        "int128" => Some((i128::MIN.to_string(), i128::MAX.to_string())),
        "uint128" => Some((String::from("0"), u128::MAX.to_string())),
        other => format_bounds(other).map(|(min, max)| (min.to_string(), max.to_string())),
    }
}

/// The bounds of an integer `format` as schemars names it.
fn format_bounds(format: &str) -> Option<(Value, Value)> {
    macro_rules! formats {
        ($($name:literal => $ty:ty,)*) => {
            match format {
                $($name => Some((Value::from(<$ty>::MIN), Value::from(<$ty>::MAX))),)*
                _ => None,
            }
        };
    }
    formats! {
        "int8" => i8,
        "uint8" => u8,
        "int16" => i16,
        "uint16" => u16,
        "int32" => i32,
        "uint32" => u32,
        "int64" => i64,
        "uint64" => u64,
        "int" => isize,
        "uint" => usize,
    }
}

/// The unescaped reference tokens of a JSON Pointer (RFC 6901: `~1` is
/// `/`, then `~0` is `~`).
fn tokens(pointer: &str) -> Vec<String> {
    pointer.split('/').skip(1).map(super::unescape).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_formats_get_their_bounds() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer", "format": "uint32", "minimum": 0},
                "b": {"type": ["integer", "null"], "format": "int64"},
                "c": {"type": "integer", "format": "uint8", "minimum": 1, "maximum": 9},
                "d": {"type": "integer", "format": "uint128", "minimum": 0},
                "e": {"type": "string", "format": "uint32"},
                "f": {"items": [{"type": "integer", "format": "int8"}]},
                "g": {"type": ["string", "null"], "format": "uint32"},
            },
        });
        assert_eq!(
            bounded(&schema),
            serde_json::json!({
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "format": "uint32", "minimum": 0, "maximum": 4_294_967_295_u32},
                    "b": {"type": ["integer", "null"], "format": "int64", "minimum": i64::MIN, "maximum": i64::MAX},
                    "c": {"type": "integer", "format": "uint8", "minimum": 1, "maximum": 9},
                    "d": {"type": "integer", "format": "uint128", "minimum": 0},
                    "e": {"type": "string", "format": "uint32"},
                    "f": {"items": [{"type": "integer", "format": "int8", "minimum": -128, "maximum": 127}]},
                    "g": {"type": ["string", "null"], "format": "uint32"},
                },
            })
        );
        assert_eq!(
            format_bounds("uint16"),
            Some((Value::from(0), Value::from(65_535)))
        );
        assert_eq!(
            format_bounds("int16"),
            Some((Value::from(-32_768), Value::from(32_767)))
        );
        assert_eq!(
            format_bounds("uint64"),
            Some((Value::from(0), Value::from(u64::MAX)))
        );
        assert_eq!(
            format_bounds("uint"),
            Some((Value::from(0), Value::from(usize::MAX)))
        );
        assert_eq!(
            format_bounds("int"),
            Some((Value::from(isize::MIN), Value::from(isize::MAX)))
        );
        assert_eq!(format_bounds("double"), None);
    }

    #[test]
    fn tokens_unescape_in_rfc_order() {
        assert_eq!(tokens(""), Vec::<String>::new());
        assert_eq!(tokens("/a~1b/~01/3"), ["a/b", "~1", "3"]);
        assert_eq!(tokens("/"), [""]);
    }
}
