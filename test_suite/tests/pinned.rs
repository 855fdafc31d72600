//! Behaviour of derived types pinned with literal expected values (issue
//! 15): whole JSON values and whole strings. The hand-written half lives in
//! `envelope-core/tests/pinned.rs`.

use std::rc::Rc;
use std::sync::Arc;

use envelope::{Envelope, ErrorClass, ToolResult, UserErrorCategory};
use serde_json::{Value, json};

/// One variant per server-owned class the derive produces, none with a
/// `message`: each `Display` holds an internal detail that must not reach
/// the model. Plus a caller-owned variant with an overridden category.
#[derive(Debug, thiserror::Error, Envelope)]
enum Backend {
    #[error("pool at /srv/db/pool.sock exhausted")]
    #[envelope(class = Busy)]
    Busy,
    #[error("SELECT * FROM payroll timed out")]
    #[envelope(class = Timeout)]
    Timeout,
    #[error("replica db-7.internal lagging")]
    #[envelope(class = Transient)]
    Transient,
    #[error("connect to 10.0.0.7:1521 refused")]
    #[envelope(class = ConnectionFailed)]
    Connection,
    #[error("panic in /home/build/src/exec.rs:42")]
    #[envelope(class = Internal)]
    Internal,
    #[error("no table {name}")]
    #[envelope(
        class = ObjectNotFound,
        category = MissingContext,
        message = "no table {name}"
    )]
    Missing {
        name: String,
        #[envelope(fuzzy_matches)]
        near: Vec<String>,
    },
}

const CHECK: &str = "the call may have taken effect: check its result before repeating it";

/// The envelope JSON of every server-owned variant: the class's generic
/// message, never the `Display` text.
#[test]
fn generic_message_of_every_server_owned_variant() {
    let expected = [
        r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","code":"BUSY","category":"Technical","retryable":true}"#.to_owned(),
        format!(
            r#"{{"isError":true,"error_class":"TIMEOUT","message":"the operation timed out","next_steps":["{CHECK}"],"code":"TIMEOUT","category":"Technical","effect":"unknown"}}"#
        ),
        format!(
            r#"{{"isError":true,"error_class":"TRANSIENT","message":"a temporary failure occurred","next_steps":["{CHECK}"],"code":"TRANSIENT","category":"Technical","effect":"unknown"}}"#
        ),
        format!(
            r#"{{"isError":true,"error_class":"CONNECTION_FAILED","message":"the server could not reach a service it depends on","next_steps":["{CHECK}"],"code":"CONNECTION","category":"Technical","effect":"unknown"}}"#
        ),
        format!(
            r#"{{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["{CHECK}"],"code":"INTERNAL","category":"Technical","effect":"unknown"}}"#
        ),
    ];
    let errors = [
        Backend::Busy,
        Backend::Timeout,
        Backend::Transient,
        Backend::Connection,
        Backend::Internal,
    ];
    for (error, expected) in errors.iter().zip(&expected) {
        assert_eq!(&error.to_json_string(), expected, "{error:?}");
    }
    for (error, expected) in errors.into_iter().zip(&expected) {
        assert_eq!(&error.into_envelope().to_json_string(), expected);
    }
}

fn missing() -> Backend {
    Backend::Missing {
        name: "EMPLOYES".into(),
        near: vec!["EMPLOYEES".into(), "EMPLOYEE".into()],
    }
}

const MISSING_JSON: &str = r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no table EMPLOYES","fuzzy_matches":["EMPLOYEES","EMPLOYEE"],"code":"MISSING","category":"MissingContext"}"#;

const MISSING_TEXT: &str =
    "Call again with the one meant of \"EMPLOYEES\" or \"EMPLOYEE\" in place of the name you sent.";

fn missing_mcp() -> Value {
    json!({
        "content": [
            {"type": "text", "text": MISSING_JSON},
            {"type": "text", "text": MISSING_TEXT}
        ],
        "structuredContent": {
            "isError": true,
            "error_class": "OBJECT_NOT_FOUND",
            "message": "no table EMPLOYES",
            "fuzzy_matches": ["EMPLOYEES", "EMPLOYEE"],
            "code": "MISSING",
            "category": "MissingContext"
        },
        "isError": true,
        "resultType": "complete"
    })
}

