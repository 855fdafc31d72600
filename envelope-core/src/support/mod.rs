//! What generated code calls: the `__private` module the derive's
//! expansion names (`private`), and the field roles it is built from
//! (`role`). Hidden from the docs and outside the semver promise.

pub mod private;
pub(crate) mod role;
