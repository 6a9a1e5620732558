//! The schema: versions applied in order of their number, each once, inside a transaction, recorded in
//! `schema_migrations` (version, applied_at). Each version is a file under `migrations/`, embedded in the binary; a
//! new version is a new file added to [`MIGRATIONS`], never an edit of one already released.
//!
//! Numbers need not be contiguous: branches developed side by side each reserve theirs (3 the notifications outbox,
//! 4 carriers, 5 visit counts), and a database that got 5 before 3 still gets 3 when it arrives, because every
//! version not yet recorded is applied, whatever was applied after it.

use rusqlite::params;

use super::{StoreError, now};

/// Schema versions, listed in order of their number.
pub(super) const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("migrations/0001_leads.sql")),
    (2, include_str!("migrations/0002_health_probe.sql")),
    (3, include_str!("migrations/0003_deliveries.sql")),
    (4, include_str!("migrations/0004_carrier_snapshot.sql")),
    (5, include_str!("migrations/0005_analytics.sql")),
];

pub(super) fn migrate(connection: &mut rusqlite::Connection) -> Result<(), StoreError> {
    apply(connection, MIGRATIONS)
}

/// Applies each of `migrations` that is not recorded yet, in order of version number.
fn apply(
    connection: &mut rusqlite::Connection,
    migrations: &[(i64, &str)],
) -> Result<(), StoreError> {
    connection.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
    )?;
    let mut ordered = migrations.to_vec();
    ordered.sort_by_key(|(version, _)| *version);
    for (version, sql) in ordered {
        let transaction =
            connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let applied: bool = transaction.query_row(
            "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?1)",
            [version],
            |row| row.get(0),
        )?;
        if !applied {
            transaction.execute_batch(sql)?;
            transaction.execute(
                "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)",
                params![version, now()],
            )?;
        }
        transaction.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn versions(connection: &rusqlite::Connection) -> Vec<i64> {
        let mut statement = connection
            .prepare("SELECT version FROM schema_migrations ORDER BY version")
            .unwrap();
        statement
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn numbers_may_leave_gaps_and_one_merged_later_below_them_is_still_applied() {
        let mut connection = rusqlite::Connection::open_in_memory().unwrap();
        let first = [(1, "CREATE TABLE one (x)"), (5, "CREATE TABLE five (x)")];
        apply(&mut connection, &first).unwrap();
        assert_eq!(versions(&connection), [1, 5]);
        // Another branch's version 3 arrives after 5 was applied: it is applied, and nothing twice (a second
        // CREATE TABLE would fail).
        let merged = [
            (1, "CREATE TABLE one (x)"),
            (3, "CREATE TABLE three (x)"),
            (5, "CREATE TABLE five (x)"),
        ];
        apply(&mut connection, &merged).unwrap();
        apply(&mut connection, &merged).unwrap();
        assert_eq!(versions(&connection), [1, 3, 5]);
    }

    #[test]
    fn every_version_is_listed_once_in_order() {
        assert!(MIGRATIONS.windows(2).all(|pair| pair[0].0 < pair[1].0));
    }
}
