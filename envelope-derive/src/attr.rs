//! Attribute parsing: `#[envelope(...)]` on the container, variants and
//! fields, into typed structs. Only syntax and per-key value kinds are
//! checked here; rules that span several attributes live in `valid.rs`.

use proc_macro2::{Span, TokenTree};
use syn::parse::ParseStream;
use syn::{Attribute, Ident, LitInt, LitStr, Path, Token};

use crate::argument::{self, ArgKind, ArgumentAttr};
use crate::category::Category;
use crate::class::Class;
use crate::constant::{CONSTANTS, Constant, Constants, Ty, Value};
use crate::ctxt::Ctxt;
use crate::effect::Effect;
use crate::fmt::FieldRef;
use crate::names::{self, Named};
use crate::resource::Resource;

/// Where an attribute list was written; decides which keys are valid.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// On an enum: defaults for every variant.
    Enum,
    /// On a struct: its single variant's attributes plus the defaults.
    Struct,
    /// On an enum variant.
    Variant,
}

/// A key of `#[envelope(...)]` on the container or a variant. Adding one
/// is one variant here plus its arm in `Key::all`, `name`, `places` and
/// `item_value`'s `match`, each checked by the compiler; a key that sets a
/// wire field to a constant is a row of `constant::CONSTANTS` instead.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    Crate,
    Class,
    Category,
    Message,
    NextStep,
    SuggestedTool,
    SuggestedTools,
    Code,
    CodePrefix,
    /// `ora_code = 942`, `retry_after_ms = 250`, `help_url = "..."`.
    Constant(&'static Constant),
    Effect,
    Idempotent,
    Retryable,
    Transparent,
    With,
    Resource,
    Argument,
}

/// Where a key may be written: on an enum, on a struct, on a variant.
struct Places {
    on_enum: bool,
    on_struct: bool,
    on_variant: bool,
}

impl Key {
    /// Every key, the constants in the middle.
    fn all() -> impl Iterator<Item = Key> {
        let before = [
            Key::Crate,
            Key::Class,
            Key::Category,
            Key::Message,
            Key::NextStep,
            Key::SuggestedTool,
            Key::SuggestedTools,
            Key::Code,
            Key::CodePrefix,
        ];
        let after = [
            Key::Effect,
            Key::Idempotent,
            Key::Retryable,
            Key::Transparent,
            Key::With,
            Key::Resource,
            Key::Argument,
        ];
        before
            .into_iter()
            .chain(CONSTANTS.iter().map(Key::Constant))
            .chain(after)
    }

    pub fn name(self) -> &'static str {
        match self {
            Key::Crate => "crate",
            Key::Class => "class",
            Key::Category => "category",
            Key::Message => "message",
            Key::NextStep => "next_step",
            Key::SuggestedTool => "suggested_tool",
            Key::SuggestedTools => "suggested_tools",
            Key::Code => "code",
            Key::CodePrefix => "code_prefix",
            Key::Constant(constant) => constant.name,
            Key::Effect => "effect",
            Key::Idempotent => "idempotent",
            Key::Retryable => "retryable",
            Key::Transparent => "transparent",
            Key::With => "with",
            Key::Resource => "resource",
            Key::Argument => "argument",
        }
    }

    fn places(self) -> Places {
        let (on_enum, on_struct, on_variant) = match self {
            // Container-only: they describe the whole type.
            Key::Crate | Key::SuggestedTools | Key::CodePrefix => (true, true, false),
            // Variant-only: they describe one variant's envelope.
            Key::Constant(constant) if !constant.on_container => (false, true, true),
            Key::Message
            | Key::Code
            | Key::Transparent
            | Key::With
            | Key::Resource
            | Key::Argument => (false, true, true),
            // Defaults on the container, overridden per variant.
            Key::Class
            | Key::Category
            | Key::NextStep
            | Key::SuggestedTool
            | Key::Constant(_)
            | Key::Effect
            | Key::Idempotent
            | Key::Retryable => (true, true, true),
        };
        Places {
            on_enum,
            on_struct,
            on_variant,
        }
    }

    fn valid_at(self, place: Place) -> bool {
        let places = self.places();
        match place {
            Place::Enum => places.on_enum,
            Place::Struct => places.on_struct,
            Place::Variant => places.on_variant,
        }
    }

    /// Keys that may appear more than once in one place.
    fn repeatable(self) -> bool {
        matches!(self, Key::NextStep | Key::SuggestedTools | Key::Argument)
    }

    /// Keys that describe the type rather than one variant's envelope, so
    /// they combine with `transparent` and `with` on a struct.
    pub fn is_container_only(self) -> bool {
        !self.places().on_variant
    }

    fn from_name(name: &str) -> Option<Key> {
        Key::all().find(|key| key.name() == name)
    }
}

