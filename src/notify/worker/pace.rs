//! How hard the delivery worker pushes: a lower priority than the requests, and holding its sends back while a
//! flood of leads comes in.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::notify::Outbox;

/// Leads a second above which the worker holds its sends back (see [`Pace`]).
pub const FLOOD: f64 = 20.0;
/// The longest the worker holds back during one flood: then it sends while the flood goes on.
pub const HOLD_BACK_AT_MOST: Duration = Duration::from_secs(20);
/// How often a held-back worker looks at the rate of leads again.
pub const HOLD_STEP: Duration = Duration::from_millis(250);

/// Whether the worker holds its sends back: during a flood of leads (a burst of spam or a load test, never a real
/// agency's rate) sending takes CPU and the writer's turn from the leads coming in, so the deliveries wait until it
/// is over, but at most [`HOLD_BACK_AT_MOST`] (then they share the machine with the leads until the flood ends).
/// Nothing is lost meanwhile: the deliveries are in the table. Used on the worker's thread only.
pub struct Pace {
    outbox: Outbox,
    state: Mutex<PaceState>,
}

struct PaceState {
    /// The count of committed leads at the last look, and when that was.
    seen: u64,
    seen_at: Instant,
    /// The leads a second between the last two looks.
    rate: f64,
    /// When the current flood began to hold the sends back.
    held_since: Option<Instant>,
}

impl Pace {
    pub fn new(outbox: Outbox) -> Pace {
        let seen = outbox.committed();
        Pace {
            outbox,
            state: Mutex::new(PaceState {
                seen,
                seen_at: Instant::now(),
                rate: 0.0,
                held_since: None,
            }),
        }
    }

    /// True when the sends are to wait a step now.
    pub fn hold_back(&self) -> bool {
        self.hold_back_at(Instant::now(), self.outbox.committed())
    }

    /// [`Pace::hold_back`] at `now`, with `committed` leads so far.
    fn hold_back_at(&self, now: Instant, committed: u64) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let elapsed = now - state.seen_at;
        if elapsed >= HOLD_STEP {
            state.rate = committed.saturating_sub(state.seen) as f64 / elapsed.as_secs_f64();
            state.seen = committed;
            state.seen_at = now;
        }
        if state.rate <= FLOOD {
            state.held_since = None;
            return false;
        }
        let since = *state.held_since.get_or_insert(now);
        if now - since < HOLD_BACK_AT_MOST {
            return true;
        }
        if now - since < HOLD_BACK_AT_MOST + HOLD_STEP {
            rocket::warn!(
                "notifications: {:.0} leads a second for {} s; sending their deliveries alongside",
                state.rate,
                HOLD_BACK_AT_MOST.as_secs()
            );
        }
        false
    }
}

/// Lowers the calling thread's scheduling priority (nice 10): under a flood of leads the requests get the CPU first
/// and the deliveries what is left; on a server with CPU to spare it changes nothing. (Their database work runs on
/// the server's own blocking threads, at its priority, as it takes the writer's turn the leads wait for.)
pub fn lower_priority() {
    // SAFETY: gettid and setpriority read only their arguments; on Linux the nice value is per thread.
    unsafe {
        let thread = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, thread, 10);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;

    #[test]
    fn a_flood_holds_the_sends_back_for_a_while_then_no_longer() {
        let pace = Pace::new(Outbox::new(&Settings::default()));
        let start = Instant::now();
        let step = |n: u32| start + HOLD_STEP * n;
        // A lead now and then: no hold.
        assert!(!pace.hold_back_at(step(1), 2));
        // 100 leads in a step (400 a second): held back...
        assert!(pace.hold_back_at(step(2), 102));
        let steps_in_hold = (HOLD_BACK_AT_MOST.as_millis() / HOLD_STEP.as_millis()) as u32;
        let mut committed = 102;
        for n in 3..2 + steps_in_hold {
            committed += 100;
            assert!(pace.hold_back_at(step(n), committed), "step {n}");
        }
        // ...for at most HOLD_BACK_AT_MOST: then the sends go on while the flood lasts,
        for n in 2 + steps_in_hold..6 + steps_in_hold {
            committed += 100;
            assert!(!pace.hold_back_at(step(n), committed), "step {n}");
        }
        // and a new flood after a calm holds them back again.
        let calm = 6 + steps_in_hold;
        assert!(!pace.hold_back_at(step(calm), committed));
        assert!(pace.hold_back_at(step(calm + 1), committed + 100));
    }
}
