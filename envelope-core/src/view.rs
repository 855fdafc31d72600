//! [`EnvelopeView`]: an error envelope that borrows its parts, and the JSON
//! writer that renders it without building intermediate owned data.
//!
//! The derive builds a view straight from the error's fields (templates stay
//! `format_args!`, lists stay the field's own collection), so
//! `to_tool_result` writes one JSON string and allocates nothing else. The
//! same view turned into an [`ErrorEnvelope`] gives `to_envelope`, so both
//! paths share one description of every variant.

use std::borrow::Cow;
use std::fmt;

use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};
use serde_json::{Map, Value};

use crate::category::UserErrorCategory;
use crate::class::ErrorClass;
use crate::envelope::ErrorEnvelope;

/// A borrowed error envelope: the same fields and the same wire form as
/// [`ErrorEnvelope`], with every string and list lent by its owner.
///
/// Get one from [`ErrorEnvelope::view`]; derived error types build one
/// internally for [`crate::Envelope::write_json`] and
/// [`crate::Envelope::to_tool_result`]. Its JSON ([`EnvelopeView::write_json`],
/// its `Serialize` impl) is byte for byte the JSON of the equivalent
/// `ErrorEnvelope`.
#[derive(Clone, Copy)]
pub struct EnvelopeView<'a> {
    pub(crate) error_class: ErrorClass,
    pub(crate) message: Text<'a>,
    pub(crate) ora_code: Option<i32>,
    pub(crate) suggested_tool: Option<&'a str>,
    pub(crate) fuzzy_matches: Option<&'a dyn StrList>,
    /// Rendered `next_step` templates, then `more_steps`.
    pub(crate) steps: &'a [fmt::Arguments<'a>],
    pub(crate) more_steps: Option<&'a dyn StrList>,
    pub(crate) retry_after_ms: Option<u64>,
    pub(crate) code: Option<Code<'a>>,
    pub(crate) category: Option<UserErrorCategory>,
    pub(crate) retryable: bool,
    pub(crate) help_url: Option<&'a str>,
    pub(crate) details: Details<'a>,
}

/// A message: a borrowed string, or a template still to be formatted.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub enum Text<'a> {
    /// Text as it is.
    Str(&'a str),
    /// A `format_args!` template with its arguments.
    Fmt(fmt::Arguments<'a>),
}

/// The domain code: a derive's static code, or an envelope's own.
#[derive(Clone, Copy)]
pub(crate) enum Code<'a> {
    Static(&'static str),
    Borrowed(&'a Cow<'static, str>),
}

#[derive(Clone, Copy)]
pub(crate) enum Details<'a> {
    None,
    Map(&'a Map<String, Value>),
    Fields(&'a [Detail<'a>]),
}

/// One `detail` field: its key and the field, serialized only when the view
/// is.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Detail<'a> {
    pub(crate) key: &'static str,
    pub(crate) value: &'a dyn ToValue,
}

/// A value that becomes a JSON [`Value`]; object-safe stand-in for
/// `Serialize`, so a view can hold fields of different types.
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

/// A list of strings lent by its owner (a `Vec<String>`, a `&[&str]`, a
/// `BTreeSet<String>`); object-safe, so a view can hold any of them.
#[doc(hidden)]
pub trait StrList {
    /// Calls `f` with each string, in order.
    fn for_each_str(&self, f: &mut dyn FnMut(&str));
    /// A lower bound of the number of strings, for reserving capacity.
    fn len_hint(&self) -> usize;
}

impl StrList for Vec<String> {
    fn for_each_str(&self, f: &mut dyn FnMut(&str)) {
        for s in self {
            f(s);
        }
    }

    fn len_hint(&self) -> usize {
        self.len()
    }
}

impl<'a> EnvelopeView<'a> {
    /// A view with the derive's fixed parts; the rest is empty until set.
    pub(crate) fn derived(
        error_class: ErrorClass,
        category: UserErrorCategory,
        code: &'static str,
        message: Text<'a>,
    ) -> Self {
        EnvelopeView {
            error_class,
            message,
            ora_code: None,
            suggested_tool: None,
            fuzzy_matches: None,
            steps: &[],
            more_steps: None,
            retry_after_ms: None,
            code: Some(Code::Static(code)),
            category: Some(category),
            retryable: error_class.is_retryable(),
            help_url: None,
            details: Details::None,
        }
    }

