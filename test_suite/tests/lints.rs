//! `#[derive(Envelope)]` under `deny(warnings, missing_docs, clippy::all, clippy::pedantic)` in an edition 2024 crate.
#![deny(warnings, missing_docs, clippy::all, clippy::pedantic)]

include!("../editions/shared.rs");
