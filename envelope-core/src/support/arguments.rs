//! The helpers of an argument variant (`argument(...)` attributes, an
//! `argument_errors` field): its envelope through `args`, one problem, and
//! the catalog's texts.

use std::borrow::Cow;

use crate::model::argument_error::{ArgumentError, ArgumentErrorKind};
use crate::model::category::UserErrorCategory;
use crate::model::envelope::ErrorEnvelope;
use crate::support::role::{ArgumentList, StrList};

/// The envelope of a variant with `argument(...)` attributes or an
/// `argument_errors` field: [`crate::args::invalid_arguments`] over the
/// attributes' problems and then the field's, so its message, next step
/// and ordering are those of every other argument failure; the variant's
/// category and code on top. (Its class is `InvalidArguments`, which the
/// derive checks.)
#[must_use]
pub fn arguments<const N: usize, L: ArgumentList>(
    category: UserErrorCategory,
    code: &'static str,
    problems: [ArgumentError; N],
    more: L,
) -> ErrorEnvelope {
    let mut all = Vec::with_capacity(N + 1);
    all.extend(problems);
    more.move_into(&mut all);
    let mut envelope = crate::args::invalid_arguments(all);
    let fields = envelope.fields_mut();
    fields.category = Some(category);
    fields.code = Some(Cow::Borrowed(code));
    envelope
}

/// The `more` of [`arguments`] for a variant without an `argument_errors`
/// field.
pub const NO_ARGUMENTS: Option<&[ArgumentError]> = None;

/// One `argument(path = ..., kind = ..., expected = ...)` problem, with
/// the suggestions of its `suggestions = field` (or `NO_STEPS`).
#[must_use]
pub fn argument<L: StrList>(
    kind: ArgumentErrorKind,
    path: &'static str,
    expected: Option<&'static str>,
    suggestions: L,
) -> ArgumentError {
    let mut problem = ArgumentError::new(kind, path);
    problem.expected = expected.map(String::from);
    problem.suggestions = suggestions.into_strings();
    problem
}

/// The first next step of an argument variant that writes steps of its
/// own or has a `next_steps` field: the one of
/// [`crate::args::invalid_arguments`].
pub const ARGUMENT_STEP: &str = crate::model::argument_error::FIX_STEP;

/// The catalog's next steps of an argument variant without `next_step`s.
pub const ARGUMENT_STEPS: &[&str] = &[ARGUMENT_STEP];

/// The catalog's message of an argument variant without a `message`: what
/// [`crate::args::invalid_arguments`] writes, in words (the problems are
/// known only at run time).
pub const ARGUMENTS_MESSAGE: &str = "N problem(s) in the arguments, each listed in argument_errors";
