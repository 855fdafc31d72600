//! The SQLite file of the keyed-call tests' notes, whose rows they count.

use std::path::{Path, PathBuf};

/// A database of its own for each test (`name`), holding an empty `notes`
/// table, in a folder of this test binary's and process's own.
pub fn database(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "envelope-{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.db"));
    let _ = std::fs::remove_file(&path);
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        .unwrap();
    path
}

/// How many notes the database at `path` holds.
pub fn rows(path: &Path) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row("SELECT count(*) FROM notes", [], |row| row.get(0))
        .unwrap()
}
