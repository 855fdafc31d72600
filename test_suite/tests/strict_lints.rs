//! Generated code is silent under the lints a careful crate denies: rustc's
//! `warnings`, `unused_qualifications`, `deprecated`, `missing_docs` and
//! `unreachable_pub`, and clippy's `pedantic`, `nursery` and the common
//! restriction lints (`.ci/run` runs clippy over this file with
//! `-D warnings`). Every type shape std's derives accept is here too:
//! unit, tuple and named structs, enums with explicit discriminants,
//! `#[repr(C)]` and `#[repr(u8)]`, generics with defaults and const
//! parameters, and deprecated types and variants.
#![deny(
    warnings,
    unused_qualifications,
    deprecated,
    missing_docs,
    unreachable_pub,
    clippy::all,
    clippy::pedantic,
    clippy::nursery,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::missing_docs_in_private_items,
    clippy::allow_attributes_without_reason,
    clippy::as_conversions,
    clippy::clone_on_ref_ptr,
    clippy::str_to_string,
    clippy::absolute_paths,
    clippy::std_instead_of_core,
    clippy::pattern_type_mismatch,
    clippy::shadow_unrelated,
    clippy::min_ident_chars
)]

use std::io;

use envelope::{Envelope, ErrorClass, ErrorEnvelope};

/// Error types as a library would keep them: in a module, some deprecated.
mod errors {
    use core::fmt;
    use std::io;

    use envelope::Envelope;

    /// A unit struct.
    #[derive(Debug, Envelope)]
    #[envelope(class = Internal, message = "unit")]
    pub struct Unit;

    /// A tuple struct with a detail.
    #[derive(Debug, Envelope)]
    #[envelope(class = InvalidArguments, message = "bad value {0}")]
    pub struct Tuple(#[envelope(detail = "value")] pub u8);

    /// A named struct with every field role.
    #[derive(Debug, Envelope)]
    #[envelope(class = ObjectNotFound, message = "no {name}", next_step = "look up {name}")]
    pub struct Named {
        /// The name asked for.
        pub name: String,
        /// Near misses.
        #[envelope(fuzzy_matches)]
        pub near: Vec<String>,
        /// Extra steps.
        #[envelope(next_steps)]
        pub steps: Vec<String>,
        /// A tool known at run time.
        #[envelope(suggested_tool)]
        pub tool: Option<String>,
        /// A retry hint.
        #[envelope(retry_after_ms)]
        pub wait_ms: Option<u64>,
        /// A backend code.
        #[envelope(ora_code)]
        pub ora: Option<i32>,
        /// A detail.
        #[envelope(detail)]
        pub table: String,
        /// A correlation id.
        #[envelope(correlation_id)]
        pub request: u64,
        /// A secret.
        #[envelope(secret)]
        pub token: String,
    }

    /// An old error type, kept for compatibility.
    #[deprecated(note = "use Named")]
    #[derive(Debug, Envelope)]
    #[envelope(class = Internal, message = "old")]
    pub struct OldError(pub u8);

    /// Explicit discriminants and a `repr`.
    #[derive(Debug, Clone, Copy, Envelope)]
    #[repr(u8)]
    pub enum Coded {
        /// First.
        #[envelope(class = Busy, retry_after_ms = 100)]
        First = 1,
        /// Second, deprecated.
        #[deprecated(note = "use First")]
        #[envelope(class = Timeout, idempotent, message = "slow")]
        Second = 7,
    }

    /// A `#[repr(C)]` enum with data.
    #[derive(Debug, Envelope)]
    #[repr(C)]
    pub enum WithData {
        /// Data.
        #[envelope(class = Conflict, message = "stale version {0}")]
        Stale(u32),
    }

    /// Generics with a default and a const parameter.
    #[derive(Debug, Envelope)]
    pub enum Generic<T: fmt::Display = String, const N: usize = 3> {
        /// Uses the parameter in its message.
        #[envelope(class = InvalidArguments, message = "bad {0}")]
        Bad(T),
        /// Holds an array of the const length.
        #[envelope(class = Internal, effect = partial, message = "partial")]
        Partial([u8; N]),
    }

    /// Argument problems and a wrapped error of the server's own.
    #[derive(Debug, Envelope)]
    pub enum Arguments {
        /// A problem declared on the variant, with near misses.
        #[envelope(
            class = InvalidArguments,
            argument(path = "/tag", kind = unknown_variant, suggestions = near)
        )]
        Tag {
            /// Near misses.
            near: Vec<String>,
        },
        /// Problems found at run time.
        #[envelope(class = InvalidArguments)]
        Found(#[envelope(argument_errors)] Vec<envelope::ArgumentError>),
        /// The server's own file.
        #[envelope(transparent, resource = server)]
        Store(io::Error),
    }

    impl fmt::Display for Unit {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("unit")
        }
    }
}

#[allow(deprecated, reason = "the test uses the deprecated items on purpose")]
#[test]
fn every_shape_converts() {
    use errors::{Coded, Generic, Named, OldError, Tuple, Unit, WithData};

    let class = |error: &dyn Envelope| error.error_class();
    let tag = errors::Arguments::Tag {
        near: vec!["work".to_owned()],
    };
    let problems = tag.into_envelope().into_fields().argument_errors;
    assert_eq!(
        problems
            .first()
            .map(|problem| problem.suggestions.as_slice()),
        Some(&["work".to_owned()][..])
    );
    assert_eq!(
        class(&errors::Arguments::Found(Vec::new())),
        ErrorClass::InvalidArguments
    );
    let store = errors::Arguments::Store(io::ErrorKind::NotFound.into());
    assert_eq!(class(&store), ErrorClass::Internal);
    assert_eq!(class(&Unit), ErrorClass::Internal);
    assert_eq!(class(&Tuple(3)), ErrorClass::InvalidArguments);
    assert_eq!(class(&OldError(1)), ErrorClass::Internal);
    assert_eq!(class(&Coded::First), ErrorClass::Busy);
    assert_eq!(class(&Coded::Second), ErrorClass::Timeout);
    assert_eq!(class(&WithData::Stale(4)), ErrorClass::Conflict);
    let generic: Generic = Generic::Bad("limit".to_owned());
    assert_eq!(generic.to_envelope().message, "bad limit");
    let partial: Generic<u8, 2> = Generic::Partial([0, 1]);
    assert_eq!(
        partial.to_json_string(),
        r#"{"isError":true,"error_class":"INTERNAL","message":"partial","next_steps":["part of the call took effect: check what was applied and repeat only the rest"],"code":"PARTIAL","category":"Technical","effect":"partial"}"#
    );
    let named = Named {
        name: "t".to_owned(),
        near: vec!["u".to_owned()],
        steps: vec!["then retry".to_owned()],
        tool: Some("inspect".to_owned()),
        wait_ms: Some(5),
        ora: Some(942),
        table: "T".to_owned(),
        request: 9,
        token: "s3cret".to_owned(),
    };
    let envelope: ErrorEnvelope = named.into();
    assert_eq!(
        envelope.to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no t","ora_code":942,"suggested_tool":"inspect","fuzzy_matches":["u"],"next_steps":["look up t","then retry"],"retry_after_ms":5,"code":"NAMED","category":"NotFound","correlation_id":"9","details":{"table":"T"}}"#
    );
    assert_eq!(
        Coded::Second.to_json_string(),
        r#"{"isError":true,"error_class":"TIMEOUT","message":"slow","code":"SECOND","category":"Technical","retryable":true,"effect":"unknown"}"#
    );
}
