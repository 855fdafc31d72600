//! The error enum of the `mcp_server` example: every failure of its tools,
//! described once (malformed arguments are the library's: see
//! `envelope::args`). Shared with `tests/catalog_readme.rs`, which keeps the
//! guide's table of these errors (`src/guide/integrations.md`) up to date.

// The catalog test only reads the catalog; it builds no variant.
#![allow(dead_code)]

use envelope::Envelope;

/// What can go wrong in the schema-catalog tools.
#[derive(Debug, thiserror::Error, Envelope)]
#[envelope(suggested_tools(ObjectNotFound = "list_tables"))]
pub enum CatalogError {
    /// No table of that name.
    #[error("table {table} does not exist")]
    #[envelope(
        class = ObjectNotFound,
        code = "TABLE_NOT_FOUND",
        message = "table {table} does not exist",
        next_step = "pick a table from fuzzy_matches, or call list_tables"
    )]
    TableNotFound {
        #[envelope(detail)]
        table: String,
        #[envelope(fuzzy_matches)]
        candidates: Vec<String>,
    },

    /// The table exists, the column does not.
    #[error("table {table} has no column {column}")]
    #[envelope(
        class = ObjectNotFound,
        code = "COLUMN_NOT_FOUND",
        message = "table {table} has no column {column}",
        suggested_tool = "describe_table",
        next_step = "pick a column from fuzzy_matches, or call describe_table on {table}"
    )]
    ColumnNotFound {
        #[envelope(detail)]
        table: String,
        #[envelope(detail)]
        column: String,
        #[envelope(fuzzy_matches)]
        candidates: Vec<String>,
    },

    /// Admission control: the statistics of the table are being rebuilt.
    #[error("statistics of {table} are being refreshed")]
    #[envelope(
        class = Busy,
        code = "STATS_REFRESHING",
        message = "statistics of {table} are being refreshed",
        next_step = "wait retry_after_ms milliseconds, then repeat the same call"
    )]
    StatsRefreshing {
        #[envelope(detail)]
        table: String,
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },

    /// A running migration holds the table's lock: reads and writes of it
    /// fail until it ends. The class, `Transient`, says nothing about what
    /// the failed call did; the call's declared behaviour does (a read
    /// changed nothing, a write may have taken effect).
    #[error("table {table} is locked by a running migration")]
    #[envelope(
        class = Transient,
        code = "TABLE_LOCKED",
        message = "table {table} is locked by a running migration",
        next_step = "wait a few seconds for the migration to end, then call again"
    )]
    Locked {
        #[envelope(detail)]
        table: String,
    },
}
