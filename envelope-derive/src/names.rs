//! Names the derive knows (classes, categories) and the string helpers that
//! work on names: case conversion, raw identifiers, "did you mean".

/// The classes a variant may name: every `ErrorClass` but `Unknown`, which
/// only deserialization produces.
pub(crate) const CLASSES: &[&str] = &[
    "InvalidArguments",
    "SyntaxError",
    "ObjectNotFound",
    "AlreadyExists",
    "PreconditionFailed",
    "Conflict",
    "Unauthenticated",
    "InsufficientPrivilege",
    "PolicyDenied",
    "Unsupported",
    "RateLimited",
    "QuotaExceeded",
    "Busy",
    "Timeout",
    "Transient",
    "ConnectionFailed",
    "Cancelled",
    "Internal",
];

/// Classes whose owner is the server; without a `message` they get the
/// class's generic text instead of `Display`. Mirrors `ErrorClass::owner`.
pub(crate) const SERVER_CLASSES: &[&str] = &[
    "Busy",
    "Timeout",
    "Transient",
    "ConnectionFailed",
    "Internal",
];

/// Each class's default category, as `ErrorClass::default_category`
/// returns it; the derive writes the category itself instead of a call per
/// variant. A test checks it against the runtime crate.
pub(crate) fn default_category(class: &str) -> &'static str {
    match class {
        "InvalidArguments"
        | "SyntaxError"
        | "InsufficientPrivilege"
        | "PolicyDenied"
        | "Unsupported" => "Validation",
        "ObjectNotFound" => "NotFound",
        "AlreadyExists" => "Duplicate",
        "PreconditionFailed" | "Conflict" | "Unauthenticated" => "WorkflowDependency",
        _ => "Technical",
    }
}

/// Each class's default effect (the `Effect` variant name), as
/// `ErrorClass::default_effect` returns it; the derive needs it to check
/// `retryable = true` at compile time. A test checks it against the
/// runtime crate.
pub(crate) fn default_effect(class: &str) -> &'static str {
    match class {
        "Timeout" | "Transient" | "ConnectionFailed" | "Cancelled" | "Internal" => "Unknown",
        _ => "Nothing",
    }
}

/// The first class (in `CLASSES` order) whose default category is
/// `category`, for "did you mean" hints; `None` for a category no class
/// defaults to (`MissingContext`).
pub(crate) fn class_for_category(category: &str) -> Option<&'static str> {
    CLASSES
        .iter()
        .find(|class| default_category(class) == category)
        .copied()
}

/// The categories a variant may name: every `UserErrorCategory` but `Unknown`.
pub(crate) const CATEGORIES: &[&str] = &[
    "WorkflowDependency",
    "MissingContext",
    "NotFound",
    "Duplicate",
    "Validation",
    "Technical",
];

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
        assert_eq!(closest("ObjectNotFund", CLASSES), Some("ObjectNotFound"));
        for class in CLASSES {
            let runtime: envelope::ErrorClass = upper_snake(class).parse().unwrap();
            assert_eq!(
                default_category(class),
                runtime.default_category().as_str(),
                "{class}"
            );
            assert_eq!(
                default_effect(class),
                format!("{:?}", runtime.default_effect()),
                "{class}"
            );
        }
        assert_eq!(closest("zzzzzz", CLASSES), None);
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
    }

    /// The lists hold exactly the runtime's classes, in its order.
    #[test]
    fn class_lists_mirror_the_runtime() {
        use envelope::{ErrorClass, Owner};
        let nameable = ErrorClass::ALL
            .iter()
            .filter(|class| **class != ErrorClass::Unknown);
        let all: Vec<&str> = nameable.clone().map(|class| class.name()).collect();
        assert_eq!(CLASSES, all);
        let server: Vec<&str> = nameable
            .filter(|class| class.owner() == Owner::Server)
            .map(|class| class.name())
            .collect();
        assert_eq!(SERVER_CLASSES, server);
    }
}
