//! Every semantic rule, in its own pass after parsing: the borrowed `ast`
//! becomes a validated `Model` that code generation can trust.

use proc_macro2::Span;
use syn::{Ident, Path, Type};

use crate::argument::ArgKind;
use crate::ast::{Input, Shape, Variant};
use crate::attr::{ItemAttrs, Key, Role, ToolAttr};
use crate::category::Category;
use crate::class::{Class, Owner};
use crate::constant::{self, Constants};
use crate::ctxt::Ctxt;
use crate::effect::Effect;
use crate::fmt::{FieldRef, Piece, Template};
use crate::generics::{self, Bound, Bounds};
use crate::names::{self, Named};
use crate::resource::Resource;

pub(crate) struct Model<'a> {
    pub krate: Path,
    pub input: &'a Input<'a>,
    pub variants: Vec<Kind>,
    /// The inferred `where` predicates, as data; `generics.rs` writes them.
    pub bounds: Bounds<'a>,
    /// The container defaults that fill in what a delegating variant's
    /// envelope lacks; `None` when there is nothing to fill or no such
    /// variant.
    pub fill: Option<Fill>,
}

/// Container defaults for `transparent` and `with` variants, whose
/// envelope comes whole from elsewhere: each fills only a field that
/// envelope leaves empty.
pub(crate) struct Fill {
    pub tool: Option<String>,
    /// `suggested_tools(Class = "tool")`.
    pub tools: Vec<(Class, String)>,
    /// The container's constants (`help_url = "..."`).
    pub constants: Constants,
    /// The container's `next_step`s without placeholders (a placeholder
    /// names a field a delegating variant does not have).
    pub next_steps: Vec<String>,
}

pub(crate) enum Kind {
    /// Delegates to the field at this index; `Resource::Server` makes its
    /// caller-owned classes server-owned.
    Transparent(usize, Resource),
    /// Builds the envelope by calling the function with the field at this
    /// index.
    With(usize, Path),
    Plain(Box<Plain>),
}

pub(crate) struct Plain {
    /// The fields the conversion arm binds, in declaration order.
    pub bound: Vec<usize>,
    pub class: Class,
    pub category: Option<Category>,
    pub code: String,
    pub message: Message,
    pub next_steps: Vec<Rendered>,
    pub tool: Option<String>,
    /// `ora_code = 942` and the other constants, the variant's own else the
    /// container's, in `CONSTANTS`' order.
    pub constants: Constants,
    pub retry: Retry,
    pub roles: Roles,
    /// The argument problems, for a variant with `argument(...)` or an
    /// `argument_errors` field: its envelope is `args::invalid_arguments`'.
    pub arguments: Option<Vec<Problem>>,
}

/// One `argument(...)`, checked: an `ArgumentError` known at compile time
/// but for its suggestions, which come from a field.
pub(crate) struct Problem {
    pub kind: ArgKind,
    pub path: String,
    pub expected: Option<String>,
    /// The index of the `suggestions = field`.
    pub suggestions: Option<usize>,
}

/// What the retry rule reads: explicit values, the variant's or the
/// container's.
pub(crate) struct Retry {
    pub effect: Option<Effect>,
    pub idempotent: bool,
    pub retryable: Option<bool>,
    /// Whether the conversion applies the retry rule itself: an explicit
    /// `effect`, `idempotent` or `retryable`, or a class whose default
    /// effect is not `Nothing` (which may need the check step).
    pub apply_rule: bool,
}

pub(crate) enum Message {
    Template(Rendered),
    /// The error's `Display` text.
    Display,
    /// The class's generic text (server-owned class without `message`).
    Generic,
    /// The text `args::invalid_arguments` writes for the problems (an
    /// argument variant without `message`).
    Arguments,
}

/// A template whose placeholders are resolved to field indices.
pub(crate) struct Rendered {
    pub template: Template,
    /// For each placeholder in order: the field index.
    pub args: Vec<usize>,
}

/// Field indices by role.
#[derive(Default)]
pub(crate) struct Roles {
    pub fuzzy_matches: Option<usize>,
    pub next_steps: Option<usize>,
    pub suggested_tool: Option<usize>,
    pub retry: Option<usize>,
    pub ora_code: Option<usize>,
    pub correlation_id: Option<usize>,
    /// Whether the `correlation_id` field's type is spelled `Option<...>`.
    pub correlation_id_is_option: bool,
    pub argument_errors: Option<usize>,
    pub details: Vec<(String, usize)>,
}

