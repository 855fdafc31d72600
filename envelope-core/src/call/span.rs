//! The call's `tracing` span (feature `tracing`), named and filled after
//! OpenTelemetry's semantic conventions, so that `tracing-opentelemetry`
//! exports a failed call as a failed span with the attribute names
//! dashboards expect.
//!
//! Sources: the MCP conventions
//! (`open-telemetry/semantic-conventions-genai`, `docs/gen-ai/mcp.md`:
//! span name `{mcp.method.name} {gen_ai.tool.name}`, kind `SERVER`,
//! `mcp.method.name`, `gen_ai.operation.name = execute_tool`,
//! `gen_ai.tool.name`, and `error.type = tool_error` for a result with
//! `isError: true`, the status `ERROR` with the message as its
//! description); the GenAI `execute_tool` span (`gen-ai-spans.md`: name
//! `execute_tool {gen_ai.tool.name}`, `error.type` a low-cardinality class
//! of the error); the HTTP server span (`http-spans.md`: a 4xx answer
//! leaves a server span's status unset, a 5xx sets it to `ERROR` with
//! `error.type` the status code). `tracing-opentelemetry` reads the fields
//! `otel.name`, `otel.kind`, `otel.status_code` and
//! `otel.status_description` as the span's name, kind and status.
//!
//! The crate's own attributes are under `envelope.`: `envelope.error_class`
//! (the wire name, `"TIMEOUT"`), `envelope.code` (the domain code),
//! `envelope.owner` (`"caller"`, `"server"`, `"user"`),
//! `envelope.retryable` (a boolean) and `envelope.effect` (`"nothing"`,
//! `"unknown"`, `"partial"`).

use std::borrow::Cow;

use tracing::Span;
use tracing::field::Empty;

use crate::model::envelope::ErrorEnvelope;

/// What carries a call, which decides its span's conventions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
// Each transport's variant is made by its integration only.
#[cfg_attr(not(all(feature = "rmcp", feature = "axum")), allow(dead_code))]
pub(crate) enum Transport {
    /// A function call of a chat loop or a script runner: a GenAI
    /// `execute_tool` span.
    #[default]
    Tool,
    /// An MCP `tools/call` request: an MCP server span.
    Mcp,
    /// An HTTP request (the tool name is `"METHOD /route"`): an HTTP
    /// server span.
    Http,
}

/// The span of a call of `tool`: `tool_call`, with the fields `tool` and
/// `correlation_id` (escaped, as the log line's text fields are), the
/// conventional name, kind and attributes of `transport`, and empty fields
/// that [`fail`] records.
pub(crate) fn open(tool: &str, correlation_id: &str, transport: Transport) -> Span {
    // A client may send any tool name: one that could start a line or
    // colour a terminal in a plain-text log is recorded escaped.
    let shown = inert(tool);
    let (name, kind, method, operation) = match transport {
        Transport::Tool => (
            format!("execute_tool {shown}"),
            "internal",
            None,
            Some("execute_tool"),
        ),
        Transport::Mcp => (
            format!("tools/call {shown}"),
            "server",
            Some("tools/call"),
            Some("execute_tool"),
        ),
        Transport::Http => (shown.clone().into_owned(), "server", None, None),
    };
    let tool_name = operation.map(|_| shown.as_ref());
    tracing::info_span!(
        "tool_call",
        tool = ?tool,
        correlation_id = ?correlation_id,
        otel.name = name,
        otel.kind = kind,
        mcp.method.name = method,
        gen_ai.operation.name = operation,
        gen_ai.tool.name = tool_name,
        "error.type" = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
        envelope.error_class = Empty,
        envelope.code = Empty,
        envelope.owner = Empty,
        envelope.retryable = Empty,
        envelope.effect = Empty,
    )
}

/// `text` as it is when it is printable ASCII without quotes or
/// backslashes (every MCP tool name the specification allows, every route
/// template), else its `Debug` form, escaped as the log line's text fields
/// are.
fn inert(text: &str) -> Cow<'_, str> {
    if text
        .bytes()
        .all(|b| matches!(b, b' '..=b'~') && b != b'"' && b != b'\\')
    {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(format!("{text:?}"))
    }
}

