//! Envelopes for errors known only as `&dyn Error`: [`from_error`], the
//! [`Recognizer`] that also knows the caller's own types, and `Envelope`
//! for `Box<dyn Error>`.
//!
//! The walk follows `source()` from the outermost error inward and stops at
//! the first error it recognises, so an outer error that classifies itself
//! wins over the causes it wraps, and `anyhow` contexts (which it does not
//! recognise) are passed over to reach their root.

use std::error::Error;
use std::io;

use crate::convert::envelope_trait::Envelope;
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

/// How many errors of a `source()` chain [`from_error`] and [`Recognizer`]
/// examine, the outermost one included, and how many `source()` links the
/// operator log lists (feature `tracing`): 64. A chain longer than this (or
/// one whose `source()` leads back to itself, which never ends) is cut
/// there, and what was not recognised by then counts as unrecognised.
pub const MAX_SOURCE_LINKS: usize = 64;

/// The code of the envelope for an error nobody recognised: class
/// `INTERNAL`, the class's generic message and nothing of the error's text.
pub const UNCLASSIFIED: &str = "UNCLASSIFIED";

/// Recognises one named type in a chain: a monomorphised `downcast`.
type Downcast = for<'e> fn(&'e (dyn Error + 'static)) -> Option<&'e dyn Envelope>;

fn downcast<'e, T: Envelope + Error + 'static>(
    error: &'e (dyn Error + 'static),
) -> Option<&'e dyn Envelope> {
    error
        .downcast_ref::<T>()
        .map(|found| found as &dyn Envelope)
}

/// Turns any error into an envelope by walking its `source()` chain, for
/// handlers whose errors arrive as `anyhow::Error`, `eyre::Report` or
/// `Box<dyn Error>`.
///
/// In each error of the chain (at most [`MAX_SOURCE_LINKS`]) it looks for,
/// by `downcast_ref`:
///
/// 1. the types named with [`Recognizer::with`], usually your derived
///    error enums (an `Envelope` cannot be found through `dyn Error`
///    without naming its type);
/// 2. an [`ErrorEnvelope`], which implements `Error` so that it travels
///    through `?`, `Box<dyn Error>` and `anyhow` and is found again here;
/// 3. the std and `serde_json` errors this crate classifies (`io::Error`,
///    `serde_json::Error`, the std parse and UTF-8 errors).
///
/// The outermost error recognised gives the envelope, exactly as its own
/// [`Envelope::to_envelope`] would. An `io::Error` made from another error
/// (`io::Error::other(e)`, `io::Error::new(kind, e)`) is looked into first:
/// if the error it carries, or that error's chain, is recognised, that wins;
/// otherwise the `io::Error`'s kind decides. When nothing is recognised the
/// envelope is `INTERNAL` with the class's generic message and code
/// [`UNCLASSIFIED`]: no text of any error in the chain reaches the model.
///
/// ```
/// # extern crate envelope_core as envelope;
/// use envelope::{ErrorClass, Recognizer};
/// # #[derive(Debug)] struct QuotaError;
/// # impl std::fmt::Display for QuotaError {
/// #     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("quota") }
/// # }
/// # impl std::error::Error for QuotaError {}
/// # impl envelope::Envelope for QuotaError {
/// #     fn error_class(&self) -> ErrorClass { ErrorClass::QuotaExceeded }
/// #     fn to_envelope(&self) -> envelope::ErrorEnvelope {
/// #         envelope::ErrorEnvelope::new(ErrorClass::QuotaExceeded, "the daily quota is used up")
/// #     }
/// # }
///
/// let errors = Recognizer::new().with::<QuotaError>();
/// let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(QuotaError);
/// assert_eq!(errors.envelope(&*boxed).error_class, ErrorClass::QuotaExceeded);
/// // Without the name, the same error is not recognised.
/// assert_eq!(envelope::from_error(&*boxed).error_class, ErrorClass::Internal);
/// ```
///
/// Build it once and keep it (a `static` with `LazyLock`, a field of the
/// server), or build it where the error is handled: it is a short list of
/// function pointers.
#[derive(Debug, Clone, Default)]
pub struct Recognizer {
    named: Vec<Downcast>,
}

impl Recognizer {
    /// A recognizer of the built-in types only ([`ErrorEnvelope`], std,
    /// `serde_json`), as [`from_error`] uses.
    #[must_use]
    pub const fn new() -> Self {
        Recognizer { named: Vec::new() }
    }