pub(crate) fn validate<'a>(cx: &Ctxt, input: &'a Input<'a>) -> Model<'a> {
    let krate = input
        .attrs
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::envelope));
    let params = generics::type_params(input.generics);
    let mut bounds = Bounds::default();
    let container = &input.attrs;
    let is_struct = matches!(input.shape, Shape::Struct(_));
    let mut variants = Vec::new();
    let mut codes: Vec<(String, &Ident)> = Vec::new();
    let mut uses_display = false;
    for variant in input.variants() {
        let own = if is_struct { container } else { &variant.attrs };
        let kind = if let Some(span) = own.transparent {
            let index = delegated(cx, variant, own, Key::Transparent, span);
            if let Some(field) = variant.fields.get(index)
                && generics::mentions(field.ty, &params)
            {
                bounds.push(field.ty, Bound::Envelope);
            }
            let resource = own.resource.as_ref().map_or(Resource::Caller, |(_, r)| *r);
            Kind::Transparent(index, resource)
        } else if let Some(path) = &own.with {
            let span = own.span_of(Key::With).unwrap_or_else(Span::call_site);
            Kind::With(delegated(cx, variant, own, Key::With, span), path.clone())
        } else {
            match plain(cx, variant, own, container, is_struct, &params, &mut bounds) {
                Some(plain) => {
                    unique_code(cx, &mut codes, variant, own, &plain.code);
                    uses_display |= matches!(plain.message, Message::Display);
                    Kind::Plain(Box::new(plain))
                }
                None => continue,
            }
        };
        variants.push(kind);
    }
    bounds.display_self = uses_display && !input.generics.params.is_empty();
    let delegates = variants
        .iter()
        .any(|kind| matches!(kind, Kind::Transparent(..) | Kind::With(..)));
    // On a struct the container is the delegating variant: of these keys
    // only `suggested_tools` gets this far (the rest are errors there).
    let fill = delegates.then(|| container_fill(container)).flatten();
    Model {
        krate,
        input,
        variants,
        bounds,
        fill,
    }
}

/// Reports a code an earlier variant already produces; records a new one.
fn unique_code<'v>(
    cx: &Ctxt,
    codes: &mut Vec<(String, &'v Ident)>,
    variant: &Variant<'v>,
    own: &ItemAttrs,
    code: &str,
) {
    let code_span = own.code.as_ref().map_or(variant.ident.span(), |l| l.span());
    if let Some((_, first)) = codes.iter().find(|(c, _)| *c == code) {
        cx.push(syn::Error::new(
            code_span,
            format!(
                "duplicate code `{code}`: variants `{first}` and `{}` both produce it; give one of them its own `code = \"...\"`",
                variant.ident
            ),
        ));
    } else {
        codes.push((code.to_owned(), variant.ident));
    }
}

/// The container defaults a delegating variant's envelope can take.
fn container_fill(container: &ItemAttrs) -> Option<Fill> {
    let fill = Fill {
        tool: match &container.suggested_tool {
            Some(ToolAttr::Tool(lit)) => Some(lit.value()),
            _ => None,
        },
        tools: container
            .suggested_tools
            .iter()
            .map(|(_, class, lit)| (*class, lit.value()))
            .collect(),
        constants: constant::merged(&Constants::new(), &container.constants),
        next_steps: container
            .next_steps
            .iter()
            .filter_map(|lit| Template::parse(lit).ok())
            .filter(|template| template.pieces.iter().all(|p| matches!(p, Piece::Text(_))))
            .map(|template| {
                template
                    .pieces
                    .iter()
                    .map(|piece| match piece {
                        Piece::Text(text) => text.as_str(),
                        Piece::Arg { .. } => "",
                    })
                    .collect()
            })
            .collect(),
    };
    let empty = fill.tool.is_none()
        && fill.tools.is_empty()
        && fill.constants.is_empty()
        && fill.next_steps.is_empty();
    (!empty).then_some(fill)
}

