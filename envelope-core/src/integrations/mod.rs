//! One module per optional integration, each holding all of that
//! feature's glue: for a library's error type, its table (written with
//! `convert::std_errors`'s rows) and its `find` for source chains; for a
//! framework, the impls of its traits for
//! [`ErrorEnvelope`](crate::ErrorEnvelope) and the bodies of the impls the
//! facade's `integrations!` macro emits for a derived type (re-exported
//! through `__private`, not public API).
//!
//! Adding an integration is its file, a line below and its feature in the
//! two `Cargo.toml`s; the crate root re-exports every module here.

/// Declares each integration module under its feature and [`find`]: the
/// envelope of one of the integrations' errors in a source chain (each
/// module has a `find`; `None` for a framework without error types).
macro_rules! integrations {
    ($($feature:literal $name:ident;)*) => {
        $(
            #[cfg(feature = $feature)]
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

integrations! {
    "axum" axum;
    "reqwest" reqwest;
    "reqwest012" reqwest012;
    "rmcp" rmcp;
    "rusqlite" rusqlite;
    "sqlx" sqlx;
    "sqlx08" sqlx08;
    "tokio" tokio;
}
