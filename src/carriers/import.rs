//! `truckins carriers import`: FMCSA's Motor Carrier Census CSV streamed into a new SQLite file, which then replaces
//! the census in place with one rename. Until that rename, lookups answer from the previous file; after it, from
//! the new one (see [`lookup`](super::lookup)). A half-written import is never seen and is removed on failure.
//!
//! Columns are found by their header names, in any order; unknown ones are ignored. A row that cannot be read
//! (wrong number of fields, no usable DOT number or name, a count that is not a number) is counted and listed
//! with its line number, and the import goes on; a blank line is no row, and lines are counted at `\n`, so CRLF
//! files report the lines an editor shows. A record longer than [`MAX_RECORD`] (an unclosed quote swallowing the
//! rest of the file) stops the import with its line, and nothing is replaced. Unless forced, an import never
//! replaces a file that is not a census (the leads database given by mistake), nor a census with more than twice
//! the carriers of the new one (a truncated download). Only the columns the API shows are stored.

use std::fs::File;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use csv::ByteRecord;
use rusqlite::params;

use super::Operation;
use super::capped::{Capped, read_error, too_long};
use super::columns::Columns;

/// The census file's schema. `dot_number` is the rowid: a lookup is one B-tree descent, and no index is built.
const SCHEMA: &str = "
CREATE TABLE carriers (
    dot_number INTEGER PRIMARY KEY,
    legal_name TEXT NOT NULL,
    dba_name TEXT,
    city TEXT,
    state TEXT,
    power_units INTEGER,
    drivers INTEGER,
    operation TEXT,
    hazmat INTEGER,
    mcs150_date TEXT
);
-- One row: what this file was made from, for the operator.
CREATE TABLE census (imported_at TEXT NOT NULL, source TEXT NOT NULL, carriers INTEGER NOT NULL,
                     malformed INTEGER NOT NULL);
";

const INSERT: &str = "INSERT OR REPLACE INTO carriers (dot_number, legal_name, dba_name, city, state, \
                      power_units, drivers, operation, hazmat, mcs150_date) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";

/// Malformed rows listed by line number in the report; more are only counted (a broken export could have millions).
pub const LISTED_MALFORMED: usize = 50;

/// How often the progress callback is called, in rows.
const PROGRESS_EVERY: u64 = 16_384;

/// What an import did.
#[derive(Debug, Default)]
pub struct Report {
    /// Data rows read (the header not counted).
    pub rows: u64,
    /// Carriers now in the census (a DOT number seen twice counts once: its last row wins).
    pub carriers: u64,
    /// Rows whose DOT number an earlier row had already.
    pub duplicates: u64,
    pub malformed: u64,
    /// The first [`LISTED_MALFORMED`] malformed rows: line number in the file and what is wrong.
    pub malformed_lines: Vec<(u64, String)>,
    pub elapsed: Duration,
}

/// The file an import writes before it is renamed over `target`: beside it (a rename stays on one file system),
/// hidden, and named after this process so two imports at once never write the same file.
fn work_file(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "carriers.db".into());
    target.with_file_name(format!(".{name}.importing-{}", std::process::id()))
}

/// Removes the unfinished file unless the import completed.
struct Unfinished(Option<PathBuf>);