/// Checks a variant whose envelope comes from its one field, by
/// `transparent` or `with`; returns that field's index.
fn delegated(cx: &Ctxt, variant: &Variant, own: &ItemAttrs, mode_key: Key, span: Span) -> usize {
    let mode = mode_key.name();
    for &(key, key_span) in &own.keys {
        if key == mode_key
            || key.is_container_only()
            || (key == Key::Resource && mode_key == Key::Transparent)
        {
            continue;
        }
        let key = key.name();
        let message = if key == "resource" {
            "`resource` cannot be combined with `with`: the function builds the whole envelope; remove `resource`, and for the server's own resources call `.for_server_resource()` on the envelope the function returns".to_owned()
        } else if matches!(key, "transparent" | "with") {
            "`transparent` and `with` cannot be combined: keep one".to_owned()
        } else if mode_key == Key::Transparent {
            format!(
                "`{key}` cannot be combined with `transparent`: the wrapped error supplies the whole envelope; remove `{key}`"
            )
        } else {
            format!(
                "`{key}` cannot be combined with `with`: the function builds the whole envelope; remove `{key}` and set it on the envelope the function returns"
            )
        };
        cx.push(syn::Error::new(key_span, message));
    }
    if variant.fields.len() != 1 {
        let what = if mode_key == Key::Transparent {
            "the error it wraps"
        } else {
            "the value passed to the function"
        };
        cx.push(syn::Error::new(
            span,
            format!(
                "`{mode}` needs exactly one field, {what}, but `{}` has {}",
                variant.ident,
                variant.fields.len()
            ),
        ));
        return 0;
    }
    for (role, role_span) in &variant.fields[0].attrs.roles {
        cx.push(syn::Error::new(
            *role_span,
            format!(
                "`{}` has no effect on the field of a `{mode}` variant: remove it",
                role.name()
            ),
        ));
    }
    0
}

/// A variant that builds its own envelope: each job below reads the
/// variant's attributes (then the container's defaults) and reports what
/// is wrong; `None` when it has no class to build from.
fn plain<'a>(
    cx: &Ctxt,
    variant: &Variant<'a>,
    own: &ItemAttrs,
    container: &ItemAttrs,
    is_struct: bool,
    params: &[String],
    bounds: &mut Bounds<'a>,
) -> Option<Plain> {
    if let Some((ident, _)) = &own.resource {
        cx.push(syn::Error::new(
            own.span_of(Key::Resource).unwrap_or_else(|| ident.span()),
            format!(
                "`resource` is for a `transparent` variant, whose envelope comes from the error it wraps; `{}` builds its own, so its class already says whose fault it is: remove `resource`, or pick a server-owned class such as `class = Internal`",
                variant.ident
            ),
        ));
    }
    let class = class(cx, variant, own, container, is_struct)?;
    let category = own
        .category
        .as_ref()
        .or(container.category.as_ref())
        .map(|(_, c)| *c);
    let roles = roles(cx, variant);
    let arguments = arguments(cx, variant, own, class, &roles);
    let is_arguments = arguments.is_some();
    let message = message(cx, variant, own, class, is_arguments, params, bounds);
    let next_steps = next_steps(cx, variant, own, container, is_arguments, params, bounds);
    let tool = tool(own, container, class);
    let code = code(cx, variant, own, container);
    role_bounds(variant, &roles, params, bounds);
    let retry = retry(cx, variant, own, container, class);
    let mut plain = Plain {
        retry,
        bound: Vec::new(),
        class,
        category,
        code,
        message,
        next_steps,
        tool,
        constants: constant::merged(&own.constants, &container.constants),
        roles,
        arguments,
    };
    plain.bound = (0..variant.fields.len())
        .filter(|&i| plain.binds(i))
        .collect();
    Some(plain)
}

/// The variant's class, else the container's; a missing one is reported.
fn class(
    cx: &Ctxt,
    variant: &Variant,
    own: &ItemAttrs,
    container: &ItemAttrs,
    is_struct: bool,
) -> Option<Class> {
    if let Some((_, class)) = own.class.as_ref().or(container.class.as_ref()) {
        return Some(*class);
    }
    // A class lost to an attribute error was reported where it was
    // written; repeating it as "missing" would only add noise.
    if !own.errored && !container.errored {
        let guess = likely_class(&variant.ident.to_string());
        let message = if is_struct {
            format!(
                "struct `{}` has no class: add `#[envelope(class = {guess})]` (or another class) to it",
                variant.ident
            )
        } else {
            format!(
                "variant `{}` has no class: add `#[envelope(class = {guess})]` (or another class) to it, or a default `#[envelope(class = ...)]` on the enum",
                variant.ident
            )
        };
        cx.push(syn::Error::new(variant.ident.span(), message));
    }
    None
}

