//! X-dates (issue 39): a quote not won whose policy expires (its `policy_expiration`, from "Speed up your quote") is
//! worth re-quoting before that day. `xdate_lead_days` before it, whatever the hour, the agency gets one e-mail to
//! `notify_to` and the webhook a `lead.xdate` event (deliveries of kind `xdate`), queued in one transaction with
//! the lead's `xdate_sent_for` (migration 0017), which holds it to one per lead and expiration: a later post of the
//! details naming another date makes another. Days are the agency's (`time_zone`, [`crate::clock::local_today`]).
//! The server looks every [`EVERY`] (a fraction of a second under the tests' clock), and `/healthz` shows the
//! clock's time of its last look; `truckins leads xdates` lists the coming ones ([`coming`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use rocket::{Orbit, Rocket};
use rusqlite::{OptionalExtension, params};
use time::format_description::well_known::Rfc3339;
use time::{Date, OffsetDateTime};

use crate::config::Settings;
use crate::notify::{Channel, Outbox};
use crate::store::{DbPool, StoreError};

/// How often the server looks for x-dates fallen due.
pub const EVERY: Duration = Duration::from_secs(60);
/// How often under the tests' clock (`test_clock`), which a test moves by days at once.
const EVERY_UNDER_TEST_CLOCK: Duration = Duration::from_millis(200);

/// The clock's time (Unix seconds) at the start of the last look that finished; `i64::MIN` before the first.
static LAST_LOOK: AtomicI64 = AtomicI64::new(i64::MIN);

/// `2027-03-05`.
fn ymd(date: Date) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    date.format(format).unwrap_or_default()
}

fn parse_ymd(text: &str) -> Option<Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(text, format).ok()
}

/// The clock's time of the last finished look, as RFC 3339 (for `/healthz`); `None` before the first, or with
/// x-dates off.
pub fn last_look() -> Option<String> {
    let seconds = LAST_LOOK.load(Ordering::Relaxed);
    (seconds != i64::MIN)
        .then(|| OffsetDateTime::from_unix_timestamp(seconds).ok())
        .flatten()
        .and_then(|time| time.format(&Rfc3339).ok())
}

/// The leads whose x-date is due on `today` and not yet told: a policy expiring from today to `lead_days` later, not
/// won, not erased, not suspected spam, its expiration not the one last told. Read through the index of expirations
/// (migration 0017).
const DUE_SQL: &str = "SELECT id, policy_expiration FROM leads WHERE policy_expiration >= ?1 \
     AND policy_expiration <= ?2 AND status <> 'won' AND erased_at IS NULL AND suspected_spam = 0 \
     AND (xdate_sent_for IS NULL OR xdate_sent_for <> policy_expiration) ORDER BY policy_expiration, id";

/// Queues the x-dates due on `today` (see [`DUE_SQL`]) on the agency's `channels`, each with its lead marked told, in
/// one transaction; returns their leads.
pub fn queue_due(
    pool: &DbPool,
    lead_days: u32,
    today: Date,
    channels: &[Channel],
) -> Result<Vec<i64>, StoreError> {
    let last = today.saturating_add(time::Duration::days(i64::from(lead_days)));
    let due: Vec<(i64, String)> = {
        let connection = pool.get()?;
        connection
            .prepare_cached(DUE_SQL)?
            .query_map(params![ymd(today), ymd(last)], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })?
            .collect::<Result<_, _>>()?
    };
    // Only well-formed dates: text that merely sorts between two dates is no expiration.
    let due: Vec<(i64, String)> = due
        .into_iter()
        .filter(|(_, expiration)| parse_ymd(expiration).is_some())
        .collect();
    if due.is_empty() {
        return Ok(Vec::new());
    }
    crate::store::write(pool, |transaction| {
        let mut queued = Vec::new();
        for (id, expiration) in &due {
            // Checked again under the writer's turn: a status link may have marked it won since the read.
            let marked = transaction.execute(
                "UPDATE leads SET xdate_sent_for = ?1 WHERE id = ?2 AND policy_expiration = ?1 \
                 AND status <> 'won' AND erased_at IS NULL AND (xdate_sent_for IS NULL OR xdate_sent_for <> ?1)",
                params![expiration, id],
            )?;
            if marked == 1 {
                crate::notify::outbox::enqueue_agency_news(
                    transaction,
                    crate::notify::Kind::Xdate,
                    Some(*id),
                    None,
                    channels,
                )?;
                queued.push(*id);
            }
        }
        Ok(queued)
    })
}

