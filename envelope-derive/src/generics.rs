//! Which generic parameters a field type mentions, and the inferred bounds
//! for them: only fields that a template, `detail` or `transparent` uses add
//! a bound, and only when their type mentions a type parameter.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::{Generics, Ident, Path, Type};

/// Type parameter names of `generics`.
pub(crate) fn type_params(generics: &Generics) -> Vec<String> {
    generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect()
}

/// Whether `ty` mentions one of `params` anywhere in its tokens.
pub(crate) fn mentions(ty: &Type, params: &[String]) -> bool {
    !params.is_empty() && stream_mentions(ty.to_token_stream(), params)
}

fn stream_mentions(tokens: TokenStream, params: &[String]) -> bool {
    tokens.into_iter().any(|tt| match tt {
        TokenTree::Ident(ident) => params.iter().any(|p| ident == p),
        TokenTree::Group(group) => stream_mentions(group.stream(), params),
        _ => false,
    })
}

/// The trait an inferred predicate asks of a field type.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// A `transparent` field: the facade's `Envelope`.
    Envelope,
    /// A `detail` field: serde's `Serialize`, through the facade.
    Serialize,
    /// A template placeholder: the `core::fmt` trait its format spec uses.
    Fmt(&'static str),
}

/// Ordered, de-duplicated inferred `where` predicates, as data.
#[derive(Default)]
pub(crate) struct Bounds<'a> {
    predicates: Vec<(&'a Type, Bound)>,
    /// A variant shows the type's own `Display` text, so a generic type
    /// needs `Type<..>: Display`.
    pub display_self: bool,
}

impl<'a> Bounds<'a> {
    pub fn push(&mut self, ty: &'a Type, bound: Bound) {
        let key = ty.to_token_stream().to_string();
        let seen = self
            .predicates
            .iter()
            .any(|(t, b)| *b == bound && t.to_token_stream().to_string() == key);
        if !seen {
            self.predicates.push((ty, bound));
        }
    }

