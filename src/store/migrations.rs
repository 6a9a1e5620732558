//! The schema: versions applied in order of their number, each once, inside a transaction, recorded in
//! `schema_migrations` (version, applied_at). Each version is a file under `migrations/`, embedded in the binary; a
//! new version is a new file added to [`MIGRATIONS`], never an edit of one already released.
//!
//! Numbers need not be contiguous: branches developed side by side each reserve theirs (3 the notifications outbox,
//! 4 carriers, 5 visit counts), and a database that got 5 before 3 still gets 3 when it arrives, because every
//! version not yet recorded is applied, whatever was applied after it.

use rusqlite::{OptionalExtension, params};

use super::{StoreError, now};

/// Schema versions, listed in order of their number.
pub(super) const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("migrations/0001_leads.sql")),
    (2, include_str!("migrations/0002_health_probe.sql")),
    (3, include_str!("migrations/0003_deliveries.sql")),
    (4, include_str!("migrations/0004_carrier_snapshot.sql")),
    (5, include_str!("migrations/0005_analytics.sql")),
    (6, include_str!("migrations/0006_leads_coi_details.sql")),
    (7, include_str!("migrations/0007_deliveries_kind.sql")),
    (8, include_str!("migrations/0008_deliveries_payload.sql")),
    (9, include_str!("migrations/0009_leads_language.sql")),
    (
        10,
        include_str!("migrations/0010_deliveries_cheaper_checks.sql"),
    ),
    (11, include_str!("migrations/0011_consent.sql")),
    (12, include_str!("migrations/0012_status.sql")),
    (13, include_str!("migrations/0013_client_requests.sql")),
    (14, include_str!("migrations/0014_suspected_spam.sql")),
    (15, include_str!("migrations/0015_installation_keys.sql")),
    (16, include_str!("migrations/0016_tls.sql")),
    (
        17,
        include_str!("migrations/0017_schedules_documents_xdates.sql"),
    ),
];

pub(super) fn migrate(connection: &mut rusqlite::Connection) -> Result<(), StoreError> {
    apply(connection, MIGRATIONS)
}

/// Applies each of `migrations` that is not recorded yet, in order of version number, with foreign keys off.
///
/// A version that changes a table's constraints rebuilds it by SQLite's documented 12-step procedure (create the
/// new table, copy, drop the old one, rename): with foreign keys on, dropping `leads` would delete every delivery
/// through `ON DELETE CASCADE`. The pragma is a no-op inside a transaction, so it is set around them, and each
/// version's transaction checks the foreign keys (`PRAGMA foreign_key_check`) before it commits.
fn apply(
    connection: &mut rusqlite::Connection,
    migrations: &[(i64, &str)],
) -> Result<(), StoreError> {
    connection.execute_batch("PRAGMA foreign_keys = OFF")?;
    let applied = apply_each(connection, migrations);
    // Back on whatever happened: every connection of the store runs with foreign keys.
    connection.execute_batch("PRAGMA foreign_keys = ON")?;
    applied
}

fn apply_each(
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
            let broken: Option<String> = transaction
                .query_row("PRAGMA foreign_key_check", [], |row| row.get(0))
                .optional()?;
            if let Some(table) = broken {
                return Err(rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT),
                    Some(format!(
                        "schema version {version} would leave a row of {table} without its foreign key"
                    )),
                )
                .into());
            }
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
