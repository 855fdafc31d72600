//! The words frameworks report argument problems in: JSON type names,
//! dot paths, path tokens and "must be" phrases.

use serde_json::Value;

use super::bound::{MAX_NAME_CHARS, cut_to};
use crate::model::argument_error::{ArgumentError, ArgumentErrorKind};

/// A dot path (zod's `items[0].name`, ASP.NET's and Spring's property
/// names) as reference tokens.
pub(super) fn dot_path(path: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    for part in path.split('.') {
        let mut part = part;
        while let Some(open) = part.find('[') {
            if open > 0 {
                tokens.push(part[..open].to_owned());
            }
            let close = part[open..].find(']').map_or(part.len(), |at| open + at);
            tokens.push(part[open + 1..close].to_owned());
            part = part.get(close + 1..).unwrap_or_default();
        }
        if !part.is_empty() {
            tokens.push(part.to_owned());
        }
    }
    tokens
}

/// A JSON type's name as this crate writes it, from zod's or pydantic's.
pub(super) fn json_type_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "string" | "str" => "string",
        "number" | "float" => "number",
        "int" | "integer" => "integer",
        "boolean" | "bool" => "boolean",
        "object" | "dict" => "object",
        "array" | "list" => "array",
        "null" | "NoneType" => "null",
        _ => return None,
    })
}

/// A path token of JSON: a string, or an array index.
pub(super) fn token(value: &Value) -> Option<String> {
    match value {
        Value::String(name) => Some(name.clone()),
        Value::Number(index) => Some(index.to_string()),
        _ => None,
    }
}

/// A problem at `path` that a framework stated in words: missing when
/// they say it is required, else what they say it must be.
pub(super) fn said(path: String, text: &str) -> ArgumentError {
    let lower = text.to_ascii_lowercase();
    if lower.contains("required") || lower.contains("is missing") {
        return ArgumentError::new(ArgumentErrorKind::Missing, path);
    }
    expected_from(ArgumentError::new(ArgumentErrorKind::Other, path), text)
}

/// `problem` with what `text` says the value must be: the words after
/// `must be` or `should be` (`The field Age must be between 1 and 100.` is
/// `between 1 and 100`), else `valid: <text>`; nothing for no text.
pub(super) fn expected_from(problem: ArgumentError, text: &str) -> ArgumentError {
    let text = text.trim().trim_end_matches('.');
    if text.is_empty() {
        return problem;
    }
    let lower = text.to_ascii_lowercase();
    let expected = ["must be ", "should be "]
        .iter()
        .find_map(|words| lower.find(words).map(|at| &text[at + words.len()..]))
        .map_or_else(|| format!("valid: {text}"), str::to_owned);
    problem.with_expected(cut_to(&expected, MAX_NAME_CHARS))
}
