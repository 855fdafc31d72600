//! One module per optional integration, each holding all of that
//! feature's glue: the impls of the other crate's traits for
//! [`ErrorEnvelope`](crate::ErrorEnvelope), and the bodies of the impls the
//! facade's `integrations!` macro emits for a derived type (re-exported
//! through `__private`, not public API).

#[cfg(feature = "axum")]
pub mod axum;
#[cfg(feature = "rmcp")]
pub mod rmcp;
