//! The JSON writer behind `to_json_string`, `Envelope::write_json` and
//! `Envelope::to_tool_result`: an envelope's compact JSON, streamed in wire
//! order straight from borrowed parts.
//!
//! The derive calls the writer with the error's own fields (templates as
//! `format_args!`, lists as the field's collection), so rendering a tool
//! result allocates only the result's strings. Every byte equals what
//! `serde_json::to_string` writes for the equivalent [`ErrorEnvelope`];
//! the tests here and in `tests/bench_parity.rs` check it.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::category::UserErrorCategory;
use crate::class::ErrorClass;
use crate::envelope::ErrorEnvelope;

/// A message or next step: borrowed text, or a template still to be
/// formatted.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub enum Text<'a> {
    /// Text as it is.
    Str(&'a str),
    /// A `format_args!` template with its arguments.
    Fmt(fmt::Arguments<'a>),
}

/// Formats `args` into a string allocated once, at its final length.
/// Short results are formatted on the stack and copied (formatting once
/// matters for a `Display` impl); longer ones are measured, then written.
/// (`format!` guesses a capacity and grows the string when the guess is
/// short.)
pub(crate) fn render(args: fmt::Arguments<'_>) -> String {
    if let Some(s) = args.as_str() {
        return String::from(s);
    }
    let mut stack = Small {
        buf: [0; SMALL],
        len: 0,
    };
    if fmt::write(&mut stack, args).is_ok()
        && let Ok(text) = std::str::from_utf8(&stack.buf[..stack.len])
    {
        return String::from(text);
    }
    let mut counter = Counter(0);
    let _ = fmt::write(&mut counter, args);
    let mut out = String::with_capacity(counter.0);
    let _ = fmt::write(&mut out, args);
    out
}

const SMALL: usize = 128;

/// A fixed buffer that fails once it is full.
struct Small {
    buf: [u8; SMALL],
    len: usize,
}

impl fmt::Write for Small {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let slot = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Counts the bytes written to it.
struct Counter(usize);

impl fmt::Write for Counter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// A list of strings: what a `fuzzy_matches` or `next_steps` field holds
/// (`Vec<String>`, `&[&str]`, `[&str; N]`, `Option<Vec<String>>`,
/// `BTreeSet<String>`, `VecDeque<String>`, or a reference to one).
/// Object-safe, so one writer takes any of them.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `fuzzy_matches` / `next_steps` field",
    label = "expected a list of strings",
    note = "use `Vec<String>`, `Vec<&str>`, `&[&str]`, `[&str; N]`, `Option<Vec<String>>`, `BTreeSet<String>` or `VecDeque<String>`"
)]
pub trait StrList {
    /// Calls `f` with each string, in order.
    fn for_each_str(&self, f: &mut dyn FnMut(&str));
    /// A lower bound of the number of strings, for reserving capacity.
    fn len_hint(&self) -> usize;
    /// The strings as owned values. Copies each one; a `Vec<String>` moves
    /// instead, keeping its heap buffer.
    fn into_strings(self) -> Vec<String>
    where
        Self: Sized,
    {
        let mut out = Vec::new();
        self.copy_into(&mut out);
        out
    }

    /// Appends a copy of each string to `out`, reserving room first.
    fn copy_into(&self, out: &mut Vec<String>) {
        out.reserve_exact(self.len_hint());
        self.for_each_str(&mut |s| out.push(String::from(s)));
    }
}

impl<T: AsRef<str> + Into<String>> StrList for Vec<T> {
    fn for_each_str(&self, f: &mut dyn FnMut(&str)) {
        for s in self {
            f(s.as_ref());
        }
    }

    fn len_hint(&self) -> usize {
        self.len()
    }

    /// The identity map over a `Vec<String>` is collected in place: the
    /// strings and the buffer move, nothing is copied.
    fn into_strings(self) -> Vec<String> {
        self.into_iter().map(Into::into).collect()
    }
}

