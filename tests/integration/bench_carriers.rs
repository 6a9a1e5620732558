//! Benchmarks of the carrier census (build with `--release`): the import of a generated census in FMCSA's layout
//! (2 million rows by default) through the real `truckins carriers import` under `/usr/bin/time -v` (rows/s and
//! peak RSS), and `GET /api/carriers/<dot>` at 16 concurrent keep-alive clients (p50/p90/p99). The lookup limit
//! is raised for the benchmark through its setting (`TRUCKINS_CARRIER_LOOKUP_LIMIT`), as an operator would. Figures
//! are printed, never asserted; only correctness is (every answer a 200 with the number asked for).
//!
//! Run: `cargo test --release --test integration bench_carriers:: -- --ignored --nocapture --test-threads 1`
//! (`BENCH_ROWS` changes the 2,000,000 rows, `BENCH_SECONDS` the 10 s of lookups, `BENCH_CLIENTS` the 16 clients).

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::process::{BIN, Http, Server, TempDir, truckins};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The DOT number of generated row `n`: ascending with gaps, as in FMCSA's file.
fn dot_of(n: u64) -> u64 {
    1_000_000 + n * 3
}

/// A census CSV of `rows` carriers with FMCSA's columns (contact details included, as the real file has them).
fn generate(path: &Path, rows: u64) {
    let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(path).unwrap());
    writeln!(
        out,
        "DOT_NUMBER,LEGAL_NAME,DBA_NAME,CARRIER_OPERATION,HM_FLAG,PC_FLAG,PHY_STREET,PHY_CITY,PHY_STATE,PHY_ZIP,\
         PHY_COUNTRY,MAILING_STREET,MAILING_CITY,MAILING_STATE,MAILING_ZIP,MAILING_COUNTRY,TELEPHONE,FAX,\
         EMAIL_ADDRESS,MCS150_DATE,MCS150_MILEAGE,MCS150_MILEAGE_YEAR,ADD_DATE,OIC_STATE,NBR_POWER_UNIT,DRIVER_TOTAL"
    )
    .unwrap();
    const STATES: [&str; 8] = ["TX", "CA", "OH", "FL", "GA", "IL", "PA", "NY"];
    for n in 0..rows {
        let state = STATES[(n % 8) as usize];
        writeln!(
            out,
            "{dot},\"CARRIER {n}, LLC\",{dba},{op},{hm},N,\"{n} MAIN ST, UNIT {u}\",SPRINGFIELD,{state},{zip:05},US,\
             PO BOX {n},SPRINGFIELD,{state},{zip:05},US,(555) 01{p:02}-{n4:04},,contact{n}@example.com,\
             2024{m:02}{d:02} 0000,{miles},2023,20{y:02}0101,{state},{units},{drivers}",
            dot = dot_of(n),
            dba = if n % 4 == 0 { format!("\"HAUL \"\"{n}\"\"\"") } else { String::new() },
            op = ["A", "B", "C"][(n % 3) as usize],
            hm = if n % 10 == 0 { "Y" } else { "N" },
            u = n % 100,
            zip = n % 100_000,
            p = n % 100,
            n4 = n % 10_000,
            m = n % 12 + 1,
            d = n % 28 + 1,
            miles = n * 7 % 1_000_000,
            y = n % 25,
            units = if n % 17 == 0 { String::new() } else { (n % 40 + 1).to_string() },
            drivers = n % 60 + 1,
        )
        .unwrap();
    }
    out.flush().unwrap();
}