/// A `suggested_tool` value on an item.
pub(crate) enum ToolAttr {
    Tool(LitStr),
    None,
}

/// The attributes of the container or of one variant. A struct's single
/// list fills both roles.
#[derive(Default)]
pub(crate) struct ItemAttrs {
    pub krate: Option<Path>,
    pub class: Option<(Ident, Class)>,
    pub category: Option<(Ident, Category)>,
    pub message: Option<LitStr>,
    pub next_steps: Vec<LitStr>,
    pub suggested_tool: Option<ToolAttr>,
    pub suggested_tools: Vec<(Ident, Class, LitStr)>,
    pub code: Option<LitStr>,
    pub code_prefix: Option<LitStr>,
    /// `ora_code = 942` and the other constants, as written.
    pub constants: Constants,
    /// `effect = nothing | unknown | partial`.
    pub effect: Option<(Ident, Effect)>,
    pub idempotent: Option<Span>,
    pub retryable: Option<(bool, Span)>,
    pub transparent: Option<Span>,
    pub with: Option<Path>,
    /// `resource = server | caller`, for a `transparent` variant.
    pub resource: Option<(Ident, Resource)>,
    /// Each `argument(...)`, in order.
    pub arguments: Vec<ArgumentAttr>,
    /// Every key written, with its span, for the rules in `valid.rs`.
    pub keys: Vec<(Key, Span)>,
    /// Whether parsing these attributes reported an error; later rules stay
    /// quiet about what may only be missing because of it.
    pub errored: bool,
}

impl ItemAttrs {
    pub fn span_of(&self, key: Key) -> Option<Span> {
        self.keys.iter().find(|(k, _)| *k == key).map(|(_, s)| *s)
    }
}

/// A role a field plays in the envelope.
#[derive(Clone)]
pub(crate) enum Role {
    FuzzyMatches,
    NextSteps,
    SuggestedTool,
    RetryAfterMs,
    RetryAfter,
    OraCode,
    Detail(Option<LitStr>),
    CorrelationId,
    ArgumentErrors,
    Secret,
}

impl Role {
    /// Every role key, for "did you mean" and misplacement messages.
    const NAMES: [&'static str; 10] = [
        "fuzzy_matches",
        "next_steps",
        "suggested_tool",
        "retry_after_ms",
        "retry_after",
        "ora_code",
        "detail",
        "correlation_id",
        "argument_errors",
        "secret",
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Role::FuzzyMatches => "fuzzy_matches",
            Role::NextSteps => "next_steps",
            Role::SuggestedTool => "suggested_tool",
            Role::RetryAfterMs => "retry_after_ms",
            Role::RetryAfter => "retry_after",
            Role::OraCode => "ora_code",
            Role::Detail(_) => "detail",
            Role::CorrelationId => "correlation_id",
            Role::ArgumentErrors => "argument_errors",
            Role::Secret => "secret",
        }
    }

    /// The role of a key written without a value; `detail` takes an
    /// optional one and is parsed on its own.
    fn bare(name: &str) -> Option<Role> {
        Some(match name {
            "fuzzy_matches" => Role::FuzzyMatches,
            "next_steps" => Role::NextSteps,
            "suggested_tool" => Role::SuggestedTool,
            "retry_after_ms" => Role::RetryAfterMs,
            "retry_after" => Role::RetryAfter,
            "ora_code" => Role::OraCode,
            "correlation_id" => Role::CorrelationId,
            "argument_errors" => Role::ArgumentErrors,
            "secret" => Role::Secret,
            _ => return None,
        })
    }
}

/// The attributes of one field: its roles, each with the span of its key.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub roles: Vec<(Role, Span)>,
}

impl FieldAttrs {
    fn has(&self, name: &str) -> bool {
        self.roles.iter().any(|(role, _)| role.name() == name)
    }

