//! [`MemoryStore`]: keyed calls remembered in the process's memory.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{Claim, DEFAULT_LEASE, DEFAULT_TTL, Key, Scope, Store, StoreError, StoreFuture};

/// A [`Store`] in this process's memory: the default, for a server of one
/// process (a restart forgets every key; several replicas need a shared
/// store such as [`SqliteStore`](super::SqliteStore) on one host).
///
/// Bounded: at most `capacity` records (default 10,000). A finished
/// record is kept for its TTL (default 24 hours, Stripe's), a running one
/// for its lease (default 10 minutes: a call that has not finished by
/// then is taken to have died with its task). When full, a claim first
/// drops the expired records, then the finished record that expires
/// first; a store full of running calls refuses the claim (a
/// [`StoreError`], answered as `TRANSIENT`: the call does not run).
#[derive(Debug)]
pub struct MemoryStore {
    records: Mutex<HashMap<(Scope, Key), Record>>,
    capacity: usize,
    ttl: Duration,
    lease: Duration,
}

#[derive(Debug, Clone)]
struct Record {
    fingerprint: String,
    /// `None` while the call runs.
    answer: Option<String>,
    expires: Instant,
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self::new()
    }
}

impl MemoryStore {
    /// A store of 10,000 records, a TTL of 24 hours and a lease of 10
    /// minutes.
    #[must_use]
    pub fn new() -> Self {
        MemoryStore {
            records: Mutex::new(HashMap::new()),
            capacity: 10_000,
            ttl: DEFAULT_TTL,
            lease: DEFAULT_LEASE,
        }
    }

    /// Keeps at most `capacity` records (at least 1).
    #[must_use]
    pub fn with_capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity.max(1);
        self
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

    /// How many records the store holds now, expired ones included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether the store holds no record.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(Scope, Key), Record>> {
        // A panic elsewhere cannot leave a record half written: each
        // change is one insert or remove.
        self.records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// [`Store::claim`] at `now`.
    pub(crate) fn claim_at(
        &self,
        scope: &Scope,
        key: &Key,
        fingerprint: &str,
        now: Instant,
    ) -> Result<Claim, StoreError> {
        let mut records = self.lock();
        let id = (scope.clone(), key.clone());
        if let Some(record) = records.get(&id).filter(|record| record.expires > now) {
            return Ok(Claim::of_record(
                &record.fingerprint,
                record.answer.clone(),
                fingerprint,
            ));
        }
        if records.len() >= self.capacity && !records.contains_key(&id) {
            records.retain(|_, record| record.expires > now);
        }
        if records.len() >= self.capacity && !records.contains_key(&id) {
            let oldest = records
                .iter()
                .filter(|(_, record)| record.answer.is_some())
                .min_by_key(|(_, record)| record.expires)
                .map(|(id, _)| id.clone());
            match oldest {
                Some(oldest) => {
                    records.remove(&oldest);
                }
                None => {
                    return Err(StoreError::new(format!(
                        "the memory store holds {} running calls, its capacity",
                        self.capacity
                    )));
                }
            }
        }
        records.insert(
            id,
            Record {
                fingerprint: fingerprint.to_owned(),
                answer: None,
                expires: now + self.lease,
            },
        );
        Ok(Claim::Run)
    }

    /// [`Store::finish`] at `now`.
    pub(crate) fn finish_at(&self, scope: &Scope, key: &Key, answer: &str, now: Instant) {
        if let Some(record) = self.lock().get_mut(&(scope.clone(), key.clone())) {
            record.answer = Some(answer.to_owned());
            record.expires = now + self.ttl;
        }
    }
}

impl Store for MemoryStore {
    fn claim<'a>(
        &'a self,
        scope: &'a Scope,
        key: &'a Key,
        fingerprint: &'a str,
    ) -> StoreFuture<'a, Claim> {
        let claimed = self.claim_at(scope, key, fingerprint, Instant::now());
        Box::pin(async move { claimed })
    }

    fn finish<'a>(
        &'a self,
        scope: &'a Scope,
        key: &'a Key,
        answer: &'a str,
    ) -> StoreFuture<'a, ()> {
        self.finish_at(scope, key, answer, Instant::now());
        Box::pin(async { Ok(()) })
    }

    fn release<'a>(&'a self, scope: &'a Scope, key: &'a Key) -> StoreFuture<'a, ()> {
        self.lock().remove(&(scope.clone(), key.clone()));
        Box::pin(async { Ok(()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> Key {
        Key::parse(text).unwrap()
    }

    #[test]
    fn claims_replays_conflicts_and_mismatches() {
        let store = MemoryStore::new();
        let scope = Scope::new(None, "add_note");
        let now = Instant::now();
        assert_eq!(
            store.claim_at(&scope, &key("k1"), "{}", now).unwrap(),
            Claim::Run
        );
        assert_eq!(
            store.claim_at(&scope, &key("k1"), "{}", now).unwrap(),
            Claim::Running
        );
        assert_eq!(
            store
                .claim_at(&scope, &key("k1"), "{\"a\":1}", now)
                .unwrap(),
            Claim::Mismatch
        );
        store.finish_at(&scope, &key("k1"), "answer", now);
        assert_eq!(
            store.claim_at(&scope, &key("k1"), "{}", now).unwrap(),
            Claim::Done("answer".into())
        );
        // Another principal's key of the same text is another key.
        let other = Scope::new(Some("bob".into()), "add_note");
        assert_eq!(
            store.claim_at(&other, &key("k1"), "{}", now).unwrap(),
            Claim::Run
        );
    }

    #[test]
    fn leases_ttls_and_capacity() {
        let store = MemoryStore::new()
            .with_capacity(2)
            .with_ttl(Duration::from_secs(60))
            .with_lease(Duration::from_secs(10));
        let scope = Scope::new(None, "add_note");
        let now = Instant::now();
        // A running call's lease ends: the key may run again.
        assert_eq!(
            store.claim_at(&scope, &key("a"), "{}", now).unwrap(),
            Claim::Run
        );
        assert_eq!(
            store
                .claim_at(&scope, &key("a"), "{}", now + Duration::from_secs(11))
                .unwrap(),
            Claim::Run
        );
        // A finished one is kept for its TTL.
        store.finish_at(&scope, &key("a"), "done", now + Duration::from_secs(11));
        assert_eq!(
            store
                .claim_at(&scope, &key("a"), "{}", now + Duration::from_secs(70))
                .unwrap(),
            Claim::Done("done".into())
        );
        assert_eq!(
            store
                .claim_at(&scope, &key("a"), "{}", now + Duration::from_secs(72))
                .unwrap(),
            Claim::Run
        );
        // Full of running calls: refused; a finished one makes room.
        assert_eq!(
            store
                .claim_at(&scope, &key("b"), "{}", now + Duration::from_secs(72))
                .unwrap(),
            Claim::Run
        );
        assert!(
            store
                .claim_at(&scope, &key("c"), "{}", now + Duration::from_secs(72))
                .is_err()
        );
        store.finish_at(&scope, &key("a"), "done", now + Duration::from_secs(72));
        assert_eq!(
            store
                .claim_at(&scope, &key("c"), "{}", now + Duration::from_secs(72))
                .unwrap(),
            Claim::Run
        );
        assert_eq!(store.len(), 2);
    }
}
