//! The first copy of a lead off this machine by the agency's own channels: its e-mail accepted by the relay (SMTP
//! 250) or its webhook answered 2xx. A visitor's answer may wait for it (`replica::acknowledge`, beside the
//! replica's confirmation); the delivery worker sends the news of the leads waited for ahead of everything else,
//! flood or not (`worker`), and says here when one was taken.
//!
//! A copy taken before its answer began to wait is remembered (the last [`REMEMBERED`] of them), so the order of the
//! worker and the request never loses one: the wait then ends at once.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use rocket::tokio::sync::Notify;

/// Leads whose first copy is remembered without anyone waiting for it: far more than a flood's leads in flight.
const REMEMBERED: usize = 4096;

/// Shared by the leads' routes and the worker (through `Outbox`).
#[derive(Default)]
pub struct FirstCopies {
    state: Mutex<State>,
    /// Whether any answer has waited for a first copy (acknowledgement is on).
    in_use: std::sync::atomic::AtomicBool,
}

#[derive(Default)]
struct State {
    /// Leads waited for, each with its waiters (a lead sent twice, a retry, has two).
    waiting: HashMap<i64, Vec<Arc<Notify>>>,
    /// Leads answered without waiting (nothing confirmed a copy for a while) whose copy is still wanted first, so
    /// that the agency's channels working again shows at once; oldest first, the last [`REMEMBERED`].
    wanted: VecDeque<i64>,
    /// Leads whose copy was taken, newest last.
    taken: VecDeque<i64>,
    /// When a copy of any lead was last taken: the agency's channels work.
    last_taken: Option<Instant>,
}

impl FirstCopies {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Begins to wait for `lead`'s first copy; the wait ends when it is taken ([`Expected::taken`]) and is given up
    /// when the `Expected` is dropped.
    pub fn expect(self: &Arc<Self>, lead: i64) -> Expected {
        self.in_use
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let notify = Arc::new(Notify::new());
        let mut state = self.lock();
        if state.taken.contains(&lead) {
            notify.notify_one();
        } else {
            state.waiting.entry(lead).or_default().push(notify.clone());
        }
        Expected {
            lead,
            notify,
            copies: self.clone(),
        }
    }

    /// Whether any answer has waited for a first copy since the start.
    pub fn in_use(&self) -> bool {
        self.in_use.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The leads whose first copy someone waits for, or is wanted first, for a lane to send first.
    pub fn awaited(&self) -> Vec<i64> {
        let state = self.lock();
        state
            .waiting
            .keys()
            .chain(state.wanted.iter())
            .copied()
            .collect()
    }

    /// The worker: `lead`'s news was taken by the relay or the webhook.
    pub fn taken(&self, lead: i64) {
        let mut state = self.lock();
        state.last_taken = Some(Instant::now());
        state.wanted.retain(|wanted| *wanted != lead);
        if let Some(waiters) = state.waiting.remove(&lead) {
            for waiter in waiters {
                // A permit is kept if the waiter is not polling yet: never lost.
                waiter.notify_one();
            }
        }
        if !state.taken.contains(&lead) {
            if state.taken.len() == REMEMBERED {
                state.taken.pop_front();
            }
            state.taken.push_back(lead);
        }
    }

    /// When a copy of any lead was last taken.
    pub fn last_taken(&self) -> Option<Instant> {
        self.lock().last_taken
    }
}

/// A wait for one lead's first copy.
pub struct Expected {
    lead: i64,
    notify: Arc<Notify>,
    copies: Arc<FirstCopies>,
}

impl Expected {
    /// Returns once the lead's first copy was taken.
    pub async fn taken(&self) {
        self.notify.notified().await;
    }

    /// When a copy of any lead was last taken: whether the agency's channels work.
    pub fn last_taken(&self) -> Option<Instant> {
        self.copies.last_taken()
    }

    /// Nobody waits for this lead's copy any more (it was answered at once), but the lanes still send it first.
    pub fn still_wanted(self) {
        let mut state = self.copies.lock();
        if state.taken.contains(&self.lead) || state.wanted.contains(&self.lead) {
            return;
        }
        if state.wanted.len() == REMEMBERED {
            state.wanted.pop_front();
        }
        state.wanted.push_back(self.lead);
    }
}

impl Drop for Expected {
    fn drop(&mut self) {
        let mut state = self.copies.lock();
        if let Some(waiters) = state.waiting.get_mut(&self.lead) {
            waiters.retain(|waiter| !Arc::ptr_eq(waiter, &self.notify));
            if waiters.is_empty() {
                state.waiting.remove(&self.lead);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rocket::async_test]
    async fn a_copy_ends_its_wait_whether_taken_before_or_after_it_began() {
        let copies = Arc::new(FirstCopies::default());
        let waiting = copies.expect(7);
        assert_eq!(copies.awaited(), [7]);
        copies.taken(7);
        waiting.taken().await;
        // Taken first, waited for after: the wait ends at once.
        copies.taken(8);
        copies.expect(8).taken().await;
        assert!(copies.awaited().is_empty());
        assert!(copies.last_taken().is_some());
    }

    #[test]
    fn a_lead_answered_at_once_is_still_sent_first_until_taken() {
        let copies = Arc::new(FirstCopies::default());
        copies.expect(5).still_wanted();
        assert_eq!(copies.awaited(), [5]);
        copies.taken(5);
        assert!(copies.awaited().is_empty());
    }

    #[test]
    fn a_wait_given_up_is_forgotten() {
        let copies = Arc::new(FirstCopies::default());
        let first = copies.expect(9);
        let second = copies.expect(9);
        drop(first);
        assert_eq!(copies.awaited(), [9]);
        drop(second);
        assert!(copies.awaited().is_empty());
    }
}
