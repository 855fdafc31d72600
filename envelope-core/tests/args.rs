//! `envelope_core::args`: every kind of argument problem, located with a
//! JSON Pointer in wire names, as exact JSON; serde's first problem
//! without a schema, every problem with one (feature `jsonschema`); the
//! `argument_errors` wire field; and no argument value that panics.

use std::collections::BTreeMap;

use envelope_core::args;
use envelope_core::{
    ArgumentError, ArgumentErrorKind, Envelope, ErrorClass, ErrorEnvelope, UserErrorCategory,
};
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};

const NEXT_STEP: &str = "fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument";

// ---------------------------------------------------------------------------
// Argument types. With `jsonschema` they also derive `JsonSchema`, so the
// same types serve both entry points.
// ---------------------------------------------------------------------------

macro_rules! arguments {
    ($($item:item)*) => {
        $(
            #[cfg_attr(feature = "jsonschema", derive(schemars::JsonSchema))]
            #[allow(dead_code)] // only read through Debug
            $item
        )*
    };
}

arguments! {
    /// The issue's example: a table and a limit.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Query {
        table: String,
        limit: u32,
    }

    /// Nested objects, arrays, enums, renames, options.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Search {
        table_name: String,
        #[serde(rename = "max")]
        max_rows: Option<u8>,
        filter: Option<Filter>,
        #[serde(default)]
        rows: Vec<Row>,
        #[serde(default)]
        mode: Option<Mode>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Filter {
        column_name: String,
        min_value: i32,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Row {
        id: u64,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    enum Mode {
        FullScan,
        IndexOnly,
    }

    /// `#[serde(flatten)]`: the paging fields sit next to `query`.
    #[derive(Debug, Deserialize)]
    struct Paged {
        query: String,
        #[serde(flatten)]
        page: Page,
    }

    #[derive(Debug, Deserialize)]
    struct Page {
        offset: u32,
        size: u8,
    }

    /// An internally tagged enum.
    #[derive(Debug, Deserialize)]
    struct Draw {
        shape: Shape,
    }

    #[derive(Debug, Deserialize)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    enum Shape {
        Circle { radius: f64 },
        Square { side: f64 },
    }

    /// An enum whose variants are documented: schemars writes a `oneOf` of
    /// constants instead of an `enum`.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Sorted {
        #[serde(default)]
        order: Order,
    }

    #[derive(Debug, Default, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Order {
        /// Smallest first.
        #[default]
        Ascending,
        /// Largest first.
        Descending,
    }

    /// Keys with `/` and `~`, and a map.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Odd {
        #[serde(rename = "a/b")]
        slash: u8,
        #[serde(rename = "c~d")]
        tilde: Option<u8>,
        #[serde(default)]
        labels: BTreeMap<String, u8>,
    }
}

/// A value that checks itself, and whose error message quotes what it got.
#[derive(Debug, Deserialize)]
#[serde(try_from = "String")]
struct Secretive(#[allow(dead_code)] String);

impl TryFrom<String> for Secretive {
    type Error = String;
    fn try_from(value: String) -> Result<Self, String> {
        Err(format!("`{value}` is not allowed"))
    }
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Login {
    token: Secretive,
}

#[cfg(feature = "jsonschema")]
impl schemars::JsonSchema for Secretive {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Secretive".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string"})
    }
}

#[cfg(feature = "jsonschema")]
impl schemars::JsonSchema for Login {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Login".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let token = generator.subschema_for::<Secretive>();
        schemars::json_schema!({
            "type": "object",
            "properties": {"token": token},
            "required": ["token"],
        })
    }
}

/// The problems `args::parse` reports, as JSON.
fn first<T: serde::de::DeserializeOwned + std::fmt::Debug>(arguments: Value) -> Value {
    let envelope = args::parse::<T>(arguments).expect_err("invalid arguments");
    assert_eq!(envelope.argument_errors.len(), 1, "{envelope:?}");
    problems(&envelope)
}

fn problems(envelope: &ErrorEnvelope) -> Value {
    envelope.to_json()["argument_errors"].clone()
}

// ---------------------------------------------------------------------------
// Without a schema: serde's first problem, exactly.
// ---------------------------------------------------------------------------

#[test]
fn whole_envelope_of_one_problem() {
    let envelope = args::parse::<Query>(json!({"table": "EMP", "limit": "5"})).unwrap_err();
    assert_eq!(
        envelope.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","#,
            r#""message":"1 problem in the arguments: /limit must be an integer, got a string","#,
            r#""next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"#,
            r#""category":"Validation","#,
            r#""details":{"corrected_arguments":{"limit":5,"table":"EMP"}},"#,
            r#""argument_errors":[{"path":"/limit","kind":"wrong_type","expected":"an integer","received":"string"}]}"#,
        )
    );
    assert_eq!(envelope.error_class, ErrorClass::InvalidArguments);
    assert_eq!(envelope.category, Some(UserErrorCategory::Validation));
    assert!(!envelope.retryable);
    assert_eq!(envelope.code, None);
}

#[test]
fn valid_arguments_parse() {
    let query: Query = args::parse(json!({"table": "EMP", "limit": 5})).unwrap();
    assert_eq!((query.table.as_str(), query.limit), ("EMP", 5));
}

#[test]
fn missing() {
    assert_eq!(
        first::<Query>(json!({"limit": 5})),
        json!([{"path": "/table", "kind": "missing"}])
    );
}

#[test]
fn wrong_type() {
    assert_eq!(
        first::<Query>(json!({"table": 7, "limit": 5})),
        json!([{"path": "/table", "kind": "wrong_type", "expected": "a string", "received": "integer"}])
    );
    assert_eq!(
        first::<Search>(json!({"tableName": "T", "filter": "X"})),
        json!([{"path": "/filter", "kind": "wrong_type", "expected": "an object", "received": "string"}])
    );
    // serde also reads a struct from an array (its fields in order), so
    // without a schema the problem is the first item's.
    assert_eq!(
        first::<Search>(json!({"tableName": "T", "filter": [1]})),
        json!([{"path": "/filter/0", "kind": "wrong_type", "expected": "a string", "received": "integer"}])
    );
}

#[test]
fn unknown_field_with_suggestion_in_wire_names() {
    assert_eq!(
        first::<Query>(json!({"table": "T", "limt": 6})),
        json!([{"path": "/limt", "kind": "unknown_field", "received": "integer", "suggestions": ["limit"]}])
    );
    // A name already sent is no near miss.
    assert_eq!(
        first::<Query>(json!({"table": "T", "limit": 5, "limt": 6})),
        json!([{"path": "/limt", "kind": "unknown_field", "received": "integer"}])
    );
    // `rename_all = "camelCase"`: the suggestion is the wire name.
    assert_eq!(
        first::<Search>(json!({"table_name": "T"})),
        json!([{"path": "/table_name", "kind": "unknown_field", "received": "string", "suggestions": ["tableName"]}])
    );
}

#[test]
fn unknown_variant_with_suggestion() {
    assert_eq!(
        first::<Search>(json!({"tableName": "T", "mode": "FULLSCAN"})),
        json!([{
            "path": "/mode",
            "kind": "unknown_variant",
            "expected": r#"one of "FULL_SCAN", "INDEX_ONLY""#,
            "received": "string",
            "suggestions": ["FULL_SCAN"],
        }])
    );
    // The one near miss is the value to send.
    let envelope =
        args::parse::<Search>(json!({"tableName": "T", "mode": "FULLSCAN"})).unwrap_err();
    assert_eq!(
        envelope.details["corrected_arguments"],
        json!({"tableName": "T", "mode": "FULL_SCAN"})
    );
}

#[test]
fn out_of_range() {
    // `#[serde(rename = "max")]`: the path is the wire name.
    assert_eq!(
        first::<Search>(json!({"tableName": "T", "max": 300})),
        json!([{"path": "/max", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}])
    );
    assert_eq!(
        first::<Query>(json!({"table": "T", "limit": -1})),
        json!([{"path": "/limit", "kind": "out_of_range", "expected": "an integer from 0 to 4294967295", "received": "integer"}])
    );
}

#[test]
fn other_never_quotes_the_value() {
    let envelope = args::parse::<Login>(json!({"token": "hunter2-secret"})).unwrap_err();
    assert_eq!(
        problems(&envelope),
        json!([{"path": "/token", "kind": "other", "received": "string"}])
    );
    assert_eq!(
        envelope.message,
        "1 problem in the arguments: /token is invalid"
    );
    assert_eq!(
        envelope.to_json_string(),
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"1 problem in the arguments: /token is invalid","next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"category":"Validation","argument_errors":[{"path":"/token","kind":"other","received":"string"}]}"#
    );
    assert!(!envelope.to_json_string().contains("hunter2"));
}

#[test]
fn wrong_type_never_quotes_the_value() {
    let envelope =
        args::parse::<Query>(json!({"table": "T", "limit": "sk-live-0123456789"})).unwrap_err();
    assert_eq!(
        envelope.to_json_string(),
        "{\"isError\":true,\"error_class\":\"INVALID_ARGUMENTS\",\"message\":\"1 problem in the arguments: /limit must be an integer, got a string\",\"next_steps\":[\"fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument\"],\"category\":\"Validation\",\"argument_errors\":[{\"path\":\"/limit\",\"kind\":\"wrong_type\",\"expected\":\"an integer\",\"received\":\"string\"}]}"
    );
    assert_eq!(
        envelope.to_string(),
        "Fix these arguments, then call this tool again:\n- /limit must be an integer, got a string\nINVALID_ARGUMENTS\nFix the arguments listed above, then call this tool again."
    );
    assert!(
        !envelope.to_json_string().contains("sk-live"),
        "{envelope:?}"
    );
    assert!(!envelope.to_string().contains("sk-live"));
}

