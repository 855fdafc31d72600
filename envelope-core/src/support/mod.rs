//! What generated code calls: the `__private` module the derive's
//! expansion names (`private`), and what it is built from: the field roles (`role`), the
//! helpers of argument variants (`arguments`) and of `resource = server`
//! variants (`resource`). Hidden from the docs and outside the semver promise.

mod arguments;
mod cause;
pub mod private;
mod resource;
pub(crate) mod role;
#[cfg(test)]
mod tests;