    pub fn is_secret(&self) -> bool {
        self.roles
            .iter()
            .any(|(role, _)| matches!(role, Role::Secret))
    }
}

fn is_envelope(attr: &Attribute) -> bool {
    attr.path().is_ident("envelope")
}

/// Parses every `#[envelope(...)]` in `attrs` written at `place`.
pub(crate) fn item(cx: &Ctxt, attrs: &[Attribute], place: Place) -> ItemAttrs {
    let errors_before = cx.len();
    let mut out = ItemAttrs::default();
    each_key(
        cx,
        attrs,
        "an attribute name such as `class`",
        |meta, key, span| {
            let Some(key) = accepted_key(cx, &out, &key, span, place) else {
                return skip_value(&meta.input);
            };
            out.keys.push((key, span));
            item_value(cx, &mut out, meta, key, span)
        },
    );
    out.errored = cx.len() > errors_before;
    out
}

/// The key called `name`, unless it is unknown, not allowed at `place`, or
/// a second one of a key written once in `out`: then the error is reported
/// and the key's value is the caller's to skip.
fn accepted_key(cx: &Ctxt, out: &ItemAttrs, name: &str, span: Span, place: Place) -> Option<Key> {
    let Some(key) = Key::from_name(name) else {
        cx.push(unknown_item_key(name, span, place));
        return None;
    };
    let name = key.name();
    if !key.valid_at(place) {
        cx.push(misplaced(name, span, place));
        return None;
    }
    if !key.repeatable() && out.span_of(key).is_some() {
        cx.push(syn::Error::new(
            span,
            format!("duplicate `{name}` attribute; keep only one"),
        ));
        return None;
    }
    Some(key)
}

/// Parses the value of `key`, written at `span`, into `out`. The arms are
/// grouped as in `Key::places`.
fn item_value(
    cx: &Ctxt,
    out: &mut ItemAttrs,
    meta: &syn::meta::ParseNestedMeta,
    key: Key,
    span: Span,
) -> syn::Result<()> {
    match key {
        // Container-only.
        Key::Crate => out.krate = Some(crate_value(meta)?),
        Key::SuggestedTools => suggested_tools_value(cx, meta, &mut out.suggested_tools)?,
        Key::CodePrefix => {
            out.code_prefix = Some(code_value(
                cx,
                meta,
                "a code prefix",
                "code_prefix = \"ORA_\"",
            )?);
        }
        // Variant-only.
        Key::Message => out.message = Some(string_value(meta, "message = \"...\"")?),
        Key::Code => out.code = Some(code_value(cx, meta, "a code", "code = \"LEASE_REQUIRED\"")?),
        Key::Transparent => {
            no_value(meta, "transparent")?;
            out.transparent = Some(span);
        }
        Key::With => out.with = Some(with_value(meta)?),
        Key::Resource => out.resource = resource_value(cx, meta)?,
        Key::Argument => {
            if let Some(argument) = argument_value(cx, meta, span)? {
                out.arguments.push(argument);
            }
        }
        // Defaults on the container, overridden per variant.
        Key::Class => out.class = name_value(cx, meta)?,
        Key::Category => out.category = name_value(cx, meta)?,
        Key::NextStep => out
            .next_steps
            .push(string_value(meta, "next_step = \"...\"")?),
        Key::SuggestedTool => out.suggested_tool = Some(suggested_tool_value(meta)?),
        Key::Constant(constant) => {
            let value = constant_value(meta, constant)?;
            out.constants.push((constant, value));
        }
        Key::Effect => out.effect = effect_value(cx, meta)?,
        Key::Idempotent => {
            no_value(meta, "idempotent")?;
            out.idempotent = Some(span);
        }
        Key::Retryable => out.retryable = Some(retryable_value(meta)?),
    }
    Ok(())
}

/// The literal of a constant attribute, of the constant's type.
fn constant_value(meta: &syn::meta::ParseNestedMeta, constant: &Constant) -> syn::Result<Value> {
    let example = constant.example;
    Ok(match constant.ty {
        Ty::Str => Value::Str(string_value(meta, example)?),
        Ty::I32 => Value::I32(int_value(meta, example)?.0),
        Ty::U64 => Value::U64(int_value(meta, example)?.0),
    })
}

