//! zod's issues (zod 3 and 4): the TypeScript SDK's text lines and zod's
//! JSON issue arrays.

use serde_json::Value;

use super::bound::{MAX_ARGUMENT_ERRORS, MAX_NAME_CHARS, cut, cut_to};
use super::words;
use crate::model::argument_error::{ArgumentError, ArgumentErrorKind};
use crate::model::envelope::ErrorEnvelope;

/// zod's issues after the TypeScript SDK's `Input validation error:
/// Invalid arguments for tool <name>: `, one per line, each zod's message
/// and ` at <path>` (`a.b[0].c`) when the issue has one:
///
/// ```text
/// Invalid input: expected string, received number at name
/// ```
pub(super) fn report(text: &str) -> Option<ErrorEnvelope> {
    let rest = text.strip_prefix("Input validation error: ")?;
    let issues = rest
        .strip_prefix("Invalid arguments for tool ")
        .and_then(|rest| rest.split_once(": "))
        .map_or(rest, |(_, issues)| issues);
    // zod 3 (the TypeScript SDK before zod 4) wrote its issues as JSON.
    let json = issues
        .trim_start()
        .starts_with('[')
        .then(|| serde_json::from_str::<Vec<serde_json::Value>>(issues).ok())
        .flatten();
    let problems: Vec<ArgumentError> = match json {
        Some(issues) => json_issues(&issues),
        None => issues
            .lines()
            .filter(|line| !line.trim().is_empty())
            .flat_map(zod_problems)
            .take(MAX_ARGUMENT_ERRORS)
            .collect(),
    };
    let mut envelope = crate::args::invalid_arguments(problems);
    if envelope.argument_errors.is_empty() {
        envelope.fields_mut().message = cut(issues);
    }
    Some(envelope)
}

/// The problems of one zod issue line.
fn zod_problems(line: &str) -> Vec<ArgumentError> {
    let (message, tokens) = match line.rsplit_once(" at ") {
        Some((message, path)) if path != "object root" => (message, words::dot_path(path)),
        Some((message, _)) => (message, Vec::new()),
        None => (line, Vec::new()),
    };
    // The path once, no longer than the envelope keeps it: a line of
    // thousands of keys at a path of thousands of tokens stays linear.
    let base = cut_to(&crate::args::pointer(&tokens), MAX_NAME_CHARS);
    let at = |_: &[String]| base.clone();
    if let Some(keys) = message
        .strip_prefix("Unrecognized keys: ")
        .or_else(|| message.strip_prefix("Unrecognized key: "))
    {
        return keys
            .split(", ")
            .take(MAX_ARGUMENT_ERRORS)
            .map(|key| {
                let key = crate::args::pointer([key.trim_matches('"')]);
                ArgumentError::new(ArgumentErrorKind::UnknownField, format!("{base}{key}"))
            })
            .collect();
    }
    let problem = if let Some(rest) = message.strip_prefix("Invalid input: expected ") {
        match rest.split_once(", received ") {
            Some((_, "undefined")) => ArgumentError::new(ArgumentErrorKind::Missing, at(&tokens)),
            Some((expected, received)) => {
                let mut problem = ArgumentError::new(ArgumentErrorKind::WrongType, at(&tokens))
                    .with_expected(cut(expected));
                problem.received = words::json_type_name(received).map(String::from);
                problem
            }
            None => ArgumentError::new(ArgumentErrorKind::UnknownVariant, at(&tokens))
                .with_expected(cut(rest)),
        }
    } else if let Some(expected) = message.strip_prefix("Invalid option: expected ") {
        ArgumentError::new(ArgumentErrorKind::UnknownVariant, at(&tokens))
            .with_expected(cut(expected))
    } else if let Some(rest) = message
        .strip_prefix("Too big: expected ")
        .or_else(|| message.strip_prefix("Too small: expected "))
    {
        ArgumentError::new(ArgumentErrorKind::OutOfRange, at(&tokens)).with_expected(cut(rest))
    } else {
        ArgumentError::new(ArgumentErrorKind::Other, at(&tokens))
    };
    vec![problem]
}

/// zod's issues (3 and 4), as JSON: `{"code": "invalid_type", "expected":
/// "string", "received": "number", "path": ["name"], "message": "..."}`.
pub(super) fn json_issues(issues: &[Value]) -> Vec<ArgumentError> {
    issues
        .iter()
        .take(MAX_ARGUMENT_ERRORS)
        .flat_map(zod_issue)
        .take(MAX_ARGUMENT_ERRORS)
        .collect()
}

/// The problems of one zod issue.
fn zod_issue(issue: &Value) -> Vec<ArgumentError> {
    let Some(issue) = issue.as_object() else {
        return Vec::new();
    };
    let tokens: Vec<String> = issue
        .get("path")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(words::token)
        .collect();
    let at = crate::args::pointer(&tokens);
    let text = |key: &str| issue.get(key).and_then(Value::as_str);
    let message = text("message").unwrap_or_default();
    let problem = match text("code").unwrap_or_default() {
        "invalid_type" => {
            // zod 3 says what it received; zod 4 only in its message.
            let received = text("received").or_else(|| {
                message
                    .rsplit_once("received ")
                    .map(|(_, received)| received.trim())
            });
            if received == Some("undefined") {
                ArgumentError::new(ArgumentErrorKind::Missing, at)
            } else {
                let mut problem = ArgumentError::new(ArgumentErrorKind::WrongType, at);
                if let Some(expected) = text("expected") {
                    problem = problem.with_expected(cut_to(expected, MAX_NAME_CHARS));
                }
                problem.received = received.and_then(words::json_type_name).map(String::from);
                problem
            }
        }
        "unrecognized_keys" => {
            return issue
                .get("keys")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .take(MAX_ARGUMENT_ERRORS)
                .map(|key| {
                    let mut path = tokens.clone();
                    path.push(key.to_owned());
                    ArgumentError::new(ArgumentErrorKind::UnknownField, crate::args::pointer(&path))
                })
                .collect();
        }
        "invalid_enum_value" | "invalid_value" | "invalid_literal" => {
            let allowed = issue
                .get("options")
                .or_else(|| issue.get("values"))
                .and_then(Value::as_array)
                .map(|values| {
                    let listed: Vec<String> =
                        values.iter().take(10).map(Value::to_string).collect();
                    format!("one of {}", listed.join(", "))
                })
                .or_else(|| issue.get("expected").map(|value| format!("{value}")));
            let problem = ArgumentError::new(ArgumentErrorKind::UnknownVariant, at);
            match allowed {
                Some(allowed) => problem.with_expected(cut_to(&allowed, MAX_NAME_CHARS)),
                None => problem,
            }
        }
        code @ ("too_small" | "too_big") => {
            let (bound, words) = if code == "too_small" {
                ("minimum", [">", ">="])
            } else {
                ("maximum", ["<", "<="])
            };
            let inclusive = issue.get("inclusive").and_then(Value::as_bool) != Some(false);
            let problem = ArgumentError::new(ArgumentErrorKind::OutOfRange, at);
            match issue.get(bound).filter(|value| value.is_number()) {
                Some(limit) => {
                    problem.with_expected(format!("{} {limit}", words[usize::from(inclusive)]))
                }
                None => problem,
            }
        }
        _ => words::expected_from(ArgumentError::new(ArgumentErrorKind::Other, at), message),
    };
    vec![problem]
}
