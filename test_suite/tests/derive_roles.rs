//! Behaviour of every attribute and field role, by exact envelope JSON.

use std::time::Duration;

use envelope::{Envelope, ErrorClass, ErrorEnvelope, UserErrorCategory};

#[derive(Debug, thiserror::Error, Envelope)]
#[envelope(
    suggested_tools(ObjectNotFound = "schema_inspect", Busy = "status"),
    code_prefix = "DB_",
    help_url = "https://example.com/db-errors"
)]
enum DbError {
    #[error("object not found: {name}")]
    #[envelope(class = ObjectNotFound, message = "object {name} does not exist")]
    ObjectNotFound {
        name: String,
        #[envelope(fuzzy_matches)]
        candidates: Vec<String>,
    },

    #[error("busy")]
    #[envelope(class = Busy, next_step = "wait {wait_ms} ms", next_step = "retry the same call")]
    Busy {
        #[envelope(retry_after_ms)]
        wait_ms: u64,
    },

    #[error("slow")]
    #[envelope(class = Timeout, retry_after_ms = 500, suggested_tool = none)]
    Slow {
        #[envelope(retry_after)]
        retry: Option<Duration>,
    },

    #[error("login failed for {user} with {password}")]
    #[envelope(class = Unauthenticated, message = "login failed for {user}", code = "LOGIN_FAILED")]
    Login {
        user: String,
        #[envelope(secret)]
        password: String,
    },

    #[error("bad argument {0}")]
    #[envelope(class = InvalidArguments, category = MissingContext, suggested_tool = "describe_args")]
    BadArgument(String),

    #[error("oracle says {1}")]
    #[envelope(class = SyntaxError, ora_code = 900, message = "parse failed at {0:>4}: {1:?} ({{raw}})")]
    Parse(u32, String, #[envelope(ora_code)] Option<i32>),

    #[error("no lease")]
    #[envelope(class = PreconditionFailed, message = "no lease for {r#type}")]
    NoLease {
        r#type: String,
        #[envelope(next_steps)]
        steps: Vec<String>,
        #[envelope(suggested_tool)]
        tool: Option<String>,
        #[envelope(detail)]
        session: u32,
        #[envelope(detail = "tags")]
        labels: Vec<&'static str>,
    },

    #[error("crashed at /srv/secret/path")]
    #[envelope(class = Internal)]
    Crash,
}

fn json(err: &DbError) -> String {
    err.to_envelope().to_json_string()
}

#[test]
fn object_not_found_with_fuzzy_matches_and_class_tool() {
    let err = DbError::ObjectNotFound {
        name: "EMPLOYES".into(),
        candidates: vec!["EMPLOYEES".into(), "EMPLOYEE".into()],
    };
    assert_eq!(
        json(&err),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"object EMPLOYES does not exist","suggested_tool":"schema_inspect","fuzzy_matches":["EMPLOYEES","EMPLOYEE"],"code":"DB_OBJECT_NOT_FOUND","category":"NotFound","help_url":"https://example.com/db-errors"}"#
    );
    assert_eq!(
        ErrorEnvelope::from(err).to_json_string(),
        json(&DbError::ObjectNotFound {
            name: "EMPLOYES".into(),
            candidates: vec!["EMPLOYEES".into(), "EMPLOYEE".into()],
        })
    );
}

#[test]
fn busy_with_templated_steps_and_retry_field() {
    let err = DbError::Busy { wait_ms: 250 };
    assert_eq!(
        json(&err),
        r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","suggested_tool":"status","next_steps":["wait 250 ms","retry the same call"],"retry_after_ms":250,"code":"DB_BUSY","category":"Technical","retryable":true,"help_url":"https://example.com/db-errors"}"#
    );
    assert_eq!(
        err.into_envelope().to_json_string(),
        json(&DbError::Busy { wait_ms: 250 })
    );
}

#[test]
fn static_retry_is_replaced_only_by_a_set_field() {
    let none = DbError::Slow { retry: None };
    assert_eq!(
        json(&none),
        r#"{"isError":true,"error_class":"TIMEOUT","message":"the operation timed out","next_steps":["the call may have taken effect: check its result before repeating it"],"retry_after_ms":500,"code":"DB_SLOW","category":"Technical","effect":"unknown","help_url":"https://example.com/db-errors"}"#
    );
    let some = DbError::Slow {
        retry: Some(Duration::from_secs(2)),
    };
    assert_eq!(some.to_envelope().retry_after_ms, Some(2000));
    assert_eq!(some.into_envelope().retry_after_ms, Some(2000));
}

