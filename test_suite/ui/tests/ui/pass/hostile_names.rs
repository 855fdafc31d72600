//! A crate that shadows every prelude name the derive could lean on.
#![no_implicit_prelude]
#![deny(warnings, missing_docs, unused_qualifications)]

extern crate envelope;
extern crate std as real_std;

/// Shadows `core`.
pub mod core {}
/// Shadows `std`.
pub mod std {}

/// Shadows `Result`.
pub struct Result;
/// Shadows `Option`.
pub struct Option;
/// Shadows `String`.
pub struct String;
/// Shadows `Vec`.
pub struct Vec;
/// Shadows `Box`.
pub struct Box;
/// Shadows `Some`.
pub struct Some;
/// Shadows `Ok`.
pub struct Ok;
/// Shadows `None`.
pub struct None;
/// Shadows `ToString`.
pub trait ToString {
    /// A method with the name of a generated call.
    fn to_string(&self) -> u8 {
        0
    }
}
/// Same-named methods on an extension trait must not capture derived calls.
pub trait Hijack {
    /// Same name as `Envelope::to_envelope`.
    fn to_envelope(&self) -> u8 {
        0
    }
    /// Same name as `Envelope::error_class`.
    fn error_class(&self) -> u8 {
        0
    }
}
impl<T> Hijack for T {}

/// The error under test.
#[derive(envelope::Envelope)]
#[envelope(suggested_tools(ObjectNotFound = "inspect"))]
pub enum HostileError {
    /// A struct variant with a raw identifier, a list and a secret.
    #[envelope(class = ObjectNotFound, message = "no {r#type} named {f}")]
    Missing {
        /// Raw identifier.
        r#type: real_std::string::String,
        /// Named like a generated local.
        f: real_std::string::String,
        /// Candidates.
        #[envelope(fuzzy_matches)]
        envelope: real_std::vec::Vec<real_std::string::String>,
        /// Never rendered.
        #[envelope(secret)]
        out: real_std::string::String,
    },
    /// Uses the class's generic message.
    #[envelope(class = Busy)]
    Busy(#[envelope(retry_after_ms)] real_std::option::Option<u64>),
    /// Configured out.
    #[cfg(any())]
    #[envelope(class = Internal)]
    Gone,
    /// A detail.
    #[envelope(class = Conflict, message = "conflict {0}")]
    Conflict(#[envelope(detail = "version")] u32),
    /// Argument problems, declared and found.
    #[envelope(class = InvalidArguments, argument(path = "/f", kind = unknown_field, suggestions = f))]
    Arguments {
        /// Named like a generated local.
        f: real_std::vec::Vec<real_std::string::String>,
        /// Found at run time.
        #[envelope(argument_errors)]
        envelope: real_std::option::Option<envelope::ArgumentError>,
    },
    /// The server's own file.
    #[envelope(transparent, resource = server)]
    Store(real_std::io::Error),
}

fn main() {
    let err = HostileError::Missing {
        r#type: real_std::borrow::ToOwned::to_owned("table"),
        f: real_std::borrow::ToOwned::to_owned("EMP"),
        envelope: real_std::vec![real_std::borrow::ToOwned::to_owned("EMPLOYEES")],
        out: real_std::borrow::ToOwned::to_owned("hunter2"),
    };
    let json = envelope::Envelope::to_json_string(&envelope::Envelope::to_envelope(&err));
    real_std::assert_eq!(
        json,
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no table named EMP","suggested_tool":"inspect","fuzzy_matches":["EMPLOYEES"],"code":"MISSING","category":"NotFound"}"#
    );
    let busy = HostileError::Busy(real_std::option::Option::Some(5));
    real_std::assert_eq!(
        envelope::Envelope::into_envelope(busy).retry_after_ms,
        real_std::option::Option::Some(5)
    );
    let conflict = <envelope::ErrorEnvelope as real_std::convert::From<HostileError>>::from(
        HostileError::Conflict(3),
    );
    real_std::assert_eq!(conflict.details["version"], 3);
    let arguments = envelope::Envelope::into_envelope(HostileError::Arguments {
        f: real_std::vec![real_std::borrow::ToOwned::to_owned("g")],
        envelope: real_std::option::Option::None,
    });
    real_std::assert_eq!(arguments.argument_errors[0].suggestions, ["g"]);
    let store = HostileError::Store(real_std::io::Error::new(real_std::io::ErrorKind::NotFound, "db"));
    real_std::assert_eq!(
        envelope::Envelope::error_class(&store),
        envelope::ErrorClass::Internal
    );
    let _ = (Result, Option, String, Vec, Box, Some, Ok, None);
}
