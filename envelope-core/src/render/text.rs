//! The text a model reads. Its lead (the move and each argument problem as
//! its fix) follows the envelope's JSON in a tool result's content and an
//! MCP result's text blocks ([`blocks`]), and in the host's `model_text`;
//! the whole text, `ErrorEnvelope`'s `Display`, adds the facts as lines
//! and says the move again last, for a reader without the JSON. Each
//! renders one move, the one decision's ([`NextMove::of`]).
//!
//! Written for acting, not for logging. The principles, measured with a
//! real model by the recovery benchmark (`scripts/recovery/`):
//!
//! - the first sentence says what to do next, in the imperative: the
//!   corrected call, the fix, the wait, the check, the tool to call;
//! - every argument problem is spelled out as its fix, and when the fix
//!   follows from what was sent (a misspelled key, a number sent as a
//!   string) the corrected arguments are given whole;
//! - a near miss is the name to send, not a question (`Call again with
//!   "get_note" in place of the name you sent`): a question is what a
//!   model passes on to the user;
//! - a call that is not safe to repeat says "Do not repeat this call";
//! - a tool the model should call is named, with the arguments to call it
//!   with when the server computed them (`args`' `next_call.rs`), and
//!   nothing else: a clause on what comes after the call ("do not repeat
//!   this call before that") made a 1.5B model wait before the call
//!   (round 7 of the benchmark).

use std::fmt;

use serde_json::Value;

use crate::model::argument_error::{
    ArgumentError, ArgumentErrorKind, CORRECTED_ARGUMENTS, FIX_STEP, NEXT_CALL_KEYS,
    SUGGESTED_ARGUMENTS, json_type, names_list, offered, with_article,
};
use crate::model::behaviour::KEY_STEP;
use crate::model::effect::Effect;
use crate::model::envelope::ErrorEnvelope;
use crate::model::next_move::{Attempt, NextMove};

/// How the sentence of [`NextMove::PickNearMiss`] begins; the names
/// follow as JSON strings (`Call again with "get_note" in place of the
/// name you sent.`). The host reads them back from a text that says so
/// (the rmcp router's unknown-tool message).
pub(crate) const NEAR_MISS_LEAD: &str = "Call again with ";

/// What comes between [`NEAR_MISS_LEAD`] and the names when there are
/// several (`Call again with the one meant of "a" or "b" in place of ...`).
pub(crate) const NEAR_MISS_SEVERAL: &str = "the one meant of ";

/// Writes the text of `envelope` with `next` as its first and last
/// sentence (see the module docs).
pub(crate) fn write(
    out: &mut impl fmt::Write,
    envelope: &ErrorEnvelope,
    next: &NextMove,
) -> fmt::Result {
    let act = envelope.error_class.act();
    let class_sentence = lead(out, envelope, next)?;
    write!(out, "\n{}", envelope.error_class)?;
    if let Some(code) = envelope
        .code
        .as_deref()
        .filter(|code| *code != envelope.error_class.as_str())
    {
        write!(out, " ({code})")?;
    }
    // A message that only lists the problems above (the one `args` writes)
    // is not repeated.
    let listed = !envelope.argument_errors.is_empty()
        && envelope.argument_errors.iter().all(|problem| {
            // Near misses found after the message was written do not count.
            let text = problem.to_string();
            let said = text.split(" (did you mean ").next().unwrap_or(&text);
            envelope.message.contains(said)
        });
    if !listed {
        write!(out, ": {}", envelope.message)?;
    }
    if !envelope.fuzzy_matches.is_empty() && !matches!(next, NextMove::PickNearMiss { .. }) {
        out.write_str("\nDid you mean: ")?;
        names_list(out, &envelope.fuzzy_matches)?;
    }
    if let Some(tool) = &envelope.suggested_tool
        && !matches!(
            next,
            NextMove::CallTool { .. }
                | NextMove::Check { tool: Some(_), .. }
                | NextMove::Replayed { tool: Some(_), .. }
                | NextMove::PickNearMiss { .. }
        )
    {
        write!(out, "\nSuggested tool: {tool}")?;
        with_arguments(out, offered(&envelope.details, SUGGESTED_ARGUMENTS))?;
    }
    // A lead that says not to repeat is not contradicted below.
    let no_repeat = if class_sentence {
        says_no_repeat(act) && !act.contains("unchanged")
    } else {
        matches!(
            next,
            NextMove::Check { .. }
                | NextMove::Stop
                | NextMove::AskUser
                | NextMove::Postpone { .. }
                | NextMove::Replayed { .. }
                | NextMove::Exhausted { .. }
        )
    };
    // The steps the lead has not already said: not the argument fix (the
    // problems are listed), the check or a repeat (the lead says it or
    // forbids it); the key's step says what a plain repeat does not.
    let repeat_said = no_repeat || next.is_repeat();
    for step in &envelope.next_steps {
        let repeats = asks_to_repeat(step) && !(step == KEY_STEP && next.is_repeat());
        if step != FIX_STEP && !Effect::is_check_step(step) && !(repeat_said && repeats) {
            write!(out, "\nNext step: {step}")?;
        }
    }
    if let Some(ms) = envelope.retry_after_ms
        && !no_repeat
        && !next.is_repeat()
    {
        write!(out, "\nRetry after: {ms} ms")?;
    }
    for (key, value) in &envelope.details {
        match value {
            // The next call's arguments are in the lead, or in the
            // suggested tool's line.
            _ if NEXT_CALL_KEYS.contains(&key.as_str())
                && offered(&envelope.details, key).is_some() => {}
            Value::String(text) => write!(out, "\n{key}: {text}")?,
            other => write!(out, "\n{key}: {other}")?,
        }
    }
    if let Some(code) = envelope.ora_code {
        write!(out, "\nBackend error code: {code}")?;
    }
    // For a failure the model reports, the id that finds its log line.
    if let Some(id) = &envelope.correlation_id
        && (class_sentence
            || matches!(
                next,
                NextMove::Check { .. }
                    | NextMove::AskUser
                    | NextMove::Stop
                    | NextMove::Exhausted { .. }
                    | NextMove::Replayed { .. }
            ))
    {
        write!(out, "\nCorrelation id: {id}")?;
    }
    if let Some(url) = &envelope.help_url {
        write!(out, "\nHelp: {url}")?;
    }
    // The action again, last: what a reader weighs most is what it read
    // first and what it read last.
    out.write_str("\n")?;
    sentence(out, envelope, next, class_sentence, true)
}

