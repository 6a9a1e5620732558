//! Lead storage: one SQLite file, opened through an r2d2 pool with durable settings (WAL, `synchronous=FULL`, a busy
//! timeout), its schema migrations embedded and applied at start. A lead is committed before the caller answers,
//! and a repeated `submission_id` finds the first lead instead of storing a second.
//!
//! The pool remembers which file it opened (device and inode). SQLite keeps writing through the file descriptors
//! it holds even after the file, its `-wal` and `-shm` were deleted or replaced, so a lead would be committed into
//! a file that is gone at the next restart: every write and every answer from the file checks first that the
//! configured path still names that file ([`DbPool::check_file`]), and [`probe`] proves for `/healthz` that a
//! write would be taken, without leaving anything behind.

use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use r2d2::{Pool, PooledConnection};
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{OpenFlags, OptionalExtension, params};
use serde::Serialize;

/// The connection pool of one database file, with what is needed to tell whether that file is still in place.
#[derive(Clone)]
pub struct DbPool {
    pool: Pool<SqliteConnectionManager>,
    file: Arc<DatabaseFile>,
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
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The lead statuses an admin moves a lead through (DECISIONS 17).
pub const STATUSES: [&str; 5] = ["new", "contacted", "quoted", "won", "lost"];

/// Schema versions, applied in order, each once, inside a transaction.
const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        "CREATE TABLE leads (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL CHECK (source IN ('quote', 'contact')),
        status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'contacted', 'quoted', 'won', 'lost')),
        created_at TEXT NOT NULL,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        phone TEXT,
        company TEXT,
        insurance_type TEXT,
        vehicle_count INTEGER,
        dot_number TEXT,
        subject TEXT,
        message TEXT,
        consent_given INTEGER NOT NULL DEFAULT 0,
        consent_text TEXT,
        consent_version TEXT,
        consent_at TEXT,
        ip TEXT,
        user_agent TEXT,
        page_url TEXT,
        utm_source TEXT,
        utm_medium TEXT,
        utm_campaign TEXT,
        utm_term TEXT,
        utm_content TEXT,
        gclid TEXT,
        referrer TEXT,
        landing_page TEXT,
        submission_id TEXT
    );
    CREATE UNIQUE INDEX leads_submission ON leads (source, submission_id);
    CREATE INDEX leads_created_at ON leads (created_at);
    CREATE INDEX leads_status ON leads (status);",
    ),
    (
        2,
        // Written by the health check inside a transaction it always rolls back, so it stays empty.
        "CREATE TABLE health_probe (id INTEGER PRIMARY KEY, checked_at TEXT NOT NULL);",
    ),
];

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no database connection is free: {0}")]
    Busy(#[from] r2d2::Error),
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The configured path no longer names the file the server has open: `reason` may be shown in public,
    /// `detail` (with the path) is for the log.
    #[error("{detail}")]
    Gone {
        reason: &'static str,
        detail: String,
    },
}

impl StoreError {
    /// A passing condition (every connection taken, or the file still locked after the busy timeout) rather than
    /// a fault: the same request may well succeed a moment later.
    pub fn is_temporary(&self) -> bool {
        match self {
            StoreError::Busy(_) => true,
            StoreError::Sqlite(error) => matches!(
                error.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            ),
            StoreError::Gone { .. } => false,
        }
    }

    /// The storage itself cannot take a lead (the file gone or replaced, read-only, the disk full or failing, the
    /// file damaged): the service is unavailable until someone acts, which is not a bug of the request or ours.
    pub fn is_storage_fault(&self) -> bool {
        use rusqlite::ErrorCode::*;
        match self {
            StoreError::Gone { .. } => true,
            StoreError::Busy(_) => false,
            StoreError::Sqlite(error) => matches!(
                error.sqlite_error_code(),
                Some(
                    ReadOnly
                        | SystemIoFailure
                        | DiskFull
                        | CannotOpen
                        | PermissionDenied
                        | DatabaseCorrupt
                        | NotADatabase
                        | FileLockingProtocolFailed
                        | NoLargeFileSupport
                )
            ),
        }
    }

    /// What may be said in public (`/healthz`) about the failure: the kind, never a path or SQL.
    pub fn public_reason(&self) -> &'static str {
        use rusqlite::ErrorCode::*;
        match self {
            StoreError::Gone { reason, .. } => reason,
            StoreError::Busy(_) => "no database connection is free",
            StoreError::Sqlite(error) => match error.sqlite_error_code() {
                Some(DatabaseBusy | DatabaseLocked) => "the database is locked by another program",
                Some(ReadOnly | PermissionDenied) => "the database is read-only for the server",
                Some(DiskFull) => "the disk is full",
                Some(SystemIoFailure) => "the disk reported an input/output error",
                Some(CannotOpen) => "the database file cannot be opened",
                Some(DatabaseCorrupt | NotADatabase) => "the database file is damaged",
                _ => "the database does not answer",
            },
        }
    }
}

