//! Reading stays forward compatible: envelopes written by other
//! implementations (Go's `null` slices, pydantic's `null` for every unset
//! field, Python's float milliseconds) read leniently, no JSON value makes
//! reading panic, and writing stays strict.

use envelope_core::{Effect, Envelope, ErrorClass, ErrorEnvelope, ToolResult, UserErrorCategory};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Every key an envelope has on the wire, in the order it is written.
const KEYS: [&str; 13] = [
    "isError",
    "error_class",
    "message",
    "ora_code",
    "suggested_tool",
    "fuzzy_matches",
    "next_steps",
    "retry_after_ms",
    "code",
    "category",
    "retryable",
    "help_url",
    "details",
];

/// The keys that may be left out (all but `error_class` and `message`).
const OPTIONAL: [&str; 11] = [
    "isError",
    "ora_code",
    "suggested_tool",
    "fuzzy_matches",
    "next_steps",
    "retry_after_ms",
    "code",
    "category",
    "retryable",
    "help_url",
    "details",
];

fn read(text: &str) -> ErrorEnvelope {
    serde_json::from_str(text).unwrap()
}

/// The envelope's fields in a struct the tests can build: the fields are
/// read-only outside the crate (see `ErrorEnvelope`), so an expected
/// envelope is written as `Fields { .., ..bare_busy() }` and a read one
/// taken apart with [`fields`]. Every field is compared.
#[derive(Debug, Clone, PartialEq)]
struct Fields {
    is_error: bool,
    error_class: ErrorClass,
    message: String,
    ora_code: Option<i32>,
    suggested_tool: Option<String>,
    fuzzy_matches: Vec<String>,
    next_steps: Vec<String>,
    retry_after_ms: Option<u64>,
    code: Option<std::borrow::Cow<'static, str>>,
    category: Option<UserErrorCategory>,
    retryable: bool,
    effect: Effect,
    correlation_id: Option<String>,
    help_url: Option<String>,
    details: Map<String, Value>,
    argument_errors: Vec<envelope_core::ArgumentError>,
}

impl PartialEq<Fields> for ErrorEnvelope {
    fn eq(&self, expected: &Fields) -> bool {
        fields(self.clone()) == *expected
    }
}

fn fields(envelope: ErrorEnvelope) -> Fields {
    let f = envelope.into_fields();
    Fields {
        is_error: f.is_error,
        error_class: f.error_class,
        message: f.message,
        ora_code: f.ora_code,
        suggested_tool: f.suggested_tool,
        fuzzy_matches: f.fuzzy_matches,
        next_steps: f.next_steps,
        retry_after_ms: f.retry_after_ms,
        code: f.code,
        category: f.category,
        retryable: f.retryable,
        effect: f.effect,
        correlation_id: f.correlation_id,
        help_url: f.help_url,
        details: f.details,
        argument_errors: f.argument_errors,
    }
}

fn read_err(text: &str) -> String {
    serde_json::from_str::<ErrorEnvelope>(text)
        .unwrap_err()
        .to_string()
}

/// `BUSY` / `"m"` with nothing else set: what every optional key reads as
/// when it is `null` (but `retryable`, which is the class's default then).
fn bare_busy() -> Fields {
    Fields {
        is_error: true,
        error_class: ErrorClass::Busy,
        message: "m".into(),
        ora_code: None,
        suggested_tool: None,
        fuzzy_matches: Vec::new(),
        next_steps: Vec::new(),
        retry_after_ms: None,
        code: None,
        category: None,
        retryable: false,
        effect: Effect::Nothing,
        correlation_id: None,
        help_url: None,
        details: Map::new(),
        argument_errors: Vec::new(),
    }
}

// ---------------------------------------------------------------------------
// Exact values for each input the issue lists.
// ---------------------------------------------------------------------------

#[test]
fn go_nil_slices_and_pointers_read_as_empty() {
    let env = read(
        r#"{"isError":true,"error_class":"BUSY","message":"m","fuzzy_matches":null,"next_steps":null,"details":null,"retryable":null,"suggested_tool":null}"#,
    );
    assert_eq!(
        env,
        Fields {
            retryable: true, // BUSY is retryable: `null` takes the class's default
            ..bare_busy()
        }
    );
    assert_eq!(
        env.to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"m","retryable":true}"#
    );
}