    /// Also recognise `T`, typically a derived error type. Types are tried
    /// in the order they were named, before the built-in ones; naming a
    /// type twice changes nothing.
    #[must_use]
    pub fn with<T: Envelope + Error + 'static>(mut self) -> Self {
        self.named.push(downcast::<T>);
        self
    }

    /// The outermost recognised error of `error`'s chain, as the
    /// [`Envelope`] that describes it; `None` when nothing in the first
    /// [`MAX_SOURCE_LINKS`] errors is recognised.
    #[must_use]
    pub fn find<'e>(&self, error: &'e (dyn Error + 'static)) -> Option<&'e dyn Envelope> {
        find(&self.named, error)
    }

    /// The envelope of `error`: that of the outermost recognised error in
    /// its chain, else the `INTERNAL` envelope with code [`UNCLASSIFIED`]
    /// (see [`Recognizer`]).
    #[must_use]
    pub fn envelope(&self, error: &(dyn Error + 'static)) -> ErrorEnvelope {
        self.find(error).unwrap_or(&Unclassified).to_envelope()
    }
}

/// The envelope of any error, recognising [`ErrorEnvelope`] and the std and
/// `serde_json` errors anywhere in its `source()` chain; everything else is
/// `INTERNAL` with code [`UNCLASSIFIED`] and none of the chain's text.
///
/// The same as `Recognizer::new().envelope(error)`. For an `anyhow::Error`
/// pass `err.as_ref()` or `&*err`.
///
/// **It cannot see a derived type.** A trait cannot be found through `dyn
/// Error` without naming the type, so a `#[derive(Envelope)]` error passed
/// here (or found in the chain) answers `INTERNAL` / [`UNCLASSIFIED`], not
/// its own class. When you hold the derived error, call its
/// [`to_envelope`](crate::Envelope::to_envelope); when it hides inside a
/// `Box<dyn Error>` or an `anyhow::Error`, name it with
/// [`Recognizer::with`].
#[must_use]
pub fn from_error(error: &(dyn Error + 'static)) -> ErrorEnvelope {
    Recognizer::new().envelope(error)
}

/// The walk: see [`Recognizer`].
fn find<'e>(named: &[Downcast], error: &'e (dyn Error + 'static)) -> Option<&'e dyn Envelope> {
    // The first `io::Error` that carries another error: its kind decides
    // only if nothing inside is recognised.
    let mut carrier: Option<&'e dyn Envelope> = None;
    let mut link = Some(error);
    for _ in 0..MAX_SOURCE_LINKS {
        let Some(current) = link else { break };
        if let Some(io) = current.downcast_ref::<io::Error>()
            && let Some(inner) = io.get_ref()
        {
            // `io::Error::source` skips the carried error itself.
            carrier.get_or_insert(io);
            link = Some(inner);
            continue;
        }
        if let Some(found) = recognise(named, current) {
            return Some(found);
        }
        link = current.source();
    }
    carrier
}

/// One link: the named types, then an envelope, then the std errors,
/// then the library errors of the enabled integrations.
fn recognise<'e>(named: &[Downcast], error: &'e (dyn Error + 'static)) -> Option<&'e dyn Envelope> {
    named
        .iter()
        .find_map(|downcast| downcast(error))
        .or_else(|| {
            error
                .downcast_ref::<ErrorEnvelope>()
                .map(|found| found as &dyn Envelope)
        })
        .or_else(|| crate::convert::std_errors::find(error))
        .or_else(|| crate::integrations::find(error))
}

/// What an unrecognised error is described as; a type so that its class
/// and code are read without allocating.
struct Unclassified;

impl Envelope for Unclassified {
    fn error_class(&self) -> ErrorClass {
        ErrorClass::Internal
    }

    fn code(&self) -> Option<&'static str> {
        Some(UNCLASSIFIED)
    }

    fn to_envelope(&self) -> ErrorEnvelope {
        ErrorEnvelope::new(ErrorClass::Internal, ErrorClass::Internal.generic_message())
            .with_code(UNCLASSIFIED)
    }
}

/// `Envelope` and `From<..> for ErrorEnvelope` for one boxed error form.
macro_rules! boxed_error {
    ($($object:ty),* $(,)?) => {$(
        /// The envelope of the boxed error's chain, as [`from_error`]
        /// finds it: an [`ErrorEnvelope`] or a std error is recognised,
        /// anything else is `INTERNAL` with code [`UNCLASSIFIED`]. This lets
        /// `#[envelope(transparent)] Other(#[from] Box<dyn Error + Send +
        /// Sync>)` compile. A derived type inside the box is not found (it
        /// cannot be named here): box its envelope instead
        /// (`Box::new(err.into_envelope())`), or use [`Recognizer::with`].
        /// The accessors do not allocate.
        impl Envelope for Box<$object> {
            fn error_class(&self) -> ErrorClass {
                find(&[], &**self).unwrap_or(&Unclassified).error_class()
            }

            fn user_category(&self) -> crate::UserErrorCategory {
                find(&[], &**self).unwrap_or(&Unclassified).user_category()
            }

            fn code(&self) -> Option<&'static str> {
                find(&[], &**self).unwrap_or(&Unclassified).code()
            }

            fn to_envelope(&self) -> ErrorEnvelope {
                find(&[], &**self).unwrap_or(&Unclassified).to_envelope()
            }

            /// Moves a boxed [`ErrorEnvelope`] out instead of cloning it.
            fn into_envelope(self) -> ErrorEnvelope {
                match self.downcast::<ErrorEnvelope>() {
                    Ok(envelope) => *envelope,
                    Err(other) => other.to_envelope(),
                }
            }
        }

        /// The envelope of the boxed error, as [`Envelope::into_envelope`].
        impl From<Box<$object>> for ErrorEnvelope {
            fn from(error: Box<$object>) -> Self {
                error.into_envelope()
            }
        }
    )*};
}

boxed_error!(
    dyn Error + 'static,
    dyn Error + Send + 'static,
    dyn Error + Send + Sync + 'static,
);
