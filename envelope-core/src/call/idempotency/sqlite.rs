//! [`SqliteStore`]: keyed calls remembered in an SQLite table (feature
//! `rusqlite`).

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::{
    Claim, Claimed, DEFAULT_LEASE, DEFAULT_TTL, Key, Record, Scope, Store, StoreError, StoreFuture,
    Token, millis, now_ms,
};

/// The table, created by [`SqliteStore::new`] when it is missing:
///
/// ```sql
/// CREATE TABLE IF NOT EXISTS envelope_idempotency (
///     scope TEXT NOT NULL,          -- Scope::to_key_string
///     key TEXT NOT NULL,
///     fingerprint TEXT NOT NULL,    -- the arguments, canonical JSON
///     answer TEXT,                  -- NULL while the call runs
///     expires_at_ms INTEGER NOT NULL,  -- the lease's end, then the TTL's
///     token INTEGER NOT NULL,       -- the claim's fencing token
///     committed INTEGER NOT NULL DEFAULT 0,  -- 1: a write committed with it
///     PRIMARY KEY (scope, key)
/// ) WITHOUT ROWID;
/// ```
pub const SQLITE_SCHEMA: &str = "CREATE TABLE IF NOT EXISTS envelope_idempotency (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    answer TEXT,
    expires_at_ms INTEGER NOT NULL,
    token INTEGER NOT NULL,
    committed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS envelope_idempotency_expiry ON envelope_idempotency (expires_at_ms);";

