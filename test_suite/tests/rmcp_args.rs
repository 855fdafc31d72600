//! The `rmcp` feature for tool arguments and for `ErrorEnvelope` itself:
//! `Parameters<Args<T>>` publishes exactly `T`'s `inputSchema` and hands
//! the tool `Ok(T)` or the `INVALID_ARGUMENTS` envelope, and a `#[tool]`
//! may return `Result<_, ErrorEnvelope>`.

#![cfg(feature = "rmcp")]
#![deny(warnings)]

use envelope::args::Args;
use envelope::{Envelope, ErrorClass, ErrorEnvelope};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{IntoCallToolResult, schema_for_input};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResponse, CallToolResult};
use rmcp::{ErrorData, Json, tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Arguments of `describe`.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
struct TableArgs {
    /// The table name.
    table: String,
    /// How many columns to list.
    limit: Option<u32>,
}

/// Result of `describe`.
#[derive(Serialize, JsonSchema)]
struct Info {
    table: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    /// A tool whose error type is the envelope itself.
    #[tool]
    async fn plain(&self) -> Result<String, ErrorEnvelope> {
        Err(ErrorEnvelope::new(ErrorClass::Busy, "pool full").with_retry_after_ms(250))
    }

    /// Checked arguments, returned with `?`, on a tool with an
    /// `outputSchema`.
    #[tool]
    async fn describe(
        &self,
        Parameters(Args(args)): Parameters<Args<TableArgs>>,
    ) -> Result<Json<Info>, ErrorEnvelope> {
        let TableArgs { table, .. } = args?;
        Ok(Json(Info { table }))
    }

    /// The same arguments, unchecked, for comparison.
    #[tool]
    async fn unchecked(&self, Parameters(args): Parameters<TableArgs>) -> String {
        args.table
    }
}

fn complete(response: Result<CallToolResponse, ErrorData>) -> CallToolResult {
    match response.expect("a tool result") {
        CallToolResponse::Complete(result) => result,
        other => panic!("not a complete result: {other:?}"),
    }
}

#[test]
fn input_schema_is_exactly_the_argument_types() {
    let router = Server {
        tool_router: Server::tool_router(),
    }
    .tool_router;
    let checked = router
        .get("describe")
        .expect("describe")
        .input_schema
        .clone();
    let unchecked = router
        .get("unchecked")
        .expect("unchecked")
        .input_schema
        .clone();
    assert_eq!(checked, unchecked);
    assert_eq!(
        checked,
        schema_for_input::<Parameters<TableArgs>>().expect("an object schema")
    );
    assert_eq!(
        Value::Object((*checked).clone()),
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "table": {"type": "string", "description": "The table name."},
                "limit": {
                    "type": ["integer", "null"],
                    "format": "uint32",
                    "minimum": 0,
                    "description": "How many columns to list.",
                },
            },
            "required": ["table"],
            "additionalProperties": false,
        })
    );
    // A declared `outputSchema`, so the envelope must stay text only.
    assert!(
        router
            .get("describe")
            .expect("describe")
            .output_schema
            .is_some()
    );
}

/// What rmcp does with a call's arguments: `serde_json::from_value` into
/// the `Parameters<...>` type. It never fails for `Args`.
fn extract(arguments: Value) -> Result<TableArgs, ErrorEnvelope> {
    let Parameters(Args(args)) =
        serde_json::from_value::<Parameters<Args<TableArgs>>>(arguments).expect("never fails");
    args
}

#[test]
fn valid_arguments_reach_the_tool() {
    assert_eq!(
        extract(json!({"table": "EMP", "limit": 3})),
        Ok(TableArgs {
            table: "EMP".into(),
            limit: Some(3),
        })
    );
}

#[test]
fn invalid_arguments_become_the_envelope() {
    let envelope = extract(json!({"tabel": "EMP", "limit": "3"})).unwrap_err();
    assert_eq!(envelope.error_class, ErrorClass::InvalidArguments);
    let expected = if cfg!(feature = "jsonschema") {
        json!([
            {"path": "/table", "kind": "missing"},
            {"path": "/limit", "kind": "wrong_type", "expected": "an integer or null", "received": "string"},
            {"path": "/tabel", "kind": "unknown_field", "received": "string", "suggestions": ["table"]},
        ])
    } else {
        // serde's first problem: keys are read in order, `limit` first.
        json!([
            {"path": "/limit", "kind": "wrong_type", "expected": "an integer", "received": "string"},
        ])
    };
    assert_eq!(envelope.to_json()["argument_errors"], expected);
    // Plain `Parameters<T>` fails inside rmcp instead, before the tool runs.
    assert!(serde_json::from_value::<Parameters<TableArgs>>(json!({"tabel": "EMP"})).is_err());
}

#[test]
fn the_envelope_as_a_tool_error_is_text_only() {
    let envelope = extract(json!({})).unwrap_err();
    let result =
        complete(Err::<Json<Info>, ErrorEnvelope>(envelope.clone()).into_call_tool_result());
    assert_eq!(result.is_error, Some(true));
    assert_eq!(result.structured_content, None);
    assert_eq!(result.content.len(), 2);
    assert_eq!(
        result.content[0].as_text().expect("text").text,
        envelope.to_json_string()
    );
    // The text's lead: the facts are in the JSON above.
    assert_eq!(
        result.content[1].as_text().expect("text").text,
        "Fix these arguments, then call this tool again:\n- /table is missing: add it"
    );
    assert_eq!(
        serde_json::to_value(&result).unwrap()["resultType"],
        json!("complete")
    );
}

#[test]
fn result_string_error_envelope_is_a_tool_result() {
    let busy = ErrorEnvelope::new(ErrorClass::Busy, "pool full").with_retry_after_ms(250);
    let result = complete(Err::<String, _>(busy).into_call_tool_result());
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({
            "content": [{
                "type": "text",
                "text": r#"{"isError":true,"error_class":"BUSY","message":"pool full","retry_after_ms":250,"category":"Technical","retryable":true}"#,
            }, {
                "type": "text",
                "text": "Wait 250 ms, then repeat the same call unchanged.",
            }],
            "isError": true,
            "resultType": "complete",
        })
    );
    let ok = complete(Ok::<String, ErrorEnvelope>("fine".into()).into_call_tool_result());
    assert_eq!(ok.is_error, Some(false));
}
