//! A privacy request's erasure beyond the person's own leads and opt-outs ([`super::forget`] erases those): the
//! identifier the request was made by (the e-mail or the phone, in any spelling), wherever else visitor text is
//! kept. Other people's leads lose it from their campaign tags and addresses (the whole field) and from their free
//! text (the trace only); other opt-outs from their note; the outbox's stored payloads (the owner's reports, waiting
//! or sent, which list campaigns and pages) and the visit counts (their pages, referrers and campaign tags) lose it
//! too, their counts kept under [`ERASED`]. Names and companies are not looked for here: they are ordinary words
//! (a company "Hot Shot Trucking" is in the page `/blog/hot-shot-trucking-insurance-considerations`, a company
//! "None" in the tag `utm_medium=none`), so looking for them would erase other people's data and merge unrelated
//! traffic into [`ERASED`].

use rusqlite::{Transaction, params};
use serde_json::Value;

use super::traces::{ERASED, Traces};

/// A lead's fields that are one value each (a tag, an address): erased whole when they hold a trace.
const WHOLE: [&str; 8] = [
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_term",
    "utm_content",
    "page_url",
    "referrer",
    "landing_page",
];
/// A lead's fields of free text: each trace in them is replaced.
const FREE: [&str; 7] = [
    "subject",
    "message",
    "notes",
    "insured_name",
    "certificate_holder",
    "holder_address",
    "commodities_other",
];

/// Erases `identifier`'s traces (the identifier only: another person's lead may rightly name the same person or
/// company) from every lead not yet erased, and from every opt-out's note. Returns how many rows changed.
pub fn erase_in_other_rows(
    transaction: &Transaction<'_>,
    identifier: &Traces,
) -> rusqlite::Result<usize> {
    if identifier.is_empty() {
        return Ok(0);
    }
    let columns: Vec<&str> = WHOLE.iter().chain(FREE.iter()).copied().collect();
    let sql = format!(
        "SELECT id, {} FROM leads WHERE erased_at IS NULL",
        columns.join(", ")
    );
    let mut statement = transaction.prepare(&sql)?;
    let rows: Vec<(i64, Vec<Option<String>>)> = statement
        .query_map([], |row| {
            let values = (1..=columns.len())
                .map(|n| row.get(n))
                .collect::<rusqlite::Result<_>>()?;
            Ok((row.get(0)?, values))
        })?
        .collect::<Result<_, _>>()?;
    let mut changed = 0;
    for (id, values) in rows {
        let mut sets = Vec::new();
        for (column, value) in columns.iter().zip(values) {
            let Some(value) = value else { continue };
            if WHOLE.contains(column) {
                if identifier.holds(&value) {
                    sets.push((*column, None));
                }
            } else if let Some(erased) = identifier.erase(&value) {
                sets.push((*column, Some(erased)));
            }
        }
        if !sets.is_empty() {
            update_columns(transaction, "leads", id, &sets)?;
            changed += 1;
        }
    }
    let notes: Vec<(i64, String)> = transaction
        .prepare("SELECT id, note FROM revocations WHERE note IS NOT NULL")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, note) in notes {
        if let Some(erased) = identifier.erase(&note) {
            update_columns(transaction, "revocations", id, &[("note", Some(erased))])?;
            changed += 1;
        }
    }
    Ok(changed)
}

/// `UPDATE table SET column = value, ... WHERE id = id`; the column names are this module's constants.
fn update_columns(
    transaction: &Transaction<'_>,
    table: &str,
    id: i64,
    sets: &[(&str, Option<String>)],
) -> rusqlite::Result<()> {
    let assignments: Vec<String> = sets
        .iter()
        .enumerate()
        .map(|(n, (column, _))| format!("{column} = ?{}", n + 2))
        .collect();
    let sql = format!(
        "UPDATE {table} SET {} WHERE id = ?1",
        assignments.join(", ")
    );
    let mut values: Vec<&dyn rusqlite::ToSql> = vec![&id];
    values.extend(sets.iter().map(|(_, value)| value as &dyn rusqlite::ToSql));
    transaction.execute(&sql, values.as_slice())?;
    Ok(())
}

