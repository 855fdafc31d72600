//! Code generation from the validated model.
//!
//! Rules that keep the output working in hostile crates: every path is
//! global (`::core::...` or `<krate>::__private::...`), trait methods are
//! called with fully qualified syntax, locals use mixed-site hygiene, and
//! the per-field work is delegated to helpers in `__private` so the
//! expansion stays small. Every impl carries `#[allow(deprecated)]`, as
//! std's derives behave: deprecating an error type (or a variant) must not
//! turn its own derived impls into warnings the user cannot silence.
//!
//! A plain variant's conversion (`conversion`) is `base` plus one setter
//! call per field, used by `to_envelope` with the fields borrowed and by
//! `into_envelope` with the fields moved: the `__private` helpers accept
//! both, so the two methods share every rule.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident};

use crate::ast::{Input, Shape, Variant};
use crate::category::Category;
use crate::constant::{self, CONSTANTS, Constants};
use crate::ctxt::Ctxt;
use crate::fmt;
use crate::names::{Named, unraw};
use crate::resource::Resource;
use crate::valid::{self, Kind, Message, Model, Plain};

/// Expands `#[derive(Envelope)]` for `input`: the `Envelope` impl and the two
/// `From` impls, or every error found in the input, combined.
pub(crate) fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let cx = Ctxt::default();
    let ast = Input::from_syn(&cx, input)?;
    let model = valid::validate(&cx, &ast);
    cx.check()?;
    Ok(impls(&model))
}

/// One match arm: the variant it serves, its pattern and body, and for an
/// arm that binds nothing, the key under which arms with the same body
/// merge into one or-pattern arm.
struct Arm<'v, 'a> {
    variant: &'v Variant<'a>,
    pattern: TokenStream,
    body: TokenStream,
    merge: Option<&'static str>,
}

/// What every generator of one derive shares.
struct Scope<'m, 'a> {
    model: &'m Model<'a>,
    input: &'m Input<'a>,
    /// `<krate>::__private`, as signatures name it.
    p: TokenStream,
    /// The support module's local alias, as bodies name it.
    q: TokenStream,
    /// The `use` that declares the alias, at the top of each body.
    use_alias: TokenStream,
    /// Each variant with its validated kind.
    pairs: Vec<(&'m Variant<'a>, &'m Kind)>,
}

/// The `Envelope` impl, one generator per method, then the two `From`
/// impls and the integrations.
fn impls(model: &Model) -> TokenStream {
    let scope = Scope::new(model);
    let p = &scope.p;
    let input = model.input;
    let ident = input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    let where_clause = model
        .bounds
        .where_clause(&model.krate, ident, input.generics);
    let error_class = error_class(&scope);
    let user_category = user_category(&scope);
    let code = code(&scope);
    let to_envelope = to_envelope(&scope);
    let into_envelope = into_envelope(&scope);
    let catalog = catalog(&scope);
    let from_impls = from_impls(&scope, &where_clause);
    quote! {
        #[automatically_derived]
        #[allow(deprecated)]
        impl #impl_generics #p::Envelope for #ident #ty_generics #where_clause {
            #error_class
            #user_category
            #code
            #to_envelope
            #into_envelope
            #catalog
        }

        #from_impls

        #p::integrations! {
            impl [#impl_generics] for [#ident #ty_generics] [#where_clause]
        }
    }
}

