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
//!   path, status and duration_ms, never the query string, a lead's name or its e-mail address.
//! - `--base-url` rewrites canonical links, the sitemap and robots.txt, also in the gzip-encoded variants.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_truckins");

/// How long a server may take to answer its first request after being spawned.
const START_LIMIT: Duration = Duration::from_secs(60);
/// How long a stopped server may take to exit by itself (Rocket's grace 10 s + mercy 5 s, with room).
const EXIT_LIMIT: Duration = Duration::from_secs(20);
/// How long a command that must fail at start may take.
const FAIL_LIMIT: Duration = Duration::from_secs(10);

// ---------------------------------------------------------------------------------------------------------------
// Temporary directories, ports and child processes
// ---------------------------------------------------------------------------------------------------------------

/// A fresh temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "truckins-operations-{}-{}-{label}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("a temporary directory");
        TempDir(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// A subdirectory, created.
    fn sub(&self, name: &str) -> PathBuf {
        let path = self.0.join(name);
        fs::create_dir_all(&path).expect("a subdirectory");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A loopback port nobody listens on right now (the probe listener is closed before it is returned).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}

/// The binary run in `dir` (so only a `Rocket.toml` put there is seen), without any `ROCKET_*` or `TRUCKINS_*`
/// variable of the environment the tests run in.
fn truckins(dir: &Path) -> Command {
    let mut command = Command::new(BIN);
    command.current_dir(dir).stdin(Stdio::null());
    for (name, _) in std::env::vars_os() {
        let text = name.to_string_lossy();
        if text.starts_with("ROCKET_") || text.starts_with("TRUCKINS_") {
            command.env_remove(&name);
        }
    }
    command
}

/// Polls `child` until it exits or `limit` passes.
fn wait_exit(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

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

fn send_sigterm(pid: u32) {
    let status = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("`kill` runs");
    assert!(status.success(), "kill -TERM {pid} failed: {status}");
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

/// A running `truckins serve`; killed and reaped when dropped.
struct Server {
    child: Child,
    port: u16,
    stdout: PathBuf,
    stderr: PathBuf,
}

impl Server {
    /// `truckins serve ARGS --address 127.0.0.1 --port <free>` in `dir`, answering requests.
    fn start(dir: &Path, label: &str, args: &[&str]) -> Server {
        let mut last = String::new();
        // A port found free can be taken by another process before the server binds it: then take another.
        for attempt in 1..=3 {
            let port = free_port();
            let mut command = truckins(dir);
            command.arg("serve").args(args).args([
                "--address",
                "127.0.0.1",
                "--port",
                &port.to_string(),
            ]);
            match Server::spawn(command, port, dir, &format!("{label}-{attempt}")) {
                Ok(server) => return server,
                Err(why) if why.contains("in use") => last = why,
                Err(why) => panic!("{why}"),
            }
        }
        panic!("no free port found for the server: {last}");
    }

    /// Spawns `command` (a `serve`) and waits until `GET /healthz` on `port` answers 200.
    fn spawn(mut command: Command, port: u16, dir: &Path, label: &str) -> Result<Server, String> {
        let stdout = dir.join(format!("{label}.stdout"));
        let stderr = dir.join(format!("{label}.stderr"));
        command
            .stdout(File::create(&stdout).expect("a stdout file"))
            .stderr(File::create(&stderr).expect("a stderr file"));
        let mut server = Server {
            child: command.spawn().expect("the binary starts"),
            port,
            stdout,
            stderr,
        };
        let deadline = Instant::now() + START_LIMIT;
        loop {
            if let Some(status) = server.child.try_wait().expect("the child's status") {
                return Err(format!(
                    "the server exited ({status}) before answering on port {port}; stdout {:?}, stderr {:?}",
                    server.stdout_text(),
                    server.stderr_text()
                ));
            }
            if let Ok(mut http) = Http::connect(port)
                && http
                    .get("/healthz", &[])
                    .is_ok_and(|reply| reply.status == 200)
            {
                return Ok(server);
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "the server did not answer on port {port} within {START_LIMIT:?}; stdout {:?}, stderr {:?}",
                    server.stdout_text(),
                    server.stderr_text()
                ));
            }
            thread::sleep(Duration::from_millis(25));
        }
    }

    fn stdout_text(&self) -> String {
        fs::read_to_string(&self.stdout).unwrap_or_default()
    }

    fn stderr_text(&self) -> String {
        fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    fn http(&self) -> Http {
        Http::connect(self.port).expect("a connection to the server")
    }

    /// SIGTERM, then waits for the process to exit by itself.
    fn terminate(&mut self) -> ExitStatus {
        send_sigterm(self.child.id());
        self.wait_exit()
    }

    /// Waits for the process to exit by itself (after a signal); fails the test after [`EXIT_LIMIT`].
    fn wait_exit(&mut self) -> ExitStatus {
        match wait_exit(&mut self.child, EXIT_LIMIT) {
            Some(status) => status,
            None => panic!(
                "the server did not exit within {EXIT_LIMIT:?}; stdout {:?}, stderr {:?}",
                self.stdout_text(),
                self.stderr_text()
            ),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------------------------
// A small HTTP/1.1 client
// ---------------------------------------------------------------------------------------------------------------

/// One keep-alive HTTP/1.1 connection.
struct Http {
    port: u16,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

/// A response: status, headers (names lowercased) and the whole body.
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.text()))
    }

    /// Whether the server closes the connection after this response.
    fn closes(&self) -> bool {
        self.header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"))
    }
}

impl Http {
    fn connect(port: u16) -> io::Result<Http> {
        let address = SocketAddr::from(([127, 0, 0, 1], port));
        let stream = TcpStream::connect_timeout(&address, Duration::from_secs(5))?;
        stream.set_read_timeout(Some(Duration::from_secs(20)))?;
        stream.set_write_timeout(Some(Duration::from_secs(20)))?;
        stream.set_nodelay(true)?;
        Ok(Http {
            port,
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
        })
    }

    fn get(&mut self, path: &str, headers: &[(&str, &str)]) -> io::Result<Reply> {
        self.send("GET", path, headers, None)
    }

    fn post_json(&mut self, path: &str, body: &Value) -> io::Result<Reply> {
        self.send(
            "POST",
            path,
            &[("Content-Type", "application/json")],
            Some(body.to_string().as_bytes()),
        )
    }

    fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> io::Result<Reply> {
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nUser-Agent: truckins-operations-test\r\n",
            self.port
        );
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        if let Some(body) = body {
            request.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        request.push_str("\r\n");
        let mut bytes = request.into_bytes();
        bytes.extend_from_slice(body.unwrap_or_default());
        self.writer.write_all(&bytes)?;
        self.writer.flush()?;
        self.read_reply(method == "HEAD")
    }

    fn read_line(&mut self) -> io::Result<String> {
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the server closed the connection",
            ));
        }
        Ok(line.trim_end_matches(['\r', '\n']).to_string())
    }

    fn read_reply(&mut self, head: bool) -> io::Result<Reply> {
        let bad = |what: String| io::Error::new(io::ErrorKind::InvalidData, what);
        let status_line = self.read_line()?;
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse::<u16>().ok())
            .filter(|_| status_line.starts_with("HTTP/1."))
            .ok_or_else(|| bad(format!("not an HTTP status line: {status_line:?}")))?;
        let mut headers = Vec::new();
        loop {
            let line = self.read_line()?;
            if line.is_empty() {
                break;
            }
            let (name, value) = line
                .split_once(':')
                .ok_or_else(|| bad(format!("not a header: {line:?}")))?;
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
        let mut reply = Reply {
            status,
            headers,
            body: Vec::new(),
        };
        if head || status < 200 || status == 204 || status == 304 {
            return Ok(reply);
        }
        let chunked = reply
            .header("transfer-encoding")
            .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
        if chunked {
            loop {
                let size_line = self.read_line()?;
                let size =
                    usize::from_str_radix(size_line.split(';').next().unwrap_or("").trim(), 16)
                        .map_err(|_| bad(format!("not a chunk size: {size_line:?}")))?;
                if size == 0 {
                    // Trailers, up to the empty line.
                    while !self.read_line()?.is_empty() {}
                    break;
                }
                let start = reply.body.len();
                reply.body.resize(start + size, 0);
                self.reader.read_exact(&mut reply.body[start..])?;
                self.read_line()?;
            }
        } else if let Some(length) = reply.header("content-length") {
            let length: usize = length
                .parse()
                .map_err(|_| bad(format!("bad Content-Length {length:?}")))?;
            reply.body.resize(length, 0);
            self.reader.read_exact(&mut reply.body)?;
        } else {
            self.reader.read_to_end(&mut reply.body)?;
        }
        Ok(reply)
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
    send_sigterm(server.child.id());
    let status = server.wait_exit();
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
