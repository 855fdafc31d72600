//! The real-world ports in `examples/`, pinned: the exact envelope JSON of
//! every variant of the three ported enums, the Oracle port compared field
//! by field with `oraclemcp-error`'s own hand-written conversion, and the
//! `multi-llm` `ToolResult` wire form.
//!
//! The examples are compiled in as modules, so the enums tested here are
//! the ones the examples run; their `main` functions are unused here.

#[allow(dead_code)]
#[path = "../examples/oracle_mcp.rs"]
mod oracle_mcp;

#[allow(dead_code)]
#[path = "../examples/code_mode.rs"]
mod code_mode;

#[allow(dead_code)]
#[path = "../examples/chat_tools.rs"]
mod chat_tools;

#[allow(dead_code)]
#[path = "../../examples/quickstart.rs"]
mod quickstart;

use std::collections::BTreeSet;

use envelope::{Envelope, ErrorClass, ErrorEnvelope, Owner, ToolResult, UserErrorCategory};

/// Asserts the envelope JSON of `make()`, built both by borrowing
/// (`to_envelope`) and by moving (`into_envelope`), and checks that the
/// allocation-free accessors agree with the envelope.
fn assert_json<E: Envelope>(make: impl Fn() -> E, expected: &str) {
    let error = make();
    let borrowed = error.to_envelope();
    assert_eq!(borrowed.to_json_string(), expected);
    assert_eq!(error.error_class(), borrowed.error_class);
    assert_eq!(Some(error.user_category()), borrowed.category);
    assert_eq!(error.code(), borrowed.code.as_deref());
    assert_eq!(make().into_envelope().to_json_string(), expected);
}

/// The variant names of a type's catalog, in declaration order.
fn catalog_names<E: Envelope>() -> Vec<&'static str> {
    E::catalog().iter().map(|spec| spec.name).collect()
}

// ---------------------------------------------------------------------------
// oracle_mcp: every variant, exact JSON
// ---------------------------------------------------------------------------

mod oracle {
    use super::oracle_mcp::OracleMcpError as E;
    use super::oracle_mcp::ora;
    use super::*;

    /// The Oracle texts of the tests: good codes of every mapped family,
    /// and the bad input the port must survive.
    pub(crate) const ORACLE_TEXTS: &[&str] = &[
        "ORA-00942: table or view does not exist",
        "ora-00942: table or view does not exist",
        "ORA-04043: object HR.EMP does not exist",
        "ORA-01031: insufficient privileges",
        "ORA-28000: the account is locked",
        "ORA-01456: may not perform insert/delete/update operation inside a READ ONLY transaction",
        "ORA-01008: not all variables bound",
        "ORA-03113: end-of-file on communication channel",
        "ORA-04068: existing state of packages has been discarded",
        "ORA-12514: TNS:listener does not currently know of service requested in connect descriptor",
        "ORA-12519: TNS:no appropriate service handler found",
        "ORA-00923: FROM keyword not found where expected",
        "ORA-00001: unique constraint (HR.EMP_PK) violated",
        "Error: ORA-01031: insufficient privileges",
        "ORA-00942: table or view does not exist\nORA-06512: at line 1",
        "ORA-06550: line 1, column 7:\nORA-00942: table or view does not exist",
        "ORA-: x",
        "ORA-99999999999: out of range",
        "ORA-",
        "connection reset by peer",
        "",
    ];

