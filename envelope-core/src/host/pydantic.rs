//! pydantic's validation errors: the Python SDK's text report and
//! FastAPI's `detail` items, with pydantic's union-member tokens dropped
//! from their locations.

use serde_json::Value;

use super::bound::{MAX_ARGUMENT_ERRORS, cut};
use super::words;
use crate::model::argument_error::{ArgumentError, ArgumentErrorKind};
use crate::model::envelope::ErrorEnvelope;

/// pydantic's validation report:
///
/// ```text
/// 1 validation error for typedArguments
/// n
///   Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='abc', input_type=str]
///     For further information visit https://errors.pydantic.dev/2.11/v/int_parsing
/// ```
pub(super) fn report(text: &str) -> Option<ErrorEnvelope> {
    let mut lines = text.lines();
    let head = lines.next()?;
    let (count, rest) = head.split_once(' ')?;
    count.parse::<usize>().ok()?;
    if !(rest.starts_with("validation error for ") || rest.starts_with("validation errors for ")) {
        return None;
    }
    // At most the host's bound, the rest counted, whatever the report's
    // length.
    let mut problems = Vec::new();
    let mut omitted = 0;
    let mut location: Option<&str> = None;
    for line in lines {
        if line.starts_with("    ") || line.trim().is_empty() {
            continue;
        }
        if let Some(detail) = line.strip_prefix("  ") {
            let Some(location) = location.take() else {
                continue;
            };
            if problems.len() < MAX_ARGUMENT_ERRORS {
                problems.push(problem(location, detail));
            } else {
                omitted += 1;
            }
        } else {
            location = Some(line.trim());
        }
    }
    Some(crate::args::summarize(problems, omitted))
}

/// One pydantic error: its location (`n`, `items.0.name`) and its line
/// (`Input should be ... [type=int_parsing, input_value=..., input_type=str]`).
fn problem(location: &str, detail: &str) -> ArgumentError {
    let path = crate::args::pointer(location.split('.').filter(|token| !is_schema_token(token)));
    let kind_name = detail
        .rsplit_once("[type=")
        .map(|(_, rest)| rest.split([',', ']']).next().unwrap_or_default())
        .unwrap_or_default();
    let said = detail
        .rsplit_once(" [type=")
        .map_or(detail, |(said, _)| said)
        .trim();
    let mut problem = pydantic_problem_at(path, kind_name, said);
    if let Some(received) = detail
        .rsplit_once("input_type=")
        .map(|(_, rest)| rest.trim_end_matches(']'))
    {
        problem.received = words::json_type_name(received).map(String::from);
    }
    problem
}

/// A pydantic error at `path` of type `kind_name` (`int_parsing`,
/// `missing`) whose message is `said` (`Input should be a valid integer,
/// ...`).
pub(super) fn pydantic_problem_at(path: String, kind_name: &str, said: &str) -> ArgumentError {
    let kind = match kind_name {
        "missing" | "missing_argument" => ArgumentErrorKind::Missing,
        "extra_forbidden" | "unexpected_keyword_argument" => ArgumentErrorKind::UnknownField,
        "literal_error" | "enum" => ArgumentErrorKind::UnknownVariant,
        "greater_than" | "greater_than_equal" | "less_than" | "less_than_equal" => {
            ArgumentErrorKind::OutOfRange
        }
        name if name.ends_with("_type") || name.ends_with("_parsing") => {
            ArgumentErrorKind::WrongType
        }
        _ => ArgumentErrorKind::Other,
    };
    let mut problem = ArgumentError::new(kind, path);
    if let Some(expected) = said.strip_prefix("Input should be ") {
        problem = problem.with_expected(cut(expected.split(',').next().unwrap_or(expected)));
    }
    problem
}

/// Whether a token of a pydantic location names a member of a union
/// (`int`, `list[int]`, `function-after[check(), str]`), not an argument:
/// pydantic puts it between the field and what failed inside it
/// (`id.int`, `ids.list[int].0`). Only its own spellings are dropped: a
/// bracketed schema name, or one of the scalar names no argument is
/// likely to have (`int`, `str`, `float`, `bool`, `bytes`, `none`).
pub(super) fn is_schema_token(token: &str) -> bool {
    const SCALARS: [&str; 6] = ["int", "str", "float", "bool", "bytes", "none"];
    if SCALARS.contains(&token) {
        return true;
    }
    let Some((base, _)) = token.split_once('[') else {
        return false;
    };
    token.ends_with(']')
        && !base.is_empty()
        && base
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// An item of FastAPI's `detail`: `loc` (where the value came from, then
/// the path, with pydantic's union-member tokens), `msg` and `type`.
pub(super) fn fastapi_item(item: &Value) -> Option<ArgumentError> {
    let loc = item.get("loc").and_then(Value::as_array)?;
    let mut tokens: Vec<String> = loc.iter().filter_map(words::token).collect();
    if tokens.first().is_some_and(|first| {
        matches!(
            first.as_str(),
            "body" | "query" | "path" | "header" | "cookie"
        )
    }) {
        tokens.remove(0);
    }
    let tokens = tokens.into_iter().filter(|token| !is_schema_token(token));
    let path = crate::args::pointer(tokens);
    let message = item.get("msg").and_then(Value::as_str).unwrap_or_default();
    let kind = item.get("type").and_then(Value::as_str).unwrap_or_default();
    Some(pydantic_problem_at(path, kind, message))
}
