//! Behaviour pinned with literal expected values (issue 15): whole strings
//! and whole JSON values, never a value computed by the code under test.
//! Grouped by topic; the derived-type half lives in
//! `test_suite/tests/pinned.rs`.

use std::rc::Rc;
use std::sync::Arc;

use envelope_core::{
    Effect, Envelope, ErrorClass, ErrorEnvelope, Owner, ToolResult, UserErrorCategory, VariantSpec,
};
use serde_json::json;

const CHECK_UNKNOWN: &str = "the call may have taken effect: check its result before repeating it";

// ---------------------------------------------------------------------------
// Display of the enums
// ---------------------------------------------------------------------------

#[test]
fn display_of_every_error_class() {
    let shown: Vec<String> = ErrorClass::ALL.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "INVALID_ARGUMENTS",
            "SYNTAX_ERROR",
            "RUNTIME_ERROR",
            "OBJECT_NOT_FOUND",
            "ALREADY_EXISTS",
            "PRECONDITION_FAILED",
            "CONFLICT",
            "UNAUTHENTICATED",
            "INTERACTION_REQUIRED",
            "INSUFFICIENT_PRIVILEGE",
            "POLICY_DENIED",
            "UNSUPPORTED",
            "RATE_LIMITED",
            "QUOTA_EXCEEDED",
            "BUSY",
            "TIMEOUT",
            "TRANSIENT",
            "CONNECTION_FAILED",
            "CANCELLED",
            "INTERNAL",
            "UNKNOWN",
        ]
    );
    // Through a format string with padding: `Display` writes the name
    // itself, not a debug form.
    assert_eq!(format!("[{}]", ErrorClass::Busy), "[BUSY]");
}

#[test]
fn display_of_every_owner() {
    assert_eq!(Owner::Caller.to_string(), "caller");
    assert_eq!(Owner::Server.to_string(), "server");
    assert_eq!(Owner::User.to_string(), "user");
    assert_eq!(
        format!("{}/{}", Owner::Caller, Owner::Server),
        "caller/server"
    );
}

#[test]
fn display_of_every_user_error_category() {
    let shown: Vec<String> = UserErrorCategory::ALL
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        shown,
        [
            "WorkflowDependency",
            "MissingContext",
            "NotFound",
            "Duplicate",
            "Validation",
            "Technical",
            "Unknown",
        ]
    );
}

#[test]
fn display_of_every_effect() {
    assert_eq!(Effect::Nothing.to_string(), "nothing");
    assert_eq!(Effect::Partial.to_string(), "partial");
    assert_eq!(Effect::Unknown.to_string(), "unknown");
    assert_eq!(Effect::default(), Effect::Nothing);
}

/// Parsing takes the wire name or the variant name, exactly; anything
/// else is an error that quotes the input.
#[test]
fn parsing_a_class_from_literal_names() {
    let parsed: Vec<Result<ErrorClass, String>> = [
        "OBJECT_NOT_FOUND",
        "ObjectNotFound",
        "RATE_LIMITED",
        "RateLimited",
        "UNKNOWN",
        "Unknown",
        "object_not_found",
        "OBJECT_NOT_FOUND ",
        "",
        "NotFound",
    ]
    .iter()
    .map(|text| text.parse::<ErrorClass>().map_err(|err| err.to_string()))
    .collect();
    assert_eq!(
        parsed,
        [
            Ok(ErrorClass::ObjectNotFound),
            Ok(ErrorClass::ObjectNotFound),
            Ok(ErrorClass::RateLimited),
            Ok(ErrorClass::RateLimited),
            Ok(ErrorClass::Unknown),
            Ok(ErrorClass::Unknown),
            Err("unknown error class `object_not_found`".to_owned()),
            Err("unknown error class `OBJECT_NOT_FOUND `".to_owned()),
            Err("unknown error class ``".to_owned()),
            Err("unknown error class `NotFound`".to_owned()),
        ]
    );
}

// ---------------------------------------------------------------------------
// Generic messages and the envelope `new` makes, per class
// ---------------------------------------------------------------------------