/// Opens (creating if needed) the database at `path`, applies pending migrations and returns the pool.
pub fn open(path: &Path, pool_size: u32) -> Result<DbPool, StoreError> {
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
    let journal_mode = configure(&first)?;
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
        .with_init(|connection| configure(connection).map(drop));
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
fn configure(connection: &rusqlite::Connection) -> Result<String, rusqlite::Error> {
    connection.busy_timeout(Duration::from_secs(5))?;
    let mode = connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    connection.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")?;
    Ok(mode)
}

fn migrate(connection: &mut rusqlite::Connection) -> Result<(), StoreError> {
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

/// The current time as RFC 3339 UTC text, e.g. `2026-11-22T08:15:00.123Z`.
pub fn now() -> String {
    let mut text = Vec::with_capacity(32);
    write_now(&mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// [`now`] appended to `out`: the request log writes its lines without a string of their own per request.
pub fn write_now(out: &mut Vec<u8>) {
    let now = time::OffsetDateTime::now_utc();
    let start = out.len();
    if now
        .format_into(out, &time::format_description::well_known::Rfc3339)
        .is_err()
    {
        out.truncate(start);
        out.extend_from_slice(now.unix_timestamp().to_string().as_bytes());
    }
}

/// Everything stored about one lead.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Lead {
    pub id: i64,
    pub source: String,
    pub status: String,
    pub created_at: String,
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub company: Option<String>,
    pub insurance_type: Option<String>,
    pub vehicle_count: Option<i64>,
    pub dot_number: Option<String>,
    pub subject: Option<String>,
    pub message: Option<String>,
    pub consent_given: bool,
    pub consent_text: Option<String>,
    pub consent_version: Option<String>,
    pub consent_at: Option<String>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub page_url: Option<String>,
    pub utm_source: Option<String>,
    pub utm_medium: Option<String>,
    pub utm_campaign: Option<String>,
    pub utm_term: Option<String>,
    pub utm_content: Option<String>,
    pub gclid: Option<String>,
    pub referrer: Option<String>,
    pub landing_page: Option<String>,
    pub submission_id: Option<String>,
}

/// The columns in storage order; export and queries use the same list.
pub const COLUMNS: [&str; 29] = [
    "id",
    "source",
    "status",
    "created_at",
    "name",
    "email",
    "phone",
    "company",
    "insurance_type",
    "vehicle_count",
    "dot_number",
    "subject",
    "message",
    "consent_given",
    "consent_text",
    "consent_version",
    "consent_at",
    "ip",
    "user_agent",
    "page_url",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_term",
    "utm_content",
    "gclid",
    "referrer",
    "landing_page",
    "submission_id",
];

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
    let mut connection = pool.get()?;
    let _writer = WRITER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let transaction =
        connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    // Nothing is written into a file that is no longer in place (dropping the transaction rolls it back).
    pool.check_file()?;
    if let Some(submission) = &lead.submission_id {
        let earlier: Option<i64> = transaction
            .query_row(
                "SELECT id FROM leads WHERE source = ?1 AND submission_id = ?2",
                params![lead.source, submission],
                |row| row.get(0),
            )
            .optional()?;
        if let Some(id) = earlier {
            return Ok(Stored::Repeat(id));
        }
    }
    let placeholders = (1..COLUMNS.len())
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "INSERT INTO leads ({}) VALUES ({placeholders})",
        COLUMNS[1..].join(", ")
    );
    transaction.execute(
        &sql,
        params![
            lead.source,
            lead.status,
            lead.created_at,
            lead.name,
            lead.email,
            lead.phone,
            lead.company,
            lead.insurance_type,
            lead.vehicle_count,
            lead.dot_number,
            lead.subject,
            lead.message,
            lead.consent_given,
            lead.consent_text,
            lead.consent_version,
            lead.consent_at,
            lead.ip,
            lead.user_agent,
            lead.page_url,
            lead.utm_source,
            lead.utm_medium,
            lead.utm_campaign,
            lead.utm_term,
            lead.utm_content,
            lead.gclid,
            lead.referrer,
            lead.landing_page,
            lead.submission_id,
        ],
    )?;
    let id = transaction.last_insert_rowid();
    transaction.commit()?;
    // The file may have gone between the check and the commit: then the lead is in a file nobody will open again,
    // and is not acknowledged.
    pool.check_file()?;
    Ok(Stored::New(id))
}

/// The health check: a write to the database is taken (inside a transaction that is rolled back, so nothing is left
/// behind), and the file written is the one at the configured path. A read-only database fails the write.
pub fn probe(pool: &DbPool) -> Result<(), StoreError> {
    let mut connection = pool.get()?;
    // In line with the leads, as any writer of this process.
    let _writer = WRITER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let transaction =
        connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    transaction.execute(
        "INSERT INTO health_probe (checked_at) VALUES (?1)",
        params![now()],
    )?;
    transaction.rollback()?;
    pool.check_file()
}

/// The id of the lead of this `source` (form) stored earlier under `submission_id`, if any.
pub fn find_submission(
    pool: &DbPool,
    source: &str,
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
    pub status: Option<String>,
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
    let rows = statement.query_map(params![filter.since, filter.status, limit], |row| {
        Ok(Lead {
            id: row.get(0)?,
            source: row.get(1)?,
            status: row.get(2)?,
            created_at: row.get(3)?,
            name: row.get(4)?,
            email: row.get(5)?,
            phone: row.get(6)?,
            company: row.get(7)?,
            insurance_type: row.get(8)?,
            vehicle_count: row.get(9)?,
            dot_number: row.get(10)?,
            subject: row.get(11)?,
            message: row.get(12)?,
            consent_given: row.get(13)?,
            consent_text: row.get(14)?,
            consent_version: row.get(15)?,
            consent_at: row.get(16)?,
            ip: row.get(17)?,
            user_agent: row.get(18)?,
            page_url: row.get(19)?,
            utm_source: row.get(20)?,
            utm_medium: row.get(21)?,
            utm_campaign: row.get(22)?,
            utm_term: row.get(23)?,
            utm_content: row.get(24)?,
            gclid: row.get(25)?,
            referrer: row.get(26)?,
            landing_page: row.get(27)?,
            submission_id: row.get(28)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Moves a lead to `status`; false when no lead has that id.
pub fn set_status(pool: &DbPool, id: i64, status: &str) -> Result<bool, StoreError> {
    let changed = pool.get()?.execute(
        "UPDATE leads SET status = ?1 WHERE id = ?2",
        params![status, id],
    )?;
    Ok(changed == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_db(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("truckins-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir.join("leads.db")
    }

    fn lead(submission: Option<&str>) -> Lead {
        Lead {
            source: "quote".into(),
            status: "new".into(),
            created_at: now(),
            name: "Dana".into(),
            email: "dana@example.com".into(),
            submission_id: submission.map(str::to_string),
            ..Lead::default()
        }
    }

    #[test]
    fn a_repeated_submission_is_stored_once() {
        let pool = open(&temp_db("repeat"), 2).unwrap();
        let first = insert(&pool, &lead(Some("abc"))).unwrap();
        let again = insert(&pool, &lead(Some("abc"))).unwrap();
        let Stored::New(id) = first else {
            panic!("{first:?}")
        };
        assert_eq!(again, Stored::Repeat(id));
        assert_eq!(list(&pool, &LeadFilter::default()).unwrap().len(), 1);
    }

    #[test]
    fn a_file_replaced_under_the_pool_takes_no_lead() {
        let path = temp_db("replaced");
        let pool = open(&path, 2).unwrap();
        insert(&pool, &lead(Some("before-the-swap"))).unwrap();
        probe(&pool).unwrap();
        // Another database moved onto the path (a backup restored while serving, say).
        let other = path.with_file_name("other.db");
        drop(open(&other, 1).unwrap());
        std::fs::rename(&other, &path).unwrap();
        for result in [
            insert(&pool, &lead(Some("after-the-swap"))).map(drop),
            find_submission(&pool, "quote", "before-the-swap").map(drop),
            probe(&pool),
        ] {
            let error = result.unwrap_err();
            assert!(error.is_storage_fault(), "{error}");
            assert_eq!(
                error.public_reason(),
                "the database file was replaced while the server was running"
            );
        }
    }

    #[test]
    fn a_new_database_is_private_and_an_existing_one_keeps_its_mode() {
        let path = temp_db("private");
        let pool = open(&path, 1).unwrap();
        insert(&pool, &lead(None)).unwrap();
        for suffix in ["", "-wal", "-shm"] {
            let mode = std::fs::metadata(sibling(&path, suffix))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{suffix}");
        }
        drop(pool);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        assert!(!create_private(&path).unwrap());
        drop(open(&path, 1).unwrap());
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640, "the owner's choice");
    }

    #[test]
    fn migrations_apply_once_and_settings_are_durable() {
        let path = temp_db("migrate");
        drop(open(&path, 1).unwrap());
        let pool = open(&path, 1).unwrap();
        let connection = pool.get().unwrap();
        let versions: i64 = connection
            .query_row("SELECT COUNT(*) FROM schema_migrations", [], |r| r.get(0))
            .unwrap();
        assert_eq!(versions, MIGRATIONS.len() as i64);
        let mode: String = connection
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let synchronous: i64 = connection
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .unwrap();
        assert_eq!(synchronous, 2, "FULL");
    }

    #[test]
    fn status_and_since_filter_the_list() {
        let pool = open(&temp_db("filter"), 2).unwrap();
        let Stored::New(id) = insert(&pool, &lead(None)).unwrap() else {
            panic!()
        };
        insert(&pool, &lead(None)).unwrap();
        assert!(set_status(&pool, id, "won").unwrap());
        assert!(!set_status(&pool, 9999, "won").unwrap());
        let won = list(
            &pool,
            &LeadFilter {
                status: Some("won".into()),
                ..LeadFilter::default()
            },
        )
        .unwrap();
        assert_eq!(won.iter().map(|l| l.id).collect::<Vec<_>>(), vec![id]);
        let future = list(
            &pool,
            &LeadFilter {
                since: Some("2999-01-01".into()),
                ..LeadFilter::default()
            },
        )
        .unwrap();
        assert!(future.is_empty());
    }
}
