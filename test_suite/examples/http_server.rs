//! An HTTP API (axum 0.8) over the schema catalog of the `mcp_server`
//! example, with the same `#[derive(Envelope)]` error type
//! (`support/catalog_error.rs`). Every request is answered by a handler or
//! by an RFC 9457 problem details body (`application/problem+json`), and no
//! handler has error glue beyond `?`:
//!
//! - the handlers return `Result<_, CatalogError>`: with the `axum` feature
//!   every derived type is an `IntoResponse`;
//! - `envelope::axum::{Json, Query, Path}` read the body, the query string
//!   and the path parameters, and reject bad input with the
//!   `INVALID_ARGUMENTS` problem naming each bad argument (`?limit=x`,
//!   `{"colum": ...}`), a body that is not JSON with `SYNTAX_ERROR`, and a
//!   body sent without `Content-Type: application/json` with `415`;
//! - `.answer_failures()` on the router answers unknown paths (`404`) and
//!   wrong methods (`405`, with `Allow`), and answers every failure through
//!   the request's `CallContext`: the `x-request-id` the client sent (else
//!   its `traceparent`'s trace id, else a generated id) is echoed in the
//!   response header and the body, and the method decides whether a
//!   failure may be repeated (a `GET` changed nothing, a `POST` may have
//!   taken effect).
//!
//! Run: `cargo run -p envelope-test-suite --example http_server --features
//! axum -- [PORT]`. The port is the first argument, else
//! `ENVELOPE_HTTP_PORT`, else 3000; `0` takes a free one. The server
//! listens on 127.0.0.1 only and prints `listening on http://ADDRESS`.
//!
//! | request | answer |
//! |---|---|
//! | `GET /tables?prefix=&limit=` | `200`, the table names (those starting with `prefix`, at most `limit`) |
//! | `GET /tables/{table}` | `200`, the columns; `404` `TABLE_NOT_FOUND` with near-miss names |
//! | `GET /tables/{table}/columns/{index}` | `200`, the column at `index` (from 0, at most 255); `404` `COLUMN_NOT_FOUND` past the last |
//! | `GET /tables/{table}/row_count` | `200`; `503` `STATS_REFRESHING` with `Retry-After: 2` for `EMPLOYEES`; `503` `TABLE_LOCKED`, retryable, for `JOB_HISTORY` |
//! | `POST /tables/{table}/notes` with `{"note"}` | `200`, the table's notes; `503` `TABLE_LOCKED` for `JOB_HISTORY`, not retryable: the write may have taken effect |
//! | `POST /tables/{table}/keyed_notes` with `{"note"}` and an `Idempotency-Key` | the same write, at most once per key: a repeat gets the first answer (`Idempotent-Replayed: true`), `409` while it runs, `422` for the key with another note, `400` without a key; its `TABLE_LOCKED` is retryable with the key; `DEPARTMENTS` answers after 2 s (its replica), and a client that hangs up before then gets the stored answer when it repeats |
//! | `POST /find_column` with `{"table", "column", "case"}` | `200`; `400` `INVALID_ARGUMENTS` naming the bad argument; `404` `TABLE_NOT_FOUND` / `COLUMN_NOT_FOUND` |
//! | `GET /tables/{table}/export` | `502` `STORE_OFFLINE`: the export store is down in this demo; the body holds the class's generic message, not the store's host name |
//! | any other path, any other method | `404` `ROUTE_NOT_FOUND`, `405` `METHOD_NOT_ALLOWED` |
//!
//! ```sh
//! curl -i http://127.0.0.1:3000/tables/EMPLOYES
//! ```
//!
//! `tests/http_e2e.rs` starts this server on a free port and drives it
//! with an HTTP client.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use axum::serve;
use envelope::Envelope;
use envelope::axum::{Json, Keys, Path, Query, RouterExt, keyed};
use envelope::idempotency::MemoryStore;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[path = "support/catalog_error.rs"]
mod catalog_error;

use catalog_error::CatalogError;

/// The variable that names the port when no argument does.
pub const PORT_VAR: &str = "ENVELOPE_HTTP_PORT";

#[path = "support/catalog_data.rs"]
mod catalog_data;

use catalog_data::{TABLES, open, row_count as count_rows, table};

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
    },
}

/// The query of `GET /tables`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListArgs {
    /// Only the tables whose name starts with this.
    #[serde(default)]
    prefix: String,
    /// At most this many names.
    limit: Option<u8>,
}