#[test]
fn generic_message_of_every_class() {
    use ErrorClass as C;
    let rows: &[(ErrorClass, &str)] = &[
        (C::InvalidArguments, "the arguments are invalid"),
        (C::SyntaxError, "the request does not parse"),
        (C::RuntimeError, "the script failed while it ran"),
        (C::ObjectNotFound, "the requested object does not exist"),
        (C::AlreadyExists, "the object already exists"),
        (C::PreconditionFailed, "a required earlier step is missing"),
        (C::Conflict, "the state changed since it was read"),
        (C::Unauthenticated, "authentication is required"),
        (
            C::InteractionRequired,
            "a person must act before this call can succeed",
        ),
        (
            C::InsufficientPrivilege,
            "the caller lacks the privilege for this operation",
        ),
        (C::PolicyDenied, "a policy refused the request"),
        (C::Unsupported, "the operation is not supported"),
        (C::RateLimited, "the rate limit was exceeded"),
        (C::QuotaExceeded, "a quota is used up"),
        (C::Busy, "the server is busy"),
        (C::Timeout, "the operation timed out"),
        (C::Transient, "a temporary failure occurred"),
        (
            C::ConnectionFailed,
            "the server could not reach a service it depends on",
        ),
        (C::Cancelled, "the operation was cancelled"),
        (
            C::Internal,
            "an internal error occurred; changing the call will not help",
        ),
        (
            C::Unknown,
            "an internal error occurred; changing the call will not help",
        ),
    ];
    assert_eq!(rows.len(), ErrorClass::ALL.len());
    for &(class, text) in rows {
        assert_eq!(class.generic_message(), text, "{class:?}");
    }
}

/// The server-owned classes, each with its generic message: the texts that
/// keep paths, SQL and host names away from the model.
#[test]
fn generic_message_of_every_server_owned_class() {
    let server: Vec<(ErrorClass, &str)> = ErrorClass::ALL
        .iter()
        .filter(|class| class.owner() == Owner::Server)
        .map(|&class| (class, class.generic_message()))
        .collect();
    assert_eq!(
        server,
        [
            (ErrorClass::Busy, "the server is busy"),
            (ErrorClass::Timeout, "the operation timed out"),
            (ErrorClass::Transient, "a temporary failure occurred"),
            (
                ErrorClass::ConnectionFailed,
                "the server could not reach a service it depends on"
            ),
            (
                ErrorClass::Internal,
                "an internal error occurred; changing the call will not help"
            ),
            (
                ErrorClass::Unknown,
                "an internal error occurred; changing the call will not help"
            ),
        ]
    );
}

