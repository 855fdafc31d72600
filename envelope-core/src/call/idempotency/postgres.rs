//! [`PostgresStore`]: keyed calls remembered in a Postgres table (feature
//! `postgres`), shared by every replica of a server.

use std::time::Duration;

use sqlx_core::query::query;
use sqlx_core::query_as::query_as;
use sqlx_core::raw_sql::raw_sql;
use sqlx_postgres::{PgPool, Postgres};

/// The statements of [`POSTGRES_SCHEMA`], as a literal for `concat!`.
macro_rules! schema {
    () => {
        "CREATE TABLE IF NOT EXISTS envelope_idempotency (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    answer TEXT,
    expires_at_ms BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE INDEX IF NOT EXISTS envelope_idempotency_expiry ON envelope_idempotency (expires_at_ms);"
    };
}

use super::{
    Claim, DEFAULT_LEASE, DEFAULT_TTL, Key, Scope, Store, StoreError, StoreFuture, millis, now_ms,
};

/// The table, created by [`PostgresStore::new`] when it is missing (or by
/// a migration of yours, with the same columns):
///
/// ```sql
/// CREATE TABLE IF NOT EXISTS envelope_idempotency (
///     scope TEXT NOT NULL,          -- Scope::to_key_string
///     key TEXT NOT NULL,
///     fingerprint TEXT NOT NULL,    -- the arguments, canonical JSON
///     answer TEXT,                  -- NULL while the call runs
///     expires_at_ms BIGINT NOT NULL,
///     PRIMARY KEY (scope, key)
/// );
/// CREATE INDEX IF NOT EXISTS envelope_idempotency_expiry
///     ON envelope_idempotency (expires_at_ms);
/// ```
pub const POSTGRES_SCHEMA: &str = schema!();

/// [`POSTGRES_SCHEMA`] after the advisory lock of this store's schema
/// (the key `0x656e76656c6f7065`, "envelope" in ASCII).
const SCHEMA_UNDER_LOCK: &str = concat!(
    "SELECT pg_advisory_xact_lock(7308909423251910757);\n",
    schema!()
);

/// A [`Store`] in a Postgres database (feature `postgres`), for a server
/// of several replicas behind a load balancer: a repeat that reaches
/// another replica still gets the first call's answer. The table is
/// [`POSTGRES_SCHEMA`]; each claim first deletes the records that expired
/// (a finished one after its TTL, default 24 hours; a running one after
/// its lease, default 10 minutes), then inserts the key with `ON CONFLICT
/// DO NOTHING`, so of two replicas claiming one key at once exactly one
/// runs the call. Times are each replica's clock, in Unix epoch
/// milliseconds: keep the replicas' clocks in step (NTP).
///
/// The pool is sqlx's: the runtime and TLS are those of your `sqlx`
/// dependency's features.
#[derive(Debug, Clone)]
pub struct PostgresStore {
    pool: PgPool,
    ttl: Duration,
    lease: Duration,
}

impl PostgresStore {
    /// The store on `pool`, creating its table when missing. Replicas
    /// starting at once create it one after the other: the statements run
    /// in one transaction under a transaction-level advisory lock
    /// (`pg_advisory_xact_lock`), since two concurrent `CREATE TABLE IF
    /// NOT EXISTS` can both try, and one fail.
    ///
    /// # Errors
    ///
    /// Postgres's, when the table cannot be created.
    pub async fn new(pool: PgPool) -> Result<Self, StoreError> {
        // The statements of one simple query are one transaction.
        raw_sql(SCHEMA_UNDER_LOCK)
            .execute(&pool)
            .await
            .map_err(StoreError::new)?;
        Ok(Self::existing(pool))
    }

