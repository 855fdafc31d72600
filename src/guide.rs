//! The guide: everything the README leaves out, one chapter per module.
//!
//! Every Rust example in these chapters is compiled and run as a doctest
//! (`cargo test -p agent-envelope --doc --all-features`). Examples that need
//! a server stack (rmcp, axum, tokio) are programs in the repository's
//! `test_suite/examples/`, run from the repository root with the commands
//! the chapters give; where a chapter shows what such a program prints, a
//! test (`test_suite/tests/readme_outputs.rs`) checks that it still does.
//!
//! Chapters:
//!
//! 1. [`quickstart`]: one error of each kind and what the model receives.
//! 2. [`attributes`]: the `#[envelope(...)]` attributes, in short, and where
//!    the full reference is (the derive's documentation).
//! 3. [`retries`]: retries and side effects: `effect`, `idempotent` and the
//!    rule that decides `retryable`.
//! 4. [`wire_forms`]: the JSON of the envelope, the tool result and the MCP
//!    result, and how envelopes from other implementations are read.
//! 5. [`many_errors`]: one server, many error types: an outer enum,
//!    `ErrorEnvelope` as the common currency, `from_error` and
//!    `Recognizer`, what each std error becomes.
//! 6. [`ports`]: real-world ports: an Oracle MCP server
//!    (`oraclemcp-error`'s `ErrorEnvelope`), code mode (`pmcp-code-mode`'s
//!    `ExecutionError`) and a chat tool loop (`multi-llm`'s `ToolResult`
//!    and `UserErrorCategory`).
//! 7. [`integrations`]: tool arguments (`args`), MCP servers with rmcp,
//!    HTTP problem details and axum, agent hosts and their retry loop,
//!    JSON Schema, side by side with thiserror, the error catalog.
//! 8. [`exactly_once`]: idempotency keys, the stores that keep their
//!    answers, and the host that sends them.

#[doc = include_str!("guide/quickstart.md")]
pub mod quickstart {}

#[doc = include_str!("guide/attributes.md")]
pub mod attributes {}

#[doc = include_str!("guide/retries.md")]
pub mod retries {}

#[doc = include_str!("guide/wire_forms.md")]
pub mod wire_forms {}

#[doc = include_str!("guide/many_errors.md")]
pub mod many_errors {}

#[doc = include_str!("guide/ports.md")]
pub mod ports {}

#[doc = include_str!("guide/integrations.md")]
pub mod integrations {}

// Its code needs rmcp, axum, rusqlite and sqlx, which the facade's
// doctests do not have: the test suite runs its doctests instead
// (`test_suite/src/lib.rs`).
#[cfg_attr(not(doctest), doc = include_str!("guide/exactly_once.md"))]
pub mod exactly_once {}
