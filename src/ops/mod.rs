//! Running in production: `GET /healthz` (the process answers and a lead could be stored now; with notifications on,
//! also their backlog; with a replica, how far its copy is) and a request log with method, path, status and duration
//! for every request (text or JSON lines). The log never holds a lead's content: bodies and query strings are not
//! written. Lines are written in batches ([`LogWriter`]), not one system call per
//! request, and every line is out by the time the server has stopped.

use std::io::Write;
use std::sync::mpsc::{RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rocket::fairing::{AdHoc, Fairing, Info, Kind};
use rocket::http::Status;
use rocket::serde::json::{Json, Value, json};
use rocket::{Data, Request, Response, State, get};

use crate::config::LogFormat;
use crate::leads::Leads;

/// 200 only if a lead could be stored now: the database takes a committed write, as a lead's (one row replaced at
/// each probe; a read-only database, a full disk or a file made immutable fails here, see `leads::store::probe`) and
/// the file written is still the file at the configured path (not deleted or replaced under the server). Otherwise
/// 503 with the reason in words, and the details (the path, SQLite's message) in the log. The probe's answer is
/// reused for [`PROBE_REUSE`]: at most one committed probe per interval, whatever the rate of checks.
#[get("/healthz")]
async fn healthz(
    leads: &State<Leads>,
    last: &State<LastProbe>,
    tls: crate::tls::Managed,
) -> (Status, Json<Value>) {
    let asked = Instant::now();
    // One probe at a time, and none within PROBE_REUSE of the last: each takes the database's write lock and a
    // synced commit (which Litestream then replicates), so a flood of health checks must not compete with the leads'
    // commits. A check that waited while another ran takes that one's result, which is as fresh as its own would be
    // (the probe began after this check was asked).
    let mut last = last.0.lock().await;
    let answer = match &*last {
        Some((began, answer)) if *began >= asked || began.elapsed() < PROBE_REUSE => answer.clone(),
        _ => {
            let began = Instant::now();
            let answer = probe(leads).await;
            *last = Some((began, answer.clone()));
            answer
        }
    };
    let (status, mut body) = answer;
    // The notification backlog, when notifications are on: it never makes the check fail (a relay that is down
    // is no reason to stop taking leads), but shows that deliveries are waiting.
    if leads.outbox.is_active() {
        body["deliveries"] = deliveries(leads).await;
    }
    // The off-site copy, when Litestream replicates the database: a replica behind is visible to a monitor but
    // never makes the check fail (leads are still stored here).
    // The tests' clock time of the reminders' last look (src/status/reminders.rs), when they are on.
    if let Some(at) = crate::status::reminders::last_look() {
        body["reminders_checked_at"] = json!(at);
    }
    // The same for the x-dates' looks (src/status/xdates.rs).
    if let Some(at) = crate::status::xdates::last_look() {
        body["xdates_checked_at"] = json!(at);
    }
    if let Some(replica) = leads.replica.health().await {
        body["replica"] = replica;
    }
    // Built-in HTTPS: the certificate's state ("missing", "expired", "valid" with its dates) and the renewal's last
    // error; like the replica, it never fails the check (plain HTTP and the leads still work).
    if let Some(tls) = tls.0 {
        body["tls"] = tls.health(crate::tls::now());
    }
    (status, Json(body))
}

/// Deliveries waiting (and the age of the oldest) and failed, for `/healthz`.
async fn deliveries(leads: &Leads) -> Value {
    let pool = leads.pool.clone();
    let backlog = rocket::tokio::task::spawn_blocking(move || {
        let connection = pool.get().map_err(|e| e.to_string())?;
        crate::notify::outbox::backlog(&connection).map_err(|e| e.to_string())
    })
    .await;
    match backlog {
        Ok(Ok(backlog)) => json!({
            "pending": backlog.pending,
            "oldest_pending_seconds": backlog.oldest_pending_seconds,
            "failed": backlog.failed,
        }),
        // The details (a path, SQLite's words) go to the log, not to whoever asks /healthz.
        Ok(Err(error)) => {
            rocket::error!("health check: the delivery backlog could not be read: {error}");
            json!({ "error": "the delivery backlog could not be read" })
        }
        Err(error) => {
            rocket::error!("health check: the delivery backlog could not be read: {error}");
            json!({ "error": "the delivery backlog could not be read" })
        }
    }
}

/// How long a probe's answer stands for the checks that follow: short beside a monitor's interval (10 s and more), so
/// a full disk or a database that cannot be written is still reported within it, long beside a flood's.
const PROBE_REUSE: Duration = Duration::from_secs(2);

/// The last health probe: when it began and what it answered.
#[derive(Default)]
struct LastProbe(rocket::tokio::sync::Mutex<Option<(Instant, (Status, Value))>>);

async fn probe(leads: &Leads) -> (Status, Value) {
    let pool = leads.pool.clone();
    let checked = rocket::tokio::task::spawn_blocking(move || crate::store::probe(&pool)).await;
    match checked {
        Ok(Ok(())) => (Status::Ok, json!({ "status": "ok", "database": "ok" })),
        Ok(Err(error)) => {
            rocket::error!("health check: leads cannot be stored: {error}");
            (
                Status::ServiceUnavailable,
                json!({ "status": "unavailable", "database": "unavailable",
                    "reason": error.public_reason() }),
            )
        }
        Err(error) => {
            rocket::error!("health check failed: {error}");
            (
                Status::ServiceUnavailable,
                json!({ "status": "unavailable", "database": "unknown",
                    "reason": "the health check failed" }),
            )
        }
    }
}

pub fn stage() -> AdHoc {
    AdHoc::on_ignite("Operations", |rocket| async {
        rocket
            .manage(LastProbe::default())
            .mount("/", rocket::routes![healthz])
    })
}

/// How long a request line may wait in memory before it is written: short enough that `journalctl -f` looks live.
const FLUSH_INTERVAL: Duration = Duration::from_millis(100);

/// Beyond this many waiting bytes the writer thread is woken at once, so a burst never holds much memory.
const FLUSH_BYTES: usize = 64 * 1024;

/// Beyond this many waiting bytes (the output is not keeping up: a stalled journald, a blocked pipe) the request
/// itself waits to write them: the log slows the server down rather than grow without bound or drop lines.
const BACKPRESSURE_BYTES: usize = 4 * 1024 * 1024;

/// Request log lines on their way out. A line is appended in memory under a short lock; a thread of the log's own
/// writes what has gathered every [`FLUSH_INTERVAL`], or at once when woken by a request that filled
/// [`FLUSH_BYTES`]. Dropping the log stops that thread, waits for it and writes the rest, on the dropping thread,
/// so every line is out once the log is gone. Under load this is one `write` per batch where a line-buffered stdout
/// made one per request (and serialised every worker on its lock).
pub struct LogWriter {
    shared: Arc<Shared>,
    /// Wakes the writer thread; dropped to stop it.
    wake: Option<SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    pending: Mutex<Vec<u8>>,
    out: Mutex<Output>,
}

struct Output {
    writer: Box<dyn Write + Send>,
    /// The buffer written last time, emptied, swapped in for `pending` so batches reuse two allocations.
    spare: Vec<u8>,
}

/// A lock that a panic elsewhere did not make unusable: the log must keep going.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl LogWriter {
    /// A log writing to `writer`, with its writer thread.
    pub fn new(writer: Box<dyn Write + Send>) -> Arc<LogWriter> {
        let shared = Arc::new(Shared {
            pending: Mutex::new(Vec::with_capacity(FLUSH_BYTES)),
            out: Mutex::new(Output {
                writer,
                spare: Vec::with_capacity(FLUSH_BYTES),
            }),
        });
        // One wake-up waiting is enough: the thread takes everything queued when it runs.
        let (wake, woken) = sync_channel::<()>(1);
        let thread_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("request-log".into())
            .spawn(move || {
                while let Ok(()) | Err(RecvTimeoutError::Timeout) =
                    woken.recv_timeout(FLUSH_INTERVAL)
                {
                    thread_shared.flush();
                }
            });
        let thread = match thread {
            Ok(thread) => Some(thread),
            Err(error) => {
                // Still a working log: lines go out at the backpressure size and when the log is dropped.
                eprintln!(
                    "truckins: the request log's writer thread could not start ({error}); lines will be late"
                );
                None
            }
        };
        Arc::new(LogWriter {
            shared,
            wake: Some(wake),
            thread,
        })
    }

    /// A log on standard output (journald's, under systemd).
    pub fn stdout() -> Arc<LogWriter> {
        LogWriter::new(Box::new(std::io::stdout()))
    }

    /// Queues what `write` appends to the queue, which must be whole lines: a line is formatted in place, with
    /// no buffer of its own per request.
    pub fn append_with(&self, write: impl FnOnce(&mut Vec<u8>)) {
        let waiting = {
            let mut pending = lock(&self.shared.pending);
            write(&mut pending);
            pending.len()
        };
        if waiting >= BACKPRESSURE_BYTES || (waiting >= FLUSH_BYTES && self.thread.is_none()) {
            self.shared.flush();
        } else if waiting >= FLUSH_BYTES
            && let Some(wake) = &self.wake
        {
            // Full means a wake-up is already waiting: nothing more to do.
            let _ = wake.try_send(());
        }
    }

    /// Writes every queued line now, in the order queued.
    pub fn flush(&self) {
        self.shared.flush();
    }
}

