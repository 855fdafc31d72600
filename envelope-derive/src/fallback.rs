//! After an error: the `compile_error!`s plus stub impls, so one typo in an
//! attribute is reported once, not again at every use of the type.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::attr::{self, Place};
use crate::ctxt::Ctxt;

pub(crate) fn expand(input: &DeriveInput, error: &syn::Error) -> TokenStream {
    let errors = error.to_compile_error();
    // Re-read only `crate = "..."`, ignoring every error found the first
    // time (so the place does not matter: `crate` is valid on both).
    let krate = attr::item(&Ctxt::default(), &input.attrs, Place::Struct)
        .krate
        .unwrap_or_else(|| syn::parse_quote!(::envelope));
    let p = quote!(#krate::__private);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #errors

        #[automatically_derived]

        #[allow(deprecated)]
        impl #impl_generics #p::Envelope for #ident #ty_generics #where_clause {
            fn error_class(&self) -> #p::ErrorClass {
                ::core::unreachable!()
            }

            fn to_envelope(&self) -> #p::ErrorEnvelope {
                ::core::unreachable!()
            }
        }

        #[automatically_derived]

        #[allow(deprecated)]
        impl #impl_generics ::core::convert::From<#ident #ty_generics> for #p::ErrorEnvelope #where_clause {
            fn from(_: #ident #ty_generics) -> Self {
                ::core::unreachable!()
            }
        }

        #[automatically_derived]

        #[allow(deprecated)]
        impl #impl_generics ::core::convert::From<&#ident #ty_generics> for #p::ErrorEnvelope #where_clause {
            fn from(_: &#ident #ty_generics) -> Self {
                ::core::unreachable!()
            }
        }

        #p::integrations! {
            impl [#impl_generics] for [#ident #ty_generics] [#where_clause]
        }
    }
}