    /// The variant name of an error; exhaustive, so a new variant fails to
    /// compile here until it has a test.
    fn name(error: &E) -> &'static str {
        match error {
            E::Oracle(_) => "Oracle",
            E::ObjectNotFound { .. } => "ObjectNotFound",
            E::InsufficientPrivilege(_) => "InsufficientPrivilege",
            E::ForbiddenStatement(_) => "ForbiddenStatement",
            E::OperatingLevelTooLow(_) => "OperatingLevelTooLow",
            E::ChallengeRequired(_) => "ChallengeRequired",
            E::RuntimeStateRequired(_) => "RuntimeStateRequired",
            E::Busy { .. } => "Busy",
            E::InvalidArguments(_) => "InvalidArguments",
            E::PolicyDenied(_) => "PolicyDenied",
            E::Internal(_) => "Internal",
        }
    }

    #[test]
    fn every_variant_is_sampled() {
        let sampled: BTreeSet<&str> = oracle_mcp::samples().iter().map(name).collect();
        let declared: BTreeSet<&str> = catalog_names::<E>().into_iter().collect();
        assert_eq!(sampled, declared);
        assert_eq!(declared.len(), 11);
    }

    #[test]
    fn object_not_found() {
        assert_json(
            || E::ObjectNotFound {
                name: "EMPLOYES".into(),
                fuzzy_matches: vec!["EMPLOYEES".into(), "EMPLOYEE".into()],
            },
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"object not found: EMPLOYES","suggested_tool":"oracle_schema_inspect","fuzzy_matches":["EMPLOYEES","EMPLOYEE"],"code":"OBJECT_NOT_FOUND","category":"NotFound"}"#,
        );
    }

    #[test]
    fn insufficient_privilege() {
        assert_json(
            || E::InsufficientPrivilege("ORA-01031: insufficient privileges".into()),
            r#"{"isError":true,"error_class":"INSUFFICIENT_PRIVILEGE","message":"ORA-01031: insufficient privileges","code":"INSUFFICIENT_PRIVILEGE","category":"WorkflowDependency"}"#,
        );
    }

    #[test]
    fn forbidden_statement() {
        assert_json(
            || E::ForbiddenStatement("dynamic SQL through EXECUTE IMMEDIATE".into()),
            r#"{"isError":true,"error_class":"POLICY_DENIED","message":"dynamic SQL through EXECUTE IMMEDIATE","code":"FORBIDDEN_STATEMENT","category":"Validation"}"#,
        );
    }

    #[test]
    fn operating_level_too_low() {
        assert_json(
            || E::OperatingLevelTooLow("this statement needs READ_WRITE".into()),
            r#"{"isError":true,"error_class":"PRECONDITION_FAILED","message":"this statement needs READ_WRITE","suggested_tool":"oracle_set_session_level","next_steps":["call oracle_set_session_level with the requested target level"],"code":"OPERATING_LEVEL_TOO_LOW","category":"WorkflowDependency"}"#,
        );
    }

    #[test]
    fn challenge_required() {
        assert_json(
            || E::ChallengeRequired("confirm the DROP TABLE in the console".into()),
            r#"{"isError":true,"error_class":"PRECONDITION_FAILED","message":"confirm the DROP TABLE in the console","suggested_tool":"oracle_set_session_level","code":"CHALLENGE_REQUIRED","category":"WorkflowDependency"}"#,
        );
    }

    #[test]
    fn runtime_state_required() {
        assert_json(
            || E::RuntimeStateRequired("no live Oracle connection".into()),
            r#"{"isError":true,"error_class":"PRECONDITION_FAILED","message":"no live Oracle connection","suggested_tool":"oracle_connect","code":"RUNTIME_STATE_REQUIRED","category":"WorkflowDependency"}"#,
        );
    }

    #[test]
    fn busy() {
        assert_json(
            || E::Busy {
                retry_after_ms: 250,
            },
            r#"{"isError":true,"error_class":"BUSY","message":"server busy","retry_after_ms":250,"code":"BUSY","category":"Technical","retryable":true}"#,
        );
    }

    #[test]
    fn invalid_arguments() {
        assert_json(
            || E::InvalidArguments("limit must be between 1 and 1000".into()),
            r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"limit must be between 1 and 1000","code":"INVALID_ARGUMENTS","category":"Validation"}"#,
        );
    }

    #[test]
    fn policy_denied() {
        assert_json(
            || E::PolicyDenied("schema HR is read-only for this profile".into()),
            r#"{"isError":true,"error_class":"POLICY_DENIED","message":"schema HR is read-only for this profile","code":"POLICY_DENIED","category":"Validation"}"#,
        );
    }

    #[test]
    fn internal() {
        assert_json(
            || E::Internal("worker task panicked".into()),
            r#"{"isError":true,"error_class":"INTERNAL","message":"worker task panicked","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"INTERNAL","category":"Technical","effect":"unknown"}"#,
        );
    }

    /// `Oracle(String)` for every text of [`ORACLE_TEXTS`], in that order.
    #[test]
    fn oracle_texts() {
        let expected = [
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"ORA-00942: table or view does not exist","ora_code":942,"suggested_tool":"oracle_schema_inspect","code":"OBJECT_NOT_FOUND","category":"NotFound"}"#,
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"ora-00942: table or view does not exist","ora_code":942,"suggested_tool":"oracle_schema_inspect","code":"OBJECT_NOT_FOUND","category":"NotFound"}"#,
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"ORA-04043: object HR.EMP does not exist","ora_code":4043,"suggested_tool":"oracle_schema_inspect","code":"OBJECT_NOT_FOUND","category":"NotFound"}"#,
            r#"{"isError":true,"error_class":"INSUFFICIENT_PRIVILEGE","message":"ORA-01031: insufficient privileges","ora_code":1031,"code":"INSUFFICIENT_PRIVILEGE","category":"WorkflowDependency"}"#,
            r#"{"isError":true,"error_class":"INSUFFICIENT_PRIVILEGE","message":"ORA-28000: the account is locked","ora_code":28000,"code":"INSUFFICIENT_PRIVILEGE","category":"WorkflowDependency"}"#,
            r#"{"isError":true,"error_class":"POLICY_DENIED","message":"ORA-01456: may not perform insert/delete/update operation inside a READ ONLY transaction","ora_code":1456,"code":"FORBIDDEN_STATEMENT","category":"Validation"}"#,
            r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"ORA-01008: not all variables bound","ora_code":1008,"code":"INVALID_ARGUMENTS","category":"Validation"}"#,
            r#"{"isError":true,"error_class":"TRANSIENT","message":"ORA-03113: end-of-file on communication channel","ora_code":3113,"next_steps":["the call may have taken effect: check its result before repeating it"],"code":"TRANSIENT","category":"Technical","effect":"unknown"}"#,
            r#"{"isError":true,"error_class":"TRANSIENT","message":"ORA-04068: existing state of packages has been discarded","ora_code":4068,"next_steps":["the call may have taken effect: check its result before repeating it"],"code":"TRANSIENT","category":"Technical","effect":"unknown"}"#,
            r#"{"isError":true,"error_class":"CONNECTION_FAILED","message":"ORA-12514: TNS:listener does not currently know of service requested in connect descriptor","ora_code":12514,"suggested_tool":"oracle_connect","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"CONNECTION_FAILED","category":"Technical","effect":"unknown"}"#,
            r#"{"isError":true,"error_class":"BUSY","message":"ORA-12519: TNS:no appropriate service handler found","ora_code":12519,"code":"BUSY","category":"Technical","retryable":true}"#,
            r#"{"isError":true,"error_class":"SYNTAX_ERROR","message":"ORA-00923: FROM keyword not found where expected","ora_code":923,"code":"SYNTAX_ERROR","category":"Validation"}"#,
            r#"{"isError":true,"error_class":"INTERNAL","message":"ORA-00001: unique constraint (HR.EMP_PK) violated","ora_code":1,"next_steps":["the call may have taken effect: check its result before repeating it"],"code":"INTERNAL","category":"Technical","effect":"unknown"}"#,
            r#"{"isError":true,"error_class":"INSUFFICIENT_PRIVILEGE","message":"Error: ORA-01031: insufficient privileges","ora_code":1031,"code":"INSUFFICIENT_PRIVILEGE","category":"WorkflowDependency"}"#,
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"ORA-00942: table or view does not exist\nORA-06512: at line 1","ora_code":942,"suggested_tool":"oracle_schema_inspect","code":"OBJECT_NOT_FOUND","category":"NotFound"}"#,
            r#"{"isError":true,"error_class":"INTERNAL","message":"ORA-06550: line 1, column 7:\nORA-00942: table or view does not exist","ora_code":6550,"next_steps":["the call may have taken effect: check its result before repeating it"],"code":"INTERNAL","category":"Technical","effect":"unknown"}"#,
            r#"{"isError":true,"error_class":"INTERNAL","message":"ORA-: x","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"INTERNAL","category":"Technical","effect":"unknown"}"#,
            r#"{"isError":true,"error_class":"INTERNAL","message":"ORA-99999999999: out of range","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"INTERNAL","category":"Technical","effect":"unknown"}"#,
            r#"{"isError":true,"error_class":"INTERNAL","message":"ORA-","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"INTERNAL","category":"Technical","effect":"unknown"}"#,
            r#"{"isError":true,"error_class":"INTERNAL","message":"connection reset by peer","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"INTERNAL","category":"Technical","effect":"unknown"}"#,
            r#"{"isError":true,"error_class":"INTERNAL","message":"","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"INTERNAL","category":"Technical","effect":"unknown"}"#,
        ];
        assert_eq!(expected.len(), ORACLE_TEXTS.len());
        for (text, json) in ORACLE_TEXTS.iter().zip(expected) {
            assert_json(|| E::Oracle((*text).to_owned()), json);
        }
    }

    #[test]
    fn parse_code_on_bad_input() {
        assert_eq!(ora::parse_code("ORA-00942: x"), Some(942));
        assert_eq!(ora::parse_code("ora-00942: x"), Some(942));
        assert_eq!(ora::parse_code("Ora-1031"), Some(1031));
        assert_eq!(ora::parse_code("ORA-: x"), None);
        assert_eq!(ora::parse_code("ORA-99999999999"), None);
        assert_eq!(ora::parse_code("ORA-2147483647"), Some(i32::MAX));
        assert_eq!(ora::parse_code("ORA-2147483648"), None);
        assert_eq!(ora::parse_code("ORA-00000000000000000942"), Some(942));
        assert_eq!(ora::parse_code("ORA-"), None);
        assert_eq!(ora::parse_code("ORA"), None);
        assert_eq!(ora::parse_code(""), None);
        assert_eq!(ora::parse_code("no code here"), None);
        // Several codes: the first, even when a later one is better known.
        assert_eq!(ora::parse_code("ORA-06550: x\nORA-00942: y"), Some(6550));
        // A malformed first marker is not skipped for a later one.
        assert_eq!(ora::parse_code("ORA-: x ORA-00942: y"), None);
        // Digits outside ASCII are not a code.
        assert_eq!(ora::parse_code("ORA-\u{0664}\u{0662}"), None);
        // Multi-byte text around the marker.
        assert_eq!(ora::parse_code("échec ORA-00942 ü"), Some(942));
        assert_eq!(ora::parse_code("éORA-00942"), Some(942));
        // A marker glued to a word is not a marker.
        assert_eq!(ora::parse_code("DIASPORA-1"), None);
        assert_eq!(ora::parse_code("DIASPORA-1 ORA-00942: x"), Some(942));
    }

    /// No input panics, over a few thousand strings built from the pieces
    /// that trip parsers (markers, digits, separators, multi-byte text).
    #[test]
    fn parse_code_never_panics() {
        const PIECES: &[&str] = &[
            "ORA-",
            "ora-",
            "ORA",
            "-",
            "0",
            "942",
            "99999999999",
            ":",
            " ",
            "é",
            "X",
            "\n",
        ];
        let mut count = 0;
        for a in PIECES {
            for b in PIECES {
                for c in PIECES {
                    for d in PIECES {
                        let text = format!("{a}{b}{c}{d}");
                        let envelope = ora::envelope(&text);
                        assert_eq!(envelope.message, text);
                        assert_eq!(envelope.ora_code, ora::parse_code(&text));
                        count += 1;
                    }
                }
            }
        }
        assert_eq!(count, PIECES.len().pow(4));
    }

    /// The tools the `with` helper sets agree with the container's
    /// `suggested_tools` and the variant override, as the catalog shows them.
    #[test]
    fn helper_tools_agree_with_the_attributes() {
        let tool_of = |name: &str| {
            E::catalog()
                .iter()
                .find(|spec| spec.name == name)
                .and_then(|spec| spec.suggested_tool)
        };
        assert_eq!(tool_of("ObjectNotFound"), Some(ora::SCHEMA_INSPECT));
        assert_eq!(tool_of("RuntimeStateRequired"), Some(ora::CONNECT));
        assert_eq!(
            ora::tool_for(ErrorClass::ObjectNotFound),
            Some(ora::SCHEMA_INSPECT)
        );
        assert_eq!(
            ora::tool_for(ErrorClass::ConnectionFailed),
            Some(ora::CONNECT)
        );
    }
}

