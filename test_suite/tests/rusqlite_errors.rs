//! `rusqlite::Error` against a real SQLite database (rusqlite's bundled
//! SQLite, a file in the temporary directory): a lock held by a second
//! connection, real constraint violations, a missing row, a database that
//! cannot be opened or written.

use std::path::PathBuf;

use envelope::{Effect, Envelope, ErrorClass};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};

/// A fresh database file, removed when dropped.
struct Db(PathBuf);

impl Db {
    fn new(name: &str) -> Db {
        let path = std::env::temp_dir().join(format!(
            "envelope-rusqlite-{}-{name}.db",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        let db = Db(path);
        db.open()
            .execute_batch(
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, \
                 folder INTEGER REFERENCES folders(id), CHECK (length(title) < 40));
                 CREATE TABLE folders (id INTEGER PRIMARY KEY);
                 INSERT INTO notes (title) VALUES ('groceries');",
            )
            .unwrap();
        db
    }

    fn open(&self) -> Connection {
        let connection = Connection::open(&self.0).unwrap();
        connection
            .execute_batch("PRAGMA foreign_keys = ON")
            .unwrap();
        connection
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_lock_held_by_another_connection_is_busy() {
    let db = Db::new("busy");
    let mut holder = db.open();
    let held = holder
        .transaction_with_behavior(TransactionBehavior::Exclusive)
        .unwrap();
    held.execute("INSERT INTO notes (title) VALUES ('held')", [])
        .unwrap();
    let other = db.open();
    other.busy_timeout(std::time::Duration::ZERO).unwrap();
    let error = other
        .execute("INSERT INTO notes (title) VALUES ('blocked')", [])
        .unwrap_err();
    assert_eq!(
        error.to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","next_steps":["wait retry_after_ms milliseconds, then repeat the same call"],"retry_after_ms":1000,"code":"SQLITE_BUSY","category":"Technical","retryable":true}"#
    );
    // Nothing of SQLite's text ("database is locked").
    assert!(!error.to_json_string().contains("locked"));
    // A server that waits longer says so on the call (or its router); an
    // envelope whose hint its error set itself keeps it.
    let wait = std::time::Duration::from_millis(5250);
    let call = envelope::CallContext::new("add_note").with_busy_retry_after(wait);
    let answered = call.fail(error.to_envelope());
    assert_eq!(answered.retry_after_ms, Some(5250));
    assert_eq!(
        answered.next_steps,
        ["wait retry_after_ms milliseconds, then repeat the same call"]
    );
    let own = error.to_envelope().with_retry_after_ms(300);
    assert_eq!(call.fail(own).retry_after_ms, Some(300));
    // Another call in the same process still says one second.
    let other = envelope::CallContext::new("add_note").fail(error.to_envelope());
    assert_eq!(other.retry_after_ms, Some(1000));
    drop(held);
}

#[test]
fn constraint_violations_are_the_caller_s() {
    let db = Db::new("constraints");
    let connection = db.open();
    let insert = |sql: &str| connection.execute(sql, []).unwrap_err();

    let unique = insert("INSERT INTO notes (title) VALUES ('groceries')");
    assert_eq!(
        unique.to_json_string(),
        r#"{"isError":true,"error_class":"ALREADY_EXISTS","message":"a record with the same title already exists","next_steps":["use another title, or look up the existing record and use it instead of creating another"],"code":"SQLITE_UNIQUE","category":"Duplicate","details":{"columns":["title"]}}"#
    );
    // SQLite's message names the table and column: the column only, and
    // never the value.
    assert!(unique.to_string().contains("notes.title"));
    assert!(!unique.to_json_string().contains("notes"));
    assert!(!unique.to_json_string().contains("groceries"));

    let primary = insert("INSERT INTO notes (id, title) VALUES (1, 'again')");
    assert_eq!(primary.code(), Some("SQLITE_UNIQUE"));
    let primary = primary.to_envelope();
    assert_eq!(primary.message, "a record with the same id already exists");
    assert_eq!(primary.details["columns"], serde_json::json!(["id"]));

    // A composite key: every column, in the constraint's order.
    connection
        .execute_batch(
            "CREATE TABLE tags (note INTEGER, tag TEXT, UNIQUE (note, tag)); \
             INSERT INTO tags VALUES (1, 'x');",
        )
        .unwrap();
    let pair = insert("INSERT INTO tags VALUES (1, 'x')").to_envelope();
    assert_eq!(
        pair.message,
        "a record with the same note and tag already exists"
    );
    assert_eq!(
        pair.next_steps,
        [
            "use another note and tag, or look up the existing record and use it instead of creating another"
        ]
    );

    let foreign = insert("INSERT INTO notes (title, folder) VALUES ('x', 99)");
    assert_eq!(foreign.error_class(), ErrorClass::PreconditionFailed);
    assert_eq!(foreign.code(), Some("SQLITE_FOREIGN_KEY"));

    for sql in [
        "INSERT INTO notes (title) VALUES (NULL)",
        "INSERT INTO notes (title) VALUES ('a title far longer than forty characters, sure')",
    ] {
        let envelope = insert(sql).to_envelope();
        assert_eq!(envelope.error_class, ErrorClass::InvalidArguments, "{sql}");
        assert_eq!(envelope.code.as_deref(), Some("SQLITE_CONSTRAINT"), "{sql}");
        assert_eq!(envelope.effect, Effect::Nothing, "{sql}");
    }
}

#[test]
fn a_missing_row_and_the_server_s_own_failures() {
    let db = Db::new("server");
    let connection = db.open();
    let missing = connection
        .query_row("SELECT title FROM notes WHERE id = 42", [], |row| {
            row.get::<_, String>(0)
        })
        .unwrap_err();
    assert_eq!(
        missing.to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no row matched the request","code":"SQLITE_NO_ROWS","category":"NotFound"}"#
    );

    // The server's SQL: a table that does not exist.
    let bad_sql = connection
        .execute("INSERT INTO nowhere VALUES (1)", [])
        .unwrap_err();
    assert_eq!(
        bad_sql.to_json_string(),
        r#"{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"SQLITE_ERROR","category":"Technical","effect":"unknown"}"#
    );

    // A database the server cannot open, one it may only read.
    let nowhere = std::env::temp_dir().join("envelope-no-such-dir/notes.db");
    let cannot_open =
        Connection::open_with_flags(&nowhere, OpenFlags::SQLITE_OPEN_READ_WRITE).unwrap_err();
    assert_eq!(cannot_open.error_class(), ErrorClass::Internal);
    assert_eq!(cannot_open.code(), Some("SQLITE_CANNOT_OPEN"));
    assert!(
        !cannot_open
            .to_json_string()
            .contains("envelope-no-such-dir")
    );
    let read_only = Connection::open_with_flags(&db.0, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let error = read_only
        .execute("INSERT INTO notes (title) VALUES ('w')", [])
        .unwrap_err();
    assert_eq!(error.code(), Some("SQLITE_READ_ONLY"));
    assert_eq!(error.error_class().owner(), envelope::Owner::Server);
}

/// A server's `?` on a rusqlite call, through a derived outer error and
/// through `from_error` on a boxed chain.
#[test]
fn transparent_and_in_a_chain() {
    #[derive(Debug, thiserror::Error, Envelope)]
    enum NotesError {
        #[error(transparent)]
        #[envelope(transparent)]
        Db(#[from] rusqlite::Error),
    }
    let db = Db::new("transparent");
    let connection = db.open();
    let error: NotesError = connection
        .execute("INSERT INTO notes (title) VALUES ('groceries')", [])
        .unwrap_err()
        .into();
    assert_eq!(error.code(), Some("SQLITE_UNIQUE"));
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(
        connection
            .execute("INSERT INTO notes (title) VALUES ('groceries')", [])
            .unwrap_err(),
    );
    assert_eq!(
        envelope::from_error(boxed.as_ref()).code.as_deref(),
        Some("SQLITE_UNIQUE")
    );
}