/// Writes the lead of the text of `envelope`: `next`'s sentence, then
/// each argument problem as its fix, the lines a model acts on; the facts
/// (class, code, message, near misses, steps, hints) follow in [`write`].
/// Returns whether the sentence is the class's own.
fn lead(
    out: &mut impl fmt::Write,
    envelope: &ErrorEnvelope,
    next: &NextMove,
) -> Result<bool, fmt::Error> {
    // The class's own sentence says what to do (and who acts) when the
    // move says no more than "change the call", "fix the arguments", "ask
    // the user" or "stop"; the text then names the correlation id too.
    let class_sentence = match next {
        NextMove::FixArguments {
            problems,
            arguments: None,
        } => problems.is_empty(),
        NextMove::ChangeCall => true,
        NextMove::AskUser | NextMove::Stop => says_no_repeat(envelope.error_class.act()),
        _ => false,
    };
    sentence(out, envelope, next, class_sentence, false)?;
    // The argument problems right under the lead that announces them.
    let corrected = offered(&envelope.details, CORRECTED_ARGUMENTS);
    for problem in &envelope.argument_errors {
        out.write_str("\n- ")?;
        fix(out, problem, corrected)?;
    }
    Ok(class_sentence)
}

/// The move's sentence; `class_sentence` for the class's own sentence
/// instead, `closing` for its repetition as the last line, after the
/// argument problems it announces.
fn sentence(
    out: &mut impl fmt::Write,
    envelope: &ErrorEnvelope,
    next: &NextMove,
    class_sentence: bool,
    closing: bool,
) -> fmt::Result {
    if class_sentence {
        return out.write_str(envelope.error_class.act());
    }
    match next {
        NextMove::FixArguments {
            arguments: Some(arguments),
            ..
        } => write!(
            out,
            "Call this tool again with these arguments: {arguments}"
        ),
        NextMove::FixArguments { .. } if closing => {
            out.write_str("Fix the arguments listed above, then call this tool again.")
        }
        NextMove::FixArguments { .. } => {
            out.write_str("Fix these arguments, then call this tool again:")
        }
        NextMove::Repeat { .. } => match envelope.retry_after_ms {
            Some(ms) => write!(out, "Wait {ms} ms, then repeat the same call unchanged."),
            None => out.write_str("Repeat the same call unchanged; it may succeed now."),
        },
        NextMove::Check { tool, arguments } => {
            out.write_str("Do not repeat this call: it may already have taken effect.")?;
            match tool {
                Some(tool) => {
                    write!(out, " Call {tool}")?;
                    with_arguments(out, arguments.as_ref())?;
                    out.write_str(" now to check whether it did.")
                }
                // No tool to check with: the model cannot check, so it
                // reports.
                None => out.write_str(" Tell the user it failed and may have taken effect."),
            }
        }
        NextMove::Replayed { tool, arguments } => {
            out.write_str(
                "Do not repeat this call with the same idempotency key: that returns this stored answer again.",
            )?;
            match (tool, envelope.effect) {
                (_, Effect::Nothing) => {
                    out.write_str(" To run it again, make a new call with a new idempotency key.")
                }
                (Some(tool), _) => {
                    write!(out, " It may have taken effect: call {tool}")?;
                    with_arguments(out, arguments.as_ref())?;
                    out.write_str(
                        " to check whether it did, and only if it did not, make a new call with a new idempotency key.",
                    )
                }
                (None, _) => out.write_str(" Tell the user it failed and may have taken effect."),
            }
        }
        NextMove::CallTool { tool, arguments } => {
            write!(out, "Call {tool}")?;
            with_arguments(out, arguments.as_ref())?;
            // Nothing about what comes after the call: a clause like "do
            // not repeat this call before that" was read as a wait.
            out.write_str(" now.")
        }
        // The name to send, not a question: a question is what a model
        // passes on to the user.
        NextMove::PickNearMiss { names } => {
            let several = names.len() > 1;
            out.write_str(NEAR_MISS_LEAD)?;
            if several {
                out.write_str(NEAR_MISS_SEVERAL)?;
            }
            names_list(out, names)?;
            out.write_str(" in place of the name you sent")?;
            match &envelope.suggested_tool {
                Some(tool) if several => write!(out, "; if none of these is meant, call {tool}."),
                Some(tool) => write!(out, "; if it is not the one meant, call {tool}."),
                None => out.write_str("."),
            }
        }
        NextMove::Postpone { asked } => write!(
            out,
            "Do not repeat this call now: it may pass after {}. Tell the user when it can be tried again, or go on without it.",
            human(*asked)
        ),
        NextMove::Exhausted { attempts } => write!(
            out,
            "Do not repeat this call now: it failed on all {attempts} tries the host makes. Tell the user it failed; it may pass later."
        ),
        // The class says what to change: an option, the tool, or going on
        // without it.
        NextMove::ChangeCall => out.write_str(envelope.error_class.act()),
        NextMove::AskUser => out.write_str("Do not repeat this call. Ask the user to resolve it."),
        NextMove::Stop => out.write_str("Do not repeat this call. Tell the user it failed."),
    }
}