// ---------------------------------------------------------------------------
// oracle_mcp against oraclemcp-error 0.11, field by field
// ---------------------------------------------------------------------------

mod against_oraclemcp_error {
    use oraclemcp_error as theirs;

    use super::oracle::ORACLE_TEXTS;
    use super::oracle_mcp::OracleMcpError as Ours;
    use super::oracle_mcp::ora;
    use super::*;

    /// Their class -> ours. The same table is in the guide (`src/guide/ports.md`).
    fn class(theirs: theirs::ErrorClass) -> ErrorClass {
        use theirs::ErrorClass as T;
        match theirs {
            T::ObjectNotFound => ErrorClass::ObjectNotFound,
            T::InsufficientPrivilege => ErrorClass::InsufficientPrivilege,
            T::SyntaxError => ErrorClass::SyntaxError,
            T::ConnectionFailed => ErrorClass::ConnectionFailed,
            T::RuntimeStateRequired
            | T::ChallengeRequired
            | T::LeaseRequired
            | T::OperatingLevelTooLow => ErrorClass::PreconditionFailed,
            T::ForbiddenStatement | T::PolicyDenied => ErrorClass::PolicyDenied,
            T::Busy | T::AtCapacity => ErrorClass::Busy,
            T::InvalidArguments | T::FlashbackRetentionExceeded => ErrorClass::InvalidArguments,
            T::Timeout => ErrorClass::Timeout,
            T::Transient => ErrorClass::Transient,
            T::FlashbackDefinitionChanged => ErrorClass::Conflict,
            T::FlashbackNotFlashbackable | T::FlashbackCapabilityUnavailable => {
                ErrorClass::Unsupported
            }
            T::Internal => ErrorClass::Internal,
            other => panic!("{other:?} is newer than this table: add it here and in the guide"),
        }
    }

    /// Their class's wire name, which the port keeps as its `code`.
    fn wire_name(class: theirs::ErrorClass) -> String {
        match serde_json::to_value(class) {
            Ok(serde_json::Value::String(name)) => name,
            other => panic!("class did not serialize to a string: {other:?}"),
        }
    }

    /// Asserts the two envelopes say the same thing: the seed fields are
    /// equal, the class is equal under [`class`], our `code` is their class
    /// name, and retryability agrees. One difference is deliberate: where
    /// the call may have taken effect (`effect` is not `nothing`), ours
    /// puts the check step first and is retryable only under the retry
    /// rule, where the seed would have the model repeat a timed-out write.
    fn assert_same(ours: &ErrorEnvelope, theirs: &theirs::ErrorEnvelope, input: &str) {
        assert!(ours.is_error && theirs.is_error, "{input}");
        assert_eq!(ours.message, theirs.message, "message of {input}");
        assert_eq!(ours.ora_code, theirs.ora_code, "ora_code of {input}");
        assert_eq!(
            ours.suggested_tool, theirs.suggested_tool,
            "suggested_tool of {input}"
        );
        assert_eq!(
            ours.fuzzy_matches, theirs.fuzzy_matches,
            "fuzzy_matches of {input}"
        );
        let check = ours.effect.check_step();
        let steps: Vec<&String> = ours
            .next_steps
            .iter()
            .filter(|step| Some(step.as_str()) != check)
            .collect();
        let their_steps: Vec<&String> = theirs.next_steps.iter().collect();
        assert_eq!(steps, their_steps, "next_steps of {input}");
        if let Some(check) = check {
            assert_eq!(
                ours.next_steps.first().map(String::as_str),
                Some(check),
                "{input}"
            );
        }
        assert_eq!(
            ours.retry_after_ms, theirs.retry_after_ms,
            "retry_after_ms of {input}"
        );
        assert_eq!(
            ours.error_class,
            class(theirs.error_class),
            "class of {input}"
        );
        assert_eq!(
            ours.code.as_deref(),
            Some(wire_name(theirs.error_class).as_str()),
            "code of {input}"
        );
        assert_eq!(
            ours.effect,
            ours.error_class.default_effect(),
            "effect of {input}"
        );
        assert_eq!(
            ours.retryable,
            theirs.error_class.is_retryable() && ours.effect.allows_repeat(false),
            "retryable of {input}"
        );
    }