/// `From<T>` and `From<&T>` for `ErrorEnvelope`, through the trait.
fn from_impls(scope: &Scope, where_clause: &TokenStream) -> TokenStream {
    let p = &scope.p;
    let ident = scope.input.ident;
    let (impl_generics, ty_generics, _) = scope.input.generics.split_for_impl();
    quote! {
        #[automatically_derived]

        #[allow(deprecated)]
        impl #impl_generics ::core::convert::From<#ident #ty_generics> for #p::ErrorEnvelope #where_clause {
            #[inline]
            fn from(error: #ident #ty_generics) -> Self {
                #[allow(unused_imports)]
                use #p::{ErrorText as _, NoErrorText as _};
                let text = (&#p::Cause(&error)).text();
                #p::with_log_text(<#ident #ty_generics as #p::Envelope>::into_envelope(error), text)
            }
        }

        #[automatically_derived]

        #[allow(deprecated)]
        impl #impl_generics ::core::convert::From<&#ident #ty_generics> for #p::ErrorEnvelope #where_clause {
            #[inline]
            fn from(error: &#ident #ty_generics) -> Self {
                #[allow(unused_imports)]
                use #p::{ErrorText as _, NoErrorText as _};
                let text = (&#p::Cause(error)).text();
                #p::with_log_text(<#ident #ty_generics as #p::Envelope>::to_envelope(error), text)
            }
        }
    }
}

