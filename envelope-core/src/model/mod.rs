//! The wire types: what an envelope says, with nothing about how it is
//! rendered or where it came from.
//!
//! [`class`] holds the one table of every class fact; the others build on
//! it: the category, the effect, the retry rule and its inputs (`retry`), an argument problem,
//! the envelope itself (and its lenient reading, `lenient`), the tool
//! result, a variant's static description, a tool's declared failures
//! (`contract`) and the near-miss search.

pub(crate) mod argument_error;
pub(crate) mod behaviour;
pub(crate) mod category;
pub(crate) mod class;
pub(crate) mod contract;
pub(crate) mod effect;
pub(crate) mod envelope;
pub mod fuzzy;
pub(crate) mod lenient;
pub(crate) mod next_move;
pub(crate) mod retry;
pub(crate) mod tool_result;
pub(crate) mod variant_spec;