/// A wait as a person says it, rounded down: `900 ms`, `45 s`, `12 min`,
/// `5 h`, `3 days`.
fn human(wait: std::time::Duration) -> String {
    let seconds = wait.as_secs();
    match seconds {
        0 => format!("{} ms", wait.as_millis()),
        1..120 => format!("{seconds} s"),
        120..7200 => format!("{} min", seconds / 60),
        7200..172_800 => format!("{} h", seconds / 3600),
        _ => format!("{} days", seconds / 86_400),
    }
}

/// ` with ARGUMENTS`, the arguments to call a tool with, when known.
fn with_arguments(out: &mut impl fmt::Write, arguments: Option<&Value>) -> fmt::Result {
    match arguments {
        Some(arguments) => write!(out, " with {arguments}"),
        None => Ok(()),
    }
}

/// Whether a class's sentence ([`ErrorClass::act`](crate::ErrorClass))
/// says not to repeat the call, in either form ("Do not repeat this
/// call", "Do not repeat this call unchanged").
pub(crate) fn says_no_repeat(act: &str) -> bool {
    act.starts_with("Do not repeat")
}

/// Whether a next step asks for the call again (`retry`, `repeat`, `try
/// again`, `call again`).
fn asks_to_repeat(step: &str) -> bool {
    let step = step.to_ascii_lowercase();
    ["retry", "repeat", "try again", "call again"]
        .iter()
        .any(|words| step.contains(words))
}

