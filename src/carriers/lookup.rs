//! Lookups in the census file: read-only connections to whichever file is at the configured path. An import
//! renames a complete new file over it; each lookup checks the path's inode (one `stat`), and when it changed, the
//! connections to the old file are let go (a lookup already running on them finishes on the old data) and the new
//! file is opened. No census file is no census: every lookup answers "not found" until one is imported.
//! [`imported`] reads a file's record of its import (when, how many carriers) for `truckins check`.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{OpenFlags, OptionalExtension};

use super::{Carrier, Operation, parse_dot};

const SELECT: &str = "SELECT dot_number, legal_name, dba_name, city, state, power_units, drivers, operation, \
                      hazmat, mcs150_date FROM carriers WHERE dot_number = ?1";

/// Idle connections kept per file: at least as many as lookups run at once under load (16 clients in the
/// benchmark), so connections are reused rather than opened and closed per lookup.
const IDLE_CONNECTIONS: usize = 32;

/// SQLite's page cache per connection, in KiB. A lookup reads a few pages of a B-tree the kernel already caches; a
/// large cache per connection would only multiply memory by the connections kept.
const CACHE_KIB: i64 = 512;

#[derive(Debug, thiserror::Error)]
pub enum CensusError {
    /// Nothing has been imported (no file at the path).
    #[error("no census has been imported (no file at {0})")]
    Missing(PathBuf),
    #[error("the census file {path} cannot be read: {error}")]
    Unreadable { path: PathBuf, error: String },
}

/// The census at one path, shared by every lookup.
pub struct Census {
    path: PathBuf,
    current: Mutex<Option<Arc<Generation>>>,
}

/// One census file, identified by device and inode, with its idle connections.
struct Generation {
    file: (u64, u64),
    idle: Mutex<Vec<rusqlite::Connection>>,
}

impl Census {
    pub fn new(path: impl Into<PathBuf>) -> Census {
        Census {
            path: path.into(),
            current: Mutex::new(None),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The carrier with this DOT number, if the census has it. Blocking (a `stat` and a SQLite read).
    pub fn find(&self, dot_number: u32) -> Result<Option<Carrier>, CensusError> {
        let generation = self.generation()?;
        let connection = generation
            .idle
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop();
        let connection = match connection {
            Some(connection) => connection,
            None => self.connect()?,
        };
        let found = connection
            .prepare_cached(SELECT)
            .and_then(|mut statement| statement.query_row([dot_number], carrier).optional())
            .map_err(|e| self.unreadable(e))?;
        let mut idle = generation.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < IDLE_CONNECTIONS {
            idle.push(connection);
        }
        Ok(found)
    }

    /// The file now at the path, reusing its connections if it is the one seen before.
    fn generation(&self) -> Result<Arc<Generation>, CensusError> {
        let mut current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        let file = match std::fs::metadata(&self.path) {
            Ok(found) => (found.dev(), found.ino()),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                *current = None;
                return Err(CensusError::Missing(self.path.clone()));
            }
            Err(error) => return Err(self.unreadable(error)),
        };
        match &*current {
            Some(generation) if generation.file == file => Ok(Arc::clone(generation)),
            // A new import (or the first lookup): the old file's connections close when their last lookup is done.
            _ => {
                let generation = Arc::new(Generation {
                    file,
                    idle: Mutex::new(Vec::new()),
                });
                *current = Some(Arc::clone(&generation));
                Ok(generation)
            }
        }
    }

    fn connect(&self) -> Result<rusqlite::Connection, CensusError> {
        // Read-only, and never created: a missing file must stay missing for the next import's rename.
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connection = rusqlite::Connection::open_with_flags(&self.path, flags)
            .map_err(|e| self.unreadable(e))?;
        connection
            .busy_timeout(Duration::from_millis(100))
            .and_then(|()| connection.pragma_update(None, "cache_size", -CACHE_KIB))
            .map_err(|e| self.unreadable(e))?;
        Ok(connection)
    }

    fn unreadable(&self, error: impl ToString) -> CensusError {
        CensusError::Unreadable {
            path: self.path.clone(),
            error: error.to_string(),
        }
    }
}

/// What a census file says of its own import (its `census` row): for `truckins check`, which tells how old it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// When the import finished, as stored (RFC 3339, UTC).
    pub at: String,
    pub carriers: u64,
}