/// `crate = "::envelope"`: the path of the `envelope` crate, as a string.
fn crate_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<Path> {
    let lit = string_value(meta, "crate = \"::envelope\"")?;
    lit.parse().map_err(|_| {
        syn::Error::new(
            lit.span(),
            "expected the path of the `envelope` crate: write `crate = \"::envelope\"` or `crate = \"::my_sdk::envelope\"`",
        )
    })
}

/// `suggested_tools(ObjectNotFound = "tool", ...)`, each entry pushed onto
/// `tools` as it is parsed. An unknown class is reported and its entry
/// skipped; a second tool for one class is reported and kept.
fn suggested_tools_value(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta,
    tools: &mut Vec<(Ident, Class, LitStr)>,
) -> syn::Result<()> {
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(
            "expected a list: `suggested_tools(ObjectNotFound = \"schema_inspect\", ...)`",
        ));
    }
    meta.parse_nested_meta(|inner| {
        let Some(class) = inner.path.get_ident() else {
            return Err(syn::Error::new_spanned(
                &inner.path,
                "expected a class name such as `ObjectNotFound`",
            ));
        };
        let known = match Class::from_tools_key(class) {
            Ok(known) => known,
            Err(err) => {
                cx.push(err);
                return skip_value(&inner.input);
            }
        };
        if tools.iter().any(|(c, ..)| c == class) {
            cx.push(syn::Error::new(
                class.span(),
                format!("duplicate tool for class `{class}` in `suggested_tools`; keep only one"),
            ));
        }
        let tool = string_value(&inner, "ObjectNotFound = \"tool_name\"")?;
        tools.push((class.clone(), known, tool));
        Ok(())
    })
}

/// `suggested_tool = "tool_name"`, or `suggested_tool = none` to clear a
/// default.
fn suggested_tool_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<ToolAttr> {
    if !meta.input.peek(Token![=]) {
        return Err(
            meta.error("expected `suggested_tool = \"tool_name\"` or `suggested_tool = none`")
        );
    }
    let value = meta.value()?;
    if value.peek(Ident) {
        let none: Ident = value.parse()?;
        if none != "none" {
            return Err(syn::Error::new(
                none.span(),
                "expected a tool name in quotes or `none`: write `suggested_tool = \"tool_name\"` or `suggested_tool = none`",
            ));
        }
        Ok(ToolAttr::None)
    } else if value.peek(LitStr) {
        let lit: LitStr = value.parse()?;
        if lit.value().trim().is_empty() {
            return Err(syn::Error::new(
                lit.span(),
                "`suggested_tool` cannot be empty: write `suggested_tool = \"tool_name\"`, or `suggested_tool = none` to clear a default",
            ));
        }
        Ok(ToolAttr::Tool(lit))
    } else {
        let found: TokenTree = value.parse()?;
        Err(syn::Error::new(
            found.span(),
            "expected a tool name in quotes or `none`: write `suggested_tool = \"tool_name\"` or `suggested_tool = none`",
        ))
    }
}

/// `retryable = true | false`, with the span of the literal.
fn retryable_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<(bool, Span)> {
    let (_, value) = key_value(meta, "retryable = false")?;
    let lit: syn::LitBool = value.parse().map_err(|err| {
        syn::Error::new(
            err.span(),
            "expected `true` or `false`: write `retryable = false` (or `retryable = true`)",
        )
    })?;
    Ok((lit.value, lit.span))
}

/// `with = path::to::function`, the path bare or in a string.
fn with_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<Path> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error("`with` needs a function: write `with = path::to::function`"));
    }
    let value = meta.value()?;
    if value.peek(LitStr) {
        let lit = value.parse::<LitStr>()?;
        lit.parse().map_err(|_| {
            syn::Error::new(
                lit.span(),
                "expected a function path: write `with = path::to::function`",
            )
        })
    } else {
        value.parse::<Path>().map_err(|err| {
            syn::Error::new(
                err.span(),
                "expected a function path: write `with = path::to::function`",
            )
        })
    }
}

