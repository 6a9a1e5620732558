//! `/healthz` says 503 when a lead cannot be stored, whatever stops the commit (issue 36), through the real binary
//! and a real file system:
//!
//! - the disk fills under the running server (the database on a 4 MiB tmpfs, filled to the last block): every lead
//!   answers 503, so does `/healthz` ("the disk is full"), and `truckins healthcheck` fails; space freed, both
//!   work again;
//! - the database file and its WAL made immutable (`chattr +i`) under the running server: the same, with "the disk
//!   reported an input/output error".
//!
//! - a flood of `/healthz` commits one probe at most per 2 s, however fast the checks come (each probe is a synced
//!   write that competes with the leads' commits and that Litestream replicates).
//!
//! `/healthz` gives the last probe's answer for 2 s (src/ops), so each change is awaited: `/healthz` is asked until
//! it answers the new status ([`healthz_until`]), a bounded number of times, and the rest is checked on that answer.
//!
//! Both need root (a mount, the immutable attribute): a `chmod` does not reproduce either, because the server
//! writes through descriptors it opened while the file was writable, and root may write any file whatever its
//! mode. Without root, or where the kernel refuses the mount or the attribute, the tests say so and check nothing.
//! A database read-only from the start is `faults::a_read_only_database_answers_503_everywhere_and_never_500`.

use std::fs;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread;
use std::time::Duration;

use crate::common::process::{Reply, Server, TempDir, truckins};
use crate::notify::quote;

/// What the probe last wrote (`health_probe.checked_at`, a time to the nanosecond): a new value is a probe committed.
fn last_probe(database: &Path) -> Option<String> {
    let connection = rusqlite::Connection::open(database).unwrap();
    connection
        .query_row(
            "SELECT checked_at FROM health_probe WHERE id = 1",
            [],
            |row| row.get(0),
        )
        .ok()
}

#[test]
fn healthz_commits_one_probe_at_most_per_interval_whatever_the_rate() {
    let database = crate::common::temp_database("health-flood");
    let client = crate::common::client_with(crate::common::figment(&database));
    let started = std::time::Instant::now();
    let mut probes = 0;
    let mut seen = last_probe(&database);
    for _ in 0..40 {
        let reply = client.get("/healthz").dispatch();
        assert_eq!(reply.status().code, 200);
        let now = last_probe(&database);
        if now != seen {
            probes += 1;
            seen = now;
        }
    }
    // Probes are 2 s apart at least: in `elapsed`, at most one more than the whole intervals it holds. Counted
    // against the time the loop really took, so a slow machine passes as well as a fast one.
    let most = started.elapsed().as_secs() / 2 + 1;
    assert!(
        probes >= 1 && probes <= most,
        "{probes} probes, at most {most}"
    );
}

fn running_as_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

fn post_quote(server: &Server, submission: &str) -> Reply {
    server
        .http()
        .post_json(
            "/api/leads/quote",
            &quote("dana@example.com", &format!("health-{submission}")),
        )
        .expect("an answer")
}

/// Times `/healthz` is asked for an awaited status, a pause of 25 ms apart: 30 s at least, far beyond the 2 s for which
/// the server reuses a probe's answer.
const HEALTH_TRIES: u32 = 1_200;

/// The first answer of `/healthz` with `status`; fails the test after [`HEALTH_TRIES`] others. The server reuses a
/// probe's answer for a while (src/ops), so a change of the disk or the file shows in a later answer, not the next.
pub(crate) fn healthz_until(server: &Server, status: u16) -> Reply {
    let mut last = None;
    for _ in 0..HEALTH_TRIES {
        let reply = server.http().get("/healthz", &[]).expect("an answer");
        if reply.status == status {
            return reply;
        }
        last = Some(reply);
        thread::sleep(Duration::from_millis(25));
    }
    let last = last.expect("at least one answer");
    panic!(
        "/healthz answered {} after {HEALTH_TRIES} tries, not {status}: {}",
        last.status,
        last.text()
    );
}

/// `/healthz`'s status and reason once it answers `status`, and whether `truckins healthcheck` passed then.
fn health(server: &Server, dir: &Path, status: u16) -> (u16, String, bool) {
    let reply = healthz_until(server, status);
    let reason = reply.json()["reason"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let check = truckins(dir)
        .args(["healthcheck", "--port", &server.port.to_string()])
        .output()
        .expect("healthcheck runs");
    (reply.status, reason, check.status.success())
}

/// A tmpfs mounted for the test, unmounted when dropped (after the server using it: declare it first).
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: PathBuf, size: &str) -> Option<Tmpfs> {
        fs::create_dir_all(&at).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&at)
            .status()
            .is_ok_and(|status| status.success());
        mounted.then_some(Tmpfs(at))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Fills the file system of `file` to its last byte.