/// `ErrorEnvelope::new` for every class, as JSON: category from the class;
/// a class whose call may have taken effect gets `effect: "unknown"`, the
/// check step first and no `retryable`; the others are retryable exactly
/// when the class is.
#[test]
fn new_envelope_of_every_class() {
    use ErrorClass as C;
    let refused = |class: &str, category: &str| {
        format!(
            r#"{{"isError":true,"error_class":"{class}","message":"m","category":"{category}"}}"#
        )
    };
    let retryable = |class: &str| {
        format!(
            r#"{{"isError":true,"error_class":"{class}","message":"m","category":"Technical","retryable":true}}"#
        )
    };
    let may_have_acted = |class: &str| {
        format!(
            r#"{{"isError":true,"error_class":"{class}","message":"m","next_steps":["{CHECK_UNKNOWN}"],"category":"Technical","effect":"unknown"}}"#
        )
    };
    let rows: Vec<(ErrorClass, String)> = vec![
        (
            C::InvalidArguments,
            refused("INVALID_ARGUMENTS", "Validation"),
        ),
        (C::SyntaxError, refused("SYNTAX_ERROR", "Validation")),
        (
            C::RuntimeError,
            format!(
                r#"{{"isError":true,"error_class":"RUNTIME_ERROR","message":"m","next_steps":["{CHECK_UNKNOWN}"],"category":"Validation","effect":"unknown"}}"#
            ),
        ),
        (C::ObjectNotFound, refused("OBJECT_NOT_FOUND", "NotFound")),
        (C::AlreadyExists, refused("ALREADY_EXISTS", "Duplicate")),
        (
            C::PreconditionFailed,
            refused("PRECONDITION_FAILED", "WorkflowDependency"),
        ),
        (C::Conflict, refused("CONFLICT", "WorkflowDependency")),
        (
            C::Unauthenticated,
            refused("UNAUTHENTICATED", "WorkflowDependency"),
        ),
        (
            C::InteractionRequired,
            refused("INTERACTION_REQUIRED", "WorkflowDependency"),
        ),
        (
            C::InsufficientPrivilege,
            refused("INSUFFICIENT_PRIVILEGE", "WorkflowDependency"),
        ),
        (C::PolicyDenied, refused("POLICY_DENIED", "Validation")),
        (C::Unsupported, refused("UNSUPPORTED", "Validation")),
        (C::RateLimited, retryable("RATE_LIMITED")),
        (C::QuotaExceeded, refused("QUOTA_EXCEEDED", "Technical")),
        (C::Busy, retryable("BUSY")),
        (C::Timeout, may_have_acted("TIMEOUT")),
        (C::Transient, may_have_acted("TRANSIENT")),
        (C::ConnectionFailed, may_have_acted("CONNECTION_FAILED")),
        (C::Cancelled, may_have_acted("CANCELLED")),
        (C::Internal, may_have_acted("INTERNAL")),
        (C::Unknown, may_have_acted("UNKNOWN")),
    ];
    assert_eq!(rows.len(), ErrorClass::ALL.len());
    for (class, expected) in rows {
        assert_eq!(
            ErrorEnvelope::new(class, "m").to_json_string(),
            expected,
            "{class:?}"
        );
    }
}

