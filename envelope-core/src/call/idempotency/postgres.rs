//! [`PostgresStore`]: keyed calls remembered in a Postgres table (feature
//! `postgres`), shared by every replica of a server.

use std::time::Duration;

use sqlx_core::query::query;
use sqlx_core::query_as::query_as;
use sqlx_core::raw_sql::raw_sql;
use sqlx_postgres::{PgConnection, PgPool, Postgres};

/// The statements of [`POSTGRES_SCHEMA`], as a literal for `concat!`.
macro_rules! schema {
    () => {
        "CREATE TABLE IF NOT EXISTS envelope_idempotency (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    answer TEXT,
    expires_at_ms BIGINT NOT NULL,
    token BIGINT NOT NULL,
    committed BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (scope, key)
);
CREATE INDEX IF NOT EXISTS envelope_idempotency_expiry ON envelope_idempotency (expires_at_ms);"
    };
}

use super::{
    Claim, Claimed, DEFAULT_LEASE, DEFAULT_TTL, Key, Record, Scope, Store, StoreError, StoreFuture,
    Token, millis, now_ms,
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
///     expires_at_ms BIGINT NOT NULL,   -- the lease's end, then the TTL's
///     token BIGINT NOT NULL,        -- the claim's fencing token
///     committed BOOLEAN NOT NULL DEFAULT FALSE,  -- a write committed with it
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
/// (a finished one after its TTL, default 24 hours; a running one a TTL
/// after its lease, default 10 minutes, ran out), then inserts the key
/// with `ON CONFLICT DO NOTHING`, so of two replicas claiming one key at
/// once exactly one runs the call; a running record past its lease passes
/// to one claim only (an update conditioned on the old token).
///
/// A tool whose write is in the same database makes the call exactly once
/// across a crash with [`PostgresStore::record_in`]: the write and the
/// key's record commit together or not at all. Times are each replica's clock, in Unix epoch
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
        query::<Postgres>(
            "DELETE FROM envelope_idempotency WHERE expires_at_ms <= $1 AND (answer IS NOT NULL OR expires_at_ms <= $2)",
        )
        .bind(now_ms)
        .bind(now_ms.saturating_sub(millis(self.ttl)))
        .execute(&self.pool)
        .await
        .map_err(StoreError::new)?;
        let scope = scope.to_key_string();
        let lease_ends = now_ms.saturating_add(millis(self.lease));
        let token = Token::random();
        let inserted = query::<Postgres>(
            "INSERT INTO envelope_idempotency (scope, key, fingerprint, answer, expires_at_ms, token) \
             VALUES ($1, $2, $3, NULL, $4, $5) ON CONFLICT (scope, key) DO NOTHING",
        )
        .bind(&scope)
        .bind(key.as_str())
        .bind(fingerprint)
        .bind(lease_ends)
        .bind(token.raw())
        .execute(&self.pool)
        .await
        .map_err(StoreError::new)?;
        if inserted.rows_affected() == 1 {
            return Ok(Claim::Run(token));
        }
        type Row = (String, Option<String>, bool, i64, i64);
        let found: Option<Row> = query_as::<Postgres, Row>(
            "SELECT fingerprint, answer, committed, expires_at_ms, token FROM envelope_idempotency WHERE scope = $1 AND key = $2",
        )
        .bind(&scope)
        .bind(key.as_str())
        .fetch_optional(&self.pool)
        .await
        .map_err(StoreError::new)?;
        // Freed between the insert and the read: the holder's call changed
        // nothing and is gone; this one is to be repeated.
        let Some((stored, answer, committed, expires_at_ms, held_by)) = found else {
            return Ok(Claim::Running);
        };
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
        let Claim::Expired(token) = claim else {
            return Ok(claim);
        };
        // Of two replicas taking an expired record over at once, the one
        // whose update still sees the old token has it.
        let taken = query::<Postgres>(
            "UPDATE envelope_idempotency SET token = $4, expires_at_ms = $5 \
             WHERE scope = $1 AND key = $2 AND token = $3 AND answer IS NULL AND NOT committed",
        )
        .bind(&scope)
        .bind(key.as_str())
        .bind(held_by)
        .bind(token.raw())
        .bind(lease_ends)
        .execute(&self.pool)
        .await
        .map_err(StoreError::new)?;
        Ok(if taken.rows_affected() == 1 {
            Claim::Expired(token)
        } else {
            Claim::Running
        })
    }

    /// [`Store::finish`] at `now_ms`.
    pub(crate) async fn finish_at(
        &self,
        claimed: &Claimed,
        answer: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let updated = query::<Postgres>(
            "UPDATE envelope_idempotency SET answer = $4, expires_at_ms = $5 \
             WHERE scope = $1 AND key = $2 AND token = $3 AND answer IS NULL",
        )
        .bind(claimed.scope.to_key_string())
        .bind(claimed.key.as_str())
        .bind(claimed.token.raw())
        .bind(answer)
        .bind(now_ms.saturating_add(millis(self.ttl)))
        .execute(&self.pool)
        .await
        .map_err(StoreError::new)?;
        Ok(updated.rows_affected() == 1)
    }

    async fn release_now(&self, claimed: &Claimed) -> Result<(), StoreError> {
        query::<Postgres>(
            "DELETE FROM envelope_idempotency \
             WHERE scope = $1 AND key = $2 AND token = $3 AND answer IS NULL AND NOT committed",
        )
        .bind(claimed.scope.to_key_string())
        .bind(claimed.key.as_str())
        .bind(claimed.token.raw())
        .execute(&self.pool)
        .await
        .map_err(StoreError::new)?;
        Ok(())
    }

    /// Marks the key of `claimed` as written, on `connection` inside the
    /// tool's own transaction (`&mut *transaction` for sqlx's
    /// `Transaction<'_, Postgres>`), just before the tool commits: the
    /// write and the key's record then commit together or not at all, so a
    /// server that dies at any instant leaves either both (a repeat gets
    /// the stored answer, or [`Claim::Committed`] when the answer itself
    /// was lost) or neither (a repeat runs the call, once the lease is
    /// over). The table must be in the database `connection` writes to.
    ///
    /// `claimed` is the call's [`Claimed`]
    /// ([`CallContext::claim`](crate::CallContext::claim), or the request's
    /// `Extension<Claimed>` over HTTP); `None` (a call without a key) does
    /// nothing, so one tool serves keyed and unkeyed calls.
    ///
    /// # Errors
    ///
    /// [`StoreError::superseded`] when the call's lease ran out and another
    /// call took the key: return it before committing, so the write rolls
    /// back. Postgres's error when the update fails.
    pub async fn record_in(
        connection: &mut PgConnection,
        claimed: Option<&Claimed>,
    ) -> Result<(), StoreError> {
        let Some(claimed) = claimed else {
            return Ok(());
        };
        let updated = query::<Postgres>(
            "UPDATE envelope_idempotency SET committed = TRUE \
             WHERE scope = $1 AND key = $2 AND token = $3 AND answer IS NULL",
        )
        .bind(claimed.scope.to_key_string())
        .bind(claimed.key.as_str())
        .bind(claimed.token.raw())
        .execute(connection)
        .await
        .map_err(StoreError::new)?;
        if updated.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::superseded())
        }
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

    fn finish<'a>(&'a self, claimed: &'a Claimed, answer: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(self.finish_at(claimed, answer, now_ms()))
    }

    fn release<'a>(&'a self, claimed: &'a Claimed) -> StoreFuture<'a, ()> {
        Box::pin(self.release_now(claimed))
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
