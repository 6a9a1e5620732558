//! The database file and its pool: the file created private, opened with durable settings (WAL,
//! `synchronous=FULL`, a busy timeout), its schema brought up to date before anyone else connects, and the file the
//! pool opened (device and inode) remembered so that a write never goes into a file that is no longer in place.

use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use r2d2::{Pool, PooledConnection};
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::OpenFlags;

use super::StoreError;
use super::migrations::migrate;

/// The connection pool of one database file, with what is needed to tell whether that file is still in place.
#[derive(Clone)]
pub struct DbPool {
    pool: Pool<SqliteConnectionManager>,
    file: Arc<DatabaseFile>,
    /// Leads waiting to be committed together (see `group`).
    group: Arc<super::group::Queue>,
}

/// The database file as it was when the pool opened it.
struct DatabaseFile {
    path: PathBuf,
    device: u64,
    inode: u64,
    /// In WAL mode the `-wal` and `-shm` files exist as long as a connection is open.
    wal: bool,
}

pub type Connection = PooledConnection<SqliteConnectionManager>;

impl DbPool {
    pub(super) fn group_queue(&self) -> &super::group::Queue {
        &self.group
    }

    /// A connection of the pool. When none can be had, a file that is no longer in place is the likelier reason
    /// (a new connection cannot open it) and is reported as such.
    pub fn get(&self) -> Result<Connection, StoreError> {
        self.pool
            .get()
            .map_err(|error| match self.check_main_file() {
                Err(gone) => gone,
                Ok(()) => StoreError::Busy(error),
            })
    }

    /// Whether the configured path still names the file the pool opened, and, in WAL mode, whether its `-wal`
    /// and `-shm` are still there. Call it while holding a connection of the pool: only then must they exist.
    pub fn check_file(&self) -> Result<(), StoreError> {
        self.check_main_file()?;
        if self.file.wal {
            for suffix in ["-wal", "-shm"] {
                if !sibling(&self.file.path, suffix).exists() {
                    return Err(self.file.gone(
                        &format!("'s {suffix} file was deleted"),
                        "a file of the database (-wal or -shm) was deleted while the server was running",
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether the configured path still names the file the pool opened.
    fn check_main_file(&self) -> Result<(), StoreError> {
        let file = &*self.file;
        match std::fs::metadata(&file.path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Err(file.gone(
                " was deleted",
                "the database file was deleted while the server was running",
            )),
            Err(error) => Err(StoreError::Gone {
                reason: "the database file cannot be checked",
                detail: format!(
                    "the database file {} cannot be checked: {error}",
                    file.path.display()
                ),
            }),
            Ok(found) if (found.dev(), found.ino()) != (file.device, file.inode) => Err(file.gone(
                " was replaced by another file",
                "the database file was replaced while the server was running",
            )),
            Ok(_) => Ok(()),
        }
    }
}

impl DatabaseFile {
    fn gone(&self, what: &str, reason: &'static str) -> StoreError {
        StoreError::Gone {
            reason,
            detail: format!(
                "the database file {}{what} while the server was running: a lead written now would be lost at \
                 the next restart; restart the server (on a restored backup if the deletion was a mistake)",
                self.path.display()
            ),
        }
    }
}

/// `leads.db` + `-wal` -> `leads.db-wal`.
pub(super) fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Opens (creating if needed) the database at `path`, applies pending migrations and returns the pool.
pub fn open(path: &Path, pool_size: u32) -> Result<DbPool, StoreError> {
    open_with(path, pool_size, Checkpoints::Automatic)
}

/// Whether a connection checkpoints the database's WAL by itself (moves its pages into the file and starts it over).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checkpoints {
    /// SQLite's default: each time a commit leaves the WAL over 1000 pages.
    Automatic,
    /// Never (`wal_autocheckpoint = 0`): someone else does. When the database is replicated (src/replica), only
    /// Litestream may: a WAL started over by another connection while Litestream holds no read transaction on it
    /// (it can lose its own, for example when a checkpoint happens during a sync the server asked for, whose request
    /// ends) would leave frames Litestream never copied, and the replica then restores a corrupt file. Litestream
    /// checkpoints every minute and once the WAL is large.
    Never,
}

/// [`open`], with the checkpoints left to `checkpoints`.
pub fn open_with(
    path: &Path,
    pool_size: u32,
    checkpoints: Checkpoints,
) -> Result<DbPool, StoreError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| {
            rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
                Some(format!("cannot create {}: {e}", parent.display())),
            )
        })?;
    }
    // Created here rather than by SQLite, so that it is private whatever the umask.
    create_private(path).map_err(|e| {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
            Some(format!("cannot create {}: {e}", path.display())),
        )
    })?;
    // One connection first: SQLite's own error (not a database, read-only, locked) surfaces here as itself,
    // instead of as a pool that never fills; the schema is brought up to date before anyone else connects.
    let mut first = rusqlite::Connection::open(path)?;
    let journal_mode = configure(&first, checkpoints)?;
    migrate(&mut first)?;
    // Taken while `first` holds the file open, so it is the file the pool's connections open next.
    let found = std::fs::metadata(path).map_err(|e| {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
            Some(format!("cannot read {}: {e}", path.display())),
        )
    })?;
    // The pool never creates the file: a connection made after the file was deleted fails instead of starting
    // an empty database that would take leads nobody looks for.
    let manager = SqliteConnectionManager::file(path)
        .with_flags(OpenFlags::default() - OpenFlags::SQLITE_OPEN_CREATE)
        .with_init(move |connection| configure(connection, checkpoints).map(drop));
    let pool = Pool::builder()
        .max_size(pool_size)
        .connection_timeout(Duration::from_secs(5))
        .build(manager)?;
    drop(first);
    Ok(DbPool {
        pool,
        file: Arc::new(DatabaseFile {
            path: path.to_path_buf(),
            device: found.dev(),
            inode: found.ino(),
            wal: journal_mode.eq_ignore_ascii_case("wal"),
        }),
        group: Arc::default(),
    })
}

