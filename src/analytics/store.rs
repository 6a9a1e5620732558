//! The visit counts in the database: batches of visit rows added to `analytics_visits`, days older than
//! [`KEEP_DAYS`] folded into `analytics_daily`, and the counts per day and value of a [`Dimension`] that the report
//! reads from both tables (a day is in exactly one of them).

use std::collections::HashMap;

use rusqlite::params;
use time::{Date, Duration};

use super::classify::Device;
use crate::store::{self, Connection, DbPool, StoreError, WriteError};

/// Days whose views are kept row by row; older days are kept as daily totals only.
pub const KEEP_DAYS: i64 = 90;

/// One row of `analytics_visits`: a visitor's views of one page on one day, arrived one way.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Visit {
    pub day: Date,
    /// 64 bits of the hash of the day's salt, the IP address and the user agent.
    pub visitor: i64,
    pub path: String,
    /// The other site's host, `''` for none or for a click within this site.
    pub referrer: String,
    pub utm_source: String,
    pub utm_medium: String,
    pub utm_campaign: String,
    pub device: Device,
    /// From outside the site (no referrer or another site's), rather than a click within it.
    pub entry: bool,
}

/// A day as stored: `YYYY-MM-DD`.
pub fn day_text(day: Date) -> String {
    day.to_string()
}

/// Adds `rows` (each with its number of views) in one transaction; with `fold_before`, then folds the days before it
/// into daily totals. Rows of a day already folded (late, from before a stop or a clock change) are left out: its
/// daily totals cannot take more visitors without counting some twice. Returns the views so left out.
pub fn save(
    pool: &DbPool,
    rows: &HashMap<Visit, u64>,
    fold_before: Option<Date>,
) -> Result<u64, WriteError> {
    store::write_checked(pool, |transaction| {
        let mut folded = transaction.prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM analytics_daily WHERE day = ?1 AND dimension = 'total')",
        )?;
        let mut is_folded: HashMap<Date, bool> = HashMap::new();
        let mut insert = transaction.prepare_cached(
            "INSERT INTO analytics_visits (day, visitor, path, referrer, utm_source, utm_medium, utm_campaign, \
             device, entry, views) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) \
             ON CONFLICT (day, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device, entry) \
             DO UPDATE SET views = views + excluded.views",
        )?;
        let mut late = 0u64;
        for (visit, views) in rows {
            let day_is_folded = match is_folded.get(&visit.day) {
                Some(known) => *known,
                None => {
                    let known: bool = folded.query_row([day_text(visit.day)], |row| row.get(0))?;
                    is_folded.insert(visit.day, known);
                    known
                }
            };
            if day_is_folded {
                late += views;
                continue;
            }
            insert.execute(params![
                day_text(visit.day),
                visit.visitor,
                visit.path,
                visit.referrer,
                visit.utm_source,
                visit.utm_medium,
                visit.utm_campaign,
                visit.device.as_str(),
                visit.entry,
                i64::try_from(*views).unwrap_or(i64::MAX),
            ])?;
        }
        if let Some(before) = fold_before {
            fold(transaction, &day_text(before))?;
        }
        Ok(late)
    })
}

/// The first day kept row by row when today is `today`.
pub fn fold_before(today: Date) -> Date {
    today.saturating_sub(Duration::days(KEEP_DAYS))
}

/// Folds the visit rows of the days before `before` into daily totals, and deletes them.
fn fold(transaction: &rusqlite::Transaction<'_>, before: &str) -> Result<(), StoreError> {
    for dimension in DIMENSIONS {
        transaction.execute(
            &format!(
                "INSERT INTO analytics_daily (day, dimension, value, views, visitors) \
                 SELECT day, '{name}', {value}, SUM(views), COUNT(DISTINCT visitor) FROM analytics_visits \
                 WHERE day < ?1 AND {rows} GROUP BY day, {value} \
                 ON CONFLICT (day, dimension, value) \
                 DO UPDATE SET views = views + excluded.views, visitors = visitors + excluded.visitors",
                name = dimension.name,
                value = dimension.value,
                rows = dimension.rows,
            ),
            [before],
        )?;
    }
    transaction.execute("DELETE FROM analytics_visits WHERE day < ?1", [before])?;
    Ok(())
}

/// A way of grouping visit rows: its name in `analytics_daily`, a row's value (SQL over `analytics_visits`'
/// columns) and which rows count. Constants only: no text from outside ever reaches these SQL fragments.
pub struct Dimension {
    pub name: &'static str,
    value: &'static str,
    rows: &'static str,
}

impl Dimension {
    /// A dimension named `name`, valued by the SQL expression `value`, over the rows where `rows` holds.
    const fn new(name: &'static str, value: &'static str, rows: &'static str) -> Dimension {
        Dimension { name, value, rows }
    }
}

pub const TOTAL: Dimension = Dimension::new("total", "''", "1");
pub const PAGE: Dimension = Dimension::new("page", "path", "1");
/// How visitors came in: the campaign's source tag, else the other site's host, else `direct`. Only views from
/// outside the site count: a click within it says nothing about how the visitor arrived.
pub const SOURCE: Dimension = Dimension::new(
    "source",
    "CASE WHEN utm_source <> '' THEN utm_source WHEN referrer <> '' THEN referrer ELSE 'direct' END",
    "entry = 1",
);
pub const CAMPAIGN: Dimension = Dimension::new(
    "campaign",
    "utm_campaign",
    "entry = 1 AND utm_campaign <> ''",
);
pub const DEVICE: Dimension = Dimension::new("device", "device", "1");
const DIMENSIONS: [&Dimension; 5] = [&TOTAL, &PAGE, &SOURCE, &CAMPAIGN, &DEVICE];

/// Views and visitors of one value of a dimension on one day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    pub day: String,
    pub value: String,
    pub views: i64,
    pub visitors: i64,
}

/// The counts per day and value of `dimension` over the days `since..=until` (`YYYY-MM-DD`).
pub fn counts(
    connection: &Connection,
    dimension: &Dimension,
    since: &str,
    until: &str,
) -> Result<Vec<Count>, StoreError> {
    let sql = format!(
        "SELECT day, {value}, SUM(views), COUNT(DISTINCT visitor) FROM analytics_visits \
         WHERE day BETWEEN ?1 AND ?2 AND {rows} GROUP BY day, {value} \
         UNION ALL \
         SELECT day, value, views, visitors FROM analytics_daily \
         WHERE dimension = '{name}' AND day BETWEEN ?1 AND ?2",
        name = dimension.name,
        value = dimension.value,
        rows = dimension.rows,
    );
    let mut statement = connection.prepare(&sql)?;
    let rows = statement.query_map([since, until], |row| {
        Ok(Count {
            day: row.get(0)?,
            value: row.get(1)?,
            views: row.get(2)?,
            visitors: row.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