impl<'m, 'a> Scope<'m, 'a> {
    fn new(model: &'m Model<'a>) -> Self {
        let input = model.input;
        let krate = &model.krate;
        // Inside the generated bodies, the support module goes by a short
        // local alias: a 1000-variant enum repeats it tens of thousands of
        // times, and every token costs the user's compile time. (The alias
        // is declared in each body, so no user item can take its place.)
        let alias = Ident::new("__envelope", Span::mixed_site());
        Scope {
            model,
            input,
            p: quote!(#krate::__private),
            q: quote!(#alias),
            use_alias: quote!(use #krate::__private as #alias;),
            pairs: input.variants().iter().zip(&model.variants).collect(),
        }
    }

    /// The body of an accessor: a constant per plain variant, arms of
    /// equal constants merged; delegating variants ask the error they wrap.
    fn accessor(
        &self,
        method: &str,
        constant: impl Fn(&Plain) -> (TokenStream, Option<&'static str>),
    ) -> TokenStream {
        let (q, input) = (&self.q, self.input);
        let method = format_ident!("{}", method);
        let arms = self.pairs.iter().map(|&(variant, kind)| match kind {
            Kind::Plain(plain) => {
                let (body, merge) = constant(plain);
                Arm {
                    variant,
                    pattern: pattern(input, variant, &[]),
                    body,
                    merge,
                }
            }
            Kind::Transparent(i, resource) => delegate(q, input, variant, *i, &method, *resource),
            Kind::With(i, path) => {
                let (pattern, built) = with(input, variant, *i, path);
                let body = quote!(<#q::ErrorEnvelope as #q::Envelope>::#method(&#built));
                Arm {
                    variant,
                    pattern,
                    body,
                    merge: None,
                }
            }
        });
        matched(quote!(self), &self.use_alias, arms)
    }

    /// A delegating arm that calls `method` on the wrapped error, with the
    /// container defaults it lacks filled in.
    fn transparent(
        &self,
        variant: &'m Variant<'a>,
        index: usize,
        resource: Resource,
        method: &str,
    ) -> Arm<'m, 'a> {
        let method = format_ident!("{}", method);
        let arm = delegate(&self.q, self.input, variant, index, &method, resource);
        filled(&self.q, self.model, arm)
    }

    /// The conversion arm of a plain variant.
    fn convert(&self, variant: &'m Variant<'a>, plain: &Plain) -> Arm<'m, 'a> {
        Arm {
            variant,
            pattern: pattern(self.input, variant, &plain.bound),
            body: conversion(&self.q, variant, plain),
            merge: None,
        }
    }
}

/// `error_class`: the class per plain variant, variants of one class in
/// one arm.
fn error_class(scope: &Scope) -> TokenStream {
    let p = &scope.p;
    let arms = scope.accessor("error_class", |plain| {
        (class_path(&scope.q, plain), Some(plain.class.name()))
    });
    quote! {
        #[inline]
        fn error_class(&self) -> #p::ErrorClass {
            #arms
        }
    }
}

/// The trait's provided `user_category` is the class's default
/// category: only a type with a `category` attribute or a delegating
/// variant needs its own.
fn user_category(scope: &Scope) -> Option<TokenStream> {
    let defaults_only = !scope.pairs.is_empty()
        && scope
            .model
            .variants
            .iter()
            .all(|kind| matches!(kind, Kind::Plain(plain) if plain.category.is_none()));
    if defaults_only {
        return None;
    }
    let p = &scope.p;
    let arms = scope.accessor("user_category", |plain| {
        let (path, category) = category(&scope.q, plain);
        (path, Some(category.name()))
    });
    Some(quote! {
        #[inline]
        fn user_category(&self) -> #p::UserErrorCategory {
            #arms
        }
    })
}

/// `code`: each plain variant's code.
fn code(scope: &Scope) -> TokenStream {
    let p = &scope.p;
    // Without a delegating variant every code is a constant: one `Some`
    // around the match instead of one per arm. (An empty enum keeps
    // `match *self {}` alone: `Some` of it would be an unreachable call.)
    let some_outside = !scope.pairs.is_empty()
        && scope
            .pairs
            .iter()
            .all(|(_, kind)| matches!(kind, Kind::Plain(_)));
    let q = &scope.q;
    let arms = scope.accessor("code", |plain| {
        let code = &plain.code;
        let body = if some_outside {
            quote!(#code)
        } else {
            quote!(#q::Some(#code))
        };
        (body, None)
    });
    let arms = if some_outside {
        quote!(#p::Some(#arms))
    } else {
        arms
    };
    quote! {
        #[inline]
        fn code(&self) -> #p::Option<&'static str> {
            #arms
        }
    }
}

/// `to_envelope`: each plain variant's conversion with its fields
/// borrowed; delegating variants fill what their envelope lacks.
fn to_envelope(scope: &Scope) -> TokenStream {
    let p = &scope.p;
    let arms = scope.pairs.iter().map(|&(variant, kind)| match kind {
        Kind::Plain(plain) => scope.convert(variant, plain),
        Kind::Transparent(i, resource) => scope.transparent(variant, *i, *resource, "to_envelope"),
        Kind::With(i, path) => {
            let (pattern, body) = with(scope.input, variant, *i, path);
            let arm = Arm {
                variant,
                pattern,
                body,
                merge: None,
            };
            filled(&scope.q, scope.model, arm)
        }
    });
    let arms = matched(quote!(self), &scope.use_alias, arms);
    quote! {
        fn to_envelope(&self) -> #p::ErrorEnvelope {
            #arms
        }
    }
}

/// `into_envelope` differs from the provided method only where a field
/// can move: plain variants with a list or tool field, and wrapped
/// errors. Every other variant borrows, in one merged arm.
fn into_envelope(scope: &Scope) -> Option<TokenStream> {
    let moves = scope.pairs.iter().any(|(_, kind)| match kind {
        Kind::Plain(plain) => plain.moves(),
        Kind::Transparent(..) => true,
        Kind::With(..) => false,
    });
    if !moves {
        return None;
    }
    let (p, q) = (&scope.p, &scope.q);
    let arms = scope.pairs.iter().map(|&(variant, kind)| match kind {
        Kind::Plain(plain) if plain.moves() => scope.convert(variant, plain),
        Kind::Transparent(i, resource) => {
            scope.transparent(variant, *i, *resource, "into_envelope")
        }
        Kind::Plain(_) | Kind::With(..) => Arm {
            variant,
            pattern: pattern(scope.input, variant, &[]),
            body: quote!(<Self as #q::Envelope>::to_envelope(&self)),
            merge: Some("to_envelope"),
        },
    });
    let arms = matched(quote!(self), &scope.use_alias, arms);
    Some(quote! {
        fn into_envelope(self) -> #p::ErrorEnvelope {
            #arms
        }
    })
}

/// `catalog()`: one `VariantSpec` per variant, under its `#[cfg]`s.
fn catalog(scope: &Scope) -> TokenStream {
    let p = &scope.p;
    let specs = scope
        .pairs
        .iter()
        .map(|(variant, kind)| spec(&scope.q, variant, kind));
    let catalog_alias = (!scope.pairs.is_empty()).then_some(&scope.use_alias);
    let cfgs = scope.pairs.iter().map(|(variant, _)| &variant.cfgs);
    quote! {
        fn catalog() -> &'static [#p::VariantSpec] {
            const CATALOG: &[#p::VariantSpec] = {
                #catalog_alias
                &[#(#(#cfgs)* #specs,)*]
            };
            CATALOG
        }
    }
}

/// `match #scrutinee { arms }` after the alias of the support module, with
/// arms that share a merge key joined
/// into one or-pattern arm (one body to type-check and compile instead of
/// one per variant, which keeps large enums cheap). Variants under `#[cfg]`
/// keep their own arm. An empty enum gets `match *self {}`.
fn matched<'v, 'a: 'v>(
    scrutinee: TokenStream,
    use_alias: &TokenStream,
    arms: impl Iterator<Item = Arm<'v, 'a>>,
) -> TokenStream {
    let mut merged: Vec<(&'static str, Vec<TokenStream>, TokenStream)> = Vec::new();
    let mut out = TokenStream::new();
    let mut any = false;
    for arm in arms {
        any = true;
        let cfgs = &arm.variant.cfgs;
        let Some(key) = arm.merge.filter(|_| cfgs.is_empty()) else {
            let (pattern, body) = (arm.pattern, arm.body);
            out.extend(quote!(#(#cfgs)* #pattern => #body,));
            continue;
        };
        match merged.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, patterns, _)) => patterns.push(arm.pattern),
            None => merged.push((key, vec![arm.pattern], arm.body)),
        }
    }
    if !any {
        return quote!(match *self {});
    }
    for (_, patterns, body) in merged {
        out.extend(quote!(#(#patterns)|* => #body,));
    }
    quote!({
        #use_alias
        match #scrutinee { #out }
    })
}

/// A delegating arm whose envelope takes the container defaults it lacks
/// (`Fill`), when the container has any: the tools by class, then the
/// defaults as a `VariantSpec` whose fields fill the empty ones.
fn filled<'v, 'a>(p: &TokenStream, model: &Model, arm: Arm<'v, 'a>) -> Arm<'v, 'a> {
    let Some(fill) = &model.fill else { return arm };
    let tools = fill.tools.iter().map(|(class, tool)| {
        let class = class.ident();
        quote!((#p::ErrorClass::#class, #tool))
    });
    let mut chain = constants(&fill.constants);
    if let Some(tool) = &fill.tool {
        chain.push(quote!(with_suggested_tool(#tool)));
    }
    if !fill.next_steps.is_empty() {
        let steps = &fill.next_steps;
        chain.push(quote!(with_next_steps(&[#(#steps),*])));
    }
    let body = arm.body;
    Arm {
        body: quote!(#p::fill(#body, &[#(#tools),*], #p::VariantSpec::new("")#(.#chain)*)),
        ..arm
    }
}

/// The `VariantSpec` builder calls of constant attributes
/// (`with_help_url("...")`).
fn constants(constants: &Constants) -> Vec<TokenStream> {
    constants
        .iter()
        .map(|(constant, value)| {
            let with = format_ident!("with_{}", constant.name);
            quote!(#with(#value))
        })
        .collect()
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

/// An arm that hands the call to the wrapped error's `Envelope` impl;
/// for `resource = server`, through the rule that makes its caller-owned
/// classes server-owned (the code stays the wrapped error's).
fn delegate<'v, 'a>(
    p: &TokenStream,
    input: &Input,
    variant: &'v Variant<'a>,
    index: usize,
    method: &Ident,
    resource: Resource,
) -> Arm<'v, 'a> {
    let field = &variant.fields[index];
    let ty = field.ty;
    let binding = &field.binding;
    let call = quote_spanned!(ty.span()=> <#ty as #p::Envelope>::#method(#binding));
    let body = match (resource, method.to_string().as_str()) {
        (Resource::Caller, _) | (Resource::Server, "code") => call,
        (Resource::Server, "error_class") => quote!(#p::server_class(#call)),
        (Resource::Server, "user_category") => {
            let class = quote_spanned!(ty.span()=> <#ty as #p::Envelope>::error_class(#binding));
            quote!(#p::server_category(#class, #call))
        }
        (Resource::Server, _) => quote!(#p::server_resource(#call)),
    };
    Arm {
        variant,
        pattern: pattern(input, variant, &[index]),
        body,
        merge: None,
    }
}

/// The pattern of a `with` variant and the call of its function, which
/// takes the field by reference.
fn with(
    input: &Input,
    variant: &Variant,
    index: usize,
    path: &syn::Path,
) -> (TokenStream, TokenStream) {
    let binding = &variant.fields[index].binding;
    let built = quote_spanned!(path.span()=> #path(#binding));
    (pattern(input, variant, &[index]), built)
}

fn class_path(p: &TokenStream, plain: &Plain) -> TokenStream {
    let class = plain.class.ident();
    quote!(#p::ErrorClass::#class)
}

/// The variant's category (its own, or the class's default) and its path.
fn category(p: &TokenStream, plain: &Plain) -> (TokenStream, Category) {
    let category = plain
        .category
        .unwrap_or_else(|| plain.class.default_category());
    let ident = category.ident();
    (quote!(#p::UserErrorCategory::#ident), category)
}

/// The conversion of a plain variant: `base` with the message, then one
/// setter per field the variant fills, with the fields it binds either
/// borrowed (`to_envelope`) or moved (`into_envelope`); the helpers take
/// both.
fn conversion(p: &TokenStream, variant: &Variant, plain: &Plain) -> TokenStream {
    let class = class_path(p, plain);
    let (category, _) = category(p, plain);
    let code = &plain.code;
    let message = match &plain.message {
        Message::Template(rendered) => fmt::lower(p, variant, rendered),
        Message::Display => quote!(#p::display(self)),
        Message::Generic | Message::Arguments => quote!(#p::generic(#class)),
    };
    let mut setters = setters(p, variant, plain);
    // The shortest call that builds the start: most variants keep their
    // class's category, and a server-owned one without `message` its text.
    let base = match (&plain.arguments, &plain.category, &plain.message) {
        (None, None, Message::Generic) => quote!(#p::base_generic(#class, #code)),
        (None, None, _) => quote!(#p::base_default(#class, #code, #message)),
        (None, Some(_), _) => quote!(#p::base(#class, #category, #code, #message)),
        // `args::invalid_arguments` writes the message, unless the variant
        // gives its own.
        (Some(problems), _, _) => {
            if let Message::Template(_) = plain.message {
                setters.insert(0, ("message", message));
            }
            let problems = problems.iter().map(|problem| argument(p, variant, problem));
            let more = match plain.roles.argument_errors {
                // Moved by `into_envelope`, unless a template or a
                // `detail` still reads it.
                Some(index) if plain.reads(index) => {
                    let field = &variant.fields[index];
                    let binding = &field.binding;
                    quote_spanned!(field.ty.span()=> &#binding)
                }
                Some(index) => {
                    let field = &variant.fields[index];
                    let binding = &field.binding;
                    quote_spanned!(field.ty.span()=> #binding)
                }
                None => quote!(#p::NO_ARGUMENTS),
            };
            quote!(#p::arguments(#category, #code, [#(#problems),*], #more))
        }
    };
    // One setter call per field; each setter is compiled once, in the
    // runtime crate, so an arm stays small.
    let envelope = Ident::new("envelope", Span::mixed_site());
    let sets: Vec<TokenStream> = setters
        .into_iter()
        .map(|(name, value)| {
            let name = Ident::new(name, Span::call_site());
            quote!(#p::set::#name(&mut #envelope, #value);)
        })
        .collect();
    // The retry rule again, over the variant's own effect and steps.
    let settle = plain.retry.apply_rule.then(|| {
        let may_succeed = match plain.retry.retryable {
            Some(retryable) => quote!(#retryable),
            None => quote!(#class.is_retryable()),
        };
        let idempotent = plain.retry.idempotent;
        quote!(#p::settle(&mut #envelope, #may_succeed, #idempotent);)
    });
    if sets.is_empty() && settle.is_none() {
        return base;
    }
    quote!({
        let mut #envelope = #base;
        #(#sets)*
        #settle
        #envelope
    })
}

/// The envelope fields a plain variant sets, by setter name, in order:
/// the templates and `detail`s, which borrow, before the list and tool
/// fields, which may move.
fn setters(p: &TokenStream, variant: &Variant, plain: &Plain) -> Vec<(&'static str, TokenStream)> {
    let roles = &plain.roles;
    let mut fields: Vec<(&str, TokenStream)> = Vec::new();
    fields.extend(next_steps(p, variant, plain).map(|steps| ("next_steps", steps)));
    if !roles.details.is_empty() {
        let details = roles.details.iter().map(|(key, index)| {
            let field = &variant.fields[*index];
            let binding = &field.binding;
            let value = quote_spanned!(field.ty.span()=> #p::detail(&#binding));
            quote!((#key, #value))
        });
        fields.push(("details", quote!(#p::details([#(#details),*]))));
    }
    for constant in CONSTANTS {
        // A role field that can supply the value at run time.
        let field = match constant.name {
            "ora_code" => role(p, variant, roles.ora_code, "ora_code"),
            "retry_after_ms" => role(p, variant, roles.retry, "retry_ms"),
            _ => None,
        };
        let value = constant::get(&plain.constants, constant).map(|value| quote!(#value));
        fields.extend(or_constant(p, field, value).map(|value| (constant.name, value)));
    }
    let tool = role(p, variant, roles.suggested_tool, "tool");
    let constant_tool = plain.tool.as_ref().map(|tool| quote!(#tool));
    fields.extend(or_constant(p, tool, constant_tool).map(|value| ("suggested_tool", value)));
    fields
        .extend(role(p, variant, roles.fuzzy_matches, "list").map(|list| ("fuzzy_matches", list)));
    if let Some(index) = roles.correlation_id {
        // An `Option<...>` field takes the optional form; anything else is
        // one `Display` value.
        let helper = if roles.correlation_id_is_option {
            "correlation_id_opt"
        } else {
            "correlation_id"
        };
        fields.extend(role(p, variant, Some(index), helper).map(|id| ("correlation_id", id)));
    }
    if let Some(effect) = plain.retry.effect {
        let effect = effect.ident();
        fields.push(("effect", quote!(#p::Effect::#effect)));
    }
    fields
}

/// One `argument(...)` problem, its suggestions borrowed from their field
/// (which `into_envelope` may move later).
fn argument(p: &TokenStream, variant: &Variant, problem: &valid::Problem) -> TokenStream {
    let kind = problem.kind.ident();
    let path = &problem.path;
    let expected = match &problem.expected {
        Some(expected) => quote!(#p::Some(#expected)),
        None => quote!(#p::None),
    };
    let suggestions = match problem.suggestions {
        Some(index) => {
            let field = &variant.fields[index];
            let binding = &field.binding;
            quote_spanned!(field.ty.span()=> &#binding)
        }
        None => quote!(#p::NO_STEPS),
    };
    quote!(#p::argument(#p::ArgumentErrorKind::#kind, #path, #expected, #suggestions))
}

/// The `next_steps` value: the templates, the role field's list, or both.
/// An argument variant keeps `args::invalid_arguments`' step unless it has
/// templates of its own; a `next_steps` field goes after that step.
fn next_steps(p: &TokenStream, variant: &Variant, plain: &Plain) -> Option<TokenStream> {
    let mut templates: Vec<TokenStream> = plain
        .next_steps
        .iter()
        .map(|rendered| fmt::lower(p, variant, rendered))
        .collect();
    if plain.arguments.is_some() {
        if templates.is_empty() && plain.roles.next_steps.is_none() {
            return None;
        }
        if templates.is_empty() {
            templates.push(quote!(#p::text(#p::ARGUMENT_STEP)));
        }
        let more = match plain.roles.next_steps {
            Some(index) => {
                let field = &variant.fields[index];
                let binding = &field.binding;
                quote_spanned!(field.ty.span()=> #binding)
            }
            None => quote!(#p::NO_STEPS),
        };
        return Some(quote!(#p::steps([#(#templates),*], #more)));
    }
    match (templates.is_empty(), plain.roles.next_steps) {
        (true, None) => None,
        // Room for the check step only when the rule may add one.
        (false, None) if !plain.retry.apply_rule => Some(quote!(#p::list([#(#templates),*]))),
        (false, None) => Some(quote!(#p::steps([#(#templates),*], #p::NO_STEPS))),
        (true, Some(index)) => role(p, variant, Some(index), "list"),
        (false, Some(index)) => {
            let more = &variant.fields[index];
            let binding = &more.binding;
            Some(quote_spanned!(more.ty.span()=> #p::steps([#(#templates),*], #binding)))
        }
    }
}

/// `#p::helper(field)` for the role field at `index`, spanned at the
/// field so a type error points there.
fn role(
    p: &TokenStream,
    variant: &Variant,
    index: Option<usize>,
    helper: &str,
) -> Option<TokenStream> {
    index.map(|i| {
        let field = &variant.fields[i];
        let binding = &field.binding;
        let helper = format_ident!("{}", helper);
        quote_spanned!(field.ty.span()=> #p::#helper(#binding))
    })
}

/// The one rule for a value fed by a role field and an attribute constant:
/// the field's value when it holds one, else the constant.
fn or_constant(
    p: &TokenStream,
    field: Option<TokenStream>,
    constant: Option<TokenStream>,
) -> Option<TokenStream> {
    match (field, constant) {
        (field, None) => field,
        (field, Some(constant)) => {
            let field = field.unwrap_or_else(|| quote!(#p::None));
            Some(quote!(#p::or(#field, #constant)))
        }
    }
}

/// The `VariantSpec` constant for one variant.
fn spec(p: &TokenStream, variant: &Variant, kind: &Kind) -> TokenStream {
    let name = unraw(variant.ident);
    let plain = match kind {
        Kind::Plain(plain) => plain,
        Kind::Transparent(..) | Kind::With(..) => {
            return quote!(#p::VariantSpec::new(#name).transparent());
        }
    };
    let class = class_path(p, plain);
    let code = &plain.code;
    let message = match &plain.message {
        Message::Template(rendered) => {
            let lit = &rendered.template.lit;
            Some(quote!(#p::Some(#lit)))
        }
        Message::Generic => None,
        Message::Arguments => Some(quote!(#p::Some(#p::ARGUMENTS_MESSAGE))),
        Message::Display => Some(quote!(#p::None)),
    };
    // Only what differs from the class's defaults, in the order the
    // setters expect (effect, idempotent, then retryable).
    let mut chain = Vec::new();
    if plain.category.is_some() {
        let (category, _) = category(p, plain);
        chain.push(quote!(with_category(#category)));
    }
    if let Some(tool) = &plain.tool {
        chain.push(quote!(with_suggested_tool(#tool)));
    }
    if !plain.next_steps.is_empty() {
        let steps = plain.next_steps.iter().map(|r| &r.template.lit);
        chain.push(quote!(with_next_steps(&[#(#steps),*])));
    } else if plain.arguments.is_some() {
        chain.push(quote!(with_next_steps(#p::ARGUMENT_STEPS)));
    }
    chain.extend(constants(&plain.constants));
    if let Some(effect) = plain.retry.effect {
        let effect = effect.ident();
        chain.push(quote!(with_effect(#p::Effect::#effect)));
    }
    if plain.retry.idempotent {
        chain.push(quote!(idempotent()));
    }
    if let Some(retryable) = plain.retry.retryable {
        chain.push(quote!(with_retryable(#retryable)));
    }
    if let Some(index) = plain.roles.correlation_id {
        let field = variant.fields[index].name.to_string();
        chain.push(quote!(with_correlation_id(#field)));
    }
    let start = match message {
        Some(message) => quote!(#p::spec(#name, #class, #code, #message)),
        None => quote!(#p::spec_generic(#name, #class, #code)),
    };
    quote!(#start #(.#chain)*)
}