/// The class a variant or struct named `ident` most likely has, for the
/// fix of a missing class: the first class whose usual words the name
/// holds (`TableNotFound`: `ObjectNotFound`), else `InvalidArguments`.
pub(crate) fn likely_class(ident: &str) -> &'static str {
    const WORDS: &[(&[&str], &str)] = &[
        (&["notfound", "nosuch"], "ObjectNotFound"),
        (&["exists", "duplicate"], "AlreadyExists"),
        (&["conflict"], "Conflict"),
        (&["timeout", "timedout", "deadline"], "Timeout"),
        (&["ratelimit", "toomany", "throttl"], "RateLimited"),
        (&["quota"], "QuotaExceeded"),
        (&["busy", "locked", "poolexhausted"], "Busy"),
        (
            &[
                "unauthenticated",
                "unauthorized",
                "login",
                "credential",
                "expiredtoken",
            ],
            "Unauthenticated",
        ),
        (
            &["forbidden", "permission", "privilege", "accessdenied"],
            "InsufficientPrivilege",
        ),
        (&["policy", "denied", "blocked"], "PolicyDenied"),
        (
            &["unsupported", "notsupported", "notimplemented"],
            "Unsupported",
        ),
        (&["syntax", "parse"], "SyntaxError"),
        (&["cancel"], "Cancelled"),
        (&["connect", "network", "unreachable"], "ConnectionFailed"),
        (&["unavailable", "transient", "temporar"], "Transient"),
        (&["internal", "panic", "corrupt", "bug"], "Internal"),
    ];
    let name = ident.to_ascii_lowercase().replace('_', "");
    WORDS
        .iter()
        .find(|(words, _)| words.iter().any(|word| name.contains(word)))
        .map_or("InvalidArguments", |(_, class)| class)
}

/// The variant's `message` template; without one, the text of its
/// argument problems, the error's `Display` text, or the class's generic
/// text for a server-owned class.
fn message<'a>(
    cx: &Ctxt,
    variant: &Variant<'a>,
    own: &ItemAttrs,
    class: Class,
    is_arguments: bool,
    params: &[String],
    bounds: &mut Bounds<'a>,
) -> Message {
    if let Some(lit) = &own.message {
        return match render(cx, variant, lit, params, bounds) {
            Some(rendered) => Message::Template(rendered),
            None => Message::Generic,
        };
    }
    if is_arguments {
        return Message::Arguments;
    }
    if let Some(field) = variant.fields.iter().find(|f| f.attrs.is_secret()) {
        cx.push(syn::Error::new(
            variant.ident.span(),
            format!(
                "`{}` holds the secret field `{}`, so its `Display` text may print it: give an explicit `#[envelope(message = \"...\")]`",
                variant.ident, field.name
            ),
        ));
    }
    if class.owner() == Owner::Server {
        Message::Generic
    } else {
        Message::Display
    }
}

/// The variant's `next_step` templates, else the container's; an
/// argument variant has a step of its own (`args::invalid_arguments`'),
/// which only its own templates replace.
fn next_steps<'a>(
    cx: &Ctxt,
    variant: &Variant<'a>,
    own: &ItemAttrs,
    container: &ItemAttrs,
    is_arguments: bool,
    params: &[String],
    bounds: &mut Bounds<'a>,
) -> Vec<Rendered> {
    let lits = if own.next_steps.is_empty() && !is_arguments {
        &container.next_steps
    } else {
        &own.next_steps
    };
    lits.iter()
        .filter_map(|lit| render(cx, variant, lit, params, bounds))
        .collect()
}

/// The suggested tool: the variant's (`none` clears it), else the
/// container's tool for the class, else the container's default.
fn tool(own: &ItemAttrs, container: &ItemAttrs, class: Class) -> Option<String> {
    match &own.suggested_tool {
        Some(ToolAttr::Tool(lit)) => Some(lit.value()),
        Some(ToolAttr::None) => None,
        None => match container
            .suggested_tools
            .iter()
            .find(|(_, c, _)| *c == class)
        {
            Some((_, _, lit)) => Some(lit.value()),
            // (On a struct `container` is `own`: nothing more to find.)
            None => match &container.suggested_tool {
                Some(ToolAttr::Tool(lit)) => Some(lit.value()),
                _ => None,
            },
        },
    }
}

