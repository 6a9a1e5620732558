//! Where the agency has got with a lead (issue 26): a status change made in one transaction with its history row
//! (`status_changes`, migration 0012) and the webhook's `lead.status` event; the history read back; the signed links
//! of the agency's e-mail that make a change ([`links`]) and their pages ([`routes`], [`page`]); the reminder about a
//! lead nobody has touched ([`reminders`]); the x-dates of quotes not won ([`xdates`]).

mod looks;
mod page;
pub mod reminders;
pub mod routes;
pub mod xdates;

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use crate::notify::Channel;
use crate::store::{self, ChangedBy, Connection, Status, StoreError};

/// One row of a lead's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub from: Status,
    pub to: Status,
    /// RFC 3339 UTC.
    pub at: String,
    pub via: ChangedBy,
}

/// What asking for a change did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The lead moved from `from` to the new status at `at`.
    Changed { from: Status, at: String },
    /// The lead already had that status (since `since`, when its history says): nothing changed.
    Already { since: Option<String> },
    /// This link was used before (at `at`); the lead's status now is `now`: nothing changed.
    LinkUsed { at: String, now: Status },
    /// No lead has that id.
    NoLead,
}

/// The webhook's news of a change (kind `status`, stored as the delivery's payload).
#[derive(Debug, Serialize)]
struct StatusNews<'a> {
    lead_id: i64,
    from: Status,
    to: Status,
    changed_at: &'a str,
    via: ChangedBy,
}

/// Moves lead `id` to `to`, made `via` (with the signature of the link, for a link), and tells the webhook when it
/// is on (`channels`): the lead's row, its history row and the webhook's delivery in one transaction, so a CRM never
/// misses a change the history holds. A link used before, or a lead already at `to`, changes nothing.
pub fn change(
    connection: &Connection,
    id: i64,
    to: Status,
    via: ChangedBy,
    link: Option<&str>,
    channels: &[Channel],
) -> Result<Outcome, StoreError> {
    let _writer = store::writer();
    let transaction = connection.unchecked_transaction()?;
    let current: Option<Status> = transaction
        .query_row("SELECT status FROM leads WHERE id = ?1", [id], |row| {
            row.get(0)
        })
        .optional()?;
    let Some(from) = current else {
        return Ok(Outcome::NoLead);
    };
    if let Some(link) = link
        && let Some(at) = link_used(&transaction, id, link)?
    {
        return Ok(Outcome::LinkUsed { at, now: from });
    }
    if from == to {
        return Ok(Outcome::Already {
            since: since(&transaction, id, to)?,
        });
    }
    let at = store::now();
    transaction.execute(
        "UPDATE leads SET status = ?1 WHERE id = ?2",
        params![to, id],
    )?;
    transaction.execute(
        "INSERT INTO status_changes (lead_id, from_status, to_status, changed_at, via, link) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![id, from, to, at, via, link],
    )?;
    if channels.contains(&Channel::Webhook) {
        let news = StatusNews {
            lead_id: id,
            from,
            to,
            changed_at: &at,
            via,
        };
        let payload = serde_json::to_string(&news).map_err(|error| {
            StoreError::Sqlite(rusqlite::Error::ToSqlConversionFailure(Box::new(error)))
        })?;
        crate::notify::outbox::enqueue_status(&transaction, id, &payload)?;
    }
    transaction.commit()?;
    Ok(Outcome::Changed { from, at })
}

/// When the link of lead `id` signed `signature` (lower-case hex, as links are read: see [`links::Link::parse`]) made
/// its change, if it was used. Rows kept before links were read in one spelling only may hold a use made with
/// upper-case hex: compared in lower case, those uses count too. `lower(link)` cannot use the index on `link`, so the
/// lead's own changes (a few rows, by the index on `lead_id`) are the ones compared: a signature signs its lead, so
/// its use is always among them.
pub(crate) fn link_used(
    connection: &rusqlite::Connection,
    id: i64,
    signature: &str,
) -> rusqlite::Result<Option<String>> {
    connection
        .query_row(LINK_USED, params![id, signature], |row| row.get(0))
        .optional()
}

/// [`link_used`]'s query.
const LINK_USED: &str = "SELECT changed_at FROM status_changes WHERE lead_id = ?1 AND lower(link) = lower(?2) \
                         ORDER BY id LIMIT 1";

/// When lead `id` last came to `status`, if its history says.
pub(crate) fn since(
    connection: &rusqlite::Connection,
    id: i64,
    status: Status,
) -> rusqlite::Result<Option<String>> {
    connection
        .query_row(
            "SELECT changed_at FROM status_changes WHERE lead_id = ?1 AND to_status = ?2 ORDER BY id DESC LIMIT 1",
            params![id, status],
            |row| row.get(0),
        )
        .optional()
}

/// Lead `id`'s changes, oldest first.
pub fn history(connection: &rusqlite::Connection, id: i64) -> rusqlite::Result<Vec<Change>> {
    let mut statement = connection.prepare_cached(
        "SELECT from_status, to_status, changed_at, via FROM status_changes WHERE lead_id = ?1 ORDER BY id",
    )?;
    let rows = statement.query_map([id], |row| {
        Ok(Change {
            from: row.get(0)?,
            to: row.get(1)?,
            at: row.get(2)?,
            via: row.get(3)?,
        })
    })?;
    rows.collect()
}

/// The statuses a lead can be moved to from `current` (see [`Status::next`]).
pub fn next_statuses(current: Status) -> impl Iterator<Item = Status> {
    current.next()
}

#[cfg(test)]
mod tests;
