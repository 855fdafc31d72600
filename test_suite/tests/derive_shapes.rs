//! Shapes beyond a plain enum: structs, nesting through `transparent`,
//! `with` functions, generics and lifetimes, empty enums, the catalog.

#![allow(dead_code)]

use std::fmt;

use envelope::{Envelope, ErrorClass, ErrorEnvelope, UserErrorCategory, VariantSpec};

#[derive(Debug, thiserror::Error, Envelope)]
#[error("quota exceeded for {tenant}")]
#[envelope(class = Busy, message = "quota exceeded for {tenant}", retry_after_ms = 1000)]
struct QuotaError {
    tenant: String,
}

#[derive(Debug, thiserror::Error, Envelope)]
enum Inner {
    #[error("missing {0}")]
    #[envelope(class = ObjectNotFound, message = "missing {0}")]
    Missing(String),
    #[error(transparent)]
    #[envelope(transparent)]
    Quota(QuotaError),
}

#[derive(Debug, thiserror::Error, Envelope)]
enum Middle {
    #[error(transparent)]
    #[envelope(transparent)]
    Inner(#[from] Inner),
}

#[derive(Debug, thiserror::Error, Envelope)]
enum Outer {
    #[error(transparent)]
    #[envelope(transparent)]
    Middle(Box<Middle>),
    #[error("conflict")]
    #[envelope(class = Conflict)]
    Conflict,
    #[error("{0}")]
    #[envelope(with = classify)]
    Raw(String),
}

fn classify(raw: &str) -> ErrorEnvelope {
    if raw.starts_with("E404") {
        ErrorEnvelope::new(ErrorClass::ObjectNotFound, raw).with_code("E404")
    } else {
        ErrorEnvelope::new(ErrorClass::Internal, "upstream failure")
    }
}

#[test]
fn struct_container_attributes_are_its_variant() {
    let err = QuotaError {
        tenant: "acme".into(),
    };
    assert_eq!(
        err.to_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"quota exceeded for acme","retry_after_ms":1000,"code":"QUOTA_ERROR","category":"Technical","retryable":true}"#
    );
    assert_eq!(QuotaError::catalog()[0].name, "QuotaError");
}

#[test]
fn transparent_over_two_levels() {
    let err = Outer::Middle(Box::new(Middle::Inner(Inner::Quota(QuotaError {
        tenant: "t".into(),
    }))));
    assert_eq!(err.error_class(), ErrorClass::Busy);
    assert_eq!(err.code(), Some("QUOTA_ERROR"));
    assert_eq!(err.user_category(), UserErrorCategory::Technical);
    let expected = r#"{"isError":true,"error_class":"BUSY","message":"quota exceeded for t","retry_after_ms":1000,"code":"QUOTA_ERROR","category":"Technical","retryable":true}"#;
    assert_eq!(err.to_envelope().to_json_string(), expected);
    assert_eq!(err.into_envelope().to_json_string(), expected);

    let err = Outer::Middle(Box::new(Middle::from(Inner::Missing("x".into()))));
    assert_eq!(
        ErrorEnvelope::from(&err).to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"missing x","code":"MISSING","category":"NotFound"}"#
    );
}

#[test]
fn with_function_builds_the_envelope() {
    let found = Outer::Raw("E404 no such row".into());
    assert_eq!(found.error_class(), ErrorClass::ObjectNotFound);
    assert_eq!(found.code(), Some("E404"));
    assert_eq!(
        found.into_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"E404 no such row","code":"E404","category":"NotFound"}"#
    );
    let other = Outer::Raw("boom".into());
    assert_eq!(other.to_envelope().message, "upstream failure");
    assert_eq!(other.code(), None);
}

/// A generic error: `T` is only bounded where a template uses it.
#[derive(Debug, Envelope)]
enum Lookup<'a, K, T: Clone, U>
where
    K: fmt::Debug,
{
    #[envelope(class = ObjectNotFound, message = "no entry for key {key:?} in {table}")]
    Missing { key: K, table: &'a str },
    #[envelope(class = Conflict, message = "stale value")]
    Stale(#[envelope(detail = "value")] T),
    #[envelope(transparent)]
    Nested(Box<QuotaError>),
    #[envelope(class = Unsupported, message = "unsupported")]
    Other(std::marker::PhantomData<U>),
}

impl<K: fmt::Debug, T: Clone, U> fmt::Display for Lookup<'_, K, T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("lookup failed")
    }
}

/// A type that is neither `Display` nor `Serialize`: usable as `U` because
/// no template or detail mentions `U`.
#[derive(Debug, Clone)]
struct Opaque;

