//! The checks of files on this machine: the database's folder takes a new file, its file system has room, a recent
//! backup exists, the census is imported and fresh, and the status links' key is readable. Read-only but for one
//! temporary file in the database's folder, removed at once.

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::{Check, age, bytes};

/// Free space under which the database's file system fails the check: 1 GiB, a thousand times a database of many
/// thousand leads, and room for a month of daily backups of it; the server answers 503 to every lead once SQLite
/// cannot write. A share of the disk is shown, not judged: what the leads need does not grow with the disk.
pub const LEAST_FREE_BYTES: u64 = 1 << 30;
/// The newest backup may be this old at most: the timer makes one a day, so two days means one was missed.
pub const BACKUP_MAX_AGE_SECONDS: u64 = 48 * 3600;
/// The census may be this old at most: FMCSA publishes the file monthly, so 60 days means two were missed and
/// the DOT lookup shows carriers (names, power units) as they were.
pub const CENSUS_MAX_AGE_DAYS: i64 = 60;

/// The folder the database lives in (`.` for a bare file name).
pub fn database_folder(database: &Path) -> PathBuf {
    match database.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Whether this process runs as root, who may write where the service's user may not.
fn as_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// The database's folder takes a new file (made and removed here), and the database, when it exists already, opens
/// for writing (nothing is written to it).
pub fn database(database: &Path, folder: &Path) -> Check {
    let probe = folder.join(format!(".truckins-check-{}", std::process::id()));
    let cannot = |error: std::io::Error| {
        Check::fail(
            "database",
            format!(
                "the folder {} cannot take a new file ({error}): the server could not make the database, its \
                 -wal and -shm, or its links' key there",
                folder.display()
            ),
        )
    };
    // `create_new`: a file of that name that is already there is never written to or removed.
    let mut made = match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(made) => made,
        Err(error) => return cannot(error),
    };
    let written = made
        .write_all(b"truckins check\n")
        .and_then(|()| made.sync_all());
    drop(made);
    let removed = fs::remove_file(&probe);
    if let Err(error) = written {
        return cannot(error);
    }
    if let Err(error) = removed {
        return Check::fail(
            "database",
            format!(
                "made {} but cannot remove it ({error}); remove it by hand",
                probe.display()
            ),
        );
    }
    let file = match OpenOptions::new().write(true).open(database) {
        Ok(_) => format!("{} opens for writing", database.display()),
        Err(error) if error.kind() == ErrorKind::NotFound => format!(
            "{} is not made yet (the server makes it at its first start)",
            database.display()
        ),
        Err(error) => {
            return Check::fail(
                "database",
                format!(
                    "{} cannot be opened for writing: {error}",
                    database.display()
                ),
            );
        }
    };
    let root = if as_root() {
        "; checked as root, who may write where the service's user may not: run it as that user"
    } else {
        ""
    };
    Check::ok(
        "database",
        format!(
            "the folder {} takes a new file (made and removed); {file}{root}",
            folder.display()
        ),
    )
}

/// The nearest folder of `path` that exists: the file system a folder not made yet will be on.
fn existing(path: &Path) -> PathBuf {
    path.ancestors()
        .find(|ancestor| !ancestor.as_os_str().is_empty() && ancestor.exists())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Free space on the database folder's file system (as the service's user gets it: less the part kept for root).
pub fn disk(folder: &Path) -> Check {
    let place = existing(folder);
    match free_space(&place) {
        Ok((free, total)) => judge_space(&place, free, total),
        Err(error) => Check::fail(
            "disk",
            format!(
                "the free space of {} cannot be read: {error}",
                place.display()
            ),
        ),
    }
}

/// `statvfs`: bytes available to an unprivileged user, and the file system's size.
fn free_space(path: &Path) -> std::io::Result<(u64, u64)> {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| std::io::Error::new(ErrorKind::InvalidInput, "a path with a NUL byte"))?;
    // SAFETY: `name` is a NUL-terminated path and `stat` a zeroed struct statvfs that the call fills in.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(name.as_ptr(), &mut stat) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let unit = stat.f_frsize as u64;
    Ok((
        (stat.f_bavail as u64).saturating_mul(unit),
        (stat.f_blocks as u64).saturating_mul(unit),
    ))
}

fn judge_space(place: &Path, free: u64, total: u64) -> Check {
    let percent = free.saturating_mul(100).checked_div(total).unwrap_or(0);
    let figures = format!(
        "{} free of {} ({percent} %) on the file system of {}",
        bytes(free),
        bytes(total),
        place.display()
    );
    if free < LEAST_FREE_BYTES {
        Check::fail(
            "disk",
            format!(
                "{figures}: under {}; once SQLite cannot write, every lead is refused (503)",
                bytes(LEAST_FREE_BYTES)
            ),
        )
    } else {
        Check::ok(
            "disk",
            format!("{figures} (at least {})", bytes(LEAST_FREE_BYTES)),
        )
    }
}

