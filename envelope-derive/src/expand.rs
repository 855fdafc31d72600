//! Code generation from the validated model.
//!
//! Rules that keep the output working in hostile crates: every path is
//! global (`::core::...` or `<krate>::__private::...`), trait methods are
//! called with fully qualified syntax, locals use mixed-site hygiene, and
//! the per-arm work is delegated to helpers in `__private` so the expansion
//! stays small.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, LitStr};

use crate::ast::{Input, Shape, Variant};
use crate::ctxt::Ctxt;
use crate::fmt::{FieldRef, Piece};
use crate::names::{self, unraw};
use crate::valid::{self, Kind, Message, Model, Plain, Rendered};

/// Expands `#[derive(Envelope)]` for `input`: the `Envelope` impl and the two
/// `From` impls, or every error found in the input, combined.
pub(crate) fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let cx = Ctxt::default();
    let ast = Input::from_syn(&cx, input)?;
    let model = valid::validate(&cx, &ast);
    cx.check()?;
    Ok(impls(&model, &fresh_type_param(input)))
}

/// A name for `__build`'s builder type parameter that appears nowhere in
/// the input, so it can neither clash with the user's generics nor shadow a
/// type the user's fields or attributes name: `B`, else `B0`, `B1`, ...
fn fresh_type_param(input: &DeriveInput) -> Ident {
    fn collect(tokens: TokenStream, names: &mut Vec<String>) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Ident(ident) => names.push(ident.to_string()),
                proc_macro2::TokenTree::Group(group) => collect(group.stream(), names),
                _ => {}
            }
        }
    }
    let mut names = Vec::new();
    collect(quote!(#input), &mut names);
    let name = std::iter::once(String::from("B"))
        .chain((0..).map(|i| format!("B{i}")))
        .find(|candidate| !names.contains(candidate))
        .unwrap_or_default();
    Ident::new(&name, Span::call_site())
}

fn impls(model: &Model, builder_type: &Ident) -> TokenStream {
    let input = model.input;
    let krate = &model.krate;
    let p = quote!(#krate::__private);
    let ident = input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    let where_clause = model.bounds.where_clause(input.generics);
    let variants = input.variants();
    let pairs: Vec<(&Variant, &Kind)> = variants.iter().zip(&model.variants).collect();
    let is_empty = pairs.is_empty();

    let error_class = dispatch(input, &pairs, is_empty, |variant, kind| match kind {
        Kind::Plain(plain) => {
            let class = class_path(&p, plain);
            (pattern(input, variant, &[]), quote!(#class))
        }
        Kind::Transparent(i) => delegate(&p, input, variant, *i, quote!(error_class), None),
        Kind::With(i, path) => with(&p, input, variant, *i, path, Some(quote!(error_class))),
    });
    // The trait's provided `user_category` is the class's default category:
    // only a type with a `category` attribute or a delegating variant needs
    // its own.
    let defaults_only = model
        .variants
        .iter()
        .all(|kind| matches!(kind, Kind::Plain(plain) if plain.category.is_none()));
    let user_category = if defaults_only && !is_empty {
        TokenStream::new()
    } else {
        let arms = dispatch(input, &pairs, is_empty, |variant, kind| match kind {
            Kind::Plain(plain) => (pattern(input, variant, &[]), category(&p, plain)),
            Kind::Transparent(i) => delegate(&p, input, variant, *i, quote!(user_category), None),
            Kind::With(i, path) => with(&p, input, variant, *i, path, Some(quote!(user_category))),
        });
        quote! {
            #[inline]
            fn user_category(&self) -> #p::UserErrorCategory {
                #arms
            }
        }
    };
    let code = dispatch(input, &pairs, is_empty, |variant, kind| match kind {
        Kind::Plain(plain) => {
            let code = &plain.code;
            (pattern(input, variant, &[]), quote!(#p::Some(#code)))
        }
        Kind::Transparent(i) => delegate(&p, input, variant, *i, quote!(code), None),
        Kind::With(i, path) => with(&p, input, variant, *i, path, Some(quote!(code))),
    });
    let builder = Ident::new("builder", Span::mixed_site());
    let build_arms = dispatch(input, &pairs, is_empty, |variant, kind| match kind {
        Kind::Plain(plain) => describe(&p, input, variant, plain, &builder),
        Kind::Transparent(i) => delegate(&p, input, variant, *i, quote!(__build), Some(&builder)),
        Kind::With(i, path) => {
            let (pat, built) = with(&p, input, variant, *i, path, None);
            (pat, quote!(#p::Builder::envelope_owned(#builder, #built)))
        }
    });
    let into_envelope = {
        let arms = pairs.iter().map(|(variant, kind)| {
            let (pat, body) = match kind {
                // Only list and tool fields can move into the envelope; every
                // other variant takes the borrowing path, which allocates the
                // same strings. (`Display` also needs the whole value, which
                // moves would break up.)
                Kind::Plain(plain) if moves(plain) => convert(&p, input, variant, plain),
                Kind::Plain(_) => (
                    pattern(input, variant, &[]),
                    quote!(<Self as #p::Envelope>::to_envelope(&self)),
                ),
                Kind::Transparent(i) => {
                    delegate(&p, input, variant, *i, quote!(into_envelope), None)
                }
                Kind::With(i, path) => {
                    let (pat, body) = with(&p, input, variant, *i, path, None);
                    let binding = &variant.fields[*i].binding;
                    (pat, quote!({ let #binding = &#binding; #body }))
                }
            };
            (*variant, pat, body)
        });
        let arms = grouped(input, arms);
        if is_empty {
            quote!(match self {})
        } else {
            quote!(match self { #arms })
        }
    };
    let specs = pairs.iter().map(|(variant, kind)| spec(&p, variant, kind));
    let cfgs = pairs.iter().map(|(variant, _)| &variant.cfgs);

    quote! {
        #[automatically_derived]
        impl #impl_generics #p::Envelope for #ident #ty_generics #where_clause {
            #[inline]
            fn error_class(&self) -> #p::ErrorClass {
                #error_class
            }

            #user_category

            #[inline]
            fn code(&self) -> #p::Option<&'static str> {
                #code
            }

            fn to_envelope(&self) -> #p::ErrorEnvelope {
                #p::to_envelope(self)
            }

            fn __build<#builder_type: #p::Builder>(&self, #builder: #builder_type) -> #builder_type {
                #build_arms
            }

            fn into_envelope(self) -> #p::ErrorEnvelope {
                #into_envelope
            }

            fn catalog() -> &'static [#p::VariantSpec] {
                const CATALOG: &[#p::VariantSpec] = &[#(#(#cfgs)* #specs,)*];
                CATALOG
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::convert::From<#ident #ty_generics> for #p::ErrorEnvelope #where_clause {
            #[inline]
            fn from(error: #ident #ty_generics) -> Self {
                <#ident #ty_generics as #p::Envelope>::into_envelope(error)
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::convert::From<&#ident #ty_generics> for #p::ErrorEnvelope #where_clause {
            #[inline]
            fn from(error: &#ident #ty_generics) -> Self {
                <#ident #ty_generics as #p::Envelope>::to_envelope(error)
            }
        }

        #p::integrations! {
            impl [#impl_generics] for [#ident #ty_generics] [#where_clause]
        }
    }
}

/// A `match self` over every variant, or `match *self {}` for an empty enum.
fn dispatch<F>(
    input: &Input,
    pairs: &[(&Variant, &Kind)],
    is_empty: bool,
    mut arm: F,
) -> TokenStream
where
    F: FnMut(&Variant, &Kind) -> (TokenStream, TokenStream),
{
    if is_empty {
        return quote!(match *self {});
    }
    let arms = pairs.iter().map(|(variant, kind)| {
        let (pat, body) = arm(variant, kind);
        (*variant, pat, body)
    });
    let arms = grouped(input, arms);
    quote!(match self { #arms })
}

/// Match arms, with the arms that bind no field and share a body merged
/// into one or-pattern arm (`Self::A { .. } | Self::B { .. } => body`):
/// one body to type-check and compile instead of one per variant, which
/// keeps large enums cheap. Variants under `#[cfg]` keep their own arm.
fn grouped<'a>(
    input: &Input,
    arms: impl Iterator<Item = (&'a Variant<'a>, TokenStream, TokenStream)>,
) -> TokenStream {
    let mut groups: Vec<(String, Vec<TokenStream>, TokenStream)> = Vec::new();
    let mut out = TokenStream::new();
    for (variant, pat, body) in arms {
        let cfgs = &variant.cfgs;
        let binds_nothing = pat.to_string() == pattern(input, variant, &[]).to_string();
        if !cfgs.is_empty() || !binds_nothing {
            out.extend(quote!(#(#cfgs)* #pat => #body,));
            continue;
        }
        let key = body.to_string();
        match groups.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, pats, _)) => pats.push(pat),
            None => groups.push((key, vec![pat], body)),
        }
    }
    for (_, pats, body) in groups {
        out.extend(quote!(#(#pats)|* => #body,));
    }
    out
}

/// `Self::Variant { a: field_0, .. }` (or `Self { .. }` for a struct),
/// binding the fields at `bound`.
fn pattern(input: &Input, variant: &Variant, bound: &[usize]) -> TokenStream {
    let path = match input.shape {
        Shape::Enum(_) => {
            let ident = variant.ident;
            quote!(Self::#ident)
        }
        Shape::Struct(_) => quote!(Self),
    };
    let fields = bound.iter().map(|&i| {
        let field = &variant.fields[i];
        let member = &field.member;
        let binding = &field.binding;
        quote!(#member: #binding)
    });
    quote!(#path { #(#fields,)* .. })
}

/// An arm that hands the call to the wrapped error's `Envelope` impl.
fn delegate(
    p: &TokenStream,
    input: &Input,
    variant: &Variant,
    index: usize,
    method: TokenStream,
    builder: Option<&Ident>,
) -> (TokenStream, TokenStream) {
    let field = &variant.fields[index];
    let ty = field.ty;
    let binding = &field.binding;
    let builder = builder.map(|builder| quote!(, #builder));
    let body = quote_spanned!(ty.span()=> <#ty as #p::Envelope>::#method(#binding #builder));
    (pattern(input, variant, &[index]), body)
}

/// An arm that builds the envelope with the variant's `with` function and,
/// for an accessor, reads one field of it.
fn with(
    p: &TokenStream,
    input: &Input,
    variant: &Variant,
    index: usize,
    path: &syn::Path,
    accessor: Option<TokenStream>,
) -> (TokenStream, TokenStream) {
    let binding = &variant.fields[index].binding;
    let built = quote_spanned!(path.span()=> #path(#binding));
    let body = match accessor {
        Some(method) => quote!(<#p::ErrorEnvelope as #p::Envelope>::#method(&#built)),
        None => built,
    };
    (pattern(input, variant, &[index]), body)
}

fn class_path(p: &TokenStream, plain: &Plain) -> TokenStream {
    let class = Ident::new(plain.class, Span::call_site());
    quote!(#p::ErrorClass::#class)
}

fn category(p: &TokenStream, plain: &Plain) -> TokenStream {
    match plain.category {
        Some(category) => {
            let category = Ident::new(category, Span::call_site());
            quote!(#p::UserErrorCategory::#category)
        }
        None => {
            let category = Ident::new(names::default_category(plain.class), Span::call_site());
            quote!(#p::UserErrorCategory::#category)
        }
    }
}

/// Whether `into_envelope` can move a field of this variant into the
/// envelope instead of copying it: a list or tool field, and a message that
/// does not need the whole value.
fn moves(plain: &Plain) -> bool {
    let roles = &plain.roles;
    !matches!(plain.message, Message::Display)
        && (roles.fuzzy_matches.is_some()
            || roles.next_steps.is_some()
            || roles.suggested_tool.is_some())
}

/// The `__build` arm of a plain variant: the builder calls, in wire order,
/// with the fields by reference (templates stay `format_args!`, lists stay
/// the field's collection), so a JSON builder copies nothing. The builder
/// passes by value through the chain, as in a hand-written conversion.
fn describe(
    p: &TokenStream,
    input: &Input,
    variant: &Variant,
    plain: &Plain,
    builder: &Ident,
) -> (TokenStream, TokenStream) {
    let bound: Vec<usize> = (0..variant.fields.len())
        .filter(|&i| variant.fields[i].is_bound(plain, i))
        .collect();
    let class = class_path(p, plain);
    let category = category(p, plain);
    let code = &plain.code;
    let message = match &plain.message {
        Message::Template(rendered) => match format_args(p, variant, rendered, false) {
            Template::Args(args) => quote!(#p::Text::Fmt(#args)),
            Template::Literal(text) => quote!(#p::Text::Str(#text)),
        },
        Message::Display => quote!(#p::Text::Fmt(#p::format_args!("{}", #p::display(self)))),
        Message::Generic => quote!(#p::Text::Str(#class.generic_message())),
    };
    let roles = &plain.roles;
    // `#p::helper(field)`, spanned at the field so type errors point there.
    let field = |index: Option<usize>, helper: &str| {
        index.map(|i| {
            let field = &variant.fields[i];
            let binding = &field.binding;
            let helper = format_ident!("{}", helper);
            quote_spanned!(field.ty.span()=> #p::#helper(#binding))
        })
    };
    // A role field overrides the variant's constant only when it is set.
    let value = |constant: Option<TokenStream>, field: Option<TokenStream>| match (constant, field)
    {
        (None, None) => None,
        (Some(constant), None) => Some(quote!(#p::Some(#constant))),
        (None, Some(field)) => Some(field),
        (Some(constant), Some(field)) => Some(quote!(#p::or(#field, #constant))),
    };
    let call = |method: &str, args: TokenStream| {
        let method = format_ident!("{}", method);
        quote!(#p::Builder::#method(#builder, #args))
    };

    let mut calls = vec![call("start", quote!(#class, #category, #code, #message))];
    let ora = value(
        plain.ora_code.map(|code| quote!(#code)),
        field(roles.ora_code, "ora_code"),
    );
    calls.extend(ora.map(|ora| call("ora_code", ora)));
    let tool = value(
        plain.tool.as_ref().map(|tool| quote!(#tool)),
        field(roles.suggested_tool, "tool_ref"),
    );
    calls.extend(tool.map(|tool| call("tool", tool)));
    calls.extend(field(roles.fuzzy_matches, "list").map(|list| call("fuzzy", list)));
    let more = field(roles.next_steps, "list");
    if !plain.next_steps.is_empty() || more.is_some() {
        let templates = plain
            .next_steps
            .iter()
            .map(|r| match format_args(p, variant, r, false) {
                Template::Args(args) => quote!(#p::Text::Fmt(#args)),
                Template::Literal(text) => quote!(#p::Text::Str(#text)),
            });
        let more = match more {
            Some(list) => quote!(#p::Some(#list)),
            None => quote!(#p::None),
        };
        calls.push(call("steps", quote!(&[#(#templates),*], #more)));
    }
    let retry = value(
        plain.retry_after_ms.map(|ms| quote!(#ms)),
        field(roles.retry, "retry_ms"),
    );
    calls.extend(retry.map(|retry| call("retry", retry)));
    calls.extend(
        plain
            .help_url
            .as_ref()
            .map(|url| call("help_url", quote!(#url))),
    );
    if !roles.details.is_empty() {
        let details = roles.details.iter().map(|(key, index)| {
            let field = &variant.fields[*index];
            let binding = &field.binding;
            quote_spanned!(field.ty.span()=> #p::detail(#key, #binding))
        });
        calls.push(call("details", quote!(&[#(#details),*])));
    }

    // Each call takes the builder the previous one returned; the last one's
    // is the arm's value. (The caller finishes the description.)
    let last = calls.pop();
    (
        pattern(input, variant, &bound),
        quote!({ #(let #builder = #calls;)* #last }),
    )
}

/// The `into_envelope` arm of a plain variant with a field to move (see
/// `moves`), in the shape of a hand-written conversion: fields are bound by
/// value, list and tool fields move into the envelope, and the envelope
/// goes through `with_*` helpers by value.
///
/// Everything borrowed goes through the same helpers, with the same
/// argument types, as in `describe` (`&field` here, a reference binding
/// there), so a field of the wrong type gets one error instead of two.
fn convert(
    p: &TokenStream,
    input: &Input,
    variant: &Variant,
    plain: &Plain,
) -> (TokenStream, TokenStream) {
    let bound: Vec<usize> = (0..variant.fields.len())
        .filter(|&i| variant.fields[i].is_bound(plain, i))
        .collect();
    let env = Ident::new("envelope", Span::mixed_site());
    let class = class_path(p, plain);
    let category = category(p, plain);
    let code = &plain.code;
    let string = |rendered: &Rendered| match format_args(p, variant, rendered, true) {
        Template::Args(args) => quote!(#p::render(#args)),
        Template::Literal(text) => quote!(#p::text(#text)),
    };
    let message = match &plain.message {
        Message::Template(rendered) => string(rendered),
        // `moves` leaves `Display` variants to the borrowing path.
        Message::Display | Message::Generic => quote!(#p::generic(#class)),
    };
    let roles = &plain.roles;
    // `#p::helper(&field)`, spanned at the field.
    let borrowed = |index: usize, helper: TokenStream| {
        let field = &variant.fields[index];
        let binding = &field.binding;
        let arg = quote_spanned!(field.ty.span()=> &#binding);
        quote_spanned!(field.ty.span()=> #helper(#arg))
    };
    let number = |constant: Option<TokenStream>, index: Option<usize>, helper: &str| {
        let helper = format_ident!("{}", helper);
        let field = index.map(|i| borrowed(i, quote!(#p::#helper)));
        match (constant, field) {
            (None, None) => None,
            (Some(constant), None) => Some(quote!(#p::Some(#constant))),
            (None, Some(field)) => Some(field),
            (Some(constant), Some(field)) => Some(quote!(#p::or(#field, #constant))),
        }
    };
    let with = |helper: &str, arg: TokenStream| {
        let helper = format_ident!("{}", helper);
        quote!(let #env = #p::#helper(#env, #arg);)
    };
    // A field moved into the envelope: `#p::helper(envelope, field)`.
    let moved = |index: Option<usize>, helper: &str| {
        index.map(|i| {
            let field = &variant.fields[i];
            let binding = &field.binding;
            let helper = format_ident!("{}", helper);
            quote_spanned!(field.ty.span()=> let #env = #p::#helper(#env, #binding);)
        })
    };

    let mut steps = Vec::new();
    if !roles.details.is_empty() {
        // Details borrow, so they come before any field moves.
        let details = roles.details.iter().map(|(key, index)| {
            let field = &variant.fields[*index];
            let binding = &field.binding;
            quote_spanned!(field.ty.span()=> #p::detail(#key, &#binding))
        });
        steps.push(with("with_details", quote!(&[#(#details),*])));
    }
    let ora = number(
        plain.ora_code.map(|code| quote!(#code)),
        roles.ora_code,
        "ora_code",
    );
    steps.extend(ora.map(|ora| with("with_ora_code", ora)));
    let retry = number(
        plain.retry_after_ms.map(|ms| quote!(#ms)),
        roles.retry,
        "retry_ms",
    );
    steps.extend(retry.map(|retry| with("with_retry", retry)));
    let tool = plain.tool.as_ref().map(|tool| quote!(#p::Some(#tool)));
    steps.extend(tool.map(|tool| with("with_tool", tool)));
    steps.extend(
        plain
            .help_url
            .as_ref()
            .map(|url| with("with_help_url", quote!(#url))),
    );
    if !plain.next_steps.is_empty() {
        let items = plain.next_steps.iter().map(string);
        steps.push(with("with_steps", quote!([#(#items),*])));
    }
    steps.extend(moved(roles.suggested_tool, "with_tool_owned"));
    steps.extend(moved(roles.fuzzy_matches, "with_fuzzy_owned"));
    steps.extend(moved(roles.next_steps, "with_more_steps_owned"));

    let body = quote!({
        let #env = #p::new(#class, #category, #code, #message);
        #(#steps)*
        #env
    });
    (pattern(input, variant, &bound), body)
}

/// A template, compiled: a `format_args!` call, or the plain text when it
/// has no placeholders.
enum Template {
    Args(TokenStream),
    Literal(LitStr),
}

/// A template as one `format_args!` call, or a plain string when it has no
/// placeholders. Placeholders become positional arguments, so raw field
/// names (`r#type`) and tuple indices need no special casing.
fn format_args(p: &TokenStream, variant: &Variant, rendered: &Rendered, borrow: bool) -> Template {
    let lit = &rendered.template.lit;
    let arg = |i: usize| {
        let binding = &variant.fields[i].binding;
        if borrow {
            quote_spanned!(binding.span()=> &#binding)
        } else {
            quote!(#binding)
        }
    };
    // When every placeholder names a field by a plain identifier, the
    // template is passed to `format_args!` exactly as written, with named
    // arguments: rustc's own notes and fix suggestions about a format spec
    // then point at the right characters of the user's string.
    if let Some(names) = named_placeholders(rendered) {
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
        return Template::Args(quote!(#p::format_args!(#lit, #(#named),*)));
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
        return Template::Literal(LitStr::new(&text, lit.span()));
    }
    // Rewritten text (positional or raw-identifier placeholders): its
    // offsets no longer match the source, so it must not claim the user's
    // string as its span, or rustc would point into the wrong characters.
    let format = LitStr::new(&format, Span::call_site());
    let args = args.iter().map(|&i| arg(i));
    Template::Args(quote!(#p::format_args!(#format, #(#args),*)))
}

/// The placeholders' names when each is a plain identifier written without
/// `r#` and the template has at least one; `None` when the text must be
/// rewritten.
fn named_placeholders(rendered: &Rendered) -> Option<Vec<&str>> {
    if rendered.template.lit.value().contains("r#") {
        return None;
    }
    let names: Vec<&str> = rendered
        .template
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

/// The `VariantSpec` constant for one variant.
fn spec(p: &TokenStream, variant: &Variant, kind: &Kind) -> TokenStream {
    let name = unraw(variant.ident);
    let plain = match kind {
        Kind::Plain(plain) => plain,
        Kind::Transparent(_) | Kind::With(..) => {
            return quote!(#p::VariantSpec::new(#name).transparent());
        }
    };
    let class = class_path(p, plain);
    let code = &plain.code;
    let category = category(p, plain);
    let option = |value: Option<TokenStream>| match value {
        Some(value) => quote!(#p::Some(#value)),
        None => quote!(#p::None),
    };
    let tool = option(plain.tool.as_ref().map(|tool| quote!(#tool)));
    let steps = plain.next_steps.iter().map(|r| &r.template.lit);
    let message = option(match &plain.message {
        Message::Template(rendered) => {
            let lit = &rendered.template.lit;
            Some(quote!(#lit))
        }
        Message::Generic => Some(quote!(#class.generic_message())),
        Message::Display => None,
    });
    let help_url = option(plain.help_url.as_ref().map(|url| quote!(#url)));
    quote!(#p::spec(#name, #class, #code, #category, #tool, &[#(#steps),*], #message, #help_url))
}
