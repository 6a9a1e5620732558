//! The `deliveries` table (migrations 0003, 0007, 0008, 0010): rows written with a lead or for the owner's report,
//! each attempt's outcome, and what the CLI and `/healthz` show of them; which are due, and in what order, is
//! [`due`]. Plain SQL on any connection to the leads file.

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};

use super::{Channel, Kind};
use crate::store;

mod details;
mod due;
pub use details::enqueue_details;
pub use due::*;

/// At most one confirmation per visitor address in this window, so the forms cannot mail-bomb someone else.
pub const AUTOREPLY_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A new delivery's id for its receiver: 128 random bits, unique, the same on every attempt.
fn new_key() -> String {
    format!("{:032x}", fastrand::u128(..))
}

/// Writes the deliveries of a new lead in its transaction, due now: one per channel, except the visitor's
/// confirmation when that address got one in the last 24 h. One statement for all of them: this runs in every
/// lead's transaction, inside the writer's turn that the other leads wait for. With `urgent` (a claim), the
/// agency's e-mail and webhook are marked to go ahead of everything waiting on their lanes ([`urgent`]).
pub fn enqueue(
    transaction: &rusqlite::Transaction<'_>,
    lead_id: i64,
    channels: &[Channel],
    visitor_email: &str,
    urgent: bool,
) -> rusqlite::Result<()> {
    let now = now_ms();
    let created_at = store::now();
    let mut rows: Vec<(Channel, Option<String>)> = Vec::with_capacity(channels.len());
    for &channel in channels {
        let recipient =
            (channel == Channel::Autoreply).then(|| visitor_email.trim().to_lowercase());
        if let Some(address) = &recipient {
            let recent: bool = transaction.query_row(
                "SELECT EXISTS (SELECT 1 FROM deliveries WHERE channel = 'autoreply' AND recipient = ?1 \
                 AND created_ms > ?2)",
                params![address, now - AUTOREPLY_WINDOW_MS],
                |row| row.get(0),
            )?;
            if recent {
                continue;
            }
        }
        rows.push((channel, recipient));
    }
    if rows.is_empty() {
        return Ok(());
    }
    // ?1 the lead, ?2 the time stamp, ?3 the milliseconds; then key, channel, recipient and urgency of each row.
    let tuples: Vec<String> = (0..rows.len())
        .map(|n| {
            let first = 4 + 4 * n;
            format!(
                "(?{first}, ?1, ?{}, ?{}, ?2, ?3, ?3, ?3, ?{})",
                first + 1,
                first + 2,
                first + 3
            )
        })
        .collect();
    let sql = format!(
        "INSERT INTO deliveries (key, lead_id, channel, recipient, created_at, created_ms, queued_ms, \
         next_attempt_ms, urgent) VALUES {}",
        tuples.join(", ")
    );
    let keys: Vec<String> = rows.iter().map(|_| new_key()).collect();
    let names: Vec<&str> = rows.iter().map(|(channel, _)| channel.as_str()).collect();
    // The visitor's own confirmation is never urgent: the agency's news of a claim is.
    let urgency: Vec<bool> = rows
        .iter()
        .map(|(channel, _)| urgent && *channel != Channel::Autoreply)
        .collect();
    let mut values: Vec<&dyn rusqlite::ToSql> = vec![&lead_id, &created_at, &now];
    for ((((_, recipient), key), name), urgent) in rows.iter().zip(&keys).zip(&names).zip(&urgency)
    {
        values.extend([key as &dyn rusqlite::ToSql, name, recipient, urgent]);
    }
    // Prepared once per connection and number of channels.
    transaction
        .prepare_cached(&sql)?
        .execute(values.as_slice())?;
    Ok(())
}

/// Writes news for the agency (`kind`, about `lead_id` or carrying `payload`) on each of `channels` that reaches
/// the agency (e-mail, webhook; never the visitor's confirmation), due now: an x-date's (src/status/xdates.rs) too.
pub fn enqueue_agency_news(
    transaction: &rusqlite::Transaction<'_>,
    kind: Kind,
    lead_id: Option<i64>,
    payload: Option<&str>,
    channels: &[Channel],
) -> rusqlite::Result<()> {
    let now = now_ms();
    let created_at = store::now();
    for &channel in channels {
        if channel == Channel::Autoreply {
            continue;
        }
        transaction.execute(
            "INSERT INTO deliveries (key, lead_id, kind, channel, payload, created_at, created_ms, queued_ms, \
             next_attempt_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?7)",
            params![new_key(), lead_id, kind.as_str(), channel.as_str(), payload, created_at, now],
        )?;
    }
    Ok(())
}

