//! A benchmark of the lead engine as it runs: the real `truckins` binary (build with `--release`) on a fresh SQLite
//! file, 16 concurrent keep-alive clients posting valid quotes to `POST /api/leads/quote` for a fixed time, then,
//! for reference, the same load on `GET /` (a static page).
//!
//! It prints accepted leads per second, p50/p90/p99/max latency, requests per second of the static page, the leads
//! stored and the server's peak resident memory (`VmHWM`). It asserts only correctness — every submission answered
//! 201 is stored once under the id the server returned, and the file passes `PRAGMA integrity_check` — never timing.
//!
//! Run: `cargo test --release --test integration bench_leads:: -- --ignored --nocapture` (`BENCH_SECONDS` changes the 10 s per
//! phase, `BENCH_CLIENTS` the 16 clients). The client threads share the machine's CPUs with the server, so the figures are for comparing runs on
//! one machine, not absolute capacity.

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

/// `clients` threads, each on its own keep-alive connection, sending `target` back to back for `duration`.
fn run_load(port: u16, clients: usize, target: Target, duration: Duration) -> Load {
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
                    let submission_id = format!("bench-{client:04}-{n:08}");
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
    let database = dir.path().join("leads.db");
    let server = Server::start(
        dir.path(),
        "serve",
        &[
            "--database",
            database.to_str().unwrap(),
            "--ip-limit",
            "1000000",
        ],
    );
    let port = server.port;
    let rss_idle = server.memory_kib("VmRSS");

    // Warm-up: the pool's connections, the page cache, the allocator.
    let mut connection = Http::connect(port).expect("connect");
    let mut warm_acknowledged = Vec::new();
    for n in 0..WARM_UP {
        let submission_id = format!("warm-up-{n:012}");
        let reply = connection
            .send_raw(&post_quote(port, &submission_id))
            .expect("a warm-up answer");
        assert_eq!(
            reply.status,
            201,
            "{}",
            String::from_utf8_lossy(&reply.body)
        );
        warm_acknowledged.push((submission_id, lead_id(&reply).expect("an id")));
        connection
            .send_raw(&get_home(port))
            .expect("a warm-up page");
    }
    drop(connection);

    let leads = run_load(port, clients, Target::Quote, duration);
    let peak_after_leads = server.peak_memory_kib();
    let pages = run_load(port, clients, Target::Home, duration);
    let peak_after_pages = server.peak_memory_kib();
    drop(server);

    let cpus = thread::available_parallelism().map_or(0, |n| n.get());
    println!();
    println!(
        "bench_leads: {clients} keep-alive clients, {seconds} s per phase, {cpus} CPUs shared by clients and server, \
         {} build of the server",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    println!("{}", leads.summary("POST /api/leads/quote", "leads"));
    println!(
        "{}; {:.1} KiB per page",
        pages.summary("GET / (static page)", "requests"),
        pages.body_bytes as f64 / pages.latencies.len().max(1) as f64 / 1024.0
    );

    // Correctness: every 201 is stored once under the id returned, and the file is sound.
    let connection = rusqlite::Connection::open(&database).expect("the database opens");
    let check: String = connection
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap();
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
    let acknowledged: Vec<&(String, i64)> = warm_acknowledged
        .iter()
        .chain(leads.acknowledged.iter())
        .collect();
    println!(
        "stored: {} leads ({WARM_UP} warm-up + {} accepted under load); integrity_check: {check}",
        stored.len(),
        leads.acknowledged.len()
    );
    println!(
        "server memory: RSS at start {}, peak RSS (VmHWM) after the leads phase {}, after the GET / phase {}",
        mib(rss_idle),
        mib(peak_after_leads),
        mib(peak_after_pages)
    );
    assert_eq!(check, "ok");
    let missing: Vec<_> = acknowledged
        .iter()
        .filter(|(submission, id)| stored.get(submission) != Some(id))
        .collect();
    assert!(
        missing.is_empty(),
        "{} acknowledged leads are not stored as answered, e.g. {:?}",
        missing.len(),
        &missing[..missing.len().min(10)]
    );
    assert!(
        !leads.acknowledged.is_empty(),
        "no lead was accepted under load"
    );
}
