//! A benchmark of the lead engine as it runs: the real `truckins` binary (build with `--release`) on fresh SQLite
//! files, 16 concurrent keep-alive clients posting valid quotes to `POST /api/leads/quote` for a fixed time, against
//! two servers in one run: one without notifications and one sending each lead's e-mail (to an SMTP sink on
//! loopback) and webhook (to an HTTP receiver on loopback), in rounds A B B A, each round's deliveries all sent before
//! the next round begins; then, for reference, the same load on `GET /` (a static page).
//!
//! It prints accepted leads per second (each round's and in all) and p50/p90/p99/max latency of each server, the
//! ratio of the two, how long the deliveries took to drain after a round, requests per second of the static page and
//! the servers' memory (`VmHWM`). It asserts only correctness — every submission answered 201 is stored once under
//! the id the server returned, the files pass `PRAGMA integrity_check`, every lead's e-mail and webhook were sent
//! once — never timing.
//!
//! Run: `cargo test --release --test integration bench_leads:: -- --ignored --nocapture` (`BENCH_SECONDS` changes
//! the 10 s per round, `BENCH_CLIENTS` the 16 clients). The client threads share the machine's CPUs with the servers
//! and receivers, so the figures are for comparing runs on one machine, not absolute capacity.

use std::collections::HashMap;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::process::{Http, Reply, Server, TempDir};

const WARM_UP: usize = 100;

fn get_home(port: u16) -> Vec<u8> {
    format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: truckins-bench\r\nAccept: text/html\r\n\r\n"
    )
    .into_bytes()
}