/// An idempotent call is safe to repeat whatever its effect: the check
/// step goes, `retryable` is the class's, the effect stays.
#[test]
fn idempotent_envelope_of_every_class_that_may_have_acted() {
    let rows: &[(ErrorClass, &str)] = &[
        (
            ErrorClass::Timeout,
            r#"{"isError":true,"error_class":"TIMEOUT","message":"m","category":"Technical","retryable":true,"effect":"unknown"}"#,
        ),
        (
            ErrorClass::Transient,
            r#"{"isError":true,"error_class":"TRANSIENT","message":"m","category":"Technical","retryable":true,"effect":"unknown"}"#,
        ),
        (
            ErrorClass::ConnectionFailed,
            r#"{"isError":true,"error_class":"CONNECTION_FAILED","message":"m","category":"Technical","retryable":true,"effect":"unknown"}"#,
        ),
        (
            ErrorClass::Cancelled,
            r#"{"isError":true,"error_class":"CANCELLED","message":"m","category":"Technical","effect":"unknown"}"#,
        ),
        (
            ErrorClass::Internal,
            r#"{"isError":true,"error_class":"INTERNAL","message":"m","category":"Technical","effect":"unknown"}"#,
        ),
        (
            ErrorClass::Unknown,
            r#"{"isError":true,"error_class":"UNKNOWN","message":"m","category":"Technical","effect":"unknown"}"#,
        ),
    ];
    for &(class, expected) in rows {
        assert_eq!(
            ErrorEnvelope::new(class, "m").idempotent().to_json_string(),
            expected,
            "{class:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// The trait's provided methods, on a hand-written impl
// ---------------------------------------------------------------------------

/// A hand-written impl with only the two required methods.
#[derive(Debug)]
struct OutOfCredits {
    left: u32,
}

impl Envelope for OutOfCredits {
    fn error_class(&self) -> ErrorClass {
        ErrorClass::QuotaExceeded
    }

    fn to_envelope(&self) -> ErrorEnvelope {
        ErrorEnvelope::new(
            ErrorClass::QuotaExceeded,
            format!("{} credits left", self.left),
        )
        .with_code("NO_CREDITS")
        .with_next_step("ask the user to top up")
    }
}

/// A hand-written impl that overrides the category and the code, so a
/// pointer that does not forward them shows the provided defaults instead.
#[derive(Debug)]
struct AskWhichCity;

impl Envelope for AskWhichCity {
    fn error_class(&self) -> ErrorClass {
        ErrorClass::InvalidArguments
    }

    fn user_category(&self) -> UserErrorCategory {
        UserErrorCategory::MissingContext
    }

    fn code(&self) -> Option<&'static str> {
        Some("CITY_AMBIGUOUS")
    }

    fn to_envelope(&self) -> ErrorEnvelope {
        ErrorEnvelope::new(ErrorClass::InvalidArguments, "which Springfield?")
            .with_category(UserErrorCategory::MissingContext)
            .with_code("CITY_AMBIGUOUS")
    }
}

const CREDITS_JSON: &str = r#"{"isError":true,"error_class":"QUOTA_EXCEEDED","message":"0 credits left","next_steps":["ask the user to top up"],"code":"NO_CREDITS","category":"Technical"}"#;

#[test]
fn provided_code_of_a_hand_impl_is_none() {
    let error = OutOfCredits { left: 0 };
    // The envelope has a code; the provided accessor still says `None`.
    assert_eq!(Envelope::code(&error), None);
    assert_eq!(Envelope::code(&Box::new(OutOfCredits { left: 0 })), None);
    let object: &dyn Envelope = &error;
    assert_eq!(object.code(), None);
}

#[test]
fn provided_user_category_of_a_hand_impl_is_the_class_default() {
    let error = OutOfCredits { left: 0 };
    assert_eq!(
        Envelope::user_category(&error),
        UserErrorCategory::Technical
    );
}

#[test]
fn provided_renderers_of_a_hand_impl() {
    let error = OutOfCredits { left: 0 };
    assert_eq!(Envelope::to_json_string(&error), CREDITS_JSON);
    assert_eq!(
        Envelope::to_tool_result_json(&error, "call_7"),
        ToolResult {
            tool_call_id: "call_7".into(),
            content: CREDITS_JSON.into(),
            is_error: true,
            error_category: Some(UserErrorCategory::Technical),
        }
    );
    assert_eq!(
        serde_json::to_value(Envelope::into_envelope(OutOfCredits { left: 0 })).unwrap(),
        json!({
            "isError": true,
            "error_class": "QUOTA_EXCEEDED",
            "message": "0 credits left",
            "next_steps": ["ask the user to top up"],
            "code": "NO_CREDITS",
            "category": "Technical"
        })
    );
    assert!(OutOfCredits::catalog().is_empty());
}

#[test]
fn provided_to_mcp_result_of_a_hand_impl() {
    let expected = json!({
        "content": [
            {"type": "text", "text": CREDITS_JSON},
            {"type": "text", "text": "Do not repeat this call: the quota is used up. Tell the user."}
        ],
        "structuredContent": {
            "isError": true,
            "error_class": "QUOTA_EXCEEDED",
            "message": "0 credits left",
            "next_steps": ["ask the user to top up"],
            "code": "NO_CREDITS",
            "category": "Technical"
        },
        "isError": true,
        "resultType": "complete"
    });
    let error = OutOfCredits { left: 0 };
    assert_eq!(Envelope::to_mcp_result(&error), expected);
    let object: &dyn Envelope = &error;
    assert_eq!(object.to_mcp_result(), expected);
    let boxed: Box<dyn Envelope + Send + Sync> = Box::new(OutOfCredits { left: 0 });
    assert_eq!(boxed.to_mcp_result(), expected);
}

/// Every pointer forwards an overridden `user_category` and `code`, rather
/// than falling back to the provided methods (class default, `None`).
#[test]
fn pointers_forward_an_overridden_category_and_code() {
    let forwarded = |category: UserErrorCategory, code: Option<&'static str>| {
        assert_eq!(category, UserErrorCategory::MissingContext);
        assert_eq!(code, Some("CITY_AMBIGUOUS"));
    };
    let boxed = Box::new(AskWhichCity);
    forwarded(boxed.user_category(), boxed.code());
    let arc = Arc::new(AskWhichCity);
    forwarded(arc.user_category(), arc.code());
    let rc = Rc::new(AskWhichCity);
    forwarded(rc.user_category(), rc.code());
    let by_ref = &AskWhichCity;
    forwarded(Envelope::user_category(&by_ref), Envelope::code(&by_ref));
    let objects: [Box<dyn Envelope>; 3] = [
        Box::new(AskWhichCity),
        Box::new(Arc::new(AskWhichCity)),
        Box::new(Rc::new(AskWhichCity)),
    ];
    for object in &objects {
        forwarded(object.user_category(), object.code());
    }
    let shared: Arc<dyn Envelope + Send + Sync> = Arc::new(AskWhichCity);
    forwarded(shared.user_category(), shared.code());
    let local: Rc<dyn Envelope> = Rc::new(AskWhichCity);
    forwarded(local.user_category(), local.code());
    // And the error class, whose default nobody provides.
    assert_eq!(boxed.error_class(), ErrorClass::InvalidArguments);
    assert_eq!(
        boxed.to_json_string(),
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"which Springfield?","code":"CITY_AMBIGUOUS","category":"MissingContext"}"#
    );
}

