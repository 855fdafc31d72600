//! Names: the `Named` enums the attributes name (`class.rs`,
//! `category.rs`, `effect.rs`) and the string helpers that work on names:
//! case conversion, raw identifiers, "did you mean".

use proc_macro2::Span;
use syn::Ident;

/// A runtime enum the derive mirrors, whose variants an attribute names
/// (`class = Busy`, `category = NotFound`, `effect = unknown`).
pub(crate) trait Named: Copy + PartialEq + 'static {
    /// The attribute key, as messages call it: `class`.
    const KEY: &'static str;
    /// The runtime enum, as a path to its variant spells it: `ErrorClass`.
    const ENUM: &'static str;
    /// Every variant an attribute may name, in the runtime's order.
    const ALL: &'static [Self];

    /// The Rust variant name: `ObjectNotFound`.
    fn name(self) -> &'static str;

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }

    /// Every name, in `ALL` order, for "did you mean" and "expected one of".
    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|v| v.name()).collect()
    }

    /// The variant-name token of generated paths: `ErrorClass::#ident`.
    fn ident(self) -> Ident {
        Ident::new(self.name(), Span::call_site())
    }

    /// The error for a name no variant has.
    fn unknown(ident: &Ident) -> syn::Error {
        unknown_name(ident, Self::KEY, &Self::names())
    }

    /// The variant `ident` names (without `r#`), or the error saying what
    /// it may have meant.
    fn from_ident(ident: &Ident) -> syn::Result<Self> {
        Self::from_name(&unraw(ident)).ok_or_else(|| Self::unknown(ident))
    }
}

/// "unknown class `Bsy`; did you mean `Busy`?", or the names it may be.
pub(crate) fn unknown_name(ident: &Ident, key: &str, known: &[&str]) -> syn::Error {
    let text = ident.to_string();
    let hint = match closest(&text, known) {
        Some(best) => format!("did you mean `{best}`?"),
        None => format!("expected one of: {}", known.join(", ")),
    };
    syn::Error::new(ident.span(), format!("unknown {key} `{text}`; {hint}"))
}

/// The identifier as written, without a leading `r#`.
pub(crate) fn unraw(ident: &syn::Ident) -> String {
    let text = ident.to_string();
    match text.strip_prefix("r#") {
        Some(rest) => rest.to_owned(),
        None => text,
    }
}

/// `LeaseRequired` -> `LEASE_REQUIRED`, `HTTPError` -> `HTTP_ERROR`,
/// `Utf8Error` -> `UTF8_ERROR`, `snake_case` -> `SNAKE_CASE`.
pub(crate) fn upper_snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            continue;
        }
        if c.is_uppercase() && i > 0 && !out.ends_with('_') {
            let prev = chars[i - 1];
            let next_is_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_uppercase() && next_is_lower)
            {
                out.push('_');
            }
        }
        out.extend(c.to_uppercase());
    }
    while out.ends_with('_') {
        out.pop();
    }
    out
}

/// Whether `text` is a valid code or code prefix: ASCII upper-case letters,
/// digits and underscores, starting with a letter.
pub(crate) fn is_code(text: &str) -> bool {
    let mut chars = text.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_uppercase());
    first_ok && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The closest known name to `input`, if any is close enough to be a typo.
pub(crate) fn closest<'a>(input: &str, known: &[&'a str]) -> Option<&'a str> {
    let lowered = input.to_lowercase();
    known
        .iter()
        .map(|k| (strsim::levenshtein(&lowered, &k.to_lowercase()), *k))
        .filter(|(d, k)| *d <= (k.len().max(input.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
        .or_else(|| only_extension(&lowered, known))
}

/// The one known name that starts with `lowered` (at least four
/// characters): a name written short (`Runtime` for `RuntimeError`).
fn only_extension<'a>(lowered: &str, known: &[&'a str]) -> Option<&'a str> {
    if lowered.chars().count() < 4 {
        return None;
    }
    let mut longer = known
        .iter()
        .filter(|k| k.to_lowercase().starts_with(lowered));
    match (longer.next(), longer.next()) {
        (Some(only), None) => Some(*only),
        _ => None,
    }
}

/// The known name a quoted value most likely meant, for a "write it
/// without quotes" hint: compared without case, spaces or underscores
/// (`"object not found"` -> `ObjectNotFound`), else `fallback`.
pub(crate) fn sanitize<'a>(text: &str, known: &[&'a str], fallback: &'a str) -> &'a str {
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted = squash(text);
    known
        .iter()
        .find(|k| squash(k) == wanted)
        .copied()
        .or_else(|| closest(&wanted, known))
        .unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upper_snake_cases() {
        assert_eq!(upper_snake("LeaseRequired"), "LEASE_REQUIRED");
        assert_eq!(upper_snake("HTTPError"), "HTTP_ERROR");
        assert_eq!(upper_snake("Utf8Error"), "UTF8_ERROR");
        assert_eq!(upper_snake("IOError2"), "IO_ERROR2");
        assert_eq!(upper_snake("snake_case_name"), "SNAKE_CASE_NAME");
        assert_eq!(upper_snake("A"), "A");
        assert_eq!(upper_snake("XmlA"), "XML_A");
        assert_eq!(upper_snake("ParseV2"), "PARSE_V2");
        assert_eq!(upper_snake("_Leading__double_"), "LEADING_DOUBLE");
        assert_eq!(upper_snake("ObjectNotFound"), "OBJECT_NOT_FOUND");
    }

    #[test]
    fn closest_names() {
        assert_eq!(closest("clas", &["class", "code"]), Some("class"));
        // Up to a third of the longer name's length may differ, at least
        // one character; the nearest name wins, the first among equals.
        assert_eq!(
            closest("sugested_tols", &["suggested_tools"]),
            Some("suggested_tools")
        );
        assert_eq!(
            closest("sugstd_tls", &["suggested_tools"]),
            Some("suggested_tools")
        );
        assert_eq!(closest("sgstd_tls", &["suggested_tools"]), None);
        assert_eq!(closest("ab", &["ac"]), Some("ac"));
        assert_eq!(closest("ab", &["cd"]), None);
        assert_eq!(closest("cod", &["code", "cold", "co"]), Some("code"));
        assert_eq!(closest("CLAS", &["class"]), Some("class"));
        // A name written short, when only one name extends it.
        assert_eq!(
            closest("Runtime", &["RuntimeError", "SyntaxError"]),
            Some("RuntimeError")
        );
        assert_eq!(
            closest("sugg", &["suggested_tool", "suggested_tools"]),
            None
        );
        // Four characters are enough to extend, three are not.
        assert_eq!(closest("Runt", &["RuntimeError"]), Some("RuntimeError"));
        assert_eq!(closest("Run", &["RuntimeError"]), None);
    }
}
