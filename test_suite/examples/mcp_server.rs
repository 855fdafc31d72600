//! A stdio MCP server (rmcp) over a tiny in-memory schema catalog, whose
//! every tool error is an `#[derive(Envelope)]` enum.
//!
//! Run: `cargo run -p envelope-test-suite --example mcp_server --features
//! rmcp,jsonschema`, then speak MCP on stdin/stdout (or let a client start
//! it: see the guide, `envelope::guide::integrations`, "MCP servers with
//! rmcp").
//!
//! Two kinds of tool, because of how clients treat a declared `outputSchema`
//! (the MCP Inspector checks every result of such a tool against it, error
//! results included):
//!
//! - `list_tables`, `describe_table` return `Json<T>`, so rmcp declares an
//!   `outputSchema`. `describe_table` returns `Result<Json<T>, ErrorEnvelope>`:
//!   `CatalogError` and the argument envelope both convert with `?`, and
//!   rmcp sends the envelope as JSON text in `content`, leaving
//!   `structuredContent` out.
//! - `find_column`, `row_count` return text and declare no `outputSchema`.
//!   Their errors (`Result<String, CallToolResult>`, `?` through the
//!   `From<CatalogError>` and `From<ErrorEnvelope>` conversions into
//!   `CallToolResult`) carry the envelope object in `structuredContent` as
//!   well.
//!
//! Arguments arrive as `Parameters<Args<T>>` (`envelope::args::Args`): the
//! tool gets `Ok(T)`, or an `INVALID_ARGUMENTS` envelope that it returns
//! with `?`, listing every problem with its JSON Pointer path, its kind
//! (missing, wrong type, unknown field, unknown enum value), the expected
//! type and near-miss names (`"tabel"`: did you mean `"table"`?). rmcp on
//! its own (since 1.8, so 3.11 here) answers a `Parameters<T>` that does not
//! deserialize with a tool result too, `isError: true`, but its content is
//! the plain text "failed to deserialize parameters: ..." naming one
//! problem; the envelope adds the class, every path and the suggestions.
//! Each tool's `inputSchema` stays exactly `T`'s.
//!
//! Every tool error passes through `CatalogServer::fail` once: it gets a
//! correlation id (`call-1`, `call-2`, ...), which the model sees in the
//! envelope, and is logged for the operator with `envelope::log::report_as`
//! (its full `Display`, `source()` chain, class, code, effect and the same
//! id) on stderr, where an MCP client keeps a server's log.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use envelope::args::Args;
use envelope::{Envelope, ErrorEnvelope};
use rmcp::handler::server::router::tool::ToolRouter;
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

use catalog_data::{REFRESH_WAIT_MS, REFRESHING, TABLES, table};

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

/// The MCP server: a tool router over the static catalog.
#[derive(Clone)]
struct CatalogServer {
    tool_router: ToolRouter<Self>,
    /// The last correlation id given out.
    failures: Arc<AtomicU64>,
}

#[tool_router]
impl CatalogServer {
    fn new() -> Self {
        CatalogServer {
            tool_router: Self::tool_router(),
            failures: Arc::default(),
        }
    }

    /// A tool error on its way to the model: its envelope gets the next
    /// correlation id, and the operator's log gets one line with the whole
    /// story and the same id.
    fn fail<E: Envelope + std::error::Error>(&self, error: E) -> ErrorEnvelope {
        let id = self.failures.fetch_add(1, Ordering::Relaxed) + 1;
        let envelope = error
            .to_envelope()
            .with_correlation_id(format_args!("call-{id}"));
        envelope::log::report_as(&error, envelope)
    }

    /// List every table of the catalog.
    #[tool]
    async fn list_tables(&self) -> Json<TableList> {
        Json(TableList {
            tables: TABLES.iter().map(|t| t.name.to_owned()).collect(),
        })
    }

    /// Describe one table: its columns and their types.
    #[tool]
    async fn describe_table(
        &self,
        Parameters(Args(args)): Parameters<Args<TableArgs>>,
    ) -> Result<Json<TableInfo>, ErrorEnvelope> {
        let TableArgs { table: name } = args.map_err(|e| self.fail(e))?;
        let table = table(&name).map_err(|e| self.fail(e))?;
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
    #[tool]
    async fn find_column(
        &self,
        Parameters(Args(args)): Parameters<Args<ColumnArgs>>,
    ) -> Result<String, CallToolResult> {
        let ColumnArgs {
            table: name,
            column,
            case,
        } = args.map_err(|e| self.fail(e))?;
        let table = table(&name).map_err(|e| self.fail(e))?;
        let matches = |c: &str| match case {
            Case::Exact => c == column,
            Case::Insensitive => c.eq_ignore_ascii_case(&column),
        };
        let Some((found, ty)) = table.columns.iter().find(|(c, _)| matches(c)) else {
            Err(self.fail(CatalogError::ColumnNotFound {
                table: table.name.to_owned(),
                candidates: envelope::fuzzy::suggest(
                    &column,
                    table.columns.iter().map(|(c, _)| *c),
                    3,
                ),
                column,
            }))?
        };
        Ok(format!("{}.{found}: {ty}", table.name))
    }

    /// Count the rows of one table, as text, from its statistics.
    #[tool]
    async fn row_count(
        &self,
        Parameters(Args(args)): Parameters<Args<TableArgs>>,
    ) -> Result<String, CallToolResult> {
        let TableArgs { table: name } = args.map_err(|e| self.fail(e))?;
        let table = table(&name).map_err(|e| self.fail(e))?;
        if REFRESHING.contains(&table.name) {
            Err(self.fail(CatalogError::StatsRefreshing {
                table: table.name.to_owned(),
                retry_after_ms: REFRESH_WAIT_MS,
            }))?;
        }
        Ok(format!("{}: {} rows", table.name, table.rows))
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
                "A read-only schema catalog. Tool errors are JSON envelopes. Malformed \
                 arguments get INVALID_ARGUMENTS, whose argument_errors list every problem \
                 (path, kind, expected, suggestions); the other errors the tools return are \
                 these:\n\n{}",
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
    let service = CatalogServer::new().serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