macro_rules! str_list_by_iter {
    ($($ty:ty => [$($generics:tt)*];)*) => {
        $(
            impl<$($generics)*> StrList for $ty {
                fn for_each_str(&self, f: &mut dyn FnMut(&str)) {
                    for s in self {
                        f(s.as_ref());
                    }
                }

                fn len_hint(&self) -> usize {
                    self.len()
                }
            }
        )*
    };
}

str_list_by_iter! {
    [T] => [T: AsRef<str>];
    [T; N] => [T: AsRef<str>, const N: usize];
    std::collections::BTreeSet<T> => [T: AsRef<str>];
    std::collections::VecDeque<T> => [T: AsRef<str>];
}

impl<L: StrList + ?Sized> StrList for &L {
    fn for_each_str(&self, f: &mut dyn FnMut(&str)) {
        (**self).for_each_str(f);
    }

    fn len_hint(&self) -> usize {
        (**self).len_hint()
    }
}

impl<L: StrList> StrList for Option<L> {
    fn for_each_str(&self, f: &mut dyn FnMut(&str)) {
        if let Some(list) = self {
            list.for_each_str(f);
        }
    }

    fn len_hint(&self) -> usize {
        self.as_ref().map_or(0, StrList::len_hint)
    }

    fn into_strings(self) -> Vec<String> {
        self.map(StrList::into_strings).unwrap_or_default()
    }
}

/// One `detail` field: its key and the field, serialized when written.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Detail<'a> {
    pub(crate) key: &'static str,
    pub(crate) value: &'a dyn ToValue,
}

/// A value that becomes a JSON [`Value`]; an object-safe stand-in for
/// `Serialize`, so one slice holds fields of different types.
#[doc(hidden)]
pub trait ToValue {
    /// The value as JSON; `null` when it does not serialize (as
    /// `ErrorEnvelope::with_detail` would have stored it).
    fn to_value(&self) -> Value;
}

impl<T: ?Sized + Serialize> ToValue for T {
    fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The details of `fields` as the map an owned envelope holds.
pub(crate) fn details_map(fields: &[Detail<'_>]) -> Map<String, Value> {
    let mut map = Map::new();
    for detail in fields {
        map.insert(String::from(detail.key), detail.value.to_value());
    }
    map
}

/// Where the writer puts its text: a `String`, or [`Stack`].
pub(crate) trait Out {
    fn push_str(&mut self, s: &str);
}

impl Out for String {
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
}

/// Room on the stack for an envelope's JSON; nearly all fit, and the text
/// is then copied into a string of exactly its length.
const STACK_JSON: usize = 1024;

/// A JSON output on the stack that moves to the heap when full. Once it
/// has, `len` is past the buffer, so the inlined fast path of `push_str`
/// is one bounds check and a copy.
pub(crate) struct Stack {
    buf: [u8; STACK_JSON],
    len: usize,
    spill: Option<String>,
}

/// `Stack::len` after spilling: no slice of the buffer starts there.
const SPILLED: usize = usize::MAX;

impl Stack {
    pub(crate) fn new() -> Self {
        Stack {
            buf: [0; STACK_JSON],
            len: 0,
            spill: None,
        }
    }

    fn written(&self) -> Cow<'_, str> {
        let bytes = self.buf.get(..self.len).unwrap_or_default();
        // Only whole `&str`s are copied in, so this is valid UTF-8; the
        // lossy fallback is unreachable (and much slower than the check).
        match std::str::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(bytes),
        }
    }

    /// The text, in one allocation when it stayed on the stack.
    pub(crate) fn finish(self) -> String {
        match self.spill {
            Some(spill) => spill,
            None => self.written().into_owned(),
        }
    }

    #[cold]
    #[inline(never)]
    fn push_spilled(&mut self, s: &str) {
        if let Some(spill) = &mut self.spill {
            spill.push_str(s);
            return;
        }
        let mut spill = String::with_capacity(2 * (self.len + s.len()));
        spill.push_str(&self.written());
        spill.push_str(s);
        self.spill = Some(spill);
        self.len = SPILLED;
    }
}

impl Out for Stack {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        let end = self.len.saturating_add(s.len());
        match self.buf.get_mut(self.len..end) {
            Some(slot) => {
                slot.copy_from_slice(s.as_bytes());
                self.len = end;
            }
            None => self.push_spilled(s),
        }
    }
}

