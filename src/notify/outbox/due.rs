//! Which deliveries a lane sends next, and in what order: those due, oldest first; a claim's news to the agency
//! (`urgent`) ahead of them; the first copy of a lead a visitor's answer is waiting for (`super::super::first_copy`)
//! ahead of everything. Each read with what it carries (`About`) and what the revocations say of its lead.

use rusqlite::{Connection, params};

use super::super::{Channel, Kind};
use crate::store::{self, Lead};

/// What a due delivery carries.
#[derive(Debug, Clone)]
pub enum About {
    /// A lead's news (kinds `lead`, `details`, `reminder`, `xdate`): the lead as it is now.
    Lead(Lead),
    /// The owner's report: its message as queued (JSON, read by `compose::report`).
    Report(String),
    /// A revocation of consent: the news as queued (JSON, `consent::revocations::OptOutNews`).
    OptOut(String),
    /// A lead's status change: the change as queued (JSON, see `status::change`), and the lead as it is now.
    Status(String, Lead),
}

/// A delivery due for an attempt, with what it carries.
#[derive(Debug, Clone)]
pub struct Due {
    pub id: i64,
    pub key: String,
    pub channel: Channel,
    pub kind: Kind,
    pub attempts: u32,
    pub queued_ms: i64,
    pub about: About,
    /// A visitor's confirmation held back: the date its address opted out (src/consent), sent never.
    pub withheld: Option<String>,
    /// What the revocations say of the lead, for the agency's e-mail and webhook (src/consent).
    pub standing: crate::consent::Standing,
    /// The agency's news of a claim: sent ahead of everything else waiting on its lane.
    pub urgent: bool,
    /// A quote's documents (names, sizes, hashes; never the bytes) for the agency's e-mail and webhook about it.
    pub documents: Vec<store::documents::Document>,
}

impl Due {
    /// The lead it is about; `None` for the report and an opt-out.
    pub fn lead(&self) -> Option<&Lead> {
        match &self.about {
            About::Lead(lead) | About::Status(_, lead) => Some(lead),
            About::Report(_) | About::OptOut(_) => None,
        }
    }
}

/// The kinds a channel's lane sends: the report goes by e-mail only (also held by the table's CHECK), so the webhook
/// and the visitor's confirmation never pick one up. `?1` is the channel. A macro, so that the queries below are
/// constants whose plans a test can read.
macro_rules! sent_kinds {
    () => {
        "(kind IN ('lead', 'details') OR (kind = 'xdate' AND ?1 <> 'autoreply') OR (kind IN ('report', 'reminder') AND ?1 = 'email') \
         OR (kind = 'opt_out' AND ?1 <> 'autoreply') OR (kind = 'status' AND ?1 = 'webhook'))"
    };
}

/// The pending deliveries of channel `?1` due by `?2`, oldest due first, at most `?3`. Read through the index of
/// pending deliveries, which is ordered by time alone (migration 0010): a lead's deliveries of every channel then add
/// entries to one page of it, which made a flood of leads with notifications about a tenth faster than an index by
/// channel (bench/RESULTS.md). A lane skips the other channels' entries due before its own; those are few while the
/// other lanes keep up, and only a channel failing through a flood of leads makes them many.
pub(super) const DUE_SQL: &str = concat!(
    "SELECT id, key, lead_id, attempts, queued_ms, kind, payload, urgent FROM deliveries \
     WHERE state = 'pending' AND channel = ?1 AND next_attempt_ms <= ?2 AND ",
    sent_kinds!(),
    " ORDER BY next_attempt_ms, id LIMIT ?3"
);

/// The pending urgent deliveries of channel `?1` (the agency's news of a claim), due by `?2` or not, at most `?3`,
/// through their own index (migration 0013): a lane that sends anything sends these first ([`urgent`]).
pub(super) const URGENT_SQL: &str = concat!(
    "SELECT id, key, lead_id, attempts, queued_ms, kind, payload, urgent FROM deliveries \
     WHERE state = 'pending' AND urgent = 1 AND channel = ?1 AND next_attempt_ms <= ?2 AND ",
    sent_kinds!(),
    " ORDER BY next_attempt_ms, id LIMIT ?3"
);

/// When the next pending delivery of channel `?1` is due, if before `?2`: the lane sleeps at most until then anyway,
/// so the index is read no further than that, however many deliveries of other channels wait behind.
pub(super) const NEXT_DUE_SQL: &str = concat!(
    "SELECT MIN(next_attempt_ms) FROM deliveries \
     WHERE state = 'pending' AND channel = ?1 AND next_attempt_ms < ?2 AND ",
    sent_kinds!()
);

/// Up to `limit` pending deliveries of `channel` due by `now`, oldest due first.
pub fn due(
    connection: &Connection,
    channel: Channel,
    now: i64,
    limit: u32,
) -> rusqlite::Result<Vec<Due>> {
    read_due(
        connection,
        DUE_SQL,
        channel,
        params![channel.as_str(), now, limit],
    )
}