    /// Pairs of the same error in both enums, one per variant but `Oracle`.
    fn pairs() -> Vec<(Ours, theirs::OracleMcpError)> {
        use theirs::OracleMcpError as T;
        let text = |s: &str| s.to_owned();
        vec![
            (
                Ours::ObjectNotFound {
                    name: text("EMPLOYES"),
                    fuzzy_matches: vec![text("EMPLOYEES"), text("EMPLOYEE")],
                },
                T::ObjectNotFound {
                    name: text("EMPLOYES"),
                    fuzzy_matches: vec![text("EMPLOYEES"), text("EMPLOYEE")],
                },
            ),
            (
                Ours::ObjectNotFound {
                    name: text("X"),
                    fuzzy_matches: vec![],
                },
                T::ObjectNotFound {
                    name: text("X"),
                    fuzzy_matches: vec![],
                },
            ),
            (
                Ours::InsufficientPrivilege(text("ORA-01031: insufficient privileges")),
                T::InsufficientPrivilege(text("ORA-01031: insufficient privileges")),
            ),
            (
                Ours::ForbiddenStatement(text("multi-statement batch")),
                T::ForbiddenStatement(text("multi-statement batch")),
            ),
            (
                Ours::OperatingLevelTooLow(text("needs READ_WRITE")),
                T::OperatingLevelTooLow(text("needs READ_WRITE")),
            ),
            (
                Ours::ChallengeRequired(text("confirm the DDL")),
                T::ChallengeRequired(text("confirm the DDL")),
            ),
            (
                Ours::RuntimeStateRequired(text("no live connection")),
                T::RuntimeStateRequired(text("no live connection")),
            ),
            (
                Ours::Busy {
                    retry_after_ms: 250,
                },
                T::Busy {
                    retry_after_ms: 250,
                },
            ),
            (
                Ours::Busy { retry_after_ms: 0 },
                T::Busy { retry_after_ms: 0 },
            ),
            (
                Ours::InvalidArguments(text("k must be in 1..=100")),
                T::InvalidArguments(text("k must be in 1..=100")),
            ),
            (
                Ours::PolicyDenied(text("profile policy denied it")),
                T::PolicyDenied(text("profile policy denied it")),
            ),
            (
                Ours::Internal(text("unexpected join failure")),
                T::Internal(text("unexpected join failure")),
            ),
            (Ours::Internal(String::new()), T::Internal(String::new())),
        ]
    }

    #[test]
    fn every_variant_but_oracle_matches() {
        for (ours, theirs) in pairs() {
            let input = format!("{ours:?}");
            let expected = theirs.into_envelope();
            assert_same(&ours.to_envelope(), &expected, &input);
            assert_same(&ours.into_envelope(), &expected, &input);
        }
    }

    #[test]
    fn every_oracle_text_matches() {
        for text in ORACLE_TEXTS {
            let ours = Ours::Oracle((*text).to_owned());
            let expected = theirs::OracleMcpError::Oracle((*text).to_owned()).into_envelope();
            assert_same(&ours.to_envelope(), &expected, text);
            assert_same(&ours.into_envelope(), &expected, text);
        }
    }

    /// Every code their classifier knows lands on the class the table
    /// says, with their code name and retryability.
    #[test]
    fn every_classified_code_matches() {
        let codes = [
            0,
            1,
            18,
            20,
            28,
            54,
            60,
            104,
            257,
            900,
            923,
            942,
            999,
            1000,
            1005,
            1006,
            1008,
            1012,
            1017,
            1031,
            1036,
            1041,
            1045,
            1089,
            1456,
            2396,
            3113,
            3114,
            3135,
            4043,
            4068,
            6550,
            7777,
            12170,
            12514,
            12516,
            12519,
            12520,
            12526,
            12528,
            12537,
            12541,
            12543,
            12547,
            12570,
            16000,
            28000,
            28001,
            28002,
            28009,
            28011,
            28511,
            30006,
            31603,
            51535,
            i32::MAX,
        ];
        for code in codes {
            let text = format!("ORA-{code:05}: message");
            let ours = ora::envelope(&text);
            let expected = theirs::envelope_from_oracle_message(&text);
            assert_same(&ours, &expected, &text);
        }
    }

    /// Whether some `ORA-` in `text` (any case) directly follows a letter
    /// or digit: the one case where the parsers differ.
    fn has_glued_marker(text: &str) -> bool {
        let upper = text.to_ascii_uppercase();
        upper
            .match_indices("ORA-")
            .any(|(at, _)| at > 0 && upper.as_bytes()[at - 1].is_ascii_alphanumeric())
    }