impl Drop for Unfinished {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Imports the census CSV at `source` into a new file that then replaces `target`, refusing (see [`import_with`])
/// to replace a file that is not a census or a census with twice as many carriers.
pub fn import(
    source: &Path,
    target: &Path,
    progress: impl FnMut(u64, u64),
) -> Result<Report, String> {
    import_with(source, target, false, progress)
}

/// Imports the census CSV at `source` into a new file that then replaces `target`. `progress` is called now and
/// then with the rows and bytes read so far. Fails (leaving `target` as it was) when the file cannot be read, has
/// no DOT_NUMBER or LEGAL_NAME column, holds no readable row at all, or holds a record longer than
/// [`MAX_RECORD`] (an unclosed quote). Unless `force`, also refuses when `target` exists and is not a census
/// database (it could be the leads), or when the new census has fewer than half the carriers of the one in place.
pub fn import_with(
    source: &Path,
    target: &Path,
    force: bool,
    mut progress: impl FnMut(u64, u64),
) -> Result<Report, String> {
    let started = Instant::now();
    if !force {
        census_in_place(target)?;
    }
    let file = File::open(source).map_err(|e| format!("cannot read {}: {e}", source.display()))?;
    let mut reader = csv::ReaderBuilder::new()
        // Rows of another width are reported as malformed here, not refused by the parser.
        .flexible(true)
        // Lines end at `\n` only, so line numbers are right for CRLF files too (a `\r` left at the end of the
        // last field is trimmed with the rest of its spaces).
        .terminator(csv::Terminator::Any(b'\n'))
        .buffer_capacity(1 << 20)
        .from_reader(Capped::new(file));
    let headers = reader.byte_headers().map_err(|e| match e.kind() {
        // The parser reads ahead: a record too long after the header can stop it here.
        csv::ErrorKind::Io(io) if too_long(io).is_some() => read_error(source, io),
        _ => format!("cannot read the header of {}: {e}", source.display()),
    })?;
    let columns = Columns::find(headers)?;

    if let Some(parent) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let work = work_file(target);
    let _ = std::fs::remove_file(&work);
    let mut unfinished = Unfinished(Some(work.clone()));
    let failed = |e: rusqlite::Error| format!("cannot write {}: {e}", work.display());
    let mut connection = rusqlite::Connection::open(&work).map_err(failed)?;
    // Nobody else sees this file until it is complete, and a crash leaves only a file to delete: no journal, no
    // syncs while writing (the whole file is synced once, before the rename), one big cache.
    connection
        .execute_batch(
            "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
             PRAGMA temp_store = MEMORY; PRAGMA cache_size = -32768;",
        )
        .map_err(failed)?;
    let transaction = connection.transaction().map_err(failed)?;
    transaction.execute_batch(SCHEMA).map_err(failed)?;
    let mut report = Report::default();
    {
        let mut insert = transaction.prepare(INSERT).map_err(failed)?;
        let mut record = ByteRecord::new();
        let mut inserted = 0u64;
        loop {
            let line = reader.position().line();
            match reader.read_byte_record(&mut record) {
                Ok(false) => break,
                Ok(true) => {}
                Err(error) => {
                    if let csv::ErrorKind::Io(io) = error.kind() {
                        return Err(read_error(source, io));
                    }
                    report.rows += 1;
                    note_malformed(&mut report, line, error.to_string());
                    continue;
                }
            }
            if record.len() == 1 && record[0].trim_ascii().is_empty() {
                // A blank line (`\r` alone in a CRLF file) is no row.
                continue;
            }
            report.rows += 1;
            let line = record.position().map_or(line, csv::Position::line);
            match columns.carrier(&record) {
                Ok(carrier) => {
                    insert
                        .execute(params![
                            carrier.dot_number,
                            carrier.legal_name,
                            carrier.dba_name,
                            carrier.city,
                            carrier.state,
                            carrier.power_units,
                            carrier.drivers,
                            carrier.operation.map(Operation::code),
                            carrier.hazmat,
                            carrier.mcs150_date,
                        ])
                        .map_err(failed)?;
                    inserted += 1;
                }
                Err(reason) => note_malformed(&mut report, line, reason),
            }
            if report.rows.is_multiple_of(PROGRESS_EVERY) {
                progress(report.rows, reader.position().byte());
            }
        }
        progress(report.rows, reader.position().byte());
        if inserted == 0 {
            return Err(format!(
                "no carrier could be read from {} ({} rows, {} malformed); the census in place is kept",
                source.display(),
                report.rows,
                report.malformed
            ));
        }
        let carriers: i64 = transaction
            .query_row("SELECT COUNT(*) FROM carriers", [], |row| row.get(0))
            .map_err(failed)?;
        report.carriers = carriers.unsigned_abs();
        report.duplicates = inserted - report.carriers;
    }
    transaction
        .execute(
            "INSERT INTO census (imported_at, source, carriers, malformed) VALUES (?1, ?2, ?3, ?4)",
            params![
                crate::clock::now(),
                source.display().to_string(),
                report.carriers as i64,
                report.malformed as i64
            ],
        )
        .map_err(failed)?;
    transaction.commit().map_err(failed)?;
    connection.close().map_err(|(_, e)| failed(e))?;

    // On disk before it takes the census's name, and the rename on disk before the import says it is done.
    let io = |e: std::io::Error| format!("cannot finish {}: {e}", work.display());
    let written = File::open(&work).map_err(io)?;
    written.sync_all().map_err(io)?;
    // Public records without contact details: readable by the server's user whoever ran the import.
    written
        .set_permissions(std::fs::Permissions::from_mode(0o644))
        .map_err(io)?;
    if !force {
        // Checked again: another import or a mistyped path may have put something there meanwhile.
        let in_place = census_in_place(target)?;
        if in_place.is_some_and(|carriers| report.carriers < carriers / 2) {
            return Err(format!(
                "the new census has {} carriers, fewer than half the {} of the one in place at {}; it is kept \
                 (--force replaces it anyway)",
                report.carriers,
                in_place.unwrap_or_default(),
                target.display()
            ));
        }
    }
    std::fs::rename(&work, target)
        .map_err(|e| format!("cannot replace {}: {e}", target.display()))?;
    unfinished.0 = None;
    if let Some(parent) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        File::open(parent)
            .and_then(|dir| dir.sync_all())
            .map_err(io)?;
    }
    report.elapsed = started.elapsed();
    Ok(report)
}

/// The carriers in the census database at `target`, `None` when there is no file there, or why that file must not
/// be replaced: it is not SQLite, or has no `census` table (the leads database, say).
fn census_in_place(target: &Path) -> Result<Option<u64>, String> {
    if std::fs::symlink_metadata(target).is_err() {
        return Ok(None);
    }
    let refuse = |why: &str| {
        format!(
            "{} exists and {why}; refusing to replace it (--force replaces it anyway)",
            target.display()
        )
    };
    let connection = rusqlite::Connection::open_with_flags(
        target,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|_| refuse("cannot be opened as SQLite"))?;
    let carriers: Option<i64> = connection
        .query_row("SELECT MAX(carriers) FROM census", [], |row| row.get(0))
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(error, _)
                if error.code == rusqlite::ErrorCode::NotADatabase =>
            {
                refuse("is not an SQLite database")
            }
            _ => refuse("is not a carriers census (it has no census table)"),
        })?;
    Ok(Some(carriers.unwrap_or(0).unsigned_abs()))
}

/// The longest record an import reads, in bytes: a census row is well under 2 KiB, so a longer one is an unclosed
/// quote swallowing the lines after it, and is refused before it fills memory.
pub const MAX_RECORD: usize = 64 * 1024;

fn note_malformed(report: &mut Report, line: u64, reason: String) {
    report.malformed += 1;
    if report.malformed_lines.len() < LISTED_MALFORMED {
        report.malformed_lines.push((line, reason));
    }
}