#[test]
fn pydantic_null_for_every_unset_field() {
    let env = read(
        r#"{"isError":null,"error_class":"OBJECT_NOT_FOUND","message":"m","ora_code":null,"suggested_tool":null,"fuzzy_matches":null,"next_steps":null,"retry_after_ms":null,"code":null,"category":null,"retryable":null,"help_url":null,"details":null}"#,
    );
    assert_eq!(
        env,
        Fields {
            error_class: ErrorClass::ObjectNotFound,
            retryable: false, // OBJECT_NOT_FOUND is not retryable
            ..bare_busy()
        }
    );
    assert_eq!(
        env.to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"m"}"#
    );
}

#[test]
fn each_optional_null_reads_as_none() {
    for key in [
        "code",
        "category",
        "help_url",
        "ora_code",
        "retry_after_ms",
        "suggested_tool",
    ] {
        let text = format!(r#"{{"isError":true,"error_class":"BUSY","message":"m","{key}":null}}"#);
        assert_eq!(read(&text), bare_busy(), "{key}");
    }
}

#[test]
fn python_float_milliseconds_read_as_integers() {
    let env = read(
        r#"{"isError":true,"error_class":"BUSY","message":"m","retry_after_ms":1500.0,"ora_code":942.0}"#,
    );
    assert_eq!(
        env,
        Fields {
            ora_code: Some(942),
            retry_after_ms: Some(1500),
            ..bare_busy()
        }
    );
    // Written back as integers.
    assert_eq!(
        env.to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"m","ora_code":942,"retry_after_ms":1500}"#
    );
    // Negative codes and the ends of each range.
    let env = read(
        r#"{"error_class":"BUSY","message":"m","ora_code":-2147483648.0,"retry_after_ms":0.0}"#,
    );
    assert_eq!(env.ora_code, Some(i32::MIN));
    assert_eq!(env.retry_after_ms, Some(0));
    let env = read(
        r#"{"error_class":"BUSY","message":"m","ora_code":-3,"retry_after_ms":18446744073709551615}"#,
    );
    assert_eq!(env.ora_code, Some(-3));
    assert_eq!(env.retry_after_ms, Some(u64::MAX));
}

#[test]
fn fractions_negatives_and_huge_numbers_name_the_field() {
    let prefix = r#"{"isError":true,"error_class":"BUSY","message":"m","#;
    let cases = [
        (
            r#""retry_after_ms":1500.5}"#,
            "invalid value: floating point `1500.5`, expected `retry_after_ms` as a whole number from 0 to 18446744073709551615 at line 1 column 74",
        ),
        (
            r#""retry_after_ms":-3}"#,
            "invalid value: integer `-3`, expected `retry_after_ms` as a whole number from 0 to 18446744073709551615 at line 1 column 70",
        ),
        (
            r#""retry_after_ms":-3.0}"#,
            "invalid value: floating point `-3.0`, expected `retry_after_ms` as a whole number from 0 to 18446744073709551615 at line 1 column 72",
        ),
        (
            r#""retry_after_ms":1e30}"#,
            "invalid value: floating point `1e+30`, expected `retry_after_ms` as a whole number from 0 to 18446744073709551615 at line 1 column 72",
        ),
        (
            r#""retry_after_ms":"1500"}"#,
            "invalid type: string \"1500\", expected `retry_after_ms` as a whole number from 0 to 18446744073709551615 at line 1 column 74",
        ),
        (
            r#""ora_code":942.5}"#,
            "invalid value: floating point `942.5`, expected `ora_code` as a whole number from -2147483648 to 2147483647 at line 1 column 67",
        ),
        (
            r#""ora_code":1e30}"#,
            "invalid value: floating point `1e+30`, expected `ora_code` as a whole number from -2147483648 to 2147483647 at line 1 column 66",
        ),
        (
            r#""ora_code":2147483648}"#,
            "invalid value: integer `2147483648`, expected `ora_code` as a whole number from -2147483648 to 2147483647 at line 1 column 72",
        ),
    ];
    for (tail, expected) in cases {
        assert_eq!(read_err(&format!("{prefix}{tail}")), expected);
    }
    // Through a `Value` (no position).
    let err = serde_json::from_value::<ErrorEnvelope>(
        json!({"error_class": "BUSY", "message": "m", "retry_after_ms": 1500.5}),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid value: floating point `1500.5`, expected `retry_after_ms` as a whole number from 0 to 18446744073709551615"
    );
}

