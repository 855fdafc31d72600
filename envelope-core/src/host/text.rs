//! The texts the official MCP SDKs write for a failed tool call, read
//! back: an unknown tool, rejected arguments (pydantic's and zod's
//! reports), a tool's own error. Only what a text states is read.

use serde_json::Value;

use super::cut;
use crate::argument_error::{ArgumentError, ArgumentErrorKind};
use crate::class::ErrorClass;
use crate::envelope::ErrorEnvelope;

/// The envelope a known SDK text states, if `text` is one (the table on
/// [`super::read_tool_result`]).
pub(super) fn read(text: &str) -> Option<ErrorEnvelope> {
    let text = text.trim();
    // The TypeScript SDK prefixes the JSON-RPC code of a tool error.
    let text = match text.strip_prefix("MCP error ") {
        Some(rest) => rest.split_once(": ").map_or(text, |(_, rest)| rest),
        None => text,
    };
    if let Some(name) = text.strip_prefix("Unknown tool: ").or_else(|| {
        text.strip_prefix("Tool ")
            .and_then(|rest| rest.strip_suffix(" not found"))
    }) {
        return Some(unknown_tool(name));
    }
    if let Some(envelope) = pydantic(text) {
        return Some(envelope);
    }
    if let Some(envelope) = zod(text) {
        return Some(envelope);
    }
    let rest = text.strip_prefix("Error executing tool ")?;
    let (_, said) = rest.split_once(": ")?;
    if let Some(envelope) = pydantic(said) {
        return Some(envelope);
    }
    Some(ErrorEnvelope::new(ErrorClass::Unknown, cut(said)))
}

fn unknown_tool(name: &str) -> ErrorEnvelope {
    ErrorEnvelope::new(
        ErrorClass::ObjectNotFound,
        format!("no tool is called {}", Value::from(cut(name.trim()))),
    )
    .with_code("UNKNOWN_TOOL")
    .with_next_step("list the tools with tools/list and call one of them")
}

/// pydantic's validation report:
///
/// ```text
/// 1 validation error for typedArguments
/// n
///   Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='abc', input_type=str]
///     For further information visit https://errors.pydantic.dev/2.11/v/int_parsing
/// ```
fn pydantic(text: &str) -> Option<ErrorEnvelope> {
    let mut lines = text.lines();
    let head = lines.next()?;
    let (count, rest) = head.split_once(' ')?;
    count.parse::<usize>().ok()?;
    if !(rest.starts_with("validation error for ") || rest.starts_with("validation errors for ")) {
        return None;
    }
    let mut problems = Vec::new();
    let mut location: Option<&str> = None;
    for line in lines {
        if line.starts_with("    ") || line.trim().is_empty() {
            continue;
        }
        if let Some(detail) = line.strip_prefix("  ") {
            let Some(location) = location.take() else {
                continue;
            };
            problems.push(pydantic_problem(location, detail));
        } else {
            location = Some(line.trim());
        }
    }
    Some(crate::args::invalid_arguments(problems))
}

/// One pydantic error: its location (`n`, `items.0.name`) and its line
/// (`Input should be ... [type=int_parsing, input_value=..., input_type=str]`).
fn pydantic_problem(location: &str, detail: &str) -> ArgumentError {
    let path = crate::args::pointer(location.split('.'));
    let kind_name = detail
        .rsplit_once("[type=")
        .map(|(_, rest)| rest.split([',', ']']).next().unwrap_or_default())
        .unwrap_or_default();
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
    let said = detail
        .rsplit_once(" [type=")
        .map_or(detail, |(said, _)| said)
        .trim();
    let mut problem = ArgumentError::new(kind, path);
    if let Some(expected) = said.strip_prefix("Input should be ") {
        problem = problem.with_expected(cut(expected.split(',').next().unwrap_or(expected)));
    }
    if let Some(received) = detail
        .rsplit_once("input_type=")
        .map(|(_, rest)| rest.trim_end_matches(']'))
    {
        let json = match received {
            "str" => Some("string"),
            "int" => Some("integer"),
            "float" => Some("number"),
            "bool" => Some("boolean"),
            "dict" => Some("object"),
            "list" => Some("array"),
            "NoneType" => Some("null"),
            _ => None,
        };
        problem.received = json.map(String::from);
    }
    problem
}

/// zod's issues after the TypeScript SDK's `Input validation error:
/// Invalid arguments for tool <name>: `: a JSON array of issues
/// (`{"code", "path", "message", "expected"}`), as zod 3 and 4 write them.
fn zod(text: &str) -> Option<ErrorEnvelope> {
    let rest = text.strip_prefix("Input validation error: ")?;
    let issues = rest
        .find('[')
        .and_then(|at| serde_json::from_str::<Vec<Value>>(&rest[at..]).ok());
    let Some(issues) = issues else {
        let mut envelope = crate::args::invalid_arguments(Vec::new());
        envelope.fields_mut().message = cut(rest);
        return Some(envelope);
    };
    let problems = issues.iter().map(zod_problem).collect();
    Some(crate::args::invalid_arguments(problems))
}

fn zod_problem(issue: &Value) -> ArgumentError {
    let tokens: Vec<String> = issue
        .get("path")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|token| match token {
            Value::String(key) => key.clone(),
            other => other.to_string(),
        })
        .collect();
    let code = issue
        .get("code")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let message = issue
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let kind = match code {
        "invalid_type"
            if message.contains("received undefined")
                || issue.get("received").and_then(Value::as_str) == Some("undefined") =>
        {
            ArgumentErrorKind::Missing
        }
        "invalid_type" => ArgumentErrorKind::WrongType,
        "unrecognized_keys" => ArgumentErrorKind::UnknownField,
        "invalid_enum_value" | "invalid_value" | "invalid_literal" => {
            ArgumentErrorKind::UnknownVariant
        }
        "too_small" | "too_big" => ArgumentErrorKind::OutOfRange,
        _ => ArgumentErrorKind::Other,
    };
    let mut problem = ArgumentError::new(kind, crate::args::pointer(&tokens));
    if kind == ArgumentErrorKind::WrongType
        && let Some(expected) = issue.get("expected").and_then(Value::as_str)
    {
        problem = problem.with_expected(cut(expected));
    }
    problem
}
