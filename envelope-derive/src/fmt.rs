//! Templates (`message`, `next_step`): parsed at compile time into pieces,
//! later written out as one `format!` call, so nothing is parsed at run time.

use syn::LitStr;

/// A parsed template.
pub(crate) struct Template {
    /// The string as written, for spans and the catalog.
    pub lit: LitStr,
    pub pieces: Vec<Piece>,
}

pub(crate) enum Piece {
    /// Literal text, with `{{` and `}}` already unescaped.
    Text(String),
    /// A placeholder: the field it names and its format spec (after `:`).
    Arg { field: FieldRef, spec: String },
}

/// The field a placeholder names.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum FieldRef {
    /// `{name}` (a leading `r#` is dropped: `{r#type}` is `{type}`).
    Named(String),
    /// `{0}`.
    Index(usize),
}

impl std::fmt::Display for FieldRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldRef::Named(name) => f.write_str(name),
            FieldRef::Index(index) => write!(f, "{index}"),
        }
    }
}

impl Template {
    /// Parses `lit`. Errors point at the string and say how to fix it.
    pub fn parse(lit: &LitStr) -> syn::Result<Template> {
        let text = lit.value();
        let mut pieces = Vec::new();
        let mut literal = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    literal.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    literal.push('}');
                }
                '}' => {
                    return Err(syn::Error::new(
                        lit.span(),
                        "unbalanced `}` in template: write `}}` for a literal brace",
                    ));
                }
                '{' => {
                    let mut inner = String::new();
                    let mut closed = false;
                    for c in chars.by_ref() {
                        if c == '}' {
                            closed = true;
                            break;
                        }
                        if c == '{' {
                            break;
                        }
                        inner.push(c);
                    }
                    if !closed {
                        return Err(syn::Error::new(
                            lit.span(),
                            "unbalanced `{` in template: close the placeholder with `}`, or write `{{` for a literal brace",
                        ));
                    }
                    if !literal.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut literal)));
                    }
                    pieces.push(placeholder(lit, &inner)?);
                }
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            pieces.push(Piece::Text(literal));
        }
        Ok(Template {
            lit: lit.clone(),
            pieces,
        })
    }
}

fn placeholder(lit: &LitStr, inner: &str) -> syn::Result<Piece> {
    let (name, spec) = match inner.split_once(':') {
        Some((name, spec)) => (name.trim(), spec.to_owned()),
        None => (inner.trim(), String::new()),
    };
    if spec.contains('$') || spec.contains('*') {
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "`{{{inner}}}`: width and precision taken from arguments (`$`, `*`) are not supported in templates; write a literal number such as `{{{name}:>8}}`"
            ),
        ));
    }
    if name.is_empty() {
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "`{{{inner}}}` does not name a field: write `{{0}}` for the first tuple field or `{{name}}` for a named field"
            ),
        ));
    }
    let field = if name.chars().all(|c| c.is_ascii_digit()) {
        match name.parse::<usize>() {
            Ok(index) => FieldRef::Index(index),
            Err(_) => {
                return Err(syn::Error::new(
                    lit.span(),
                    format!("`{{{name}}}` is not a valid field index"),
                ));
            }
        }
    } else {
        let bare = name.strip_prefix("r#").unwrap_or(name);
        let mut chars = bare.chars();
        let starts_ok = chars.next().is_some_and(|c| c == '_' || c.is_alphabetic());
        if !starts_ok || !chars.all(|c| c == '_' || c.is_alphanumeric()) {
            return Err(syn::Error::new(
                lit.span(),
                format!(
                    "`{{{inner}}}`: a template names a field only (`{{name}}`, `{{0}}`, `{{name:?}}`); expressions and method calls are not supported"
                ),
            ));
        }
        FieldRef::Named(bare.to_owned())
    };
    Ok(Piece::Arg { field, spec })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> syn::Result<Template> {
        Template::parse(&LitStr::new(text, proc_macro2::Span::call_site()))
    }

    /// The pieces in a compact form: text in quotes, placeholders in braces.
    fn pieces_of(text: &str) -> Vec<String> {
        let template = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        template
            .pieces
            .iter()
            .map(|piece| match piece {
                Piece::Text(text) => format!("{text:?}"),
                Piece::Arg { field, spec } => format!("{{{field}:{spec}}}"),
            })
            .collect()
    }

    fn error(text: &str) -> String {
        match parse(text) {
            Ok(_) => panic!("{text}: parsed"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn pieces() {
        assert_eq!(
            pieces_of("object {name} at {0:>5} {{x}} {r#type:?} {_tmp} tail"),
            [
                r#""object ""#,
                "{name:}",
                r#"" at ""#,
                "{0:>5}",
                r#"" {x} ""#,
                "{type:?}",
                r#"" ""#,
                "{_tmp:}",
                r#"" tail""#,
            ]
        );
        assert_eq!(pieces_of("{ a }{b}"), ["{a:}", "{b:}"]);
        assert_eq!(pieces_of("}}{{"), [r#""}{""#]);
        assert_eq!(pieces_of(""), Vec::<String>::new());
    }

    #[test]
    fn errors() {
        assert_eq!(
            error("a {name"),
            "unbalanced `{` in template: close the placeholder with `}`, or write `{{` for a literal brace"
        );
        assert_eq!(
            error("a {na{me}"),
            "unbalanced `{` in template: close the placeholder with `}`, or write `{{` for a literal brace"
        );
        assert_eq!(
            error("a } b"),
            "unbalanced `}` in template: write `}}` for a literal brace"
        );
        assert_eq!(
            error("a {} b"),
            "`{}` does not name a field: write `{0}` for the first tuple field or `{name}` for a named field"
        );
        assert_eq!(
            error("{x.len()}"),
            "`{x.len()}`: a template names a field only (`{name}`, `{0}`, `{name:?}`); expressions and method calls are not supported"
        );
        assert_eq!(
            error("{-x}"),
            "`{-x}`: a template names a field only (`{name}`, `{0}`, `{name:?}`); expressions and method calls are not supported"
        );
        assert_eq!(
            error("{x:>w$}"),
            "`{x:>w$}`: width and precision taken from arguments (`$`, `*`) are not supported in templates; write a literal number such as `{x:>8}`"
        );
        assert_eq!(
            error("{x:.*}"),
            "`{x:.*}`: width and precision taken from arguments (`$`, `*`) are not supported in templates; write a literal number such as `{x:>8}`"
        );
        assert_eq!(
            error("{99999999999999999999999}"),
            "`{99999999999999999999999}` is not a valid field index"
        );
    }
}
