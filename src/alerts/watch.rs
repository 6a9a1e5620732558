//! The server's own look at what an owner must act on, reported to [`Alerts`]: the replica behind (every second: it
//! is in memory), deliveries failing for more than an hour, the disk nearly full, the carrier census out of date and
//! the HTTPS certificate (every minute: a query, a `statvfs`, the census's import date, the certificate's dates). A task of the server's runtime from its start to its stop.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use rocket::tokio::{self, time::MissedTickBehavior, time::interval};
use rusqlite::params;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::{Alerts, Concern};
use crate::replica::Replica;
use crate::store::DbPool;

/// How often the replica's state is looked at.
const REPLICA_LOOK: Duration = Duration::from_secs(1);
/// How often the deliveries and the disk are looked at.
const SLOW_LOOK: Duration = Duration::from_secs(60);
/// A delivery failing this long is the owner's concern.
const FAILING_FOR: Duration = Duration::from_secs(3600);
/// A delivery given up (24 h of attempts, or refused for good) stays the owner's concern until retried
/// (`truckins outbox retry`), or for this long: it is never "going out again" by itself.
const GAVE_UP_LOOKED_AT: Duration = Duration::from_secs(7 * 86_400);

/// What the watcher looks at.
pub struct Watched {
    pub replica: Replica,
    pub pool: DbPool,
    pub database: PathBuf,
    /// The carrier census's file.
    pub census: PathBuf,
    /// The HTTPS certificate, when the server gets its own (`tls_domains`).
    pub tls: Option<std::sync::Arc<crate::tls::Tls>>,
}

/// Looks until the runtime ends (the server's stop).
pub async fn run(alerts: Alerts, watched: Watched) {
    let mut replica_look = interval(REPLICA_LOOK);
    let mut slow_look = interval(SLOW_LOOK);
    replica_look.set_missed_tick_behavior(MissedTickBehavior::Delay);
    slow_look.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = replica_look.tick() => {
                alerts.report(Concern::ReplicaBehind, replica_behind(&watched.replica));
            }
            _ = slow_look.tick() => {
                let pool = watched.pool.clone();
                let folder = crate::preflight::storage::database_folder(&watched.database);
                let census = watched.census.clone();
                let looked = tokio::task::spawn_blocking(move || {
                    (deliveries_failing(&pool), disk(&folder), census_stale(&census))
                })
                .await;
                if let Ok((failing, disk, census)) = looked {
                    // A look that could not be made says nothing either way: the state stays as it was.
                    if let Some(failing) = failing {
                        alerts.report(Concern::DeliveriesFailing, failing);
                    }
                    alerts.report(Concern::DiskNearlyFull, disk);
                    alerts.report(Concern::CensusStale, census);
                }
                if let Some(tls) = &watched.tls {
                    alerts.report(Concern::Certificate, tls.concern(OffsetDateTime::now_utc().unix_timestamp()));
                }
            }
        }
    }
}

/// "the off-site copy of the leads (the replica) is behind since Sat, Nov 28, 2026, 2:05 PM CST: 37 leads not
/// copied yet".
fn replica_behind(replica: &Replica) -> Option<String> {
    let behind = replica.behind()?;
    let waiting = behind.waiting;
    Some(format!(
        "the off-site copy of the leads (the replica) is behind since {}: {waiting} lead{} not copied yet",
        readable(behind.since),
        if waiting == 1 { "" } else { "s" }
    ))
}

/// A time as the agency reads it, in its time zone.
fn readable(at: SystemTime) -> String {
    let at = OffsetDateTime::from(at);
    let stored = at.format(&Rfc3339).unwrap_or_default();
    crate::clock::readable(&stored)
}

/// `Some(None)` when no delivery has been failing for over an hour, `Some(Some(trouble))` when some have; `None`
/// when the table could not be read.
fn deliveries_failing(pool: &DbPool) -> Option<Option<String>> {
    let connection = pool.get().ok()?;
    let since = crate::notify::outbox::now_ms() - FAILING_FOR.as_millis() as i64;
    let (failing, oldest): (i64, Option<i64>) = connection
        .query_row(
            "SELECT COUNT(*), MIN(queued_ms) FROM deliveries \
             WHERE (state = 'pending' AND attempts > 0 AND queued_ms < ?1) OR (state = 'failed' AND created_ms > ?2)",
            params![since, crate::notify::outbox::now_ms() - GAVE_UP_LOOKED_AT.as_millis() as i64],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .ok()?;
    Some((failing > 0).then(|| {
        let hours = oldest
            .map(|queued| (crate::notify::outbox::now_ms() - queued) / 3_600_000)
            .unwrap_or(1)
            .max(1);
        format!(
            "{failing} notification{} of leads failing for over {hours} hour{} or given up",
            if failing == 1 { "" } else { "s" },
            if hours == 1 { "" } else { "s" }
        )
    }))
}

/// The disk check of `truckins check` (1 GiB free at least), as the server sees it now.
fn disk(folder: &std::path::Path) -> Option<String> {
    let check = crate::preflight::storage::disk(folder);
    (check.status == crate::preflight::Status::Fail)
        .then(|| format!("the server's disk is nearly full: {}", check.detail))
}

/// The census check of `truckins check`, as the server sees it now: a census imported and over 60 days old (none
/// imported is the owner's choice, not a concern).
fn census_stale(path: &std::path::Path) -> Option<String> {
    let check = crate::preflight::storage::census(path, OffsetDateTime::now_utc());
    (check.status == crate::preflight::Status::Fail)
        .then(|| format!("the carrier census is out of date: {}", check.detail))
}