/// `to_mcp_result` through the trait, as every derived type gets it, and
/// through every pointer.
#[test]
fn to_mcp_result_of_a_derived_type() {
    let error = missing();
    assert_eq!(Envelope::to_mcp_result(&error), missing_mcp());
    assert_eq!(Envelope::to_mcp_result(&&error), missing_mcp());
    assert_eq!(Box::new(missing()).to_mcp_result(), missing_mcp());
    assert_eq!(Arc::new(missing()).to_mcp_result(), missing_mcp());
    assert_eq!(Rc::new(missing()).to_mcp_result(), missing_mcp());
    let object: Box<dyn Envelope + Send + Sync> = Box::new(missing());
    assert_eq!(object.to_mcp_result(), missing_mcp());

    let timeout = json!({
        "content": [{
            "type": "text",
            "text": format!(
                r#"{{"isError":true,"error_class":"TIMEOUT","message":"the operation timed out","next_steps":["{CHECK}"],"code":"TIMEOUT","category":"Technical","effect":"unknown"}}"#
            )
        }, {
            "type": "text",
            "text": "Do not repeat this call: it may already have taken effect. Tell the user it failed and may have taken effect."
        }],
        "structuredContent": {
            "isError": true,
            "error_class": "TIMEOUT",
            "message": "the operation timed out",
            "next_steps": [CHECK],
            "code": "TIMEOUT",
            "category": "Technical",
            "effect": "unknown"
        },
        "isError": true,
        "resultType": "complete"
    });
    assert_eq!(Envelope::to_mcp_result(&Backend::Timeout), timeout);
}

#[test]
fn tool_results_of_a_derived_type() {
    assert_eq!(
        missing().to_tool_result_json("call_9"),
        ToolResult {
            tool_call_id: "call_9".into(),
            content: MISSING_JSON.into(),
            is_error: true,
            error_category: Some(UserErrorCategory::MissingContext),
        }
    );
    assert_eq!(
        missing().into_envelope().to_tool_result("call_9"),
        ToolResult {
            tool_call_id: "call_9".into(),
            content: format!("{MISSING_JSON}\n{MISSING_TEXT}"),
            is_error: true,
            error_category: Some(UserErrorCategory::MissingContext),
        }
    );
}

/// A variant's `category` override, through every pointer: not the
/// class's default (`NotFound`).
#[test]
fn pointers_forward_a_derived_category_override() {
    assert_eq!(missing().user_category(), UserErrorCategory::MissingContext);
    assert_eq!(
        Box::new(missing()).user_category(),
        UserErrorCategory::MissingContext
    );
    assert_eq!(
        Arc::new(missing()).user_category(),
        UserErrorCategory::MissingContext
    );
    assert_eq!(
        Rc::new(missing()).user_category(),
        UserErrorCategory::MissingContext
    );
    assert_eq!(
        Envelope::user_category(&&missing()),
        UserErrorCategory::MissingContext
    );
    let object: Box<dyn Envelope> = Box::new(missing());
    assert_eq!(object.user_category(), UserErrorCategory::MissingContext);
    assert_eq!(Box::new(missing()).code(), Some("MISSING"));
    assert_eq!(
        Box::new(missing()).error_class(),
        ErrorClass::ObjectNotFound
    );
}

/// Optional role fields, by reference and by value (`into_envelope` moves
/// a variant with a `message` and a list field).
#[derive(Debug, Clone, thiserror::Error, Envelope)]
#[error("no table {name}")]
#[envelope(class = ObjectNotFound, message = "no table {name}")]
struct NoTable {
    name: String,
    #[envelope(fuzzy_matches)]
    near: Option<Vec<String>>,
    #[envelope(correlation_id)]
    request: Option<String>,
}

#[test]
fn optional_role_fields_by_reference_and_by_value() {
    let some = NoTable {
        name: "EMPLOYES".into(),
        near: Some(vec!["EMPLOYEES".into()]),
        request: Some("req-7".into()),
    };
    let expected = r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no table EMPLOYES","fuzzy_matches":["EMPLOYEES"],"code":"NO_TABLE","category":"NotFound","correlation_id":"req-7"}"#;
    assert_eq!(some.to_json_string(), expected);
    assert_eq!(some.into_envelope().to_json_string(), expected);
    let none = NoTable {
        name: "EMPLOYES".into(),
        near: None,
        request: None,
    };
    let expected = r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no table EMPLOYES","code":"NO_TABLE","category":"NotFound"}"#;
    assert_eq!(none.to_json_string(), expected);
    assert_eq!(none.into_envelope().to_json_string(), expected);
}
