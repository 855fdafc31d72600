//! One error enum, three derives: `thiserror::Error` for Rust callers and
//! logs, `Envelope` for the model, `serde::Serialize` for an audit trail.
//!
//! Each derive reads only its own attributes. `#[from]`, `#[source]` and
//! `#[error(transparent)]` keep their thiserror meaning; a caller-owned
//! variant without `message` uses the thiserror `Display` as its envelope
//! message; a server-owned one gets its class's generic text, so the path
//! in "disk /var/lib/catalog is full" never reaches the model.
//!
//! Run: `cargo run --example thiserror_compat`

use std::error::Error as _;

use envelope::Envelope;
use serde::Serialize;

/// Why one row of an import file was rejected.
#[derive(Debug, thiserror::Error, Serialize)]
#[error("column {column} expects {expected}")]
struct RowError {
    column: String,
    expected: String,
}

/// Failures of the storage layer, with their own envelope.
#[derive(Debug, thiserror::Error, Envelope, Serialize)]
enum StorageError {
    #[error("the storage pool is busy")]
    #[envelope(class = Busy, next_step = "wait, then retry the same call")]
    Busy {
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },
    #[error("disk /var/lib/catalog is full")]
    #[envelope(class = Internal)]
    DiskFull,
}

/// Failures of an import tool.
#[derive(Debug, thiserror::Error, Envelope, Serialize)]
#[serde(rename_all = "snake_case")]
#[envelope(suggested_tools(ObjectNotFound = "list_tables"))]
enum ImportError {
    #[error("table {table} does not exist")]
    #[envelope(class = ObjectNotFound)]
    TableMissing {
        table: String,
        #[envelope(fuzzy_matches)]
        #[serde(skip)]
        candidates: Vec<String>,
    },

    #[error("row {line} is malformed")]
    #[envelope(class = InvalidArguments, next_step = "fix row {line}, then import again")]
    BadRow {
        line: u32,
        #[source]
        cause: RowError,
    },

    #[error(transparent)]
    #[envelope(transparent)]
    Storage(#[from] StorageError),
}

fn import(table: &str, line: u32) -> Result<(), ImportError> {
    let tables = ["EMPLOYEES", "DEPARTMENTS"];
    if !tables.contains(&table) {
        return Err(ImportError::TableMissing {
            table: table.to_owned(),
            candidates: envelope::fuzzy::suggest(table, tables, 3),
        });
    }
    if line == 3 {
        return Err(ImportError::BadRow {
            line,
            cause: RowError {
                column: "hired".into(),
                expected: "a date".into(),
            },
        });
    }
    // `?` converts through thiserror's `#[from]`.
    Err(StorageError::Busy {
        retry_after_ms: 500,
    })?
}

fn show(err: &ImportError) {
    println!("Display:  {err}");
    if let Some(source) = err.source() {
        println!("source:   {source}");
    }
    println!(
        "serde:    {}",
        serde_json::to_string(err).unwrap_or_default()
    );
    println!("envelope: {}", err.to_envelope().to_json_string());
    println!();
}

fn main() {
    for (table, line) in [("EMPLOYES", 1), ("EMPLOYEES", 3), ("EMPLOYEES", 7)] {
        if let Err(err) = import(table, line) {
            show(&err);
        }
    }
    show(&ImportError::from(StorageError::DiskFull));
}
