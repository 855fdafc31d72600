//! The `schemars` feature: the JSON Schemas of the wire types accept the JSON
//! this crate really writes, and reject what it never writes. Every schema
//! is checked with the `jsonschema` validator, in both of schemars' modes:
//! the deserialize contract (`schema_for!`) and the serialize contract that
//! rmcp uses for a tool's `outputSchema`.

use std::fmt;

use envelope::{Envelope, ErrorClass, ErrorEnvelope, ToolResult, UserErrorCategory};
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Value, json};

#[derive(Debug, Envelope)]
#[envelope(suggested_tools(ObjectNotFound = "list_tables"))]
enum CatalogError {
    #[envelope(class = ObjectNotFound, message = "table {name} does not exist", ora_code = 942)]
    Missing {
        #[envelope(detail)]
        name: String,
        #[envelope(fuzzy_matches)]
        candidates: Vec<String>,
    },
    #[envelope(
        class = Busy,
        next_step = "wait, then retry the same call",
        help_url = "https://example.com/busy"
    )]
    Busy {
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },
    #[envelope(class = InvalidArguments, category = MissingContext, message = "argument {field} is missing")]
    MissingArgument {
        #[envelope(detail)]
        field: String,
        #[envelope(next_steps)]
        steps: Vec<String>,
    },
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("catalog error")
    }
}

/// Both schemas schemars generates for `T`: deserialize and serialize
/// contract, as JSON.
fn schemas<T: JsonSchema>() -> [Value; 2] {
    let read = schemars::schema_for!(T).to_value();
    let write = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    [read, write]
}

fn assert_valid<T: JsonSchema>(instance: &Value) {
    for schema in schemas::<T>() {
        let validator = jsonschema::validator_for(&schema).expect("schemars writes a valid schema");
        if let Err(error) = validator.validate(instance) {
            panic!("{instance} does not match the schema: {error}\nschema: {schema:#}");
        }
    }
}

fn assert_invalid<T: JsonSchema>(instance: &Value) {
    for schema in schemas::<T>() {
        let validator = jsonschema::validator_for(&schema).expect("schemars writes a valid schema");
        assert!(
            !validator.is_valid(instance),
            "{instance} should not match {schema:#}"
        );
    }
}

fn real_envelopes() -> Vec<ErrorEnvelope> {
    vec![
        ErrorEnvelope::new(ErrorClass::Internal, "an internal error occurred"),
        CatalogError::Missing {
            name: "EMPLOYES".into(),
            candidates: vec!["EMPLOYEES".into(), "EMPLOYEE".into()],
        }
        .into_envelope(),
        CatalogError::Busy {
            retry_after_ms: 1500,
        }
        .into_envelope(),
        CatalogError::MissingArgument {
            field: "table".into(),
            steps: vec!["pass `table`".into()],
        }
        .into_envelope(),
        // Every field set, a multi-valued detail included.
        ErrorEnvelope::new(ErrorClass::PreconditionFailed, "no lease")
            .with_ora_code(20001)
            .with_suggested_tool("acquire_lease")
            .with_fuzzy_matches(vec!["LEASE_A".into()])
            .with_next_step("acquire a lease")
            .with_retry_after_ms(0)
            .with_code("LEASE_REQUIRED")
            .with_category(UserErrorCategory::WorkflowDependency)
            .with_help_url("https://example.com/leases")
            .with_detail("tags", json!(["a", "b"]))
            .with_detail("limits", json!({"max": 3})),
    ]
}

#[test]
fn real_envelopes_match_the_envelope_schema() {
    let envelopes = real_envelopes();
    // The JSON under test, pinned so the test cannot pass on an empty shape.
    assert_eq!(
        envelopes[1].to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table EMPLOYES does not exist","ora_code":942,"suggested_tool":"list_tables","fuzzy_matches":["EMPLOYEES","EMPLOYEE"],"code":"MISSING","category":"NotFound","details":{"name":"EMPLOYES"}}"#
    );
    assert_eq!(
        envelopes[2].to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","next_steps":["wait, then retry the same call"],"retry_after_ms":1500,"code":"BUSY","category":"Technical","retryable":true,"help_url":"https://example.com/busy"}"#
    );
    for envelope in &envelopes {
        assert_valid::<ErrorEnvelope>(&envelope.to_json());
        // The MCP renderer's structured content is the same object.
        assert_valid::<ErrorEnvelope>(&envelope.to_mcp_result()["structuredContent"]);
    }
}

#[test]
fn envelope_schema_rejects_what_is_never_written() {
    let good = real_envelopes()[1].to_json();
    let mut not_error = good.clone();
    not_error["isError"] = json!(false);
    assert_invalid::<ErrorEnvelope>(&not_error);
    let mut bad_class = good.clone();
    bad_class["error_class"] = json!("NOT_A_CLASS");
    assert_invalid::<ErrorEnvelope>(&bad_class);
    let mut no_message = good.clone();
    no_message.as_object_mut().unwrap().remove("message");
    assert_invalid::<ErrorEnvelope>(&no_message);
    let mut bad_retry = good;
    bad_retry["retry_after_ms"] = json!(-1);
    assert_invalid::<ErrorEnvelope>(&bad_retry);
}

#[test]
fn classes_and_categories_match_their_schemas() {
    for class in ErrorClass::ALL {
        assert_valid::<ErrorClass>(&serde_json::to_value(class).unwrap());
    }
    for category in UserErrorCategory::ALL {
        assert_valid::<UserErrorCategory>(&serde_json::to_value(category).unwrap());
    }
    assert_invalid::<ErrorClass>(&json!("ObjectNotFound"));
    assert_invalid::<UserErrorCategory>(&json!("NOT_FOUND"));
}

#[test]
fn tool_results_match_the_tool_result_schema() {
    let error = CatalogError::Busy {
        retry_after_ms: 1500,
    }
    .to_tool_result_json("call_7");
    let success = ToolResult::success("call_8", "3 tables");
    let text = real_envelopes()[0].to_tool_result("call_9");
    assert_eq!(
        serde_json::to_string(&success).unwrap(),
        r#"{"tool_call_id":"call_8","content":"3 tables","is_error":false,"error_category":null}"#
    );
    for result in [&error, &success, &text] {
        assert_valid::<ToolResult>(&serde_json::to_value(result).unwrap());
    }
    assert_invalid::<ToolResult>(&json!({"tool_call_id": "c", "content": 1, "is_error": true}));
}

#[test]
fn envelope_schema_names_its_parts() {
    let [read, write] = schemas::<ErrorEnvelope>();
    assert_eq!(read["title"], json!("ErrorEnvelope"));
    assert_eq!(read["required"], json!(["error_class", "message"]));
    assert_eq!(read["properties"]["isError"]["const"], json!(true));
    assert_eq!(
        read["properties"]["error_class"]["$ref"],
        json!("#/$defs/ErrorClass")
    );
    // Written envelopes always carry `isError`.
    assert_eq!(
        write["required"],
        json!(["isError", "error_class", "message"])
    );
}