/// Replaces every trace of `traces` (the request's identifier) in the stored payloads of the outbox (JSON: each string in it), whatever their state.
/// Returns how many payloads changed.
pub fn erase_in_payloads(
    transaction: &Transaction<'_>,
    traces: &Traces,
) -> rusqlite::Result<usize> {
    if traces.is_empty() {
        return Ok(0);
    }
    let found: Vec<(i64, String)> = transaction
        .prepare("SELECT id, payload FROM deliveries WHERE payload IS NOT NULL")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut changed = 0;
    for (id, payload) in found {
        // The table's CHECK keeps payloads valid JSON; one that is not is left to `erase_news`' rule.
        let Ok(mut value) = serde_json::from_str::<Value>(&payload) else {
            continue;
        };
        if erase_in_json(&mut value, traces) {
            transaction.execute(
                "UPDATE deliveries SET payload = ?2 WHERE id = ?1",
                params![id, value.to_string()],
            )?;
            changed += 1;
        }
    }
    Ok(changed)
}

/// Replaces the traces in every string of `value` (keys are the program's own); true when one changed.
fn erase_in_json(value: &mut Value, traces: &Traces) -> bool {
    match value {
        Value::String(text) => match traces.erase(text) {
            Some(erased) => {
                *text = erased;
                true
            }
            None => false,
        },
        // Every item visited (not `any`, which would stop at the first change).
        Value::Array(items) => items
            .iter_mut()
            .map(|item| erase_in_json(item, traces))
            .collect::<Vec<bool>>()
            .contains(&true),
        Value::Object(fields) => fields
            .values_mut()
            .map(|item| erase_in_json(item, traces))
            .collect::<Vec<bool>>()
            .contains(&true),
        _ => false,
    }
}

/// The visit counts' columns of visitor text (migration 0005).
const VISIT_COLUMNS: [&str; 5] = [
    "path",
    "referrer",
    "utm_source",
    "utm_medium",
    "utm_campaign",
];

/// Moves the visit counts whose page, referrer or campaign tag holds a trace of `traces` (the request's identifier)
/// to the value [`ERASED`], added to any counts already there (the visitors of a day's totals are added too, so a
/// visitor in both is counted twice: an over-count of erased traffic, never a person kept). Returns how many values were erased.
pub fn erase_in_visit_counts(
    transaction: &Transaction<'_>,
    traces: &Traces,
) -> rusqlite::Result<usize> {
    if traces.is_empty() {
        return Ok(0);
    }
    let mut erased = 0;
    let all = VISIT_COLUMNS.join(", ");
    for column in VISIT_COLUMNS {
        let values = distinct(
            transaction,
            &format!("SELECT DISTINCT {column} FROM analytics_visits"),
        )?;
        let chosen: Vec<&str> = VISIT_COLUMNS
            .iter()
            .map(|other| if *other == column { "?2" } else { other })
            .collect();
        // `WHERE true`: SQLite's rule for an upsert whose rows come from a SELECT.
        let merge = format!(
            "INSERT INTO analytics_visits (day, visitor, {all}, device, entry, views) \
             SELECT day, visitor, {}, device, entry, views FROM analytics_visits WHERE {column} = ?1 AND true \
             ON CONFLICT DO UPDATE SET views = views + excluded.views",
            chosen.join(", ")
        );
        let remove = format!("DELETE FROM analytics_visits WHERE {column} = ?1");
        for value in values.iter().filter(|value| traces.holds(value)) {
            transaction.execute(&merge, params![value, ERASED])?;
            transaction.execute(&remove, [value])?;
            erased += 1;
        }
    }
    let values = distinct(
        transaction,
        "SELECT DISTINCT value FROM analytics_daily WHERE dimension <> 'total' AND dimension <> 'device'",
    )?;
    for value in values.iter().filter(|value| traces.holds(value)) {
        transaction.execute(
            "INSERT INTO analytics_daily (day, dimension, value, views, visitors) \
             SELECT day, dimension, ?2, views, visitors FROM analytics_daily \
             WHERE value = ?1 AND dimension <> 'total' AND dimension <> 'device' AND true \
             ON CONFLICT DO UPDATE SET views = views + excluded.views, visitors = visitors + excluded.visitors",
            params![value, ERASED],
        )?;
        transaction.execute(
            "DELETE FROM analytics_daily WHERE value = ?1 AND dimension <> 'total' AND dimension <> 'device'",
            [value],
        )?;
        erased += 1;
    }
    Ok(erased)
}

fn distinct(transaction: &Transaction<'_>, sql: &str) -> rusqlite::Result<Vec<String>> {
    transaction
        .prepare(sql)?
        .query_map([], |row| row.get(0))?
        .collect()
}