/// The import record of the census file at `path`, read-only; `None` when no census was imported (no file there).
/// A file that is not a census, or cannot be read, is an error saying so.
pub fn imported(path: &Path) -> Result<Option<Imported>, String> {
    match std::fs::metadata(path) {
        Ok(_) => {}
        Err(error)
            if matches!(
                error.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None);
        }
        Err(error) => return Err(format!("{} cannot be read: {error}", path.display())),
    }
    let unreadable = |error: rusqlite::Error| {
        format!(
            "{} is not a census that can be read: {error}",
            path.display()
        )
    };
    // Read-only, and never created: the same flags as a lookup's.
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = rusqlite::Connection::open_with_flags(path, flags).map_err(unreadable)?;
    connection
        .busy_timeout(Duration::from_millis(100))
        .map_err(unreadable)?;
    connection
        .query_row(
            "SELECT imported_at, carriers FROM census ORDER BY imported_at DESC LIMIT 1",
            [],
            |row| {
                Ok(Imported {
                    at: row.get(0)?,
                    carriers: row.get::<_, i64>(1)?.unsigned_abs(),
                })
            },
        )
        .optional()
        .map_err(unreadable)?
        .map(Some)
        .ok_or_else(|| format!("{} holds no record of an import", path.display()))
}

/// How long a lead waits for its carrier snapshot before it is stored without one: a slow or broken census must
/// never cost a lead.
const SNAPSHOT_BUDGET: Duration = Duration::from_millis(250);

/// The census's entry for a lead's DOT number as it is now, for the lead to keep; `None` when the number is not in
/// the census, no census is imported, or the census fails or is slow (logged, and the lead goes on without it).
pub async fn snapshot(census: &Arc<Census>, dot_number: &str) -> Option<Carrier> {
    let dot = parse_dot(dot_number)?;
    let census = Arc::clone(census);
    let lookup = rocket::tokio::task::spawn_blocking(move || census.find(dot));
    match rocket::tokio::time::timeout(SNAPSHOT_BUDGET, lookup).await {
        Ok(Ok(Ok(found))) => found,
        Ok(Ok(Err(CensusError::Missing(_)))) => None,
        Ok(Ok(Err(error))) => {
            rocket::warn!("lead stored without its carrier snapshot: {error}");
            None
        }
        Ok(Err(error)) => {
            rocket::warn!("lead stored without its carrier snapshot, the lookup failed: {error}");
            None
        }
        Err(_) => {
            rocket::warn!(
                "lead stored without its carrier snapshot: the census took over {} ms",
                SNAPSHOT_BUDGET.as_millis()
            );
            None
        }
    }
}

fn carrier(row: &rusqlite::Row<'_>) -> rusqlite::Result<Carrier> {
    Ok(Carrier {
        dot_number: row.get(0)?,
        legal_name: row.get(1)?,
        dba_name: row.get(2)?,
        city: row.get(3)?,
        state: row.get(4)?,
        power_units: row.get(5)?,
        drivers: row.get(6)?,
        operation: row
            .get::<_, Option<String>>(7)?
            .and_then(|code| Operation::from_code(&code)),
        hazmat: row.get(8)?,
        mcs150_date: row.get(9)?,
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::carriers::import::import;

    fn census_csv(dir: &Path, name: &str, rows: &[&str]) -> PathBuf {
        let path = dir.join(name);
        let mut file = std::fs::File::create(&path).unwrap();
        writeln!(
            file,
            "DOT_NUMBER,LEGAL_NAME,PHY_CITY,PHY_STATE,NBR_POWER_UNIT"
        )
        .unwrap();
        for row in rows {
            writeln!(file, "{row}").unwrap();
        }
        path
    }

    #[test]
    fn a_new_import_replaces_the_old_while_a_held_lookup_finishes_on_the_old_file() {
        let dir = std::env::temp_dir().join(format!("truckins-census-swap-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("carriers.db");
        let census = Census::new(&target);
        assert!(matches!(census.find(1), Err(CensusError::Missing(_))));

        import(
            &census_csv(&dir, "old.csv", &["1,OLD ONE,Austin,TX,3"]),
            &target,
            |_, _| {},
        )
        .unwrap();
        assert_eq!(census.find(1).unwrap().unwrap().legal_name, "OLD ONE");
        // A lookup in progress holds the old file's generation, as a request would between stat and query.
        let held = census.generation().unwrap();
        let old_connection = census.connect().unwrap();

        import(
            &census_csv(
                &dir,
                "new.csv",
                &["1,NEW ONE,Waco,TX,4", "2,SECOND,Tyler,TX,"],
            ),
            &target,
            |_, _| {},
        )
        .unwrap();
        // The connection opened before the rename still reads the old, complete file.
        let old: String = old_connection
            .query_row(
                "SELECT legal_name FROM carriers WHERE dot_number = 1",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(old, "OLD ONE");
        // The next lookup sees the new file.
        assert_eq!(census.find(1).unwrap().unwrap().legal_name, "NEW ONE");
        assert_eq!(census.find(2).unwrap().unwrap().power_units, None);
        assert_ne!(census.generation().unwrap().file, held.file);
        assert_eq!(census.find(3).unwrap(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
