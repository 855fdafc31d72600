//! A stdio MCP server (rmcp) over a tiny in-memory schema catalog, whose
//! every tool error is an `#[derive(Envelope)]` enum, answered through the
//! call's `envelope::CallContext` with plain `?`.
//!
//! Run from the repository root: `cargo run -p envelope-test-suite --example
//! mcp_server --features rmcp,jsonschema`, then speak MCP on stdin/stdout
//! (or let a client start it: see the guide, `envelope::guide::integrations`,
//! "MCP servers with rmcp"). Start it with `--sep-3313` (after `--` with
//! `cargo run`) for the draft tool-failure `_meta` object on every error
//! result (`envelope::rmcp::Router::with_tool_failure_meta`).
//!
//! **One call, one context.** The server's router is an
//! `envelope::rmcp::Router`, and rmcp's `#[tool_handler(router =
//! self.tool_router)]` routes every `tools/call` through it. It runs each
//! tool inside the call's `CallContext`: the tool's name, its declared
//! annotations, the request's correlation id (the `_meta.correlationId`
//! the client sent, else the trace id of a W3C `traceparent` it sent
//! there, else a generated `"<8 hex>-<n>-req-<jsonrpc id>"`) and the
//! client's cancellation. Every error result of the tool goes out through
//! it, so a fallible line is plain `?`: a cancelled call answers
//! `CANCELLED`, the declared behaviour decides `effect` and `retryable`,
//! the envelope gets the call's correlation id, and the operator's log gets
//! one line (feature `tracing`, on stderr, where an MCP client keeps a
//! server's log) with the same id and, when the tool returns the derived
//! error itself, its full `Display` and `source()` chain. `find_column`
//! also takes `call: CallContext`, the same context, and answers one line
//! with `.or_fail(&call)?` to show that both ways give one answer and one
//! log line.
//!
//! **Reads and a write.** `list_tables`, `describe_table`, `find_column` and
//! `row_count` declare `#[tool(annotations(read_only_hint = true))]`;
//! `annotate_table` appends a note to a table, a write that is neither
//! read-only nor idempotent (two calls, two notes), unless the call carries
//! an idempotency key (`_meta.idempotencyKey`): the router runs it once
//! per key and answers a repeat with the first answer
//! (`envelope::rmcp::Idempotency`, the tool listed with
//! `_meta.idempotency: "optional"`). `DEPARTMENTS` is replicated: its note
//! is written at once, its answer waits 2 s for the replica. `JOB_HISTORY` is locked
//! by a migration, a `Transient` failure, and the two kinds of tool answer
//! it differently with no code of their own:
//!
//! - `describe_table` (a read): `effect` `nothing`, `retryable: true`, the
//!   variant's next step;
//! - `annotate_table` (a write): `effect` `unknown`, not retryable, and the
//!   first next step "the call may have taken effect: check its result
//!   before repeating it".
//!
//! **Unknown tools.** The router routes known tools as rmcp does. Any other
//! name gets, by default, the current MCP revision's protocol error
//! `-32602`, its message naming the near misses and its `data` the
//! envelope; this server opts into the draft SEP-2145's answer instead
//! (`envelope::rmcp::UnknownTool::Sep2145ToolError`), a tool error
//! (`OBJECT_NOT_FOUND`, code `UNKNOWN_TOOL`) naming the near misses in
//! `fuzzy_matches` (`describe_tabel`: `describe_table`), which any host
//! passes to the model. `test_suite/examples/conformance_server.rs` keeps
//! the default, which the conformance suite checks.
//!
//! **Tools with and without an `outputSchema`** (the MCP Inspector checks
//! every result of a tool that declares one against it, error results
//! included):
//!
//! - `list_tables`, `describe_table` return `Json<T>`, so rmcp declares an
//!   `outputSchema`; `describe_table`'s error (`Result<Json<T>,
//!   ErrorEnvelope>`) is the envelope as JSON text in `content`, with no
//!   `structuredContent`. `annotate_table` (`Result<String, ErrorEnvelope>`)
//!   answers the same way.
//! - `find_column`, `row_count` return text and declare no `outputSchema`.
//!   Their errors (`Result<String, CallToolResult>`; `?` converts the
//!   envelope with `From<ErrorEnvelope> for CallToolResult`) carry the
//!   envelope object in `structuredContent` as well.
//!
//! **Arguments** arrive as `Parameters<Args<T>>` (`envelope::args::Args`):
//! the tool gets `Ok(T)`, or an `INVALID_ARGUMENTS` envelope that it answers
//! with `?` like any other error, listing every problem with
//! its JSON Pointer path, its kind (missing, wrong type, unknown field,
//! unknown enum value), the expected type and near-miss names (`"tabel"`:
//! did you mean `"table"`?). rmcp on its own (since 1.8, so 3.11 here)
//! answers a `Parameters<T>` that does not deserialize with a tool result
//! too, `isError: true`, but its content is the plain text "failed to
//! deserialize parameters: ..." naming one problem. Each tool's
//! `inputSchema` stays exactly `T`'s.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use envelope::args::Args;
use envelope::idempotency::MemoryStore;
use envelope::rmcp::Idempotency;
use envelope::{CallContext, Envelope, ErrorEnvelope, OrFail};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{Json, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[path = "support/catalog_error.rs"]
mod catalog_error;

use catalog_error::CatalogError;

#[path = "support/catalog_data.rs"]
mod catalog_data;

use catalog_data::{TABLES, open, row_count};

/// Arguments naming one table.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TableArgs {
    /// The table name, in upper case (`EMPLOYEES`).
    table: String,
}