// ---------------------------------------------------------------------------
// The text form (`Display` of `ErrorEnvelope`)
// ---------------------------------------------------------------------------

fn missing_table() -> ErrorEnvelope {
    ErrorEnvelope::new(ErrorClass::ObjectNotFound, "no table EMPLOYES")
}

#[test]
fn text_form_without_near_misses_is_one_line() {
    assert_eq!(
        missing_table().to_string(),
        "Do not repeat this call unchanged: use a name that exists.\nOBJECT_NOT_FOUND: no table EMPLOYES\nDo not repeat this call unchanged: use a name that exists."
    );
    assert_eq!(
        missing_table().with_fuzzy_matches(Vec::new()).to_string(),
        "Do not repeat this call unchanged: use a name that exists.\nOBJECT_NOT_FOUND: no table EMPLOYES\nDo not repeat this call unchanged: use a name that exists."
    );
}

#[test]
fn text_form_with_one_near_miss() {
    assert_eq!(
        missing_table()
            .with_fuzzy_matches(vec!["EMPLOYEES".into()])
            .to_string(),
        "Call again with \"EMPLOYEES\" in place of the name you sent.\nOBJECT_NOT_FOUND: no table EMPLOYES\nCall again with \"EMPLOYEES\" in place of the name you sent."
    );
}

#[test]
fn text_form_separates_near_misses_with_a_comma_and_space() {
    assert_eq!(
        missing_table()
            .with_fuzzy_matches(vec!["EMPLOYEES".into(), "EMPLOYEE".into()])
            .to_string(),
        "Call again with the one meant of \"EMPLOYEES\" or \"EMPLOYEE\" in place of the name you sent.\nOBJECT_NOT_FOUND: no table EMPLOYES\nCall again with the one meant of \"EMPLOYEES\" or \"EMPLOYEE\" in place of the name you sent."
    );
    assert_eq!(
        missing_table()
            .with_fuzzy_matches(vec![
                "EMPLOYEES".into(),
                "EMPLOYEE".into(),
                "EMPLOYERS".into(),
                "DEPLOYMENTS".into(),
            ])
            .to_string(),
        "Call again with the one meant of \"EMPLOYEES\", \"EMPLOYEE\", \"EMPLOYERS\" or \"DEPLOYMENTS\" in place of the name you sent.\nOBJECT_NOT_FOUND: no table EMPLOYES\nCall again with the one meant of \"EMPLOYEES\", \"EMPLOYEE\", \"EMPLOYERS\" or \"DEPLOYMENTS\" in place of the name you sent."
    );
}

#[test]
fn text_form_with_near_misses_and_more() {
    let env = missing_table()
        .with_code("TABLE_MISSING")
        .with_fuzzy_matches(vec!["EMPLOYEES".into(), "EMPLOYEE".into()])
        .with_suggested_tool("schema_inspect")
        .with_next_step("check the spelling");
    assert_eq!(
        env.to_string(),
        "Call again with the one meant of \"EMPLOYEES\" or \"EMPLOYEE\" in place of the name you sent; if none of these is meant, call schema_inspect.\nOBJECT_NOT_FOUND (TABLE_MISSING): no table EMPLOYES\nNext step: check the spelling\nCall again with the one meant of \"EMPLOYEES\" or \"EMPLOYEE\" in place of the name you sent; if none of these is meant, call schema_inspect."
    );
}

