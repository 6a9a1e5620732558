//! Lead storage: one SQLite file, opened through an r2d2 pool with durable settings (WAL, `synchronous=FULL`, a busy
//! timeout), its schema migrations embedded and applied at start. A lead is committed before the caller answers,
//! and a repeated `submission_id` finds the first lead instead of storing a second.
//!
//! The pool remembers which file it opened (device and inode). SQLite keeps writing through the file descriptors
//! it holds even after the file, its `-wal` and `-shm` were deleted or replaced, so a lead would be committed into
//! a file that is gone at the next restart: every write and every answer from the file checks first that the
//! configured path still names that file ([`DbPool::check_file`]), and [`probe`] proves for `/healthz` that a
//! write would be taken (one row, replaced at each check).

pub mod details;
pub mod documents;
mod error;
mod group;
mod kinds;
mod migrations;
mod pool;
pub mod request;
pub mod schedules;
mod snapshot;

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

/// The time stamps stored with leads (kept here too: callers of the store name it as `store::now`).
pub use crate::clock::now;
pub use error::StoreError;
pub use group::Also;
pub use kinds::{ChangedBy, Language, Source, Status, Via};
pub use pool::{Checkpoints, Connection, DbPool, create_private, open, open_with};
pub use request::Request;
pub use schedules::{Driver, Loss, Rows, Schedules, Vehicle};
pub use snapshot::CarrierSnapshot;

/// Declares [`Lead`] and [`COLUMNS`] from one list of fields in storage order (the `leads` table's columns after
/// `id`), so that a column is named once: inserting, reading and exporting a lead all go through that list.
macro_rules! lead_columns {
    ($($field:ident: $type:ty,)*) => {
        /// Everything stored about one lead.
        #[derive(Debug, Clone, Default, Serialize)]
        pub struct Lead {
            pub id: i64,
            $(pub $field: $type,)*
        }

        /// The columns in storage order; export and queries use the same list.
        pub const COLUMNS: &[&str] = &["id", $(stringify!($field)),*];

        impl Lead {
            /// The values of every column but `id`, in [`COLUMNS`] order.
            fn values(&self) -> Vec<&dyn rusqlite::ToSql> {
                vec![$(&self.$field),*]
            }

            /// A lead from a row holding every column of [`COLUMNS`], in that order.
            fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Lead> {
                let mut index = 0..;
                let mut next = || index.next().unwrap_or_default();
                let mut lead = Lead {
                    id: row.get(next())?,
                    $($field: row.get(next())?,)*
                };
                lead.carrier_snapshot = CarrierSnapshot::or_none(lead.carrier_snapshot);
                Ok(lead)
            }
        }
    };
}

lead_columns! {
    source: Source,
    status: Status,
    created_at: String,
    name: String,
    email: String,
    phone: Option<String>,
    company: Option<String>,
    insurance_type: Option<String>,
    vehicle_count: Option<i64>,
    dot_number: Option<String>,
    subject: Option<String>,
    message: Option<String>,
    consent_given: bool,
    consent_text: Option<String>,
    consent_version: Option<String>,
    consent_at: Option<String>,
    ip: Option<String>,
    user_agent: Option<String>,
    page_url: Option<String>,
    utm_source: Option<String>,
    utm_medium: Option<String>,
    utm_campaign: Option<String>,
    utm_term: Option<String>,
    utm_content: Option<String>,
    gclid: Option<String>,
    referrer: Option<String>,
    landing_page: Option<String>,
    submission_id: Option<String>,
    carrier_snapshot: Option<CarrierSnapshot>,
    // A certificate of insurance request (source `coi`, migration 0006).
    insured_name: Option<String>,
    certificate_holder: Option<String>,
    holder_address: Option<String>,
    additional_insured: Option<bool>,
    waiver_of_subrogation: Option<bool>,
    needed_by: Option<String>,
    notes: Option<String>,
    // The operation's details a quote's visitor added later (`POST /api/leads/details`, migration 0006); a later
    // post replaces them all. Lists (states, commodities) are stored comma-separated.
    mc_number: Option<String>,
    years_in_business: Option<i64>,
    radius: Option<String>,
    operating_states: Option<String>,
    commodities: Option<String>,
    commodities_other: Option<String>,
    hazmat: Option<bool>,
    power_units: Option<i64>,
    trailers: Option<i64>,
    drivers: Option<i64>,
    current_insurer: Option<String>,
    policy_expiration: Option<String>,
    effective_date: Option<String>,
    claims_3y: Option<i64>,
    best_time_to_call: Option<String>,
    details_at: Option<String>,
    // The language of the pages it was sent from (migration 0009): the agency calls back in it.
    language: Language,
    // When the personal fields were erased, by `truckins leads forget` or the retention period (migration 0011).
    erased_at: Option<String>,
    // A claim's or a policy change's own fields (issue 28, migration 0013), as validated.
    request: Option<Request>,
    // Sent faster than a person types (issue 36, migration 0014): kept, marked, the agency told and no confirmation
    // sent (src/leads/pipeline.rs).
    suspected_spam: bool,
    // A quote's schedules (issue 39, migration 0017), sent with its details and replaced with them.
    vehicle_schedule: Option<Rows<Vehicle>>,
    driver_schedule: Option<Rows<Driver>>,
    loss_history: Option<Rows<Loss>>,
    // The policy expiration the agency was last reminded to re-quote for (the x-date, src/status/xdates.rs).
    xdate_sent_for: Option<String>,
}

/// Whether a lead was stored now or had been stored before under the same submission id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    New(i64),
    Repeat(i64),
}

