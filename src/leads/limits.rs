//! In-process rate limits (moka): a sliding window of recent submissions per key. Keys are e-mail addresses
//! (3 contact messages per 10 minutes) and client IPs (both forms). A slot is taken before a lead is stored and
//! given back if storing fails, so a refused or failed submission never counts against the visitor.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use moka::sync::Cache;

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
            return false;
        }
        times.push_back(now);
        true
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

#[cfg(test)]
mod tests {
    use super::*;

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