/// The variant's `code`, else its name in UPPER_SNAKE_CASE after the
/// container's `code_prefix`; a derived code that is not one is reported.
fn code(cx: &Ctxt, variant: &Variant, own: &ItemAttrs, container: &ItemAttrs) -> String {
    if let Some(lit) = &own.code {
        return lit.value();
    }
    let prefix = container
        .code_prefix
        .as_ref()
        .map(|l| l.value())
        .unwrap_or_default();
    let code = prefix + &names::upper_snake(&names::unraw(variant.ident));
    // A bad `code_prefix` was reported where it was written.
    if !names::is_code(&code) && !container.errored {
        cx.push(syn::Error::new(
            variant.ident.span(),
            format!("the code derived from `{}` would be `{code}`, which is not UPPER_SNAKE_CASE (A-Z, 0-9 and `_`, starting with a letter): give it one with `#[envelope(code = \"...\")]`", variant.ident),
        ));
    }
    code
}

/// The argument problems of a variant with `argument(...)` or an
/// `argument_errors` field, whose class must be `InvalidArguments`; `None`
/// for any other variant, or when that check failed.
fn arguments(
    cx: &Ctxt,
    variant: &Variant,
    own: &ItemAttrs,
    class: Class,
    roles: &Roles,
) -> Option<Vec<Problem>> {
    let role_span = roles.argument_errors.and_then(|index| {
        variant.fields[index]
            .attrs
            .roles
            .iter()
            .find(|(role, _)| matches!(role, Role::ArgumentErrors))
            .map(|(_, span)| *span)
    });
    if own.arguments.is_empty() && role_span.is_none() {
        return None;
    }
    if class != Class::InvalidArguments {
        let name = class.name();
        let ident = variant.ident;
        for argument in &own.arguments {
            cx.push(syn::Error::new(
                argument.span,
                format!("`argument` describes a problem in the tool's arguments, so `{ident}` needs `class = InvalidArguments`, not `{name}`: change its class, or describe the problem in `message` instead"),
            ));
        }
        if let Some(span) = role_span {
            cx.push(syn::Error::new(
                span,
                format!("an `argument_errors` field lists problems in the tool's arguments, so `{ident}` needs `class = InvalidArguments`, not `{name}`: change its class, or remove `argument_errors`"),
            ));
        }
        return None;
    }
    let mut problems = Vec::new();
    let mut ok = true;
    for argument in &own.arguments {
        let suggestions = match &argument.suggestions {
            None => None,
            Some((name, span)) => match suggestions_field(variant, name) {
                Ok(index) => Some(index),
                Err(message) => {
                    cx.push(syn::Error::new(*span, message));
                    ok = false;
                    continue;
                }
            },
        };
        problems.push(Problem {
            kind: argument.kind,
            path: argument.path.value(),
            expected: argument.expected.as_ref().map(syn::LitStr::value),
            suggestions,
        });
    }
    ok.then_some(problems)
}

/// The index of the field `suggestions = name` names, or why it cannot be
/// used.
fn suggestions_field(variant: &Variant, name: &FieldRef) -> Result<usize, String> {
    let ident = variant.ident;
    let Some(index) = variant.field(name) else {
        let hint = field_hint(variant, &name.to_string(), |best| {
            format!("did you mean `suggestions = {best}`?")
        });
        return Err(format!(
            "`{ident}` has no field `{name}` for `suggestions`; {hint}"
        ));
    };
    if variant.fields[index].attrs.is_secret() {
        return Err(format!(
            "`suggestions = {name}` names a secret field of `{ident}`; secret fields are never rendered: name another field"
        ));
    }
    Ok(index)
}

/// The bounds the role fields need when their type mentions a type
/// parameter: `Serialize` for a `detail`, `Display` for a correlation id.
fn role_bounds<'a>(
    variant: &Variant<'a>,
    roles: &Roles,
    params: &[String],
    bounds: &mut Bounds<'a>,
) {
    for (_, index) in &roles.details {
        let field = &variant.fields[*index];
        if generics::mentions(field.ty, params) {
            bounds.push(field.ty, Bound::Serialize);
        }
    }
    // A generic correlation id is shown with `Display` (an `Option<T>`
    // one through `OptionalId`, whose impl asks the same of `T`).
    if let Some(index) = roles
        .correlation_id
        .filter(|_| !roles.correlation_id_is_option)
    {
        let field = &variant.fields[index];
        if generics::mentions(field.ty, params) {
            bounds.push(field.ty, Bound::Fmt("Display"));
        }
    }
}

