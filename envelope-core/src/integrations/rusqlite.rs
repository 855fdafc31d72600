//! rusqlite 0.31 to 0.43 (feature `rusqlite`): [`Envelope`](crate::Envelope)
//! for `rusqlite::Error`, so a server on SQLite wraps it with
//! `#[envelope(transparent)]`, `?`s it into an `ErrorEnvelope`, or finds it
//! in a source chain ([`from_error`](crate::from_error)), with no `From`
//! impl or `match` of its own. The feature also adds
//! `idempotency::SqliteStore`, keyed calls' answers kept across restarts.
//!
//! One feature covers the whole range: rusqlite's `links = "sqlite3"`
//! allows one copy per build, so cargo picks the user's own, built with
//! rusqlite's `bundled` feature or linked to the system's SQLite, as the
//! user's rusqlite does. A system SQLite must be as new as that rusqlite
//! release needs, which is rusqlite's rule, not this crate's: rusqlite
//! 0.43 calls `sqlite3_set_clientdata` (SQLite 3.44), so it fails to link
//! against Debian 12's SQLite 3.40; there, use `bundled` or rusqlite 0.39.
//! It adds 8 crates (`cargo tree -e normal,build`), and SQLite as the
//! user's rusqlite builds it; rusqlite 0.41 and later need Rust 1.89.
//!
//! | error | class | code | effect |
//! |---|---|---|---|
//! | `SQLITE_BUSY`, `SQLITE_LOCKED` (and their extended codes): another connection holds the lock | `BUSY`, retryable, `retry_after_ms` [`DEFAULT_BUSY_RETRY_AFTER`](crate::DEFAULT_BUSY_RETRY_AFTER) or the call's own wait | `SQLITE_BUSY`, `SQLITE_LOCKED` | nothing: SQLite ran no part of the statement |
//! | `SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_CONSTRAINT_PRIMARYKEY` | `ALREADY_EXISTS`, naming the columns | `SQLITE_UNIQUE` | nothing |
//! | `SQLITE_CONSTRAINT_FOREIGNKEY` | `PRECONDITION_FAILED` | `SQLITE_FOREIGN_KEY` | nothing |
//! | `SQLITE_CONSTRAINT_NOTNULL`, `SQLITE_CONSTRAINT_CHECK`, any other constraint, `SQLITE_TOOBIG`, `SQLITE_MISMATCH` | `INVALID_ARGUMENTS` | `SQLITE_CONSTRAINT`, `SQLITE_TOO_BIG`, `SQLITE_MISMATCH` | nothing |
//! | `QueryReturnedNoRows` | `OBJECT_NOT_FOUND` | `SQLITE_NO_ROWS` | nothing |
//! | `SQLITE_INTERRUPT` (`sqlite3_interrupt`) | `CANCELLED` | `SQLITE_INTERRUPTED` | unknown |
//! | `SQLITE_FULL` | `INTERNAL` | `SQLITE_FULL` | unknown |
//! | `SQLITE_READONLY`, `SQLITE_CANTOPEN`, `SQLITE_PERM`, `SQLITE_AUTH`, `SQLITE_NOTADB`, `SQLITE_CORRUPT`, `SQLITE_IOERR`, `SQLITE_NOMEM` | `INTERNAL` | `SQLITE_READ_ONLY`, `SQLITE_CANNOT_OPEN`, `SQLITE_PERMISSION`, `SQLITE_NOT_A_DATABASE`, `SQLITE_CORRUPT`, `SQLITE_IO`, `SQLITE_NO_MEMORY` | unknown |
//! | anything else: the server's SQL or code (a bad column index, a type conversion, `SQLITE_ERROR`, `SQLITE_MISUSE`, ...) | `INTERNAL` | `SQLITE_ERROR` | unknown |
//!
//! The database is the server's resource: its file's permissions, space
//! and integrity are never the caller's mistake. A constraint fails on
//! values the caller usually chose (a duplicate name), so those classes are
//! the caller's; the message is a fixed text per row, never SQLite's (which
//! names the table and column: `UNIQUE constraint failed: notes.title`),
//! and a server-owned class gets the class's generic message. A failed
//! `COMMIT` other than `BUSY` is `INTERNAL` with effect `unknown`: the
//! writes may or may not be durable, so the call is not repeated blindly.
//!
//! A busy database answers with a delay and a step: `retry_after_ms` is
//! one second ([`DEFAULT_BUSY_RETRY_AFTER`](crate::DEFAULT_BUSY_RETRY_AFTER))
//! unless the call's context sets another
//! ([`CallContext::with_busy_retry_after`](crate::CallContext::with_busy_retry_after),
//! or the router's setting of the same name: from the connection's busy
//! timeout, say), and the step "wait retry_after_ms milliseconds, then repeat the same call".
//! SQLite returns `SQLITE_BUSY` only after the connection's busy handler
//! gave up (rusqlite waits up to five seconds by default).
//!
//! A unique violation names the columns SQLite reports, without their
//! table (`UNIQUE constraint failed: notes.title` reads "a record with the
//! same title already exists", `details: {"columns": ["title"]}`), and its
//! step says to use another value or the existing record.