#[test]
fn generic_enum() {
    let err: Lookup<'_, (u8, u8), u8, Opaque> = Lookup::Missing {
        key: (1, 2),
        table: "users",
    };
    assert_eq!(
        err.to_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no entry for key (1, 2) in users","code":"MISSING","category":"NotFound"}"#
    );
    let err: Lookup<'_, u8, Vec<u8>, Opaque> = Lookup::Stale(vec![1, 2]);
    assert_eq!(
        ErrorEnvelope::from(err).to_json_string(),
        r#"{"isError":true,"error_class":"CONFLICT","message":"stale value","code":"STALE","category":"WorkflowDependency","details":{"value":[1,2]}}"#
    );
}

#[derive(Debug, Envelope)]
enum Never {}

#[test]
fn empty_enum_is_allowed() {
    assert!(Never::catalog().is_empty());
    let _: fn(Never) -> ErrorEnvelope = Envelope::into_envelope;
}

#[test]
fn catalog_snapshot() {
    #[derive(Debug, thiserror::Error, Envelope)]
    #[envelope(
        suggested_tools(ObjectNotFound = "schema_inspect"),
        code_prefix = "APP_"
    )]
    enum App {
        #[error("missing {name}")]
        #[envelope(class = ObjectNotFound, message = "object {name} does not exist", next_step = "call schema_inspect on {name}")]
        Missing { name: String },
        #[error("down")]
        #[envelope(class = ConnectionFailed, category = Technical, help_url = "https://example.com/down")]
        Down,
        #[error("bad")]
        #[envelope(class = InvalidArguments, code = "BAD_INPUT", suggested_tool = "describe")]
        Bad,
        #[error(transparent)]
        #[envelope(transparent)]
        Quota(QuotaError),
    }
    let json = serde_json::to_string_pretty(App::catalog()).unwrap();
    assert_eq!(
        json,
        r#"[
  {
    "name": "Missing",
    "code": "APP_MISSING",
    "class": "OBJECT_NOT_FOUND",
    "owner": "caller",
    "category": "NotFound",
    "suggested_tool": "schema_inspect",
    "next_steps": [
      "call schema_inspect on {name}"
    ],
    "message": "object {name} does not exist",
    "help_url": null,
    "ora_code": null,
    "retry_after_ms": null,
    "effect": "nothing",
    "idempotent": false,
    "retryable": false,
    "correlation_id": null,
    "transparent": false
  },
  {
    "name": "Down",
    "code": "APP_DOWN",
    "class": "CONNECTION_FAILED",
    "owner": "server",
    "category": "Technical",
    "suggested_tool": null,
    "next_steps": [],
    "message": "the server could not reach a service it depends on",
    "help_url": "https://example.com/down",
    "ora_code": null,
    "retry_after_ms": null,
    "effect": "unknown",
    "idempotent": false,
    "retryable": false,
    "correlation_id": null,
    "transparent": false
  },
  {
    "name": "Bad",
    "code": "BAD_INPUT",
    "class": "INVALID_ARGUMENTS",
    "owner": "caller",
    "category": "Validation",
    "suggested_tool": "describe",
    "next_steps": [],
    "message": null,
    "help_url": null,
    "ora_code": null,
    "retry_after_ms": null,
    "effect": "nothing",
    "idempotent": false,
    "retryable": false,
    "correlation_id": null,
    "transparent": false
  },
  {
    "name": "Quota",
    "code": null,
    "class": null,
    "owner": null,
    "category": null,
    "suggested_tool": null,
    "next_steps": [],
    "message": null,
    "help_url": null,
    "ora_code": null,
    "retry_after_ms": null,
    "effect": null,
    "idempotent": false,
    "retryable": null,
    "correlation_id": null,
    "transparent": true
  }
]"#
    );
    let spec: &VariantSpec = &App::catalog()[1];
    assert_eq!(spec.owner(), Some(envelope::Owner::Server));
    // A connection failure may strike mid-call: not blindly retryable.
    assert_eq!(spec.retryable(), Some(false));
}

/// `#[cfg]` on a variant and on a field, with `repr(u8)` and explicit
/// discriminants: what is configured out is left out of every generated
/// match and pattern.
#[derive(Debug, Envelope)]
#[repr(u8)]
enum Configured {
    #[envelope(class = ObjectNotFound, message = "missing {name}")]
    Missing {
        name: String,
        #[cfg(any())]
        #[envelope(detail)]
        hidden: u32,
    } = 1,
    #[cfg(any())]
    #[envelope(class = Internal)]
    Gone = 2,
    #[cfg(test)]
    #[envelope(class = Busy)]
    Busy = 3,
}

/// `repr(C)` is not `repr(packed)`: fields may be borrowed.
#[derive(Debug, Envelope)]
#[repr(C)]
#[envelope(class = InvalidArguments, message = "bad value {0} at {1}")]
struct ReprC(u32, u8);