/// Parses every `#[envelope(...)]` on a field.
pub(crate) fn field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    each_key(
        cx,
        attrs,
        "a field role such as `fuzzy_matches`",
        |meta, key, span| {
            let Some(&name) = Role::NAMES.iter().find(|k| **k == key) else {
                cx.push(unknown_field_key(&key, span));
                return skip_value(&meta.input);
            };
            if out.has(name) {
                cx.push(syn::Error::new(
                    span,
                    format!("duplicate `{name}` on this field; keep only one"),
                ));
                return skip_value(&meta.input);
            }
            let role = match Role::bare(name) {
                Some(role) => {
                    no_value_field(meta, name)?;
                    role
                }
                None => {
                    if meta.input.peek(syn::token::Paren) {
                        return Err(meta.error("write `detail = \"key\"` to name the key, or `detail` alone to use the field name"));
                    }
                    if meta.input.peek(Token![=]) {
                        Role::Detail(Some(string_value(meta, "detail = \"key\"")?))
                    } else {
                        Role::Detail(None)
                    }
                }
            };
            out.roles.push((role, span));
            Ok(())
        },
    );
    out
}

/// Runs `parse` on every key of every `#[envelope(...)]` in `attrs`, with
/// the key's name and span; reports a malformed list or a path where a key
/// belongs (expected: `what`) and every error `parse` returns.
fn each_key<F>(cx: &Ctxt, attrs: &[Attribute], what: &str, mut parse: F)
where
    F: FnMut(&syn::meta::ParseNestedMeta, String, Span) -> syn::Result<()>,
{
    for attr in attrs.iter().filter(|a| is_envelope(a)) {
        if let Err(err) = check_list(attr) {
            cx.push(err);
            continue;
        }
        let result = attr.parse_nested_meta(|meta| {
            let Some(ident) = meta.path.get_ident() else {
                cx.push(syn::Error::new_spanned(
                    &meta.path,
                    format!("expected {what}, not a path"),
                ));
                return skip_value(&meta.input);
            };
            parse(&meta, ident.to_string(), ident.span())
        });
        if let Err(err) = result {
            cx.push(err);
        }
    }
}

fn check_list(attr: &Attribute) -> syn::Result<()> {
    match &attr.meta {
        syn::Meta::List(_) => Ok(()),
        other => Err(syn::Error::new_spanned(
            other,
            "expected a list of arguments: `#[envelope(...)]`",
        )),
    }
}

/// The key's name and the stream after its `=`; a key written without a
/// value is an error that shows `example`.
fn key_value<'a>(
    meta: &syn::meta::ParseNestedMeta<'a>,
    example: &str,
) -> syn::Result<(String, ParseStream<'a>)> {
    let key = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default();
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("`{key}` needs a value: write `{example}`")));
    }
    Ok((key, meta.value()?))
}

fn string_value(meta: &syn::meta::ParseNestedMeta, example: &str) -> syn::Result<LitStr> {
    let (key, value) = key_value(meta, example)?;
    if value.peek(LitStr) {
        let lit: LitStr = value.parse()?;
        if lit.value().trim().is_empty() {
            return Err(syn::Error::new(
                lit.span(),
                format!("`{key}` cannot be empty: write `{example}`, or remove it"),
            ));
        }
        return Ok(lit);
    }
    let found: TokenTree = value.parse()?;
    Err(syn::Error::new(
        found.span(),
        format!("expected a string literal for `{key}`: write `{example}`"),
    ))
}

/// A string that must be UPPER_SNAKE_CASE; a bad one is reported and kept,
/// so parsing goes on.
fn code_value(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta,
    what: &str,
    example: &str,
) -> syn::Result<LitStr> {
    let lit = string_value(meta, example)?;
    if !names::is_code(&lit.value()) {
        cx.push(syn::Error::new(
            lit.span(),
            format!("{what} is UPPER_SNAKE_CASE (A-Z, 0-9 and `_`, starting with a letter), for example `{example}`"),
        ));
    }
    Ok(lit)
}