/// Arguments naming one column of one table.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ColumnArgs {
    /// The table name, in upper case (`EMPLOYEES`).
    table: String,
    /// The column name (`HIRE_DATE`).
    column: String,
    /// How `column` is compared with the column names: `"exact"` (the
    /// default) or `"insensitive"` (ignoring case).
    #[serde(default)]
    case: Case,
}

/// How a column name is compared.
#[derive(Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Case {
    /// Byte for byte.
    #[default]
    Exact,
    /// Ignoring ASCII case.
    Insensitive,
}

/// The result of `list_tables`.
#[derive(Serialize, JsonSchema)]
struct TableList {
    /// Every table name, in catalog order.
    tables: Vec<String>,
}

/// The result of `describe_table`.
#[derive(Serialize, JsonSchema)]
struct TableInfo {
    /// The table name.
    table: String,
    /// Its columns, in order.
    columns: Vec<Column>,
}

/// One column of a table.
#[derive(Serialize, JsonSchema)]
struct Column {
    /// The column name.
    name: String,
    /// Its SQL type (`VARCHAR2(20)`).
    r#type: String,
}

/// Arguments of `annotate_table`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AnnotateArgs {
    /// The table name, in upper case (`EMPLOYEES`).
    table: String,
    /// The note to append to the table's notes.
    note: String,
}

/// The MCP server: a tool router over the static catalog, and the notes
/// `annotate_table` appends.
#[derive(Clone)]
pub struct CatalogServer {
    /// rmcp's router, with every failure answered through its call's
    /// context; unknown tools get the default answer, a tool error.
    tool_router: envelope::rmcp::Router<Self>,
    /// The notes of each table, in the order they were added.
    notes: Arc<Mutex<BTreeMap<&'static str, Vec<String>>>>,
}

#[tool_router]
impl CatalogServer {
    /// The server; the SEP-3313 `_meta` is on with `tool_failure_meta`
    /// (`--sep-3313`).
    pub fn new(tool_failure_meta: bool) -> Self {
        CatalogServer {
            tool_router: envelope::rmcp::Router::new(Self::tool_router())
                .with_unknown_tool(envelope::rmcp::UnknownTool::Sep2145ToolError)
                .with_tool_failure_meta(tool_failure_meta)
                // A call of annotate_table with `_meta.idempotencyKey`
                // runs once per key; a repeat gets the first answer.
                .with_idempotency(Idempotency::new(MemoryStore::new()).allow("annotate_table"))
                // Each tool's failure contract, in `tools/list`'s
                // `_meta.failures`: the catalog errors it can return.
                .with_failures("describe_table", CatalogError::catalog())
                .with_failures("find_column", CatalogError::catalog())
                .with_failures("row_count", CatalogError::catalog())
                .with_failures("annotate_table", CatalogError::catalog()),
            notes: Arc::default(),
        }
    }