/// Queues the owner's report (kind `report`, no lead) for the e-mail channel, due now, with its rendered message
/// (`payload`, JSON: see `compose::report`); returns the delivery's id. Whichever process runs the e-mail lane (the
/// server, now or at its next start) sends it.
pub fn enqueue_report(connection: &Connection, payload: &str) -> rusqlite::Result<i64> {
    enqueue_owner_mail(connection, payload, false)
}

/// Queues an alert to the owner (`src/alerts`): a message like the report's, sent ahead of the other deliveries on
/// the e-mail lane (`urgent`, as a claim's news), so a backlog does not hold it.
pub fn enqueue_alert(connection: &Connection, payload: &str) -> rusqlite::Result<i64> {
    enqueue_owner_mail(connection, payload, true)
}

fn enqueue_owner_mail(
    connection: &Connection,
    payload: &str,
    urgent: bool,
) -> rusqlite::Result<i64> {
    let _writer = store::writer();
    let now = now_ms();
    connection.execute(
        "INSERT INTO deliveries (key, kind, channel, payload, created_at, created_ms, queued_ms, next_attempt_ms, \
         urgent) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?6, ?7)",
        params![new_key(), Kind::Report.as_str(), Channel::Email.as_str(), payload, store::now(), now, urgent],
    )?;
    Ok(connection.last_insert_rowid())
}

/// Queues the agency's news of a revocation (kind `opt_out`, no lead) on each of `channels` that reaches the agency
/// (e-mail, webhook), due now, inside the revocation's transaction; `payload` is `consent::revocations::OptOutNews`.
pub fn enqueue_opt_out(
    transaction: &rusqlite::Transaction<'_>,
    payload: &str,
    channels: &[Channel],
) -> rusqlite::Result<()> {
    enqueue_agency_news(transaction, Kind::OptOut, None, Some(payload), channels)
}

/// Queues the webhook's news of lead `lead_id`'s status change (kind `status`, `payload` the change as JSON) inside
/// the change's transaction, due now. The webhook alone: the agency made the change, its e-mail needs no news of it.
pub fn enqueue_status(
    transaction: &rusqlite::Transaction<'_>,
    lead_id: i64,
    payload: &str,
) -> rusqlite::Result<()> {
    enqueue_agency_news(
        transaction,
        Kind::Status,
        Some(lead_id),
        Some(payload),
        &[Channel::Webhook],
    )
}

/// Queues the agency's reminder about lead `lead_id` (kind `reminder`, e-mail), due now, unless it has one already
/// (one per lead, held by the table's unique index); returns whether it was queued.
pub fn enqueue_reminder(connection: &Connection, lead_id: i64) -> rusqlite::Result<bool> {
    let _writer = store::writer();
    let now = now_ms();
    let queued = connection.execute(
        "INSERT OR IGNORE INTO deliveries (key, lead_id, kind, channel, created_at, created_ms, queued_ms, \
         next_attempt_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?6)",
        params![new_key(), lead_id, Kind::Reminder.as_str(), Channel::Email.as_str(), store::now(), now],
    )?;
    Ok(queued == 1)
}

/// What an attempt changes in a delivery's row.
#[derive(Debug, Clone, PartialEq)]
pub enum Update {
    Sent,
    /// Failed for now: try again at this time (Unix ms).
    RetryAt(i64, String),
    /// Failed for good, with the reason.
    Failed(String),
    /// Never to be sent (a confirmation to an address that opted out), with the reason.
    Withheld(String),
}

/// Records attempts (delivery id, outcome), all in one transaction: one commit for a batch, not one per delivery.
pub fn record_all(connection: &Connection, updates: &[(i64, Update)]) -> rusqlite::Result<()> {
    let _writer = store::writer();
    let transaction = connection.unchecked_transaction()?;
    for (id, update) in updates {
        record(&transaction, *id, update)?;
    }
    transaction.commit()
}

