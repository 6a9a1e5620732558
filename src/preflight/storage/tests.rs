//! The file checks against scratch folders: free space, backups, the census, the links' key, the database folder.

use super::*;
use crate::preflight::Status;
use std::time::Duration;

const GIB: u64 = 1 << 30;

#[test]
fn free_space_fails_under_a_gibibyte() {
    let place = Path::new("/var/lib/truckins");
    assert_eq!(judge_space(place, 20 * GIB, 100 * GIB).status, Status::Ok);
    assert_eq!(judge_space(place, 2 * GIB, 100 * GIB).status, Status::Ok);
    assert_eq!(judge_space(place, GIB / 2, 4 * GIB).status, Status::Fail);
    let line = judge_space(place, 3 * GIB, 10 * GIB);
    assert_eq!(line.status, Status::Ok);
    assert!(
        line.detail.starts_with("3.0 GiB free of 10.0 GiB (30 %)"),
        "{}",
        line.detail
    );
}

fn scratch(label: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("truckins-preflight-{}-{label}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_newest_backup_counts_and_other_files_do_not() {
    let dir = scratch("backups");
    let now = SystemTime::now();
    let made = |name: &str, hours: u64| {
        let path = dir.join(name);
        fs::write(&path, b"SQLite").unwrap();
        fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(now - Duration::from_secs(hours * 3600))
            .unwrap();
    };
    let none = backups(&dir, now);
    assert_eq!(none.status, Status::Fail, "none yet");
    // Besides the timer, the line says how to make one now and where the folder is chosen.
    for words in [
        "systemctl enable --now truckins-backup.timer",
        "systemctl start truckins-backup.service",
        &format!("truckins backup {}", dir.join("leads-now.db").display()),
        "check --backups DIR",
    ] {
        assert!(none.detail.contains(words), "{words}: {}", none.detail);
    }
    made("leads-old.db", 24 * 5);
    made("notes.txt", 1);
    let stale = backups(&dir, now);
    assert_eq!(stale.status, Status::Fail);
    assert!(
        stale.detail.contains("leads-old.db, is 5 days 0 h old"),
        "{}",
        stale.detail
    );
    made("leads-new.db", 47);
    let fresh = backups(&dir, now);
    assert_eq!(fresh.status, Status::Ok, "{}", fresh.detail);
    assert!(
        fresh
            .detail
            .contains("leads-new.db, is 47 h 0 min old (2 in all"),
        "{}",
        fresh.detail
    );
    assert!(fresh.detail.contains("--backups DIR"), "{}", fresh.detail);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_census_is_fresh_for_sixty_days_and_none_is_not_a_failure() {
    let dir = scratch("census");
    let path = dir.join("carriers.db");
    assert_eq!(
        census(&path, OffsetDateTime::now_utc()).status,
        Status::Skip
    );
    let connection = rusqlite::Connection::open(&path).unwrap();
    connection
        .execute_batch(
            "CREATE TABLE census (imported_at TEXT NOT NULL, source TEXT NOT NULL, carriers INTEGER NOT NULL, \
             malformed INTEGER NOT NULL); \
             INSERT INTO census VALUES ('2026-01-10T08:00:00Z', 'census.csv', 2000000, 0);",
        )
        .unwrap();
    drop(connection);
    let at = |text: &str| OffsetDateTime::parse(text, &Rfc3339).unwrap();
    let fresh = census(&path, at("2026-03-01T08:00:00Z"));
    assert_eq!(fresh.status, Status::Ok, "{}", fresh.detail);
    assert!(
        fresh.detail.contains("imported 2026-01-10 (50 days ago)"),
        "{}",
        fresh.detail
    );
    let stale = census(&path, at("2026-03-20T08:00:00Z"));
    assert_eq!(stale.status, Status::Fail);
    assert!(stale.detail.contains("stale"), "{}", stale.detail);
    // The leads database, say: not a census.
    fs::write(
        &path,
        b"not SQLite at all, and long enough to be read as a header ......",
    )
    .unwrap();
    assert_eq!(
        census(&path, at("2026-03-01T08:00:00Z")).status,
        Status::Fail
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_key_is_looked_for_in_the_database() {
    let dir = scratch("key");
    let database = dir.join("leads.db");
    assert_eq!(link_key(&database).status, Status::Skip);
    let pool = crate::store::open(&database, 1).unwrap();
    let connection = pool.get().unwrap();
    assert_eq!(link_key(&database).status, Status::Skip);
    crate::links::key::load_or_create(&connection, &database).unwrap();
    assert_eq!(link_key(&database).status, Status::Ok);
    connection
        .execute("UPDATE installation_keys SET value = 'short'", [])
        .unwrap();
    assert_eq!(link_key(&database).status, Status::Fail);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_that_is_a_file_takes_no_database() {
    let dir = scratch("folder");
    let not_a_folder = dir.join("plain-file");
    fs::write(&not_a_folder, b"").unwrap();
    let database = not_a_folder.join("leads.db");
    let check = super::database(&database, &database_folder(&database));
    assert_eq!(check.status, Status::Fail);
    assert!(
        check.detail.contains("cannot take a new file"),
        "{}",
        check.detail
    );
    let good = dir.join("leads.db");
    assert_eq!(
        super::database(&good, &database_folder(&good)).status,
        Status::Ok
    );
    assert!(
        fs::read_dir(&dir).unwrap().count() == 1,
        "the probe is removed"
    );
    fs::remove_dir_all(&dir).unwrap();
}