#[test]
#[ignore = "benchmark: cargo test --release --test integration bench_carriers:: -- --ignored --nocapture"]
fn bench_carrier_import() {
    let rows: u64 = env_or("BENCH_ROWS", 2_000_000);
    let dir = TempDir::new("bench-census");
    let csv = dir.path().join("census.csv");
    let started = Instant::now();
    generate(&csv, rows);
    let size = std::fs::metadata(&csv).unwrap().len();
    println!(
        "\ngenerated {rows} rows, {:.0} MiB, in {:.1} s",
        size as f64 / 1048576.0,
        started.elapsed().as_secs_f64()
    );
    let target = dir.path().join("carriers.db");
    let output = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(BIN)
        .args(["carriers", "import"])
        .arg(&csv)
        .arg("--carriers-database")
        .arg(&target)
        .current_dir(dir.path())
        .output()
        .expect("/usr/bin/time (Debian's `time` package) runs the import");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    let figure = |name: &str| {
        stderr
            .lines()
            .find_map(|line| line.trim().strip_prefix(name))
            .unwrap_or("?")
            .trim()
            .to_string()
    };
    println!("{}", stdout.trim());
    println!(
        "bench_carriers import: wall {}, user {} s, system {} s, peak RSS {} KiB, census file {:.0} MiB, {} build",
        figure("Elapsed (wall clock) time (h:mm:ss or m:ss):"),
        figure("User time (seconds):"),
        figure("System time (seconds):"),
        figure("Maximum resident set size (kbytes):"),
        std::fs::metadata(&target).unwrap().len() as f64 / 1048576.0,
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    assert!(
        stdout.contains(&format!("imported {rows} carriers from {rows} rows")),
        "{stdout}"
    );
}

#[test]
#[ignore = "benchmark: cargo test --release --test integration bench_carriers:: -- --ignored --nocapture"]
fn bench_carrier_lookups() {
    let rows: u64 = env_or("BENCH_LOOKUP_ROWS", 200_000);
    let seconds: f64 = env_or("BENCH_SECONDS", 10.0);
    let clients: usize = env_or("BENCH_CLIENTS", 16);
    let dir = TempDir::new("bench-lookups");
    let csv = dir.path().join("census.csv");
    generate(&csv, rows);
    let database = dir.path().join("leads.db");
    let database = database.to_str().unwrap();
    let imported = truckins(dir.path())
        .args([
            "carriers",
            "import",
            csv.to_str().unwrap(),
            "--database",
            database,
        ])
        .output()
        .unwrap();
    assert!(imported.status.success());
    let server = Server::start_with_env(
        dir.path(),
        "serve",
        &["--database", database],
        &[("TRUCKINS_CARRIER_LOOKUP_LIMIT", "100000000")],
    );
    let port = server.port;
    let mut warm = Http::connect(port).unwrap();
    for n in 0..200 {
        assert_eq!(
            warm.get(&format!("/api/carriers/{}", dot_of(n)), &[])
                .unwrap()
                .status,
            200
        );
    }

    let start = Arc::new(Barrier::new(clients + 1));
    let threads: Vec<_> = (0..clients as u64)
        .map(|client| {
            let start = start.clone();
            thread::spawn(move || {
                let mut http = Http::connect(port).unwrap();
                let mut latencies = Vec::new();
                let mut bad = 0usize;
                // A different walk through the census per client (a stride coprime with most row counts).
                let mut n = client * 7_919;
                start.wait();
                let deadline = Instant::now() + Duration::from_secs_f64(seconds);
                while Instant::now() < deadline {
                    n = (n + 104_729) % rows;
                    let sent = Instant::now();
                    let reply = http
                        .get(&format!("/api/carriers/{}", dot_of(n)), &[])
                        .unwrap();
                    latencies.push(sent.elapsed());
                    let expected = format!("\"dot_number\":{}", dot_of(n));
                    if reply.status != 200 || !reply.text().contains(&expected) {
                        bad += 1;
                    }
                }
                (latencies, bad)
            })
        })
        .collect();
    start.wait();
    let started = Instant::now();
    let mut latencies = Vec::new();
    let mut bad = 0;
    for thread in threads {
        let (mine, wrong) = thread.join().unwrap();
        latencies.extend(mine);
        bad += wrong;
    }
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let ms = |p: f64| {
        latencies[((p / 100.0) * (latencies.len() - 1) as f64).round() as usize].as_secs_f64()
            * 1000.0
    };
    println!(
        "\nbench_carriers lookups: {clients} keep-alive clients, {seconds} s, census of {rows}, {} build, {} CPUs \
         shared by clients and server: {} lookups = {:.0}/s; latency ms p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}; \
         server peak RSS {} KiB",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        thread::available_parallelism().map_or(0, |n| n.get()),
        latencies.len(),
        latencies.len() as f64 / elapsed,
        ms(50.0),
        ms(90.0),
        ms(99.0),
        ms(100.0),
        server.peak_memory_kib().unwrap_or(0),
    );
    assert_eq!(bad, 0, "answers that were not the carrier asked for");
}
