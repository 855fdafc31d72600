//! `#[derive(Envelope)]` side by side with `thiserror::Error` and
//! `serde::Serialize` on the same enum: each derive reads only its own
//! attributes, `#[from]` / `#[source]` / `transparent` keep their thiserror
//! meaning, and the envelope's default message is the thiserror `Display`.

use std::error::Error as _;

use envelope::{Envelope, ErrorClass, ErrorEnvelope};
use serde::Serialize;

/// A source error: plain thiserror + serde, no envelope.
#[derive(Debug, PartialEq, thiserror::Error, Serialize)]
#[error("column {column} expects {expected}")]
struct RowError {
    column: String,
    expected: String,
}

/// An inner error with its own envelope, wrapped `transparent`ly below.
#[derive(Debug, thiserror::Error, Envelope, Serialize)]
enum StorageError {
    #[error("the storage pool is busy")]
    #[envelope(class = Busy, next_step = "wait, then retry the same call")]
    Busy {
        #[envelope(retry_after_ms)]
        retry_after_ms: u64,
    },
    // Server-owned and no `message`: the generic text, never this Display.
    #[error("disk /var/lib/catalog is full")]
    #[envelope(class = Internal)]
    DiskFull,
}

#[derive(Debug, thiserror::Error, Envelope, Serialize)]
#[serde(rename_all = "snake_case")]
#[envelope(suggested_tools(ObjectNotFound = "list_tables"))]
enum ImportError {
    // Caller-owned and no `message`: the envelope's message is this Display.
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

    #[error("invalid row: {0}")]
    #[envelope(class = InvalidArguments, code = "ROW_SHAPE")]
    Row(#[from] RowError),

    #[error(transparent)]
    #[envelope(transparent)]
    Storage(#[from] StorageError),
}

fn row_error() -> RowError {
    RowError {
        column: "hired".into(),
        expected: "a date".into(),
    }
}

fn import(fail: RowError) -> Result<(), ImportError> {
    Err(fail)?
}

fn store(fail: StorageError) -> Result<(), ImportError> {
    Err(fail)?;
    Ok(())
}

#[test]
fn default_message_is_the_thiserror_display() {
    let err = ImportError::TableMissing {
        table: "EMPLOYES".into(),
        candidates: vec!["EMPLOYEES".into()],
    };
    assert_eq!(err.to_string(), "table EMPLOYES does not exist");
    assert_eq!(
        err.to_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"table EMPLOYES does not exist","suggested_tool":"list_tables","fuzzy_matches":["EMPLOYEES"],"code":"TABLE_MISSING","category":"NotFound"}"#
    );
}

#[test]
fn source_attribute_keeps_working() {
    let err = ImportError::BadRow {
        line: 3,
        cause: row_error(),
    };
    let source = err.source().expect("#[source] field is the source");
    assert_eq!(source.to_string(), "column hired expects a date");
    assert_eq!(source.downcast_ref::<RowError>(), Some(&row_error()));
    assert_eq!(
        ErrorEnvelope::from(&err).to_json_string(),
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"row 3 is malformed","next_steps":["fix row 3, then import again"],"code":"BAD_ROW","category":"Validation"}"#
    );
}

#[test]
fn from_attribute_keeps_working() {
    let err = import(row_error()).unwrap_err();
    assert!(matches!(&err, ImportError::Row(inner) if *inner == row_error()));
    assert_eq!(
        err.source().map(ToString::to_string),
        Some("column hired expects a date".to_owned())
    );
    assert_eq!(
        err.into_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"INVALID_ARGUMENTS","message":"invalid row: column hired expects a date","code":"ROW_SHAPE","category":"Validation"}"#
    );
}

#[test]
fn transparent_on_both_derives_wraps_the_inner_error() {
    let err = store(StorageError::Busy {
        retry_after_ms: 500,
    })
    .unwrap_err();
    // thiserror: Display and source are the inner error's.
    assert_eq!(err.to_string(), "the storage pool is busy");
    assert!(err.source().is_none());
    // envelope: class, code and payload are the inner error's; `Busy` is
    // server-owned, so without a `message` the text is the class's.
    assert_eq!(err.error_class(), ErrorClass::Busy);
    assert_eq!(err.code(), Some("BUSY"));
    assert_eq!(
        err.to_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","next_steps":["wait, then retry the same call"],"retry_after_ms":500,"code":"BUSY","category":"Technical","retryable":true}"#
    );

    let err = ImportError::from(StorageError::DiskFull);
    assert_eq!(err.to_string(), "disk /var/lib/catalog is full");
    assert_eq!(
        err.to_envelope().to_json_string(),
        r#"{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"DISK_FULL","category":"Technical","effect":"unknown"}"#
    );
}

#[test]
fn serde_serialize_on_the_same_enum_does_not_conflict() {
    let missing = ImportError::TableMissing {
        table: "EMPLOYES".into(),
        candidates: vec!["EMPLOYEES".into()],
    };
    assert_eq!(
        serde_json::to_string(&missing).unwrap(),
        r#"{"table_missing":{"table":"EMPLOYES"}}"#
    );
    let bad_row = ImportError::BadRow {
        line: 3,
        cause: row_error(),
    };
    assert_eq!(
        serde_json::to_string(&bad_row).unwrap(),
        r#"{"bad_row":{"line":3,"cause":{"column":"hired","expected":"a date"}}}"#
    );
    let storage = ImportError::from(StorageError::Busy {
        retry_after_ms: 500,
    });
    assert_eq!(
        serde_json::to_string(&storage).unwrap(),
        r#"{"storage":{"Busy":{"retry_after_ms":500}}}"#
    );
}

#[test]
fn catalog_lists_every_variant() {
    let names: Vec<&str> = ImportError::catalog()
        .iter()
        .map(|spec| spec.name)
        .collect();
    assert_eq!(names, ["TableMissing", "BadRow", "Row", "Storage"]);
    assert_eq!(
        envelope::catalog_markdown(ImportError::catalog()),
        concat!(
            "| code | class | owner | category | effect | retryable | suggested tool | message template |\n",
            "|---|---|---|---|---|---|---|---|\n",
            "| `TABLE_MISSING` | `OBJECT_NOT_FOUND` | caller | `NotFound` | nothing | no | `list_tables` | (Display) |\n",
            "| `BAD_ROW` | `INVALID_ARGUMENTS` | caller | `Validation` | nothing | no | — | (Display) |\n",
            "| `ROW_SHAPE` | `INVALID_ARGUMENTS` | caller | `Validation` | nothing | no | — | (Display) |\n",
            "| — | *delegated* | — | — | — | — | — | variant `Storage` delegates its envelope |\n",
        )
    );
}