#[test]
fn is_error_null_or_missing_reads_true_and_false_is_kept() {
    assert_eq!(
        read(r#"{"isError":null,"error_class":"BUSY","message":"m"}"#),
        bare_busy()
    );
    assert_eq!(read(r#"{"error_class":"BUSY","message":"m"}"#), bare_busy());
    let env = read(r#"{"isError":false,"error_class":"BUSY","message":"m"}"#);
    assert_eq!(
        env,
        Fields {
            is_error: false,
            ..bare_busy()
        }
    );
    assert_eq!(
        env.to_json_string(),
        r#"{"isError":false,"error_class":"BUSY","message":"m"}"#
    );
}

/// Missing `retryable` is `false` (how `false` is written); `null` is the
/// class's default; a boolean is kept.
#[test]
fn retryable_missing_null_and_given() {
    let busy = |tail: &str| read(&format!(r#"{{"error_class":"BUSY","message":"m"{tail}}}"#));
    assert!(!busy("").retryable);
    assert!(busy(r#","retryable":null"#).retryable);
    assert!(!busy(r#","retryable":false"#).retryable);
    assert!(busy(r#","retryable":true"#).retryable);
    let gone = |tail: &str| {
        read(&format!(
            r#"{{"error_class":"OBJECT_NOT_FOUND","message":"m"{tail}}}"#
        ))
    };
    assert!(!gone("").retryable);
    assert!(!gone(r#","retryable":null"#).retryable);
    assert!(gone(r#","retryable":true"#).retryable);

    // Byte-identical round trip of a seed-shaped envelope.
    let text = r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"m"}"#;
    assert_eq!(read(text).to_json_string(), text);
    let text = r#"{"isError":true,"error_class":"BUSY","message":"m"}"#;
    assert_eq!(read(text).to_json_string(), text);

    // A BUSY envelope whose retryable was turned off reads back off.
    let env = ErrorEnvelope::new(ErrorClass::Busy, "m").with_retryable(false);
    assert_eq!(read(&env.to_json_string()), env);
    assert_eq!(
        read(&ErrorEnvelope::new(ErrorClass::Busy, "m").to_json_string()),
        ErrorEnvelope::new(ErrorClass::Busy, "m")
    );
}

#[test]
fn required_keys_and_shape_errors_are_unchanged() {
    assert_eq!(
        read_err("5"),
        "invalid type: integer `5`, expected struct ErrorEnvelope at line 1 column 1"
    );
    assert_eq!(
        read_err(r#"{"error_class":"BUSY","message":null}"#),
        "invalid type: null, expected a string at line 1 column 36"
    );
    assert_eq!(
        read_err(r#"{"error_class":"BUSY","message":"m","message":"n"}"#),
        "duplicate field `message` at line 1 column 45"
    );
    assert_eq!(
        read_err(r#"{"error_class":"BUSY","message":"m","fuzzy_matches":[null]}"#),
        "invalid type: null, expected a string at line 1 column 57"
    );
}

#[test]
fn tool_result_null_is_error_reads_false() {
    let expected = ToolResult {
        tool_call_id: "a".into(),
        content: "b".into(),
        is_error: false,
        error_category: None,
    };
    let read_tool = |text: &str| serde_json::from_str::<ToolResult>(text).unwrap();
    assert_eq!(
        read_tool(r#"{"tool_call_id":"a","content":"b","is_error":null}"#),
        expected
    );
    assert_eq!(
        read_tool(r#"{"tool_call_id":"a","content":"b","is_error":null,"error_category":null}"#),
        expected
    );
    assert_eq!(
        read_tool(r#"{"tool_call_id":"a","content":"b","is_error":false,"error_category":null}"#),
        expected
    );
    assert_eq!(
        read_tool(
            r#"{"tool_call_id":"a","content":"b","is_error":true,"error_category":"RateLimited","x":[1]}"#
        ),
        ToolResult {
            is_error: true,
            error_category: Some(UserErrorCategory::Unknown),
            ..expected.clone()
        }
    );
    // Still required, as in multi-llm; writing is unchanged.
    assert_eq!(
        serde_json::from_str::<ToolResult>(r#"{"tool_call_id":"a","content":"b"}"#)
            .unwrap_err()
            .to_string(),
        "missing field `is_error` at line 1 column 34"
    );
    assert_eq!(
        serde_json::to_string(&expected).unwrap(),
        r#"{"tool_call_id":"a","content":"b","is_error":false,"error_category":null}"#
    );
}

/// The derived schema still describes the written form: the `deserialize`
/// changes leave every property and both `required` lists as they were.
#[cfg(feature = "schemars")]
#[test]
fn json_schema_is_unchanged() {
    fn without_descriptions(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.remove("description");
                map.values_mut().for_each(without_descriptions);
            }
            Value::Array(items) => items.iter_mut().for_each(without_descriptions),
            _ => {}
        }
    }
    let schema = |serialize: bool| {
        let settings = schemars::generate::SchemaSettings::default();
        let settings = if serialize {
            settings.for_serialize()
        } else {
            settings
        };
        let mut envelope = settings
            .clone()
            .into_generator()
            .into_root_schema_for::<ErrorEnvelope>()
            .to_value();
        let mut tool = settings
            .into_generator()
            .into_root_schema_for::<ToolResult>()
            .to_value();
        without_descriptions(&mut envelope);
        without_descriptions(&mut tool);
        (envelope, tool)
    };
    let nullable = |ty: &str| json!({"type": [ty, "null"]});
    let strings = json!({"type": "array", "items": {"type": "string"}});
    let (envelope, tool) = schema(false);
    assert_eq!(
        envelope["properties"],
        json!({
            "isError": {"type": "boolean", "const": true, "default": true},
            "error_class": {"$ref": "#/$defs/ErrorClass"},
            "message": {"type": "string"},
            "ora_code": {"type": ["integer", "null"], "format": "int32"},
            "suggested_tool": nullable("string"),
            "fuzzy_matches": strings,
            "next_steps": strings,
            "retry_after_ms": {"type": ["integer", "null"], "format": "uint64", "minimum": 0},
            "code": nullable("string"),
            "category": {"anyOf": [{"$ref": "#/$defs/UserErrorCategory"}, {"type": "null"}]},
            "retryable": {"type": "boolean"},
            "effect": {"$ref": "#/$defs/Effect"},
            "correlation_id": nullable("string"),
            "help_url": nullable("string"),
            "details": {"type": "object", "additionalProperties": true},
            "argument_errors": {"type": "array", "items": {"$ref": "#/$defs/ArgumentError"}},
        })
    );
    assert_eq!(envelope["required"], json!(["error_class", "message"]));
    assert_eq!(
        tool["properties"],
        json!({
            "tool_call_id": {"type": "string"},
            "content": {"type": "string"},
            "is_error": {"type": "boolean"},
            "error_category": {
                "anyOf": [{"$ref": "#/$defs/UserErrorCategory"}, {"type": "null"}],
                "default": null
            },
        })
    );
    assert_eq!(
        tool["required"],
        json!(["tool_call_id", "content", "is_error"])
    );
    let (envelope, tool) = schema(true);
    assert_eq!(
        envelope["required"],
        json!(["isError", "error_class", "message"])
    );
    assert_eq!(
        tool["required"],
        json!(["tool_call_id", "content", "is_error", "error_category"])
    );
}

// ---------------------------------------------------------------------------
// Properties.
// ---------------------------------------------------------------------------

/// Wire names of every class and category, so generated values hit them.
fn wire_name() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = ErrorClass::ALL
        .iter()
        .map(|class| class.as_str())
        .chain(
            UserErrorCategory::ALL
                .iter()
                .map(|category| category.as_str()),
        )
        .collect();
    prop::sample::select(names).prop_map(String::from)
}

/// A key: one the envelope knows, or any string.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(KEYS.to_vec()).prop_map(String::from),
        any::<String>(),
    ]
}

/// Any JSON value: null, booleans, integers, floats (whole ones too),
/// strings, and arrays and objects of those, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from), // NaN and infinities become null
        (-1e12..1e12f64).prop_map(|f| Value::from(f.trunc())),
        any::<String>().prop_map(Value::String),
        wire_name().prop_map(Value::String),
        prop::collection::vec(any::<String>().prop_map(Value::String), 0..3).prop_map(Value::Array),
    ];
    leaf.prop_recursive(3, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// A valid envelope object with every key set.
fn full_envelope() -> Map<String, Value> {
    let Value::Object(map) = json!({
        "isError": true,
        "error_class": "PRECONDITION_FAILED",
        "message": "no lease held",
        "ora_code": -1,
        "suggested_tool": "acquire_lease",
        "fuzzy_matches": ["lease_a"],
        "next_steps": ["call acquire_lease"],
        "retry_after_ms": 10,
        "code": "LEASE_REQUIRED",
        "category": "MissingContext",
        "retryable": true,
        "help_url": "https://example.com/errors/lease",
        "details": {"attempt": 3},
    }) else {
        unreachable!()
    };
    map
}

/// Whatever reads, writes back in a form that reads back the same. (Through
/// a `Value`: `serde_json`'s default float parsing may move a float in
/// `details` by one ulp when it goes through text.)
fn assert_stable(env: &ErrorEnvelope) -> Result<(), TestCaseError> {
    let again: ErrorEnvelope = serde_json::from_value(env.to_json())
        .map_err(|err| TestCaseError::fail(err.to_string()))?;
    prop_assert_eq!(&again, env);
    Ok(())
}

proptest! {
    /// Any value in any key's place: reading never panics, and what reads
    /// is stable under writing.
    #[test]
    fn any_value_in_any_field(index in 0..KEYS.len(), value in json_value()) {
        let mut object = full_envelope();
        object.insert(KEYS[index].to_owned(), value);
        let text = Value::Object(object.clone()).to_string();
        if let Ok(env) = serde_json::from_value::<ErrorEnvelope>(Value::Object(object)) {
            assert_stable(&env)?;
        }
        if let Ok(env) = serde_json::from_str::<ErrorEnvelope>(&text) {
            assert_stable(&env)?;
        }
    }

    /// `null` in an optional key reads as if the key were missing, except
    /// `retryable`, whose `null` is the class's default.
    #[test]
    fn null_is_missing(index in 0..OPTIONAL.len(), class in prop::sample::select(ErrorClass::ALL.to_vec())) {
        let key = OPTIONAL[index];
        let mut object = full_envelope();
        object.insert("error_class".into(), Value::from(class.as_str()));
        object.insert(key.into(), Value::Null);
        let with_null: ErrorEnvelope = serde_json::from_value(Value::Object(object.clone())).unwrap();
        object.remove(key);
        let missing: ErrorEnvelope = serde_json::from_value(Value::Object(object)).unwrap();
        if key == "retryable" {
            prop_assert!(!missing.retryable);
            prop_assert_eq!(with_null.retryable, class.is_retryable());
            prop_assert_eq!(Fields { retryable: false, ..fields(with_null) }, fields(missing));
        } else {
            prop_assert_eq!(with_null, missing);
        }
    }

    /// Any object at all: reading an envelope or a tool result never panics.
    #[test]
    fn any_object(entries in prop::collection::vec((key(), json_value()), 0..8)) {
        let object = Value::Object(entries.into_iter().collect());
        if let Ok(env) = serde_json::from_value::<ErrorEnvelope>(object.clone()) {
            assert_stable(&env)?;
        }
        let _ = serde_json::from_value::<ToolResult>(object.clone());
        let _ = serde_json::from_str::<ErrorEnvelope>(&object.to_string());
    }

    /// Keys the envelope does not know are ignored, whatever they hold.
    #[test]
    fn unknown_keys_are_ignored(extra in prop::collection::vec((any::<String>(), json_value()), 0..6)) {
        let mut object = full_envelope();
        let expected: ErrorEnvelope = serde_json::from_value(Value::Object(object.clone())).unwrap();
        for (key, value) in extra {
            if !KEYS.contains(&key.as_str()) {
                object.insert(key, value);
            }
        }
        let env: ErrorEnvelope = serde_json::from_value(Value::Object(object)).unwrap();
        prop_assert_eq!(env, expected);
    }

    /// A class or category this version does not know reads as `Unknown`.
    #[test]
    fn unknown_names_read_as_unknown(name in prop_oneof![any::<String>(), wire_name()]) {
        let mut object = full_envelope();
        object.insert("error_class".into(), Value::from(name.as_str()));
        object.insert("category".into(), Value::from(name.as_str()));
        let env: ErrorEnvelope = serde_json::from_value(Value::Object(object)).unwrap();
        let class = ErrorClass::ALL.iter().copied().find(|class| class.as_str() == name);
        prop_assert_eq!(env.error_class, class.unwrap_or(ErrorClass::Unknown));
        let category = UserErrorCategory::ALL.iter().copied().find(|category| category.as_str() == name);
        prop_assert_eq!(env.category, Some(category.unwrap_or(UserErrorCategory::Unknown)));
    }

    /// Whole floats in range read as the integer; fractions never read.
    #[test]
    fn float_numbers(ms in any::<u32>(), code in any::<i32>(), fraction in any::<f64>()) {
        let env: ErrorEnvelope = serde_json::from_value(json!({
            "error_class": "BUSY",
            "message": "m",
            "retry_after_ms": f64::from(ms),
            "ora_code": f64::from(code),
        }))
        .unwrap();
        prop_assert_eq!(env.retry_after_ms, Some(u64::from(ms)));
        prop_assert_eq!(env.ora_code, Some(code));
        if fraction.is_finite() && fraction.fract() != 0.0 {
            for key in ["retry_after_ms", "ora_code"] {
                let err = serde_json::from_value::<ErrorEnvelope>(json!({
                    "error_class": "BUSY", "message": "m", key: fraction,
                }))
                .unwrap_err()
                .to_string();
                let named = format!("expected `{key}` as a whole number");
                prop_assert!(err.contains(&named), "{}", err);
            }
        }
    }

    /// Any value in any key of a tool result: reading never panics.
    #[test]
    fn any_value_in_any_tool_result_field(index in 0..4usize, value in json_value()) {
        let mut object = json!({
            "tool_call_id": "call_1",
            "content": "c",
            "is_error": true,
            "error_category": "NotFound",
        });
        let key = ["tool_call_id", "content", "is_error", "error_category"][index];
        object[key] = value.clone();
        let read = serde_json::from_value::<ToolResult>(object);
        if value.is_null() && (key == "is_error" || key == "error_category") {
            let result = read.unwrap();
            prop_assert_eq!(result.is_error, key != "is_error");
        }
    }
}

// ---------------------------------------------------------------------------
// 128-bit integers, from formats that have them (CBOR, MessagePack,
// serde_json with `arbitrary_precision`): the same range checks.
// ---------------------------------------------------------------------------

/// One value of a self-describing format with 128-bit integers.
#[derive(Clone, Copy)]
enum Wide {
    Text(&'static str),
    I128(i128),
    U128(u128),
}

impl<'de> serde::Deserializer<'de> for Wide {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self {
            Wide::Text(text) => visitor.visit_borrowed_str(text),
            Wide::I128(n) => visitor.visit_i128(n),
            Wide::U128(n) => visitor.visit_u128(n),
        }
    }

    fn deserialize_enum<V: serde::de::Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self {
            Wide::Text(text) => serde::de::IntoDeserializer::<Self::Error>::into_deserializer(text)
                .deserialize_enum(name, variants, visitor),
            other => other.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

impl serde::de::IntoDeserializer<'_> for Wide {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

fn read_wide(number: (&'static str, Wide)) -> Result<ErrorEnvelope, String> {
    let entries = [
        ("error_class", Wide::Text("BUSY")),
        ("message", Wide::Text("m")),
        number,
    ];
    let map =
        serde::de::value::MapDeserializer::<_, serde::de::value::Error>::new(entries.into_iter());
    serde::Deserialize::deserialize(map).map_err(|err: serde::de::value::Error| err.to_string())
}

#[test]
fn wide_integers_read_within_range() {
    assert_eq!(
        read_wide(("ora_code", Wide::I128(-942))).map(fields),
        Ok(Fields {
            ora_code: Some(-942),
            ..bare_busy()
        })
    );
    assert_eq!(
        read_wide(("retry_after_ms", Wide::U128(1500))).map(fields),
        Ok(Fields {
            retry_after_ms: Some(1500),
            ..bare_busy()
        })
    );
    assert_eq!(
        read_wide(("retry_after_ms", Wide::I128(i128::from(u64::MAX)))).map(fields),
        Ok(Fields {
            retry_after_ms: Some(u64::MAX),
            ..bare_busy()
        })
    );
    assert_eq!(
        read_wide(("ora_code", Wide::I128(i128::from(i32::MAX) + 1))),
        Err("invalid value: integer, expected `ora_code` as a whole number from -2147483648 to 2147483647".to_owned())
    );
    assert_eq!(
        read_wide(("retry_after_ms", Wide::U128(u128::MAX))),
        Err("invalid value: integer, expected `retry_after_ms` as a whole number from 0 to 18446744073709551615".to_owned())
    );
    assert_eq!(
        read_wide(("retry_after_ms", Wide::I128(-1))),
        Err("invalid value: integer, expected `retry_after_ms` as a whole number from 0 to 18446744073709551615".to_owned())
    );
}
