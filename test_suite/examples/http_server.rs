//! An HTTP API (axum 0.8) over the schema catalog of the `mcp_server`
//! example, with the same `#[derive(Envelope)]` error type
//! (`support/catalog_error.rs`): every error is an RFC 9457 problem
//! details response (`application/problem+json`) with the class's status
//! and, for a retry hint, `Retry-After`. No handler converts an error by
//! hand: with the `axum` feature every derived type and `ErrorEnvelope`
//! are `IntoResponse`, so handlers return `Result<Json<T>, CatalogError>`.
//!
//! Run: `cargo run -p envelope-test-suite --example http_server --features
//! axum -- [PORT]`. The port is the first argument, else
//! `ENVELOPE_HTTP_PORT`, else 3000; `0` takes a free one. The server
//! listens on 127.0.0.1 only and prints `listening on http://ADDRESS`.
//!
//! | request | answer |
//! |---|---|
//! | `GET /tables` | `200`, every table name |
//! | `GET /tables/{table}` | `200`, the columns; `404` `TABLE_NOT_FOUND` with near-miss names |
//! | `GET /tables/{table}/row_count` | `200`; `503` `STATS_REFRESHING` with `Retry-After: 2` for `EMPLOYEES` |
//! | `POST /find_column` with `{"table", "column", "case"}` | `200`; `400` `INVALID_ARGUMENTS` naming the bad argument; `400` `SYNTAX_ERROR` for a body that is not JSON; `404` `TABLE_NOT_FOUND` / `COLUMN_NOT_FOUND` |
//! | `GET /tables/{table}/export` | `502` `STORE_OFFLINE`: the export store is down in this demo; the body holds the class's generic message, not the store's host name |
//!
//! ```sh
//! curl -i http://127.0.0.1:3000/tables/EMPLOYES
//! ```
//!
//! `tests/http_e2e.rs` starts this server on a free port and drives it
//! with an HTTP client.

use std::net::{Ipv4Addr, SocketAddr};

use axum::Router;
use axum::body::Bytes;
use axum::extract::Path;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, serve};
use envelope::{Envelope, ErrorEnvelope};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[path = "support/catalog_error.rs"]
mod catalog_error;

use catalog_error::CatalogError;

/// The variable that names the port when no argument does.
pub const PORT_VAR: &str = "ENVELOPE_HTTP_PORT";

#[path = "support/catalog_data.rs"]
mod catalog_data;

use catalog_data::{REFRESH_WAIT_MS, REFRESHING, TABLES, table};

/// Where exports would go; down in this demo.
const EXPORT_STORE: &str = "exports.internal.example:9000";

/// What can go wrong exporting a table: a server-side failure whose
/// particulars (a host name, an OS error) are for the server's log, not
/// for the client. Without a `message`, a server-owned class gets its
/// generic text.
#[derive(Debug, thiserror::Error, Envelope)]
pub enum ExportError {
    /// The export store refused the connection.
    #[error("export store {host} refused the connection")]
    #[envelope(class = ConnectionFailed, idempotent)]
    StoreOffline {
        host: String,
        #[source]
        source: std::io::Error,
        /// The caller's `x-request-id`, for the operator's log.
        #[envelope(correlation_id)]
        request_id: Option<String>,
    },
}

/// The body of `POST /find_column`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColumnArgs {
    /// The table name, in upper case (`EMPLOYEES`).
    table: String,
    /// The column name (`HIRE_DATE`).
    column: String,
    /// How `column` is compared: `"exact"` (the default) or
    /// `"insensitive"`.
    #[serde(default)]
    case: Case,
}

/// How a column name is compared.
#[derive(Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Case {
    /// Byte for byte.
    #[default]
    Exact,
    /// Ignoring ASCII case.
    Insensitive,
}

/// The answer of `GET /tables`.
#[derive(Serialize)]
struct TableList {
    tables: Vec<&'static str>,
}

/// The answer of `GET /tables/{table}`.
#[derive(Serialize)]
struct TableInfo {
    table: &'static str,
    columns: Vec<Column>,
}

