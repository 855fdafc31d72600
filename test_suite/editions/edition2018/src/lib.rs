//! `#[derive(Envelope)]` in an edition 2018 crate, under strict lints.
#![deny(warnings, missing_docs, clippy::all, clippy::pedantic)]

include!("../../shared.rs");
