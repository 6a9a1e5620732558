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
fn leads_committed_together_keep_their_own_outcomes() {
    let pool = open(&temp_db("group"), 4).unwrap();
    // Holding the writer's turn lines every submission up in the queue, so that they make one group.
    let writer = writer();
    let submitters: Vec<_> = (0..6)
        .map(|n| {
            let pool = pool.clone();
            std::thread::spawn(move || {
                // Two submissions share an id (a retry racing its first attempt); one fails after its row.
                let submission = if n == 5 {
                    "s-4".to_string()
                } else {
                    format!("s-{n}")
                };
                let also: Also = if n == 2 {
                    Box::new(|_, _| Err(rusqlite::Error::InvalidQuery))
                } else {
                    Box::new(|_, _| Ok(()))
                };
                insert_with(&pool, &lead(Some(&submission)), also)
            })
        })
        .collect();
    while pool.group_queue().len() < 6 {
        std::thread::yield_now();
    }
    drop(writer);
    let outcomes: Vec<_> = submitters.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(outcomes[2].is_err(), "{:?}", outcomes[2]);
    let new_id = |n: usize| match outcomes[n] {
        Ok(Stored::New(id)) => id,
        ref other => panic!("{n}: {other:?}"),
    };
    for n in [0, 1, 3] {
        new_id(n);
    }
    // Submissions 4 and 5 share an id and join the queue in whichever order their threads ran:
    // the first one queued is stored, the other finds it, written before it in the same transaction.
    let (first, repeat) = match outcomes[4] {
        Ok(Stored::New(_)) => (4, 5),
        _ => (5, 4),
    };
    assert_eq!(
        outcomes[repeat].as_ref().unwrap(),
        &Stored::Repeat(new_id(first))
    );
    let stored = list(&pool, &LeadFilter::default()).unwrap();
    let mut submissions: Vec<_> = stored
        .iter()
        .map(|l| l.submission_id.clone().unwrap())
        .collect();
    submissions.sort();
    assert_eq!(submissions, ["s-0", "s-1", "s-3", "s-4"]);
    assert_eq!(pool.group_queue().len(), 0);
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
    let connection = pool.get().unwrap();
    let changed =
        crate::status::change(&connection, id, Status::Won, ChangedBy::Cli, None, &[]).unwrap();
    assert!(matches!(changed, crate::status::Outcome::Changed { .. }));
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

#[test]
fn a_replicated_database_is_never_checkpointed_by_its_own_connections() {
    let autocheckpoint = |pool: &DbPool| -> i64 {
        pool.get()
            .unwrap()
            .query_row("PRAGMA wal_autocheckpoint", [], |row| row.get(0))
            .unwrap()
    };
    let plain = open(&temp_db("checkpoints-plain"), 2).unwrap();
    assert_eq!(autocheckpoint(&plain), 1000, "SQLite's default");
    let replicated = open_with(&temp_db("checkpoints-replicated"), 2, Checkpoints::Never).unwrap();
    // Every connection of the pool, not only the first.
    let held: Vec<_> = (0..2).map(|_| replicated.get().unwrap()).collect();
    for connection in &held {
        let pages: i64 = connection
            .query_row("PRAGMA wal_autocheckpoint", [], |row| row.get(0))
            .unwrap();
        assert_eq!(pages, 0);
    }
    drop(held);
    assert_eq!(autocheckpoint(&replicated), 0);
}