#[test]
fn nested_paths_and_array_items() {
    assert_eq!(
        first::<Search>(json!({"tableName": "T", "filter": {"columnName": "X", "minValue": "1"}})),
        json!([{"path": "/filter/minValue", "kind": "wrong_type", "expected": "an integer", "received": "string"}])
    );
    assert_eq!(
        first::<Search>(
            json!({"tableName": "T", "rows": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": "4"}]})
        ),
        json!([{"path": "/rows/3/id", "kind": "wrong_type", "expected": "an integer", "received": "string"}])
    );
    assert_eq!(
        first::<Search>(json!({"tableName": "T", "rows": [{"id": 1}, {}]})),
        json!([{"path": "/rows/1/id", "kind": "missing"}])
    );
    // `rename_all` inside the nested type: camelCase path and suggestion.
    assert_eq!(
        first::<Search>(json!({"tableName": "T", "filter": {"column_name": "X", "minValue": 1}})),
        json!([{"path": "/filter/column_name", "kind": "unknown_field", "received": "string", "suggestions": ["columnName"]}])
    );
}

#[test]
fn option_fields() {
    // An `Option` reports its inner type's problem; `null` is fine.
    assert_eq!(
        first::<Search>(json!({"tableName": "T", "max": "ten"})),
        json!([{"path": "/max", "kind": "wrong_type", "expected": "an integer", "received": "string"}])
    );
    assert!(args::parse::<Search>(json!({"tableName": "T", "max": null, "filter": null})).is_ok());
}

#[test]
fn flatten() {
    // A field of the flattened struct is missing at the enclosing object.
    assert_eq!(
        first::<Paged>(json!({"query": "q", "offset": 0})),
        json!([{"path": "/size", "kind": "missing"}])
    );
    // serde reads a flattened struct from a buffer without a path; the
    // value it quotes is found in the arguments.
    assert_eq!(
        first::<Paged>(json!({"query": "q", "offset": 0, "size": "big"})),
        json!([{"path": "/size", "kind": "wrong_type", "expected": "an integer", "received": "string"}])
    );
}

#[test]
fn an_enum_value_gets_only_a_misspelling_or_a_prefix_as_its_fix() {
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    #[allow(dead_code)]
    enum Status {
        Open,
        InProgress,
        Closed,
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Update {
        id: String,
        status: Status,
    }
    // "done" is a different word, three edits from "open": no near miss,
    // no corrected call; the model reads the names and picks.
    let envelope = args::parse::<Update>(json!({"id": "T-1", "status": "done"})).unwrap_err();
    assert_eq!(
        problems(&envelope),
        json!([{"path": "/status", "kind": "unknown_variant", "expected": r#"one of "open", "in_progress", "closed""#, "received": "string"}])
    );
    assert!(envelope.details.is_empty());
    assert_eq!(
        envelope.to_string().lines().take(2).collect::<Vec<_>>(),
        [
            "Fix these arguments, then call this tool again:",
            r#"- /status must be one of "open", "in_progress", "closed""#,
        ]
    );
    // A misspelling and a prefix, in either direction, are fixed whole.
    for (sent, meant) in [
        ("opne", "open"),
        ("in_prog", "in_progress"),
        ("closed_now", "closed"),
    ] {
        let envelope = args::parse::<Update>(json!({"id": "T-1", "status": sent})).unwrap_err();
        assert_eq!(envelope.argument_errors[0].suggestions, [meant], "{sent}");
        assert_eq!(
            envelope.details["corrected_arguments"],
            json!({"id": "T-1", "status": meant}),
            "{sent}"
        );
    }
}

#[test]
fn internally_tagged_enum() {
    assert_eq!(
        first::<Draw>(json!({"shape": {"kind": "sqare", "side": 1.0}})),
        json!([{
            "path": "/shape/kind",
            "kind": "unknown_variant",
            "expected": r#"one of "circle", "square""#,
            "received": "string",
            "suggestions": ["square"],
        }])
    );
    assert_eq!(
        first::<Draw>(json!({"shape": {"side": 1.0}})),
        json!([{"path": "/shape/kind", "kind": "missing"}])
    );
}

#[test]
fn keys_with_slash_and_tilde_are_escaped() {
    assert_eq!(
        first::<Odd>(json!({"a/b": "x"})),
        json!([{"path": "/a~1b", "kind": "wrong_type", "expected": "an integer", "received": "string"}])
    );
    assert_eq!(
        first::<Odd>(json!({"a/b": 1, "c~d": 256})),
        json!([{"path": "/c~0d", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}])
    );
    assert_eq!(
        first::<Odd>(json!({"a/b": 1, "labels": {"x/~y": "z"}})),
        json!([{"path": "/labels/x~1~0y", "kind": "wrong_type", "expected": "an integer", "received": "string"}])
    );
    assert_eq!(
        first::<Odd>(json!({"a~b": 1})),
        json!([{"path": "/a~0b", "kind": "unknown_field", "received": "integer", "suggestions": ["a/b", "c~d"]}])
    );
}

#[test]
fn arguments_that_are_not_an_object() {
    for (arguments, received) in [
        (json!(null), "null"),
        (json!("table"), "string"),
        (json!(4.5), "number"),
        (json!(false), "boolean"),
    ] {
        let envelope = args::parse::<Query>(arguments).unwrap_err();
        assert_eq!(
            problems(&envelope),
            json!([{"path": "", "kind": "wrong_type", "expected": "an object", "received": received}])
        );
    }
    let envelope = args::parse::<Query>(json!("x")).unwrap_err();
    assert_eq!(
        envelope.message,
        "1 problem in the arguments: the arguments value must be an object, got a string"
    );
    // serde reads a struct from an array too; the schema does not (below).
    assert_eq!(
        first::<Query>(json!([1, 2])),
        json!([{"path": "/0", "kind": "wrong_type", "expected": "a string", "received": "integer"}])
    );
}

#[test]
fn a_huge_key_is_cut_in_the_path() {
    let key = "k".repeat(1 << 20);
    let envelope =
        args::parse::<Query>(json!({"table": "T", "limit": 1, key.clone(): 1})).unwrap_err();
    let path = format!("/{}…", "k".repeat(64));
    assert_eq!(
        problems(&envelope),
        json!([{"path": path, "kind": "unknown_field", "received": "integer"}])
    );
    assert!(envelope.to_json_string().len() < 1000);
}

// ---------------------------------------------------------------------------
// `invalid_arguments` for a server's own checks.
// ---------------------------------------------------------------------------

#[test]
fn invalid_arguments_from_a_servers_own_checks() {
    let envelope = args::invalid_arguments(vec![
        ArgumentError::new(ArgumentErrorKind::OutOfRange, args::pointer(["days"]))
            .with_expected("an integer from 1 to 14")
            .with_received(&json!(30)),
    ]);
    assert_eq!(
        envelope.to_json_string(),
        concat!(
            r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","#,
            r#""message":"1 problem in the arguments: /days must be an integer from 1 to 14","#,
            r#""next_steps":[""#,
            "fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument",
            r#""],"category":"Validation","#,
            r#""argument_errors":[{"path":"/days","kind":"out_of_range","expected":"an integer from 1 to 14","received":"integer"}]}"#,
        )
    );
    assert_eq!(envelope.next_steps, [NEXT_STEP]);
    // The builder only sets the list; `invalid_arguments` writes the rest.
    let listed = ErrorEnvelope::new(ErrorClass::InvalidArguments, "days is 30")
        .with_argument_errors(envelope.argument_errors.clone());
    assert_eq!(listed.argument_errors, envelope.argument_errors);
    assert_eq!(listed.message, "days is 30");
}

// ---------------------------------------------------------------------------
// The wire field.
// ---------------------------------------------------------------------------

#[test]
fn argument_errors_round_trip_and_read_leniently() {
    let envelope =
        args::parse::<Search>(json!({"tableName": "T", "mode": "FULLSCAN"})).unwrap_err();
    let text = envelope.to_json_string();
    let back: ErrorEnvelope = serde_json::from_str(&text).unwrap();
    assert_eq!(back, envelope);

    // `null` reads as empty, items read leniently, and an envelope without
    // problems leaves the key out.
    let read: ErrorEnvelope = serde_json::from_value(json!({
        "error_class": "INVALID_ARGUMENTS", "message": "m", "argument_errors": null,
    }))
    .unwrap();
    assert!(read.argument_errors.is_empty());
    assert_eq!(
        read.to_json_string(),
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"m"}"#
    );
    let read: ErrorEnvelope = serde_json::from_value(json!({
        "error_class": "INVALID_ARGUMENTS", "message": "m",
        "argument_errors": [{"path": "/x", "kind": "too_deep", "suggestions": null, "hint": 1}],
    }))
    .unwrap();
    assert_eq!(
        read.argument_errors,
        [ArgumentError::new(ArgumentErrorKind::Other, "/x")]
    );
    assert!(
        serde_json::from_value::<ErrorEnvelope>(json!({
            "error_class": "INVALID_ARGUMENTS", "message": "m", "argument_errors": [{"kind": "missing"}],
        }))
        .is_err()
    );
}

#[test]
fn display_of_the_envelope_leads_with_the_fix() {
    let envelope = args::parse::<Query>(json!({"limit": 1})).unwrap_err();
    assert_eq!(
        envelope.to_string(),
        "Fix these arguments, then call this tool again:\n- /table is missing: add it\nINVALID_ARGUMENTS\nFix the arguments listed above, then call this tool again."
    );
    // A fix that follows from what was sent: the corrected arguments.
    let envelope = args::parse::<Query>(json!({"table": "EMP", "limit": "5"})).unwrap_err();
    assert_eq!(
        envelope.to_string(),
        "Call this tool again with these arguments: {\"limit\":5,\"table\":\"EMP\"}\n- /limit must be an integer, got a string: send 5 without quotes, as an integer\nINVALID_ARGUMENTS\nCall this tool again with these arguments: {\"limit\":5,\"table\":\"EMP\"}"
    );
}

// ---------------------------------------------------------------------------
// With a schema (feature `jsonschema`): every problem at once.
// ---------------------------------------------------------------------------

#[cfg(feature = "jsonschema")]
mod with_schema {
    use super::*;

    fn all<T>(arguments: Value) -> ErrorEnvelope
    where
        T: serde::de::DeserializeOwned + schemars::JsonSchema + std::fmt::Debug,
    {
        args::parse_with_schema::<T>(arguments).expect_err("invalid arguments")
    }

    #[test]
    fn the_issues_example() {
        let envelope = all::<Query>(json!({"limit": "5"}));
        assert_eq!(
            envelope.message,
            "2 problems in the arguments: /table is missing; /limit must be an integer, got a string"
        );
        assert_eq!(
            problems(&envelope),
            json!([
                {"path": "/table", "kind": "missing"},
                {"path": "/limit", "kind": "wrong_type", "expected": "an integer", "received": "string"},
            ])
        );
        assert_eq!(envelope.next_steps, [NEXT_STEP]);
    }

    #[test]
    fn two_missing_fields_and_a_misspelled_key_are_three_problems() {
        let envelope = all::<Search>(json!({"tableNmae": "EMP", "filter": {"colunmName": "X"}}));
        assert_eq!(
            problems(&envelope),
            json!([
                {"path": "/filter/columnName", "kind": "missing"},
                {"path": "/filter/minValue", "kind": "missing"},
                {"path": "/tableName", "kind": "missing"},
                {"path": "/filter/colunmName", "kind": "unknown_field", "received": "string", "suggestions": ["columnName"]},
                {"path": "/tableNmae", "kind": "unknown_field", "received": "string", "suggestions": ["tableName"]},
            ])
        );
        // Exactly the issue's case: two missing fields and one misspelled key.
        let envelope = all::<Query>(json!({"tabel": "EMP"}));
        assert_eq!(envelope.argument_errors.len(), 3);
        assert_eq!(
            envelope.message,
            r#"3 problems in the arguments: /limit is missing; /table is missing; /tabel is not a known field (did you mean "table"?)"#
        );
    }

    #[test]
    fn every_kind_at_once() {
        let envelope = all::<Search>(json!({
            "max": 300,
            "mode": "FULLSCAN",
            "rows": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": "4", "idd": 4}],
            "filter": {"columnName": 5, "minValue": 1},
            "extra": true,
        }));
        assert_eq!(
            problems(&envelope),
            json!([
                {"path": "/tableName", "kind": "missing"},
                {"path": "/filter/columnName", "kind": "wrong_type", "expected": "a string", "received": "integer"},
                {"path": "/rows/3/id", "kind": "wrong_type", "expected": "an integer", "received": "string"},
                {"path": "/extra", "kind": "unknown_field", "received": "boolean"},
                {"path": "/rows/3/idd", "kind": "unknown_field", "received": "integer"},
                {"path": "/mode", "kind": "unknown_variant", "expected": r#"one of "FULL_SCAN", "INDEX_ONLY""#, "received": "string", "suggestions": ["FULL_SCAN"]},
                {"path": "/max", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"},
            ])
        );
    }

    #[test]
    fn a_wrong_type_is_reported_once() {
        let envelope = all::<Search>(json!({"tableName": "T", "mode": 3, "max": "x"}));
        assert_eq!(
            problems(&envelope),
            json!([
                {"path": "/max", "kind": "wrong_type", "expected": "an integer or null", "received": "string"},
                {"path": "/mode", "kind": "wrong_type", "expected": "a string or null", "received": "integer"},
            ])
        );
    }

    #[test]
    fn an_array_is_not_an_object() {
        for arguments in [json!([1, 2]), json!({"table": "T", "limit": [3]})] {
            let pointer = if arguments.is_array() { "" } else { "/limit" };
            let expected = if arguments.is_array() {
                "an object"
            } else {
                "an integer"
            };
            assert_eq!(
                problems(&all::<Query>(arguments)),
                json!([{"path": pointer, "kind": "wrong_type", "expected": expected, "received": "array"}])
            );
        }
        let envelope = all::<Search>(json!({"tableName": "T", "filter": [1]}));
        assert_eq!(
            problems(&envelope),
            json!([{"path": "/filter", "kind": "wrong_type", "expected": "an object or null", "received": "array"}])
        );
    }

    #[test]
    fn option_of_a_struct_reports_inside_it() {
        let envelope = all::<Search>(json!({"tableName": "T", "filter": {"minValue": "1"}}));
        assert_eq!(
            problems(&envelope),
            json!([
                {"path": "/filter/columnName", "kind": "missing"},
                {"path": "/filter/minValue", "kind": "wrong_type", "expected": "an integer", "received": "string"},
            ])
        );
        let envelope = all::<Search>(json!({"tableName": "T", "filter": 3}));
        assert_eq!(
            problems(&envelope),
            json!([{"path": "/filter", "kind": "wrong_type", "expected": "an object or null", "received": "integer"}])
        );
    }

    #[test]
    fn flatten_is_exact_with_a_schema() {
        let envelope = all::<Paged>(json!({"query": "q", "size": "big"}));
        assert_eq!(
            problems(&envelope),
            json!([
                {"path": "/offset", "kind": "missing"},
                {"path": "/size", "kind": "wrong_type", "expected": "an integer", "received": "string"},
            ])
        );
    }

    #[test]
    fn internally_tagged_enum() {
        let envelope = all::<Draw>(json!({"shape": {"kind": "sqare"}}));
        assert_eq!(
            problems(&envelope),
            json!([{
                "path": "/shape/kind",
                "kind": "unknown_variant",
                "expected": r#"one of "circle", "square""#,
                "received": "string",
                "suggestions": ["square"],
            }])
        );
        let envelope = all::<Draw>(json!({"shape": {"kind": "square"}}));
        assert_eq!(
            problems(&envelope),
            json!([{"path": "/shape/side", "kind": "missing"}])
        );
        let envelope = all::<Draw>(json!({"shape": {}}));
        assert_eq!(
            problems(&envelope),
            json!([{"path": "/shape/kind", "kind": "missing"}])
        );
    }

    #[test]
    fn documented_enum_variants() {
        let envelope = all::<Sorted>(json!({"order": "decending"}));
        assert_eq!(
            problems(&envelope),
            json!([{
                "path": "/order",
                "kind": "unknown_variant",
                "expected": r#"one of "ascending", "descending""#,
                "received": "string",
                "suggestions": ["descending", "ascending"],
            }])
        );
        let envelope = all::<Sorted>(json!({"order": 1}));
        assert_eq!(
            problems(&envelope),
            json!([{"path": "/order", "kind": "wrong_type", "expected": "a string", "received": "integer"}])
        );
    }

    #[test]
    fn keys_with_slash_and_tilde() {
        let envelope = all::<Odd>(json!({"c~d": "x", "x/y": 1, "labels": {"~": -1}}));
        assert_eq!(
            problems(&envelope),
            json!([
                {"path": "/a~1b", "kind": "missing"},
                {"path": "/c~0d", "kind": "wrong_type", "expected": "an integer or null", "received": "string"},
                {"path": "/x~1y", "kind": "unknown_field", "received": "integer", "suggestions": ["a/b"]},
                {"path": "/labels/~0", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"},
            ])
        );
    }

    #[test]
    fn serdes_problem_is_kept_when_the_schema_misses_it() {
        // The schema says only "a string"; serde's own check fails.
        let envelope = all::<Login>(json!({"token": "hunter2-secret"}));
        assert_eq!(
            problems(&envelope),
            json!([{"path": "/token", "kind": "other", "received": "string"}])
        );
        assert_eq!(
            envelope.to_json_string(),
            r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"1 problem in the arguments: /token is invalid","next_steps":["fix each argument listed in argument_errors, then call the tool again with the fixed arguments; its inputSchema lists every argument"],"category":"Validation","argument_errors":[{"path":"/token","kind":"other","received":"string"}]}"#
        );
        assert!(!envelope.to_json_string().contains("hunter2"));
    }

    #[test]
    fn valid_arguments_parse_without_building_a_schema() {
        let search: Search =
            args::parse_with_schema(json!({"tableName": "T", "mode": "INDEX_ONLY"})).unwrap();
        assert_eq!(search.table_name, "T");
    }

    #[test]
    fn many_problems_are_capped_and_counted() {
        let mut arguments = serde_json::Map::new();
        for i in 0..5_000 {
            arguments.insert(format!("unknown_{i:04}"), json!(i));
        }
        let envelope = all::<Query>(Value::Object(arguments));
        assert_eq!(envelope.argument_errors.len(), 20);
        assert_eq!(
            envelope.argument_errors[0],
            ArgumentError::new(ArgumentErrorKind::Missing, "/limit")
        );
        assert_eq!(envelope.argument_errors[2].path, "/unknown_0000");
        assert!(envelope.message.starts_with("5002 problems in the arguments: /limit is missing; /table is missing; /unknown_0000 is not a known field"));
        assert!(
            envelope.message.ends_with("; and 4982 more"),
            "{}",
            envelope.message
        );
    }

    /// The envelope's JSON Schema (schemars) describes `argument_errors`.
    #[test]
    fn envelope_schema_describes_argument_errors() {
        let schema = schemars::generate::SchemaSettings::draft2020_12()
            .for_serialize()
            .into_generator()
            .into_root_schema_for::<ErrorEnvelope>()
            .to_value();
        let item = &schema["$defs"]["ArgumentError"];
        assert_eq!(item["required"], json!(["path", "kind"]));
        let kinds: Vec<&Value> = schema["$defs"]["ArgumentErrorKind"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|kind| &kind["const"])
            .collect();
        assert_eq!(
            kinds,
            [
                "missing",
                "wrong_type",
                "unknown_field",
                "unknown_variant",
                "out_of_range",
                "other"
            ]
        );
        let validator = jsonschema::validator_for(&schema).unwrap();
        let envelope = all::<Search>(json!({"max": 300, "mode": "X", "extra": 1}));
        assert!(validator.is_valid(&envelope.to_json()));
    }
}

// ---------------------------------------------------------------------------
// No argument value makes validation panic.
// ---------------------------------------------------------------------------

/// A marker no field name, variant name or expected text contains.
const MARK: &str = "QZXV";

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[a-z_]{0,12}".prop_map(Value::String),
        any::<String>().prop_map(|s| Value::String(format!("{MARK}{s}"))),
        (0usize..200_000).prop_map(|n| Value::String(format!("{MARK}{}", "x".repeat(n)))),
        prop::sample::select(vec![
            "FULL_SCAN",
            "FULLSCAN",
            "circle",
            "sqare",
            "tableName"
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(8, 128, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "table",
            "limit",
            "tableName",
            "max",
            "filter",
            "columnName",
            "minValue",
            "rows",
            "id",
            "mode",
            "query",
            "offset",
            "size",
            "shape",
            "kind",
            "side",
            "radius",
            "a/b",
            "c~d",
            "labels",
            "token",
        ])
        .prop_map(String::from),
        any::<String>(),
        "[~/a-z]{0,6}",
    ]
}

/// Parses `arguments` as `T` every way there is; an error is always an
/// `INVALID_ARGUMENTS` envelope with at least one problem, and carries a
/// value that was sent only in its corrected arguments, which `T` accepts.
fn check<T>(arguments: &Value) -> Result<(), TestCaseError>
where
    T: serde::de::DeserializeOwned + std::fmt::Debug,
    T: SchemaIfAny,
{
    let mut outcomes = vec![args::parse::<T>(arguments.clone()).err()];
    outcomes.extend(T::with_schema(arguments));
    for envelope in outcomes.into_iter().flatten() {
        prop_assert_eq!(envelope.error_class, ErrorClass::InvalidArguments);
        prop_assert!(!envelope.argument_errors.is_empty());
        prop_assert!(envelope.argument_errors.len() <= 20);
        let text = envelope.to_json_string();
        let mut details = envelope.details.clone();
        if let Some(corrected) = details.remove("corrected_arguments") {
            prop_assert!(serde_json::from_value::<T>(corrected).is_ok());
        }
        // Values are never echoed but in the corrected arguments (only
        // keys can appear, in paths, and no key holds the mark).
        let elsewhere = format!(
            "{} {:?} {:?}",
            envelope.message, envelope.argument_errors, details
        );
        prop_assert!(!elsewhere.contains(MARK), "{}", text);
        let back: ErrorEnvelope = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back, envelope);
    }
    Ok(())
}

/// `parse_with_schema` when the feature is on.
trait SchemaIfAny {
    fn with_schema(arguments: &Value) -> Option<Option<ErrorEnvelope>>;
}

#[cfg(feature = "jsonschema")]
impl<T: serde::de::DeserializeOwned + schemars::JsonSchema> SchemaIfAny for T {
    fn with_schema(arguments: &Value) -> Option<Option<ErrorEnvelope>> {
        Some(args::parse_with_schema::<T>(arguments.clone()).err())
    }
}

#[cfg(not(feature = "jsonschema"))]
impl<T> SchemaIfAny for T {
    fn with_schema(_: &Value) -> Option<Option<ErrorEnvelope>> {
        None
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any JSON value as the arguments of any of the types above.
    #[test]
    fn no_argument_value_panics(arguments in json_value()) {
        check::<Query>(&arguments)?;
        check::<Search>(&arguments)?;
        check::<Paged>(&arguments)?;
        check::<Draw>(&arguments)?;
        check::<Odd>(&arguments)?;
        check::<Login>(&arguments)?;
        check::<Sorted>(&arguments)?;
    }

    /// Objects whose keys are near the real ones, with any values.
    #[test]
    fn any_object_of_near_keys(entries in prop::collection::vec((key(), json_value()), 0..10)) {
        let arguments = Value::Object(entries.into_iter().collect());
        check::<Search>(&arguments)?;
        check::<Odd>(&arguments)?;
        check::<Draw>(&arguments)?;
    }
}

#[test]
fn deep_nesting_does_not_panic() {
    // Built by hand: `json!` would serialize the nested value recursively.
    let mut deep = json!(1);
    for _ in 0..2_000 {
        deep = Value::Array(vec![deep]);
    }
    let mut filter = serde_json::Map::new();
    filter.insert("columnName".into(), deep.clone());
    let mut arguments = serde_json::Map::new();
    arguments.insert("tableName".into(), json!("T"));
    arguments.insert("filter".into(), Value::Object(filter));
    arguments.insert("rows".into(), Value::Array(vec![deep]));
    let arguments = Value::Object(arguments);
    let envelope = args::parse::<Search>(arguments.clone()).unwrap_err();
    assert_eq!(
        problems(&envelope),
        json!([{"path": "/filter/columnName", "kind": "wrong_type", "expected": "a string", "received": "array"}])
    );
    #[cfg(feature = "jsonschema")]
    {
        let envelope = args::parse_with_schema::<Search>(arguments).unwrap_err();
        assert_eq!(
            problems(&envelope),
            json!([
                {"path": "/filter/minValue", "kind": "missing"},
                {"path": "/filter/columnName", "kind": "wrong_type", "expected": "a string", "received": "array"},
                {"path": "/rows/0", "kind": "wrong_type", "expected": "an object", "received": "array"},
            ])
        );
    }
}

// ---------------------------------------------------------------------------
// Edges pinned by the mutation run (TESTING.md): a known key inside an
// array item, enums with one and with no variant, the length bound on
// near misses, and how serde's first problem merges with the schema's.
// ---------------------------------------------------------------------------

arguments! {
    /// An enum with one variant: the expected value is that name alone.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Single {
        kind: OnlyOne,
    }

    #[derive(Debug, Deserialize)]
    enum OnlyOne {
        Only,
    }

    /// Keys of 100, 256 and 257 characters: a received key longer than
    /// 256 bytes is too long to be a misspelling.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct LongKeys {
        #[serde(rename = "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk")]
        a: Option<u8>,
        #[serde(rename = "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm")]
        b: Option<u8>,
        #[serde(rename = "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn")]
        c: Option<u8>,
    }
}

/// An enum with no variant at all: nothing can be expected.
#[derive(Debug, Deserialize)]
struct Uninhabited {
    #[allow(dead_code)] // only read through Debug
    never: Option<Never>,
}

#[derive(Debug, Deserialize)]
enum Never {}

/// A known key already sent inside an array item is no near miss, and the
/// unknown key's value is found through the array.
#[test]
fn unknown_key_inside_an_array_item() {
    let envelope =
        args::parse::<Search>(json!({"tableName": "T", "rows": [{"id": 1}, {"id": 2, "idd": 3}]}))
            .unwrap_err();
    assert_eq!(
        problems(&envelope),
        json!([{"path": "/rows/1/idd", "kind": "unknown_field", "received": "integer"}])
    );
    let envelope =
        args::parse::<Search>(json!({"tableName": "T", "rows": [{"idd": 3}]})).unwrap_err();
    assert_eq!(
        problems(&envelope),
        json!([{"path": "/rows/0/idd", "kind": "unknown_field", "received": "integer", "suggestions": ["id"]}])
    );
}

#[test]
fn unknown_variant_of_an_enum_with_one_or_no_variant() {
    let envelope = args::parse::<Single>(json!({"kind": "Onyl"})).unwrap_err();
    assert_eq!(
        problems(&envelope),
        json!([{"path": "/kind", "kind": "unknown_variant", "expected": r#""Only""#, "received": "string", "suggestions": ["Only"]}])
    );
    assert_eq!(
        envelope.message,
        r#"1 problem in the arguments: /kind must be "Only" (did you mean "Only"?)"#
    );
    let envelope = args::parse::<Uninhabited>(json!({"never": "x"})).unwrap_err();
    assert_eq!(
        problems(&envelope),
        json!([{"path": "/never", "kind": "unknown_variant", "received": "string"}])
    );
}

/// One character off a long name is a near miss up to 256 bytes, and no
/// longer looked for beyond.
#[test]
fn near_misses_of_long_keys() {
    let cases = [
        (
            "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk",
            'k',
            100,
            true,
        ),
        (
            "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm",
            'm',
            256,
            true,
        ),
        (
            "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn",
            'n',
            257,
            false,
        ),
    ];
    for (name, letter, len, suggested) in cases {
        let key = format!("{}j", letter.to_string().repeat(len - 1));
        let path = format!("/{}…", letter.to_string().repeat(64));
        let mut expected = json!({"path": path, "kind": "unknown_field", "received": "integer"});
        if suggested {
            expected["suggestions"] = json!([name]);
        }
        let arguments = json!({ key: 1 });
        let envelope = args::parse::<LongKeys>(arguments.clone()).unwrap_err();
        assert_eq!(problems(&envelope), json!([expected]), "{len}");
        #[cfg(feature = "jsonschema")]
        {
            let envelope = args::parse_with_schema::<LongKeys>(arguments).unwrap_err();
            assert_eq!(problems(&envelope), json!([expected]), "{len}");
        }
    }
}

/// How serde's first problem joins the schema's problems.
#[cfg(feature = "jsonschema")]
mod merging {
    use super::*;

    arguments! {
        /// Serde refuses `a` (the schema cannot tell); `a` sorts before
        /// `n`, so serde's first problem is at `/a`.
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Checked {
            a: Secretive,
            n: u8,
        }

        /// `b` fails only the schema (a minimum length).
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Lengths {
            a: Secretive,
            #[schemars(length(min = 3))]
            b: String,
        }

        /// The schema of `n` says only "a multiple of 7"; serde says "at
        /// most 255".
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Sevens {
            #[schemars(schema_with = "multiple_of_seven")]
            n: u8,
        }
    }

    fn multiple_of_seven(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"multipleOf": 7})
    }

    fn all<T>(arguments: Value) -> Value
    where
        T: serde::de::DeserializeOwned + schemars::JsonSchema + std::fmt::Debug,
    {
        problems(&args::parse_with_schema::<T>(arguments).expect_err("invalid arguments"))
    }

    /// A problem elsewhere (out of range, or a wrong type that does not
    /// enclose serde's path) keeps serde's problem.
    #[test]
    fn serdes_problem_is_kept_beside_an_unrelated_one() {
        assert_eq!(
            all::<Checked>(json!({"a": "x", "n": 300})),
            json!([
                {"path": "/n", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"},
                {"path": "/a", "kind": "other", "received": "string"},
            ])
        );
        assert_eq!(
            all::<Checked>(json!({"a": "x", "n": "300"})),
            json!([
                {"path": "/n", "kind": "wrong_type", "expected": "an integer", "received": "string"},
                {"path": "/a", "kind": "other", "received": "string"},
            ])
        );
    }

    /// A schema problem of the same kind at another path is not serde's.
    #[test]
    fn same_kind_at_another_path_is_another_problem() {
        assert_eq!(
            all::<Lengths>(json!({"a": "x", "b": "xy"})),
            json!([
                {"path": "/a", "kind": "other", "received": "string"},
                {"path": "/b", "kind": "other", "expected": "a string of at least 3 characters", "received": "string"},
            ])
        );
    }

    /// A vaguer schema problem (`other`) at serde's path gives way to it.
    #[test]
    fn a_vaguer_problem_at_the_same_path_gives_way() {
        assert_eq!(
            all::<Sevens>(json!({"n": 300})),
            json!([{"path": "/n", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}])
        );
    }
}

/// Every JSON Schema keyword the schema side reports, each once, and the
/// `oneOf` / `anyOf` rules, next to a problem only serde finds (`a`, read
/// first), so that serde's problem does not stand in for the schema's.
#[cfg(feature = "jsonschema")]
mod schema_keywords {
    use super::*;

    /// A field whose schema is exactly `$schema` (serde accepts any value).
    macro_rules! schema_fns {
        ($($name:ident = $schema:tt;)*) => {
            $(
                fn $name(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                    schemars::json_schema!($schema)
                }
            )*
        };
    }

    schema_fns! {
        min_length = {"type": "string", "minLength": 3};
        max_length = {"type": "string", "maxLength": 2};
        min_items = {"type": "array", "minItems": 2};
        max_items = {"type": "array", "maxItems": 2};
        min_properties = {"type": "object", "minProperties": 2};
        max_properties = {"type": "object", "maxProperties": 2};
        pattern = {"type": "string", "pattern": "^[A-Z]+$"};
        multiple_of = {"type": "integer", "multipleOf": 7};
        unique_items = {"type": "array", "uniqueItems": true};
        minimum = {"type": "integer", "minimum": 1};
        maximum = {"type": "number", "maximum": 10};
        exclusive_minimum = {"type": "integer", "exclusiveMinimum": 0};
        exclusive_maximum = {"type": ["number", "null"], "exclusiveMaximum": 10};
        both_bounds = {"type": ["integer", "null"], "minimum": 1, "maximum": 5};
    }

    arguments! {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Keywords {
            a: Secretive,
            #[schemars(schema_with = "min_length")]
            b_min_length: Value,
            #[schemars(schema_with = "max_length")]
            c_max_length: Value,
            #[schemars(schema_with = "min_items")]
            d_min_items: Value,
            #[schemars(schema_with = "max_items")]
            e_max_items: Value,
            #[schemars(schema_with = "min_properties")]
            f_min_properties: Value,
            #[schemars(schema_with = "max_properties")]
            g_max_properties: Value,
            #[schemars(schema_with = "pattern")]
            h_pattern: Value,
            #[schemars(schema_with = "multiple_of")]
            j_multiple_of: Value,
            #[schemars(schema_with = "unique_items")]
            k_unique_items: Value,
            #[schemars(schema_with = "minimum")]
            l_minimum: Value,
            #[schemars(schema_with = "maximum")]
            m_maximum: Value,
            #[schemars(schema_with = "exclusive_minimum")]
            n_exclusive_minimum: Value,
            #[schemars(schema_with = "exclusive_maximum")]
            o_exclusive_maximum: Value,
            #[schemars(schema_with = "both_bounds")]
            p_both_bounds: Value,
        }

        /// The alternatives of a `oneOf`, each next to serde's problem.
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Alternatives {
            a: Secretive,
            #[serde(default)]
            documented: Option<Order>,
            #[serde(default)]
            mixed: Option<Mixed>,
            #[serde(default)]
            tagged: Option<Shape>,
        }

        /// A documented unit variant and a newtype variant: a constant or
        /// an object.
        #[derive(Debug, Deserialize)]
        enum Mixed {
            /// The first.
            Alpha,
            /// The second.
            Beta(u8),
        }
    }

    fn all<T>(arguments: Value) -> Value
    where
        T: serde::de::DeserializeOwned + schemars::JsonSchema + std::fmt::Debug,
    {
        problems(&args::parse_with_schema::<T>(arguments).expect_err("invalid arguments"))
    }

    schema_fns! {
        short_strings = {"type": "array", "items": {"type": "string", "maxLength": 1}};
    }

    arguments! {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Bulk {
            a: Secretive,
            #[schemars(schema_with = "short_strings")]
            items: Value,
            zz: u8,
        }
    }

    /// The schema builds 100 problems and only counts the rest: the 101st
    /// (a wrong type, which would be listed first) is counted, not built.
    #[test]
    fn problems_past_the_hundredth_are_counted() {
        let envelope = args::parse_with_schema::<Bulk>(json!({
            "a": "x",
            "items": vec!["xx"; 100],
            "zz": "x",
        }))
        .unwrap_err();
        let listed: Vec<String> = envelope
            .argument_errors
            .iter()
            .map(|problem| problem.path.clone())
            .collect();
        let mut expected = vec![String::from("/a")];
        expected.extend((0..19).map(|i| format!("/items/{i}")));
        assert_eq!(listed, expected);
        let items: Vec<String> = (0..19)
            .map(|i| format!("/items/{i} must be a string of at most 1 characters"))
            .collect();
        assert_eq!(
            envelope.message,
            format!(
                "102 problems in the arguments: /a is invalid; {}; and 82 more",
                items.join("; ")
            )
        );
    }

    #[test]
    fn every_keyword() {
        let found = all::<Keywords>(json!({
            "a": "x",
            "b_min_length": "xy",
            "c_max_length": "xyz",
            "d_min_items": [1],
            "e_max_items": [1, 2, 3],
            "f_min_properties": {"x": 1},
            "g_max_properties": {"x": 1, "y": 2, "z": 3},
            "h_pattern": "abc",
            "j_multiple_of": 8,
            "k_unique_items": [1, 1],
            "l_minimum": 0,
            "m_maximum": 11,
            "n_exclusive_minimum": 0,
            "o_exclusive_maximum": 10,
            "p_both_bounds": 9,
        }));
        let other = |path: &str, expected: &str, received: &str| json!({"path": path, "kind": "other", "expected": expected, "received": received});
        let range = |path: &str, expected: &str| json!({"path": path, "kind": "out_of_range", "expected": expected, "received": "integer"});
        assert_eq!(
            found,
            json!([
                range("/l_minimum", "an integer of at least 1"),
                range("/m_maximum", "a number of at most 10"),
                range("/n_exclusive_minimum", "an integer greater than 0"),
                range("/o_exclusive_maximum", "a number less than 10"),
                range("/p_both_bounds", "an integer from 1 to 5"),
                {"path": "/a", "kind": "other", "received": "string"},
                other("/b_min_length", "a string of at least 3 characters", "string"),
                other("/c_max_length", "a string of at most 2 characters", "string"),
                other("/d_min_items", "an array of at least 2 items", "array"),
                other("/e_max_items", "an array of at most 2 items", "array"),
                other("/f_min_properties", "an object with at least 2 fields", "object"),
                other("/g_max_properties", "an object with at most 2 fields", "object"),
                other("/h_pattern", "a string matching the pattern ^[A-Z]+$", "string"),
                other("/j_multiple_of", "a multiple of 7", "integer"),
                other("/k_unique_items", "an array without duplicate items", "array"),
            ])
        );
    }

    #[test]
    fn alternatives() {
        let found = all::<Alternatives>(json!({
            "a": "x",
            "documented": "asc",
            "mixed": "Alpah",
            "tagged": {"kind": "triangle"},
        }));
        assert_eq!(
            found,
            json!([
                // Every alternative is a constant at the value itself.
                {"path": "/documented", "kind": "unknown_variant", "expected": r#"one of "ascending", "descending""#, "received": "string"},
                // Every alternative is a tag constant at the same key.
                {"path": "/tagged/kind", "kind": "unknown_variant", "expected": r#"one of "circle", "square""#, "received": "string"},
                {"path": "/a", "kind": "other", "received": "string"},
                // One constant, one object: neither fits, nothing common.
                {"path": "/mixed", "kind": "other", "received": "string"},
            ])
        );
        // Both alternatives miss the tag: it is missing.
        let found = all::<Alternatives>(json!({"a": "x", "tagged": {"radius": 1}}));
        assert_eq!(
            found,
            json!([
                {"path": "/tagged/kind", "kind": "missing"},
                {"path": "/a", "kind": "other", "received": "string"},
            ])
        );
    }
}

/// `Args<T>` has exactly `T`'s schema under `T`'s name and id: inside a
/// larger schema it shares `T`'s definition, and an inlined `T` stays
/// inlined.
#[cfg(feature = "jsonschema")]
#[test]
fn args_schema_is_the_argument_types() {
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)] // only its schema is used
    struct Tool {
        checked: args::Args<Query>,
        plain: Query,
        count: args::Args<u32>,
    }
    assert_eq!(
        serde_json::to_value(schemars::schema_for!(Tool)).unwrap(),
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Tool",
            "type": "object",
            "properties": {
                "checked": {"$ref": "#/$defs/Query"},
                "plain": {"$ref": "#/$defs/Query"},
                "count": {"type": "integer", "format": "uint32", "minimum": 0},
            },
            "required": ["checked", "plain", "count"],
            "$defs": {
                "Query": {
                    "description": "The issue's example: a table and a limit.",
                    "type": "object",
                    "properties": {
                        "table": {"type": "string"},
                        "limit": {"type": "integer", "format": "uint32", "minimum": 0},
                    },
                    "required": ["table", "limit"],
                    "additionalProperties": false,
                }
            }
        })
    );
}

/// `Args<T>` never fails to deserialize; it checks with the schema (every
/// problem) when `jsonschema` is on, and with serde (the first problem)
/// when it is off. `.ci/run` runs these tests both ways.
#[cfg(feature = "schemars")]
#[test]
fn args_checks_with_the_enabled_parser() {
    #[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
    struct Pair {
        left: u8,
        right: u8,
    }
    let args::Args(checked) = serde_json::from_value::<args::Args<Pair>>(json!({
        "left": "x",
        "right": -1,
    }))
    .expect("Args reads any JSON value");
    let envelope = checked.expect_err("both fields are wrong");
    #[cfg(feature = "jsonschema")]
    let expected = json!([
        {"path": "/left", "kind": "wrong_type", "expected": "an integer", "received": "string"},
        {"path": "/right", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"},
    ]);
    #[cfg(not(feature = "jsonschema"))]
    let expected = json!([
        {"path": "/left", "kind": "wrong_type", "expected": "an integer", "received": "string"},
    ]);
    assert_eq!(problems(&envelope), expected);
    let args::Args(checked) =
        serde_json::from_value::<args::Args<Pair>>(json!({"left": 1, "right": 2})).unwrap();
    assert_eq!(checked, Ok(Pair { left: 1, right: 2 }));
}

/// An unknown key without a near miss pairs with the missing key of its
/// own object, not with one of another object; a missing key that no
/// rename fills leaves no corrected call, whatever the other problems'
/// fixes. With the schema's check, which reports every problem at once.
#[cfg(all(feature = "schemars", feature = "jsonschema"))]
#[test]
fn args_renames_into_a_missing_key_of_the_same_object_only() {
    #[allow(dead_code)] // only deserialized
    #[derive(Debug, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Meta {
        author: String,
    }
    #[allow(dead_code)] // only deserialized
    #[derive(Debug, Deserialize, schemars::JsonSchema)]
    struct Item {
        count: u8,
        meta: Meta,
        title: String,
    }
    let args::Args(checked) = serde_json::from_value::<args::Args<Item>>(
        json!({"count": 5, "meta": {"writer": "ann"}, "payload": "milk"}),
    )
    .unwrap();
    let envelope = checked.unwrap_err();
    assert_eq!(
        problems(&envelope),
        json!([
            {"path": "/meta/author", "kind": "missing"},
            {"path": "/title", "kind": "missing"},
            {"path": "/meta/writer", "kind": "unknown_field", "received": "string", "suggestions": ["author"]},
            {"path": "/payload", "kind": "unknown_field", "received": "string", "suggestions": ["title"]},
        ])
    );
    assert_eq!(
        envelope.details["corrected_arguments"],
        json!({"count": 5, "meta": {"author": "ann"}, "title": "milk"})
    );
    // The schema requires `title`, serde would default it: the corrected
    // call must send it, and nothing fills it.
    #[allow(dead_code)] // only deserialized
    #[derive(Debug, Deserialize, schemars::JsonSchema)]
    #[schemars(extend("required" = ["count", "title"]))]
    struct Required {
        count: u8,
        #[serde(default)]
        title: String,
    }
    let args::Args(checked) =
        serde_json::from_value::<args::Args<Required>>(json!({"count": "5"})).unwrap();
    let envelope = checked.unwrap_err();
    assert_eq!(
        problems(&envelope),
        json!([
            {"path": "/title", "kind": "missing"},
            {"path": "/count", "kind": "wrong_type", "expected": "an integer", "received": "string"},
        ])
    );
    assert_eq!(envelope.details.get("corrected_arguments"), None);
}

/// A type whose schema takes keys it does not list (a flattened map:
/// `additionalProperties`; a `patternProperties` of its own) keeps them:
/// they are no unknown keys, and only the missing key is a problem.
#[cfg(feature = "schemars")]
#[test]
fn args_leaves_the_keys_an_open_schema_takes() {
    #[allow(dead_code)] // only deserialized
    #[derive(Debug, Deserialize, schemars::JsonSchema)]
    struct Labels {
        title: String,
        #[serde(flatten)]
        labels: BTreeMap<String, String>,
    }
    #[allow(dead_code)] // only deserialized
    #[derive(Debug, Deserialize, schemars::JsonSchema)]
    #[schemars(extend("patternProperties" = {"^x-": {"type": "string"}}))]
    struct Extended {
        title: String,
    }
    let missing_title = json!([{"path": "/title", "kind": "missing"}]);
    let args::Args(checked) =
        serde_json::from_value::<args::Args<Labels>>(json!({"titel": "milk"})).unwrap();
    assert_eq!(problems(&checked.unwrap_err()), missing_title);
    let args::Args(checked) =
        serde_json::from_value::<args::Args<Extended>>(json!({"titel": "milk"})).unwrap();
    assert_eq!(problems(&checked.unwrap_err()), missing_title);
}

/// A misspelled key of a type that takes unknown keys (no
/// `deny_unknown_fields`): the schema does not list it, so it is an
/// unknown key with its near miss, and the corrected call renames it, with
/// either parser.
#[cfg(feature = "schemars")]
#[test]
fn args_names_keys_the_schema_does_not_list() {
    #[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
    struct NewNote {
        title: String,
        #[serde(default)]
        body: Option<String>,
    }
    let args::Args(checked) =
        serde_json::from_value::<args::Args<NewNote>>(json!({"titel": "milk"})).unwrap();
    let envelope = checked.expect_err("title is missing");
    assert_eq!(
        problems(&envelope),
        json!([
            {"path": "/title", "kind": "missing"},
            {"path": "/titel", "kind": "unknown_field", "received": "string", "suggestions": ["title"]},
        ])
    );
    assert_eq!(
        envelope.details["corrected_arguments"],
        json!({"title": "milk"})
    );
    assert_eq!(
        envelope.to_string().lines().next(),
        Some(r#"Call this tool again with these arguments: {"title":"milk"}"#)
    );
    // The one unknown key without a near miss fills the one missing key,
    // beside a key renamed to its near miss.
    let args::Args(checked) =
        serde_json::from_value::<args::Args<NewNote>>(json!({"bdy": "oat", "payload": "milk"}))
            .unwrap();
    let envelope = checked.expect_err("title is missing");
    assert_eq!(
        problems(&envelope),
        json!([
            {"path": "/title", "kind": "missing"},
            {"path": "/bdy", "kind": "unknown_field", "received": "string", "suggestions": ["body"]},
            {"path": "/payload", "kind": "unknown_field", "received": "string", "suggestions": ["title"]},
        ])
    );
    assert_eq!(
        envelope.details["corrected_arguments"],
        json!({"title": "milk", "body": "oat"})
    );
    // Two unknown keys for one missing key: which one is meant is not
    // known, so neither is renamed or suggested.
    let args::Args(checked) =
        serde_json::from_value::<args::Args<NewNote>>(json!({"payload": "milk", "content": "oat"}))
            .unwrap();
    let envelope = checked.expect_err("title is missing");
    assert_eq!(
        problems(&envelope),
        json!([
            {"path": "/title", "kind": "missing"},
            {"path": "/content", "kind": "unknown_field", "received": "string"},
            {"path": "/payload", "kind": "unknown_field", "received": "string"},
        ])
    );
    assert!(envelope.details.is_empty());
    // A key the type ignores is no problem when the arguments are right.
    let args::Args(checked) =
        serde_json::from_value::<args::Args<NewNote>>(json!({"title": "milk", "colour": "red"}))
            .unwrap();
    assert_eq!(
        checked,
        Ok(NewNote {
            title: String::from("milk"),
            body: None
        })
    );
}

// ---------------------------------------------------------------------------
// Values serde reads through a buffer (internally and adjacently tagged
// enums, untagged enums, `flatten`), inside sequences and maps: the exact
// place, from both parsers; where serde cannot see inside (an untagged
// enum), the enclosing value, with no claim about its type.
// ---------------------------------------------------------------------------

arguments! {
    #[derive(Debug, Deserialize)]
    struct Canvas {
        shapes: Vec<Figure>,
        #[serde(default)]
        named: BTreeMap<String, Figure>,
        #[serde(default)]
        layer: Option<Layer>,
        #[serde(default)]
        either: Option<Either>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(tag = "type", rename_all = "lowercase")]
    enum Figure {
        Rect {
            width: u32,
            #[serde(default)]
            size: Option<Dims>,
        },
        Group {
            inner: Mark,
        },
    }

    #[derive(Debug, Deserialize)]
    struct Dims {
        w: u32,
        h: u32,
    }

    #[derive(Debug, Deserialize)]
    #[serde(tag = "type", rename_all = "lowercase")]
    enum Mark {
        Dot { n: u8 },
        Line { a: u8, b: u8 },
        Seg { ends: (u8, u8) },
    }

    #[derive(Debug, Deserialize)]
    #[serde(tag = "t", content = "c")]
    enum Layer {
        Fill { color: String },
        Alpha(u8),
    }

    #[derive(Debug, Deserialize)]
    #[serde(untagged)]
    enum Either {
        Count(u8),
        Named { name: String },
    }

    /// `flatten` of an internally tagged enum: `type` sits next to
    /// `title`.
    #[derive(Debug, Deserialize)]
    struct Framed {
        title: String,
        #[serde(flatten)]
        figure: Figure,
    }

    /// A custom check inside a tagged variant.
    #[derive(Debug, Deserialize)]
    struct Vault {
        guard: Guarded,
    }

    #[derive(Debug, Deserialize)]
    #[serde(tag = "type")]
    enum Guarded {
        Key { token: Secretive },
    }

    /// Integers at and beyond 64 bits.
    #[derive(Debug, Deserialize)]
    struct Wide {
        #[serde(default)]
        a: u64,
        #[serde(default)]
        b: i64,
        #[serde(default)]
        c: u32,
        #[serde(default)]
        d: Option<u128>,
        #[serde(default)]
        e: Option<i128>,
        #[serde(default)]
        f: Option<std::num::NonZeroU32>,
    }
}

/// The problems of both parsers (serde's first problem; with
/// `jsonschema` also every problem the schema finds) as JSON.
fn both<T>(arguments: Value) -> (Value, Option<Value>)
where
    T: serde::de::DeserializeOwned + std::fmt::Debug + SchemaIfAny,
{
    let serde = problems(&args::parse::<T>(arguments.clone()).expect_err("invalid arguments"));
    let schema = T::with_schema(&arguments).map(|envelope| problems(&envelope.expect("invalid")));
    (serde, schema)
}

/// Both parsers report exactly `expected`.
#[track_caller]
fn exactly<T>(arguments: Value, expected: Value)
where
    T: serde::de::DeserializeOwned + std::fmt::Debug + SchemaIfAny,
{
    let (serde, schema) = both::<T>(arguments);
    assert_eq!(serde, expected, "parse");
    if let Some(schema) = schema {
        assert_eq!(schema, expected, "parse_with_schema");
    }
}

#[test]
fn a_field_of_an_internally_tagged_variant() {
    let arguments =
        json!({"shapes": [{"type": "rect", "width": 1}, {"type": "rect", "width": "x"}]});
    let envelope = args::parse::<Canvas>(arguments.clone()).unwrap_err();
    assert_eq!(
        envelope.message,
        "1 problem in the arguments: /shapes/1/width must be an integer, got a string"
    );
    exactly::<Canvas>(
        arguments,
        json!([{"path": "/shapes/1/width", "kind": "wrong_type", "expected": "an integer", "received": "string"}]),
    );
    // An object or null where the integer belongs: the field, not the
    // variant's object.
    exactly::<Canvas>(
        json!({"shapes": [{"type": "rect", "width": {"w": 1}}]}),
        json!([{"path": "/shapes/0/width", "kind": "wrong_type", "expected": "an integer", "received": "object"}]),
    );
    exactly::<Canvas>(
        json!({"shapes": [{"type": "rect", "width": null}]}),
        json!([{"path": "/shapes/0/width", "kind": "wrong_type", "expected": "an integer", "received": "null"}]),
    );
    exactly::<Canvas>(
        json!({"shapes": [{"type": "rect", "width": -1}]}),
        json!([{"path": "/shapes/0/width", "kind": "out_of_range", "expected": "an integer from 0 to 4294967295", "received": "integer"}]),
    );
}

#[test]
fn nested_inside_a_tagged_variant() {
    // A struct inside the variant: its missing field is its own.
    exactly::<Canvas>(
        json!({"shapes": [{"type": "rect", "width": 1, "size": {"w": 1}}]}),
        json!([{"path": "/shapes/0/size/h", "kind": "missing"}]),
    );
    // Objects at three depths; the innermost is the one serde refused.
    exactly::<Canvas>(
        json!({"shapes": [{"type": "rect", "width": 7, "size": {"w": 7, "h": {"x": 7}}}]}),
        json!([{"path": "/shapes/0/size/h", "kind": "wrong_type", "expected": "an integer", "received": "object"}]),
    );
    // A tagged enum inside a tagged enum: its own tag is missing, not the
    // outer one, which was sent.
    exactly::<Canvas>(
        json!({"shapes": [{"type": "group", "inner": {"n": 1}}]}),
        json!([{"path": "/shapes/0/inner/type", "kind": "missing"}]),
    );
    exactly::<Canvas>(
        json!({"shapes": [{"type": "group", "inner": {"type": "line", "a": 1, "b": "2"}}]}),
        json!([{"path": "/shapes/0/inner/b", "kind": "wrong_type", "expected": "an integer", "received": "string"}]),
    );
    exactly::<Canvas>(
        json!({"shapes": [{"type": "group", "inner": {"type": "lin", "a": 1}}]}),
        json!([{"path": "/shapes/0/inner/type", "kind": "unknown_variant", "expected": r#"one of "dot", "line", "seg""#, "received": "string", "suggestions": ["line"]}]),
    );
}

#[test]
fn an_array_of_the_wrong_length_inside_a_tagged_variant() {
    let (serde, schema) = both::<Canvas>(
        json!({"shapes": [{"type": "group", "inner": {"type": "seg", "ends": [1]}}]}),
    );
    assert_eq!(
        serde,
        json!([{"path": "/shapes/0/inner/ends", "kind": "other", "expected": "an array of 2 items", "received": "array"}])
    );
    if let Some(schema) = schema {
        assert_eq!(
            schema,
            json!([{"path": "/shapes/0/inner/ends", "kind": "other", "expected": "an array of at least 2 items", "received": "array"}])
        );
    }
    // Two arrays: serde does not say which; the nearest value holding
    // both, with no claim about it.
    assert_eq!(
        first::<Canvas>(
            json!({"shapes": [{"type": "group", "inner": {"type": "seg", "ends": [1], "x": []}}]})
        ),
        json!([{"path": "/shapes/0/inner", "kind": "other", "received": "object"}])
    );
}

/// serde's own words without the value, inside a buffer: the buffered
/// value is the nearest true place.
#[test]
fn a_custom_check_inside_a_tagged_variant() {
    exactly::<Vault>(
        json!({"guard": {"type": "Key", "token": "hunter2"}}),
        json!([{"path": "/guard", "kind": "other", "received": "object"}]),
    );
    assert_eq!(
        args::parse::<Vault>(json!({"guard": {"type": "Key", "token": "hunter2"}}))
            .unwrap_err()
            .message,
        "1 problem in the arguments: /guard is invalid"
    );
}

/// A tag of the wrong type: a string is expected there.
#[test]
fn a_tag_of_the_wrong_type() {
    assert_eq!(
        first::<Canvas>(json!({"shapes": [{"type": 5, "width": 1}]})),
        json!([{"path": "/shapes/0/type", "kind": "wrong_type", "expected": "a string", "received": "integer"}])
    );
}

/// Where several values fit what serde says, the one whose change moves
/// serde's problem is the place.
#[test]
fn several_candidates_are_told_apart() {
    // The unknown key serde saw, its value an object with the same key
    // (`limit` was sent: no near miss).
    assert_eq!(
        first::<Query>(json!({"table": "T", "limit": 1, "limt": {"limt": 1}})),
        json!([{"path": "/limt", "kind": "unknown_field", "received": "object"}])
    );
    // An unknown variant's name twice in a tagged variant, once in a key
    // serde ignores.
    assert_eq!(
        first::<Canvas>(
            json!({"shapes": [{"type": "group", "inner": {"type": "lin", "a": 1}, "note": "lin"}]})
        ),
        json!([{"path": "/shapes/0/inner/type", "kind": "unknown_variant", "expected": r#"one of "dot", "line", "seg""#, "received": "string", "suggestions": ["line"]}])
    );
    // An externally tagged enum's unknown variant, written as a key.
    assert_eq!(
        first::<Search>(json!({"tableName": "T", "mode": {"FULLSCAN": null}})),
        json!([{"path": "/mode", "kind": "unknown_variant", "expected": r#"one of "FULL_SCAN", "INDEX_ONLY""#, "received": "object", "suggestions": ["FULL_SCAN"]}])
    );
    // More candidates than are tried: one of those tried answers, but an
    // untried one might too, so the place is the buffered value.
    let mut framed = serde_json::Map::new();
    framed.insert("title".into(), json!("t"));
    framed.insert("type".into(), json!("group"));
    framed.insert("inner".into(), json!({"type": "line", "a": 1}));
    for i in 0..20 {
        framed.insert(format!("z{i:02}"), json!({}));
    }
    assert_eq!(
        first::<Framed>(Value::Object(framed.clone())),
        json!([{"path": "", "kind": "other", "received": "object"}])
    );
    // Twenty strings like the wrong width, tried first: none answers, and
    // the place is the buffered value, not the object holding them.
    let mut decoys = serde_json::Map::new();
    for i in 0..20 {
        decoys.insert(format!("k{i:02}"), json!("x"));
    }
    assert_eq!(
        first::<Framed>(json!({"title": "t", "type": "rect", "width": "x", "aa": decoys})),
        json!([{"path": "", "kind": "other", "received": "object"}])
    );
    framed.retain(|key, _| !key.starts_with('z') || key.as_str() < "z10");
    assert_eq!(
        first::<Framed>(Value::Object(framed)),
        json!([{"path": "/inner/b", "kind": "missing"}])
    );
}

#[test]
fn inside_a_map_of_tagged_variants() {
    exactly::<Canvas>(
        json!({"shapes": [], "named": {"a/b": {"type": "rect", "width": 1}, "c": {"type": "rect", "width": true}}}),
        json!([{"path": "/named/c/width", "kind": "wrong_type", "expected": "an integer", "received": "boolean"}]),
    );
}

#[test]
fn adjacently_tagged() {
    // The content before the tag: serde buffers it.
    exactly::<Canvas>(
        json!({"shapes": [], "layer": {"c": {"color": 5}, "t": "Fill"}}),
        json!([{"path": "/layer/c/color", "kind": "wrong_type", "expected": "a string", "received": "integer"}]),
    );
    exactly::<Canvas>(
        json!({"shapes": [], "layer": {"t": "Fill", "c": {"color": 5}}}),
        json!([{"path": "/layer/c/color", "kind": "wrong_type", "expected": "a string", "received": "integer"}]),
    );
    exactly::<Canvas>(
        json!({"shapes": [], "layer": {"t": "Alpha", "c": 300}}),
        json!([{"path": "/layer/c", "kind": "out_of_range", "expected": "an integer from 0 to 255", "received": "integer"}]),
    );
    exactly::<Canvas>(
        json!({"shapes": [], "layer": {"t": "Fill", "c": {}}}),
        json!([{"path": "/layer/c/color", "kind": "missing"}]),
    );
}

#[test]
fn untagged_points_at_the_enum_without_a_wrong_type() {
    let (serde, schema) = both::<Canvas>(json!({"shapes": [], "either": {"name": 5}}));
    // serde tries every variant and tells none: the enum's value is the
    // place, and the message claims nothing about its type.
    assert_eq!(
        serde,
        json!([{"path": "/either", "kind": "other", "received": "object"}])
    );
    assert_eq!(
        args::parse::<Canvas>(json!({"shapes": [], "either": {"name": 5}}))
            .unwrap_err()
            .message,
        "1 problem in the arguments: /either is invalid"
    );
    // The schema knows the one alternative that is an object.
    if let Some(schema) = schema {
        assert_eq!(
            schema,
            json!([{"path": "/either/name", "kind": "wrong_type", "expected": "a string", "received": "integer"}])
        );
    }
}

#[test]
fn flatten_of_a_tagged_enum() {
    // The tag was sent: never "/type is missing".
    exactly::<Framed>(
        json!({"title": "t", "type": "group", "inner": {"n": 1}}),
        json!([{"path": "/inner/type", "kind": "missing"}]),
    );
    // "x" twice: the title is fine, the width is not.
    exactly::<Framed>(
        json!({"title": "x", "type": "rect", "width": "x"}),
        json!([{"path": "/width", "kind": "wrong_type", "expected": "an integer", "received": "string"}]),
    );
    exactly::<Framed>(
        json!({"title": "t", "type": "rect"}),
        json!([{"path": "/width", "kind": "missing"}]),
    );
    exactly::<Framed>(
        json!({"title": "t", "type": "rectangle", "width": 1}),
        json!([{"path": "/type", "kind": "unknown_variant", "expected": r#"one of "rect", "group""#, "received": "string", "suggestions": ["rect"]}]),
    );
}

/// serde_json reads an integer literal beyond 64 bits as a float: it is
/// still an integer, out of the type's range.
#[test]
fn integers_beyond_a_types_range() {
    let wide = |text: &str| -> Value { serde_json::from_str(text).unwrap() };
    let range = |path: &str, expected: &str| json!([{"path": path, "kind": "out_of_range", "expected": expected, "received": "integer"}]);
    let u64_range = "an integer from 0 to 18446744073709551615";
    let i64_range = "an integer from -9223372036854775808 to 9223372036854775807";
    let u32_range = "an integer from 0 to 4294967295";
    for (text, expected) in [
        (r#"{"a": 18446744073709551616}"#, range("/a", u64_range)),
        (
            r#"{"a": 100000000000000000000000000000}"#,
            range("/a", u64_range),
        ),
        (r#"{"a": -1}"#, range("/a", u64_range)),
        (r#"{"b": 9223372036854775808}"#, range("/b", i64_range)),
        (r#"{"b": -9223372036854775809}"#, range("/b", i64_range)),
        (r#"{"c": 4294967296}"#, range("/c", u32_range)),
        (r#"{"c": 18446744073709551616}"#, range("/c", u32_range)),
        (r#"{"c": -1e300}"#, range("/c", u32_range)),
        (r#"{"c": -5.0}"#, range("/c", u32_range)),
        (
            r#"{"d": 340282366920938463463374607431768211456}"#,
            range(
                "/d",
                "an integer from 0 to 340282366920938463463374607431768211455",
            ),
        ),
        (
            r#"{"d": -1}"#,
            range(
                "/d",
                "an integer from 0 to 340282366920938463463374607431768211455",
            ),
        ),
        (
            r#"{"d": 1e39}"#,
            range(
                "/d",
                "an integer from 0 to 340282366920938463463374607431768211455",
            ),
        ),
        (
            r#"{"e": -1e39}"#,
            range(
                "/e",
                "an integer from -170141183460469231731687303715884105728 to 170141183460469231731687303715884105727",
            ),
        ),
    ] {
        exactly::<Wide>(wide(text), expected);
    }
    let envelope = args::parse::<Wide>(wide(r#"{"a": 18446744073709551616}"#)).unwrap_err();
    assert_eq!(
        envelope.message,
        "1 problem in the arguments: /a must be an integer from 0 to 18446744073709551615"
    );
    // A whole number written as a float, and one only a 128-bit type
    // holds, which serde_json cannot read: in range, but not readable.
    assert_eq!(
        first::<Wide>(wide(r#"{"c": 5.0}"#)),
        json!([{"path": "/c", "kind": "other", "expected": "an integer without a fraction or exponent", "received": "integer"}])
    );
    assert_eq!(
        first::<Wide>(wide(r#"{"d": 18446744073709551616}"#)),
        json!([{"path": "/d", "kind": "other", "expected": "an integer from 0 to 18446744073709551615", "received": "integer"}])
    );
    // -9223372036854775809 rounds to the float -2^63: beyond 64 bits too.
    assert_eq!(
        first::<Wide>(wide(r#"{"e": -9223372036854775809}"#)),
        json!([{"path": "/e", "kind": "other", "expected": "an integer from -9223372036854775808 to 18446744073709551615", "received": "integer"}])
    );
    assert_eq!(
        first::<Wide>(wide(r#"{"e": -4611686018427387904.0}"#)),
        json!([{"path": "/e", "kind": "other", "expected": "an integer without a fraction or exponent", "received": "integer"}])
    );
    assert_eq!(
        first::<Wide>(wide(r#"{"b": -5.0}"#)),
        json!([{"path": "/b", "kind": "other", "expected": "an integer without a fraction or exponent", "received": "integer"}])
    );
    // In a type's bounds but refused: a nonzero type's 0.
    exactly::<Wide>(
        json!({"f": 0}),
        json!([{"path": "/f", "kind": "out_of_range", "expected": "an integer from 1 to 4294967295", "received": "integer"}]),
    );
    // `invalid value` of a string is no range.
    #[derive(Debug, Deserialize)]
    struct Letter {
        #[allow(dead_code)] // only read through Debug
        c: char,
    }
    assert_eq!(
        first::<Letter>(json!({"c": "ab"})),
        json!([{"path": "/c", "kind": "other", "expected": "a string of one character", "received": "string"}])
    );
    // A fraction is a wrong type.
    exactly::<Wide>(
        wide(r#"{"c": 1.5}"#),
        json!([{"path": "/c", "kind": "wrong_type", "expected": "an integer", "received": "number"}]),
    );
    // Inside a tagged variant too.
    exactly::<Canvas>(
        wide(r#"{"shapes": [{"type": "rect", "width": 18446744073709551616}]}"#),
        range("/shapes/0/width", u32_range),
    );
    assert_eq!(args::json_type(&wide("18446744073709551616")), "integer");
    assert_eq!(args::json_type(&json!(5.0)), "integer");
    assert_eq!(args::json_type(&json!(5.5)), "number");
}

/// Every problem at once with a schema: each integer out of its type's
/// range, the 64-bit ones included.
#[cfg(feature = "jsonschema")]
#[test]
fn integers_beyond_range_all_at_once() {
    let arguments: Value = serde_json::from_str(
        r#"{"a": 18446744073709551616, "b": 9223372036854775808, "c": 4294967296}"#,
    )
    .unwrap();
    let envelope = args::parse_with_schema::<Wide>(arguments).unwrap_err();
    assert_eq!(
        problems(&envelope),
        json!([
            {"path": "/a", "kind": "out_of_range", "expected": "an integer from 0 to 18446744073709551615", "received": "integer"},
            {"path": "/b", "kind": "out_of_range", "expected": "an integer from -9223372036854775808 to 9223372036854775807", "received": "integer"},
            {"path": "/c", "kind": "out_of_range", "expected": "an integer from 0 to 4294967295", "received": "integer"},
        ])
    );
}

// ---------------------------------------------------------------------------
// Valid arguments of buffered shapes with one fault injected: every
// problem reported is at or above the fault, and one names it.
// ---------------------------------------------------------------------------

mod injected {
    use super::*;

    arguments! {
        #[derive(Debug, Deserialize)]
        struct Root {
            name: String,
            #[serde(flatten)]
            body: Body,
            items: Vec<Item>,
            #[serde(default)]
            map: BTreeMap<String, Leaf>,
            either: Either,
            adj: Adj,
        }

        #[derive(Debug, Deserialize)]
        #[serde(tag = "type")]
        enum Body {
            Plain { level: u8 },
            Nested {
                leaf: Leaf,
                #[serde(flatten)]
                extra: Extra,
            },
        }

        #[derive(Debug, Deserialize)]
        struct Extra {
            count: u32,
        }

        #[derive(Debug, Deserialize)]
        #[serde(tag = "kind")]
        enum Item {
            One { leaf: Leaf },
            Two { leaves: Vec<Leaf>, label: String },
        }

        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Leaf {
            n: u8,
            flag: bool,
        }

        #[derive(Debug, Deserialize)]
        #[serde(untagged)]
        enum Either {
            Leaf(Leaf),
            Text(String),
        }

        #[derive(Debug, Deserialize)]
        #[serde(tag = "t", content = "c")]
        enum Adj {
            A { leaf: Leaf },
            B(u8),
        }
    }

    fn leaf() -> impl Strategy<Value = Value> {
        (any::<u8>(), any::<bool>()).prop_map(|(n, flag)| json!({"n": n, "flag": flag}))
    }

    fn text() -> impl Strategy<Value = String> {
        "[a-z]{0,3}"
    }

    /// A valid `Root`.
    fn root() -> impl Strategy<Value = Value> {
        let body = prop_oneof![
            any::<u8>().prop_map(|level| json!({"type": "Plain", "level": level})),
            (leaf(), any::<u32>())
                .prop_map(|(leaf, count)| json!({"type": "Nested", "leaf": leaf, "count": count})),
        ];
        let item = prop_oneof![
            leaf().prop_map(|leaf| json!({"kind": "One", "leaf": leaf})),
            (prop::collection::vec(leaf(), 0..3), text()).prop_map(
                |(leaves, label)| json!({"kind": "Two", "leaves": leaves, "label": label})
            ),
        ];
        let either = prop_oneof![leaf(), text().prop_map(Value::from)];
        let adj = prop_oneof![
            leaf().prop_map(|leaf| json!({"t": "A", "c": {"leaf": leaf}})),
            any::<u8>().prop_map(|n| json!({"t": "B", "c": n})),
        ];
        (
            text(),
            body,
            prop::collection::vec(item, 0..3),
            prop::collection::btree_map("[a-z]{1,3}", leaf(), 0..3),
            either,
            adj,
        )
            .prop_map(|(name, body, items, map, either, adj)| {
                let mut root =
                    json!({"name": name, "items": items, "map": map, "either": either, "adj": adj});
                let object = root.as_object_mut().unwrap();
                for (key, value) in body.as_object().unwrap() {
                    object.insert(key.clone(), value.clone());
                }
                root
            })
    }

    /// One way to break the arguments at `tokens`, and the kind of
    /// problem it is.
    #[derive(Debug, Clone)]
    enum Fault {
        Replace(Value, &'static str),
        Remove,
    }

    /// Every fault that can be injected into `value` (valid `Root`
    /// arguments), by the field it hits.
    fn faults(root: &Value) -> Vec<(Vec<String>, Fault)> {
        let mut faults = Vec::new();
        let mut stack = vec![(Vec::<String>::new(), root)];
        while let Some((tokens, value)) = stack.pop() {
            let key = tokens.last().map(String::as_str).unwrap_or("");
            let in_map = tokens.len() == 2 && tokens[0] == "map";
            match value {
                Value::Object(object) => {
                    // A `Leaf` refuses unknown keys.
                    if object.contains_key("n") && object.contains_key("flag") {
                        let mut inner = tokens.clone();
                        inner.push(String::from("nn"));
                        faults.push((inner, Fault::Replace(json!(1), "unknown_field")));
                    }
                    for (k, v) in object {
                        let mut inner = tokens.clone();
                        inner.push(k.clone());
                        // Every key is required but `map` (and its
                        // entries, whose keys are free).
                        let free = (tokens.len() == 1 && tokens[0] == "map")
                            || (tokens.is_empty() && k == "map");
                        if !free {
                            faults.push((inner.clone(), Fault::Remove));
                        }
                        stack.push((inner, v));
                    }
                }
                Value::Array(items) => {
                    for (i, v) in items.iter().enumerate() {
                        let mut inner = tokens.clone();
                        inner.push(i.to_string());
                        stack.push((inner, v));
                    }
                }
                Value::Number(_) => {
                    let wide = key == "count";
                    faults.push((tokens.clone(), Fault::Replace(json!("x"), "wrong_type")));
                    let out = if wide { json!(-1) } else { json!(300) };
                    faults.push((tokens.clone(), Fault::Replace(out, "out_of_range")));
                    if !wide {
                        faults.push((tokens.clone(), Fault::Replace(json!(-1), "out_of_range")));
                    }
                    let beyond: Value = serde_json::from_str("18446744073709551616").unwrap();
                    faults.push((tokens.clone(), Fault::Replace(beyond, "out_of_range")));
                }
                Value::Bool(_) => {
                    faults.push((tokens.clone(), Fault::Replace(json!(1), "wrong_type")));
                }
                Value::String(_) if matches!(key, "type" | "kind" | "t") && !in_map => {
                    faults.push((
                        tokens.clone(),
                        Fault::Replace(json!("Zzz"), "unknown_variant"),
                    ));
                }
                Value::String(_) => {
                    faults.push((tokens.clone(), Fault::Replace(json!(5), "wrong_type")));
                }
                Value::Null => {}
            }
        }
        faults
    }

    fn inject(root: &Value, tokens: &[String], fault: &Fault) -> Value {
        let mut broken = root.clone();
        let (last, parent) = tokens.split_last().unwrap();
        let mut at = &mut broken;
        for token in parent {
            at = match at {
                Value::Object(map) => map.get_mut(token).unwrap(),
                Value::Array(items) => &mut items[token.parse::<usize>().unwrap()],
                _ => unreachable!(),
            };
        }
        match (at, fault) {
            (Value::Object(map), Fault::Remove) => {
                map.remove(last);
            }
            (Value::Object(map), Fault::Replace(value, _)) => {
                map.insert(last.clone(), value.clone());
            }
            (Value::Array(items), Fault::Replace(value, _)) => {
                items[last.parse::<usize>().unwrap()] = value.clone();
            }
            _ => unreachable!(),
        }
        broken
    }

    /// Whether the pointer `outer` is `inner` or one of its ancestors.
    fn at_or_above(outer: &str, inner: &str) -> bool {
        inner
            .strip_prefix(outer)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    }

    fn check(
        envelope: &ErrorEnvelope,
        fault_path: &str,
        kind: &str,
        exact: bool,
    ) -> Result<(), TestCaseError> {
        let problems = &envelope.argument_errors;
        prop_assert!(!problems.is_empty());
        for problem in problems {
            prop_assert!(
                at_or_above(&problem.path, fault_path),
                "{} is not at or above the fault at {}: {:?}",
                problem.path,
                fault_path,
                problems
            );
            // Only the fault's own problem may be at its path (an untagged
            // enum is `other`: serde tells no more).
            if problem.path == fault_path && exact {
                prop_assert_eq!(problem.kind.as_str(), kind, "{:?}", problems);
            }
        }
        // One problem names the fault: at its path, or (inside an untagged
        // enum, which serde cannot see into) at the enum.
        if exact {
            prop_assert!(
                problems
                    .iter()
                    .any(|p| p.path == fault_path && p.kind.as_str() == kind),
                "no {} at {}: {:?}",
                kind,
                fault_path,
                problems
            );
        }
        Ok(())
    }

    /// An unknown key in two objects of a tagged variant: the one that
    /// refuses it.
    #[test]
    fn an_unknown_key_where_two_objects_hold_it() {
        let arguments = json!({
            "name": "n", "type": "Plain", "level": 1,
            "items": [{"kind": "Two", "leaves": [{"n": 1, "flag": true, "nn": 1}], "label": "x", "extra": {"nn": 2}}],
            "either": "e", "adj": {"t": "B", "c": 1},
        });
        assert_eq!(
            first::<Root>(arguments),
            json!([{"path": "/items/0/leaves/0/nn", "kind": "unknown_field", "received": "integer"}])
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn every_problem_is_at_or_above_the_injected_fault(
            (root, pick) in root().prop_flat_map(|root| {
                let count = faults(&root).len();
                (Just(root), 0..count)
            })
        ) {
            prop_assert!(args::parse::<Root>(root.clone()).is_ok(), "valid: {}", root);
            let (tokens, fault) = faults(&root)[pick].clone();
            let broken = inject(&root, &tokens, &fault);
            let fault_path = args::pointer(&tokens);
            let kind = match &fault {
                Fault::Remove => "missing",
                Fault::Replace(_, kind) => kind,
            };
            let untagged = tokens.first().map(String::as_str) == Some("either");
            let envelope = args::parse::<Root>(broken.clone()).expect_err("the fault is found");
            check(&envelope, &fault_path, kind, !untagged)?;
            if let Some(envelope) = Root::with_schema(&broken) {
                let envelope = envelope.expect("the fault is found");
                check(&envelope, &fault_path, kind, !untagged)?;
            }
        }
    }
}