impl Shared {
    fn flush(&self) {
        // The output is locked before the queue is taken, so two flushes cannot overtake one another's lines.
        let mut out = lock(&self.out);
        let out = &mut *out;
        std::mem::swap(&mut *lock(&self.pending), &mut out.spare);
        if out.spare.is_empty() {
            return;
        }
        // A log nobody reads any more (stdout closed) must not take the server down with it, as println! would.
        let _ = out
            .writer
            .write_all(&out.spare)
            .and_then(|()| out.writer.flush());
        out.spare.clear();
    }
}

impl Drop for LogWriter {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop; once it has finished its last write, the rest goes out here.
        drop(self.wake.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.shared.flush();
    }
}

/// Logs one line per request: time, method, path (never the query), status and duration.
#[derive(Clone)]
pub struct RequestLog {
    format: LogFormat,
    writer: Arc<LogWriter>,
}

impl RequestLog {
    pub fn new(format: LogFormat, writer: Arc<LogWriter>) -> RequestLog {
        RequestLog { format, writer }
    }

    /// Writes out every line logged so far.
    pub fn flush(&self) {
        self.writer.flush();
    }

    /// Logs one answered request: `path` without its query, `started` when its head had been read.
    pub fn record(&self, method: &str, path: &str, status: u16, started: Instant) {
        let milliseconds = started.elapsed().as_secs_f64() * 1000.0;
        match self.format {
            LogFormat::Text => self.writer.append_with(|line| {
                crate::clock::write_now(line);
                let _ = writeln!(line, " {method} {path} {status} {milliseconds:.1}ms");
            }),
            LogFormat::Json => {
                let object = json!({ "time": crate::clock::now(), "method": method,
                    "path": path, "status": status,
                    "duration_ms": (milliseconds * 10.0).round() / 10.0 });
                self.writer.append_with(|line| {
                    let _ = serde_json::to_writer(&mut *line, &object);
                    line.push(b'\n');
                });
            }
        }
    }
}

#[derive(Clone, Copy)]
struct Started(Instant);

#[rocket::async_trait]
impl Fairing for RequestLog {
    fn info(&self) -> Info {
        Info {
            name: "Request log",
            kind: Kind::Request | Kind::Response | Kind::Shutdown,
        }
    }

    async fn on_request(&self, request: &mut Request<'_>, _: &mut Data<'_>) {
        request.local_cache(|| Started(Instant::now()));
    }

    async fn on_response<'r>(&self, request: &'r Request<'_>, response: &mut Response<'r>) {
        let started = request.local_cache(|| Started(Instant::now())).0;
        self.record(
            request.method().as_str(),
            request.uri().path().as_str(),
            response.status().code,
            started,
        );
    }

    async fn on_shutdown(&self, _: &rocket::Rocket<rocket::Orbit>) {
        // Requests still in flight are logged afterwards, by the thread and when the log is dropped. A blocking
        // write in an async hook: once, at shutdown, where waiting for the output is the point.
        self.writer.flush();
    }
}

#[cfg(test)]
mod tests;
