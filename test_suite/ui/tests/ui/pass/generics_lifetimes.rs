//! Generic and lifetime-parameterized types with where-clauses.
#![deny(warnings)]

use std::fmt::{self, Debug, Display};

use envelope::{Envelope, ErrorEnvelope};

#[derive(Debug, Envelope)]
#[non_exhaustive]
pub enum Generic<'a, T, U: Clone = u8, const N: usize = 2>
where
    T: Debug,
{
    /// Uses `T` with `{:?}` only.
    #[envelope(class = ObjectNotFound, message = "missing {key:?} in {table}")]
    Missing { key: T, table: &'a str },
    /// `U` appears in no template.
    #[envelope(class = Internal)]
    Other([U; N]),
}

impl<T: Debug, U: Clone, const N: usize> Display for Generic<'_, T, U, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("generic")
    }
}

#[derive(Debug, Envelope)]
#[envelope(class = InvalidArguments)]
pub struct Wrapper<E: Display>(pub E);

impl<E: Display> Display for Wrapper<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wrapped: {}", self.0)
    }
}

#[derive(Debug, Envelope)]
pub enum Transparent<E: Envelope> {
    #[envelope(transparent)]
    Inner(E),
}

struct NotDisplay;

fn main() {
    let table = String::from("users");
    let err: Generic<'_, (i32, &str), NotDisplayClone> = Generic::Missing { key: (1, "x"), table: &table };
    assert_eq!(err.to_envelope().message, "missing (1, \"x\") in users");
    let err: Generic<'_, u8, NotDisplayClone> = Generic::Other([NotDisplayClone, NotDisplayClone]);
    assert_eq!(ErrorEnvelope::from(&err).error_class, envelope::ErrorClass::Internal);
    assert_eq!(Wrapper("boom").to_envelope().message, "wrapped: boom");
    let nested = Transparent::Inner(Wrapper(7));
    assert_eq!(nested.into_envelope().message, "wrapped: 7");
    let _ = NotDisplay;
}

#[derive(Debug, Clone)]
struct NotDisplayClone;