#[test]
fn secret_never_rendered() {
    let err = DbError::Login {
        user: "ada".into(),
        password: "hunter2".into(),
    };
    let expected = r#"{"isError":true,"error_class":"UNAUTHENTICATED","message":"login failed for ada","code":"LOGIN_FAILED","category":"WorkflowDependency","help_url":"https://example.com/db-errors"}"#;
    assert_eq!(json(&err), expected);
    assert!(
        err.to_string().contains("hunter2"),
        "Display still has it; the envelope must not"
    );
    // Each renderer, positively (a whole value) and negatively: an empty
    // or `null` rendering must not pass as "no secret".
    let result = err.to_tool_result_json("c");
    assert_eq!(result.content, expected);
    assert_eq!(
        result.error_category,
        Some(UserErrorCategory::WorkflowDependency)
    );
    assert!(!result.content.contains("hunter2"));
    // The `Display` is the whole text; what a model reads is the JSON and
    // the text's lead.
    assert_eq!(
        err.to_envelope().to_string(),
        "Do not repeat this call: ask the user to sign in again.\nUNAUTHENTICATED (LOGIN_FAILED): login failed for ada\nHelp: https://example.com/db-errors\nDo not repeat this call: ask the user to sign in again."
    );
    let text = "Do not repeat this call: ask the user to sign in again.";
    assert_eq!(
        err.to_tool_result("c").content,
        format!("{expected}\n{text}")
    );
    let mcp = err.to_mcp_result();
    assert_eq!(
        mcp,
        serde_json::json!({
            "content": [{"type": "text", "text": expected}, {"type": "text", "text": text}],
            "structuredContent": {
                "isError": true,
                "error_class": "UNAUTHENTICATED",
                "message": "login failed for ada",
                "code": "LOGIN_FAILED",
                "category": "WorkflowDependency",
                "help_url": "https://example.com/db-errors"
            },
            "isError": true,
            "resultType": "complete"
        })
    );
    assert!(!mcp.to_string().contains("hunter2"));
    let owned = err.into_envelope().to_json_string();
    assert_eq!(owned, expected);
    assert!(!owned.contains("hunter2"));
}

#[test]
fn display_default_message_category_and_tool() {
    let err = DbError::BadArgument("limit".into());
    assert_eq!(
        json(&err),
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"bad argument limit","suggested_tool":"describe_args","code":"DB_BAD_ARGUMENT","category":"MissingContext","help_url":"https://example.com/db-errors"}"#
    );
    assert_eq!(err.user_category(), UserErrorCategory::MissingContext);
    assert_eq!(err.into_envelope().message, "bad argument limit");
}

#[test]
fn positional_fields_format_specs_escapes_and_ora_code() {
    let err = DbError::Parse(7, "SELEC".into(), Some(923));
    assert_eq!(
        json(&err),
        r#"{"isError":true,"error_class":"SYNTAX_ERROR","message":"parse failed at    7: \"SELEC\" ({raw})","ora_code":923,"code":"DB_PARSE","category":"Validation","help_url":"https://example.com/db-errors"}"#
    );
    assert_eq!(
        DbError::Parse(1, String::new(), None)
            .to_envelope()
            .ora_code,
        Some(900)
    );
}

#[test]
fn raw_identifier_next_steps_dynamic_tool_and_details() {
    let err = DbError::NoLease {
        r#type: "txn".into(),
        steps: vec!["call acquire_lease".into()],
        tool: Some("acquire_lease".into()),
        session: 42,
        labels: vec!["a", "b"],
    };
    let expected = r#"{"isError":true,"error_class":"PRECONDITION_FAILED","message":"no lease for txn","suggested_tool":"acquire_lease","next_steps":["call acquire_lease"],"code":"DB_NO_LEASE","category":"WorkflowDependency","help_url":"https://example.com/db-errors","details":{"session":42,"tags":["a","b"]}}"#;
    assert_eq!(json(&err), expected);
    assert_eq!(err.into_envelope().to_json_string(), expected);
}

#[test]
fn server_class_without_message_hides_display() {
    let err = DbError::Crash;
    assert_eq!(
        json(&err),
        r#"{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"DB_CRASH","category":"Technical","effect":"unknown","help_url":"https://example.com/db-errors"}"#
    );
    assert!(!json(&err).contains("/srv"));
}

#[test]
fn accessors() {
    let err = DbError::Crash;
    assert_eq!(err.error_class(), ErrorClass::Internal);
    assert_eq!(err.code(), Some("DB_CRASH"));
    assert_eq!(
        DbError::Busy { wait_ms: 1 }.user_category(),
        UserErrorCategory::Technical
    );
}

#[test]
fn into_envelope_moves_the_vec() {
    let candidates = vec!["EMPLOYEES".to_owned(), "EMPLOYEE".to_owned()];
    let buffer = candidates.as_ptr();
    let first = candidates[0].as_ptr();
    let err = DbError::ObjectNotFound {
        name: "E".into(),
        candidates,
    };
    let envelope = err.into_envelope();
    assert_eq!(envelope.fuzzy_matches.as_ptr(), buffer);
    assert_eq!(envelope.fuzzy_matches[0].as_ptr(), first);

    let steps = vec!["one".to_owned()];
    let buffer = steps.as_ptr();
    let err = DbError::NoLease {
        r#type: "t".into(),
        steps,
        tool: None,
        session: 1,
        labels: vec![],
    };
    assert_eq!(err.into_envelope().next_steps.as_ptr(), buffer);
}

#[test]
fn an_empty_tool_field_keeps_the_default() {
    #[derive(Debug, Envelope)]
    #[envelope(class = ObjectNotFound, message = "missing", suggested_tool = "inspect")]
    struct Missing {
        #[envelope(suggested_tool)]
        tool: String,
    }
    let err = Missing {
        tool: String::new(),
    };
    assert_eq!(err.to_envelope().suggested_tool.as_deref(), Some("inspect"));
    assert_eq!(err.to_json_string(), err.to_envelope().to_json_string());
    assert_eq!(
        err.into_envelope().suggested_tool.as_deref(),
        Some("inspect")
    );
}
