//! Operating the real `truckins` binary as the agency runs it: child processes on free loopback ports, temporary
//! databases, and a hand-written HTTP/1.1 client on `std::net::TcpStream` (keep-alive, no client crates).
//!
//! What these tests prove:
//! - SIGTERM in the middle of a flood of quote submissions (8 keep-alive connections) loses no acknowledged lead:
//!   the process exits by itself, successfully, within 20 s; the SQLite file passes `PRAGMA integrity_check`; and
//!   every submission answered 201 `{"id":N}` is stored exactly once, under the id the server gave.
//! - `truckins backup FILE` while leads keep arriving makes a copy that passes its integrity check and holds every
//!   lead acknowledged before the backup began; a backup onto an existing file is refused with one line and a
//!   non-zero exit, leaving that file alone.
//! - `GET /healthz` answers 200 `{"status":"ok","database":"ok"}`; `truckins healthcheck --port P` exits 0 against
//!   a running server and non-zero, with one line, where nothing listens.
//! - Configuration layers: `Rocket.toml` beats the defaults, `TRUCKINS_PORT` beats the file, `--port` beats both,
//!   `ROCKET_CONFIG` names another file; the effective configuration is printed at start. A misspelt key, a bad
//!   value and an unknown `TRUCKINS_*` variable each stop the start within seconds, with exactly one line on
//!   stderr naming the key and no panic; so does a bad `--log-format` value (its one-line form is checked apart).
//! - The request log: one text line per request (`GET / 200 …ms`) or one JSON object per request with method,
//!   path, status and duration_ms, never the query string, a lead's name or its e-mail address; written in
//!   batches, yet a burst of requests followed at once by SIGTERM leaves every line, whole and in order.
//! - `--base-url` rewrites canonical links, the sitemap and robots.txt, also in the gzip-encoded variants.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::Read;
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::process::{
    Http, Reply, START_LIMIT, Server, TempDir, free_port, truckins, wait_exit,
};
use serde_json::{Value, json};

/// How long a command that must fail at start may take.
const FAIL_LIMIT: Duration = Duration::from_secs(10);

// ---------------------------------------------------------------------------------------------------------------
// Child processes run to their end
// ---------------------------------------------------------------------------------------------------------------

