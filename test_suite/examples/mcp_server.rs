//! A stdio MCP server (rmcp) over a tiny in-memory schema catalog, whose
//! every tool error is an `#[derive(Envelope)]` enum.
//!
//! Run: `cargo run --example mcp_server --features rmcp`, then speak MCP on
//! stdin/stdout (or let a client start it: see the README, "MCP servers with
//! rmcp").
//!
//! Two kinds of tool, because of how clients treat a declared `outputSchema`
//! (the MCP Inspector checks every result of such a tool against it, error
//! results included):
//!
//! - `list_tables`, `describe_table` return `Json<T>`, so rmcp declares an
//!   `outputSchema`. Their errors go through the derived rmcp conversion
//!   with no glue (`Result<Json<T>, CatalogError>`): the envelope travels as
//!   JSON text in `content`, and `structuredContent` is left out.
//! - `find_column`, `row_count` return text and declare no `outputSchema`.
//!   Their errors (`Result<String, CallToolResult>`, `?` through the derived
//!   `From<CatalogError> for CallToolResult`) carry the envelope object in
//!   `structuredContent` as well.
//!
//! Malformed arguments (a missing field, a wrong type, an unknown field)
//! become an `INVALID_ARGUMENTS` tool result naming the field, through
//! [`Checked`], instead of rmcp's JSON-RPC "failed to deserialize
//! parameters" error: the MCP specification (2025-11-25) asks servers to
//! report input validation failures as tool errors the model can correct.

use std::borrow::Cow;

use envelope::Envelope;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{Json, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};

#[path = "support/catalog_error.rs"]
mod catalog_error;

use catalog_error::CatalogError;

/// One table of the dataset.
struct Table {
    name: &'static str,
    /// `(column, SQL type)`, in order.
    columns: &'static [(&'static str, &'static str)],
    rows: u64,
}

/// The dataset: a tiny HR schema.
const TABLES: &[Table] = &[
    Table {
        name: "EMPLOYEES",
        columns: &[
            ("EMPLOYEE_ID", "NUMBER(6)"),
            ("FIRST_NAME", "VARCHAR2(20)"),
            ("LAST_NAME", "VARCHAR2(25)"),
            ("HIRE_DATE", "DATE"),
            ("DEPARTMENT_ID", "NUMBER(4)"),
        ],
        rows: 107,
    },
    Table {
        name: "DEPARTMENTS",
        columns: &[
            ("DEPARTMENT_ID", "NUMBER(4)"),
            ("DEPARTMENT_NAME", "VARCHAR2(30)"),
            ("LOCATION_ID", "NUMBER(4)"),
        ],
        rows: 27,
    },
    Table {
        name: "LOCATIONS",
        columns: &[("LOCATION_ID", "NUMBER(4)"), ("CITY", "VARCHAR2(30)")],
        rows: 23,
    },
    Table {
        name: "JOB_HISTORY",
        columns: &[
            ("EMPLOYEE_ID", "NUMBER(6)"),
            ("START_DATE", "DATE"),
            ("END_DATE", "DATE"),
        ],
        rows: 10,
    },
];

/// Tables whose statistics are being rebuilt: `row_count` answers `Busy`.
const REFRESHING: &[&str] = &["EMPLOYEES"];

/// How long a caller should wait for a statistics refresh, in milliseconds.
const REFRESH_WAIT_MS: u64 = 1500;

/// The table called `name`, or `TableNotFound` with near-miss names.
fn table(name: &str) -> Result<&'static Table, CatalogError> {
    TABLES
        .iter()
        .find(|table| table.name == name)
        .ok_or_else(|| CatalogError::TableNotFound {
            table: name.to_owned(),
            candidates: envelope::fuzzy::suggest(name, TABLES.iter().map(|t| t.name), 3),
        })
}

/// Tool arguments that always deserialize: either the arguments, or the
/// `InvalidArguments` error naming the offending field.
///
/// rmcp's `Parameters<T>` turns a deserialization failure into a JSON-RPC
/// `invalid_params` error, which many clients show the model as an opaque
/// failure. Wrapped as `Parameters<Checked<T>>`, the failure reaches the
/// tool, which returns it with `?` as a tool result. The JSON Schema is
/// `T`'s, so the tool's `inputSchema` is unchanged.
struct Checked<T>(Result<T, CatalogError>);

impl<T> Checked<T> {
    /// The arguments, or the error to return from the tool.
    fn into_inner(self) -> Result<T, CatalogError> {
        self.0
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(Checked(
            serde_path_to_error::deserialize(value).map_err(invalid_arguments),
        ))
    }
}

impl<T: JsonSchema> JsonSchema for Checked<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// The `InvalidArguments` error for a deserialization failure, naming the
/// field by its path (`table`, `filter.limit`). serde reports a missing
/// field at the path of the object that lacks it, with the name only in its
/// message ("missing field `table`"), so the name is read from there.
fn invalid_arguments(error: serde_path_to_error::Error<serde_json::Error>) -> CatalogError {
    let path = error.path().to_string();
    let message = error.inner().to_string();
    let named = |prefix: &str| {
        let rest = message.strip_prefix(prefix)?;
        let name = &rest[..rest.find('`')?];
        Some(if path == "." {
            name.to_owned()
        } else if path == name || path.ends_with(&format!(".{name}")) {
            // An unknown field's path already ends in its name.
            path.clone()
        } else {
            format!("{path}.{name}")
        })
    };
    let (field, problem) = if let Some(field) = named("missing field `") {
        (field, "is missing".to_owned())
    } else if let Some(field) = named("unknown field `") {
        (field, "is not an argument of this tool".to_owned())
    } else {
        (path, format!("is invalid: {message}"))
    };
    CatalogError::InvalidArguments { field, problem }
}

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
    /// The column name, in upper case (`HIRE_DATE`).
    column: String,
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
}

#[tool_router]
impl CatalogServer {
    fn new() -> Self {
        CatalogServer {
            tool_router: Self::tool_router(),
        }
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
        Parameters(args): Parameters<Checked<TableArgs>>,
    ) -> Result<Json<TableInfo>, CatalogError> {
        let TableArgs { table: name } = args.into_inner()?;
        let table = table(&name)?;
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
        Parameters(args): Parameters<Checked<ColumnArgs>>,
    ) -> Result<String, CallToolResult> {
        let ColumnArgs {
            table: name,
            column,
        } = args.into_inner()?;
        let table = table(&name)?;
        let Some((_, ty)) = table.columns.iter().find(|(c, _)| *c == column) else {
            Err(CatalogError::ColumnNotFound {
                table: table.name.to_owned(),
                candidates: envelope::fuzzy::suggest(
                    &column,
                    table.columns.iter().map(|(c, _)| *c),
                    3,
                ),
                column,
            })?
        };
        Ok(format!("{}.{column}: {ty}", table.name))
    }

    /// Count the rows of one table, as text, from its statistics.
    #[tool]
    async fn row_count(
        &self,
        Parameters(args): Parameters<Checked<TableArgs>>,
    ) -> Result<String, CallToolResult> {
        let TableArgs { table: name } = args.into_inner()?;
        let table = table(&name)?;
        if REFRESHING.contains(&table.name) {
            Err(CatalogError::StatsRefreshing {
                table: table.name.to_owned(),
                retry_after_ms: REFRESH_WAIT_MS,
            })?;
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
                "A read-only schema catalog. Tool errors are JSON envelopes; these are the ones \
                 the tools return:\n\n{}",
                envelope::catalog_markdown(CatalogError::catalog())
            ))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = CatalogServer::new().serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