/// A transparent struct with a key that describes the type (`crate`).
#[derive(Debug, Envelope)]
#[envelope(transparent, crate = "::envelope")]
struct Wrapped(QuotaError);

/// A transparent struct's `suggested_tools` fill in the wrapped
/// envelope's missing tool, as a container's do for a transparent variant.
#[derive(Debug, Envelope)]
#[envelope(transparent, suggested_tools(Busy = "queue_status"))]
struct Tooled(QuotaError);

/// A caller-owned variant without `message` shows the type's `Display`;
/// generic, so the impl asks `Shown<T>: Display`.
#[derive(Debug, Envelope)]
#[envelope(class = InvalidArguments)]
struct Shown<T>(T);

impl<T: fmt::Display> fmt::Display for Shown<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "shown: {}", self.0)
    }
}

#[test]
fn cfg_repr_transparent_struct_and_generic_display() {
    let missing = Configured::Missing {
        name: "orders".into(),
    };
    assert_eq!(
        missing.to_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"missing orders","code":"MISSING","category":"NotFound"}"#
    );
    assert_eq!(Configured::Busy.code(), Some("BUSY"));
    let names: Vec<&str> = Configured::catalog().iter().map(|v| v.name).collect();
    assert_eq!(names, ["Missing", "Busy"]);
    assert_eq!(
        ReprC(7, 2).into_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"bad value 7 at 2","code":"REPR_C","category":"Validation"}"#
    );
    let wrapped = Wrapped(QuotaError {
        tenant: "acme".into(),
    });
    assert_eq!(wrapped.to_envelope(), wrapped.0.to_envelope());
    assert_eq!(wrapped.error_class(), ErrorClass::Busy);
    assert_eq!(Shown(5).to_envelope().message, "shown: 5");
    let tooled = Tooled(QuotaError {
        tenant: "acme".into(),
    });
    assert_eq!(
        tooled.to_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"quota exceeded for acme","suggested_tool":"queue_status","retry_after_ms":1000,"code":"QUOTA_ERROR","category":"Technical","retryable":true}"#
    );
}

/// An error enum written by a `macro_rules!` macro: its field types come in
/// as `$ty` fragments (invisible groups), which the derive looks through
/// (an `Option<...>` correlation id is still an optional one).
macro_rules! lookup_error {
    ($name:ident, $text:ty, $list:ty, $id:ty) => {
        #[derive(Debug, Envelope)]
        enum $name {
            #[envelope(class = ObjectNotFound, message = "no table {table}")]
            Missing {
                table: $text,
                #[envelope(fuzzy_matches)]
                near: $list,
                #[envelope(correlation_id)]
                request: $id,
            },
        }
    };
}

lookup_error!(Generated, String, Vec<String>, Option<String>);

#[test]
fn macro_generated_field_types() {
    let err = Generated::Missing {
        table: "ORDRES".into(),
        near: vec!["ORDERS".into()],
        request: Some("req-1".into()),
    };
    assert_eq!(
        err.to_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no table ORDRES","fuzzy_matches":["ORDERS"],"code":"MISSING","category":"NotFound","correlation_id":"req-1"}"#
    );
    let err = Generated::Missing {
        table: "ORDRES".into(),
        near: vec![],
        request: None,
    };
    assert_eq!(
        err.into_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no table ORDRES","code":"MISSING","category":"NotFound"}"#
    );
}

/// A generic field shown with two format traits: the impl asks `K: Debug`
/// and `K: Display` (inferred, as the user wrote neither), and
/// `C: LowerHex` for the one shown as `{1:x}`.
#[derive(Debug, Envelope)]
enum Keyed<K, C> {
    #[envelope(class = ObjectNotFound, message = "no entry {0:?} ({0}), code {1:x}")]
    Missing(K, C),
}

#[test]
fn inferred_format_bounds() {
    let err: Keyed<&str, u32> = Keyed::Missing("a", 255);
    assert_eq!(err.to_envelope().message, r#"no entry "a" (a), code ff"#);
}

/// A parenthesized field type (rustc warns; the derive looks through it):
/// `(Option<String>)` is still an optional correlation id.
#[allow(unused_parens)]
#[derive(Debug, Envelope)]
#[envelope(class = Busy)]
struct Parenthesized {
    #[envelope(correlation_id)]
    request: (Option<String>),
}

#[test]
fn parenthesized_field_type() {
    let err = Parenthesized {
        request: Some("req-9".into()),
    };
    assert_eq!(err.to_envelope().correlation_id.as_deref(), Some("req-9"));
    let err = Parenthesized { request: None };
    assert_eq!(err.to_envelope().correlation_id, None);
}