    /// The store on `pool`, whose table exists already (made by a
    /// migration of yours from [`POSTGRES_SCHEMA`]).
    #[must_use]
    pub fn existing(pool: PgPool) -> Self {
        PostgresStore {
            pool,
            ttl: DEFAULT_TTL,
            lease: DEFAULT_LEASE,
        }
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

    /// [`Store::claim`] at `now_ms` (Unix epoch milliseconds).
    pub(crate) async fn claim_at(
        &self,
        scope: &Scope,
        key: &Key,
        fingerprint: &str,
        now_ms: i64,
    ) -> Result<Claim, StoreError> {
        query::<Postgres>("DELETE FROM envelope_idempotency WHERE expires_at_ms <= $1")
            .bind(now_ms)
            .execute(&self.pool)
            .await
            .map_err(StoreError::new)?;
        let scope = scope.to_key_string();
        let inserted = query::<Postgres>(
            "INSERT INTO envelope_idempotency (scope, key, fingerprint, answer, expires_at_ms) \
             VALUES ($1, $2, $3, NULL, $4) ON CONFLICT (scope, key) DO NOTHING",
        )
        .bind(&scope)
        .bind(key.as_str())
        .bind(fingerprint)
        .bind(now_ms.saturating_add(millis(self.lease)))
        .execute(&self.pool)
        .await
        .map_err(StoreError::new)?;
        if inserted.rows_affected() == 1 {
            return Ok(Claim::Run);
        }
        let found: Option<(String, Option<String>)> = query_as::<Postgres, (String, Option<String>)>(
            "SELECT fingerprint, answer FROM envelope_idempotency WHERE scope = $1 AND key = $2",
        )
        .bind(&scope)
        .bind(key.as_str())
        .fetch_optional(&self.pool)
        .await
        .map_err(StoreError::new)?;
        Ok(match found {
            Some((stored, answer)) => Claim::of_record(&stored, answer, fingerprint),
            // Freed between the insert and the read: the holder's call
            // changed nothing and is gone; this one is to be repeated.
            None => Claim::Running,
        })
    }

    /// [`Store::finish`] at `now_ms`.
    pub(crate) async fn finish_at(
        &self,
        scope: &Scope,
        key: &Key,
        answer: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        query::<Postgres>(
            "UPDATE envelope_idempotency SET answer = $3, expires_at_ms = $4 WHERE scope = $1 AND key = $2",
        )
        .bind(scope.to_key_string())
        .bind(key.as_str())
        .bind(answer)
        .bind(now_ms.saturating_add(millis(self.ttl)))
        .execute(&self.pool)
        .await
        .map_err(StoreError::new)?;
        Ok(())
    }

    async fn release_now(&self, scope: &Scope, key: &Key) -> Result<(), StoreError> {
        query::<Postgres>("DELETE FROM envelope_idempotency WHERE scope = $1 AND key = $2")
            .bind(scope.to_key_string())
            .bind(key.as_str())
            .execute(&self.pool)
            .await
            .map_err(StoreError::new)?;
        Ok(())
    }
}

impl Store for PostgresStore {
    fn claim<'a>(
        &'a self,
        scope: &'a Scope,
        key: &'a Key,
        fingerprint: &'a str,
    ) -> StoreFuture<'a, Claim> {
        Box::pin(self.claim_at(scope, key, fingerprint, now_ms()))
    }

    fn finish<'a>(
        &'a self,
        scope: &'a Scope,
        key: &'a Key,
        answer: &'a str,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.finish_at(scope, key, answer, now_ms()))
    }

    fn release<'a>(&'a self, scope: &'a Scope, key: &'a Key) -> StoreFuture<'a, ()> {
        Box::pin(self.release_now(scope, key))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_locked_schema_is_the_schema() {
        let (lock, schema) = super::SCHEMA_UNDER_LOCK.split_once('\n').unwrap();
        assert_eq!(schema, super::POSTGRES_SCHEMA);
        assert_eq!(
            lock,
            format!(
                "SELECT pg_advisory_xact_lock({});",
                i64::from_be_bytes(*b"envelope")
            )
        );
    }
}
