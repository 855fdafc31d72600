//! The texts the official MCP SDKs write for a failed tool call, read
//! back: an unknown tool, rejected arguments (pydantic's and zod's
//! reports), a tool's own error. Only what a text states is read.

use super::cut;
use crate::model::argument_error::{ArgumentError, ArgumentErrorKind};
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

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
        return Some(crate::render::mcp::unknown_tool(
            &cut(name.trim()),
            Vec::new(),
        ));
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
        problem.received = json_type_name(received).map(String::from);
    }
    problem
}

/// zod's issues after the TypeScript SDK's `Input validation error:
/// Invalid arguments for tool <name>: `, one per line, each zod's message
/// and ` at <path>` (`a.b[0].c`) when the issue has one:
///
/// ```text
/// Invalid input: expected string, received number at name
/// ```
fn zod(text: &str) -> Option<ErrorEnvelope> {
    let rest = text.strip_prefix("Input validation error: ")?;
    let issues = rest
        .strip_prefix("Invalid arguments for tool ")
        .and_then(|rest| rest.split_once(": "))
        .map_or(rest, |(_, issues)| issues);
    let problems: Vec<ArgumentError> = issues
        .lines()
        .filter(|line| !line.trim().is_empty())
        .flat_map(zod_problems)
        .collect();
    let mut envelope = crate::args::invalid_arguments(problems);
    if envelope.argument_errors.is_empty() {
        envelope.fields_mut().message = cut(issues);
    }
    Some(envelope)
}

/// The problems of one zod issue line.
fn zod_problems(line: &str) -> Vec<ArgumentError> {
    let (message, tokens) = match line.rsplit_once(" at ") {
        Some((message, path)) if path != "object root" => (message, dot_path(path)),
        Some((message, _)) => (message, Vec::new()),
        None => (line, Vec::new()),
    };
    let at = |tokens: &[String]| crate::args::pointer(tokens);
    if let Some(keys) = message
        .strip_prefix("Unrecognized keys: ")
        .or_else(|| message.strip_prefix("Unrecognized key: "))
    {
        return keys
            .split(", ")
            .map(|key| {
                let key = key.trim_matches('"');
                let mut tokens = tokens.clone();
                tokens.push(key.to_owned());
                ArgumentError::new(ArgumentErrorKind::UnknownField, at(&tokens))
            })
            .collect();
    }
    let problem = if let Some(rest) = message.strip_prefix("Invalid input: expected ") {
        match rest.split_once(", received ") {
            Some((_, "undefined")) => ArgumentError::new(ArgumentErrorKind::Missing, at(&tokens)),
            Some((expected, received)) => {
                let mut problem = ArgumentError::new(ArgumentErrorKind::WrongType, at(&tokens))
                    .with_expected(cut(expected));
                problem.received = json_type_name(received).map(String::from);
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

/// zod's dot path (`items[0].name`) as reference tokens.
fn dot_path(path: &str) -> Vec<String> {
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
fn json_type_name(name: &str) -> Option<&'static str> {
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