/// SQLite takes one writer at a time; writers of this process queue here instead of in SQLite's busy handler,
/// whose sleep-and-retry loop made the slowest submissions wait seconds under load.
static WRITER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Stores a lead (its `id` is ignored) and commits, or finds the lead stored earlier with its submission id.
/// Either way, the lead is in the file at the configured path when this returns `Ok`.
pub fn insert(pool: &DbPool, lead: &Lead) -> Result<Stored, StoreError> {
    insert_with(pool, lead, Box::new(|_, _| Ok(())))
}

/// [`insert`], with `also` run in the same transaction after a new lead's row (given its id), before the commit:
/// the lead and what must follow from it (its deliveries, src/notify) are stored together or not at all. Leads
/// submitted at the same moment share one commit (see [`group`]).
pub fn insert_with(pool: &DbPool, lead: &Lead, also: Also) -> Result<Stored, StoreError> {
    group::insert(pool, lead, also)
}

/// The statement inserting a lead's row (every column but `id`), made once.
fn insert_sql() -> &'static str {
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let placeholders = (1..COLUMNS.len())
            .map(|i| format!("?{i}"))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "INSERT INTO leads ({}) VALUES ({placeholders})",
            COLUMNS[1..].join(", ")
        )
    });
    &SQL
}

/// This process's turn to write: every writer of the file takes it (see [`WRITER`]).
pub fn writer() -> std::sync::MutexGuard<'static, ()> {
    WRITER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The lead with this id, read through any connection to the file.
pub fn get(connection: &rusqlite::Connection, id: i64) -> rusqlite::Result<Option<Lead>> {
    let sql = format!("SELECT {} FROM leads WHERE id = ?1", COLUMNS.join(", "));
    connection.query_row(&sql, [id], Lead::from_row).optional()
}

/// Runs `work` inside one write transaction and commits it into the file at the configured path, queued behind
/// every other writer of this process like the leads are (the visit counts write their batches through it).
pub fn write<T>(
    pool: &DbPool,
    work: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    write_checked(pool, work).map_err(|error| error.error)
}

/// Why [`write_checked`] failed, and whether its transaction was committed all the same (only the check of the file
/// after the commit failed: what was written is in the file that was open, and writing it again would add it twice).
#[derive(Debug)]
pub struct WriteError {
    pub error: StoreError,
    pub committed: bool,
}

impl From<StoreError> for WriteError {
    fn from(error: StoreError) -> WriteError {
        WriteError {
            error,
            committed: false,
        }
    }
}

impl From<rusqlite::Error> for WriteError {
    fn from(error: rusqlite::Error) -> WriteError {
        WriteError::from(StoreError::from(error))
    }
}

impl From<r2d2::Error> for WriteError {
    fn from(error: r2d2::Error) -> WriteError {
        WriteError::from(StoreError::from(error))
    }
}

/// [`write`], telling a failure after the commit from one before it.
pub fn write_checked<T>(
    pool: &DbPool,
    work: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError>,
) -> Result<T, WriteError> {
    let mut connection = pool.get()?;
    let _writer = writer();
    let transaction =
        connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    pool.check_file()?;
    let result = work(&transaction)?;
    transaction.commit()?;
    pool.check_file().map_err(|error| WriteError {
        error,
        committed: true,
    })?;
    Ok(result)
}

/// The health check: a write to the database is committed, as a lead's is, and the file written is the one at the
/// configured path. Committed, not rolled back: a rolled-back write never leaves SQLite's page cache, so it passed
/// on a full disk (or a file made immutable under the server) while every lead's commit failed there. The write is
/// one row, replaced each time (`health_probe` keeps the time of the last check), so it grows nothing; its cost is
/// one synced commit per probe, and `/healthz` probes one at a time and at most once in 2 s, its checks in between
/// given the last probe's answer (src/ops).
pub fn probe(pool: &DbPool) -> Result<(), StoreError> {
    let mut connection = pool.get()?;
    // In line with the leads, as any writer of this process.
    let _writer = writer();
    let transaction =
        connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    transaction.execute(
        "INSERT OR REPLACE INTO health_probe (id, checked_at) VALUES (1, ?1)",
        params![now()],
    )?;
    transaction.commit()?;
    pool.check_file()
}

/// The id of the lead of this `source` (form) stored earlier under `submission_id`, if any.
pub fn find_submission(
    pool: &DbPool,
    source: Source,
    submission_id: &str,
) -> Result<Option<i64>, StoreError> {
    let connection = pool.get()?;
    let id = connection
        .query_row(
            "SELECT id FROM leads WHERE source = ?1 AND submission_id = ?2",
            params![source, submission_id],
            |row| row.get(0),
        )
        .optional()?;
    // An answer read from a file that is no longer in place is not given.
    if id.is_some() {
        pool.check_file()?;
    }
    Ok(id)
}

/// Which leads to read: created at or after `since` (an RFC 3339 prefix such as `2026-11-01`), with `status`.
#[derive(Debug, Default, Clone)]
pub struct LeadFilter {
    pub since: Option<String>,
    pub status: Option<Status>,
    pub limit: Option<u32>,
}

/// Leads matching the filter, newest first.
pub fn list(pool: &DbPool, filter: &LeadFilter) -> Result<Vec<Lead>, StoreError> {
    let connection = pool.get()?;
    let sql = format!(
        "SELECT {} FROM leads WHERE (?1 IS NULL OR created_at >= ?1) AND (?2 IS NULL OR status = ?2) \
         ORDER BY id DESC LIMIT ?3",
        COLUMNS.join(", ")
    );
    let mut statement = connection.prepare(&sql)?;
    let limit = filter.limit.map(i64::from).unwrap_or(-1);
    let rows = statement.query_map(params![filter.since, filter.status, limit], Lead::from_row)?;

    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests;