    /// The parsers agree on every string in which no `ORA-` is glued to
    /// the end of a word; there ours looks for a marker that starts one.
    #[test]
    fn parsers_agree_off_word_boundaries() {
        const PIECES: &[&str] = &[
            "ORA-",
            "ora-",
            "0",
            "942",
            "99999999999",
            ":",
            " ",
            "é",
            "\n",
        ];
        let mut compared = 0;
        for a in PIECES {
            for b in PIECES {
                for c in PIECES {
                    for d in PIECES {
                        let text = format!("{a}{b}{c}{d}");
                        if has_glued_marker(&text) {
                            continue;
                        }
                        assert_eq!(
                            ora::parse_code(&text),
                            theirs::parse_ora_code(&text),
                            "{text:?}"
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 4_000, "{compared}");
    }

    /// The one deliberate difference: `ORA-` inside a word.
    #[test]
    fn marker_inside_a_word_differs_on_purpose() {
        let text = "DIASPORA-1 ORA-00942: table or view does not exist";
        assert_eq!(theirs::parse_ora_code(text), Some(1));
        assert_eq!(ora::parse_code(text), Some(942));
    }

    /// Our reader parses their JSON: the seed keys carry over, their
    /// `structured_reason` is ignored, and a class we do not have
    /// (`OPERATING_LEVEL_TOO_LOW`) reads as `Unknown` instead of failing.
    #[test]
    fn our_reader_parses_their_json() {
        let mut classes = Vec::new();
        for (_, theirs) in pairs() {
            let expected = theirs.into_envelope();
            let json = expected.to_json().to_string();
            let read: ErrorEnvelope = serde_json::from_str(&json)
                .unwrap_or_else(|err| panic!("cannot read {json}: {err}"));
            assert_eq!(read.message, expected.message);
            assert_eq!(read.suggested_tool, expected.suggested_tool);
            assert_eq!(read.fuzzy_matches, expected.fuzzy_matches);
            assert_eq!(read.next_steps, expected.next_steps);
            assert_eq!(read.retry_after_ms, expected.retry_after_ms);
            classes.push((wire_name(expected.error_class), read.error_class));
        }
        // Their wire name and the class we read it as, written out (not
        // computed by our own `FromStr`).
        let classes: Vec<(&str, ErrorClass)> = classes
            .iter()
            .map(|(name, class)| (name.as_str(), *class))
            .collect();
        assert_eq!(
            classes,
            [
                ("OBJECT_NOT_FOUND", ErrorClass::ObjectNotFound),
                ("OBJECT_NOT_FOUND", ErrorClass::ObjectNotFound),
                ("INSUFFICIENT_PRIVILEGE", ErrorClass::InsufficientPrivilege),
                ("FORBIDDEN_STATEMENT", ErrorClass::Unknown),
                ("OPERATING_LEVEL_TOO_LOW", ErrorClass::Unknown),
                ("CHALLENGE_REQUIRED", ErrorClass::Unknown),
                ("RUNTIME_STATE_REQUIRED", ErrorClass::Unknown),
                ("BUSY", ErrorClass::Busy),
                ("BUSY", ErrorClass::Busy),
                ("INVALID_ARGUMENTS", ErrorClass::InvalidArguments),
                ("POLICY_DENIED", ErrorClass::PolicyDenied),
                ("INTERNAL", ErrorClass::Internal),
                ("INTERNAL", ErrorClass::Internal),
            ]
        );
    }

    /// Their reader parses ours only when our class is also one of theirs:
    /// their `ErrorClass` has no catch-all variant, so `PRECONDITION_FAILED`
    /// is an error for them. Pinned so a change on either side shows up.
    #[test]
    fn their_reader_parses_ours_only_for_shared_classes() {
        let mut readable = Vec::new();
        for (ours, _) in pairs() {
            let envelope = ours.to_envelope();
            let json = envelope.to_json_string();
            if serde_json::from_str::<theirs::ErrorEnvelope>(&json).is_ok() {
                readable.push(envelope.error_class);
            }
        }
        readable.dedup();
        assert_eq!(
            readable,
            [
                ErrorClass::ObjectNotFound,
                ErrorClass::InsufficientPrivilege,
                ErrorClass::PolicyDenied,
                ErrorClass::Busy,
                ErrorClass::InvalidArguments,
                ErrorClass::PolicyDenied,
                ErrorClass::Internal,
            ]
        );
    }
}

// ---------------------------------------------------------------------------
// code_mode: every variant, exact JSON, owners, no secrets
// ---------------------------------------------------------------------------

mod code_mode_port {
    use super::code_mode::ExecutionError as E;
    use super::*;

    const TOKEN: &str = "cm1.eyJzdWIiOiJ1LTQyIn0.Zm9v";
    const EXPECTED_HASH: &str = "sha256:9f86d081884c7d65";
    const ACTUAL_HASH: &str = "sha256:60303ae22b998861";

    fn name(error: &E) -> &'static str {
        match error {
            E::TokenExpired => "TokenExpired",
            E::TokenInvalid(_) => "TokenInvalid",
            E::CodeMismatch { .. } => "CodeMismatch",
            E::ContextChanged => "ContextChanged",
            E::UserMismatch => "UserMismatch",
            E::BackendError(_) => "BackendError",
            E::Timeout(_) => "Timeout",
            E::ValidationRequired => "ValidationRequired",
            E::RuntimeError { .. } => "RuntimeError",
            E::RequestRefused { .. } => "RequestRefused",
            E::InvalidScript { .. } => "InvalidScript",
        }
    }

    #[test]
    fn every_variant_is_sampled() {
        let sampled: Vec<&str> = code_mode::samples().iter().map(name).collect();
        assert_eq!(sampled, catalog_names::<E>());
        assert_eq!(sampled.len(), 11);
    }

    #[test]
    fn token_expired() {
        assert_json(
            || E::TokenExpired,
            r#"{"isError":true,"error_class":"UNAUTHENTICATED","message":"the approval token has expired","suggested_tool":"validate_code","next_steps":["call validate_code with the same code to get a fresh token, then call execute_code with it"],"code":"TOKEN_EXPIRED","category":"WorkflowDependency"}"#,
        );
    }

    #[test]
    fn token_invalid() {
        assert_json(
            || E::TokenInvalid(format!("signature mismatch for token {TOKEN}")),
            r#"{"isError":true,"error_class":"UNAUTHENTICATED","message":"the approval token is not valid","suggested_tool":"validate_code","next_steps":["pass the token exactly as validate_code returned it, or validate the code again"],"code":"TOKEN_INVALID","category":"WorkflowDependency"}"#,
        );
    }

    #[test]
    fn code_mismatch() {
        assert_json(
            || E::CodeMismatch {
                expected_hash: EXPECTED_HASH.into(),
                actual_hash: ACTUAL_HASH.into(),
            },
            r#"{"isError":true,"error_class":"PRECONDITION_FAILED","message":"the code differs from the code that was validated","suggested_tool":"validate_code","next_steps":["send exactly the validated code, or call validate_code on the changed code first"],"code":"CODE_MISMATCH","category":"WorkflowDependency"}"#,
        );
    }

    #[test]
    fn context_changed() {
        assert_json(
            || E::ContextChanged,
            r#"{"isError":true,"error_class":"CONFLICT","message":"the schema or permissions changed since the code was validated","suggested_tool":"validate_code","next_steps":["call validate_code again so the approval matches the current context"],"code":"CONTEXT_CHANGED","category":"WorkflowDependency"}"#,
        );
    }

    #[test]
    fn user_mismatch() {
        assert_json(
            || E::UserMismatch,
            r#"{"isError":true,"error_class":"UNAUTHENTICATED","message":"the approval token was issued to a different user","suggested_tool":"validate_code","next_steps":["validate the code as the current user and use that token"],"code":"USER_MISMATCH","category":"WorkflowDependency"}"#,
        );
    }

    #[test]
    fn backend_error() {
        assert_json(
            || E::BackendError("GET http://10.0.3.7:8080/orders: 502 Bad Gateway".into()),
            r#"{"isError":true,"error_class":"CONNECTION_FAILED","message":"the server could not reach a service it depends on","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"BACKEND_ERROR","category":"Technical","effect":"unknown"}"#,
        );
    }

    #[test]
    fn timeout() {
        assert_json(
            || E::Timeout(30),
            r#"{"isError":true,"error_class":"TIMEOUT","message":"the script did not finish within 30 s","next_steps":["the call may have taken effect: check its result before repeating it","retry later, or make the script do less work per call"],"code":"TIMEOUT","category":"Technical","effect":"unknown"}"#,
        );
    }

    #[test]
    fn validation_required() {
        assert_json(
            || E::ValidationRequired,
            r#"{"isError":true,"error_class":"PRECONDITION_FAILED","message":"the code has not been validated","suggested_tool":"validate_code","next_steps":["call validate_code with the code, then execute_code with the token it returns"],"code":"VALIDATION_REQUIRED","category":"WorkflowDependency"}"#,
        );
    }

    #[test]
    fn runtime_error() {
        assert_json(
            || E::RuntimeError {
                message: "heap limit reached in isolate 7 (/srv/runtime/v8.rs:212)".into(),
            },
            r#"{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"RUNTIME_ERROR","category":"Technical","effect":"unknown"}"#,
        );
    }

    #[test]
    fn request_refused() {
        assert_json(
            || E::RequestRefused {
                message: "path parameter `id` must be a declared placeholder".into(),
            },
            r#"{"isError":true,"error_class":"POLICY_DENIED","message":"path parameter `id` must be a declared placeholder","suggested_tool":"validate_code","next_steps":["change what the script sends so it satisfies the rule, then validate it again"],"code":"REQUEST_REFUSED","category":"Validation"}"#,
        );
    }

    #[test]
    fn invalid_script() {
        assert_json(
            || E::InvalidScript {
                message: "build the path with a template literal: api.get(`/orders/${id}`)".into(),
            },
            r#"{"isError":true,"error_class":"SYNTAX_ERROR","message":"build the path with a template literal: api.get(`/orders/${id}`)","suggested_tool":"validate_code","next_steps":["fix the script as the message says, then call validate_code on it"],"code":"INVALID_SCRIPT","category":"Validation"}"#,
        );
    }

    /// Caller mistakes are caller-owned; only genuine server faults are
    /// the server's.
    #[test]
    fn owners() {
        let owners: Vec<(&str, Owner)> = code_mode::samples()
            .iter()
            .map(|error| (name(error), error.error_class().owner()))
            .collect();
        let server: Vec<&str> = owners
            .iter()
            .filter(|(_, owner)| *owner == Owner::Server)
            .map(|(name, _)| *name)
            .collect();
        assert_eq!(server, ["BackendError", "Timeout", "RuntimeError"]);
        let caller = owners.iter().filter(|(_, owner)| *owner == Owner::Caller);
        assert_eq!(caller.count(), 8);
    }

    /// Neither hashes nor tokens reach the model, in any rendering, though
    /// `Display` (for the logs) prints them.
    #[test]
    fn no_hash_or_token_in_anything_the_model_sees() {
        let secrets = [TOKEN, EXPECTED_HASH, ACTUAL_HASH, "9f86d081", "60303ae2"];
        let errors = [
            E::TokenInvalid(format!("signature mismatch for token {TOKEN}")),
            E::TokenInvalid(TOKEN.to_owned()),
            E::CodeMismatch {
                expected_hash: EXPECTED_HASH.into(),
                actual_hash: ACTUAL_HASH.into(),
            },
        ];
        const INVALID: (&str, &str, &str) = (
            "the approval token is not valid",
            r#"{"isError":true,"error_class":"UNAUTHENTICATED","message":"the approval token is not valid","suggested_tool":"validate_code","next_steps":["pass the token exactly as validate_code returned it, or validate the code again"],"code":"TOKEN_INVALID","category":"WorkflowDependency"}"#,
            "Call validate_code now.\nUNAUTHENTICATED (TOKEN_INVALID): the approval token is not valid\nNext step: pass the token exactly as validate_code returned it, or validate the code again\nCall validate_code now.",
        );
        const MISMATCH: (&str, &str, &str) = (
            "the code differs from the code that was validated",
            r#"{"isError":true,"error_class":"PRECONDITION_FAILED","message":"the code differs from the code that was validated","suggested_tool":"validate_code","next_steps":["send exactly the validated code, or call validate_code on the changed code first"],"code":"CODE_MISMATCH","category":"WorkflowDependency"}"#,
            "Call validate_code now.\nPRECONDITION_FAILED (CODE_MISMATCH): the code differs from the code that was validated\nNext step: send exactly the validated code, or call validate_code on the changed code first\nCall validate_code now.",
        );
        let expected = [INVALID, INVALID, MISMATCH];
        for (error, (message, json, text)) in errors.iter().zip(expected) {
            let display = error.to_string();
            assert!(secrets.iter().any(|s| display.contains(s)), "{display}");
            // Each rendering is what it should be (so an empty or `null`
            // one cannot pass the leak check below), then leak-free.
            let result = error.to_tool_result_json("call_1");
            assert_eq!(
                serde_json::to_value(&result).unwrap(),
                serde_json::json!({
                    "tool_call_id": "call_1",
                    "content": json,
                    "is_error": true,
                    "error_category": "WorkflowDependency"
                })
            );
            let mcp = error.to_mcp_result();
            // What a model reads: the JSON, then the text's lead (its
            // first line here: no argument problems to list).
            let lead = text.lines().next().unwrap();
            assert_eq!(
                mcp,
                serde_json::json!({
                    "content": [{"type": "text", "text": json}, {"type": "text", "text": lead}],
                    "structuredContent": serde_json::from_str::<serde_json::Value>(json).unwrap(),
                    "isError": true,
                    "resultType": "complete"
                })
            );
            let renderings = [
                (error.to_envelope().message.clone(), message),
                (error.to_envelope().to_json_string(), json),
                (error.to_envelope().to_string(), text),
            ];
            for (rendered, expected) in &renderings {
                assert_eq!(rendered, expected);
            }
            let renderings = renderings
                .into_iter()
                .map(|(rendered, _)| rendered)
                .chain([serde_json::to_string(&result).unwrap(), mcp.to_string()]);
            for text in renderings {
                for secret in secrets {
                    assert!(!text.contains(secret), "{secret} leaked into {text}");
                }
            }
        }
        let messages: Vec<String> = code_mode::samples()
            .iter()
            .map(|error| error.to_envelope().message.clone())
            .collect();
        assert_eq!(
            messages,
            [
                "the approval token has expired",
                "the approval token is not valid",
                "the code differs from the code that was validated",
                "the schema or permissions changed since the code was validated",
                "the approval token was issued to a different user",
                "the server could not reach a service it depends on",
                "the script did not finish within 30 s",
                "the code has not been validated",
                "an internal error occurred; changing the call will not help",
                "path parameter `id` must be a declared placeholder",
                "build the path with a template literal: api.get(`/orders/${id}`)",
            ]
        );
        for message in messages {
            for secret in secrets {
                assert!(!message.contains(secret), "{secret} in {message}");
            }
            assert!(!message.contains("hash"), "{message}");
        }
    }

    /// The server faults keep their internals (hosts, paths) out.
    #[test]
    fn server_faults_keep_internals_in_the_logs() {
        // The server faults' whole JSON (their `Display` holds a host, a
        // path and an isolate number), so an empty rendering cannot pass.
        let server_faults: Vec<String> = code_mode::samples()
            .iter()
            .filter(|error| error.error_class().owner() == Owner::Server)
            .map(|error| error.to_envelope().to_json_string())
            .collect();
        assert_eq!(
            server_faults,
            [
                r#"{"isError":true,"error_class":"CONNECTION_FAILED","message":"the server could not reach a service it depends on","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"BACKEND_ERROR","category":"Technical","effect":"unknown"}"#,
                r#"{"isError":true,"error_class":"TIMEOUT","message":"the script did not finish within 30 s","next_steps":["the call may have taken effect: check its result before repeating it","retry later, or make the script do less work per call"],"code":"TIMEOUT","category":"Technical","effect":"unknown"}"#,
                r#"{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"RUNTIME_ERROR","category":"Technical","effect":"unknown"}"#,
            ]
        );
        for error in code_mode::samples() {
            let json = error.to_envelope().to_json_string();
            assert!(
                json.starts_with(r#"{"isError":true,"error_class":""#),
                "{json}"
            );
            for internal in ["10.0.3.7", "/srv/runtime", "isolate"] {
                assert!(!json.contains(internal), "{internal} in {json}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// chat_tools: multi-llm's ToolResult wire form, every variant, the loop
// ---------------------------------------------------------------------------

mod chat {
    use super::chat_tools::ToolError as E;
    use super::*;

    fn wire(result: &ToolResult) -> String {
        serde_json::to_string(result).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The exact wire form of `multi-llm`'s `ToolResult`, from its
    /// documentation: field names, order, category spelling, and `null`
    /// for no category.
    #[test]
    fn multi_llm_wire_form() {
        let documented = r#"{"tool_call_id":"call_xyz","content":"City not found","is_error":true,"error_category":"NotFound"}"#;
        let read: ToolResult = serde_json::from_str(documented).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            read,
            ToolResult {
                tool_call_id: "call_xyz".into(),
                content: "City not found".into(),
                is_error: true,
                error_category: Some(UserErrorCategory::NotFound),
            }
        );
        assert_eq!(wire(&read), documented);

        let login = ToolResult {
            tool_call_id: "call_123".into(),
            content: "Please log in first".into(),
            is_error: true,
            error_category: Some(UserErrorCategory::WorkflowDependency),
        };
        assert_eq!(
            wire(&login),
            r#"{"tool_call_id":"call_123","content":"Please log in first","is_error":true,"error_category":"WorkflowDependency"}"#
        );

        let success = ToolResult::success("call_1", "18 °C");
        assert_eq!(
            wire(&success),
            r#"{"tool_call_id":"call_1","content":"18 °C","is_error":false,"error_category":null}"#
        );
        let without: ToolResult =
            serde_json::from_str(r#"{"tool_call_id":"c","content":"x","is_error":false}"#)
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(without.error_category, None);
    }

    fn name(error: &E) -> &'static str {
        match error {
            E::CityNotFound { .. } => "CityNotFound",
            E::MissingArgument { .. } => "MissingArgument",
            E::LoginRequired => "LoginRequired",
            E::AlreadySubscribed { .. } => "AlreadySubscribed",
            E::DaysOutOfRange { .. } => "DaysOutOfRange",
            E::RateLimited { .. } => "RateLimited",
            E::UnknownTool { .. } => "UnknownTool",
        }
    }

    /// Every variant as the `ToolResult` the loop sends, exactly; between
    /// them they use all six `multi-llm` categories.
    #[test]
    fn every_variant_as_a_tool_result() {
        let cases: Vec<(E, &str)> = vec![
            (
                E::CityNotFound {
                    city: "Pariss".into(),
                    candidates: vec!["Paris".into(), "Parma".into()],
                },
                r#"{"tool_call_id":"call_1","content":"{\"isError\":true,\"error_class\":\"OBJECT_NOT_FOUND\",\"message\":\"no city is called Pariss\",\"suggested_tool\":\"list_cities\",\"fuzzy_matches\":[\"Paris\",\"Parma\"],\"code\":\"CITY_NOT_FOUND\",\"category\":\"NotFound\"}","is_error":true,"error_category":"NotFound"}"#,
            ),
            (
                E::MissingArgument { argument: "city" },
                r#"{"tool_call_id":"call_1","content":"{\"isError\":true,\"error_class\":\"INVALID_ARGUMENTS\",\"message\":\"the argument `city` is required\",\"next_steps\":[\"ask the user which city they mean\"],\"code\":\"MISSING_ARGUMENT\",\"category\":\"MissingContext\"}","is_error":true,"error_category":"MissingContext"}"#,
            ),
            (
                E::LoginRequired,
                r#"{"tool_call_id":"call_1","content":"{\"isError\":true,\"error_class\":\"PRECONDITION_FAILED\",\"message\":\"log in before subscribing to alerts\",\"suggested_tool\":\"login\",\"code\":\"LOGIN_REQUIRED\",\"category\":\"WorkflowDependency\"}","is_error":true,"error_category":"WorkflowDependency"}"#,
            ),
            (
                E::AlreadySubscribed {
                    city: "Paris".into(),
                },
                r#"{"tool_call_id":"call_1","content":"{\"isError\":true,\"error_class\":\"ALREADY_EXISTS\",\"message\":\"alerts for Paris are already on\",\"code\":\"ALREADY_SUBSCRIBED\",\"category\":\"Duplicate\"}","is_error":true,"error_category":"Duplicate"}"#,
            ),
            (
                E::DaysOutOfRange { days: 30 },
                r#"{"tool_call_id":"call_1","content":"{\"isError\":true,\"error_class\":\"INVALID_ARGUMENTS\",\"message\":\"days must be between 1 and 14, not 30\",\"code\":\"DAYS_OUT_OF_RANGE\",\"category\":\"Validation\",\"details\":{\"days\":30}}","is_error":true,"error_category":"Validation"}"#,
            ),
            (
                E::RateLimited {
                    retry_after_ms: 1500,
                },
                r#"{"tool_call_id":"call_1","content":"{\"isError\":true,\"error_class\":\"BUSY\",\"message\":\"the server is busy\",\"retry_after_ms\":1500,\"code\":\"RATE_LIMITED\",\"category\":\"Technical\",\"retryable\":true}","is_error":true,"error_category":"Technical"}"#,
            ),
            (
                E::UnknownTool {
                    name: "get_wether".into(),
                },
                r#"{"tool_call_id":"call_1","content":"{\"isError\":true,\"error_class\":\"UNSUPPORTED\",\"message\":\"there is no tool called get_wether\",\"code\":\"UNKNOWN_TOOL\",\"category\":\"Validation\"}","is_error":true,"error_category":"Validation"}"#,
            ),
        ];
        let names: Vec<&str> = cases.iter().map(|(error, _)| name(error)).collect();
        assert_eq!(names, catalog_names::<E>());
        let mut categories = BTreeSet::new();
        for (error, expected) in &cases {
            let result = error.to_tool_result_json("call_1");
            assert_eq!(wire(&result), *expected);
            assert_eq!(result.error_category, Some(error.user_category()));
            categories.insert(error.user_category());
        }
        assert_eq!(categories.len(), 6);
    }

    /// The whole conversation, call by call, as sent on the wire.
    #[test]
    fn the_loop_recovers_from_every_error() {
        let (transcript, answer) = chat_tools::run();
        let calls: Vec<String> = transcript
            .iter()
            .map(|(call, _)| format!("{} {}({})", call.id, call.name, call.arguments))
            .collect();
        assert_eq!(
            calls,
            [
                r#"call_1 get_weather({"city":"Pariss"})"#,
                r#"call_2 get_weather({"city":"Paris"})"#,
                r#"call_3 subscribe_alerts({"city":"Paris"})"#,
                "call_4 login({})",
                r#"call_5 subscribe_alerts({"city":"Paris"})"#,
                r#"call_6 get_forecast({"city":"Paris","days":30})"#,
                r#"call_7 get_forecast({"city":"Paris","days":14})"#,
            ]
        );
        let results: Vec<String> = transcript.iter().map(|(_, result)| wire(result)).collect();
        assert_eq!(
            results,
            [
                r#"{"tool_call_id":"call_1","content":"{\"isError\":true,\"error_class\":\"OBJECT_NOT_FOUND\",\"message\":\"no city is called Pariss\",\"suggested_tool\":\"list_cities\",\"fuzzy_matches\":[\"Paris\",\"Parma\"],\"code\":\"CITY_NOT_FOUND\",\"category\":\"NotFound\"}","is_error":true,"error_category":"NotFound"}"#,
                r#"{"tool_call_id":"call_2","content":"Paris: 18 °C, light rain","is_error":false,"error_category":null}"#,
                r#"{"tool_call_id":"call_3","content":"{\"isError\":true,\"error_class\":\"PRECONDITION_FAILED\",\"message\":\"log in before subscribing to alerts\",\"suggested_tool\":\"login\",\"code\":\"LOGIN_REQUIRED\",\"category\":\"WorkflowDependency\"}","is_error":true,"error_category":"WorkflowDependency"}"#,
                r#"{"tool_call_id":"call_4","content":"logged in","is_error":false,"error_category":null}"#,
                r#"{"tool_call_id":"call_5","content":"alerts on for Paris","is_error":false,"error_category":null}"#,
                r#"{"tool_call_id":"call_6","content":"{\"isError\":true,\"error_class\":\"INVALID_ARGUMENTS\",\"message\":\"days must be between 1 and 14, not 30\",\"code\":\"DAYS_OUT_OF_RANGE\",\"category\":\"Validation\",\"details\":{\"days\":30}}","is_error":true,"error_category":"Validation"}"#,
                r#"{"tool_call_id":"call_7","content":"Paris: 14 days of sun","is_error":false,"error_category":null}"#,
            ]
        );
        assert_eq!(
            answer,
            "Paris: 18 °C and light rain; sun for the next 14 days. Rain alerts are on."
        );
    }

    /// The error paths of the tools themselves.
    #[test]
    fn tools_raise_the_other_variants() {
        let mut tools = chat_tools::Tools::default();
        let call = |name: &str, arguments: serde_json::Value| chat_tools::ToolCall {
            id: "call_9".into(),
            name: name.into(),
            arguments,
        };
        let category = |result: ToolResult| result.error_category;
        assert_eq!(
            category(tools.call(&call("get_weather", serde_json::json!({})))),
            Some(UserErrorCategory::MissingContext)
        );
        assert_eq!(
            category(tools.call(&call("get_wether", serde_json::json!({})))),
            Some(UserErrorCategory::Validation)
        );
        tools.call(&call("login", serde_json::json!({})));
        let paris = serde_json::json!({ "city": "Paris" });
        assert_eq!(
            category(tools.call(&call("subscribe_alerts", paris.clone()))),
            None
        );
        assert_eq!(
            category(tools.call(&call("subscribe_alerts", paris))),
            Some(UserErrorCategory::Duplicate)
        );
    }
}

// ---------------------------------------------------------------------------
// quickstart: the output the guide's quickstart chapter shows
// ---------------------------------------------------------------------------

mod quickstart_example {
    use super::*;

    #[test]
    fn each_kind_of_error() {
        let expected = [
            r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table EMPLOYES does not exist","suggested_tool":"list_tables","fuzzy_matches":["EMPLOYEES","EMPLOYEE"],"code":"TABLE_NOT_FOUND","category":"NotFound"}"#,
            r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","next_steps":["wait retry_after_ms, then repeat the same call"],"retry_after_ms":250,"code":"POOL_EXHAUSTED","category":"Technical","retryable":true}"#,
            r#"{"isError":true,"error_class":"UNAUTHENTICATED","message":"login failed for user ada","code":"LOGIN_FAILED","category":"WorkflowDependency"}"#,
            r#"{"isError":true,"error_class":"SYNTAX_ERROR","message":"syntax error near line 3: expected FROM","code":"SQL_SYNTAX","category":"Validation","details":{"line":3}}"#,
        ];
        let examples = quickstart::examples();
        assert_eq!(examples.len(), expected.len());
        for ((_, error), json) in examples.iter().zip(expected) {
            assert_eq!(ErrorEnvelope::from(error).to_json_string(), json);
            let result = error.to_tool_result_json("call_1");
            assert_eq!(result.content, json);
            assert!(!result.content.contains("hunter2"));
            let mcp = error.to_mcp_result();
            assert_eq!(
                mcp,
                serde_json::json!({
                    "content": [{"type": "text", "text": json}, {"type": "text", "text": ErrorEnvelope::from(error).to_string().lines().next().unwrap()}],
                    "structuredContent": serde_json::from_str::<serde_json::Value>(json).unwrap(),
                    "isError": true,
                    "resultType": "complete"
                })
            );
            assert!(!mcp.to_string().contains("hunter2"));
        }
    }
}
