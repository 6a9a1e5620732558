//! In-process rate limits (moka): a sliding window of recent submissions per key. Keys are e-mail addresses
//! (3 contact messages per 10 minutes) and client IPs (both forms). A slot is taken before a lead is stored and
//! given back if storing fails, so a refused or failed submission never counts against the visitor.
//!
//! Copies of one submission (a double click, a client's retries) pass one at a time ([`OneAtATime`]): the first
//! stores the lead and spends the slot, the copies after it find that lead and spend nothing.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use moka::sync::Cache;
use rocket::tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

pub struct RateLimiter {
    max: usize,
    window: Duration,
    hits: Cache<String, Arc<Mutex<VecDeque<Instant>>>>,
}

impl RateLimiter {
    pub fn new(max: usize, window: Duration) -> Self {
        // Entries idle for a whole window hold nothing that still counts, so they may go.
        let hits = Cache::builder()
            .max_capacity(200_000)
            .time_to_idle(window)
            .build();
        RateLimiter { max, window, hits }
    }

    /// Takes a slot for `key` if fewer than `max` were taken within the window.
    pub fn try_acquire(&self, key: &str) -> bool {
        self.acquire(key).is_ok()
    }

    /// Takes a slot for `key` if fewer than `max` were taken within the window; otherwise says when the oldest of
    /// them leaves the window, which is when the next try can pass.
    pub fn acquire(&self, key: &str) -> Result<(), RetryAfter> {
        let entry = self.hits.get_with(key.to_string(), Default::default);
        let mut times = entry
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let now = Instant::now();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= self.window)
        {
            times.pop_front();
        }
        if times.len() >= self.max {
            // With `max` 0 nothing ever passes: the whole window is as good an answer as any.
            let waited = times
                .front()
                .map_or(Duration::ZERO, |t| now.duration_since(*t));
            return Err(RetryAfter(self.window.saturating_sub(waited)));
        }
        times.push_back(now);
        Ok(())
    }

    /// Gives back the most recent slot of `key` (the submission it was taken for was not stored).
    pub fn release(&self, key: &str) {
        if let Some(entry) = self.hits.get(key) {
            entry
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .pop_back();
        }
    }
}

/// How long a refused client should wait before trying again: sent as `Retry-After` with every 429, so that a
/// well-behaved client (or a person told "try again in N minutes") does not come back too early and be refused
/// again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub Duration);

impl RetryAfter {
    /// Whole seconds, rounded up (a client that waits the number said is let in) and at least 1 (`0` would invite
    /// an immediate retry that the limit may still refuse at the same instant).
    pub fn seconds(self) -> u64 {
        let whole = self.0.as_secs() + u64::from(self.0.subsec_nanos() > 0);
        whole.max(1)
    }

    /// The `Retry-After` header (RFC 9110 10.2.3, the delay form).
    pub fn header(self) -> rocket::http::Header<'static> {
        rocket::http::Header::new("Retry-After", self.seconds().to_string())
    }
}

/// Requests with the same key (a form and its `submission_id`) handled one after another. Without it, copies that
/// arrive together all miss the first one's lead (not committed yet) and each takes a rate-limit slot, so copies
/// of an accepted submission were refused 429 once the address was near its limit.
#[derive(Default)]
pub struct OneAtATime {
    /// A lock per key with requests in it; the entry goes when the last of them is done.
    keys: Mutex<HashMap<String, Arc<AsyncMutex<()>>>>,
}

/// The turn of one request: the next request with the key goes once this is dropped.
pub struct Turn<'a> {
    owner: &'a OneAtATime,
    key: String,
    guard: Option<OwnedMutexGuard<()>>,
}

impl OneAtATime {
    /// Waits until no other request with `key` is being handled, then holds the key until the turn is dropped.
    pub async fn turn(&self, key: String) -> Turn<'_> {
        let lock = Arc::clone(
            self.keys
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .entry(key.clone())
                .or_default(),
        );
        let guard = lock.lock_owned().await;
        Turn {
            owner: self,
            key,
            guard: Some(guard),
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.keys.lock().unwrap().len()
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut keys = self
            .owner
            .keys
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // Released under the map's lock: a request taking the key now finds either this lock (and waits for
        // nothing) or no entry; the entry goes only when nobody else holds or waits for it (the map's reference
        // is then the only one).
        drop(self.guard.take());
        if keys
            .get(&self.key)
            .is_some_and(|lock| Arc::strong_count(lock) == 1)
        {
            keys.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_says_when_the_oldest_slot_leaves_the_window() {
        let limiter = RateLimiter::new(2, Duration::from_secs(600));
        assert_eq!(limiter.acquire("k"), Ok(()));
        assert_eq!(limiter.acquire("k"), Ok(()));
        let Err(wait) = limiter.acquire("k") else {
            panic!("a third slot within the window")
        };
        assert!(wait.0 <= Duration::from_secs(600) && wait.0 > Duration::from_secs(590));
        assert_eq!(wait.seconds(), 600, "rounded up");
        assert_eq!(RetryAfter(Duration::ZERO).seconds(), 1);
        assert_eq!(RetryAfter(Duration::from_millis(1_001)).seconds(), 2);
        assert_eq!(wait.header().value(), "600");
        assert_eq!(
            RateLimiter::new(0, Duration::from_secs(60)).acquire("k"),
            Err(RetryAfter(Duration::from_secs(60)))
        );
    }

    #[test]
    fn one_request_per_key_at_a_time_and_no_key_left_behind() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let runtime = rocket::tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap();
        let gate = Arc::new(OneAtATime::default());
        // Requests inside, per key.
        let inside: Arc<[AtomicUsize; 2]> = Arc::default();
        runtime.block_on(async {
            let tasks: Vec<_> = (0..50)
                .map(|n| {
                    let (gate, inside) = (Arc::clone(&gate), Arc::clone(&inside));
                    rocket::tokio::spawn(async move {
                        let _turn = gate.turn(format!("quote:{}", n % 2)).await;
                        let others = inside[n % 2].fetch_add(1, Ordering::SeqCst);
                        rocket::tokio::task::yield_now().await;
                        inside[n % 2].fetch_sub(1, Ordering::SeqCst);
                        others
                    })
                })
                .collect();
            for task in tasks {
                assert_eq!(task.await.unwrap(), 0, "alone with its key");
            }
        });
        assert_eq!(
            gate.len(),
            0,
            "every key was removed when its last request was done"
        );
    }

    #[test]
    fn allows_max_per_window_per_key() {
        let limiter = RateLimiter::new(3, Duration::from_secs(600));
        assert!((0..3).all(|_| limiter.try_acquire("a@example.com")));
        assert!(!limiter.try_acquire("a@example.com"));
        assert!(limiter.try_acquire("b@example.com"), "keys are independent");
        limiter.release("a@example.com");
        assert!(
            limiter.try_acquire("a@example.com"),
            "a released slot can be used again"
        );
    }

    #[test]
    fn slots_expire_with_the_window() {
        let limiter = RateLimiter::new(1, Duration::from_millis(50));
        assert!(limiter.try_acquire("k"));
        assert!(!limiter.try_acquire("k"));
        std::thread::sleep(Duration::from_millis(60));
        assert!(limiter.try_acquire("k"));
    }
}