/// Records one attempt of delivery `id` (the caller holds the writer's turn).
fn record(connection: &Connection, id: i64, update: &Update) -> rusqlite::Result<()> {
    let now = store::now();
    match update {
        Update::Sent => connection.execute(
            "UPDATE deliveries SET state = 'sent', attempts = attempts + 1, last_attempt_at = ?2, sent_at = ?2 \
             WHERE id = ?1",
            params![id, now],
        ),
        Update::RetryAt(at, error) => connection.execute(
            "UPDATE deliveries SET attempts = attempts + 1, last_attempt_at = ?2, next_attempt_ms = ?3, \
             last_error = ?4 WHERE id = ?1",
            params![id, now, at, error],
        ),
        Update::Failed(error) => connection.execute(
            "UPDATE deliveries SET state = 'failed', attempts = attempts + 1, last_attempt_at = ?2, last_error = ?3 \
             WHERE id = ?1",
            params![id, now, error],
        ),
        Update::Withheld(reason) => connection.execute(
            "UPDATE deliveries SET state = 'withheld', last_attempt_at = ?2, last_error = ?3 WHERE id = ?1",
            params![id, now, reason],
        ),
    }
    .map(drop)
}

/// One row of `truckins outbox list`.
#[derive(Debug, Clone)]
pub struct Listed {
    pub id: i64,
    /// None for a delivery about no lead (kind `report`).
    pub lead_id: Option<i64>,
    pub kind: String,
    pub channel: String,
    pub state: String,
    pub attempts: i64,
    pub created_at: String,
    /// Unix ms of the next attempt, for pending ones.
    pub next_attempt_ms: Option<i64>,
    pub last_error: Option<String>,
}

/// The columns a [`Listed`] is read from, in [`listed`]'s order.
const LISTED: &str = "id, lead_id, channel, state, attempts, created_at, \
     CASE WHEN state = 'pending' THEN next_attempt_ms END, last_error, kind";

/// A row of [`LISTED`] columns.
fn listed(row: &rusqlite::Row<'_>) -> rusqlite::Result<Listed> {
    Ok(Listed {
        id: row.get(0)?,
        lead_id: row.get(1)?,
        channel: row.get(2)?,
        state: row.get(3)?,
        attempts: row.get(4)?,
        created_at: row.get(5)?,
        next_attempt_ms: row.get(6)?,
        last_error: row.get(7)?,
        kind: row.get(8)?,
    })
}

/// Deliveries newest first, of one state if given.
pub fn list(
    connection: &Connection,
    state: Option<&str>,
    limit: u32,
) -> rusqlite::Result<Vec<Listed>> {
    let mut statement = connection.prepare(&format!(
        "SELECT {LISTED} FROM deliveries WHERE (?1 IS NULL OR state = ?1) ORDER BY id DESC LIMIT ?2"
    ))?;
    let rows = statement.query_map(params![state, limit], listed)?;
    rows.collect()
}

/// Lead `lead_id`'s deliveries, oldest first (`truckins leads show`).
pub fn of_lead(connection: &Connection, lead_id: i64) -> rusqlite::Result<Vec<Listed>> {
    let mut statement = connection.prepare(&format!(
        "SELECT {LISTED} FROM deliveries WHERE lead_id = ?1 ORDER BY id"
    ))?;
    let rows = statement.query_map([lead_id], listed)?;
    rows.collect()
}

/// Puts delivery `id` back in the queue, due now, with a new 24 h of attempts; its delivery key stays. Returns
/// its state before, or `None` when there is no such delivery.
pub fn retry(connection: &Connection, id: i64) -> rusqlite::Result<Option<String>> {
    let _writer = store::writer();
    let state: Option<String> = connection
        .query_row("SELECT state FROM deliveries WHERE id = ?1", [id], |row| {
            row.get(0)
        })
        .optional()?;
    if state.is_some() {
        let now = now_ms();
        connection.execute(
            "UPDATE deliveries SET state = 'pending', attempts = 0, queued_ms = ?2, next_attempt_ms = ?2 \
             WHERE id = ?1",
            params![id, now],
        )?;
    }
    Ok(state)
}