use rusqlite::ffi;

use crate::convert::std_errors::{
    GENERIC, Row, StdError, foreign_envelope, name_unique_columns, row, sqlite_unique_columns,
};
use crate::model::class::ErrorClass;
use crate::model::envelope::ErrorEnvelope;

foreign_envelope!(rusqlite::Error);

/// The table above. SQLite rejects a statement before running any part of
/// it on a lock or a constraint, so those rows keep their classes' effect,
/// `nothing`.
impl StdError for rusqlite::Error {
    /// A unique violation names its columns and says what to do (see
    /// the module docs).
    fn add_details(&self, envelope: &mut ErrorEnvelope) {
        if let rusqlite::Error::SqliteFailure(failure, message) = self
            && matches!(
                failure.extended_code,
                ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY
            )
        {
            let columns = message.as_deref().map(sqlite_unique_columns).unwrap_or_default();
            name_unique_columns(envelope, &columns);
        }
    }

    fn row(&self) -> Row {
        use ErrorClass as C;
        let failure = match self {
            rusqlite::Error::SqliteFailure(failure, _) => failure,
            rusqlite::Error::QueryReturnedNoRows => {
                return row(
                    C::ObjectNotFound,
                    "SQLITE_NO_ROWS",
                    "no row matched the request",
                );
            }
            _ => return row(C::Internal, "SQLITE_ERROR", GENERIC),
        };
        match failure.code {
            ffi::ErrorCode::DatabaseBusy => row(C::Busy, "SQLITE_BUSY", GENERIC),
            ffi::ErrorCode::DatabaseLocked => row(C::Busy, "SQLITE_LOCKED", GENERIC),
            ffi::ErrorCode::ConstraintViolation => match failure.extended_code {
                ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => row(
                    C::AlreadyExists,
                    "SQLITE_UNIQUE",
                    "a record with the same unique value already exists",
                ),
                ffi::SQLITE_CONSTRAINT_FOREIGNKEY => row(
                    C::PreconditionFailed,
                    "SQLITE_FOREIGN_KEY",
                    "the record refers to a record that does not exist",
                ),
                _ => row(
                    C::InvalidArguments,
                    "SQLITE_CONSTRAINT",
                    "a value breaks a rule of the stored data (a required value is missing, or a check failed)",
                ),
            },
            ffi::ErrorCode::TooBig => row(
                C::InvalidArguments,
                "SQLITE_TOO_BIG",
                "a value is larger than the database accepts",
            ),
            ffi::ErrorCode::TypeMismatch => row(
                C::InvalidArguments,
                "SQLITE_MISMATCH",
                "a value has the wrong type for where it is stored",
            ),
            ffi::ErrorCode::OperationInterrupted => row(
                C::Cancelled,
                "SQLITE_INTERRUPTED",
                "the database operation was interrupted",
            ),
            ffi::ErrorCode::DiskFull => row(C::Internal, "SQLITE_FULL", GENERIC),
            ffi::ErrorCode::ReadOnly => row(C::Internal, "SQLITE_READ_ONLY", GENERIC),
            ffi::ErrorCode::CannotOpen => row(C::Internal, "SQLITE_CANNOT_OPEN", GENERIC),
            ffi::ErrorCode::PermissionDenied | ffi::ErrorCode::AuthorizationForStatementDenied => {
                row(C::Internal, "SQLITE_PERMISSION", GENERIC)
            }
            ffi::ErrorCode::NotADatabase => row(C::Internal, "SQLITE_NOT_A_DATABASE", GENERIC),
            ffi::ErrorCode::DatabaseCorrupt => row(C::Internal, "SQLITE_CORRUPT", GENERIC),
            ffi::ErrorCode::SystemIoFailure => row(C::Internal, "SQLITE_IO", GENERIC),
            ffi::ErrorCode::OutOfMemory => row(C::Internal, "SQLITE_NO_MEMORY", GENERIC),
            _ => row(C::Internal, "SQLITE_ERROR", GENERIC),
        }
    }
}
