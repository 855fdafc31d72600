//! Empty but for the doctests of the guide's chapters whose code needs
//! the suite's dependencies (rmcp, axum, rusqlite, sqlx): the facade's
//! doctests leave them out (`src/guide.rs`). The suite is its tests,
//! examples and benchmarks.

/// The guide's `exactly_once` chapter, as a doctest.
#[cfg(all(
    doctest,
    feature = "host",
    feature = "axum",
    feature = "rusqlite",
    feature = "postgres"
))]
#[doc = include_str!("../../src/guide/exactly_once.md")]
mod exactly_once {}