/// Puts every failed delivery back in the queue (see [`retry`]); returns how many.
pub fn retry_all_failed(connection: &Connection) -> rusqlite::Result<usize> {
    let _writer = store::writer();
    let now = now_ms();
    connection.execute(
        "UPDATE deliveries SET state = 'pending', attempts = 0, queued_ms = ?1, next_attempt_ms = ?1 \
         WHERE state = 'failed'",
        [now],
    )
}

/// How many deliveries are pending on channels that are not in `on`: read before [`fail_unconfigured`] writes, so
/// that a start with nothing to mark writes nothing (and a read-only database starts quietly).
pub fn pending_unconfigured(connection: &Connection, on: &[Channel]) -> rusqlite::Result<usize> {
    let mut pending: i64 = 0;
    for channel in channels_off(on) {
        pending += connection.query_row(
            "SELECT COUNT(*) FROM deliveries WHERE state = 'pending' AND channel = ?1",
            [channel.as_str()],
            |row| row.get::<_, i64>(0),
        )?;
    }
    Ok(usize::try_from(pending).unwrap_or(0))
}

/// Every channel that is not in `on`.
fn channels_off(on: &[Channel]) -> impl Iterator<Item = Channel> + '_ {
    Channel::ALL
        .into_iter()
        .filter(move |channel| !on.contains(channel))
}

/// Marks the pending deliveries of the channels that are not in `on` as failed ("channel not configured"), so that
/// they wait for `truckins outbox retry` once the channel is configured again; returns how many.
pub fn fail_unconfigured(connection: &Connection, on: &[Channel]) -> rusqlite::Result<usize> {
    let _writer = store::writer();
    let now = store::now();
    let mut failed = 0;
    for channel in channels_off(on) {
        failed += connection.execute(
            "UPDATE deliveries SET state = 'failed', last_attempt_at = ?2, last_error = 'channel not configured' \
             WHERE state = 'pending' AND channel = ?1",
            params![channel.as_str(), now],
        )?;
    }
    Ok(failed)
}

/// The backlog `/healthz` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backlog {
    pub pending: i64,
    /// Age of the oldest pending delivery, in seconds.
    pub oldest_pending_seconds: Option<i64>,
    pub failed: i64,
}

pub fn backlog(connection: &Connection) -> rusqlite::Result<Backlog> {
    let (pending, oldest, failed): (i64, Option<i64>, i64) = connection.query_row(
        "SELECT (SELECT COUNT(*) FROM deliveries WHERE state = 'pending'), \
         (SELECT MIN(created_ms) FROM deliveries WHERE state = 'pending'), \
         (SELECT COUNT(*) FROM deliveries WHERE state = 'failed')",
        [],
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
    )?;
    Ok(Backlog {
        pending,
        oldest_pending_seconds: oldest.map(|created| ((now_ms() - created) / 1000).max(0)),
        failed,
    })
}

/// For `leads list`: whether each lead's notifications went out, in a word or two ("sent", "pending: webhook",
/// "FAILED: email"); leads without deliveries are absent.
pub fn summaries(
    connection: &Connection,
    lead_ids: &[i64],
) -> rusqlite::Result<HashMap<i64, String>> {
    let mut found: HashMap<i64, Vec<(String, String)>> = HashMap::new();
    let mut statement = connection.prepare_cached(
        "SELECT channel, state FROM deliveries WHERE lead_id = ?1 ORDER BY channel",
    )?;
    for &id in lead_ids {
        let rows = statement.query_map([id], |row| Ok((row.get(0)?, row.get(1)?)))?;
        for row in rows {
            found.entry(id).or_default().push(row?);
        }
    }
    Ok(found
        .into_iter()
        .map(|(id, rows)| {
            let of = |state: &str| -> Vec<&str> {
                rows.iter()
                    .filter(|(_, s)| s == state)
                    .map(|(c, _)| c.as_str())
                    .collect()
            };
            let summary = match (of("failed"), of("pending")) {
                (failed, _) if !failed.is_empty() => format!("FAILED: {}", failed.join(",")),
                (_, pending) if !pending.is_empty() => format!("pending: {}", pending.join(",")),
                _ => "sent".to_string(),
            };
            (id, summary)
        })
        .collect())
}

#[cfg(test)]
mod tests;
