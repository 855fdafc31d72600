//! The text of a derived error for its log line: its `Display` and
//! `source()` chain when the type is a `std::error::Error`, chosen by
//! method resolution (autoref specialization) in the integrations' derived
//! impls, which cannot name the bound.

use std::error::Error;

/// A derived type's value, for the choice of [`ErrorText`] (a
/// `std::error::Error`) over [`NoErrorText`] (any other type) by method
/// resolution in the derived `IntoResponse` and `IntoCallToolResult`:
/// `(&Cause(&self)).text()`.
pub struct Cause<'a, E: ?Sized>(pub &'a E);

/// The text of an error that is a `std::error::Error`.
pub trait ErrorText {
    /// Its `Display` and `source()` chain.
    fn text(&self) -> Option<(String, Vec<String>)>;
}

impl<E: Error + ?Sized> ErrorText for Cause<'_, E> {
    fn text(&self) -> Option<(String, Vec<String>)> {
        // Only the log line reads it.
        #[cfg(feature = "tracing")]
        return Some((self.0.to_string(), crate::call::log::sources(self.0)));
        #[cfg(not(feature = "tracing"))]
        None
    }
}

/// No text for a type that is not a `std::error::Error`.
pub trait NoErrorText {
    /// `None`.
    fn text(&self) -> Option<(String, Vec<String>)>;
}

impl<E: ?Sized> NoErrorText for &Cause<'_, E> {
    fn text(&self) -> Option<(String, Vec<String>)> {
        None
    }
}