/// What a lane sends next: the deliveries of `channel` due by `now` (at most `limit`, oldest due first) and, when
/// there are any, every urgent one waiting (a claim's news to the agency), due yet or not, put first. A claim is
/// thus never behind another delivery: whenever the lane sends anything (the relay back after an outage, the next
/// lead), the claims waiting go before it, while an urgent delivery alone still keeps its own retry times, so a
/// relay that is down is not hammered for it.
pub fn due_urgent_first(
    connection: &Connection,
    channel: Channel,
    now: i64,
    limit: u32,
) -> rusqlite::Result<Vec<Due>> {
    let due = read_due(
        connection,
        DUE_SQL,
        channel,
        params![channel.as_str(), now, limit],
    )?;
    if due.is_empty() {
        return Ok(due);
    }
    let mut batch = read_due(
        connection,
        URGENT_SQL,
        channel,
        params![channel.as_str(), i64::MAX, limit],
    )?;
    let first: Vec<i64> = batch.iter().map(|urgent| urgent.id).collect();
    batch.extend(due.into_iter().filter(|one| !first.contains(&one.id)));
    Ok(batch)
}

/// The pending news of each of `leads` (kind `lead`) on `channel` due by `?3`: the first copies that visitors'
/// answers wait for (`first_copy`), sent ahead of everything, even during a flood. Read through the unique index of a
/// lead's deliveries by channel (migration 0010), so a backlog of other deliveries costs nothing here.
pub(in crate::notify) const AWAITED_SQL: &str = "SELECT id, key, lead_id, attempts, queued_ms, kind, payload, \
     urgent FROM deliveries WHERE kind = 'lead' AND channel = ?1 AND state = 'pending' \
     AND next_attempt_ms <= ?3 AND lead_id IN (SELECT value FROM json_each(?2))";

/// The first copies of `leads` still to be sent on `channel` (see [`AWAITED_SQL`]).
pub fn due_awaited(
    connection: &Connection,
    channel: Channel,
    leads: &[i64],
    now: i64,
) -> rusqlite::Result<Vec<Due>> {
    if leads.is_empty() {
        return Ok(Vec::new());
    }
    let ids = format!(
        "[{}]",
        leads
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    read_due(
        connection,
        AWAITED_SQL,
        channel,
        params![channel.as_str(), ids, now],
    )
}

fn read_due(
    connection: &Connection,
    sql: &'static str,
    channel: Channel,
    values: impl rusqlite::Params,
) -> rusqlite::Result<Vec<Due>> {
    let mut statement = connection.prepare_cached(sql)?;
    let rows = statement
        .query_map(values, |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, Option<i64>>(2)?,
                row.get::<_, u32>(3)?,
                row.get::<_, i64>(4)?,
                row.get::<_, String>(5)?,
                row.get::<_, Option<String>>(6)?,
                row.get::<_, bool>(7)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut due = Vec::with_capacity(rows.len());
    // The revocations, read once for the batch when the agency's news of a lead is in it.
    let mut dates: Option<crate::consent::revocations::Dates> = None;
    for (id, key, lead_id, attempts, queued_ms, kind, payload, urgent) in rows {
        let Some(kind) = Kind::parse(&kind) else {
            continue;
        };
        let about = match (kind, lead_id, payload) {
            // The table's CHECK gives every report its payload.
            (Kind::Report, _, Some(payload)) => About::Report(payload),
            (Kind::OptOut, _, Some(payload)) => About::OptOut(payload),
            // The lead is there: deliveries go with it (ON DELETE CASCADE).
            (Kind::Lead | Kind::Details | Kind::Reminder | Kind::Xdate, Some(lead_id), _) => {
                match store::get(connection, lead_id)? {
                    Some(lead) => About::Lead(lead),
                    None => continue,
                }
            }
            (Kind::Status, Some(lead_id), Some(payload)) => {
                match store::get(connection, lead_id)? {
                    Some(lead) => About::Status(payload, lead),
                    None => continue,
                }
            }
            _ => continue,
        };
        // No confirmation ever goes to an address that opted out (after the lead's consent, or at all for a lead
        // that gave none).
        let withheld = match (&about, channel) {
            (About::Lead(lead), Channel::Autoreply) => {
                crate::consent::revocations::withheld_since(connection, lead)?
            }
            _ => None,
        };
        let standing = match (&about, channel) {
            (About::Lead(lead) | About::Status(_, lead), Channel::Email | Channel::Webhook) => {
                if dates.is_none() {
                    dates = Some(crate::consent::revocations::Dates::load(connection)?);
                }
                dates
                    .as_ref()
                    .map(|dates| dates.standing(lead))
                    .unwrap_or_default()
            }
            _ => crate::consent::Standing::default(),
        };
        // The documents of a quote, for the agency's news of it (what its submission holds).
        let documents = match (&about, channel) {
            (About::Lead(lead), Channel::Email | Channel::Webhook)
                if lead.source == store::Source::Quote && lead.erased_at.is_none() =>
            {
                store::documents::list(connection, lead.id)?
            }
            _ => Vec::new(),
        };
        due.push(Due {
            documents,
            id,
            key,
            channel,
            kind,
            attempts,
            queued_ms,
            about,
            withheld,
            standing,
            urgent,
        });
    }
    Ok(due)
}

/// When the next pending delivery of `channel` (of the kinds its lane sends) is due, if that is before `until`
/// (Unix ms).
pub fn next_due(
    connection: &Connection,
    channel: Channel,
    until: i64,
) -> rusqlite::Result<Option<i64>> {
    connection.query_row(NEXT_DUE_SQL, params![channel.as_str(), until], |row| {
        row.get(0)
    })
}
