//! One module per optional integration, each holding all of that
//! feature's glue: for a library's error type, its table (written with
//! `convert::std_errors`'s rows) and its `find` for source chains; for a
//! framework, the impls of its traits for
//! [`ErrorEnvelope`](crate::ErrorEnvelope) and the bodies of the impls the
//! facade's `integrations!` macro emits for a derived type (re-exported
//! through `__private`, not public API).
//!
//! Adding an integration is its file, `NAME.rs` or `NAME/mod.rs`, and its
//! feature `NAME` in the two `Cargo.toml`s: the build script (`build.rs`)
//! lists this folder's modules, and the crate root re-exports each. A
//! folder without a `mod.rs` holds a body that modules `include!`.

/// Declares each integration module under its feature and [`find`]: the
/// envelope of one of the integrations' errors in a source chain (each
/// module has a `find`; `None` for a framework without error types).
macro_rules! integrations {
    ($($feature:literal $name:ident $path:literal;)*) => {
        $(
            #[cfg(feature = $feature)]
            #[path = $path]
            pub mod $name;
        )*

        /// The envelope of an error in a source chain, if `error` is one of
        /// the library types an enabled integration maps.
        pub(crate) fn find<'e>(
            error: &'e (dyn std::error::Error + 'static),
        ) -> Option<&'e dyn crate::Envelope> {
            $(
                #[cfg(feature = $feature)]
                if let Some(found) = $name::find(error) {
                    return Some(found);
                }
            )*
            let _ = error;
            None
        }
    };
}

// `integrations! { "axum" axum "/…/src/integrations/axum/mod.rs"; ... }`,
// one line per module of this folder, written by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/integrations.rs"));
