//! Templates (`message`, `next_step`): parsed at compile time into pieces
//! (`Template::parse`), then lowered into the tokens of one `format!` call
//! or of the plain text (`lower`), so nothing is parsed at run time.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Ident, LitStr};

use crate::ast::Variant;
use crate::valid::Rendered;

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

/// The expression of a template's `String`, for the variant whose fields
/// its placeholders name: a `format!` call with the fields as arguments, or
/// the plain text when it has no placeholders.
pub(crate) fn lower(p: &TokenStream, variant: &Variant, rendered: &Rendered) -> TokenStream {
    match Lowered::new(variant, rendered) {
        Lowered::Args(args) => quote!(#p::format!(#args)),
        Lowered::Literal(text) => quote!(#p::text(#text)),
    }
}

/// A template lowered to tokens: the arguments of a `format!` call, or the
/// plain text when it has no placeholders.
enum Lowered {
    Args(TokenStream),
    Literal(LitStr),
}

impl Lowered {
    /// Lowers `rendered`. When every placeholder is a plain field name, the
    /// string is kept as written, with named arguments; otherwise it is
    /// rewritten with positional arguments, so raw field names (`r#type`)
    /// and tuple indices need no special casing.
    fn new(variant: &Variant, rendered: &Rendered) -> Lowered {
        let lit = &rendered.template.lit;
        let arg = |i: usize| {
            let binding = &variant.fields[i].binding;
            quote!(#binding)
        };
        // When every placeholder names a field by a plain identifier, the
        // template is passed to `format!` exactly as written, with named
        // arguments: rustc's own notes and fix suggestions about a format spec
        // then point at the right characters of the user's string.
        if let Some(names) = named_placeholders(&rendered.template) {
            let mut seen: Vec<&str> = Vec::new();
            let named = names.iter().zip(&rendered.args).filter_map(|(name, &i)| {
                if seen.contains(name) {
                    return None;
                }
                seen.push(name);
                let ident = Ident::new(name, lit.span());
                let value = arg(i);
                Some(quote!(#ident = #value))
            });
            let named: Vec<TokenStream> = named.collect();
            return Lowered::Args(quote!(#lit, #(#named),*));
        }
        let mut format = String::new();
        let mut args: Vec<usize> = Vec::new();
        let mut next = rendered.args.iter();
        for piece in &rendered.template.pieces {
            match piece {
                Piece::Text(text) => format.push_str(&text.replace('{', "{{").replace('}', "}}")),
                Piece::Arg { spec, .. } => {
                    let Some(&field) = next.next() else { continue };
                    let position = match args.iter().position(|&a| a == field) {
                        Some(position) => position,
                        None => {
                            args.push(field);
                            args.len() - 1
                        }
                    };
                    if spec.is_empty() {
                        format.push_str(&format!("{{{position}}}"));
                    } else {
                        format.push_str(&format!("{{{position}:{spec}}}"));
                    }
                }
            }
        }
        if args.is_empty() {
            let text: String = rendered
                .template
                .pieces
                .iter()
                .map(|piece| match piece {
                    Piece::Text(text) => text.as_str(),
                    Piece::Arg { .. } => "",
                })
                .collect();
            return Lowered::Literal(LitStr::new(&text, lit.span()));
        }
        // Rewritten text (positional or raw-identifier placeholders): its
        // offsets no longer match the source, so it must not claim the user's
        // string as its span, or rustc would point into the wrong characters.
        let format = LitStr::new(&format, Span::call_site());
        let args = args.iter().map(|&i| arg(i));
        Lowered::Args(quote!(#format, #(#args),*))
    }
}

/// The placeholders' names when each is a plain identifier written without
/// `r#` and the template has at least one; `None` when the text must be
/// rewritten.
fn named_placeholders(template: &Template) -> Option<Vec<&str>> {
    if template.lit.value().contains("r#") {
        return None;
    }
    let names: Vec<&str> = template
        .pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Arg {
                field: FieldRef::Named(name),
                ..
            } => Some(Some(name.as_str())),
            Piece::Arg { .. } => Some(None),
            Piece::Text(_) => None,
        })
        .collect::<Option<Vec<&str>>>()?;
    let plain = names
        .iter()
        .all(|name| syn::parse_str::<Ident>(name).is_ok());
    (plain && !names.is_empty()).then_some(names)
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
