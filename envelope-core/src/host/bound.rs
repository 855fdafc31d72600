//! The bounds on what a peer sends: every text cut to a documented size,
//! every list to a documented length, and JSON too deep to walk on a small
//! stack left unread. Applied once, to the envelope each reader returns.

use serde_json::{Map, Value};

use crate::model::argument_error::ArgumentError;
use crate::model::envelope::ErrorEnvelope;

/// How many characters of a peer's message (or, without one, of its plain
/// text) the envelope keeps; a longer text is cut and ends with `…`, the
/// mark counted in the bound (as it is in every bound below).
pub const MAX_TEXT_CHARS: usize = 2000;

/// How many characters of a peer's next step (a SEP-3313 `agentGuidance`
/// included) the envelope keeps.
pub const MAX_STEP_CHARS: usize = 500;

/// How many characters of a peer's short text the envelope keeps: its
/// `code`, `suggested_tool`, `correlation_id`, `help_url`, each near-miss
/// name and each argument problem's path, `expected`, `received` and
/// suggestions.
pub const MAX_NAME_CHARS: usize = 200;

/// How many items of each of a peer's lists the envelope keeps:
/// `next_steps`, `fuzzy_matches` and each argument problem's
/// `suggestions`.
pub const MAX_ITEMS: usize = 10;

/// How many argument problems of a peer the envelope keeps.
pub const MAX_ARGUMENT_ERRORS: usize = 20;

/// How many bytes of a peer's `details`, written as compact JSON, the
/// envelope keeps; larger `details` are dropped whole (a cut object would
/// not be valid JSON).
pub const MAX_DETAILS_BYTES: usize = 8 * 1024;

/// How many characters [`model_text`](crate::host::model_text) writes at
/// most, whatever the envelope holds.
pub const MAX_MODEL_TEXT_CHARS: usize = 4000;

/// How deep a peer's JSON may nest (objects and arrays) to be read as an
/// envelope: `serde_json`'s own parser limit. Deeper JSON is not read (it
/// is not an envelope of ours), so no reader recurses past it, whatever
/// stack it runs on.
pub const MAX_DEPTH: usize = 128;

/// `text`, cut to `max` characters, the `…` that marks the cut included.
pub(super) fn cut_to(text: &str, max: usize) -> String {
    let mut text = text.to_owned();
    cut_in_place(&mut text, max);
    text
}

/// `text`, cut to [`MAX_TEXT_CHARS`] characters.
pub(super) fn cut(text: &str) -> String {
    cut_to(text, MAX_TEXT_CHARS)
}

/// Cuts `text` in place to `max` characters, the `…` that marks the cut
/// included (`max` 0 leaves it empty).
fn cut_in_place(text: &mut String, max: usize) {
    if text.char_indices().nth(max).is_none() {
        return;
    }
    match max
        .checked_sub(1)
        .and_then(|keep| text.char_indices().nth(keep))
    {
        Some((end, _)) => {
            text.truncate(end);
            text.push('…');
        }
        None => text.clear(),
    }
}

/// Whether `value` nests at most [`MAX_DEPTH`] levels, walked without
/// recursion.
pub(super) fn shallow(value: &Value) -> bool {
    let mut stack: Vec<(&Value, usize)> = vec![(value, 1)];
    while let Some((value, depth)) = stack.pop() {
        match value {
            Value::Array(_) | Value::Object(_) if depth > MAX_DEPTH => return false,
            Value::Array(items) => stack.extend(items.iter().map(|child| (child, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|child| (child, depth + 1))),
            _ => {}
        }
    }
    true
}

/// `envelope` with every text and list of the peer's within the bounds
/// above.
pub(super) fn bound(mut envelope: ErrorEnvelope) -> ErrorEnvelope {
    let fields = envelope.fields_mut();
    cut_in_place(&mut fields.message, MAX_TEXT_CHARS);
    for text in [
        &mut fields.suggested_tool,
        &mut fields.correlation_id,
        &mut fields.help_url,
    ]
    .into_iter()
    .flatten()
    {
        cut_in_place(text, MAX_NAME_CHARS);
    }
    if let Some(code) = &fields.code
        && code.chars().nth(MAX_NAME_CHARS).is_some()
    {
        fields.code = Some(cut_to(code, MAX_NAME_CHARS).into());
    }
    names(&mut fields.fuzzy_matches);
    fields.next_steps.truncate(MAX_ITEMS);
    for step in &mut fields.next_steps {
        cut_in_place(step, MAX_STEP_CHARS);
    }
    fields.argument_errors.truncate(MAX_ARGUMENT_ERRORS);
    fields.argument_errors.iter_mut().for_each(problem);
    if !details_fit(&fields.details) {
        fields.details = Map::new();
    }
    envelope
}

/// A list of names within [`MAX_ITEMS`] and [`MAX_NAME_CHARS`].
fn names(names: &mut Vec<String>) {
    names.truncate(MAX_ITEMS);
    for name in names {
        cut_in_place(name, MAX_NAME_CHARS);
    }
}

/// An argument problem's texts within the bounds.
fn problem(problem: &mut ArgumentError) {
    cut_in_place(&mut problem.path, MAX_NAME_CHARS);
    for text in [&mut problem.expected, &mut problem.received]
        .into_iter()
        .flatten()
    {
        cut_in_place(text, MAX_NAME_CHARS);
    }
    names(&mut problem.suggestions);
}

/// Whether `details`, as compact JSON, fits in [`MAX_DETAILS_BYTES`]
/// (written until it does not, never whole).
fn details_fit(details: &Map<String, Value>) -> bool {
    /// A writer that fails once `left` bytes are used up.
    struct Budget {
        left: usize,
    }
    impl std::io::Write for Budget {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.left = self
                .left
                .checked_sub(bytes.len())
                .ok_or(std::io::ErrorKind::WriteZero)?;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    details.is_empty()
        || serde_json::to_writer(
            Budget {
                left: MAX_DETAILS_BYTES,
            },
            details,
        )
        .is_ok()
}
