//! The store on real SQLite files: migrations, inserts and repeats, filters, file checks and modes.

use std::os::unix::fs::PermissionsExt;

use super::migrations::MIGRATIONS;
use super::pool::sibling;
use super::*;

fn temp_db(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("truckins-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("leads.db")
}

fn lead(submission: Option<&str>) -> Lead {
    Lead {
        source: Source::Quote,
        status: Status::New,
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
        find_submission(&pool, Source::Quote, "before-the-swap").map(drop),
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
    assert!(set_status(&pool, id, Status::Won).unwrap());
    assert!(!set_status(&pool, 9999, Status::Won).unwrap());
    let won = list(
        &pool,
        &LeadFilter {
            status: Some(Status::Won),
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
