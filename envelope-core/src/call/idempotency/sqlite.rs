//! [`SqliteStore`]: keyed calls remembered in an SQLite table (feature
//! `rusqlite`).

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::{
    Claim, DEFAULT_LEASE, DEFAULT_TTL, Key, Scope, Store, StoreError, StoreFuture, millis, now_ms,
};

/// The table, created by [`SqliteStore::new`] when it is missing:
///
/// ```sql
/// CREATE TABLE IF NOT EXISTS envelope_idempotency (
///     scope TEXT NOT NULL,          -- Scope::to_key_string
///     key TEXT NOT NULL,
///     fingerprint TEXT NOT NULL,    -- the arguments, canonical JSON
///     answer TEXT,                  -- NULL while the call runs
///     expires_at_ms INTEGER NOT NULL,
///     PRIMARY KEY (scope, key)
/// ) WITHOUT ROWID;
/// ```
pub const SQLITE_SCHEMA: &str = "CREATE TABLE IF NOT EXISTS envelope_idempotency (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    answer TEXT,
    expires_at_ms INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS envelope_idempotency_expiry ON envelope_idempotency (expires_at_ms);";

/// A [`Store`] in an SQLite database (feature `rusqlite`): its records
/// outlive the server's process, so a call repeated after a restart still
/// gets its stored answer. The table is [`SQLITE_SCHEMA`]; every claim first
/// deletes the records that expired (a finished one after its TTL, default
/// 24 hours; a running one after its lease, default 10 minutes).
///
/// Each method runs one short transaction (`BEGIN IMMEDIATE`, so two
/// claims of one key, from two connections or processes, are serialized
/// by SQLite, which waits up to 5 s for another's lock: the connection's
/// `busy_timeout`) on the calling task, under a mutex: the store is for a
/// server on one host, whose calls are few next to what SQLite writes.
/// Keep the table in the database the tool writes to, and a call's write
/// and its key's record share the file's durability.
#[derive(Debug)]
pub struct SqliteStore {
    connection: Mutex<Connection>,
    ttl: Duration,
    lease: Duration,
}

impl SqliteStore {
    /// The store on `connection`, creating its table when missing.
    ///
    /// # Errors
    ///
    /// SQLite's, when the table cannot be created.
    pub fn new(connection: Connection) -> Result<Self, StoreError> {
        connection
            .execute_batch(SQLITE_SCHEMA)
            .map_err(StoreError::new)?;
        Ok(SqliteStore {
            connection: Mutex::new(connection),
            ttl: DEFAULT_TTL,
            lease: DEFAULT_LEASE,
        })
    }

    /// The store in the database file at `path` (created when missing).
    ///
    /// # Errors
    ///
    /// SQLite's, when the file cannot be opened or the table created.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        Self::new(Connection::open(path).map_err(StoreError::new)?)
    }

    /// Keeps a finished call's answer for `ttl`.
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// Holds a running call's key for `lease`.
    #[must_use]
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // SQLite keeps its own consistency; a panic elsewhere leaves the
        // connection usable.
        self.connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// [`Store::claim`] at `now_ms` (Unix epoch milliseconds).
    pub(crate) fn claim_at(
        &self,
        scope: &Scope,
        key: &Key,
        fingerprint: &str,
        now_ms: i64,
    ) -> Result<Claim, StoreError> {
        let mut connection = self.lock();
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::new)?;
        transaction
            .execute(
                "DELETE FROM envelope_idempotency WHERE expires_at_ms <= ?1",
                params![now_ms],
            )
            .map_err(StoreError::new)?;
        let scope = scope.to_key_string();
        let found: Option<(String, Option<String>)> = transaction
            .query_row(
                "SELECT fingerprint, answer FROM envelope_idempotency WHERE scope = ?1 AND key = ?2",
                params![scope, key.as_str()],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()
            .map_err(StoreError::new)?;
        let claim = match found {
            Some((stored, answer)) => Claim::of_record(&stored, answer, fingerprint),
            None => {
                transaction
                    .execute(
                        "INSERT INTO envelope_idempotency (scope, key, fingerprint, answer, expires_at_ms) VALUES (?1, ?2, ?3, NULL, ?4)",
                        params![scope, key.as_str(), fingerprint, now_ms.saturating_add(millis(self.lease))],
                    )
                    .map_err(StoreError::new)?;
                Claim::Run
            }
        };
        transaction.commit().map_err(StoreError::new)?;
        Ok(claim)
    }

    /// [`Store::finish`] at `now_ms`.
    pub(crate) fn finish_at(
        &self,
        scope: &Scope,
        key: &Key,
        answer: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.lock()
            .execute(
                "UPDATE envelope_idempotency SET answer = ?3, expires_at_ms = ?4 WHERE scope = ?1 AND key = ?2",
                params![scope.to_key_string(), key.as_str(), answer, now_ms.saturating_add(millis(self.ttl))],
            )
            .map_err(StoreError::new)?;
        Ok(())
    }

    fn release_now(&self, scope: &Scope, key: &Key) -> Result<(), StoreError> {
        self.lock()
            .execute(
                "DELETE FROM envelope_idempotency WHERE scope = ?1 AND key = ?2",
                params![scope.to_key_string(), key.as_str()],
            )
            .map_err(StoreError::new)?;
        Ok(())
    }
}

impl Store for SqliteStore {
    fn claim<'a>(
        &'a self,
        scope: &'a Scope,
        key: &'a Key,
        fingerprint: &'a str,
    ) -> StoreFuture<'a, Claim> {
        let claimed = self.claim_at(scope, key, fingerprint, now_ms());
        Box::pin(async move { claimed })
    }

    fn finish<'a>(
        &'a self,
        scope: &'a Scope,
        key: &'a Key,
        answer: &'a str,
    ) -> StoreFuture<'a, ()> {
        let finished = self.finish_at(scope, key, answer, now_ms());
        Box::pin(async move { finished })
    }

    fn release<'a>(&'a self, scope: &'a Scope, key: &'a Key) -> StoreFuture<'a, ()> {
        let released = self.release_now(scope, key);
        Box::pin(async move { released })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restart_keeps_the_answer() {
        let dir = std::env::temp_dir().join(format!("envelope-idempotency-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("keys.db");
        let _ = std::fs::remove_file(&path);
        let scope = Scope::new(None, "add_note");
        let key = Key::parse("k-1").unwrap();
        {
            let store = SqliteStore::open(&path).unwrap();
            assert_eq!(
                store.claim_at(&scope, &key, "{}", 1_000).unwrap(),
                Claim::Run
            );
            assert_eq!(
                store.claim_at(&scope, &key, "{}", 1_001).unwrap(),
                Claim::Running
            );
            store.finish_at(&scope, &key, "the answer", 1_002).unwrap();
        }
        // Another process's connection, after the first closed.
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(
            store.claim_at(&scope, &key, "{}", 2_000).unwrap(),
            Claim::Done("the answer".into())
        );
        assert_eq!(
            store.claim_at(&scope, &key, "{\"a\":1}", 2_000).unwrap(),
            Claim::Mismatch
        );
        // Past the TTL (24 h), the key is free.
        let later = 1_002 + 24 * 3_600_000 + 1;
        assert_eq!(
            store.claim_at(&scope, &key, "{}", later).unwrap(),
            Claim::Run
        );
        store.release_now(&scope, &key).unwrap();
        assert_eq!(
            store.claim_at(&scope, &key, "{\"a\":1}", later).unwrap(),
            Claim::Run
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
