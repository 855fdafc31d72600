//! A borrowed model of the derive input: the container, its variants and
//! fields, each with its parsed `#[envelope]` attributes.

use proc_macro2::Span;
use quote::format_ident;
use syn::spanned::Spanned;
use syn::{Attribute, Data, DeriveInput, Fields, Generics, Ident, Member, Type};

use crate::attr::{self, FieldAttrs, ItemAttrs, Place};
use crate::ctxt::Ctxt;
use crate::fmt::FieldRef;
use crate::names::unraw;

pub(crate) struct Input<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    /// Container attributes; for a struct these are also its variant's.
    pub attrs: ItemAttrs,
    pub shape: Shape<'a>,
}

pub(crate) enum Shape<'a> {
    Enum(Vec<Variant<'a>>),
    /// A struct is one variant whose attributes are the container's.
    Struct(Box<Variant<'a>>),
}

pub(crate) struct Variant<'a> {
    pub ident: &'a Ident,
    /// The variant's own attributes; empty for a struct (see `Input::attrs`).
    pub attrs: ItemAttrs,
    pub fields: Vec<Field<'a>>,
    /// `#[cfg]` attributes, repeated on every match arm. (rustc strips
    /// configured-out variants before a derive runs; this keeps the arms
    /// right for tools that expand without doing so.)
    pub cfgs: Vec<&'a Attribute>,
}

pub(crate) struct Field<'a> {
    pub member: Member,
    pub ty: &'a Type,
    pub attrs: FieldAttrs,
    /// The name templates use: the field name without `r#`, or its index.
    pub name: FieldRef,
    /// The local the field is bound to in generated match arms; mixed-site
    /// hygiene keeps it apart from every user name.
    pub binding: Ident,
}

impl<'a> Input<'a> {
    pub fn from_syn(cx: &Ctxt, node: &'a DeriveInput) -> syn::Result<Self> {
        let shape = match &node.data {
            Data::Enum(data) => {
                let attrs = attr::item(cx, &node.attrs, Place::Enum);
                let variants = data
                    .variants
                    .iter()
                    .map(|v| Variant {
                        ident: &v.ident,
                        attrs: attr::item(cx, &v.attrs, Place::Variant),
                        fields: fields(cx, &v.fields),
                        cfgs: cfgs(&v.attrs),
                    })
                    .collect();
                return Ok(Input {
                    ident: &node.ident,
                    generics: &node.generics,
                    attrs,
                    shape: Shape::Enum(variants),
                });
            }
            Data::Struct(data) => {
                if let Some(packed) = packed(&node.attrs).filter(|_| !data.fields.is_empty()) {
                    return Err(syn::Error::new_spanned(
                        packed,
                        "`Envelope` cannot be derived for a `#[repr(packed)]` struct with fields: they cannot be borrowed to build the envelope; remove `packed`, or implement `envelope::Envelope` by hand, copying the fields out",
                    ));
                }
                Shape::Struct(Box::new(Variant {
                    ident: &node.ident,
                    attrs: ItemAttrs::default(),
                    fields: fields(cx, &data.fields),
                    cfgs: Vec::new(),
                }))
            }
            Data::Union(data) => {
                return Err(syn::Error::new(
                    data.union_token.span,
                    "`Envelope` cannot be derived for a union: use an enum or a struct",
                ));
            }
        };
        Ok(Input {
            ident: &node.ident,
            generics: &node.generics,
            attrs: attr::item(cx, &node.attrs, Place::Struct),
            shape,
        })
    }

    pub fn variants(&self) -> &[Variant<'a>] {
        match &self.shape {
            Shape::Enum(variants) => variants,
            Shape::Struct(variant) => std::slice::from_ref(variant),
        }
    }
}

impl Variant<'_> {
    pub fn field(&self, name: &FieldRef) -> Option<usize> {
        self.fields.iter().position(|f| f.name == *name)
    }
}

fn fields<'a>(cx: &Ctxt, fields: &'a Fields) -> Vec<Field<'a>> {
    fields
        .iter()
        .enumerate()
        .map(|(i, field)| {
            let (member, name) = match &field.ident {
                Some(ident) => (Member::Named(ident.clone()), FieldRef::Named(unraw(ident))),
                None => (Member::Unnamed(i.into()), FieldRef::Index(i)),
            };
            Field {
                member,
                ty: &field.ty,
                attrs: attr::field(cx, &field.attrs),
                name,
                // Mixed-site resolution, but the field's location: a type error
                // about the binding (a role on the wrong type) points at the field.
                binding: format_ident!(
                    "field_{}",
                    i,
                    span = Span::mixed_site().located_at(field.ty.span())
                ),
            }
        })
        .collect()
}

fn cfgs(attrs: &[Attribute]) -> Vec<&Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("cfg")).collect()
}

/// The `#[repr(...)]` attribute that makes the type packed, if any.
fn packed(attrs: &[Attribute]) -> Option<&Attribute> {
    attrs.iter().find(|attr| {
        attr.path().is_ident("repr") && {
            let mut packed = false;
            let _ = attr.parse_nested_meta(|meta| {
                packed |= meta.path.is_ident("packed");
                // Skip `packed(2)`, `align(8)` and the like.
                if meta.input.peek(syn::token::Paren) {
                    let _: proc_macro2::TokenTree = meta.input.parse()?;
                }
                Ok(())
            });
            packed
        }
    })
}