    /// The user's `where` clause extended with the inferred predicates
    /// the user has not written already.
    /// The type's own `Display` bound names the type, not `Self`: the same
    /// clause guards the `From` impls, whose `Self` is the envelope.
    pub fn where_clause(&self, krate: &Path, ident: &Ident, generics: &Generics) -> TokenStream {
        let user: Vec<_> = generics
            .where_clause
            .iter()
            .flat_map(|w| w.predicates.iter())
            .collect();
        let inferred = self
            .predicates
            .iter()
            .filter(|(ty, bound)| !declared(generics, ty, *bound))
            .map(|(ty, bound)| {
                let bound = match bound {
                    Bound::Envelope => quote!(#krate::__private::Envelope),
                    Bound::Serialize => quote!(#krate::__private::Serialize),
                    Bound::Fmt(name) => {
                        let name = Ident::new(name, Span::call_site());
                        quote!(::core::fmt::#name)
                    }
                };
                quote!(#ty: #bound)
            });
        let display = self.display_self.then(|| {
            let (_, ty_generics, _) = generics.split_for_impl();
            quote!(#ident #ty_generics: ::core::fmt::Display)
        });
        if user.is_empty() && self.predicates.is_empty() && display.is_none() {
            return TokenStream::new();
        }
        let display = display.into_iter();
        quote!(where #(#user,)* #(#inferred,)* #(#display,)*)
    }
}

impl Bound {
    /// The trait's own name, as a bound's last path segment spells it.
    fn trait_name(self) -> &'static str {
        match self {
            Bound::Envelope => "Envelope",
            Bound::Serialize => "Serialize",
            Bound::Fmt(name) => name,
        }
    }
}

/// Whether `ty` is a type parameter that `generics` already bounds by a
/// trait of `bound`'s name (`T: fmt::Display`, `where T: Display`), so an
/// inferred copy would only repeat it (clippy's
/// `trait_duplication_in_bounds`).
fn declared(generics: &Generics, ty: &Type, bound: Bound) -> bool {
    let Type::Path(path) = ty else { return false };
    let Some(ident) = path.path.get_ident() else {
        return false;
    };
    let names = |bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>| {
        bounds.iter().any(|b| match b {
            syn::TypeParamBound::Trait(t) => t
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == bound.trait_name()),
            _ => false,
        })
    };
    let on_param = generics
        .type_params()
        .any(|p| p.ident == *ident && names(&p.bounds));
    let in_where = generics
        .where_clause
        .iter()
        .flat_map(|w| &w.predicates)
        .any(|p| match p {
            syn::WherePredicate::Type(t) => {
                matches!(&t.bounded_ty, Type::Path(q) if q.path.get_ident() == Some(ident))
                    && names(&t.bounds)
            }
            _ => false,
        });
    on_param || in_where
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::*;

    fn params(names: &[&str]) -> Vec<String> {
        names.iter().map(|&name| name.to_owned()).collect()
    }

    #[test]
    fn mentions_looks_inside_every_group() {
        let t = params(&["T"]);
        assert!(mentions(&parse_quote!(T), &t));
        assert!(mentions(&parse_quote!(Option<(u8, Vec<T>)>), &t));
        assert!(mentions(&parse_quote!([T; 2]), &t));
        assert!(!mentions(&parse_quote!(u8), &t));
        assert!(!mentions(&parse_quote!(Vec<Tee>), &t));
        assert!(!mentions(&parse_quote!(T), &[]));
    }

    #[test]
    fn bounds_are_kept_once_per_type_and_trait() {
        let t: Type = parse_quote!(T);
        let t_again: Type = parse_quote!(T);
        let u: Type = parse_quote!(U);
        let mut bounds = Bounds::default();
        bounds.push(&t, Bound::Fmt("Display"));
        bounds.push(&t_again, Bound::Fmt("Display"));
        bounds.push(&t, Bound::Fmt("Debug"));
        bounds.push(&u, Bound::Fmt("Display"));
        let pushed: Vec<String> = bounds
            .predicates
            .iter()
            .map(|(ty, bound)| format!("{}: {}", ty.to_token_stream(), bound.trait_name()))
            .collect();
        assert_eq!(pushed, ["T: Display", "T: Debug", "U: Display"]);
    }

    /// The user's predicates first, then the inferred ones the user has
    /// not written (on the parameter or in `where`, by the trait's last
    /// segment), then the type's own `Display`.
    #[test]
    fn where_clause_skips_what_the_user_declared() {
        let generics: Generics = parse_quote! {
            <'a, 'b: 'a, T: fmt::Display, U, V: Clone>
        };
        let mut generics = generics;
        generics.where_clause = Some(parse_quote! {
            where 'a: 'b, U: ::serde::Serialize, [V; 1]: Sized
        });
        let types: [Type; 6] = [
            parse_quote!(T),
            parse_quote!(U),
            parse_quote!(Vec<T>),
            parse_quote!(T),
            parse_quote!(V),
            parse_quote!(U),
        ];
        let mut bounds = Bounds::default();
        bounds.push(&types[0], Bound::Fmt("Display"));
        bounds.push(&types[1], Bound::Serialize);
        bounds.push(&types[2], Bound::Envelope);
        bounds.push(&types[3], Bound::Fmt("Debug"));
        bounds.push(&types[4], Bound::Serialize);
        bounds.push(&types[5], Bound::Fmt("LowerHex"));
        bounds.display_self = true;
        let krate: Path = parse_quote!(::envelope);
        let ident: Ident = parse_quote!(E);
        let clause = bounds.where_clause(&krate, &ident, &generics);
        let expected = quote! {
            where
                'a: 'b,
                U: ::serde::Serialize,
                [V; 1]: Sized,
                Vec<T>: ::envelope::__private::Envelope,
                T: ::core::fmt::Debug,
                V: ::envelope::__private::Serialize,
                U: ::core::fmt::LowerHex,
                E<'a, 'b, T, U, V>: ::core::fmt::Display,
        };
        assert_eq!(clause.to_string(), expected.to_string());
    }

    #[test]
    fn type_params_are_the_type_parameters_only() {
        let generics: Generics = parse_quote!(<'a, T: Clone, const N: usize, U = u8>);
        assert_eq!(type_params(&generics), ["T", "U"]);
    }

    /// The `where` clause of type `E` with `generics`, as a string.
    fn clause_of(bounds: &Bounds, generics: &Generics) -> String {
        bounds
            .where_clause(&parse_quote!(::envelope), &parse_quote!(E), generics)
            .to_string()
    }

    /// Without a user `where` clause, the inferred predicates alone; with
    /// only the user's, the user's alone; with neither, none at all.
    #[test]
    fn where_clause_from_either_side() {
        let t: Type = parse_quote!(T);
        let mut bounds = Bounds::default();
        bounds.push(&t, Bound::Fmt("Display"));
        assert_eq!(
            clause_of(&bounds, &parse_quote!(<T>)),
            quote!(where T: ::core::fmt::Display,).to_string()
        );

        let mut generics: Generics = parse_quote!(<T>);
        generics.where_clause = Some(parse_quote!(where T: Clone));
        assert_eq!(
            clause_of(&Bounds::default(), &generics),
            quote!(where T: Clone,).to_string()
        );

        let display = Bounds {
            display_self: true,
            ..Bounds::default()
        };
        assert_eq!(
            clause_of(&display, &parse_quote!(<T>)),
            quote!(where E<T>: ::core::fmt::Display,).to_string()
        );

        assert_eq!(clause_of(&Bounds::default(), &parse_quote!(<T: Clone>)), "");
    }
}