/// One argument problem as its fix; `corrected` holds the value to send
/// instead, when the server computed it.
fn fix(
    out: &mut impl fmt::Write,
    problem: &ArgumentError,
    corrected: Option<&Value>,
) -> fmt::Result {
    let path = if problem.path.is_empty() {
        "the arguments value"
    } else {
        problem.path.as_str()
    };
    match (problem.kind, problem.suggestions.first()) {
        (ArgumentErrorKind::Missing, _) => {
            write!(out, "{path} is missing: add it")?;
            if let Some(expected) = &problem.expected {
                write!(out, " ({expected})")?;
            }
            Ok(())
        }
        (ArgumentErrorKind::UnknownField, Some(name)) => write!(
            out,
            "{path} is not an argument of this tool: rename it to {}",
            Value::from(name.as_str())
        ),
        (ArgumentErrorKind::UnknownField, None) => {
            write!(out, "{path} is not an argument of this tool: remove it")
        }
        _ => {
            write!(out, "{problem}")?;
            let Some(value) = corrected.and_then(|arguments| arguments.pointer(&problem.path))
            else {
                return Ok(());
            };
            write!(out, ": send {value}")?;
            // A string that should have been a number or a boolean: the
            // difference is the quotes, so say so.
            if problem.received.as_deref() == Some("string") && !value.is_string() {
                write!(
                    out,
                    " without quotes, as {}",
                    with_article(json_type(value))
                )?;
            }
            Ok(())
        }
    }
}

impl fmt::Display for ErrorEnvelope {
    /// The whole text, for a reader without the JSON (a model shown the
    /// text alone, a log, a person): what to do first, then the class,
    /// code and message, each argument problem as its fix, the near misses, the
    /// suggested tool, the next steps, the retry hint, the details, the
    /// backend code, the correlation id and the help URL, each on a line
    /// of its own and only when set (see the module docs of
    /// `render::text`). For example:
    ///
    /// ```text
    /// Call this tool again with these arguments: {"id":"n-17"}
    /// INVALID_ARGUMENTS: 2 problems in the arguments: /id is missing; /note_id is not a known field (did you mean "id"?)
    /// - /id is missing: add it
    /// - /note_id is not an argument of this tool: rename it to "id"
    /// ```
    ///
    /// ```text
    /// Do not repeat this call: it may already have taken effect. Call list_orders now to check whether it did.
    /// TIMEOUT (ORDER_TIMEOUT): the order service did not answer in time
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write(f, self, &NextMove::of(self, &Attempt::default()))
    }
}

/// What a model reads of a failure, in order: the envelope's JSON (the
/// facts, as a machine reads them; an MCP result with structured content
/// repeats it as text, as the specification asks), then the lead of its
/// text: the one decision's move ([`NextMove::of`]) and each argument
/// problem as its fix. The facts are said once, in the JSON; the
/// `Display` (the lead, the facts as lines, the move again) is the text
/// for a reader without the JSON. The content blocks of an MCP error
/// result, and, joined by a newline, the `content` of a tool result. The
/// recovery benchmark (`BENCHMARKS.md`) measured this form against the
/// JSON followed by the whole `Display` (no significant difference on a
/// 1.5B model, better on a 0.5B one, in 30 % fewer tokens), the JSON alone
/// and the text alone. The JSON
/// is serialized from the struct, not from a `Value`, whose key order
/// depends on serde_json's features.
pub(crate) fn blocks(envelope: &ErrorEnvelope) -> [String; 2] {
    [envelope.json_string(), server_lead(envelope)]
}

/// The lead the server writes for `envelope`: the one decision's move for
/// a call it knows nothing more of ([`Attempt::default`]), as a string.
/// The second block of [`blocks`], and the near misses of the rmcp
/// router's unknown-tool protocol error.
pub(crate) fn server_lead(envelope: &ErrorEnvelope) -> String {
    lead_string(envelope, &NextMove::of(envelope, &Attempt::default()))
}

/// [`blocks`] as one text, joined by a newline: a tool result's `content`.
pub(crate) fn joined(envelope: &ErrorEnvelope) -> String {
    let [json, text] = blocks(envelope);
    join(&json, &text)
}

/// The two parts of what a model reads as one text: the JSON, a newline,
/// the text (also the host's `model_text`, with its own move).
pub(crate) fn join(json: &str, text: &str) -> String {
    format!("{json}\n{text}")
}

/// The lead of the text of `envelope` with `next` (see [`lead`]), as a
/// string.
pub(crate) fn lead_string(envelope: &ErrorEnvelope, next: &NextMove) -> String {
    let mut text = String::new();
    // Writing to a `String` cannot fail.
    let _ = lead(&mut text, envelope, next);
    text
}

/// The text of `envelope` with `next` first and last, as a string (see
/// [`write`]).
#[cfg(feature = "host")]
pub(crate) fn to_string(envelope: &ErrorEnvelope, next: &NextMove) -> String {
    let mut text = String::new();
    // Writing to a `String` cannot fail.
    let _ = write(&mut text, envelope, next);
    text
}