/// The variant's `effect`, `idempotent` and `retryable` (else the
/// container's), with the check that `retryable = true` is safe.
fn retry(
    cx: &Ctxt,
    variant: &Variant,
    own: &ItemAttrs,
    container: &ItemAttrs,
    class: Class,
) -> Retry {
    let effect = own
        .effect
        .as_ref()
        .or(container.effect.as_ref())
        .map(|(_, effect)| *effect);
    let idempotent = own.idempotent.is_some() || container.idempotent.is_some();
    let retryable = own.retryable.or(container.retryable);
    let effective_effect = effect.unwrap_or_else(|| class.default_effect());
    if let Some((true, span)) = retryable
        && !effective_effect.allows_repeat(idempotent)
    {
        let why = match effect {
            Some(_) => format!("its effect is `{}`", effective_effect.spelling()),
            None => format!(
                "a `{}` failure may have taken effect (its default effect is `{}`)",
                class.name(),
                effective_effect.spelling()
            ),
        };
        cx.push(syn::Error::new(
            span,
            format!(
                "`retryable = true` on `{}`: {why}, so repeating the call blindly is not safe; add `idempotent` if repeating the operation is harmless, or `effect = nothing` if the call never changes state",
                variant.ident
            ),
        ));
    }
    Retry {
        effect,
        idempotent,
        retryable: retryable.map(|(value, _)| value),
        apply_rule: effect.is_some()
            || idempotent
            || retryable.is_some()
            || effective_effect != Effect::Nothing,
    }
}

/// Resolves and checks a template against the variant's fields.
fn render<'a>(
    cx: &Ctxt,
    variant: &Variant<'a>,
    lit: &syn::LitStr,
    params: &[String],
    bounds: &mut Bounds<'a>,
) -> Option<Rendered> {
    let template = match Template::parse(lit) {
        Ok(template) => template,
        Err(err) => {
            cx.push(err);
            return None;
        }
    };
    let mut args = Vec::new();
    let mut ok = true;
    for piece in &template.pieces {
        let Piece::Arg { field: name, spec } = piece else {
            continue;
        };
        let Some(index) = variant.field(name) else {
            cx.push(syn::Error::new(lit.span(), unknown_field(variant, name)));
            ok = false;
            continue;
        };
        let field = &variant.fields[index];
        if field.attrs.is_secret() {
            cx.push(syn::Error::new(
                lit.span(),
                format!("the template uses `{{{name}}}`, a secret field of `{}`; secret fields are never rendered: remove `{{{name}}}` from the template", variant.ident),
            ));
            ok = false;
            continue;
        }
        if generics::mentions(field.ty, params) {
            bounds.push(field.ty, Bound::Fmt(format_trait(spec)));
        }
        args.push(index);
    }
    ok.then_some(Rendered { template, args })
}

/// The `core::fmt` trait a format spec asks of its argument.
fn format_trait(spec: &str) -> &'static str {
    let kind = spec.trim_end_matches(char::is_whitespace);
    if kind.ends_with('?') {
        "Debug"
    } else if kind.ends_with('x') {
        "LowerHex"
    } else if kind.ends_with('X') {
        "UpperHex"
    } else if kind.ends_with('o') {
        "Octal"
    } else if kind.ends_with('b') {
        "Binary"
    } else if kind.ends_with('e') {
        "LowerExp"
    } else if kind.ends_with('E') {
        "UpperExp"
    } else {
        "Display"
    }
}

