//! One module per optional integration, each holding all of that
//! feature's glue (for a library's error type, its table; the impls are
//! made with the std errors', in `std_errors.rs`): the impls of the other crate's traits for
//! [`ErrorEnvelope`](crate::ErrorEnvelope), and the bodies of the impls the
//! facade's `integrations!` macro emits for a derived type (re-exported
//! through `__private`, not public API).

#[cfg(feature = "axum")]
pub mod axum;
#[cfg(feature = "reqwest")]
pub mod reqwest;
#[cfg(feature = "rmcp")]
pub mod rmcp;
#[cfg(feature = "rusqlite")]
pub mod rusqlite;
#[cfg(feature = "sqlx")]
pub mod sqlx;
#[cfg(feature = "tokio")]
pub mod tokio;
