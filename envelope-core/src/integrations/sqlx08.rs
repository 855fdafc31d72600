//! sqlx 0.8 (feature `sqlx08`, through its `sqlx-core`): the mapping of
//! [`envelope::sqlx`](crate::sqlx), table and all, for the sqlx 0.8 line:
//! [`Envelope`](crate::Envelope) for its `sqlx::Error`.
//!
//! One feature per semver line, because cargo builds a second sqlx-core
//! for a version range rather than pick the user's; both features may be
//! on together. sqlx 0.8 builds on the crate's minimum Rust (sqlx 0.9
//! needs 1.94).

use ::sqlx_core08 as lib;

include!("sqlx/body.rs");
