//! sqlx 0.9 (feature `sqlx`, through `sqlx-core`: no driver, runtime or
//! macros; sqlx 0.8 is feature `sqlx08`, [`sqlx08`](crate::sqlx08)): [`Envelope`](crate::Envelope) for `sqlx::Error`, for
//! PostgreSQL, MySQL and SQLite alike. It adds 66 crates
//! (`cargo tree -e normal,build`); sqlx 0.9 needs Rust 1.94.
//!
//! A database's own error is read by its kind (`DatabaseError::kind`),
//! then by its code: a SQLSTATE for PostgreSQL and MySQL, SQLite's result
//! code for SQLite.
//!
//! | error | class | code | effect |
//! |---|---|---|---|
//! | unique violation (SQLSTATE `23505`, MySQL `23000` duplicate key, SQLite `2067`/`1555`) | `ALREADY_EXISTS`; SQLite's columns named | `DB_UNIQUE` | nothing |
//! | foreign key violation (`23503`) | `PRECONDITION_FAILED` | `DB_FOREIGN_KEY` | nothing |
//! | not-null, check or exclusion violation (`23502`, `23514`, `23P01`), any other `23xxx` | `INVALID_ARGUMENTS` | `DB_CONSTRAINT` | nothing |
//! | data exception, class `22` (a value too long, out of range, not a number) | `INVALID_ARGUMENTS` | `DB_INVALID_VALUE` | nothing |
//! | serialization failure `40001`, deadlock `40P01`, any other `40xxx` (the transaction was rolled back) | `TRANSIENT`, retryable | `DB_SERIALIZATION` | nothing |
//! | lock not available `55P03`, insufficient resources class `53` (too many connections), SQLite `SQLITE_BUSY` / `SQLITE_LOCKED` (`5`, `6` and their extended codes) | `BUSY`, retryable, `retry_after_ms` [`DEFAULT_BUSY_RETRY_AFTER`](crate::DEFAULT_BUSY_RETRY_AFTER) or the call's own wait | `DB_BUSY` | nothing |
//! | query canceled `57014` (a statement timeout) | `TIMEOUT` | `DB_TIMEOUT` | unknown |
//! | connection exception, class `08`; operator intervention `57P01`-`57P03` (shutdown, cannot connect now) | `CONNECTION_FAILED`, retryable | `DB_CONNECTION` | unknown |
//! | any other database error (syntax, privileges of the server's database role `42501`, a missing table) | `INTERNAL` | `DB_ERROR` | unknown |
//! | `RowNotFound` | `OBJECT_NOT_FOUND` | `DB_NO_ROWS` | nothing |
//! | `PoolTimedOut` (no connection free in time) | `BUSY`, retryable, `retry_after_ms` as above | `DB_POOL_TIMEOUT` | nothing |
//! | `PoolClosed`, `WorkerCrashed` | `TRANSIENT`, retryable | `DB_UNAVAILABLE` | nothing |
//! | `Io`, `Tls` | `CONNECTION_FAILED`, retryable | `DB_CONNECTION` | unknown |
//! | anything else: the server's configuration, SQL, types or migrations | `INTERNAL` | `DB_ERROR` | unknown |
//!
//! The messages are fixed texts for the caller-owned classes and the
//! class's generic message otherwise, never the database's (it quotes SQL,
//! values, table and constraint names, host names).
//!
//! Every `BUSY` row waits one second
//! ([`DEFAULT_BUSY_RETRY_AFTER`](crate::DEFAULT_BUSY_RETRY_AFTER)) unless
//! the call's context sets another
//! ([`CallContext::with_busy_retry_after`](crate::CallContext::with_busy_retry_after),
//! or the router's setting of the same name: from the pool's acquire
//! timeout, say), with the step "wait retry_after_ms milliseconds, then
//! repeat the same call". A unique violation says what to do (use another
//! value, or the existing record); on SQLite it names the columns the
//! message reports, without their table. PostgreSQL and MySQL name only a
//! constraint or an index in what `sqlx-core` carries, so their columns
//! are not named.
//!
//! A retryable class with effect `unknown` (a connection lost mid-query)
//! is retryable only for an idempotent call: the retry rule, and the
//! call's behaviour through a [`CallContext`](crate::CallContext), decide.

use ::sqlx_core as lib;

include!("sqlx/body.rs");