/// A coming x-date, as `truckins leads xdates` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coming {
    pub id: i64,
    pub name: String,
    pub company: Option<String>,
    pub current_insurer: Option<String>,
    /// YYYY-MM-DD.
    pub policy_expiration: String,
    /// The day its e-mail is (or was) due; `None` with x-dates off.
    pub due: Option<Date>,
    /// Its e-mail's state when queued (`sent`, `pending`, `failed`, `withheld`; `queued` for the webhook's alone);
    /// `None` when not yet.
    pub told: Option<String>,
}

/// The x-dates of leads not won nor erased whose policy expires from `today` to `window_days` later, soonest first.
pub fn coming(
    connection: &rusqlite::Connection,
    today: Date,
    window_days: u32,
    lead_days: u32,
) -> rusqlite::Result<Vec<Coming>> {
    let last = today.saturating_add(time::Duration::days(i64::from(window_days)));
    let rows: Vec<(Coming, Option<String>)> = connection
        .prepare(
            "SELECT id, name, company, current_insurer, policy_expiration, xdate_sent_for FROM leads \
             WHERE policy_expiration >= ?1 AND policy_expiration <= ?2 AND status <> 'won' AND erased_at IS NULL \
             ORDER BY policy_expiration, id",
        )?
        .query_map(params![ymd(today), ymd(last)], |row| {
            Ok((
                Coming {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    company: row.get(2)?,
                    current_insurer: row.get(3)?,
                    policy_expiration: row.get(4)?,
                    due: None,
                    told: None,
                },
                row.get(5)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    let mut state = connection.prepare_cached(
        "SELECT state FROM deliveries WHERE lead_id = ?1 AND kind = 'xdate' ORDER BY channel <> 'email', id DESC \
         LIMIT 1",
    )?;
    let mut out = Vec::with_capacity(rows.len());
    for (mut coming, sent_for) in rows {
        let Some(expiration) = parse_ymd(&coming.policy_expiration) else {
            continue;
        };
        coming.due = (lead_days > 0)
            .then(|| expiration.saturating_sub(time::Duration::days(i64::from(lead_days))));
        if sent_for.as_deref() == Some(coming.policy_expiration.as_str()) {
            let found: Option<String> =
                state.query_row([coming.id], |row| row.get(0)).optional()?;
            coming.told = Some(found.unwrap_or_else(|| "queued".to_string()));
        }
        out.push(coming);
    }
    Ok(out)
}

/// Starts the looks in the server: only with `xdate_lead_days` above 0 and the agency's e-mail or webhook on. They
/// end with the runtime.
pub fn start(settings: &Settings, rocket: &Rocket<Orbit>) {
    let lead_days = settings.xdate_lead_days;
    let (Some(pool), Some(outbox)) = (rocket.state::<DbPool>(), rocket.state::<Outbox>()) else {
        return;
    };
    let channels: Vec<Channel> = outbox
        .channels()
        .iter()
        .copied()
        .filter(|channel| matches!(channel, Channel::Email | Channel::Webhook))
        .collect();
    if lead_days == 0 || channels.is_empty() {
        return;
    }
    let every = if settings.test_clock.is_some() {
        EVERY_UNDER_TEST_CLOCK
    } else {
        EVERY
    };
    let (pool, outbox) = (pool.clone(), outbox.clone());
    let look = move |now| queue_due(&pool, lead_days, crate::clock::local_date(now), &channels);
    super::looks::start("x-dates", every, &LAST_LOOK, Arc::new(look), move || {
        outbox.wake_news()
    });
}
