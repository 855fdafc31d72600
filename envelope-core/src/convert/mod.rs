//! Errors into envelopes: the [`Envelope`](envelope_trait::Envelope)
//! trait, its impls for the errors of `std` and `serde_json`
//! (`std_errors`, naming no library: each integration brings its own),
//! and the reader of a `source()` chain (`chain`).

pub(crate) mod chain;
pub(crate) mod envelope_trait;
pub(crate) mod std_errors;