/// Details of every JSON type: a string is written bare, anything else as
/// compact JSON; keys in the map's order.
#[test]
fn text_form_of_details() {
    let env = ErrorEnvelope::new(ErrorClass::PolicyDenied, "refused")
        .with_detail("user", "ada")
        .with_detail("attempts", 3)
        .with_detail("admin", false)
        .with_detail("limits", json!({"rows": 10}))
        .with_detail("tags", json!(["a", "b"]))
        .with_detail("none", serde_json::Value::Null)
        .with_detail("quoted", "say \"hi\"");
    assert_eq!(
        env.to_string(),
        "Do not repeat this call: a policy forbids it. Tell the user.\nPOLICY_DENIED: refused\nadmin: false\nattempts: 3\nlimits: {\"rows\":10}\nnone: null\nquoted: say \"hi\"\ntags: [\"a\",\"b\"]\nuser: ada\nDo not repeat this call: a policy forbids it. Tell the user."
    );
}

/// The check step of a class whose call may have taken effect, as text.
#[test]
fn text_form_of_a_timeout() {
    assert_eq!(
        ErrorEnvelope::new(ErrorClass::Timeout, "slow")
            .with_retry_after_ms(500)
            .to_string(),
        "Do not repeat this call: it may already have taken effect. Tell the user it failed and may have taken effect.\nTIMEOUT: slow\nDo not repeat this call: it may already have taken effect. Tell the user it failed and may have taken effect."
    );
}

// ---------------------------------------------------------------------------
// The category fallback of an envelope without a category
// ---------------------------------------------------------------------------

/// An envelope without a category, as a peer may write it: the builders
/// always set one, so it is read from JSON.
fn without_category(class: ErrorClass) -> ErrorEnvelope {
    serde_json::from_value(json!({"error_class": class.as_str(), "message": "m"})).unwrap()
}

#[test]
fn user_category_falls_back_to_the_class_default() {
    use ErrorClass as C;
    use UserErrorCategory as U;
    let rows: &[(ErrorClass, UserErrorCategory)] = &[
        (C::InvalidArguments, U::Validation),
        (C::SyntaxError, U::Validation),
        (C::RuntimeError, U::Validation),
        (C::ObjectNotFound, U::NotFound),
        (C::AlreadyExists, U::Duplicate),
        (C::PreconditionFailed, U::WorkflowDependency),
        (C::Conflict, U::WorkflowDependency),
        (C::Unauthenticated, U::WorkflowDependency),
        (C::InteractionRequired, U::WorkflowDependency),
        (C::InsufficientPrivilege, U::WorkflowDependency),
        (C::PolicyDenied, U::Validation),
        (C::Unsupported, U::Validation),
        (C::RateLimited, U::Technical),
        (C::QuotaExceeded, U::Technical),
        (C::Busy, U::Technical),
        (C::Timeout, U::Technical),
        (C::Transient, U::Technical),
        (C::ConnectionFailed, U::Technical),
        (C::Cancelled, U::Technical),
        (C::Internal, U::Technical),
        (C::Unknown, U::Technical),
    ];
    assert_eq!(rows.len(), ErrorClass::ALL.len());
    for &(class, category) in rows {
        let env = without_category(class);
        assert_eq!(env.user_category(), category, "{class:?}");
        assert_eq!(Envelope::user_category(&env), category, "{class:?}");
    }
    // A category that is set wins over the class's.
    let set = ErrorEnvelope::new(ErrorClass::ObjectNotFound, "m")
        .with_category(UserErrorCategory::MissingContext);
    assert_eq!(set.user_category(), UserErrorCategory::MissingContext);
}