fn unknown_field(variant: &Variant, name: &FieldRef) -> String {
    let count = variant.fields.len();
    match name {
        FieldRef::Index(index)
            if variant
                .fields
                .iter()
                .any(|f| matches!(f.name, FieldRef::Named(_))) =>
        {
            let known: Vec<String> = variant
                .fields
                .iter()
                .map(|f| format!("`{{{}}}`", f.name))
                .collect();
            format!(
                "`{{{index}}}`: `{}` has named fields, so name them: {}",
                variant.ident,
                known.join(", ")
            )
        }
        FieldRef::Index(index) => {
            let valid = match count {
                0 => format!("`{}` has no fields", variant.ident),
                1 => format!("`{}` has 1 field: use `{{0}}`", variant.ident),
                n => format!(
                    "`{}` has {n} fields: use `{{0}}` to `{{{}}}`",
                    variant.ident,
                    n - 1
                ),
            };
            format!("`{{{index}}}` is out of range: {valid}")
        }
        FieldRef::Named(text)
            if count > 0
                && variant
                    .fields
                    .iter()
                    .all(|f| matches!(f.name, FieldRef::Index(_))) =>
        {
            format!(
                "`{}` has no field named `{text}`: its fields are unnamed, so name them by position, `{{0}}`",
                variant.ident
            )
        }
        FieldRef::Named(text) => {
            let hint = field_hint(variant, text, |best| format!("did you mean `{{{best}}}`?"));
            format!("`{}` has no field named `{text}`; {hint}", variant.ident)
        }
    }
}

/// What to say of a field name `wanted` that `variant` lacks: the near
/// miss, written by `did_you_mean`, else the fields it has.
fn field_hint(
    variant: &Variant,
    wanted: &str,
    did_you_mean: impl FnOnce(&str) -> String,
) -> String {
    let known: Vec<String> = variant.fields.iter().map(|f| f.name.to_string()).collect();
    let known_refs: Vec<&str> = known.iter().map(String::as_str).collect();
    match names::closest(wanted, &known_refs) {
        Some(best) => did_you_mean(best),
        None if known.is_empty() => "it has no fields".to_owned(),
        None => format!("its fields are: {}", known.join(", ")),
    }
}

fn roles(cx: &Ctxt, variant: &Variant) -> Roles {
    let mut roles = Roles::default();
    let mut claimed: Vec<(&'static str, usize)> = Vec::new();
    for (index, field) in variant.fields.iter().enumerate() {
        let secret = field.attrs.is_secret();
        for (role, span) in &field.attrs.roles {
            if secret && !matches!(role, Role::Secret) {
                cx.push(syn::Error::new(
                    *span,
                    format!("a secret field is never rendered, so it cannot also be `{}`: remove one of the two", role.name()),
                ));
                continue;
            }
            if let Some(problem) = type_mismatch(role, field.ty) {
                cx.push(syn::Error::new_spanned(field.ty, problem));
                continue;
            }
            let slot = match role {
                Role::FuzzyMatches => Some(("fuzzy_matches", &mut roles.fuzzy_matches)),
                Role::NextSteps => Some(("next_steps", &mut roles.next_steps)),
                Role::SuggestedTool => Some(("suggested_tool", &mut roles.suggested_tool)),
                Role::RetryAfterMs | Role::RetryAfter => Some(("retry_after_ms", &mut roles.retry)),
                Role::OraCode => Some(("ora_code", &mut roles.ora_code)),
                Role::ArgumentErrors => Some(("argument_errors", &mut roles.argument_errors)),
                Role::CorrelationId => {
                    roles.correlation_id_is_option =
                        last_ident(field.ty).as_deref() == Some("Option");
                    Some(("correlation_id", &mut roles.correlation_id))
                }
                Role::Detail(key) => {
                    let key = match (key, &field.name) {
                        (Some(lit), _) => lit.value(),
                        (None, FieldRef::Named(name)) => name.clone(),
                        (None, FieldRef::Index(_)) => {
                            cx.push(syn::Error::new(
                                *span,
                                "a tuple field has no name to use as its detail key: write `detail = \"key\"`",
                            ));
                            continue;
                        }
                    };
                    if roles.details.iter().any(|(k, _)| *k == key) {
                        cx.push(syn::Error::new(
                            *span,
                            format!("two fields use the detail key `{key}`: give one `detail = \"other_key\"`"),
                        ));
                    } else {
                        roles.details.push((key, index));
                    }
                    None
                }
                Role::Secret => None,
            };
            if let Some((slot_name, slot)) = slot {
                if let Some(&(_, first)) = claimed.iter().find(|(n, _)| *n == slot_name) {
                    cx.push(syn::Error::new(
                        *span,
                        format!(
                            "two fields claim the `{}` role: `{}` and `{}`; keep it on one",
                            role.name(),
                            variant.fields[first].name,
                            field.name
                        ),
                    ));
                } else {
                    claimed.push((slot_name, index));
                    *slot = Some(index);
                }
            }
        }
    }
    roles
}

/// Catches a role on a field whose type can never fit, where the type's
/// spelling shows it. Other mismatches are caught by rustc, at the field,
/// through the role traits' `on_unimplemented` messages.
fn type_mismatch(role: &Role, ty: &Type) -> Option<String> {
    let name = last_ident(ty)?;
    let text = name.as_str();
    let is_int = matches!(
        text,
        "u8" | "u16"
            | "u32"
            | "u64"
            | "u128"
            | "usize"
            | "i8"
            | "i16"
            | "i32"
            | "i64"
            | "i128"
            | "isize"
    );
    let is_text = matches!(text, "String" | "str");
    match role {
        Role::FuzzyMatches | Role::NextSteps if is_text || is_int || text == "bool" => Some(format!(
            "`{}` needs a list of strings such as `Vec<String>`, but this field is `{text}`",
            role.name()
        )),
        Role::RetryAfter if is_int => Some(format!(
            "`retry_after` takes a `Duration`, but this field is `{text}`: for a count of milliseconds use `#[envelope(retry_after_ms)]`"
        )),
        Role::RetryAfterMs if text == "Duration" => Some(
            "`retry_after_ms` takes a `u64` count of milliseconds, but this field is a `Duration`: use `#[envelope(retry_after)]`".to_owned(),
        ),
        Role::RetryAfterMs | Role::RetryAfter | Role::OraCode if is_text => Some(format!(
            "`{}` takes a number, but this field is `{text}`: parse it when the error is built",
            role.name()
        )),
        Role::ArgumentErrors if is_text || is_int || text == "bool" => Some(format!(
            "`argument_errors` takes the problems as `envelope::ArgumentError`s (`Vec<ArgumentError>`, `Option<Vec<ArgumentError>>` or one `ArgumentError`), but this field is `{text}`: build them with `ArgumentError::new(kind, \"/path\")`"
        )),
        Role::SuggestedTool if text == "Vec" => Some(
            "`suggested_tool` takes one tool name (`String`, `&str`, `Cow<str>`, or an `Option` of one), but this field is a list: put near-miss names in a `#[envelope(fuzzy_matches)]` field".to_owned(),
        ),
        Role::SuggestedTool if is_int => Some(format!(
            "`suggested_tool` takes one tool name (`String`, `&str`, `Cow<str>`, or an `Option` of one), but this field is `{text}`"
        )),
        _ => None,
    }
}

/// The last path segment of `ty`, looking through references.
fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Reference(reference) => last_ident(&reference.elem),
        // `<T as Trait>::Assoc` gives `Assoc`, which names no known type.
        Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        Type::Group(group) => last_ident(&group.elem),
        Type::Paren(paren) => last_ident(&paren.elem),
        _ => None,
    }
}