fn post_quote(port: u16, submission_id: &str) -> Vec<u8> {
    let mut body = crate::common::valid_quote();
    body["submission_id"] = submission_id.into();
    body["utm_source"] = "bench".into();
    let body = body.to_string();
    format!(
        "POST /api/leads/quote HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: truckins-bench\r\n\
         Accept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The id in a 201 body `{"id":N}`.
fn lead_id(reply: &Reply) -> Option<i64> {
    serde_json::from_slice::<serde_json::Value>(&reply.body)
        .ok()?
        .get("id")?
        .as_i64()
}

#[derive(Clone, Copy, PartialEq)]
enum Target {
    Quote,
    Home,
}

/// What one phase of load measured.
#[derive(Default)]
struct Load {
    elapsed: Duration,
    /// Latency of every answered request.
    latencies: Vec<Duration>,
    /// Answers by status.
    statuses: HashMap<u16, usize>,
    /// Requests that got no answer (the connection is then reopened).
    errors: usize,
    /// (submission_id, id) of every 201 to a quote.
    acknowledged: Vec<(String, i64)>,
    body_bytes: usize,
}

impl Load {
    fn percentile_ms(&self, sorted: &[Duration], p: f64) -> f64 {
        if sorted.is_empty() {
            return f64::NAN;
        }
        let index = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
        sorted[index].as_secs_f64() * 1000.0
    }

    fn summary(&self, name: &str, unit: &str) -> String {
        let mut sorted = self.latencies.clone();
        sorted.sort_unstable();
        let ok = match unit {
            "leads" => self.acknowledged.len(),
            _ => self.statuses.get(&200).copied().unwrap_or(0),
        };
        format!(
            "{name}: {ok} {unit} in {:.2} s = {:.1} {unit}/s; latency ms p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2} \
             ({} requests, {} over 100 ms, {} over 1 s; answers {:?}, no answer {})",
            self.elapsed.as_secs_f64(),
            ok as f64 / self.elapsed.as_secs_f64(),
            self.percentile_ms(&sorted, 50.0),
            self.percentile_ms(&sorted, 90.0),
            self.percentile_ms(&sorted, 99.0),
            self.percentile_ms(&sorted, 100.0),
            self.latencies.len() + self.errors,
            sorted.iter().filter(|l| l.as_millis() > 100).count(),
            sorted.iter().filter(|l| l.as_millis() > 1000).count(),
            self.statuses,
            self.errors,
        )
    }
}

/// `clients` threads, each on its own keep-alive connection, sending `target` back to back for `duration`; `round`
/// keeps submission ids unique across rounds on one server.
fn run_load(port: u16, clients: usize, target: Target, duration: Duration, round: usize) -> Load {
    let start = Arc::new(Barrier::new(clients + 1));
    let clients: Vec<_> = (0..clients)
        .map(|client| {
            let start = start.clone();
            thread::spawn(move || {
                let mut load = Load::default();
                let mut connection = Http::connect(port).ok();
                start.wait();
                let deadline = Instant::now() + duration;
                let mut n = 0;
                while Instant::now() < deadline {
                    let Some(open) = connection.as_mut() else {
                        connection = Http::connect(port).ok();
                        if connection.is_none() {
                            load.errors += 1;
                            thread::sleep(Duration::from_millis(10));
                        }
                        continue;
                    };
                    n += 1;
                    let submission_id = format!("bench-{round}-{client:04}-{n:08}");
                    let request = match target {
                        Target::Quote => post_quote(port, &submission_id),
                        Target::Home => get_home(port),
                    };
                    let sent = Instant::now();
                    match open.send_raw(&request) {
                        Ok(reply) => {
                            load.latencies.push(sent.elapsed());
                            *load.statuses.entry(reply.status).or_default() += 1;
                            load.body_bytes += reply.body.len();
                            if target == Target::Quote && reply.status == 201 {
                                let id = lead_id(&reply).expect("a 201 body {\"id\": N}");
                                load.acknowledged.push((submission_id, id));
                            }
                        }
                        Err(_) => {
                            load.errors += 1;
                            connection = None;
                        }
                    }
                }
                load
            })
        })
        .collect();
    start.wait();
    let started = Instant::now();
    let mut total = Load::default();
    for client in clients {
        let load = client.join().expect("a client thread panicked");
        total.latencies.extend(load.latencies);
        for (status, count) in load.statuses {
            *total.statuses.entry(status).or_default() += count;
        }
        total.errors += load.errors;
        total.acknowledged.extend(load.acknowledged);
        total.body_bytes += load.body_bytes;
    }
    total.elapsed = started.elapsed();
    total
}

fn mib(kib: Option<u64>) -> String {
    kib.map(|k| format!("{:.1} MiB", k as f64 / 1024.0))
        .unwrap_or_else(|| "unknown".into())
}

impl Load {
    /// This load and `other` as one.
    fn merge(&mut self, other: Load) {
        self.elapsed += other.elapsed;
        self.latencies.extend(other.latencies);
        for (status, count) in other.statuses {
            *self.statuses.entry(status).or_default() += count;
        }
        self.errors += other.errors;
        self.acknowledged.extend(other.acknowledged);
        self.body_bytes += other.body_bytes;
    }

    fn leads_per_second(&self) -> f64 {
        self.acknowledged.len() as f64 / self.elapsed.as_secs_f64()
    }

    fn p99_ms(&self) -> f64 {
        let mut sorted = self.latencies.clone();
        sorted.sort_unstable();
        self.percentile_ms(&sorted, 99.0)
    }
}

/// A server under test: its process, its file and what it acknowledged.
struct Bench {
    label: &'static str,
    server: Server,
    database: std::path::PathBuf,
    acknowledged: Vec<(String, i64)>,
    load: Load,
    /// Seconds from the end of each round until every delivery was sent.
    drained_after: Vec<f64>,
}

impl Bench {
    fn start(dir: &std::path::Path, label: &'static str, env: &[(&str, &str)]) -> Bench {
        let database = dir.join(format!("{label}.db"));
        let server = Server::start_with_env(
            dir,
            label,
            &[
                "--database",
                database.to_str().unwrap(),
                "--ip-limit",
                "1000000",
            ],
            env,
        );
        // Warm-up: the pool's connections, the page cache, the allocator (and the relay's connection).
        let mut connection = Http::connect(server.port).expect("connect");
        let mut acknowledged = Vec::new();
        for n in 0..WARM_UP {
            let submission_id = format!("warm-up-{n:012}");
            let reply = connection
                .send_raw(&post_quote(server.port, &submission_id))
                .expect("a warm-up answer");
            assert_eq!(
                reply.status,
                201,
                "{}; the server said: {}",
                String::from_utf8_lossy(&reply.body),
                server.stdout_text()
            );
            acknowledged.push((submission_id, lead_id(&reply).expect("an id")));
            connection
                .send_raw(&get_home(server.port))
                .expect("a warm-up page");
        }
        let mut bench = Bench {
            label,
            server,
            database,
            acknowledged,
            load: Load::default(),
            drained_after: Vec::new(),
        };
        bench.drain();
        bench
    }

    /// Waits until no delivery is pending (none at all without notifications), so that one server's worker never
    /// runs during the other's round; returns how long that took.
    fn drain(&mut self) -> f64 {
        let started = Instant::now();
        let connection = rusqlite::Connection::open(&self.database).expect("the database opens");
        loop {
            let pending: i64 = connection
                .query_row(
                    "SELECT COUNT(*) FROM deliveries WHERE state = 'pending'",
                    [],
                    |row| row.get(0),
                )
                .unwrap();
            if pending == 0 {
                return started.elapsed().as_secs_f64();
            }
            assert!(
                started.elapsed() < Duration::from_secs(600),
                "{pending} deliveries still pending after 600 s; the server said: {}",
                self.server.stdout_text()
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn round(&mut self, clients: usize, duration: Duration, round: usize) {
        let load = run_load(self.server.port, clients, Target::Quote, duration, round);
        // Each round's own figure too: how far the rounds of one server differ says what a ratio is worth.
        println!(
            "round {} ({}): {:.1} leads/s",
            round + 1,
            self.label,
            load.leads_per_second()
        );
        self.load.merge(load);
        let drained = self.drain();
        self.drained_after.push(drained);
    }

    /// Every 201 is stored once under the id returned, the file is sound, and every lead's deliveries were sent.
    fn check(&self, channels: i64) {
        let connection = rusqlite::Connection::open(&self.database).expect("the database opens");
        let check: String = connection
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .unwrap();
        assert_eq!(check, "ok");
        let mut stored: HashMap<String, i64> = HashMap::new();
        let mut statement = connection
            .prepare("SELECT submission_id, id FROM leads")
            .unwrap();
        for row in statement
            .query_map([], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
            })
            .unwrap()
        {
            let (submission, id) = row.unwrap();
            assert!(
                stored.insert(submission, id).is_none(),
                "a duplicate submission_id"
            );
        }
        let acknowledged: Vec<&(String, i64)> = self
            .acknowledged
            .iter()
            .chain(self.load.acknowledged.iter())
            .collect();
        let missing: Vec<_> = acknowledged
            .iter()
            .filter(|(submission, id)| stored.get(submission) != Some(id))
            .collect();
        assert!(
            missing.is_empty(),
            "{}: {} acknowledged leads are not stored as answered, e.g. {:?}",
            self.label,
            missing.len(),
            &missing[..missing.len().min(10)]
        );
        assert!(
            !self.load.acknowledged.is_empty(),
            "no lead was accepted under load"
        );
        let (sent, other): (i64, i64) = connection
            .query_row(
                "SELECT COUNT(*) FILTER (WHERE state = 'sent'), COUNT(*) FILTER (WHERE state != 'sent') FROM deliveries",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!(
            (sent, other),
            (channels * stored.len() as i64, 0),
            "{}: deliveries",
            self.label
        );
        println!(
            "{}: {} leads stored, {sent} deliveries sent; integrity_check: {check}",
            self.label,
            stored.len()
        );
    }
}

/// A minimal SMTP receiver for the benchmark: accepts every message and counts it. (The notification tests use a
/// full SMTP server, aiosmtpd; here its Python would take CPU from the server being measured.)
struct SmtpSink {
    port: u16,
    messages: Arc<std::sync::atomic::AtomicUsize>,
}

impl SmtpSink {
    fn start() -> SmtpSink {
        use std::io::{BufRead, BufReader, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let messages = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = messages.clone();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let counted = counted.clone();
                thread::spawn(move || {
                    let mut writer = stream.try_clone().unwrap();
                    let mut reader = BufReader::new(stream);
                    let _ = writer.write_all(b"220 sink ready\r\n");
                    let mut line = String::new();
                    while reader.read_line(&mut line).unwrap_or(0) > 0 {
                        let command = line.get(..4).unwrap_or("").to_ascii_uppercase();
                        let answer: &[u8] = match command.as_str() {
                            "DATA" => {
                                let _ = writer.write_all(b"354 go ahead\r\n");
                                loop {
                                    line.clear();
                                    if reader.read_line(&mut line).unwrap_or(0) == 0
                                        || line == ".\r\n"
                                    {
                                        break;
                                    }
                                }
                                counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                b"250 queued\r\n"
                            }
                            "QUIT" => {
                                let _ = writer.write_all(b"221 bye\r\n");
                                return;
                            }
                            "EHLO" => b"250 sink\r\n",
                            _ => b"250 ok\r\n",
                        };
                        let _ = writer.write_all(answer);
                        line.clear();
                    }
                });
            }
        });
        SmtpSink { port, messages }
    }
}

#[test]
#[ignore = "benchmark: cargo test --release --test integration bench_leads:: -- --ignored --nocapture"]
fn bench_lead_submissions_and_static_page() {
    let seconds: f64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10.0);
    let duration = Duration::from_secs_f64(seconds);
    let clients: usize = std::env::var("BENCH_CLIENTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16);
    let dir = TempDir::new("leads");
    // The receivers stand for the agency's relay and CRM, which run on other machines: their threads (and the ones
    // they start, which inherit it) run at the lowest priority, so that they take from the servers measured only
    // the CPU those leave.
    let (sink, receiver) = thread::spawn(|| {
        // SAFETY: setpriority reads only its arguments; on Linux the nice value is per thread (0: this one).
        unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 19) };
        let answer = crate::notify::support::Answer::Status(204);
        (
            SmtpSink::start(),
            crate::notify::support::Receiver::start(&[], answer),
        )
    })
    .join()
    .unwrap();
    let smtp_url = format!("smtp://127.0.0.1:{}?tls=none", sink.port);
    let webhook_url = receiver.url();
    let notifying = [
        ("TRUCKINS_SMTP_URL", smtp_url.as_str()),
        ("TRUCKINS_MAIL_FROM", "leads@agency.example"),
        ("TRUCKINS_NOTIFY_TO", "owner@agency.example"),
        ("TRUCKINS_WEBHOOK_URL", webhook_url.as_str()),
        ("TRUCKINS_WEBHOOK_SECRET", "bench-secret-0123456789"),
    ];
    let mut quiet = Bench::start(dir.path(), "no notifications", &[]);
    let mut notified = Bench::start(dir.path(), "e-mail and webhook", &notifying);
    let rss_idle = quiet.server.memory_kib("VmRSS");

    // Rounds in the order A B B A, so that a drift of the machine over the run falls on both alike.
    for (round, notifying) in [false, true, true, false].into_iter().enumerate() {
        let bench = if notifying { &mut notified } else { &mut quiet };
        bench.round(clients, duration, round);
    }
    let peak_after_leads = quiet.server.peak_memory_kib();
    let pages = run_load(quiet.server.port, clients, Target::Home, duration, 0);
    let peak_after_pages = quiet.server.peak_memory_kib();

    let cpus = thread::available_parallelism().map_or(0, |n| n.get());
    println!();
    println!(
        "bench_leads: {clients} keep-alive clients, 2 rounds of {seconds} s per configuration (A B B A), {cpus} CPUs \
         shared by clients, servers and receivers, {} build of the server",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    for bench in [&quiet, &notified] {
        println!(
            "{}",
            bench
                .load
                .summary(&format!("POST /api/leads/quote, {}", bench.label), "leads")
        );
    }
    println!(
        "with e-mail and webhook: {:.1} % of the leads/s without (p99 {:.2} ms against {:.2} ms); every delivery \
         sent {:.2} s and {:.2} s after the end of its round",
        100.0 * notified.load.leads_per_second() / quiet.load.leads_per_second(),
        notified.load.p99_ms(),
        quiet.load.p99_ms(),
        notified.drained_after.first().copied().unwrap_or(f64::NAN),
        notified.drained_after.last().copied().unwrap_or(f64::NAN),
    );
    println!(
        "{}; {:.1} KiB per page",
        pages.summary("GET / (static page)", "requests"),
        pages.body_bytes as f64 / pages.latencies.len().max(1) as f64 / 1024.0
    );
    println!(
        "server memory (no notifications): RSS at start {}, peak RSS (VmHWM) after the leads rounds {}, after the \
         GET / phase {}; with notifications, peak {}",
        mib(rss_idle),
        mib(peak_after_leads),
        mib(peak_after_pages),
        mib(notified.server.peak_memory_kib())
    );
    quiet.check(0);
    notified.check(2);
    let leads = notified.acknowledged.len() + notified.load.acknowledged.len();
    assert_eq!(
        sink.messages.load(std::sync::atomic::Ordering::Relaxed),
        leads,
        "one e-mail per lead"
    );
    assert_eq!(receiver.received().len(), leads, "one webhook per lead");
}