#[test]
fn tool_results_of_an_envelope_without_category() {
    // Read from a peer that writes no category.
    let env: ErrorEnvelope =
        serde_json::from_str(r#"{"error_class":"ALREADY_EXISTS","message":"taken"}"#).unwrap();
    assert_eq!(env.category, None);
    let content = r#"{"isError":true,"error_class":"ALREADY_EXISTS","message":"taken"}"#;
    assert_eq!(
        serde_json::to_value(env.to_tool_result_json("call_1")).unwrap(),
        json!({
            "tool_call_id": "call_1",
            "content": content,
            "is_error": true,
            "error_category": "Duplicate"
        })
    );
    assert_eq!(
        env.to_tool_result_json("call_1"),
        ToolResult {
            tool_call_id: "call_1".into(),
            content: content.into(),
            is_error: true,
            error_category: Some(UserErrorCategory::Duplicate),
        }
    );
    assert_eq!(
        env.to_tool_result("call_2"),
        ToolResult {
            tool_call_id: "call_2".into(),
            // The JSON, then the text.
            content: format!(
                "{content}\nDo not create it again: it already exists, so use the existing one."
            ),
            is_error: true,
            error_category: Some(UserErrorCategory::Duplicate),
        }
    );
    // A set category is passed on as it is.
    let set = without_category(ErrorClass::ObjectNotFound)
        .with_category(UserErrorCategory::MissingContext);
    assert_eq!(
        set.to_tool_result_json("c").error_category,
        Some(UserErrorCategory::MissingContext)
    );
    assert_eq!(
        set.to_tool_result("c").error_category,
        Some(UserErrorCategory::MissingContext)
    );
}

// ---------------------------------------------------------------------------
// Tool results
// ---------------------------------------------------------------------------

/// `error_text` keeps a peer's `isError: false`, like `error`.
#[test]
fn error_text_keeps_is_error_false() {
    let env: ErrorEnvelope =
        serde_json::from_str(r#"{"isError":false,"error_class":"BUSY","message":"m"}"#).unwrap();
    assert_eq!(
        env.to_tool_result("call_1"),
        ToolResult {
            tool_call_id: "call_1".into(),
            content: concat!(
                r#"{"isError":false,"error_class":"BUSY","message":"m"}"#,
                "\nDo not repeat this call now. Tell the user it failed."
            )
            .into(),
            is_error: false,
            error_category: Some(UserErrorCategory::Technical),
        }
    );
    assert_eq!(
        env.to_tool_result_json("call_1"),
        ToolResult {
            tool_call_id: "call_1".into(),
            content: r#"{"isError":false,"error_class":"BUSY","message":"m"}"#.into(),
            is_error: false,
            error_category: Some(UserErrorCategory::Technical),
        }
    );
}

#[test]
fn error_text_of_a_new_envelope() {
    let env = ErrorEnvelope::new(ErrorClass::Busy, "pool full").with_retry_after_ms(250);
    assert_eq!(
        env.to_tool_result("call_3"),
        ToolResult {
            tool_call_id: "call_3".into(),
            content: concat!(
                r#"{"isError":true,"error_class":"BUSY","message":"pool full","retry_after_ms":250,"category":"Technical","retryable":true}"#,
                "\nWait 250 ms, then repeat the same call unchanged."
            )
            .into(),
            is_error: true,
            error_category: Some(UserErrorCategory::Technical),
        }
    );
}

#[test]
fn success_result() {
    assert_eq!(
        serde_json::to_value(ToolResult::success("call_4", "42 rows")).unwrap(),
        json!({
            "tool_call_id": "call_4",
            "content": "42 rows",
            "is_error": false,
            "error_category": null
        })
    );
}

// ---------------------------------------------------------------------------
// Catalog entries (`VariantSpec`) and the retry rule
// ---------------------------------------------------------------------------

/// A catalog entry as JSON, every key: the whole value is compared.
fn spec_json(spec: VariantSpec) -> serde_json::Value {
    serde_json::to_value(spec).unwrap()
}

fn spec_expected(
    class: &str,
    category: &str,
    effect: &str,
    idempotent: bool,
    retryable: bool,
) -> serde_json::Value {
    // The owner of each class these tests use, from the class table.
    let owner = match class {
        "OBJECT_NOT_FOUND" | "CONFLICT" => "caller",
        "BUSY" | "TIMEOUT" | "INTERNAL" => "server",
        other => panic!("no owner written down for {other}"),
    };
    json!({
        "name": "V",
        "code": null,
        "class": class,
        "owner": owner,
        "category": category,
        "suggested_tool": null,
        "next_steps": [],
        "message": null,
        "help_url": null,
        "ora_code": null,
        "retry_after_ms": null,
        "effect": effect,
        "idempotent": idempotent,
        "retryable": retryable,
        "correlation_id": null,
        "transparent": false
    })
}

#[test]
fn spec_with_class_takes_the_class_defaults() {
    let v = VariantSpec::new("V");
    assert_eq!(
        spec_json(v.with_class(ErrorClass::Busy)),
        spec_expected("BUSY", "Technical", "nothing", false, true)
    );
    assert_eq!(
        spec_json(v.with_class(ErrorClass::Timeout)),
        spec_expected("TIMEOUT", "Technical", "unknown", false, false)
    );
    assert_eq!(
        spec_json(v.with_class(ErrorClass::ObjectNotFound)),
        spec_expected("OBJECT_NOT_FOUND", "NotFound", "nothing", false, false)
    );
}

/// `with_effect`: retryable only when the class is and the effect allows
/// a repeat.
#[test]
fn spec_with_effect_applies_the_retry_rule() {
    let v = VariantSpec::new("V");
    // A class that is not retryable stays so, even when nothing changed.
    assert_eq!(
        spec_json(
            v.with_class(ErrorClass::Internal)
                .with_effect(Effect::Nothing)
        ),
        spec_expected("INTERNAL", "Technical", "nothing", false, false)
    );
    // A retryable class whose call may have acted is not.
    assert_eq!(
        spec_json(v.with_class(ErrorClass::Busy).with_effect(Effect::Partial)),
        spec_expected("BUSY", "Technical", "partial", false, false)
    );
    // A retryable class whose call changed nothing is.
    assert_eq!(
        spec_json(
            v.with_class(ErrorClass::Timeout)
                .with_effect(Effect::Nothing)
        ),
        spec_expected("TIMEOUT", "Technical", "nothing", false, true)
    );
    // Without a class there is nothing to judge.
    assert_eq!(
        spec_json(v.with_effect(Effect::Partial))["retryable"],
        json!(null)
    );
}

/// `idempotent`: a repeat is safe whatever the effect, so retryable is the
/// class's.
#[test]
fn spec_idempotent_applies_the_retry_rule() {
    let v = VariantSpec::new("V");
    assert_eq!(
        spec_json(v.with_class(ErrorClass::Timeout).idempotent()),
        spec_expected("TIMEOUT", "Technical", "unknown", true, true)
    );
    assert_eq!(
        spec_json(v.with_class(ErrorClass::Internal).idempotent()),
        spec_expected("INTERNAL", "Technical", "unknown", true, false)
    );
    let no_class = spec_json(v.idempotent());
    assert_eq!(no_class["idempotent"], json!(true));
    assert_eq!(no_class["retryable"], json!(null));
}

/// `with_retryable`: the author's judgement, still under the retry rule.
#[test]
fn spec_with_retryable_applies_the_retry_rule() {
    let v = VariantSpec::new("V");
    // Said not to succeed later: not retryable, though nothing changed.
    assert_eq!(
        spec_json(
            v.with_class(ErrorClass::ObjectNotFound)
                .with_retryable(false)
        ),
        spec_expected("OBJECT_NOT_FOUND", "NotFound", "nothing", false, false)
    );
    // Said to succeed later, but the call may have acted: not retryable.
    assert_eq!(
        spec_json(v.with_class(ErrorClass::Internal).with_retryable(true)),
        spec_expected("INTERNAL", "Technical", "unknown", false, false)
    );
    // ... unless the operation is idempotent.
    assert_eq!(
        spec_json(
            v.with_class(ErrorClass::Internal)
                .idempotent()
                .with_retryable(true)
        ),
        spec_expected("INTERNAL", "Technical", "unknown", true, true)
    );
    // Said to succeed later, nothing changed: retryable.
    assert_eq!(
        spec_json(v.with_class(ErrorClass::Conflict).with_retryable(true)),
        spec_expected("CONFLICT", "WorkflowDependency", "nothing", false, true)
    );
}