/// One column of a table.
#[derive(Serialize)]
struct Column {
    name: &'static str,
    r#type: &'static str,
}

/// The answer of `GET /tables/{table}/row_count`.
#[derive(Serialize)]
struct RowCount {
    table: &'static str,
    rows: u64,
}

async fn list_tables() -> Json<TableList> {
    Json(TableList {
        tables: TABLES.iter().map(|t| t.name).collect(),
    })
}

async fn describe_table(Path(name): Path<String>) -> Result<Json<TableInfo>, CatalogError> {
    let table = table(&name)?;
    Ok(Json(TableInfo {
        table: table.name,
        columns: table
            .columns
            .iter()
            .map(|&(name, r#type)| Column { name, r#type })
            .collect(),
    }))
}

async fn row_count(Path(name): Path<String>) -> Result<Json<RowCount>, CatalogError> {
    let table = table(&name)?;
    if REFRESHING.contains(&table.name) {
        return Err(CatalogError::StatsRefreshing {
            table: table.name.to_owned(),
            retry_after_ms: REFRESH_WAIT_MS,
        });
    }
    Ok(Json(RowCount {
        table: table.name,
        rows: table.rows,
    }))
}

/// The body is read as bytes, not with axum's `Json` extractor, so that
/// every malformed body is answered with an envelope too: JSON that does
/// not parse is `SYNTAX_ERROR` (`serde_json::Error` is an `Envelope`), a
/// body of the wrong shape `INVALID_ARGUMENTS` from `envelope::args`.
async fn find_column(body: Bytes) -> Result<Json<Column>, ErrorEnvelope> {
    let arguments: Value = serde_json::from_slice(&body)?;
    let ColumnArgs {
        table: name,
        column,
        case,
    } = envelope::args::parse(arguments)?;
    let table = table(&name)?;
    let matches = |c: &str| match case {
        Case::Exact => c == column,
        Case::Insensitive => c.eq_ignore_ascii_case(&column),
    };
    let Some(&(name, r#type)) = table.columns.iter().find(|(c, _)| matches(c)) else {
        Err(CatalogError::ColumnNotFound {
            table: table.name.to_owned(),
            candidates: envelope::fuzzy::suggest(&column, table.columns.iter().map(|(c, _)| *c), 3),
            column,
        })?
    };
    Ok(Json(Column { name, r#type }))
}

/// Always fails: the export store is down in this demo.
async fn export(Path(_table): Path<String>, headers: HeaderMap) -> Result<String, ExportError> {
    Err(ExportError::StoreOffline {
        host: EXPORT_STORE.to_owned(),
        source: std::io::ErrorKind::ConnectionRefused.into(),
        request_id: headers
            .get("x-request-id")
            .and_then(|id| id.to_str().ok())
            .map(str::to_owned),
    })
}

/// The API's routes.
pub fn app() -> Router {
    Router::new()
        .route("/tables", get(list_tables))
        .route("/tables/{table}", get(describe_table))
        .route("/tables/{table}/row_count", get(row_count))
        .route("/tables/{table}/export", get(export))
        .route("/find_column", post(find_column))
}

/// The port: the first argument, else `ENVELOPE_HTTP_PORT`, else 3000.
fn port() -> Result<u16, String> {
    let (text, from) = match std::env::args().nth(1) {
        Some(arg) => (arg, "the first argument"),
        None => match std::env::var(PORT_VAR) {
            Ok(var) => (var, PORT_VAR),
            Err(_) => return Ok(3000),
        },
    };
    text.parse()
        .map_err(|_| format!("{from} must be a port from 0 to 65535, not {text:?}"))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port = port().unwrap_or_else(|problem| {
        eprintln!("http_server: {problem}");
        std::process::exit(2)
    });
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let listener = tokio::net::TcpListener::bind(address).await?;
    println!("listening on http://{}", listener.local_addr()?);
    serve(listener, app()).await?;
    Ok(())
}