fn int_value<N>(meta: &syn::meta::ParseNestedMeta, example: &str) -> syn::Result<(N, Span)>
where
    N: std::str::FromStr,
    N::Err: std::fmt::Display,
{
    let (key, value) = key_value(meta, example)?;
    let minus: Option<Token![-]> = value.parse()?;
    if value.peek(LitInt) {
        let lit: LitInt = value.parse()?;
        let digits = match minus {
            Some(_) => format!("-{}", lit.base10_digits()),
            None => lit.base10_digits().to_owned(),
        };
        if minus.is_some() && "0".parse::<N>().is_ok() && "-1".parse::<N>().is_err() {
            return Err(syn::Error::new(
                lit.span(),
                format!("`{key}` cannot be negative: write `{example}`"),
            ));
        }
        if !value.is_empty() && !value.peek(Token![,]) {
            return Err(syn::Error::new(
                value.span(),
                format!("`{key}` takes one integer literal, not an expression: write `{example}`"),
            ));
        }
        return match digits.parse::<N>() {
            Ok(n) if lit.suffix().is_empty() => Ok((n, lit.span())),
            Ok(_) => Err(syn::Error::new(
                lit.span(),
                format!("remove the type suffix: write `{key} = {digits}`"),
            )),
            Err(err) => Err(syn::Error::new(
                lit.span(),
                format!("`{key}` value out of range ({err}): write `{example}`"),
            )),
        };
    }
    let found: TokenTree = value.parse()?;
    Err(syn::Error::new(
        found.span(),
        format!("expected an integer literal for `{key}`: write `{example}`"),
    ))
}

/// `class = Busy` or `category = NotFound`: a name of `T` (or a path to
/// it, `ErrorClass::Busy`), reported and skipped when no variant has it.
fn name_value<T: Named>(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta,
) -> syn::Result<Option<(Ident, T)>> {
    let key = T::KEY;
    let known = T::names();
    let first = known.first().copied().unwrap_or_default();
    let example = format!("{key} = {first}");
    let (_, value) = key_value(meta, &example)?;
    if value.peek(LitStr) {
        let lit: LitStr = value.parse()?;
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "expected a {key} name, found a string: write `{key} = {}` without quotes",
                names::sanitize(&lit.value(), &known, first)
            ),
        ));
    }
    if value.is_empty() || value.peek(Token![,]) {
        return Err(meta.error(format!("`{key}` needs a value: write `{example}`")));
    }
    let path: Path = match value.parse() {
        Ok(path) => path,
        Err(_) => {
            let found = value
                .parse::<TokenTree>()
                .map(|tt| tt.span())
                .unwrap_or_else(|_| value.span());
            return Err(syn::Error::new(
                found,
                format!("expected a {key} name: write `{example}`"),
            ));
        }
    };
    // `Busy`, or a path to the enum's variant (`ErrorClass::Busy`); not
    // generic arguments or some other path that happens to end in a name.
    let owner = T::ENUM;
    let plain_path = path.segments.iter().all(|s| s.arguments.is_none())
        && (path.segments.len() == 1
            || path
                .segments
                .iter()
                .rev()
                .nth(1)
                .is_some_and(|s| s.ident == owner));
    let last = match path.segments.last() {
        Some(last) if plain_path => last,
        _ => {
            // `UserErrorCategory::Busy` for a class: suggest `Busy` itself.
            let name = path
                .segments
                .last()
                .map(|last| names::unraw(&last.ident))
                .and_then(|name| T::from_name(&name))
                .map_or(first, Named::name);
            return Err(syn::Error::new_spanned(
                &path,
                format!("expected a {key} name: write `{key} = {name}` (or `{owner}::{name}`)"),
            ));
        }
    };
    let ident = last.ident.clone();
    match T::from_ident(&ident) {
        Ok(found) => Ok(Some((ident, found))),
        Err(err) => {
            cx.push(err);
            Ok(None)
        }
    }
}

/// `effect = nothing | unknown | partial`, reported and skipped when
/// unknown.
fn effect_value(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta,
) -> syn::Result<Option<(Ident, Effect)>> {
    let (_, value) = key_value(meta, "effect = unknown")?;
    let ident: Ident = value.parse().map_err(|err| {
        syn::Error::new(
            err.span(),
            "expected `nothing`, `unknown` or `partial`: write `effect = unknown`",
        )
    })?;
    match Effect::from_ident(&ident) {
        Ok(effect) => Ok(Some((ident, effect))),
        Err(err) => {
            cx.push(err);
            Ok(None)
        }
    }
}