/// Creates `path` as an empty file readable and writable by its owner only (0600), whatever the umask, unless it
/// exists already (then it is left as it is); returns whether it was created. Leads hold names, e-mail addresses,
/// phone numbers and IP addresses. An empty file is an empty SQLite database, and SQLite gives the `-wal`, `-shm`
/// and journal files it creates beside a database the database file's mode.
///
/// Only for a file no SQLite connection of this process has open: closing another descriptor of an open
/// database would drop the locks SQLite holds on it (POSIX record locks belong to the process, per file).
pub fn create_private(path: &Path) -> std::io::Result<bool> {
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(file) => {
            // The mode given to open(2) is still narrowed by the umask (an odd one like 0277 would leave the file
            // unwritable): set it outright.
            file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
            Ok(true)
        }
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(error) => Err(error),
    }
}

/// Durable settings for every connection: WAL, a sync to disk at each commit, and waiting (not failing) on locks.
/// Returns the journal mode in force (SQLite keeps another one where WAL cannot work, without an error).
fn configure(
    connection: &rusqlite::Connection,
    checkpoints: Checkpoints,
) -> Result<String, rusqlite::Error> {
    connection.busy_timeout(Duration::from_secs(5))?;
    let mode = connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    // `secure_delete`: what a row loses (an erased lead, a replaced field, a page split's leftovers) is overwritten
    // with zeros rather than left in the file's free space, so that `truckins leads forget` leaves no copy behind.
    connection.execute_batch(
        "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON;",
    )?;
    checkpoints.apply(connection)?;
    Ok(mode)
}

impl Checkpoints {
    /// For the server's settings: left to Litestream when the database is replicated.
    pub fn for_settings(settings: &crate::config::Settings) -> Checkpoints {
        if settings.replica_socket.is_some() {
            Checkpoints::Never
        } else {
            Checkpoints::Automatic
        }
    }

    /// Sets `connection`'s automatic checkpoints accordingly.
    pub fn apply(self, connection: &rusqlite::Connection) -> rusqlite::Result<()> {
        if self == Checkpoints::Never {
            connection.execute_batch("PRAGMA wal_autocheckpoint = 0;")?;
        }
        Ok(())
    }
}
