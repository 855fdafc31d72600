//! The benchmark compares equal work: for every variant of the benchmark's
//! error enum, the derived conversions produce exactly the envelope of the
//! hand-written `match`, and every JSON path writes the same bytes.

#[path = "../bench/benches/common/mod.rs"]
mod common;

use common::{DbError, object_not_found, samples};
use envelope::{Envelope, ErrorClass, ErrorEnvelope, ToolResult, UserErrorCategory};

#[test]
fn derived_envelopes_equal_hand_written_for_every_variant() {
    for error in samples() {
        let hand = error.hand_to_envelope();
        assert_eq!(error.to_envelope(), hand, "to_envelope of {error:?}");
        assert_eq!(error.clone().hand_into_envelope(), hand, "{error:?}");
        assert_eq!(
            error.clone().into_envelope(),
            hand,
            "into_envelope of {error:?}"
        );
        assert_eq!(error.error_class(), error.hand_error_class(), "{error:?}");
        assert_eq!(common::class_of(&error), hand.error_class);
        assert_eq!(error.code(), error.hand_code(), "{error:?}");
        assert_eq!(error.user_category(), hand.user_category(), "{error:?}");
    }
}

/// The check step the retry rule puts first for a class whose call may
/// have taken effect.
const CHECK: &str = "the call may have taken effect: check its result before repeating it";

/// The expected JSON text and tool-result category of every sample, in
/// order, written out: not computed by the serializer under test.
fn expected_json() -> [(String, UserErrorCategory); 12] {
    use UserErrorCategory as U;
    [
        (
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"object EMPLOYES does not exist","suggested_tool":"schema_inspect","fuzzy_matches":["EMPLOYEES","EMPLOYEE"],"next_steps":["check the spelling of EMPLOYES"],"code":"OBJECT_NOT_FOUND","category":"NotFound"}"#.to_owned(),
            U::NotFound,
        ),
        (
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"column SALARY_EUR does not exist in table EMPLOYEES","suggested_tool":"describe_table","fuzzy_matches":["SALARY","SALARY_USD","SALARY_GBP"],"code":"COLUMN_NOT_FOUND","category":"NotFound"}"#.to_owned(),
            U::NotFound,
        ),
        (
            r#"{"isError":true,"error_class":"SYNTAX_ERROR","message":"syntax error at line 3, column 17: unexpected token `FORM`","next_steps":["fix the statement and call again"],"code":"SYNTAX","category":"Validation"}"#.to_owned(),
            U::Validation,
        ),
        (
            r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"argument `limit` is invalid: must be between 1 and 1000","next_steps":["read the tool's input schema","call again with a corrected `limit`"],"code":"INVALID_ARGUMENT","category":"Validation"}"#.to_owned(),
            U::Validation,
        ),
        (
            r#"{"isError":true,"error_class":"ALREADY_EXISTS","message":"table AUDIT_LOG already exists","code":"ALREADY_EXISTS","category":"Duplicate"}"#.to_owned(),
            U::Duplicate,
        ),
        (
            r#"{"isError":true,"error_class":"PRECONDITION_FAILED","message":"this call needs a write lease","next_steps":["call acquire_lease first"],"code":"LEASE_REQUIRED","category":"WorkflowDependency"}"#.to_owned(),
            U::WorkflowDependency,
        ),
        (
            r#"{"isError":true,"error_class":"UNAUTHENTICATED","message":"login failed for ada","suggested_tool":"login","code":"LOGIN","category":"WorkflowDependency"}"#.to_owned(),
            U::WorkflowDependency,
        ),
        (
            r#"{"isError":true,"error_class":"INSUFFICIENT_PRIVILEGE","message":"privilege CREATE TABLE is required","ora_code":1031,"code":"PRIVILEGE","category":"WorkflowDependency"}"#.to_owned(),
            U::WorkflowDependency,
        ),
        (
            r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","next_steps":["wait, then retry the same call"],"retry_after_ms":250,"code":"BUSY","category":"Technical","retryable":true}"#.to_owned(),
            U::Technical,
        ),
        (
            format!(
                r#"{{"isError":true,"error_class":"TIMEOUT","message":"the query timed out after 30000 ms","next_steps":["{CHECK}","narrow the query"],"retry_after_ms":1000,"code":"TIMEOUT","category":"Technical","effect":"unknown"}}"#
            ),
            U::Technical,
        ),
        (
            format!(
                r#"{{"isError":true,"error_class":"CONNECTION_FAILED","message":"the server could not reach a service it depends on","next_steps":["{CHECK}"],"retry_after_ms":1500,"code":"CONNECTION","category":"Technical","effect":"unknown"}}"#
            ),
            U::Technical,
        ),
        (
            format!(
                r#"{{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["{CHECK}"],"code":"INTERNAL","category":"Technical","effect":"unknown","help_url":"https://example.test/errors/internal"}}"#
            ),
            U::Technical,
        ),
    ]
}