/// `resource = server | caller`, reported and skipped when unknown.
fn resource_value(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta,
) -> syn::Result<Option<(Ident, Resource)>> {
    let (_, value) = key_value(meta, "resource = server")?;
    let ident: Ident = value.parse().map_err(|err| {
        syn::Error::new(
            err.span(),
            "expected `server` or `caller`: write `resource = server` for the server's own files, database or credentials, `resource = caller` for what the caller sent",
        )
    })?;
    match Resource::from_ident(&ident) {
        Ok(resource) => Ok(Some((ident, resource))),
        Err(err) => {
            cx.push(err);
            Ok(None)
        }
    }
}

/// `argument(path = "/tag", kind = unknown_variant, expected = "...",
/// suggestions = field)`: every mistake inside is reported, and the
/// problem kept only when it has its `path` and `kind`.
fn argument_value(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta,
    span: Span,
) -> syn::Result<Option<ArgumentAttr>> {
    let example = argument::EXAMPLE;
    if !meta.input.peek(syn::token::Paren) {
        cx.push(meta.error(format!("`argument` takes a list: write `{example}`")));
        skip_value(&meta.input)?;
        return Ok(None);
    }
    let list: proc_macro2::Group = meta.input.fork().parse()?;
    if list.stream().is_empty() {
        cx.push(meta.error(format!(
            "`argument` needs `path` and `kind`: write `{example}`"
        )));
        skip_value(&meta.input)?;
        return Ok(None);
    }
    let mut path: Option<LitStr> = None;
    let mut kind: Option<ArgKind> = None;
    let mut kind_written = false;
    let mut expected: Option<LitStr> = None;
    let mut suggestions: Option<(FieldRef, Span)> = None;
    let mut seen: Vec<String> = Vec::new();
    let mut errored = false;
    meta.parse_nested_meta(|inner| {
        let Some(ident) = inner.path.get_ident() else {
            cx.push(syn::Error::new_spanned(
                &inner.path,
                format!("expected one of `path`, `kind`, `expected`, `suggestions`: write `{example}`"),
            ));
            errored = true;
            return skip_value(&inner.input);
        };
        let key = ident.to_string();
        let key_span = ident.span();
        if !argument::KEYS.contains(&key.as_str()) {
            let hint = match names::closest(&key, &argument::KEYS) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!("expected one of: {}", argument::KEYS.join(", ")),
            };
            cx.push(syn::Error::new(
                key_span,
                format!("unknown key `{key}` in `argument(...)`; {hint}"),
            ));
            errored = true;
            return skip_value(&inner.input);
        }
        if seen.contains(&key) {
            cx.push(syn::Error::new(
                key_span,
                format!("duplicate `{key}` in `argument(...)`; keep only one"),
            ));
            errored = true;
            return skip_value(&inner.input);
        }
        seen.push(key.clone());
        match key.as_str() {
            "path" => {
                let (_, value) = key_value(&inner, "path = \"/tag\"")?;
                let lit: LitStr = value.parse().map_err(|err| {
                    syn::Error::new(
                        err.span(),
                        "expected a string literal for `path`, a JSON Pointer into the arguments: write `path = \"/tag\"`",
                    )
                })?;
                let text = lit.value();
                if !text.is_empty() && !text.starts_with('/') {
                    cx.push(syn::Error::new(
                        lit.span(),
                        format!("`path` is a JSON Pointer into the arguments, which starts with `/`: write `path = \"/{text}\"` (or `path = \"\"` for the arguments themselves)"),
                    ));
                    errored = true;
                } else {
                    path = Some(lit);
                }
            }
            "kind" => {
                kind_written = true;
                let (_, value) = key_value(&inner, "kind = unknown_variant")?;
                if value.peek(LitStr) {
                    let lit: LitStr = value.parse()?;
                    return Err(syn::Error::new(
                        lit.span(),
                        format!("expected an argument kind name, found a string: write `kind = {}` without quotes", lit.value()),
                    ));
                }
                let ident: Ident = value.parse().map_err(|err| {
                    syn::Error::new(
                        err.span(),
                        "expected an argument kind: `missing`, `wrong_type`, `unknown_field`, `unknown_variant`, `out_of_range` or `other`",
                    )
                })?;
                match ArgKind::from_ident(&ident) {
                    Ok(found) => kind = Some(found),
                    Err(err) => {
                        cx.push(err);
                        errored = true;
                    }
                }
            }
            "expected" => expected = Some(string_value(&inner, "expected = \"an integer from 1 to 14\"")?),
            _ => {
                let (_, value) = key_value(&inner, "suggestions = field")?;
                let found = if value.peek(LitInt) {
                    let lit: LitInt = value.parse()?;
                    lit.base10_parse::<usize>()
                        .map(|index| (FieldRef::Index(index), lit.span()))
                } else {
                    value
                        .parse::<Ident>()
                        .map(|ident| (FieldRef::Named(names::unraw(&ident)), ident.span()))
                };
                suggestions = Some(found.map_err(|err| {
                    syn::Error::new(
                        err.span(),
                        "expected a field name: write `suggestions = field`, naming the variant's field that holds the near misses (a list of strings)",
                    )
                })?);
            }
        }
        Ok(())
    })?;
    let missing: Vec<&str> = [
        ("path", path.is_none() && !seen.iter().any(|k| k == "path")),
        ("kind", !kind_written),
    ]
    .into_iter()
    .filter_map(|(key, missing)| missing.then_some(key))
    .collect();
    if !missing.is_empty() {
        let what = missing
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(" and ");
        cx.push(syn::Error::new(
            span,
            format!("`argument` needs {what}: write `{example}`"),
        ));
        return Ok(None);
    }
    match (path, kind) {
        (Some(path), Some(kind)) if !errored => Ok(Some(ArgumentAttr {
            span,
            path,
            kind,
            expected,
            suggestions,
        })),
        _ => Ok(None),
    }
}

