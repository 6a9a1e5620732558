//! The retention period (`lead_retention_days`, default 1,825: the TCPA's four-year limitation period and a year):
//! once a day, from the server's start, leads and opt-outs made longer ago than that are erased as `forget` erases
//! them (src/consent/forget.rs), and the log says how many. `0` keeps everything.

use std::time::Duration;

use rocket::{Orbit, Rocket};
use time::format_description::well_known::Rfc3339;

use super::forget;
use crate::config::Settings;
use crate::store::{self, DbPool, StoreError};

/// How often the server looks for what is past the period.
pub const EVERY: Duration = Duration::from_secs(24 * 60 * 60);

/// What one pass erased.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    pub leads: usize,
    pub revocations: usize,
}

/// Erases the leads and revocations made before `days` days before `now` (the clock's time), records the pass in
/// `privacy_requests` when it erased anything, and returns the counts and the cut-off.
pub fn sweep(
    pool: &DbPool,
    days: u32,
    now: time::OffsetDateTime,
) -> Result<(Swept, String), StoreError> {
    let cutoff = (now - time::Duration::days(i64::from(days)))
        .format(&Rfc3339)
        .unwrap_or_default();
    let stamp = now.format(&Rfc3339).unwrap_or_else(|_| store::now());
    let swept = store::write(pool, |transaction| {
        let older = |sql: &str| -> rusqlite::Result<Vec<i64>> {
            transaction
                .prepare(sql)?
                .query_map([&cutoff], |row| row.get(0))?
                .collect()
        };
        let leads =
            older("SELECT id FROM leads WHERE created_at < ?1 AND erased_at IS NULL ORDER BY id")?;
        let revocations = older(
            "SELECT id FROM revocations WHERE created_at < ?1 AND erased_at IS NULL ORDER BY id",
        )?;
        if leads.is_empty() && revocations.is_empty() {
            return Ok(Swept::default());
        }
        forget::erase_leads(transaction, &leads, &stamp)?;
        forget::erase_revocations(transaction, &revocations, &stamp)?;
        forget::erase_news(transaction, &leads, None)?;
        // The news of an opt-out past the period, whatever it named.
        transaction.execute(
            "UPDATE deliveries SET payload = ?2, last_error = NULL WHERE kind = 'opt_out' AND created_at < ?1",
            rusqlite::params![cutoff, forget::ERASED_NEWS],
        )?;
        transaction.execute(
            "INSERT INTO privacy_requests (requested_at, reason, leads, revocations) VALUES (?1, 'retention', ?2, ?3)",
            rusqlite::params![stamp, leads.len() as i64, revocations.len() as i64],
        )?;
        Ok(Swept {
            leads: leads.len(),
            revocations: revocations.len(),
        })
    })?;
    Ok((swept, cutoff))
}

/// Starts the daily pass in the server (none with `lead_retention_days = 0`); it ends with the runtime.
pub fn start(settings: &Settings, rocket: &Rocket<Orbit>) {
    let days = settings.lead_retention_days;
    if days == 0 {
        rocket::info!(
            "retention: off (lead_retention_days = 0): leads and opt-outs are kept until erased by hand"
        );
        return;
    }
    let Some(pool) = rocket.state::<crate::store::DbPool>().cloned() else {
        return;
    };
    let checkpoints = store::Checkpoints::for_settings(settings);
    rocket::tokio::spawn(async move {
        loop {
            let pool_now = pool.clone();
            let result = rocket::tokio::task::spawn_blocking(move || {
                let swept = sweep(&pool_now, days, crate::clock::now_utc())?;
                // Erased bytes out of the WAL too, unless Litestream checkpoints this file.
                if swept.0 != Swept::default() && checkpoints == store::Checkpoints::Automatic {
                    forget::checkpoint(&pool_now)?;
                }
                Ok::<_, StoreError>(swept)
            })
            .await;
            match result {
                Ok(Ok((swept, cutoff))) if swept == Swept::default() => rocket::info!(
                    "retention: nothing made before {cutoff} ({days} days) left to erase"
                ),
                Ok(Ok((swept, cutoff))) => rocket::warn!(
                    "retention: erased {} leads and {} opt-outs made before {cutoff} ({days} days)",
                    swept.leads,
                    swept.revocations
                ),
                Ok(Err(error)) => {
                    rocket::error!("retention: the pass failed, tried again in a day: {error}")
                }
                Err(error) => rocket::error!("retention: the pass failed: {error}"),
            }
            rocket::tokio::time::sleep(EVERY).await;
        }
    });
}
