//! The benchmark compares equal work: for every variant of the benchmark's
//! error enum, the derived conversions produce exactly the envelope of the
//! hand-written `match`, and every JSON path writes the same bytes.

#[path = "../benches/common/mod.rs"]
mod common;

use common::{DbError, object_not_found, samples};
use envelope::{Envelope, ErrorClass, ErrorEnvelope, UserErrorCategory};

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
        assert_eq!(
            error.user_category(),
            hand.effective_category(),
            "{error:?}"
        );
    }
}

#[test]
fn every_json_path_writes_the_seed_bytes() {
    for error in samples() {
        let serde = serde_json::to_string(&error.hand_to_envelope()).unwrap();
        assert_eq!(Envelope::to_json_string(&error), serde, "{error:?}");
        assert_eq!(error.to_envelope().to_json_string(), serde, "{error:?}");
        assert_eq!(common::serde_json_string(&error), serde);
        // The seed's `Value` path sorts keys, so compare it as JSON.
        let seed: serde_json::Value =
            serde_json::from_str(&common::seed_json_string(error.clone())).unwrap();
        assert_eq!(
            seed,
            serde_json::from_str::<serde_json::Value>(&serde).unwrap()
        );
        let derived = error.to_tool_result("call_42");
        let seed = common::seed_tool_result(error.clone(), "call_42");
        assert_eq!(derived.content, serde);
        assert_eq!(
            (
                &derived.tool_call_id,
                derived.is_error,
                derived.error_category
            ),
            (&seed.tool_call_id, seed.is_error, seed.error_category)
        );
        assert_eq!(derived, error.to_envelope().to_tool_result("call_42"));
    }
}

#[test]
fn object_not_found_renders_exactly() {
    let error = object_not_found();
    let result = error.to_tool_result("call_42");
    assert_eq!(result.tool_call_id, "call_42");
    assert!(result.is_error);
    assert_eq!(result.error_category, Some(UserErrorCategory::NotFound));
    assert_eq!(
        result.content,
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"object EMPLOYES does not exist","suggested_tool":"schema_inspect","fuzzy_matches":["EMPLOYEES","EMPLOYEE"],"next_steps":["check the spelling of EMPLOYES"],"code":"OBJECT_NOT_FOUND","category":"NotFound"}"#
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