    /// List every table of the catalog.
    #[tool(annotations(read_only_hint = true))]
    async fn list_tables(&self) -> Json<TableList> {
        Json(TableList {
            tables: TABLES.iter().map(|t| t.name.to_owned()).collect(),
        })
    }

    /// Describe one table: its columns and their types.
    #[tool(annotations(read_only_hint = true))]
    async fn describe_table(
        &self,
        Parameters(Args(args)): Parameters<Args<TableArgs>>,
    ) -> Result<Json<TableInfo>, ErrorEnvelope> {
        let TableArgs { table: name } = args?;
        let table = open(&name)?;
        Ok(Json(TableInfo {
            table: table.name.to_owned(),
            columns: table
                .columns
                .iter()
                .map(|(name, ty)| Column {
                    name: (*name).to_owned(),
                    r#type: (*ty).to_owned(),
                })
                .collect(),
        }))
    }

    /// Give the type of one column, as text.
    #[tool(annotations(read_only_hint = true))]
    async fn find_column(
        &self,
        call: CallContext,
        Parameters(Args(args)): Parameters<Args<ColumnArgs>>,
    ) -> Result<String, CallToolResult> {
        let ColumnArgs {
            table: name,
            column,
            case,
        } = args?;
        let table = open(&name)?;
        let matches = |c: &str| match case {
            Case::Exact => c == column,
            Case::Insensitive => c.eq_ignore_ascii_case(&column),
        };
        let (found, ty) = table
            .columns
            .iter()
            .find(|(c, _)| matches(c))
            .ok_or_else(|| CatalogError::ColumnNotFound {
                table: table.name.to_owned(),
                candidates: envelope::fuzzy::suggest(
                    &column,
                    table.columns.iter().map(|(c, _)| *c),
                    3,
                ),
                column: column.clone(),
            })
            .or_fail(&call)?;
        Ok(format!("{}.{found}: {ty}", table.name))
    }

    /// Count the rows of one table, as text, from its statistics.
    #[tool(annotations(read_only_hint = true))]
    async fn row_count(
        &self,
        Parameters(Args(args)): Parameters<Args<TableArgs>>,
    ) -> Result<String, CallToolResult> {
        let TableArgs { table: name } = args?;
        let table = open(&name)?;
        let rows = row_count(table)?;
        Ok(format!("{}: {rows} rows", table.name))
    }

    /// Append a note to one table's notes; returns how many it has. Each
    /// call adds one: repeating a call adds the note again.
    #[tool(annotations(
        read_only_hint = false,
        destructive_hint = false,
        idempotent_hint = false
    ))]
    async fn annotate_table(
        &self,
        Parameters(Args(args)): Parameters<Args<AnnotateArgs>>,
    ) -> Result<String, ErrorEnvelope> {
        let AnnotateArgs { table: name, note } = args?;
        let table = open(&name)?;
        let n = {
            let mut notes = self
                .notes
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let notes = notes.entry(table.name).or_default();
            notes.push(note);
            notes.len()
        };
        if table.name == "DEPARTMENTS" {
            // Replicated: the note is written, the answer waits for the
            // replica's acknowledgement.
            tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        }
        Ok(format!(
            "{}: {n} note{}",
            table.name,
            if n == 1 { "" } else { "s" }
        ))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for CatalogServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "envelope-schema-catalog",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(format!(
                "A schema catalog: four read-only tools, and annotate_table, which appends a \
                 note. Tool errors are JSON envelopes. Malformed arguments get \
                 INVALID_ARGUMENTS, whose argument_errors list every problem (path, kind, \
                 expected, suggestions); an unknown tool gets UNKNOWN_TOOL, with the near-miss \
                 names in fuzzy_matches; the other errors the tools return are these:\n\n{}",
                envelope::catalog_markdown(CatalogError::catalog())
            ))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The operator's log: stderr (stdout carries the protocol), plain text.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .without_time()
        .init();
    let tool_failure_meta = std::env::args().skip(1).any(|arg| arg == "--sep-3313");
    let service = CatalogServer::new(tool_failure_meta)
        .serve(rmcp::transport::stdio())
        .await?;
    service.waiting().await?;
    Ok(())
}