    /// The machine-stable class.
    #[must_use]
    pub fn error_class(&self) -> ErrorClass {
        self.error_class
    }

    /// The category on the wire, or the class's default when none is set
    /// (what [`ErrorEnvelope::effective_category`] returns for the owned
    /// envelope).
    #[must_use]
    pub fn effective_category(&self) -> UserErrorCategory {
        self.category
            .unwrap_or_else(|| self.error_class.default_category())
    }

    /// Appends the envelope's compact JSON to `out`: the same bytes as
    /// [`ErrorEnvelope::to_json_string`] of the equivalent envelope, written
    /// without intermediate strings (templates are formatted straight into
    /// `out`, escaped on the way).
    pub fn write_json(&self, out: &mut String) {
        self.write_to(out);
    }

    /// The writer behind [`EnvelopeView::write_json`], for any output.
    fn write_to<O: Out>(&self, out: &mut O) {
        out.push_str(r#"{"isError":true,"error_class":""#);
        out.push_str(self.error_class.as_str());
        out.push_str(r#"","message":"#);
        write_text(out, self.message);
        if let Some(code) = self.ora_code {
            out.push_str(r#","ora_code":"#);
            push_int(out, code < 0, u64::from(code.unsigned_abs()));
        }
        if let Some(tool) = self.suggested_tool {
            out.push_str(r#","suggested_tool":"#);
            write_str(out, tool);
        }
        if let Some(list) = self.fuzzy_matches {
            write_list(out, r#","fuzzy_matches":["#, &[], Some(list));
        }
        write_list(out, r#","next_steps":["#, self.steps, self.more_steps);
        if let Some(ms) = self.retry_after_ms {
            out.push_str(r#","retry_after_ms":"#);
            push_int(out, false, ms);
        }
        if let Some(code) = self.code {
            out.push_str(r#","code":"#);
            write_str(out, code.as_str());
        }
        if let Some(category) = self.category {
            out.push_str(r#","category":""#);
            out.push_str(category.as_str());
            out.push_str("\"");
        }
        if self.retryable {
            out.push_str(r#","retryable":true"#);
        }
        if let Some(url) = self.help_url {
            out.push_str(r#","help_url":"#);
            write_str(out, url);
        }
        self.write_details(out);
        out.push_str("}");
    }

    /// The envelope's compact JSON as a new string, allocated once at its
    /// final length (it is written on the stack first); see
    /// [`EnvelopeView::write_json`].
    #[must_use]
    pub fn to_json_string(&self) -> String {
        let mut out = Stack::new();
        self.write_to(&mut out);
        out.finish()
    }

    /// An owned copy: the [`ErrorEnvelope`] this view describes. Every
    /// string is allocated once, at its final length.
    #[must_use]
    pub fn to_envelope(&self) -> ErrorEnvelope {
        let mut next_steps =
            Vec::with_capacity(self.steps.len() + self.more_steps.map_or(0, StrList::len_hint));
        next_steps.extend(self.steps.iter().map(|step| render(*step)));
        if let Some(more) = self.more_steps {
            more.for_each_str(&mut |s| next_steps.push(String::from(s)));
        }
        ErrorEnvelope {
            is_error: true,
            error_class: self.error_class,
            message: self.message.to_owned_string(),
            ora_code: self.ora_code,
            suggested_tool: self.suggested_tool.map(String::from),
            fuzzy_matches: self.fuzzy_matches.map_or_else(Vec::new, |list| {
                let mut out = Vec::with_capacity(list.len_hint());
                list.for_each_str(&mut |s| out.push(String::from(s)));
                out
            }),
            next_steps,
            retry_after_ms: self.retry_after_ms,
            code: self.code.map(|code| match code {
                Code::Static(code) => Cow::Borrowed(code),
                Code::Borrowed(code) => code.clone(),
            }),
            category: self.category,
            retryable: self.retryable,
            help_url: self.help_url.map(String::from),
            details: self.details_map().unwrap_or_default(),
        }
    }

    /// The details as the map an owned envelope holds; `None` when empty.
    fn details_map(&self) -> Option<Map<String, Value>> {
        match self.details {
            Details::None => None,
            Details::Map(map) => Some(map.clone()),
            Details::Fields(fields) => {
                let mut map = Map::new();
                for detail in fields {
                    map.insert(String::from(detail.key), detail.value.to_value());
                }
                Some(map)
            }
        }
    }

    /// Details go through a `Map`, so key order (sorted, or insertion order
    /// under serde_json's `preserve_order`) is exactly the owned envelope's.
    fn write_details<O: Out>(&self, out: &mut O) {
        let owned;
        let map = match self.details {
            Details::None => return,
            Details::Map(map) => map,
            Details::Fields(_) => {
                owned = self.details_map().unwrap_or_default();
                &owned
            }
        };
        if map.is_empty() {
            return;
        }
        out.push_str(r#","details":"#);
        // A map of JSON values always serializes.
        match serde_json::to_string(map) {
            Ok(json) => out.push_str(&json),
            Err(_) => out.push_str("{}"),
        }
    }
}

impl ErrorEnvelope {
    /// A borrowed view of this envelope, which writes the same JSON without
    /// copying anything (see [`EnvelopeView::write_json`]).
    #[must_use]
    pub fn view(&self) -> EnvelopeView<'_> {
        EnvelopeView {
            error_class: self.error_class,
            message: Text::Str(&self.message),
            ora_code: self.ora_code,
            suggested_tool: self.suggested_tool.as_deref(),
            fuzzy_matches: Some(&self.fuzzy_matches),
            steps: &[],
            more_steps: Some(&self.next_steps),
            retry_after_ms: self.retry_after_ms,
            code: self.code.as_ref().map(Code::Borrowed),
            category: self.category,
            retryable: self.retryable,
            help_url: self.help_url.as_deref(),
            details: Details::Map(&self.details),
        }
    }
}

/// Where the JSON writer puts its text: a `String`, or [`Stack`].
pub(crate) trait Out {
    fn push_str(&mut self, s: &str);
}

impl Out for String {
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
}

/// Room on the stack for an envelope's JSON; nearly all fit, and the
/// result is then copied into a string of exactly its length.
const STACK_JSON: usize = 1024;

/// A JSON output on the stack that moves to the heap when full.
pub(crate) struct Stack {
    buf: [u8; STACK_JSON],
    len: usize,
    spill: Option<String>,
}

impl Stack {
    pub(crate) fn new() -> Self {
        Stack {
            buf: [0; STACK_JSON],
            len: 0,
            spill: None,
        }
    }

    fn written(&self) -> std::borrow::Cow<'_, str> {
        // Only whole `&str`s are copied in, so this never replaces anything.
        String::from_utf8_lossy(&self.buf[..self.len])
    }

    /// The text, in one allocation when it stayed on the stack.
    pub(crate) fn finish(self) -> String {
        match self.spill {
            Some(spill) => spill,
            None => self.written().into_owned(),
        }
    }
}

impl Out for Stack {
    #[inline]
    fn push_str(&mut self, s: &str) {
        if let Some(spill) = &mut self.spill {
            spill.push_str(s);
            return;
        }
        let end = self.len + s.len();
        if let Some(slot) = self.buf.get_mut(self.len..end) {
            slot.copy_from_slice(s.as_bytes());
            self.len = end;
        } else {
            let mut spill = String::with_capacity(2 * end);
            spill.push_str(&self.written());
            spill.push_str(s);
            self.spill = Some(spill);
        }
    }
}

impl Code<'_> {
    fn as_str(&self) -> &str {
        match self {
            Code::Static(code) => code,
            Code::Borrowed(code) => code,
        }
    }
}

impl Text<'_> {
    /// The text as a new string, allocated once at its final length.
    pub(crate) fn to_owned_string(self) -> String {
        match self {
            Text::Str(s) => String::from(s),
            Text::Fmt(args) => render(args),
        }
    }
}

/// Formats `args` into a string allocated exactly once, at its final
/// length: short results are formatted on the stack first, long ones
/// measured first. (`format!` guesses a capacity and may grow the string
/// several times for short templates.)
pub(crate) fn render(args: fmt::Arguments<'_>) -> String {
    if let Some(s) = args.as_str() {
        return String::from(s);
    }
    let mut stack = StackBuf {
        buf: [0; STACK_LEN],
        len: 0,
    };
    if fmt::write(&mut stack, args).is_ok()
        && let Ok(s) = std::str::from_utf8(&stack.buf[..stack.len])
    {
        return String::from(s);
    }
    let mut counter = Counter(0);
    let _ = fmt::write(&mut counter, args);
    let mut out = String::with_capacity(counter.0);
    let _ = fmt::write(&mut out, args);
    out
}

const STACK_LEN: usize = 256;

/// A fixed buffer that reports an error once it is full.
struct StackBuf {
    buf: [u8; STACK_LEN],
    len: usize,
}

impl fmt::Write for StackBuf {
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

/// Writes `"`, the escaped text, `"`.
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

/// Writes a list key and its array, or nothing when the list is empty.
fn write_list<O: Out>(
    out: &mut O,
    key: &str,
    steps: &[fmt::Arguments<'_>],
    more: Option<&dyn StrList>,
) {
    let mut first = true;
    let mut item = |out: &mut O| {
        out.push_str(if first { key } else { "," });
        first = false;
    };
    for step in steps {
        item(out);
        write_text(out, Text::Fmt(*step));
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

/// Writes `s` as a JSON string, escaped exactly as `serde_json` does.
fn write_str<O: Out>(out: &mut O, s: &str) {
    out.push_str("\"");
    push_escaped(out, s);
    out.push_str("\"");
}

/// `serde_json`'s escapes: `"` and `\`, the short forms `\b \f \n \r \t`,
/// `\u00xx` (lowercase hex) for other control characters; everything else,
/// DEL and non-ASCII included, as it is.
fn push_escaped<O: Out>(out: &mut O, s: &str) {
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        let short = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0c => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x00..=0x1f => "",
            _ => continue,
        };
        // Escapes are ASCII, so `i` is a char boundary.
        out.push_str(&s[start..i]);
        if short.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let hex = [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ];
            out.push_str(std::str::from_utf8(&hex).unwrap_or_default());
        } else {
            out.push_str(short);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
}

/// Writes an integer in decimal, as `serde_json` (itoa) does.
fn push_int<O: Out>(out: &mut O, negative: bool, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    if negative {
        out.push_str("-");
    }
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// A `fmt::Write` that escapes what it is given into a `String`.
struct Escaper<'a, O>(&'a mut O);

impl<O: Out> fmt::Write for Escaper<'_, O> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        push_escaped(self.0, s);
        Ok(())
    }
}

/// The view's `Serialize` has the same wire form as [`ErrorEnvelope`]'s, so
/// `serde_json::to_string(&envelope.view())` equals
/// `envelope.to_json_string()`.
impl Serialize for EnvelopeView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("ErrorEnvelope", 13)?;
        s.serialize_field("isError", &true)?;
        s.serialize_field("error_class", &self.error_class)?;
        s.serialize_field("message", &self.message)?;
        if let Some(code) = self.ora_code {
            s.serialize_field("ora_code", &code)?;
        }
        if let Some(tool) = self.suggested_tool {
            s.serialize_field("suggested_tool", tool)?;
        }
        let fuzzy = Strings {
            steps: &[],
            more: self.fuzzy_matches,
        };
        if !fuzzy.is_empty() {
            s.serialize_field("fuzzy_matches", &fuzzy)?;
        }
        let steps = Strings {
            steps: self.steps,
            more: self.more_steps,
        };
        if !steps.is_empty() {
            s.serialize_field("next_steps", &steps)?;
        }
        if let Some(ms) = self.retry_after_ms {
            s.serialize_field("retry_after_ms", &ms)?;
        }
        if let Some(code) = self.code {
            s.serialize_field("code", code.as_str())?;
        }
        if let Some(category) = self.category {
            s.serialize_field("category", &category)?;
        }
        if self.retryable {
            s.serialize_field("retryable", &true)?;
        }
        if let Some(url) = self.help_url {
            s.serialize_field("help_url", url)?;
        }
        match self.details {
            Details::None => {}
            Details::Map(map) => {
                if !map.is_empty() {
                    s.serialize_field("details", map)?;
                }
            }
            Details::Fields(_) => {
                let map = self.details_map().unwrap_or_default();
                if !map.is_empty() {
                    s.serialize_field("details", &map)?;
                }
            }
        }
        s.end()
    }
}

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Text::Str(s) => serializer.serialize_str(s),
            Text::Fmt(args) => serializer.collect_str(args),
        }
    }
}

/// Template steps followed by a borrowed list, as one JSON array.
struct Strings<'a> {
    steps: &'a [fmt::Arguments<'a>],
    more: Option<&'a dyn StrList>,
}

impl Strings<'_> {
    fn is_empty(&self) -> bool {
        if !self.steps.is_empty() {
            return false;
        }
        let mut empty = true;
        if let Some(more) = self.more {
            more.for_each_str(&mut |_| empty = false);
        }
        empty
    }
}

impl Serialize for Strings<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for step in self.steps {
            seq.serialize_element(&Text::Fmt(*step))?;
        }
        if let Some(more) = self.more {
            let mut error = None;
            more.for_each_str(&mut |s| {
                if error.is_none()
                    && let Err(e) = seq.serialize_element(s)
                {
                    error = Some(e);
                }
            });
            if let Some(error) = error {
                return Err(error);
            }
        }
        seq.end()
    }
}

