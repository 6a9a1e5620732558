//! `truckins backup FILE`: a consistent copy of the leads database made with SQLite's online backup while the site
//! may be writing, checked (integrity, lead count) and only then renamed into place, readable by its owner only.

use rocket::figment::Figment;
use truckins::store;

use super::open_existing;
use super::out::say;

pub fn run(figment: &Figment, file: &std::path::Path) -> Result<(), String> {
    if file.exists() {
        return Err(format!(
            "{} exists already; choose a new file name",
            file.display()
        ));
    }
    let (path, pool) = open_existing(figment)?;
    // Written beside the target and renamed into place only once checked: a failed backup leaves no file that
    // looks like a backup.
    let partial = file.with_file_name(format!(
        "{}.partial",
        file.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let result = copy_database(&pool, &path, &partial).and_then(|done| {
        std::fs::rename(&partial, file)
            .map_err(|e| format!("cannot move the copy to {}: {e}", file.display()))?;
        Ok(done)
    });
    match result {
        Ok((leads, milliseconds)) => {
            say!(
                "backed up {leads} leads from {} to {} in {milliseconds} ms",
                path.display(),
                file.display()
            );
            Ok(())
        }
        Err(message) => {
            let _ = std::fs::remove_file(&partial);
            Err(message)
        }
    }
}

/// Copies the database into `target` with SQLite's online backup and checks the copy; returns its lead count
/// and the time it took.
fn copy_database(
    pool: &store::DbPool,
    path: &std::path::Path,
    target: &std::path::Path,
) -> Result<(i64, u128), String> {
    let _ = std::fs::remove_file(target);
    let started = std::time::Instant::now();
    let source = pool.get().map_err(|e| e.to_string())?;
    // A copy of every lead: readable by its owner only, like the database.
    store::create_private(target)
        .map_err(|e| format!("cannot create {}: {e}", target.display()))?;
    let mut copy = rusqlite::Connection::open(target)
        .map_err(|e| format!("cannot create {}: {e}", target.display()))?;
    let backup = rusqlite::backup::Backup::new(&source, &mut copy).map_err(|e| e.to_string())?;
    // The whole file in one step, inside one read transaction: with WAL the site keeps writing leads meanwhile,
    // whereas a copy made in small steps starts over whenever a lead is written between two steps, and under
    // steady traffic might never finish. Busy or locked (a checkpoint at that moment) is retried for a while.
    let gave_up_at = started + std::time::Duration::from_secs(60);
    loop {
        match backup.step(-1) {
            Ok(rusqlite::backup::StepResult::Done) => break,
            Ok(_) if std::time::Instant::now() < gave_up_at => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            Ok(_) => return Err(format!("{} stayed locked for a minute", path.display())),
            Err(e) => return Err(format!("backup of {} failed: {e}", path.display())),
        }
    }
    drop(backup);
    let check: String = copy
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .map_err(|e| e.to_string())?;
    if check != "ok" {
        return Err(format!(
            "the copy of {} failed its integrity check: {check}",
            path.display()
        ));
    }
    let leads: i64 = copy
        .query_row("SELECT COUNT(*) FROM leads", [], |row| row.get(0))
        .map_err(|e| e.to_string())?;
    Ok((leads, started.elapsed().as_millis()))
}
