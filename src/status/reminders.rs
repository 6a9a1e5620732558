//! The reminder (issue 26): a lead still `new` after `remind_after_minutes` of the agency's business hours gets one
//! more e-mail to `notify_to`, through the outbox (kind `reminder`, at most one per lead: the table's unique index),
//! with the same status links. The server looks every [`EVERY`] (a fraction of a second under the tests' clock), and
//! `/healthz` shows the clock's time of its last look, so a test can tell "not yet" from "not looked yet".

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use rocket::{Orbit, Rocket};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::config::Settings;
use crate::notify::{Channel, Outbox};
use crate::store::{DbPool, StoreError};

/// How often the server looks for leads to remind the agency of.
pub const EVERY: Duration = Duration::from_secs(30);
/// How often under the tests' clock (`test_clock`), which a test moves by a day at once.
const EVERY_UNDER_TEST_CLOCK: Duration = Duration::from_millis(200);
/// A reminder more than this late (the server was stopped when it fell due) is not sent: news of a lead that old
/// is no reminder. It also keeps a server upgraded to this version from reminding of every older lead at once.
const LATEST: time::Duration = time::Duration::days(1);
/// Leads older than this are not looked at (a reminder 60 business minutes after a lead is due within days).
const LOOK_BACK: time::Duration = time::Duration::days(14);

/// The clock's time (Unix seconds) at the start of the last look that finished; `i64::MIN` before the first.
static LAST_LOOK: AtomicI64 = AtomicI64::new(i64::MIN);

/// The clock's time of the last finished look, as RFC 3339 (for `/healthz`); `None` before the first, or with
/// reminders off.
pub fn last_look() -> Option<String> {
    let seconds = LAST_LOOK.load(Ordering::Relaxed);
    (seconds != i64::MIN)
        .then(|| OffsetDateTime::from_unix_timestamp(seconds).ok())
        .flatten()
        .and_then(|time| time.format(&Rfc3339).ok())
}

/// Queues the reminders due at `now` for leads still new after `minutes` business minutes; returns their leads.
pub fn queue_due(pool: &DbPool, minutes: u32, now: OffsetDateTime) -> Result<Vec<i64>, StoreError> {
    let connection = pool.get()?;
    let since = (now - LOOK_BACK).format(&Rfc3339).unwrap_or_default();
    let waiting: Vec<(i64, String)> = connection
        .prepare_cached(
            "SELECT id, created_at FROM leads WHERE status = 'new' AND erased_at IS NULL AND created_at >= ?1 \
             AND NOT EXISTS (SELECT 1 FROM deliveries WHERE deliveries.lead_id = leads.id AND kind = 'reminder') \
             ORDER BY id",
        )?
        .query_map([since], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut queued = Vec::new();
    for (id, created_at) in waiting {
        let Ok(created) = OffsetDateTime::parse(&created_at, &Rfc3339) else {
            continue;
        };
        let due = crate::hours::add_business_minutes(created, i64::from(minutes));
        if due <= now
            && now < due + LATEST
            && crate::notify::outbox::enqueue_reminder(&connection, id)?
        {
            queued.push(id);
        }
    }
    Ok(queued)
}

/// Starts the looks in the server: only with e-mail on and `remind_after_minutes` above 0. They end with the runtime.
pub fn start(settings: &Settings, rocket: &Rocket<Orbit>) {
    let minutes = settings.remind_after_minutes;
    let (Some(pool), Some(outbox)) = (rocket.state::<DbPool>(), rocket.state::<Outbox>()) else {
        return;
    };
    if minutes == 0 || !outbox.channels().contains(&Channel::Email) {
        return;
    }
    let every = if settings.test_clock.is_some() {
        EVERY_UNDER_TEST_CLOCK
    } else {
        EVERY
    };
    let (pool, outbox) = (pool.clone(), outbox.clone());
    let look = move |now| queue_due(&pool, minutes, now);
    super::looks::start("reminders", every, &LAST_LOOK, Arc::new(look), move || {
        outbox.wake()
    });
}