impl Plain {
    /// Whether the conversion arm uses the field at `index`: a role, a
    /// `detail` or a template placeholder.
    fn binds(&self, index: usize) -> bool {
        let roles = &self.roles;
        [
            roles.fuzzy_matches,
            roles.next_steps,
            roles.suggested_tool,
            roles.retry,
            roles.ora_code,
            roles.correlation_id,
            roles.argument_errors,
        ]
        .contains(&Some(index))
            || roles.details.iter().any(|(_, i)| *i == index)
            || self
                .arguments
                .iter()
                .flatten()
                .any(|problem| problem.suggestions == Some(index))
            || self.templates().any(|r| r.args.contains(&index))
    }

    /// Whether a template or a `detail` reads the field at `index`.
    pub fn reads(&self, index: usize) -> bool {
        self.roles.details.iter().any(|(_, i)| *i == index)
            || self.templates().any(|r| r.args.contains(&index))
    }

    pub fn templates(&self) -> impl Iterator<Item = &Rendered> {
        let message = match &self.message {
            Message::Template(rendered) => Some(rendered),
            _ => None,
        };
        message.into_iter().chain(&self.next_steps)
    }

    /// Whether `into_envelope` gains by moving fields into the envelope: a
    /// list or tool field to move, and a message that does not need the
    /// whole value (`Display` does, which moving fields out would break).
    pub fn moves(&self) -> bool {
        let roles = &self.roles;
        !matches!(self.message, Message::Display)
            && (roles.fuzzy_matches.is_some()
                || roles.next_steps.is_some()
                || roles.suggested_tool.is_some()
                || roles.argument_errors.is_some())
    }
}
