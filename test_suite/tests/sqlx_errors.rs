//! `sqlx::Error` against a real database: sqlx's SQLite driver on a file in
//! the temporary directory (a unique violation, a missing row, a lock held
//! by another connection, a pool with no free connection).

use std::path::PathBuf;
use std::time::Duration;

use envelope::{Envelope, ErrorClass};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::{Connection, SqliteConnection};

/// A fresh database file, removed when dropped.
struct Db(PathBuf);

impl Db {
    async fn new(name: &str) -> Db {
        let path =
            std::env::temp_dir().join(format!("envelope-sqlx-{}-{name}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let db = Db(path);
        let mut connection = db.connect().await;
        sqlx::raw_sql(
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE);
             INSERT INTO notes (title) VALUES ('groceries');",
        )
        .execute(&mut connection)
        .await
        .unwrap();
        db
    }

    fn options(&self) -> SqliteConnectOptions {
        SqliteConnectOptions::new()
            .filename(&self.0)
            .create_if_missing(true)
            .busy_timeout(Duration::ZERO)
    }

    async fn connect(&self) -> SqliteConnection {
        SqliteConnection::connect_with(&self.options())
            .await
            .unwrap()
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[tokio::test]
async fn unique_violation_and_missing_row() {
    let db = Db::new("unique").await;
    let mut connection = db.connect().await;
    let error = sqlx::query("INSERT INTO notes (title) VALUES ('groceries')")
        .execute(&mut connection)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_json_string(),
        r#"{"isError":true,"error_class":"ALREADY_EXISTS","message":"a record with the same title already exists","next_steps":["use another title, or look up the existing record and use it instead of creating another"],"code":"DB_UNIQUE","category":"Duplicate","details":{"columns":["title"]}}"#
    );
    assert!(!error.to_json_string().contains("notes.title"));

    // `.err().unwrap()`: sqlx 0.8's rows are not `Debug`.
    let missing = sqlx::query("SELECT title FROM notes WHERE id = 42")
        .fetch_one(&mut connection)
        .await
        .err()
        .unwrap();
    assert_eq!(
        missing.to_json_string(),
        r#"{"isError":true,"error_class":"OBJECT_NOT_FOUND","message":"no row matched the request","code":"DB_NO_ROWS","category":"NotFound"}"#
    );

    let bad_sql = sqlx::query("SELECT * FROM nowhere")
        .fetch_all(&mut connection)
        .await
        .err()
        .unwrap();
    assert_eq!(bad_sql.error_class(), ErrorClass::Internal);
    assert_eq!(bad_sql.code(), Some("DB_ERROR"));
    assert!(!bad_sql.to_json_string().contains("nowhere"));
}

#[tokio::test]
async fn a_lock_held_by_another_connection_is_busy() {
    let db = Db::new("busy").await;
    let mut holder = db.connect().await;
    sqlx::raw_sql("BEGIN EXCLUSIVE; INSERT INTO notes (title) VALUES ('held');")
        .execute(&mut holder)
        .await
        .unwrap();
    let mut other = db.connect().await;
    let error = sqlx::query("INSERT INTO notes (title) VALUES ('blocked')")
        .execute(&mut other)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","next_steps":["wait retry_after_ms milliseconds, then repeat the same call"],"retry_after_ms":1000,"code":"DB_BUSY","category":"Technical","retryable":true}"#
    );
}

#[tokio::test]
async fn a_pool_with_no_free_connection_times_out() {
    let db = Db::new("pool").await;
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .acquire_timeout(Duration::from_millis(50))
        .connect_with(db.options())
        .await
        .unwrap();
    let _held = pool.acquire().await.unwrap();
    let error = pool.acquire().await.unwrap_err();
    assert_eq!(
        error.to_json_string(),
        r#"{"isError":true,"error_class":"BUSY","message":"the server is busy","next_steps":["wait retry_after_ms milliseconds, then repeat the same call"],"retry_after_ms":1000,"code":"DB_POOL_TIMEOUT","category":"Technical","retryable":true}"#
    );
}