/// Records the failure `envelope` on `span`, a span [`open`] made for
/// `transport`: the `envelope.` attributes always; `error.type` and the
/// status `ERROR` with the message as its description, except for an
/// HTTP answer below 500 (a client's error, not the server span's).
pub(crate) fn fail(span: &Span, envelope: &ErrorEnvelope, transport: Transport) {
    let class = envelope.error_class;
    span.record("envelope.error_class", class.as_str());
    if let Some(code) = envelope.code.as_deref() {
        span.record("envelope.code", code);
    }
    span.record("envelope.owner", class.owner().as_str());
    span.record("envelope.retryable", envelope.retryable);
    span.record("envelope.effect", envelope.effect.as_str());
    let error_type: Cow<'_, str> = match transport {
        Transport::Tool => Cow::Borrowed(class.as_str()),
        Transport::Mcp => Cow::Borrowed("tool_error"),
        Transport::Http if class.http_status() >= 500 => {
            Cow::Owned(class.http_status().to_string())
        }
        Transport::Http => return,
    };
    span.record("error.type", error_type.as_ref());
    span.record("otel.status_code", "ERROR");
    span.record("otel.status_description", envelope.message.as_str());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorClass;
    use crate::call::capture::spans;

    /// The fields of the span of a call of `tool` over `transport` that
    /// failed with `class`.
    fn failed(tool: &str, transport: Transport, class: ErrorClass) -> Vec<String> {
        let envelope = ErrorEnvelope::new(class, "the store is down").with_code("STORE_DOWN");
        let mut seen = spans(|| fail(&open(tool, "c-1", transport), &envelope, transport));
        assert_eq!(seen.len(), 1);
        seen.remove(0)
    }

    /// `expected`'s `&str`s as the `String`s [`spans`] gives.
    fn owned(expected: &[&str]) -> Vec<String> {
        expected.iter().map(|field| String::from(*field)).collect()
    }

    #[test]
    fn each_transport_names_and_fails_its_span() {
        let opened = [r#"tool="get_note""#, r#"correlation_id="c-1""#];
        let server = [
            "envelope.error_class=INTERNAL",
            "envelope.code=STORE_DOWN",
            "envelope.owner=server",
            "envelope.retryable=false",
            "envelope.effect=unknown",
        ];
        let caller = [
            "envelope.error_class=OBJECT_NOT_FOUND",
            "envelope.code=STORE_DOWN",
            "envelope.owner=caller",
            "envelope.retryable=false",
            "envelope.effect=nothing",
        ];
        let status = [
            "otel.status_code=ERROR",
            "otel.status_description=the store is down",
        ];
        let tool = [
            "otel.name=execute_tool get_note",
            "otel.kind=internal",
            "gen_ai.operation.name=execute_tool",
            "gen_ai.tool.name=get_note",
        ];
        assert_eq!(
            failed("get_note", Transport::Tool, ErrorClass::ObjectNotFound),
            owned(
                &[
                    &opened[..],
                    &tool,
                    &caller,
                    &["error.type=OBJECT_NOT_FOUND"],
                    &status
                ]
                .concat()
            )
        );
        let mcp = [
            "otel.name=tools/call get_note",
            "otel.kind=server",
            "mcp.method.name=tools/call",
            "gen_ai.operation.name=execute_tool",
            "gen_ai.tool.name=get_note",
        ];
        assert_eq!(
            failed("get_note", Transport::Mcp, ErrorClass::ObjectNotFound),
            owned(
                &[
                    &opened[..],
                    &mcp,
                    &caller,
                    &["error.type=tool_error"],
                    &status
                ]
                .concat()
            )
        );
        // Over HTTP the tool is the route; a 500 fails the server span, a
        // 404 is the client's and leaves its status unset.
        let http = [
            r#"tool="GET /notes/{id}""#,
            r#"correlation_id="c-1""#,
            "otel.name=GET /notes/{id}",
            "otel.kind=server",
        ];
        assert_eq!(
            failed("GET /notes/{id}", Transport::Http, ErrorClass::Internal),
            owned(&[&http[..], &server, &["error.type=500"], &status].concat())
        );
        assert_eq!(
            failed(
                "GET /notes/{id}",
                Transport::Http,
                ErrorClass::ObjectNotFound
            ),
            owned(&[&http[..], &caller].concat())
        );
    }

    #[test]
    fn a_name_that_could_forge_a_log_line_is_escaped() {
        let fields = failed("add\nnote", Transport::Mcp, ErrorClass::ObjectNotFound);
        assert_eq!(
            fields[..7],
            owned(&[
                r#"tool="add\nnote""#,
                r#"correlation_id="c-1""#,
                r#"otel.name=tools/call "add\nnote""#,
                "otel.kind=server",
                "mcp.method.name=tools/call",
                "gen_ai.operation.name=execute_tool",
                r#"gen_ai.tool.name="add\nnote""#,
            ])[..]
        );
    }
}
