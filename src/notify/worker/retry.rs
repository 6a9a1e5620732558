//! The retry policy: when a delivery that did not go through is tried again, and when trying stops.

use std::time::Duration;

use super::Outcome;
use crate::notify::outbox::{Due, Update};

/// Retries stop this long after a delivery was queued; it is then failed.
pub const GIVE_UP_AFTER: Duration = Duration::from_secs(24 * 60 * 60);
/// The longest wait between two attempts.
const LONGEST_WAIT: Duration = Duration::from_secs(60 * 60);

/// The wait before the next attempt, after `attempts` failed ones: `base` seconds doubling each time, at most an
/// hour, then spread by ±25 % so that deliveries failed together do not all come back together.
pub fn retry_delay(base: f64, attempts: u32) -> Duration {
    let doubled = base * 2f64.powi(attempts.saturating_sub(1).min(30) as i32);
    let wait = doubled.min(LONGEST_WAIT.as_secs_f64());
    Duration::from_secs_f64(wait * (0.75 + fastrand::f64() * 0.5))
}

/// What an attempt's outcome writes: sent, the next attempt's time, or failed (refused, or 24 h of trying over).
pub fn update(outcome: Outcome, due: &Due, base: f64, now_ms: i64) -> Update {
    match outcome {
        Outcome::Sent => Update::Sent,
        Outcome::Failed(reason) => Update::Failed(reason),
        Outcome::Withheld(reason) => Update::Withheld(reason),
        Outcome::Retry(reason) => {
            let attempts = due.attempts + 1;
            if now_ms - due.queued_ms >= GIVE_UP_AFTER.as_millis() as i64 {
                Update::Failed(format!(
                    "gave up after {attempts} attempts in 24 h: {reason}"
                ))
            } else {
                let wait = retry_delay(base, attempts).as_millis() as i64;
                Update::RetryAt(now_ms + wait, reason)
            }
        }
    }
}
