//! Which generic parameters a field type mentions, and the inferred bounds
//! for them: only fields that a template, `detail` or `transparent` uses add
//! a bound, and only when their type mentions a type parameter.

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::{Generics, Type};

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

/// Ordered, de-duplicated `where` predicates.
#[derive(Default)]
pub(crate) struct Bounds {
    predicates: Vec<(String, TokenStream)>,
}

impl Bounds {
    pub fn push(&mut self, ty: &impl ToTokens, bound: &TokenStream) {
        let predicate = quote!(#ty: #bound);
        let key = predicate.to_string();
        if !self.predicates.iter().any(|(k, _)| *k == key) {
            self.predicates.push((key, predicate));
        }
    }

    /// The user's `where` clause extended with the inferred predicates.
    pub fn where_clause(&self, generics: &Generics) -> TokenStream {
        let user: Vec<_> = generics
            .where_clause
            .iter()
            .flat_map(|w| w.predicates.iter())
            .collect();
        let inferred = self.predicates.iter().map(|(_, p)| p);
        if user.is_empty() && self.predicates.is_empty() {
            return TokenStream::new();
        }
        quote!(where #(#user,)* #(#inferred,)*)
    }
}