#[test]
fn every_json_path_writes_the_seed_bytes() {
    for (error, (expected, category)) in samples().into_iter().zip(expected_json()) {
        assert_eq!(Envelope::to_json_string(&error), expected, "{error:?}");
        assert_eq!(error.to_envelope().to_json_string(), expected, "{error:?}");
        assert_eq!(
            error.hand_to_envelope().to_json_string(),
            expected,
            "{error:?}"
        );
        assert_eq!(common::serde_json_string(&error), expected, "{error:?}");
        // The seed's `Value` path sorts keys, so compare it as JSON.
        let seed: serde_json::Value =
            serde_json::from_str(&common::seed_json_string(error.clone())).unwrap();
        assert_eq!(
            seed,
            serde_json::from_str::<serde_json::Value>(&expected).unwrap(),
            "{error:?}"
        );
        let derived = error.to_tool_result_json("call_42");
        assert_eq!(
            derived,
            ToolResult {
                tool_call_id: "call_42".to_owned(),
                content: expected.clone(),
                is_error: true,
                error_category: Some(category),
            },
            "{error:?}"
        );
        assert_eq!(
            common::seed_tool_result(error.clone(), "call_42"),
            ToolResult {
                tool_call_id: "call_42".to_owned(),
                // The seed writes its content from a `Value`.
                content: common::seed_json_string(error.clone()),
                is_error: true,
                error_category: Some(category),
            },
            "{error:?}"
        );
        assert_eq!(derived, error.to_envelope().to_tool_result_json("call_42"));
    }
}

#[test]
fn object_not_found_renders_exactly() {
    let error = object_not_found();
    let result = error.to_tool_result("call_42");
    assert_eq!(result.tool_call_id, "call_42");
    assert!(result.is_error);
    assert_eq!(result.error_category, Some(UserErrorCategory::NotFound));
    // The JSON, then the text.
    let (json, text) = result.content.split_once('\n').unwrap();
    assert_eq!(json, error.to_json_string());
    assert_eq!(
        text,
        "Call again with the one meant of \"EMPLOYEES\" or \"EMPLOYEE\" in place of the name you sent; if none of these is meant, call schema_inspect."
    );
}

#[test]
fn the_variants_cover_the_roles_the_benchmark_claims() {
    let envelopes: Vec<ErrorEnvelope> =
        samples().into_iter().map(Envelope::into_envelope).collect();
    assert_eq!(envelopes.len(), 12);
    assert_eq!(
        envelopes
            .iter()
            .filter(|e| !e.fuzzy_matches.is_empty())
            .count(),
        2
    );
    assert_eq!(
        envelopes
            .iter()
            .filter(|e| !e.next_steps.is_empty())
            .count(),
        // Six with `next_step`s, plus the connection failure and the
        // internal error, whose check step the retry rule adds.
        8
    );
    assert_eq!(
        envelopes
            .iter()
            .filter(|e| e.retry_after_ms.is_some())
            .count(),
        3
    );
    let classes: Vec<ErrorClass> = envelopes.iter().map(|e| e.error_class).collect();
    assert_eq!(classes[0], ErrorClass::ObjectNotFound);
    assert_eq!(classes[11], ErrorClass::Internal);
    let login = &envelopes[6];
    assert_eq!(login.message, "login failed for ada");
    assert!(!serde_json::to_string(login).unwrap().contains("hunter2"));
    match &samples()[4] {
        DbError::AlreadyExists { .. } => {
            assert_eq!(envelopes[4].message, "table AUDIT_LOG already exists")
        }
        other => panic!("unexpected sample {other:?}"),
    }
}
