//! `ErrorEnvelope` is one pointer wide, so the patterns users write with it
//! pass clippy's default lints without an `allow`: a plain function
//! returning `Result<_, ErrorEnvelope>` (`clippy::result_large_err`,
//! threshold 128 bytes) and an error enum with an `ErrorEnvelope` variant
//! beside small ones (`clippy::large_enum_variant`). `.ci/run` runs clippy
//! over this file with `-D warnings`; the lints are denied here too, so a
//! plain `cargo clippy` fails as well.
#![deny(clippy::result_large_err, clippy::large_enum_variant)]

use std::mem::size_of;

use envelope::{Envelope, ErrorClass, ErrorEnvelope};

/// A plain function with the envelope as its error.
fn check_limit(n: u32) -> Result<u32, ErrorEnvelope> {
    if n > 100 {
        return Err(ErrorEnvelope::new(
            ErrorClass::InvalidArguments,
            "limit must be at most 100",
        ));
    }
    Ok(n)
}

/// The "one server, many error types" pattern: a derived enum with an
/// `ErrorEnvelope` variant next to a unit variant.
#[derive(Debug, thiserror::Error, Envelope)]
enum ServerError {
    #[error("closed")]
    #[envelope(class = Unsupported)]
    Closed,
    #[error(transparent)]
    #[envelope(transparent)]
    Any(#[from] ErrorEnvelope),
}

fn handle(n: u32) -> Result<u32, ServerError> {
    if n == 0 {
        return Err(ServerError::Closed);
    }
    Ok(check_limit(n)?)
}

#[test]
fn the_envelope_is_one_pointer_wide() {
    assert_eq!(size_of::<ErrorEnvelope>(), size_of::<usize>());
    // The box's niche: an `Option` or a `Result` around it costs nothing.
    assert_eq!(size_of::<Option<ErrorEnvelope>>(), size_of::<usize>());
    assert_eq!(size_of::<Result<(), ErrorEnvelope>>(), size_of::<usize>());
    assert!(size_of::<ServerError>() <= 2 * size_of::<usize>());
}

#[test]
fn the_patterns_work() {
    assert_eq!(check_limit(5), Ok(5));
    assert_eq!(
        handle(500).unwrap_err().to_envelope().message,
        "limit must be at most 100"
    );
    assert_eq!(
        handle(0).unwrap_err().to_envelope().error_class,
        ErrorClass::Unsupported
    );
}