impl fmt::Debug for EnvelopeView<'_> {
    /// The owned envelope's `Debug`, so a view prints like what it describes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_envelope(), f)
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
    fn view_json_is_byte_equal_to_serde() {
        let full = sample();
        let bare = ErrorEnvelope::new(ErrorClass::Busy, "");
        let mut no_category = ErrorEnvelope::new(ErrorClass::Internal, "x");
        no_category.category = None;
        no_category.suggested_tool = Some(String::new());
        for envelope in [full, bare, no_category] {
            let serde = serde_json::to_string(&envelope).unwrap();
            assert_eq!(envelope.view().to_json_string(), serde);
            assert_eq!(serde_json::to_string(&envelope.view()).unwrap(), serde);
            assert_eq!(envelope.view().to_envelope(), envelope);
        }
    }

    #[test]
    fn json_longer_than_the_stack_buffer_moves_to_the_heap() {
        let long = "\"x".repeat(STACK_JSON);
        let envelope = ErrorEnvelope::new(ErrorClass::Internal, long.clone())
            .with_next_step(long.clone())
            .with_fuzzy_matches(vec![long; 3]);
        let json = envelope.view().to_json_string();
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
        let long = "x".repeat(STACK_LEN + 10);
        let rendered = render(format_args!("[{long}]"));
        assert_eq!(rendered.len(), STACK_LEN + 12);
        assert_eq!(rendered.capacity(), STACK_LEN + 12);
        assert_eq!(render(format_args!("plain")), "plain");
    }

    #[test]
    fn templates_are_escaped_while_formatted() {
        let name = "a\"b";
        // `match` keeps the `format_args!` temporaries alive for the block,
        // which a `let` would drop at its end.
        #[allow(clippy::match_single_binding)]
        match (
            format_args!("bad {name}\n"),
            [format_args!("check {name}"), format_args!("retry")],
        ) {
            (message, steps) => {
                let mut view = EnvelopeView::derived(
                    ErrorClass::InvalidArguments,
                    UserErrorCategory::Validation,
                    "BAD",
                    Text::Fmt(message),
                );
                view.steps = &steps;
                let json = view.to_json_string();
                assert_eq!(
                    json,
                    r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"bad a\"b\n","next_steps":["check a\"b","retry"],"code":"BAD","category":"Validation"}"#
                );
                assert_eq!(serde_json::to_string(&view).unwrap(), json);
                assert_eq!(view.to_envelope().to_json_string(), json);
            }
        }
    }
}
