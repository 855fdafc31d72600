//! The dataset both example servers (`mcp_server`, `http_server`) serve:
//! a tiny HR schema, and the lookups that fail: near-miss names, a table
//! whose statistics are being rebuilt, a table a migration holds locked.

use super::catalog_error::CatalogError;

/// One table of the dataset.
pub struct Table {
    /// The table name, in upper case.
    pub name: &'static str,
    /// `(column, SQL type)`, in order.
    pub columns: &'static [(&'static str, &'static str)],
    /// The row count its statistics give.
    pub rows: u64,
}

/// The dataset: a tiny HR schema.
pub const TABLES: &[Table] = &[
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
pub const REFRESHING: &[&str] = &["EMPLOYEES"];

/// How long a caller should wait for a statistics refresh, in milliseconds.
pub const REFRESH_WAIT_MS: u64 = 1500;

/// Tables a running migration holds locked: every MCP tool and HTTP
/// route that reads or writes one answers `TABLE_LOCKED` (`Transient`).
#[allow(dead_code)]
pub const LOCKED: &[&str] = &["JOB_HISTORY"];

/// The table called `name` for a tool that reads or writes it: `table`'s
/// answer, or `Locked` for a table in [`LOCKED`].
#[allow(dead_code)]
pub fn open(name: &str) -> Result<&'static Table, CatalogError> {
    let table = table(name)?;
    if LOCKED.contains(&table.name) {
        return Err(CatalogError::Locked {
            table: table.name.to_owned(),
        });
    }
    Ok(table)
}

/// The row count of `table` from its statistics, or `StatsRefreshing`
/// while they are rebuilt (a table in [`REFRESHING`]).
#[allow(dead_code)]
pub fn row_count(table: &Table) -> Result<u64, CatalogError> {
    if REFRESHING.contains(&table.name) {
        return Err(CatalogError::StatsRefreshing {
            table: table.name.to_owned(),
            retry_after_ms: REFRESH_WAIT_MS,
        });
    }
    Ok(table.rows)
}

/// The table called `name`, or `TableNotFound` with near-miss names.
pub fn table(name: &str) -> Result<&'static Table, CatalogError> {
    TABLES
        .iter()
        .find(|table| table.name == name)
        .ok_or_else(|| CatalogError::TableNotFound {
            table: name.to_owned(),
            candidates: envelope::fuzzy::suggest(name, TABLES.iter().map(|t| t.name), 3),
        })
}
