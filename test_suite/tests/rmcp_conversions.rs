//! The `rmcp` feature on derived types: the impls the facade's
//! `integrations!` macro emits make a derived error an rmcp tool error with
//! no glue, for plain, generic and lifetime-parameterized types, and in a
//! module without the implicit prelude.

#![cfg(feature = "rmcp")]
#![deny(warnings)]

use std::fmt;

use envelope::{Envelope, ErrorEnvelope};
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use rmcp::{ErrorData, Json};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

#[derive(Debug, Envelope)]
#[envelope(suggested_tools(ObjectNotFound = "list_tables"))]
enum ToolError {
    #[envelope(class = ObjectNotFound, message = "table {table} does not exist")]
    Missing {
        table: String,
        #[envelope(fuzzy_matches)]
        candidates: Vec<String>,
    },
    #[envelope(class = Busy)]
    Busy {
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tool error")
    }
}

/// Generic over a lifetime and a type; `T` is bounded only where used.
#[derive(Debug, Envelope)]
enum Lookup<'a, T>
where
    T: fmt::Debug,
{
    #[envelope(class = ObjectNotFound, message = "no {key:?} in {table}")]
    Missing { key: T, table: &'a str },
}

impl<T: fmt::Debug> fmt::Display for Lookup<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("lookup failed")
    }
}

/// Generated code must not lean on the prelude or on names the user may
/// shadow (`Vec`, `From`, `IntoContents`).
mod hostile {
    #![no_implicit_prelude]

    #[allow(dead_code)]
    struct Vec;
    #[allow(dead_code)]
    trait From {}
    #[allow(dead_code)]
    trait IntoContents {}

    #[derive(::std::fmt::Debug, ::envelope::Envelope)]
    #[envelope(class = Conflict, message = "stale")]
    pub struct Stale;

    impl ::std::fmt::Display for Stale {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str("stale")
        }
    }
}

#[derive(Serialize, JsonSchema)]
struct Row {
    name: String,
}

const MISSING_JSON: &str = r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table EMPLOYES does not exist","suggested_tool":"list_tables","fuzzy_matches":["EMPLOYEES"],"code":"MISSING","category":"NotFound"}"#;

fn missing() -> ToolError {
    ToolError::Missing {
        table: "EMPLOYES".into(),
        candidates: vec!["EMPLOYEES".into()],
    }
}

fn complete(response: Result<CallToolResponse, ErrorData>) -> CallToolResult {
    match response.expect("a tool result, not a protocol error") {
        CallToolResponse::Complete(result) => result,
        other => panic!("not a complete result: {other:?}"),
    }
}

/// The envelope's JSON: the first text block, before the text a model
/// reads.
fn text(result: &CallToolResult) -> &str {
    assert_eq!(result.content.len(), 2);
    &result.content[0].as_text().expect("a text block").text
}

#[test]
fn derived_error_is_a_tool_error_result() {
    let result = complete(missing().into_call_tool_result());
    assert_eq!(
        result.content,
        vec![
            ContentBlock::text(MISSING_JSON),
            ContentBlock::text(
                "Call again with \"EMPLOYEES\" in place of the name you sent; if it is not the one meant, call list_tables."
            ),
        ]
    );
    assert_eq!(result.is_error, Some(true));
    assert_eq!(result.structured_content, None);
}

#[test]
fn json_tool_error_needs_no_glue_and_keeps_structured_content_empty() {
    let outcome: Result<Json<Row>, ToolError> = Err(missing());
    let result = complete(outcome.into_call_tool_result());
    assert_eq!(result.is_error, Some(true));
    assert_eq!(text(&result), MISSING_JSON);
    assert_eq!(result.structured_content, None);

    let outcome: Result<Json<Row>, ToolError> = Ok(Json(Row {
        name: "EMPLOYEES".into(),
    }));
    let result = complete(outcome.into_call_tool_result());
    assert_eq!(result.is_error, Some(false));
    assert_eq!(
        result.structured_content,
        Some(json!({"name": "EMPLOYEES"}))
    );
}

#[test]
fn text_tool_error_needs_no_glue() {
    let outcome: Result<String, ToolError> = Err(ToolError::Busy {
        retry_after_ms: 250,
    });
    let result = complete(outcome.into_call_tool_result());
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","retry_after_ms":250,"code":"BUSY","category":"Technical","retryable":true}"#
    );
}

fn structured_tool(fail: bool) -> Result<String, CallToolResult> {
    if fail {
        Err(missing())?;
    }
    Ok("ok".into())
}

#[test]
fn question_mark_into_call_tool_result_carries_structured_content() {
    let result = complete(structured_tool(true).into_call_tool_result());
    assert_eq!(result.is_error, Some(true));
    assert_eq!(text(&result), MISSING_JSON);
    assert_eq!(
        result.structured_content,
        Some(serde_json::from_str(MISSING_JSON).unwrap())
    );
    assert_eq!(result, CallToolResult::from(missing()));
    assert_eq!(result, CallToolResult::from(ErrorEnvelope::from(missing())));
    assert_eq!(
        complete(structured_tool(false).into_call_tool_result()).is_error,
        Some(false)
    );
}

#[test]
fn generic_and_lifetime_parameterized_types() {
    let table = String::from("users");
    let err = Lookup::Missing {
        key: 7_u8,
        table: &table,
    };
    let expected = "Do not repeat this call unchanged: use a name that exists.";
    let json = r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no 7 in users","code":"MISSING","category":"NotFound"}"#;
    assert_eq!(
        CallToolResult::from(Lookup::Missing {
            key: 7_u8,
            table: &table,
        })
        .content[1]
            .as_text()
            .unwrap()
            .text,
        expected
    );
    assert_eq!(
        complete(err.into_call_tool_result()).content,
        vec![ContentBlock::text(json), ContentBlock::text(expected)]
    );
    let result = CallToolResult::from(Lookup::Missing {
        key: "k",
        table: &table,
    });
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        result.structured_content.as_ref().unwrap()["message"],
        json!(r#"no "k" in users"#)
    );
}

#[test]
fn no_implicit_prelude_module() {
    let result = complete(Err::<String, _>(hostile::Stale).into_call_tool_result());
    assert_eq!(
        text(&result),
        r#"{"isError":true,"error_class":"CONFLICT","message":"stale","code":"STALE","category":"WorkflowDependency"}"#
    );
    assert_eq!(
        CallToolResult::from(hostile::Stale)
            .structured_content
            .unwrap()["code"],
        json!("STALE")
    );
}
