//! [`MemoryStore`]: keyed calls remembered in the process's memory.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{
    Claim, Claimed, DEFAULT_LEASE, DEFAULT_TTL, Key, Record as Rule, Scope, Store, StoreError,
    StoreFuture, Token,
};

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
    /// The lease's end while the call runs; the TTL's once it finished.
    expires: Instant,
    token: Token,
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
        // A running record is kept past its lease (for `Claim::Expired`)
        // until its TTL after that.
        let live = |record: &Record| {
            record.expires > now || (record.answer.is_none() && record.expires + self.ttl > now)
        };
        if let Some(record) = records.get_mut(&id).filter(|record| live(record)) {
            let claim = Claim::of_record(
                Rule {
                    fingerprint: &record.fingerprint,
                    answered: record.answer.is_some(),
                    committed: false,
                    lease_over: record.expires <= now,
                },
                || record.answer.clone().unwrap_or_default(),
                fingerprint,
            );
            if let Claim::Expired(token) = claim {
                record.token = token;
                record.expires = now + self.lease;
            }
            return Ok(claim);
        }
        if records.len() >= self.capacity && !records.contains_key(&id) {
            records.retain(|_, record| live(record));
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
        let token = Token::random();
        records.insert(
            id,
            Record {
                fingerprint: fingerprint.to_owned(),
                answer: None,
                expires: now + self.lease,
                token,
            },
        );
        Ok(Claim::Run(token))
    }

    /// [`Store::finish`] at `now`: whether the answer was recorded.
    pub(crate) fn finish_at(&self, claimed: &Claimed, answer: &str, now: Instant) -> bool {
        let mut records = self.lock();
        let record = records
            .get_mut(&(claimed.scope.clone(), claimed.key.clone()))
            .filter(|record| record.token == claimed.token && record.answer.is_none());
        if let Some(record) = record {
            record.answer = Some(answer.to_owned());
            record.expires = now + self.ttl;
            return true;
        }
        false
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

    fn finish<'a>(&'a self, claimed: &'a Claimed, answer: &'a str) -> StoreFuture<'a, bool> {
        let recorded = self.finish_at(claimed, answer, Instant::now());
        Box::pin(async move { Ok(recorded) })
    }

    fn release<'a>(&'a self, claimed: &'a Claimed) -> StoreFuture<'a, ()> {
        let mut records = self.lock();
        let id = (claimed.scope.clone(), claimed.key.clone());
        if records
            .get(&id)
            .is_some_and(|record| record.token == claimed.token && record.answer.is_none())
        {
            records.remove(&id);
        }
        Box::pin(async { Ok(()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> Key {
        Key::parse(text).unwrap()
    }

    /// The token of a claim that runs, or a panic naming the claim.
    fn run(claim: Claim) -> Token {
        match claim {
            Claim::Run(token) | Claim::Expired(token) => token,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn claims_replays_conflicts_and_mismatches() {
        let store = MemoryStore::new();
        let scope = Scope::new(None, "add_note");
        let now = Instant::now();
        let token = run(store.claim_at(&scope, &key("k1"), "{}", now).unwrap());
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
        let claimed = Claimed {
            scope: scope.clone(),
            key: key("k1"),
            token,
        };
        assert!(store.finish_at(&claimed, "answer", now));
        assert_eq!(
            store.claim_at(&scope, &key("k1"), "{}", now).unwrap(),
            Claim::Done("answer".into())
        );
        // Finished once: a second answer is not recorded.
        assert!(!store.finish_at(&claimed, "another", now));
        // Another principal's key of the same text is another key.
        let other = Scope::new(Some("bob".into()), "add_note");
        assert!(matches!(
            store.claim_at(&other, &key("k1"), "{}", now).unwrap(),
            Claim::Run(_)
        ));
    }

    #[test]
    fn an_expired_lease_passes_the_key_on_and_fences_the_first() {
        let store = MemoryStore::new()
            .with_ttl(Duration::from_secs(60))
            .with_lease(Duration::from_secs(10));
        let scope = Scope::new(None, "add_note");
        let now = Instant::now();
        let first = run(store.claim_at(&scope, &key("a"), "{}", now).unwrap());
        let later = now + Duration::from_secs(11);
        // Past the lease, with no answer: another call takes the key over.
        let Claim::Expired(second) = store.claim_at(&scope, &key("a"), "{}", later).unwrap() else {
            panic!("not expired");
        };
        assert_ne!(first, second);
        // Within the new lease the key is held again.
        assert_eq!(
            store.claim_at(&scope, &key("a"), "{}", later).unwrap(),
            Claim::Running
        );
        // The first call, still alive, can neither answer nor free the key.
        let stale = Claimed {
            scope: scope.clone(),
            key: key("a"),
            token: first,
        };
        assert!(!store.finish_at(&stale, "late", later));
        drop(store.release(&stale));
        assert_eq!(
            store.claim_at(&scope, &key("a"), "{}", later).unwrap(),
            Claim::Running
        );
        let current = Claimed {
            token: second,
            ..stale
        };
        assert!(store.finish_at(&current, "done", later));
        assert_eq!(
            store.claim_at(&scope, &key("a"), "{}", later).unwrap(),
            Claim::Done("done".into())
        );
        // A running record is forgotten a TTL after its lease ran out.
        let _ = run(store.claim_at(&scope, &key("b"), "{}", now).unwrap());
        assert!(matches!(
            store
                .claim_at(&scope, &key("b"), "{}", now + Duration::from_secs(69))
                .unwrap(),
            Claim::Expired(_)
        ));
        let _ = run(store.claim_at(&scope, &key("c"), "{}", now).unwrap());
        // At 70 s, to the instant, it is gone: the key runs afresh.
        assert!(matches!(
            store
                .claim_at(&scope, &key("c"), "{}", now + Duration::from_secs(70))
                .unwrap(),
            Claim::Run(_)
        ));
    }

    #[test]
    fn ttls_and_capacity() {
        let store = MemoryStore::new()
            .with_capacity(2)
            .with_ttl(Duration::from_secs(60))
            .with_lease(Duration::from_secs(10));
        let scope = Scope::new(None, "add_note");
        let now = Instant::now();
        let at = |seconds| now + Duration::from_secs(seconds);
        let claimed = |name: &str, token| Claimed {
            scope: scope.clone(),
            key: key(name),
            token,
        };
        // A finished record is kept for its TTL.
        let a = run(store.claim_at(&scope, &key("a"), "{}", now).unwrap());
        assert!(store.finish_at(&claimed("a", a), "done", at(1)));
        assert_eq!(
            store.claim_at(&scope, &key("a"), "{}", at(60)).unwrap(),
            Claim::Done("done".into())
        );
        // Its TTL is over at 61 s, to the instant: the key runs again.
        let a = run(store.claim_at(&scope, &key("a"), "{}", at(61)).unwrap());
        // Full of running calls: refused; a finished one makes room.
        let _ = run(store.claim_at(&scope, &key("b"), "{}", at(62)).unwrap());
        assert!(store.claim_at(&scope, &key("c"), "{}", at(62)).is_err());
        assert!(store.finish_at(&claimed("a", a), "done", at(62)));
        let c = run(store.claim_at(&scope, &key("c"), "{}", at(62)).unwrap());
        assert_eq!(store.len(), 2);
        // A released key runs again; released under another token, not.
        drop(store.release(&claimed("c", Token::from_raw(c.raw() ^ 1))));
        assert_eq!(
            store.claim_at(&scope, &key("c"), "{}", at(62)).unwrap(),
            Claim::Running
        );
        drop(store.release(&claimed("c", c)));
        assert!(matches!(
            store.claim_at(&scope, &key("c"), "{}", at(62)).unwrap(),
            Claim::Run(_)
        ));
    }

    #[test]
    fn a_full_store_drops_what_expired_before_an_answer_it_keeps() {
        let store = MemoryStore::new()
            .with_capacity(2)
            .with_ttl(Duration::from_secs(60))
            .with_lease(Duration::from_secs(10));
        let scope = Scope::new(None, "add_note");
        let now = Instant::now();
        let at = |seconds| now + Duration::from_secs(seconds);
        // A call that never finished, kept a TTL past its lease (70 s).
        let _ = run(store.claim_at(&scope, &key("lost"), "{}", now).unwrap());
        // A finished call whose answer is kept until 160 s.
        let kept = run(store.claim_at(&scope, &key("kept"), "{}", at(100)).unwrap());
        let claimed = Claimed {
            scope: scope.clone(),
            key: key("kept"),
            token: kept,
        };
        assert!(store.finish_at(&claimed, "done", at(100)));
        // Full: the new key takes the expired record's place.
        let _ = run(store.claim_at(&scope, &key("new"), "{}", at(101)).unwrap());
        assert_eq!(store.len(), 2);
        assert_eq!(
            store.claim_at(&scope, &key("kept"), "{}", at(102)).unwrap(),
            Claim::Done("done".into())
        );
    }

    #[test]
    fn a_store_with_room_purges_nothing() {
        let store = MemoryStore::new()
            .with_ttl(Duration::from_secs(60))
            .with_lease(Duration::from_secs(10));
        assert!(store.is_empty());
        let scope = Scope::new(None, "add_note");
        let now = Instant::now();
        let _ = run(store.claim_at(&scope, &key("a"), "{}", now).unwrap());
        let _ = run(store.claim_at(&scope, &key("b"), "{}", now).unwrap());
        assert!(!store.is_empty());
        // Both forgotten at 70 s, but a store with room for a new key
        // drops nothing: the records go when it is full.
        let _ = run(store
            .claim_at(&scope, &key("c"), "{}", now + Duration::from_secs(80))
            .unwrap());
        assert_eq!(store.len(), 3);
    }
}