/// The body of `POST /find_column`.
#[derive(Deserialize, JsonSchema)]
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
#[derive(Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Case {
    /// Byte for byte.
    #[default]
    Exact,
    /// Ignoring ASCII case.
    Insensitive,
}

/// The body of `POST /tables/{table}/notes`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoteArgs {
    /// The note to append to the table's notes.
    note: String,
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

/// The answer of `POST /tables/{table}/notes`.
#[derive(Serialize)]
struct Notes {
    table: &'static str,
    notes: Vec<String>,
}

/// The notes of each table, in the order they were added.
type NoteStore = Arc<Mutex<BTreeMap<&'static str, Vec<String>>>>;

async fn list_tables(Query(args): Query<ListArgs>) -> Json<TableList> {
    let names = TABLES.iter().map(|t| t.name);
    let names = names.filter(|name| name.starts_with(&args.prefix));
    Json(TableList {
        tables: names
            .take(args.limit.map_or(usize::MAX, usize::from))
            .collect(),
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

/// Two path parameters read by position.
async fn column_at(Path((name, index)): Path<(String, u8)>) -> Result<Json<Column>, CatalogError> {
    let table = table(&name)?;
    let Some(&(name, r#type)) = table.columns.get(usize::from(index)) else {
        return Err(CatalogError::ColumnNotFound {
            table: table.name.to_owned(),
            column: index.to_string(),
            candidates: Vec::new(),
        });
    };
    Ok(Json(Column { name, r#type }))
}

async fn row_count(Path(name): Path<String>) -> Result<Json<RowCount>, CatalogError> {
    let table = open(&name)?;
    Ok(Json(RowCount {
        table: table.name,
        rows: count_rows(table)?,
    }))
}

/// A write that is neither idempotent nor read-only: each request adds a
/// note, so a failed `POST` may not be repeated blindly.
async fn add_note(
    State(store): State<NoteStore>,
    Path(name): Path<String>,
    Json(NoteArgs { note }): Json<NoteArgs>,
) -> Result<Json<Notes>, CatalogError> {
    let table = open(&name)?;
    let notes = {
        let mut store = store
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let notes = store.entry(table.name).or_default();
        notes.push(note);
        notes.clone()
    };
    if table.name == "DEPARTMENTS" {
        // Replicated: the note is written, the answer waits for the
        // replica's acknowledgement.
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    }
    Ok(Json(Notes {
        table: table.name,
        notes,
    }))
}

async fn find_column(Json(args): Json<ColumnArgs>) -> Result<Json<Column>, CatalogError> {
    let ColumnArgs {
        table: name,
        column,
        case,
    } = args;
    let table = table(&name)?;
    let matches = |c: &str| match case {
        Case::Exact => c == column,
        Case::Insensitive => c.eq_ignore_ascii_case(&column),
    };
    let Some(&(name, r#type)) = table.columns.iter().find(|(c, _)| matches(c)) else {
        return Err(CatalogError::ColumnNotFound {
            table: table.name.to_owned(),
            candidates: envelope::fuzzy::suggest(&column, table.columns.iter().map(|(c, _)| *c), 3),
            column,
        });
    };
    Ok(Json(Column { name, r#type }))
}

/// Always fails: the export store is down in this demo.
async fn export(Path(_table): Path<String>) -> Result<String, ExportError> {
    Err(ExportError::StoreOffline {
        host: EXPORT_STORE.to_owned(),
        source: std::io::ErrorKind::ConnectionRefused.into(),
    })
}

/// The API's routes; every failure answers in problem details.
pub fn app() -> Router {
    Router::new()
        .route("/tables", get(list_tables))
        .route("/tables/{table}", get(describe_table))
        .route("/tables/{table}/columns/{index}", get(column_at))
        .route("/tables/{table}/row_count", get(row_count))
        .route("/tables/{table}/notes", post(add_note))
        // The same write, keyed: each key adds its note once.
        .route(
            "/tables/{table}/keyed_notes",
            post(add_note).route_layer(axum::middleware::from_fn_with_state(
                Keys::required(MemoryStore::new()),
                keyed,
            )),
        )
        .route("/tables/{table}/export", get(export))
        .route("/find_column", post(find_column))
        .with_state(NoteStore::default())
        .answer_failures()
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
    // The operator's log: one line per failure, on stderr.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .without_time()
        .init();
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let listener = tokio::net::TcpListener::bind(address).await?;
    println!("listening on http://{}", listener.local_addr()?);
    serve(listener, app()).await?;
    Ok(())
}