/// Polls `ready` until it holds; fails the test after `limit`.
fn wait_for(what: &str, limit: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !ready() {
        assert!(
            Instant::now() < deadline,
            "timed out after {limit:?} waiting for {what}"
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// A child process that is killed (SIGKILL) and reaped when dropped, also when a test fails.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A command that ran to its end.
struct Finished {
    status: ExitStatus,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Finished {
    /// A start or a command refused the way operators need: non-zero exit, exactly one line on stderr naming
    /// `key`, and no panic anywhere.
    fn assert_one_line_error(&self, what: &str, key: &str) {
        assert!(
            !self.status.success(),
            "{what}: must fail, exited {} (stdout {:?}, stderr {:?})",
            self.status,
            self.stdout,
            self.stderr
        );
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "{what}: exactly one line on stderr, got {:?}",
            self.stderr
        );
        assert!(
            lines[0].to_lowercase().contains(&key.to_lowercase()),
            "{what}: the line must name `{key}`: {:?}",
            lines[0]
        );
        self.assert_no_panic(what);
    }

    fn assert_no_panic(&self, what: &str) {
        assert!(
            !self.stderr.contains("panicked") && !self.stdout.contains("panicked"),
            "{what}: panicked: {:?} {:?}",
            self.stdout,
            self.stderr
        );
    }
}

/// Runs `command` to its end, its output in files of `dir`; fails the test if it takes longer than `limit`.
fn run(mut command: Command, dir: &Path, label: &str, limit: Duration) -> Finished {
    let stdout_path = dir.join(format!("{label}.stdout"));
    let stderr_path = dir.join(format!("{label}.stderr"));
    command
        .stdout(File::create(&stdout_path).expect("a stdout file"))
        .stderr(File::create(&stderr_path).expect("a stderr file"));
    let started = Instant::now();
    let mut child = Guard(command.spawn().expect("the binary starts"));
    let status = wait_exit(&mut child.0, limit);
    let elapsed = started.elapsed();
    let stdout = fs::read_to_string(&stdout_path).unwrap_or_default();
    let stderr = fs::read_to_string(&stderr_path).unwrap_or_default();
    let Some(status) = status else {
        panic!("`{label}` did not finish within {limit:?}; stdout {stdout:?}, stderr {stderr:?}");
    };
    Finished {
        status,
        stdout,
        stderr,
        elapsed,
    }
}

/// A valid quote request.
fn quote(submission_id: &str) -> Value {
    json!({
        "name": "Dana Whitfield",
        "email": "dana@example.com",
        "insurance_type": "dump",
        "vehicle_count": 2,
        "consent": true,
        "submission_id": submission_id,
    })
}

/// The id of a 201 answer to a quote.
fn acknowledged_id(reply: &Reply) -> Option<i64> {
    (reply.status == 201)
        .then(|| reply.json()["id"].as_i64())
        .flatten()
        .filter(|id| *id > 0)
}

// ---------------------------------------------------------------------------------------------------------------
// The database, read directly
// ---------------------------------------------------------------------------------------------------------------

fn integrity(connection: &rusqlite::Connection) -> String {
    connection
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .expect("PRAGMA integrity_check runs")
}

/// submission_id -> every id stored under it.
fn stored_submissions(connection: &rusqlite::Connection) -> HashMap<String, Vec<i64>> {
    let mut statement = connection
        .prepare("SELECT submission_id, id FROM leads WHERE submission_id IS NOT NULL")
        .expect("a query of the leads");
    let mut stored: HashMap<String, Vec<i64>> = HashMap::new();
    for row in statement
        .query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })
        .expect("the leads")
    {
        let (submission, id) = row.expect("a lead");
        stored.entry(submission).or_default().push(id);
    }
    stored
}

fn lead_count(connection: &rusqlite::Connection) -> i64 {
    connection
        .query_row("SELECT COUNT(*) FROM leads", [], |row| row.get(0))
        .expect("a count of the leads")
}

// ---------------------------------------------------------------------------------------------------------------
// 1. SIGTERM during a flood
// ---------------------------------------------------------------------------------------------------------------

/// What one flooding connection saw.
#[derive(Default)]
struct Flood {
    acknowledged: Vec<(String, i64)>,
    acknowledged_after_term: usize,
    unanswered: usize,
    other_statuses: Vec<u16>,
    errors_before_term: Vec<String>,
}

/// Posts quotes over keep-alive connections until a connection fails after SIGTERM was sent.
fn flood(port: u16, thread_number: usize, term_sent: &AtomicBool, acked: &AtomicUsize) -> Flood {
    let mut seen = Flood::default();
    let mut connection: Option<Http> = None;
    for n in 0.. {
        if seen.errors_before_term.len() > 20 {
            break;
        }
        let http = match connection.as_mut() {
            Some(http) => http,
            None => match Http::connect(port) {
                Ok(http) => connection.insert(http),
                Err(_) if term_sent.load(Ordering::SeqCst) => break,
                Err(error) => {
                    seen.errors_before_term.push(format!("connect: {error}"));
                    thread::sleep(Duration::from_millis(10));
                    continue;
                }
            },
        };
        let submission = format!("flood-{thread_number:04}-{n:08}");
        match http.post_json("/api/leads/quote", &quote(&submission)) {
            Ok(reply) => {
                match acknowledged_id(&reply) {
                    Some(id) => {
                        seen.acknowledged.push((submission, id));
                        acked.fetch_add(1, Ordering::SeqCst);
                        if term_sent.load(Ordering::SeqCst) {
                            seen.acknowledged_after_term += 1;
                        }
                    }
                    None => seen.other_statuses.push(reply.status),
                }
                if reply.closes() {
                    connection = None;
                }
            }
            Err(error) => {
                seen.unanswered += 1;
                connection = None;
                if term_sent.load(Ordering::SeqCst) {
                    break;
                }
                seen.errors_before_term
                    .push(format!("{submission}: {error}"));
            }
        }
    }
    seen
}

#[test]
fn sigterm_during_a_flood_loses_no_acknowledged_lead() {
    let dir = TempDir::new("sigterm");
    let database = dir.path().join("leads.db");
    let mut server = Server::start(
        dir.path(),
        "flood",
        &[
            "--database",
            database.to_str().unwrap(),
            "--ip-limit",
            "1000000",
        ],
    );
    let port = server.port;
    let term_sent = Arc::new(AtomicBool::new(false));
    let acked = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..8)
        .map(|thread_number| {
            let term_sent = Arc::clone(&term_sent);
            let acked = Arc::clone(&acked);
            thread::spawn(move || flood(port, thread_number, &term_sent, &acked))
        })
        .collect();

    // About a second of flood, with leads really being stored, then SIGTERM.
    let started = Instant::now();
    wait_for("the flood to store leads", START_LIMIT, || {
        started.elapsed() >= Duration::from_secs(1) && acked.load(Ordering::SeqCst) >= 50
    });
    let acked_before_term = acked.load(Ordering::SeqCst);
    term_sent.store(true, Ordering::SeqCst);
    let term_at = Instant::now();
    let status = server.terminate();
    let exit_after = term_at.elapsed();

    let mut seen = Flood::default();
    for thread in threads {
        let flood = thread.join().expect("a flooding thread");
        seen.acknowledged.extend(flood.acknowledged);
        seen.acknowledged_after_term += flood.acknowledged_after_term;
        seen.unanswered += flood.unanswered;
        seen.other_statuses.extend(flood.other_statuses);
        seen.errors_before_term.extend(flood.errors_before_term);
    }
    let stdout = server.stdout_text();
    let stderr = server.stderr_text();
    assert!(
        status.success(),
        "after SIGTERM the server must exit successfully, exited {status}; stdout {stdout:?}, stderr {stderr:?}"
    );
    assert!(
        !stderr.contains("panicked") && !stdout.contains("panicked"),
        "{stderr}"
    );
    assert!(
        seen.errors_before_term.is_empty(),
        "connections failed before SIGTERM: {:?}",
        seen.errors_before_term
    );
    assert!(
        seen.other_statuses.is_empty(),
        "valid quotes answered other than 201: {:?}",
        seen.other_statuses
    );

    let connection = rusqlite::Connection::open(&database).expect("the database opens");
    assert_eq!(integrity(&connection), "ok");
    let stored = stored_submissions(&connection);
    let total = lead_count(&connection);
    for (submission, id) in &seen.acknowledged {
        assert_eq!(
            stored.get(submission),
            Some(&vec![*id]),
            "submission {submission} was acknowledged with id {id}"
        );
    }
    println!(
        "SIGTERM after {acked_before_term} acknowledged leads; exit ({status}) {:.2} s later; \
         {} acknowledged in all ({} after SIGTERM), {} requests unanswered, {} leads stored",
        exit_after.as_secs_f64(),
        seen.acknowledged.len(),
        seen.acknowledged_after_term,
        seen.unanswered,
        total
    );
    assert!(total as usize >= seen.acknowledged.len());
    assert!(
        total as usize <= seen.acknowledged.len() + seen.unanswered,
        "more leads stored than were sent"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Backup under write load
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn backup_under_write_load_restores_every_lead_acknowledged_before_it_began() {
    let dir = TempDir::new("backup");
    let database = dir.path().join("leads.db");
    let server = Server::start(
        dir.path(),
        "backup",
        &[
            "--database",
            database.to_str().unwrap(),
            "--ip-limit",
            "1000000",
        ],
    );
    let acknowledged: Arc<Mutex<Vec<(String, i64)>>> = Arc::default();
    let mut http = server.http();
    for n in 0..200 {
        let submission = format!("before-backup-{n:08}");
        let reply = http
            .post_json("/api/leads/quote", &quote(&submission))
            .expect("an answer");
        let id = acknowledged_id(&reply).unwrap_or_else(|| panic!("not stored: {reply:?}"));
        acknowledged.lock().unwrap().push((submission, id));
    }

    // A writer keeps posting while the backup runs.
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let acknowledged = Arc::clone(&acknowledged);
        let stop = Arc::clone(&stop);
        let port = server.port;
        thread::spawn(move || {
            let mut http = Http::connect(port).expect("a connection");
            let mut problems = Vec::new();
            for n in 0.. {
                if stop.load(Ordering::SeqCst) || problems.len() > 20 {
                    break;
                }
                let submission = format!("during-backup-{n:08}");
                match http.post_json("/api/leads/quote", &quote(&submission)) {
                    Ok(reply) => match acknowledged_id(&reply) {
                        Some(id) => acknowledged.lock().unwrap().push((submission, id)),
                        None => problems.push(format!("{submission}: {}", reply.status)),
                    },
                    Err(error) => {
                        problems.push(format!("{submission}: {error}"));
                        match Http::connect(port) {
                            Ok(again) => http = again,
                            Err(_) => thread::sleep(Duration::from_millis(10)),
                        }
                    }
                }
            }
            problems
        })
    };
    wait_for("the writer to store leads", START_LIMIT, || {
        acknowledged.lock().unwrap().len() >= 220
    });

    let before_backup: Vec<(String, i64)> = acknowledged.lock().unwrap().clone();
    let copy = dir.path().join("copy.db");
    let mut command = truckins(dir.path());
    command
        .arg("backup")
        .arg(&copy)
        .arg("--database")
        .arg(&database);
    let backup = run(command, dir.path(), "backup", START_LIMIT);
    let during_backup = acknowledged.lock().unwrap().len() - before_backup.len();
    stop.store(true, Ordering::SeqCst);
    let problems = writer.join().expect("the writer");
    let written_in_all = acknowledged.lock().unwrap().len();

    assert!(
        backup.status.success(),
        "backup failed ({}): {:?} {:?}",
        backup.status,
        backup.stdout,
        backup.stderr
    );
    backup.assert_no_panic("backup");
    assert!(
        backup.stdout.contains("backed up"),
        "stdout: {:?}",
        backup.stdout
    );
    assert!(problems.is_empty(), "the writer failed: {problems:?}");

    let connection = rusqlite::Connection::open(&copy).expect("the copy opens");
    assert_eq!(integrity(&connection), "ok");
    let stored = stored_submissions(&connection);
    let total = lead_count(&connection);
    for (submission, id) in &before_backup {
        assert_eq!(
            stored.get(submission),
            Some(&vec![*id]),
            "submission {submission} (id {id}) was acknowledged before the backup began"
        );
    }
    let reported: Option<i64> = backup
        .stdout
        .split_whitespace()
        .skip_while(|word| *word != "up")
        .nth(1)
        .and_then(|n| n.parse().ok());
    assert_eq!(
        reported,
        Some(total),
        "the count printed: {:?}",
        backup.stdout
    );
    println!(
        "backup in {} ms: {} leads acknowledged before it began, {total} in the copy, {during_backup} acknowledged \
         while it ran, {written_in_all} acknowledged in all",
        backup.elapsed.as_millis(),
        before_backup.len()
    );

    // A backup never overwrites a file.
    let existing = dir.path().join("existing.db");
    fs::write(&existing, b"keep me").unwrap();
    let mut command = truckins(dir.path());
    command
        .arg("backup")
        .arg(&existing)
        .arg("--database")
        .arg(&database);
    let refused = run(command, dir.path(), "backup-existing", START_LIMIT);
    refused.assert_one_line_error("backup onto an existing file", "exists");
    assert_eq!(fs::read(&existing).unwrap(), b"keep me");
    drop(server);
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Health
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn healthz_and_healthcheck() {
    let dir = TempDir::new("health");
    let database = dir.path().join("leads.db");
    let server = Server::start(
        dir.path(),
        "health",
        &["--database", database.to_str().unwrap()],
    );
    let reply = server.http().get("/healthz", &[]).expect("an answer");
    assert_eq!(reply.status, 200);
    assert!(
        reply
            .header("content-type")
            .is_some_and(|t| t.starts_with("application/json")),
        "{:?}",
        reply.headers
    );
    assert_eq!(reply.json(), json!({ "status": "ok", "database": "ok" }));

    let mut command = truckins(dir.path());
    command.args(["healthcheck", "--port", &server.port.to_string()]);
    let healthy = run(command, dir.path(), "healthcheck", FAIL_LIMIT);
    assert!(
        healthy.status.success(),
        "healthcheck against a running server: {} {:?} {:?}",
        healthy.status,
        healthy.stdout,
        healthy.stderr
    );

    let nobody = free_port();
    let mut command = truckins(dir.path());
    command.args(["healthcheck", "--port", &nobody.to_string()]);
    let unhealthy = run(command, dir.path(), "healthcheck-nobody", FAIL_LIMIT);
    unhealthy.assert_one_line_error("healthcheck where nothing listens", &nobody.to_string());
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Configuration
// ---------------------------------------------------------------------------------------------------------------

/// Whether something accepts connections on `port`.
fn listens(port: u16) -> bool {
    TcpStream::connect_timeout(
        &SocketAddr::from(([127, 0, 0, 1], port)),
        Duration::from_secs(2),
    )
    .is_ok()
}

/// A configuration mistake that must stop the start: a `Rocket.toml` and/or a variable, and the key named.
struct Mistake {
    what: &'static str,
    toml: Option<&'static str>,
    variable: Option<(&'static str, &'static str)>,
    key: &'static str,
}

#[test]
fn configuration_layers_and_errors() {
    let dir = TempDir::new("config");
    let layered = dir.sub("layered");
    let [p1, p2, p3, p4] = [free_port(), free_port(), free_port(), free_port()];
    fs::write(
        layered.join("Rocket.toml"),
        format!("[default]\nport = {p1}\nip_limit = 1\n"),
    )
    .unwrap();

    // The file beats the defaults: port and ip_limit from Rocket.toml, the database by default in the working
    // directory.
    let mut command = truckins(&layered);
    command.arg("serve");
    let server = Server::spawn(command, p1, &layered, "file").unwrap_or_else(|e| panic!("{e}"));
    let printed = server.stdout_text();
    assert!(printed.contains(&format!("\nport = {p1}\n")), "{printed}");
    assert!(printed.contains("\ndatabase = truckins.db\n"), "{printed}");
    assert!(
        printed.contains("\nip_limit = 1 per 10 minutes\n"),
        "{printed}"
    );
    let mut http = server.http();
    let first = http
        .post_json("/api/leads/quote", &quote("ip-limit-check-0001"))
        .unwrap();
    assert_eq!(first.status, 201, "{}", first.text());
    let second = http
        .post_json("/api/leads/quote", &quote("ip-limit-check-0002"))
        .unwrap();
    assert_eq!(
        second.status,
        429,
        "ip_limit = 1 from the file: {}",
        second.text()
    );
    assert!(layered.join("truckins.db").exists());
    drop(http);
    drop(server);

    // The environment beats the file.
    let mut command = truckins(&layered);
    command.arg("serve").env("TRUCKINS_PORT", p2.to_string());
    let server = Server::spawn(command, p2, &layered, "env").unwrap_or_else(|e| panic!("{e}"));
    let printed = server.stdout_text();
    assert!(printed.contains(&format!("\nport = {p2}\n")), "{printed}");
    assert!(
        printed.contains("\nip_limit = 1 per 10 minutes\n"),
        "the file still applies beneath: {printed}"
    );
    assert!(!listens(p1), "the file's port {p1} must not be used");
    drop(server);

    // A flag beats both.
    let mut command = truckins(&layered);
    command
        .args(["serve", "--port", &p3.to_string()])
        .env("TRUCKINS_PORT", p2.to_string());
    let server = Server::spawn(command, p3, &layered, "flag").unwrap_or_else(|e| panic!("{e}"));
    let printed = server.stdout_text();
    assert!(printed.contains(&format!("\nport = {p3}\n")), "{printed}");
    assert!(!listens(p2), "the environment's port {p2} must not be used");
    assert!(!listens(p1), "the file's port {p1} must not be used");
    drop(server);

    // ROCKET_CONFIG names another file, which replaces Rocket.toml.
    let elsewhere = dir.sub("elsewhere").join("truckins.toml");
    fs::write(
        &elsewhere,
        format!("[default]\nport = {p4}\ndatabase = \"other.db\"\n"),
    )
    .unwrap();
    let mut command = truckins(&layered);
    command.arg("serve").env("ROCKET_CONFIG", &elsewhere);
    let server =
        Server::spawn(command, p4, &layered, "rocket-config").unwrap_or_else(|e| panic!("{e}"));
    let printed = server.stdout_text();
    assert!(printed.contains(&format!("\nport = {p4}\n")), "{printed}");
    assert!(printed.contains("\ndatabase = other.db\n"), "{printed}");
    assert!(
        printed.contains("\nip_limit = 20 per 10 minutes\n"),
        "Rocket.toml is not read when ROCKET_CONFIG names another file: {printed}"
    );
    drop(server);

    // Mistakes stop the start with one line naming the key.
    let cases = [
        Mistake {
            what: "a misspelt key in Rocket.toml",
            toml: Some("[default]\ndatbase = \"x\"\n"),
            variable: None,
            key: "datbase",
        },
        Mistake {
            what: "a bad value in Rocket.toml",
            toml: Some("[default]\nport = \"abc\"\n"),
            variable: None,
            key: "port",
        },
        Mistake {
            what: "a misspelt profile table in Rocket.toml",
            toml: Some("[defualt]\nport = 8001\n"),
            variable: None,
            key: "defualt",
        },
        Mistake {
            what: "a misspelt key in Rocket.toml's [shutdown] table",
            toml: Some("[default.shutdown]\ngrase = 3\n"),
            variable: None,
            key: "shutdown.grase",
        },
        Mistake {
            what: "ROCKET_CONFIG naming a file that is not there",
            toml: None,
            variable: Some(("ROCKET_CONFIG", "/nonexistent/truckins/Rocket.toml")),
            key: "/nonexistent/truckins/Rocket.toml",
        },
        Mistake {
            what: "an unknown TRUCKINS_ variable",
            toml: None,
            variable: Some(("TRUCKINS_IP_LIMT", "3")),
            key: "ip_limt",
        },
    ];
    for (number, mistake) in cases.into_iter().enumerate() {
        let Mistake {
            what,
            toml,
            variable,
            key,
        } = mistake;
        let case = dir.sub(&format!("mistake-{number}"));
        if let Some(toml) = toml {
            fs::write(case.join("Rocket.toml"), toml).unwrap();
        }
        // No `--port`: it would override the file's bad `port`.
        let mut command = truckins(&case);
        command.arg("serve");
        if let Some((name, value)) = variable {
            command.env(name, value);
        }
        let refused = run(command, &case, "serve", FAIL_LIMIT);
        refused.assert_one_line_error(what, key);
        assert!(
            !refused.stdout.contains("starting with"),
            "{what}: {:?}",
            refused.stdout
        );
        println!(
            "{what}: exit {} after {} ms: {}",
            refused.status,
            refused.elapsed.as_millis(),
            refused.stderr.trim()
        );
    }

    // A bad flag value stops the start too (the one-line form is checked by
    // `a_bad_flag_value_stops_the_start_with_one_line`).
    let refused = bad_log_format_flag(&dir);
    assert!(!refused.status.success(), "{}", refused.status);
    refused.assert_no_panic("--log-format xml");
    let first = refused.stderr.lines().next().unwrap_or_default();
    assert!(
        first.contains("--log-format") && first.contains("xml"),
        "{:?}",
        refused.stderr
    );
}

/// `serve --log-format xml`, run to its end.
fn bad_log_format_flag(dir: &TempDir) -> Finished {
    let case = dir.sub("bad-flag");
    let mut command = truckins(&case);
    command.args([
        "serve",
        "--log-format",
        "xml",
        "--port",
        &free_port().to_string(),
    ]);
    run(command, &case, "serve", FAIL_LIMIT)
}

#[test]
fn a_bad_flag_value_stops_the_start_with_one_line() {
    let dir = TempDir::new("bad-flag");
    bad_log_format_flag(&dir).assert_one_line_error("--log-format xml", "--log-format");
}

// ---------------------------------------------------------------------------------------------------------------
// 5. The request log
// ---------------------------------------------------------------------------------------------------------------

const SECRET_NAME: &str = "Zebulon Quillfeather";
const SECRET_EMAIL: &str = "zq.private-4711@example.org";
const SECRET_QUERY: &str = "secret-query-9d3f";

/// Requests every log must record: (method, path as logged, status).
const LOGGED: [(&str, &str, u16); 5] = [
    ("GET", "/", 200),
    ("GET", "/healthz", 200),
    ("GET", "/no-such-page", 404),
    ("POST", "/api/leads/quote", 201),
    ("POST", "/api/leads/quote", 422),
];

/// Makes the requests of [`LOGGED`] (one with a query string, leads with a name and e-mail that must not be
/// logged), waits until the last one is logged, stops the server and returns its stdout and stderr.
fn logged_requests(mut server: Server, label: &str) -> (String, String) {
    let mut http = server.http();
    assert_eq!(http.get("/", &[]).unwrap().status, 200);
    assert_eq!(
        http.get(&format!("/?email={SECRET_QUERY}"), &[])
            .unwrap()
            .status,
        200
    );
    assert_eq!(http.get("/healthz", &[]).unwrap().status, 200);
    assert_eq!(http.get("/no-such-page", &[]).unwrap().status, 404);
    let mut lead = quote(&format!("request-log-{label}-ok"));
    lead["name"] = json!(SECRET_NAME);
    lead["email"] = json!(SECRET_EMAIL);
    let stored = http.post_json("/api/leads/quote", &lead).unwrap();
    assert_eq!(stored.status, 201, "{}", stored.text());
    lead["vehicle_count"] = json!(0);
    lead["submission_id"] = json!(format!("request-log-{label}-invalid"));
    let invalid = http.post_json("/api/leads/quote", &lead).unwrap();
    assert_eq!(invalid.status, 422, "{}", invalid.text());
    drop(http);
    wait_for("the request log to show the 422", START_LIMIT, || {
        let stdout = server.stdout_text();
        stdout.contains(" 422 ") || stdout.contains("\"status\":422")
    });
    let status = server.terminate();
    assert!(status.success(), "{status}");
    (server.stdout_text(), server.stderr_text())
}

fn assert_no_lead_content(stdout: &str, stderr: &str) {
    for secret in [
        SECRET_NAME,
        "Zebulon",
        "Quillfeather",
        SECRET_EMAIL,
        "zq.private",
        SECRET_QUERY,
    ] {
        assert!(!stdout.contains(secret), "{secret:?} on stdout:\n{stdout}");
        assert!(!stderr.contains(secret), "{secret:?} on stderr:\n{stderr}");
    }
}

#[test]
fn request_log_lines() {
    let dir = TempDir::new("log");

    // Text: `<time> <method> <path> <status> <duration>ms`.
    let database = dir.path().join("text.db");
    let server = Server::start(
        dir.path(),
        "text",
        &["--database", database.to_str().unwrap()],
    );
    let (stdout, stderr) = logged_requests(server, "text");
    let request_lines: Vec<Vec<&str>> = stdout
        .lines()
        .map(|line| line.split(' ').collect::<Vec<_>>())
        .filter(|fields| {
            fields.len() == 5 && ["GET", "POST"].contains(&fields[1]) && fields[4].ends_with("ms")
        })
        .collect();
    for (method, path, status) in LOGGED {
        assert!(
            request_lines
                .iter()
                .any(|f| f[1] == method && f[2] == path && f[3] == status.to_string()),
            "no text line for {method} {path} {status}:\n{stdout}"
        );
    }
    assert!(
        stdout.lines().any(|line| line.contains("GET / 200 ")),
        "{stdout}"
    );
    for fields in &request_lines {
        assert!(
            fields[4].trim_end_matches("ms").parse::<f64>().is_ok(),
            "a duration: {fields:?}"
        );
    }
    assert_no_lead_content(&stdout, &stderr);

    // JSON: one object per request.
    let database = dir.path().join("json.db");
    let server = Server::start(
        dir.path(),
        "json",
        &[
            "--database",
            database.to_str().unwrap(),
            "--log-format",
            "json",
        ],
    );
    let (stdout, stderr) = logged_requests(server, "json");
    assert!(stdout.contains("\nlog_format = json\n"), "{stdout}");
    let objects: Vec<Value> = stdout
        .lines()
        .filter(|line| line.starts_with('{'))
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"))
        })
        .collect();
    // Every request made is there, the readiness probes included.
    assert!(objects.len() >= LOGGED.len() + 2, "{stdout}");
    for object in &objects {
        assert!(object["method"].is_string(), "{object}");
        assert!(object["path"].is_string(), "{object}");
        assert!(object["status"].is_u64(), "{object}");
        assert!(
            object["duration_ms"].as_f64().is_some_and(|ms| ms >= 0.0),
            "{object}"
        );
    }
    for (method, path, status) in LOGGED {
        assert!(
            objects
                .iter()
                .any(|o| o["method"] == method && o["path"] == path && o["status"] == status),
            "no JSON line for {method} {path} {status}:\n{stdout}"
        );
    }
    assert!(
        !stdout.lines().any(|line| line.contains(" GET / 200 ")),
        "text request lines in the JSON log:\n{stdout}"
    );
    assert_no_lead_content(&stdout, &stderr);
}

/// The log is written in batches, not line by line: a burst of requests followed at once by SIGTERM must still
/// leave one line for every request, each whole, by the time the process has exited.
#[test]
fn request_log_keeps_every_line_of_a_burst_through_shutdown() {
    const CONNECTIONS: usize = 4;
    const REQUESTS: usize = 1_500;
    let dir = TempDir::new("log-burst");
    let database = dir.path().join("burst.db");
    let mut server = Server::start(
        dir.path(),
        "burst",
        &["--database", database.to_str().unwrap()],
    );
    let port = server.port;
    let clients: Vec<_> = (0..CONNECTIONS)
        .map(|client| {
            thread::spawn(move || {
                let mut http = Http::connect(port).expect("a connection");
                for n in 0..REQUESTS {
                    let path = format!("/burst-{client}-{n}");
                    assert_eq!(http.get(&path, &[]).unwrap().status, 404, "{path}");
                }
            })
        })
        .collect();
    for client in clients {
        client.join().expect("a client");
    }
    // No waiting for the log to catch up: the lines still in memory must be written on the way out.
    let status = server.terminate();
    assert!(status.success(), "{status}");
    let stdout = server.stdout_text();
    for client in 0..CONNECTIONS {
        let logged: Vec<usize> = stdout
            .lines()
            .filter_map(|line| {
                let fields: Vec<&str> = line.split(' ').collect();
                let n = fields
                    .get(2)?
                    .strip_prefix(&format!("/burst-{client}-"))?
                    .parse()
                    .ok()?;
                (fields.len() == 5 && fields[1] == "GET" && fields[3] == "404").then_some(n)
            })
            .collect();
        assert_eq!(
            logged,
            (0..REQUESTS).collect::<Vec<_>>(),
            "connection {client}: every request logged once, in order"
        );
    }
}

// ---------------------------------------------------------------------------------------------------------------
// 6. --base-url
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn base_url_rewrites_canonical_links() {
    const BASE: &str = "https://trucks.example.org";
    const BUILT_IN: &str = "https://www.example.com";
    let dir = TempDir::new("base-url");
    let database = dir.path().join("leads.db");
    let server = Server::start(
        dir.path(),
        "base-url",
        &["--database", database.to_str().unwrap(), "--base-url", BASE],
    );
    assert!(
        server
            .stdout_text()
            .contains(&format!("\nbase_url = {BASE}\n")),
        "{}",
        server.stdout_text()
    );
    let mut http = server.http();

    let home = http.get("/", &[]).unwrap();
    assert_eq!(home.status, 200);
    assert_eq!(home.header("content-encoding"), None);
    let page = home.text();
    assert!(
        page.contains(&format!("<link rel=\"canonical\" href=\"{BASE}/\"")),
        "no canonical link to {BASE}/ in {}",
        &page[..page.len().min(2000)]
    );
    assert!(!page.contains(BUILT_IN), "the built-in address remains");

    let sitemap = http.get("/sitemap.xml", &[]).unwrap();
    assert_eq!(sitemap.status, 200);
    let sitemap = sitemap.text();
    assert!(
        sitemap.contains(&format!("<loc>{BASE}/</loc>")),
        "{sitemap}"
    );
    assert!(
        sitemap.contains(&format!("<loc>{BASE}/get-quote</loc>")),
        "{sitemap}"
    );
    assert!(!sitemap.contains(BUILT_IN), "{sitemap}");

    let robots = http.get("/robots.txt", &[]).unwrap();
    assert_eq!(robots.status, 200);
    let robots = robots.text();
    assert!(
        robots.contains(&format!("Sitemap: {BASE}/sitemap.xml")),
        "{robots}"
    );
    assert!(!robots.contains(BUILT_IN), "{robots}");

    for path in ["/", "/sitemap.xml"] {
        let zipped = http.get(path, &[("Accept-Encoding", "gzip")]).unwrap();
        assert_eq!(zipped.status, 200, "{path}");
        assert_eq!(zipped.header("content-encoding"), Some("gzip"), "{path}");
        assert!(
            zipped.body.starts_with(&[0x1f, 0x8b]),
            "{path}: not gzip: {:?}",
            &zipped.body[..zipped.body.len().min(16)]
        );
        let mut unzipped = String::new();
        flate2::read::GzDecoder::new(zipped.body.as_slice())
            .read_to_string(&mut unzipped)
            .expect("valid gzip");
        assert!(unzipped.contains(BASE), "{path}");
        assert!(!unzipped.contains(BUILT_IN), "{path}");
        if path == "/" {
            assert_eq!(unzipped, page, "the gzip variant is the same page");
        }
    }
    drop(http);
    drop(server);

    // An address with a trailing slash is refused at start.
    let mut command = truckins(dir.path());
    command.args([
        "serve",
        "--base-url",
        "https://trucks.example.org/",
        "--port",
        &free_port().to_string(),
    ]);
    let refused = run(command, dir.path(), "bad-base-url", FAIL_LIMIT);
    refused.assert_one_line_error("a base URL with a trailing slash", "base_url");
}