fn fill(file: &Path) {
    let mut out = fs::File::create(file).unwrap();
    let block = vec![0u8; 64 * 1024];
    while out.write_all(&block).is_ok() {}
    // What is left is less than a block: fill it byte by byte.
    while out.write_all(&[0]).is_ok() {}
}

#[test]
fn healthz_fails_when_the_disk_fills_under_the_server() {
    if !running_as_root() {
        eprintln!("skipped: filling a disk needs a tmpfs, which needs root");
        return;
    }
    let dir = TempDir::new("health-full");
    let Some(disk) = Tmpfs::mount(dir.sub("disk"), "4m") else {
        eprintln!("skipped: this machine refuses to mount a tmpfs");
        return;
    };
    let database = disk.0.join("leads.db");
    let server = Server::start(
        dir.path(),
        "health-full",
        &[
            "--database",
            database.to_str().unwrap(),
            "--ip-limit",
            "1000",
        ],
    );
    assert_eq!(post_quote(&server, "before-full").status, 201);
    assert_eq!(health(&server, dir.path(), 200), (200, String::new(), true));

    let filler = disk.0.join("filler");
    fill(&filler);
    let refused = post_quote(&server, "while-full");
    assert_eq!(refused.status, 503, "{}", refused.text());
    let (status, reason, passed) = health(&server, dir.path(), 503);
    assert_eq!(status, 503, "{reason}");
    assert_eq!(reason, "the disk is full");
    assert!(!passed, "truckins healthcheck passed on a full disk");

    fs::remove_file(&filler).unwrap();
    assert_eq!(health(&server, dir.path(), 200), (200, String::new(), true));
    assert_eq!(post_quote(&server, "after-full").status, 201);
    drop(server);
}

/// The immutable attribute on `files`, taken off again when dropped (else the test's folder could not be removed).
struct Immutable(Vec<PathBuf>);

impl Immutable {
    fn set(files: Vec<PathBuf>) -> Option<Immutable> {
        let set = Command::new("chattr")
            .arg("+i")
            .args(&files)
            .status()
            .is_ok_and(|status| status.success());
        let guard = Immutable(files);
        set.then_some(guard)
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").args(&self.0).status();
    }
}

/// Whether the file system of `dir` refuses writes to an immutable file through a descriptor opened before the
/// attribute was set, as the server's are (ext4 does, tmpfs does not).
fn immutable_stops_open_writers(dir: &Path) -> bool {
    let scratch = dir.join("immutable-scratch");
    let mut out = fs::File::create(&scratch).unwrap();
    let Some(guard) = Immutable::set(vec![scratch.clone()]) else {
        return false;
    };
    let refused = out.write_all(b"x").and_then(|()| out.sync_all()).is_err();
    drop(guard);
    refused
}

#[test]
fn healthz_fails_when_the_database_turns_immutable_under_the_server() {
    if !running_as_root() {
        eprintln!("skipped: the immutable attribute needs root");
        return;
    }
    let dir = TempDir::new("health-immutable");
    let database = dir.path().join("leads.db");
    let server = Server::start(
        dir.path(),
        "health-immutable",
        &[
            "--database",
            database.to_str().unwrap(),
            "--ip-limit",
            "1000",
        ],
    );
    assert_eq!(post_quote(&server, "before").status, 201);
    assert_eq!(health(&server, dir.path(), 200), (200, String::new(), true));

    if !immutable_stops_open_writers(dir.path()) {
        eprintln!(
            "skipped: here an immutable file is still written through a descriptor opened before"
        );
        return;
    }
    let wal = PathBuf::from(format!("{}-wal", database.display()));
    let Some(immutable) = Immutable::set(vec![database.clone(), wal]) else {
        eprintln!("skipped: this file system refuses the immutable attribute");
        return;
    };
    let refused = post_quote(&server, "while-immutable");
    assert_eq!(refused.status, 503, "{}", refused.text());
    let (status, reason, passed) = health(&server, dir.path(), 503);
    assert_eq!(status, 503, "{reason}");
    assert!(reason.contains("input/output error"), "{reason}");
    assert!(
        !passed,
        "truckins healthcheck passed on an immutable database"
    );

    drop(immutable);
    assert_eq!(health(&server, dir.path(), 200), (200, String::new(), true));
    assert_eq!(post_quote(&server, "after").status, 201);
    drop(server);
}