fn no_value(meta: &syn::meta::ParseNestedMeta, key: &str) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!("`{key}` takes no value: write `{key}` alone")));
    }
    Ok(())
}

fn no_value_field(meta: &syn::meta::ParseNestedMeta, key: &str) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!(
            "on a field, `{key}` takes no value: write `#[envelope({key})]` on the field that holds it"
        )));
    }
    Ok(())
}

/// Consumes `= value` or `(...)` after a key that was rejected, so parsing
/// goes on and later mistakes are reported in the same run.
fn skip_value(input: &ParseStream) -> syn::Result<()> {
    if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        while !input.is_empty() && !input.peek(Token![,]) {
            input.parse::<TokenTree>()?;
        }
    } else if input.peek(syn::token::Paren) {
        input.parse::<TokenTree>()?;
    }
    Ok(())
}

fn unknown_item_key(key: &str, span: Span, place: Place) -> syn::Error {
    let candidates: Vec<&str> = Key::all()
        .filter(|k| k.valid_at(place))
        .map(Key::name)
        .collect();
    if Role::NAMES.contains(&key) {
        // `next_steps` on a variant: the key there is `next_step`. (`key`
        // is no item key at all, so the closest one is another name.)
        let here = match names::closest(key, &candidates) {
            Some(best) => {
                format!("; written here, the key is `{best}`: `#[envelope({best} = ...)]`")
            }
            None => String::new(),
        };
        return syn::Error::new(
            span,
            format!(
                "`{key}` is a field attribute: put `#[envelope({key})]` on the field itself{here}"
            ),
        );
    }
    unknown_key(key, span, &candidates)
}

fn unknown_field_key(key: &str, span: Span) -> syn::Error {
    if Key::from_name(key).is_some() {
        return syn::Error::new(
            span,
            format!("`{key}` is not a field role: move it onto the variant (or the struct)"),
        );
    }
    unknown_key(key, span, &Role::NAMES)
}

fn unknown_key(key: &str, span: Span, candidates: &[&str]) -> syn::Error {
    let message = match names::closest(key, candidates) {
        Some(best) => format!("unknown envelope attribute `{key}`; did you mean `{best}`?"),
        None => format!(
            "unknown envelope attribute `{key}`; expected one of: {}",
            candidates.join(", ")
        ),
    };
    syn::Error::new(span, message)
}

fn misplaced(key: &str, span: Span, place: Place) -> syn::Error {
    let message = match place {
        Place::Enum => format!(
            "`{key}` is only valid on a variant, not on the enum: move it onto each variant that needs it"
        ),
        Place::Variant => format!(
            "`{key}` is only valid on the enum or struct, not on a variant: move it onto the type"
        ),
        Place::Struct => format!("`{key}` is not valid on a struct"),
    };
    syn::Error::new(span, message)
}