/// A [`Store`] in an SQLite database (feature `rusqlite`): its records
/// outlive the server's process, so a call repeated after a restart still
/// gets its stored answer. The table is [`SQLITE_SCHEMA`]; every claim first
/// deletes the records that expired (a finished one after its TTL, default
/// 24 hours; a running one a TTL after its lease, default 10 minutes, ran
/// out: until then a repeat is told [`Claim::Expired`]).
///
/// A tool whose write is in the same database makes the call exactly once
/// across a crash with [`SqliteStore::record_in`]: the write and the key's
/// record commit together or not at all.
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
                "DELETE FROM envelope_idempotency WHERE expires_at_ms <= ?1 AND (answer IS NOT NULL OR expires_at_ms <= ?2)",
                params![now_ms, now_ms.saturating_sub(millis(self.ttl))],
            )
            .map_err(StoreError::new)?;
        let scope = scope.to_key_string();
        let found: Option<(String, Option<String>, bool, i64)> = transaction
            .query_row(
                "SELECT fingerprint, answer, committed, expires_at_ms FROM envelope_idempotency WHERE scope = ?1 AND key = ?2",
                params![scope, key.as_str()],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .optional()
            .map_err(StoreError::new)?;
        let lease_ends = now_ms.saturating_add(millis(self.lease));
        let claim = match found {
            Some((stored, answer, committed, expires_at_ms)) => {
                let claim = Claim::of_record(
                    Record {
                        fingerprint: &stored,
                        answered: answer.is_some(),
                        committed,
                        lease_over: expires_at_ms <= now_ms,
                    },
                    || answer.clone().unwrap_or_default(),
                    fingerprint,
                );
                if let Claim::Expired(token) = claim {
                    transaction
                        .execute(
                            "UPDATE envelope_idempotency SET token = ?3, expires_at_ms = ?4 WHERE scope = ?1 AND key = ?2",
                            params![scope, key.as_str(), token.raw(), lease_ends],
                        )
                        .map_err(StoreError::new)?;
                }
                claim
            }
            None => {
                let token = Token::random();
                transaction
                    .execute(
                        "INSERT INTO envelope_idempotency (scope, key, fingerprint, answer, expires_at_ms, token) VALUES (?1, ?2, ?3, NULL, ?4, ?5)",
                        params![scope, key.as_str(), fingerprint, lease_ends, token.raw()],
                    )
                    .map_err(StoreError::new)?;
                Claim::Run(token)
            }
        };
        transaction.commit().map_err(StoreError::new)?;
        Ok(claim)
    }

    /// [`Store::finish`] at `now_ms`.
    pub(crate) fn finish_at(
        &self,
        claimed: &Claimed,
        answer: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let updated = self
            .lock()
            .execute(
                "UPDATE envelope_idempotency SET answer = ?4, expires_at_ms = ?5 WHERE scope = ?1 AND key = ?2 AND token = ?3 AND answer IS NULL",
                params![
                    claimed.scope.to_key_string(),
                    claimed.key.as_str(),
                    claimed.token.raw(),
                    answer,
                    now_ms.saturating_add(millis(self.ttl))
                ],
            )
            .map_err(StoreError::new)?;
        Ok(updated == 1)
    }

    fn release_now(&self, claimed: &Claimed) -> Result<(), StoreError> {
        self.lock()
            .execute(
                "DELETE FROM envelope_idempotency WHERE scope = ?1 AND key = ?2 AND token = ?3 AND answer IS NULL AND committed = 0",
                params![claimed.scope.to_key_string(), claimed.key.as_str(), claimed.token.raw()],
            )
            .map_err(StoreError::new)?;
        Ok(())
    }

    /// Marks the key of `claimed` as written, on `connection` inside the
    /// tool's own transaction, just before the tool commits: the write and
    /// the key's record then commit together or not at all, so a server
    /// that dies at any instant leaves either both (a repeat gets the
    /// stored answer, or [`Claim::Committed`] when the answer itself was
    /// lost) or neither (a repeat runs the call, once the lease is over).
    /// The table must be in the database `connection` writes to.
    ///
    /// `claimed` is the call's [`Claimed`]
    /// ([`CallContext::claim`](crate::CallContext::claim), or the request's
    /// `Extension<Claimed>` over HTTP); `None` (a call without a key) does
    /// nothing, so one tool serves keyed and unkeyed calls.
    ///
    /// In the tool: open the transaction, write, call `record_in` with the
    /// transaction, commit (the guide's `exactly_once` chapter shows it
    /// whole).
    ///
    /// # Errors
    ///
    /// [`StoreError::superseded`] when the call's lease ran out and another
    /// call took the key (its record is not this claim's any more): return
    /// it before committing, so the write rolls back. SQLite's error when
    /// the update fails.
    pub fn record_in(connection: &Connection, claimed: Option<&Claimed>) -> Result<(), StoreError> {
        let Some(claimed) = claimed else {
            return Ok(());
        };
        let updated = connection
            .execute(
                "UPDATE envelope_idempotency SET committed = 1 WHERE scope = ?1 AND key = ?2 AND token = ?3 AND answer IS NULL",
                params![claimed.scope.to_key_string(), claimed.key.as_str(), claimed.token.raw()],
            )
            .map_err(StoreError::new)?;
        if updated == 1 {
            Ok(())
        } else {
            Err(StoreError::superseded())
        }
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

    fn finish<'a>(&'a self, claimed: &'a Claimed, answer: &'a str) -> StoreFuture<'a, bool> {
        let finished = self.finish_at(claimed, answer, now_ms());
        Box::pin(async move { finished })
    }

    fn release<'a>(&'a self, claimed: &'a Claimed) -> StoreFuture<'a, ()> {
        let released = self.release_now(claimed);
        Box::pin(async move { released })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_db(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "envelope-idempotency-{name}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("keys.db");
        let _ = std::fs::remove_file(&path);
        (dir, path)
    }

    fn token(claim: Claim) -> Token {
        match claim {
            Claim::Run(token) | Claim::Expired(token) => token,
            other => panic!("{other:?}"),
        }
    }

    /// The value of a store's future, which is ready at once.
    fn ready<T>(mut future: StoreFuture<'_, T>) -> Result<T, StoreError> {
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut context) {
            std::task::Poll::Ready(value) => value,
            std::task::Poll::Pending => panic!("the SQLite store's future was not ready"),
        }
    }

    #[test]
    fn the_lease_runs_out_on_the_clock() {
        let store = SqliteStore::new(Connection::open_in_memory().unwrap())
            .unwrap()
            .with_lease(Duration::from_millis(20));
        let scope = Scope::new(None, "add_note");
        let key = Key::parse("k-1").unwrap();
        let first = token(ready(store.claim(&scope, &key, "{}")).unwrap());
        assert_eq!(
            ready(store.claim(&scope, &key, "{}")).unwrap(),
            Claim::Running
        );
        std::thread::sleep(Duration::from_millis(60));
        let Claim::Expired(second) = ready(store.claim(&scope, &key, "{}")).unwrap() else {
            panic!("the lease did not run out");
        };
        assert_ne!(first, second);
    }

    #[test]
    fn a_restart_keeps_the_answer() {
        let (dir, path) = temp_db("restart");
        let scope = Scope::new(None, "add_note");
        let key = Key::parse("k-1").unwrap();
        {
            let store = SqliteStore::open(&path).unwrap();
            let token = token(store.claim_at(&scope, &key, "{}", 1_000).unwrap());
            assert_eq!(
                store.claim_at(&scope, &key, "{}", 1_001).unwrap(),
                Claim::Running
            );
            let claimed = Claimed {
                scope: scope.clone(),
                key: key.clone(),
                token,
            };
            assert!(store.finish_at(&claimed, "the answer", 1_002).unwrap());
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
        let again = token(store.claim_at(&scope, &key, "{}", later).unwrap());
        store
            .release_now(&Claimed {
                scope: scope.clone(),
                key: key.clone(),
                token: again,
            })
            .unwrap();
        assert!(matches!(
            store.claim_at(&scope, &key, "{\"a\":1}", later).unwrap(),
            Claim::Run(_)
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A tool's write and the key's record in one transaction, on the
    /// tool's own connection: a crash before the commit leaves neither; a
    /// claim that passed to another call cannot commit.
    #[test]
    fn the_record_commits_with_the_write() {
        let (dir, path) = temp_db("record-in");
        let store = SqliteStore::open(&path)
            .unwrap()
            .with_lease(Duration::from_millis(10));
        let mut tool = Connection::open(&path).unwrap();
        tool.execute_batch("CREATE TABLE notes (text TEXT)")
            .unwrap();
        let scope = Scope::new(None, "add_note");
        let key = Key::parse("k-1").unwrap();
        let first = Claimed {
            scope: scope.clone(),
            key: key.clone(),
            token: token(store.claim_at(&scope, &key, "{}", 1_000).unwrap()),
        };
        // The server dies inside the transaction: nothing is left but the
        // claim, whose lease runs out; the repeat takes the key over.
        {
            let transaction = tool.transaction().unwrap();
            transaction
                .execute("INSERT INTO notes VALUES ('a')", [])
                .unwrap();
            SqliteStore::record_in(&transaction, Some(&first)).unwrap();
            // Dropped: rolled back.
        }
        let second = Claimed {
            token: token(store.claim_at(&scope, &key, "{}", 1_011).unwrap()),
            ..first.clone()
        };
        // The first call, still alive, is fenced off: its write rolls back.
        {
            let transaction = tool.transaction().unwrap();
            transaction
                .execute("INSERT INTO notes VALUES ('a')", [])
                .unwrap();
            let refused = SqliteStore::record_in(&transaction, Some(&first)).unwrap_err();
            assert!(refused.is_superseded());
            assert_eq!(
                crate::ErrorEnvelope::from(refused).code.as_deref(),
                Some("IDEMPOTENCY_KEY_SUPERSEDED")
            );
        }
        // The repeat commits, then dies before its answer is stored.
        let transaction = tool.transaction().unwrap();
        transaction
            .execute("INSERT INTO notes VALUES ('a')", [])
            .unwrap();
        SqliteStore::record_in(&transaction, Some(&second)).unwrap();
        transaction.commit().unwrap();
        // Within its lease the holder may still answer; after it, the key
        // says it ran, and nothing frees it.
        assert_eq!(
            store.claim_at(&scope, &key, "{}", 1_015).unwrap(),
            Claim::Running
        );
        store.release_now(&second).unwrap();
        assert_eq!(
            store.claim_at(&scope, &key, "{}", 1_030).unwrap(),
            Claim::Committed
        );
        let rows: i64 = tool
            .query_row("SELECT count(*) FROM notes", [], |row| row.get(0))
            .unwrap();
        assert_eq!(rows, 1);
        // A call without a key records nothing and is not refused.
        SqliteStore::record_in(&tool, None).unwrap();
        drop(tool);
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