/// The newest `*.db` file in `folder` (by modification time) is at most two days old at `now`.
pub fn backups(folder: &Path, now: SystemTime) -> Check {
    let hint = format!(
        "deploy/truckins-backup.timer makes one a day (systemctl enable --now truckins-backup.timer; systemctl \
         list-timers truckins-backup.timer says when it last ran); make one now with systemctl start \
         truckins-backup.service, or truckins backup {}; backups kept in another folder: check --backups DIR",
        folder.join("leads-now.db").display()
    );
    let entries = match fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(error) => {
            return Check::fail(
                "backups",
                format!(
                    "no backups: {} cannot be read ({error}); {hint}",
                    folder.display()
                ),
            );
        }
    };
    let mut count = 0;
    let mut newest: Option<(SystemTime, PathBuf)> = None;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|extension| extension != "db") {
            continue;
        }
        let Ok(found) = entry.metadata() else {
            continue;
        };
        let Ok(modified) = found.modified() else {
            continue;
        };
        if !found.is_file() {
            continue;
        }
        count += 1;
        if newest.as_ref().is_none_or(|(time, _)| modified > *time) {
            newest = Some((modified, path));
        }
    }
    let Some((modified, path)) = newest else {
        return Check::fail(
            "backups",
            format!("no backup (*.db) in {}; {hint}", folder.display()),
        );
    };
    let seconds = now
        .duration_since(modified)
        .map(|since| since.as_secs())
        .unwrap_or(0);
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    if seconds > BACKUP_MAX_AGE_SECONDS {
        Check::fail(
            "backups",
            format!(
                "the newest in {}, {name}, is {} old (more than 48 h); {hint}",
                folder.display(),
                age(seconds)
            ),
        )
    } else {
        Check::ok(
            "backups",
            format!(
                "the newest in {}, {name}, is {} old ({count} in all; at most 48 h; another folder: check --backups \
                 DIR)",
                folder.display(),
                age(seconds)
            ),
        )
    }
}

/// The carrier census: imported (else `–`: the quote form works without it, only the DOT lookup offers no
/// company), and not older than [`CENSUS_MAX_AGE_DAYS`].
pub fn census(path: &Path, now: OffsetDateTime) -> Check {
    let import = "truckins carriers import Company_Census_File.csv (as the service's user; docs/leads.md, \"The DOT \
                  lookup\")";
    match crate::carriers::lookup::imported(path) {
        Ok(None) => Check::skip(
            "census",
            format!(
                "not imported ({} missing): the quote form works, its DOT lookup offers no company; {import}",
                path.display()
            ),
        ),
        Ok(Some(imported)) => {
            let Ok(at) = OffsetDateTime::parse(&imported.at, &Rfc3339) else {
                return Check::fail(
                    "census",
                    format!(
                        "{} says it was imported at {:?}, which is not a time; {import}",
                        path.display(),
                        imported.at
                    ),
                );
            };
            let days = (now - at).whole_days();
            let figures = format!(
                "{} carrier{}, imported {} ({days} days ago)",
                imported.carriers,
                if imported.carriers == 1 { "" } else { "s" },
                imported.at.get(..10).unwrap_or(&imported.at)
            );
            if days > CENSUS_MAX_AGE_DAYS {
                Check::fail(
                    "census",
                    format!(
                        "{figures}: stale, over {CENSUS_MAX_AGE_DAYS} days (FMCSA publishes it monthly); download \
                         it again and {import}"
                    ),
                )
            } else {
                Check::ok(
                    "census",
                    format!("{figures}, at most {CENSUS_MAX_AGE_DAYS} days"),
                )
            }
        }
        Err(why) => Check::fail("census", why),
    }
}

/// The status links' key, kept in the leads database (`status::key`): there, and a key.
pub fn link_key(database: &Path) -> Check {
    let legacy = crate::links::key::legacy_file(database);
    let not_yet = || {
        let how = if legacy.exists() {
            format!("{} is taken into the database", legacy.display())
        } else {
            "the server makes it".to_string()
        };
        Check::skip(
            "link_key",
            format!("not in the leads database yet: {how} at its next start"),
        )
    };
    if !database.exists() {
        return not_yet();
    }
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let stored = rusqlite::Connection::open_with_flags(database, flags)
        .map_err(|error| format!("{}: {error}", database.display()))
        .and_then(|connection| {
            let has_table: bool = connection
                .query_row(
                    "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'installation_keys')",
                    [],
                    |row| row.get(0),
                )
                .map_err(|error| format!("{}: {error}", database.display()))?;
            if has_table {
                crate::links::key::stored(&connection)
            } else {
                Ok(None)
            }
        });
    match stored {
        Ok(Some(_)) => Check::ok(
            "link_key",
            "kept in the leads database: its backups and replica carry it, so links already e-mailed work after a \
             restore",
        ),
        Ok(None) => not_yet(),
        Err(why) => Check::fail("link_key", why),
    }
}

#[cfg(test)]
mod tests;
