//! The schema: versions applied in order, each once, inside a transaction, recorded in `schema_migrations`
//! (version, applied_at). Each version is a file under `migrations/`, embedded in the binary; a new version is a new
//! file added at the end of [`MIGRATIONS`], never an edit of one already released.

use rusqlite::params;

use super::{StoreError, now};

/// Schema versions, applied in order, each once, inside a transaction.
pub(super) const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("migrations/0001_leads.sql")),
    (2, include_str!("migrations/0002_health_probe.sql")),
    (3, include_str!("migrations/0003_deliveries.sql")),
];

pub(super) fn migrate(connection: &mut rusqlite::Connection) -> Result<(), StoreError> {
    connection.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
    )?;
    for (version, sql) in MIGRATIONS {
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