/// The keys after `retry_after_ms` that every envelope knows up front;
/// written when the first later key (or the end) comes.
#[derive(Clone, Copy)]
pub(crate) struct Tail<'t> {
    pub(crate) code: Option<&'t str>,
    pub(crate) category: Option<UserErrorCategory>,
    pub(crate) retryable: bool,
}

/// Streams one envelope's JSON. Call `begin`, then any of the keys in wire
/// order (`ora_code`, `tool`, `list` for fuzzy matches then next steps,
/// `retry`, `help_url`, `details_*`), then `end`.
pub(crate) struct JsonWriter<'o, 't, O: Out> {
    pub(crate) out: &'o mut O,
    tail: Option<Tail<'t>>,
}

impl<'o, 't, O: Out> JsonWriter<'o, 't, O> {
    #[inline]
    pub(crate) fn new(out: &'o mut O) -> Self {
        JsonWriter { out, tail: None }
    }

    #[inline]
    pub(crate) fn begin(&mut self, class: ErrorClass, message: Text<'_>, tail: Tail<'t>) {
        self.out.push_str(r#"{"isError":true,"error_class":""#);
        self.out.push_str(class.as_str());
        self.out.push_str(r#"","message":"#);
        write_text(self.out, message);
        self.tail = Some(tail);
    }

    #[inline]
    pub(crate) fn ora_code(&mut self, code: Option<i32>) {
        if let Some(code) = code {
            self.out.push_str(r#","ora_code":"#);
            push_int(self.out, code < 0, u64::from(code.unsigned_abs()));
        }
    }

    #[inline]
    pub(crate) fn tool(&mut self, tool: Option<&str>) {
        if let Some(tool) = tool {
            self.out.push_str(r#","suggested_tool":"#);
            write_str(self.out, tool);
        }
    }

    /// `key` is `FUZZY` or `STEPS`; nothing is written for an empty list.
    #[inline]
    pub(crate) fn list(&mut self, key: &str, templates: &[Text<'_>], more: Option<&dyn StrList>) {
        let out = &mut *self.out;
        let mut first = true;
        let mut item = |out: &mut O| {
            out.push_str(if first { key } else { "," });
            first = false;
        };
        for template in templates {
            item(out);
            write_text(out, *template);
        }
        if let Some(more) = more {
            more.for_each_str(&mut |s| {
                item(out);
                write_str(out, s);
            });
        }
        if !first {
            out.push_str("]");
        }
    }

    #[inline]
    pub(crate) fn retry(&mut self, ms: Option<u64>) {
        if let Some(ms) = ms {
            self.out.push_str(r#","retry_after_ms":"#);
            push_int(self.out, false, ms);
        }
    }

    #[inline]
    fn flush_tail(&mut self) {
        let Some(tail) = self.tail.take() else { return };
        if let Some(code) = tail.code {
            self.out.push_str(r#","code":"#);
            write_str(self.out, code);
        }
        if let Some(category) = tail.category {
            self.out.push_str(r#","category":""#);
            self.out.push_str(category.as_str());
            self.out.push_str("\"");
        }
        if tail.retryable {
            self.out.push_str(r#","retryable":true"#);
        }
    }

    #[inline]
    pub(crate) fn help_url(&mut self, url: Option<&str>) {
        self.flush_tail();
        if let Some(url) = url {
            self.out.push_str(r#","help_url":"#);
            write_str(self.out, url);
        }
    }

    /// Details go through `serde_json`'s `Map`, so key order (sorted, or
    /// insertion order under its `preserve_order` feature) is exactly the
    /// owned envelope's.
    pub(crate) fn details_map(&mut self, map: &Map<String, Value>) {
        self.flush_tail();
        if map.is_empty() {
            return;
        }
        self.out.push_str(r#","details":"#);
        // A map of JSON values always serializes.
        match serde_json::to_string(map) {
            Ok(json) => self.out.push_str(&json),
            Err(_) => self.out.push_str("{}"),
        }
    }

    /// Derived `detail` fields, written as [`JsonWriter::details_map`].
    pub(crate) fn details_fields(&mut self, fields: &[Detail<'_>]) {
        self.details_map(&details_map(fields));
    }

    #[inline]
    pub(crate) fn end(&mut self) {
        self.flush_tail();
        self.out.push_str("}");
    }
}

/// Keys of the two lists, with the comma and the opening bracket.
pub(crate) const FUZZY: &str = r#","fuzzy_matches":["#;
pub(crate) const STEPS: &str = r#","next_steps":["#;

/// Writes `envelope`'s compact JSON to `out`.
pub(crate) fn write_envelope<O: Out>(out: &mut O, envelope: &ErrorEnvelope) {
    let mut json = JsonWriter::new(out);
    json.begin(
        envelope.error_class,
        Text::Str(&envelope.message),
        Tail {
            code: envelope.code.as_deref(),
            category: envelope.category,
            retryable: envelope.retryable,
        },
    );
    json.ora_code(envelope.ora_code);
    json.tool(envelope.suggested_tool.as_deref());
    json.list(FUZZY, &[], Some(&envelope.fuzzy_matches));
    json.list(STEPS, &[], Some(&envelope.next_steps));
    json.retry(envelope.retry_after_ms);
    json.help_url(envelope.help_url.as_deref());
    json.details_map(&envelope.details);
    json.end();
}

/// `envelope`'s compact JSON in a string allocated once.
pub(crate) fn envelope_json(envelope: &ErrorEnvelope) -> String {
    let mut out = Stack::new();
    write_envelope(&mut out, envelope);
    out.finish()
}

/// Writes `"`, the escaped text, `"`.
#[inline]
fn write_text<O: Out>(out: &mut O, text: Text<'_>) {
    match text {
        Text::Str(s) => write_str(out, s),
        Text::Fmt(args) => match args.as_str() {
            Some(s) => write_str(out, s),
            None => {
                out.push_str("\"");
                // Escaping into an `Out` never fails.
                let _ = fmt::write(&mut Escaper(out), args);
                out.push_str("\"");
            }
        },
    }
}

/// Writes `s` as a JSON string, escaped exactly as `serde_json` does.
#[inline]
fn write_str<O: Out>(out: &mut O, s: &str) {
    out.push_str("\"");
    push_escaped(out, s);
    out.push_str("\"");
}

/// `serde_json`'s escapes: `"` and `\`, the short forms `\b \f \n \r \t`,
/// `\u00xx` (lowercase hex) for other control characters; everything else,
/// DEL and non-ASCII included, as it is.
#[inline]
fn push_escaped<O: Out>(out: &mut O, s: &str) {
    // Almost no text needs escaping: one branch-free (vectorized) pass
    // finds out, and the text is copied whole.
    let plain = !s.bytes().fold(false, |any, b| {
        any | (b < 0x20) | (b == b'"') | (b == b'\\')
    });
    if plain {
        out.push_str(s);
    } else {
        push_escaped_slow(out, s);
    }
}

/// The rare text that needs escaping goes through `serde_json` itself, so
/// the escapes are serde_json's by construction, not a copy of its rules.
#[cold]
fn push_escaped_slow<O: Out>(out: &mut O, s: &str) {
    let quoted = serde_json::to_string(s).unwrap_or_default();
    let inner = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .unwrap_or_default();
    out.push_str(inner);
}

/// Writes an integer in decimal, with `itoa` (what `serde_json` uses).
fn push_int<O: Out>(out: &mut O, negative: bool, value: u64) {
    if negative {
        out.push_str("-");
    }
    out.push_str(itoa::Buffer::new().format(value));
}

/// A `fmt::Write` that escapes what it is given into an [`Out`].
struct Escaper<'a, O>(&'a mut O);

impl<O: Out> fmt::Write for Escaper<'_, O> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        push_escaped(self.0, s);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ErrorEnvelope {
        ErrorEnvelope::new(
            ErrorClass::ObjectNotFound,
            "object \"EMPLOYES\"\n\u{1}\u{7f}é does not exist",
        )
        .with_ora_code(-942)
        .with_suggested_tool("schema_inspect")
        .with_fuzzy_matches(vec!["EMPLOYEES".into(), "EMP\\LOYEE\t".into()])
        .with_next_step("check the spelling")
        .with_next_step("call schema_inspect")
        .with_retry_after_ms(u64::MAX)
        .with_code("TABLE_MISSING")
        .with_help_url("https://example.test/errors#942")
        .with_detail("name", "EMPLOYES")
        .with_detail("attempt", 3)
    }

    #[test]
    fn envelope_json_is_byte_equal_to_serde() {
        let bare = ErrorEnvelope::new(ErrorClass::Busy, "");
        let mut no_category = ErrorEnvelope::new(ErrorClass::Internal, "x");
        no_category.category = None;
        no_category.suggested_tool = Some(String::new());
        let mut no_code = ErrorEnvelope::new(ErrorClass::Timeout, "t").with_help_url("u");
        no_code.code = None;
        for envelope in [sample(), bare, no_category, no_code] {
            let serde = serde_json::to_string(&envelope).unwrap();
            assert_eq!(envelope_json(&envelope), serde);
            let mut out = String::from("[");
            write_envelope(&mut out, &envelope);
            assert_eq!(out, format!("[{serde}"));
        }
    }

    #[test]
    fn json_longer_than_the_stack_buffer_moves_to_the_heap() {
        let long = "\"x".repeat(STACK_JSON);
        let envelope = ErrorEnvelope::new(ErrorClass::Internal, long.clone())
            .with_next_step(long.clone())
            .with_fuzzy_matches(vec![long; 3]);
        let json = envelope_json(&envelope);
        assert!(json.len() > 8 * STACK_JSON);
        assert_eq!(json, serde_json::to_string(&envelope).unwrap());
    }

    #[test]
    fn escapes_every_control_character_like_serde() {
        let all: String = (0u8..=0x7f)
            .map(char::from)
            .chain("é\u{2028}🦀".chars())
            .collect();
        let mut out = String::new();
        write_str(&mut out, &all);
        assert_eq!(out, serde_json::to_string(&all).unwrap());
    }

    #[test]
    fn integers_match_serde() {
        for value in [0, 7, 10, 942, i32::MAX, -1, -942, i32::MIN] {
            let mut out = String::new();
            push_int(&mut out, value < 0, u64::from(value.unsigned_abs()));
            assert_eq!(out, value.to_string());
        }
        let mut out = String::new();
        push_int(&mut out, false, u64::MAX);
        assert_eq!(out, "18446744073709551615");
    }

    #[test]
    fn render_allocates_the_exact_length() {
        let name = "EMPLOYES";
        let short = render(format_args!("{name}"));
        assert_eq!((short.as_str(), short.capacity()), ("EMPLOYES", 8));
        let long = "x".repeat(300);
        let rendered = render(format_args!("[{long}]"));
        assert_eq!((rendered.len(), rendered.capacity()), (302, 302));
        assert_eq!(render(format_args!("plain")), "plain");
    }

    #[test]
    fn templates_are_escaped_while_formatted() {
        let name = "a\"b";
        let mut out = String::new();
        let mut json = JsonWriter::new(&mut out);
        json.begin(
            ErrorClass::InvalidArguments,
            Text::Fmt(format_args!("bad {name}\n")),
            Tail {
                code: Some("BAD"),
                category: Some(UserErrorCategory::Validation),
                retryable: false,
            },
        );
        json.list(FUZZY, &[], None);
        json.list(
            STEPS,
            &[Text::Fmt(format_args!("check {name}")), Text::Str("retry")],
            None,
        );
        json.end();
        assert_eq!(
            out,
            r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"bad a\"b\n","next_steps":["check a\"b","retry"],"code":"BAD","category":"Validation"}"#
        );
        let owned = ErrorEnvelope::new(ErrorClass::InvalidArguments, "bad a\"b\n")
            .with_code("BAD")
            .with_next_step("check a\"b")
            .with_next_step("retry");
        assert_eq!(out, serde_json::to_string(&owned).unwrap());
    }
}
