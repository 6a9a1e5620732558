//! Measurements, not checks (ignored by default; run with `--ignored --nocapture`): the database's size after a year
//! of 10,000 page views a day, and the CPU per page view counted.

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use hyper::header::HeaderValue;
use hyper::{Method, Uri};

use crate::site::Served;
use time::{Date, Month};

use super::counting::{database, headers};
use crate::analytics::classify::Device;
use crate::analytics::collector::Collector;
use crate::analytics::store::{self, Visit};
use crate::store::open;

/// The database's size after a year of 10,000 page views a day (4,000 visitors a day viewing 2.5 pages each, 60
/// pages, a realistic mix of sources, campaigns and devices), each day written as the collector writes it and old
/// days folded once a day. A measurement, not a check: `cargo test --lib analytics_size -- --ignored --nocapture`.
#[test]
#[ignore]
fn analytics_size_of_a_year_at_10000_views_a_day() {
    let dir = std::env::temp_dir().join(format!("truckins-analytics-size-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("leads.db");
    let pool = open(&path, 2).unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut random = move |below: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % below
    };
    let hosts: Vec<String> = (0..50).map(|n| format!("site{n}.example.net")).collect();
    let start = Date::from_calendar_date(2025, Month::January, 1).unwrap();
    let size = |path: &PathBuf| {
        ["", "-wal"]
            .iter()
            .map(|suffix| {
                let mut name = path.as_os_str().to_owned();
                name.push(suffix);
                std::fs::metadata(PathBuf::from(name)).map_or(0, |m| m.len())
            })
            .sum::<u64>()
    };
    for n in 0..365 {
        let today = start + time::Duration::days(n);
        let mut rows: HashMap<Visit, u64> = HashMap::new();
        for visitor in 0..4_000_i64 {
            let device = match random(100) {
                0..60 => Device::Phone,
                60..95 => Device::Desktop,
                _ => Device::Tablet,
            };
            let (referrer, source, campaign) = match random(100) {
                0..45 => (String::new(), String::new(), String::new()),
                45..75 => ("google.com".to_string(), String::new(), String::new()),
                75..83 => ("bing.com".to_string(), String::new(), String::new()),
                83..90 => (
                    "m.facebook.com".to_string(),
                    "facebook".to_string(),
                    format!("campaign-{}", random(5)),
                ),
                90..95 => (
                    String::new(),
                    "newsletter".to_string(),
                    format!("issue-{}", n / 7),
                ),
                _ => (
                    hosts[random(50) as usize].clone(),
                    String::new(),
                    String::new(),
                ),
            };
            let key = (n * 4_000 + visitor) * 7_919;
            let entry = Visit {
                day: today,
                visitor: key,
                path: format!("/products/page-{}", random(60)),
                referrer,
                utm_source: source,
                utm_medium: String::new(),
                utm_campaign: campaign,
                device,
                entry: true,
            };
            *rows.entry(entry).or_default() += 1;
            // 1.5 more pages on average, clicked within the site.
            for _ in 0..(1 + random(2)) {
                let click = Visit {
                    day: today,
                    visitor: key,
                    path: format!("/products/page-{}", random(60)),
                    referrer: String::new(),
                    utm_source: String::new(),
                    utm_medium: String::new(),
                    utm_campaign: String::new(),
                    device,
                    entry: false,
                };
                *rows.entry(click).or_default() += 1;
            }
        }
        store::save(&pool, &rows, Some(store::fold_before(today))).unwrap();
        if n == 89 || n == 364 {
            pool.get()
                .unwrap()
                .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
                .unwrap();
            let views: i64 = pool
                .get()
                .unwrap()
                .query_row("SELECT SUM(views) FROM analytics_visits", [], |row| {
                    row.get(0)
                })
                .unwrap();
            println!(
                "after {} days: {:.1} MiB ({} views in rows, {} rows per day)",
                n + 1,
                size(&path) as f64 / 1_048_576.0,
                views,
                rows.len()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// CPU per page view counted, on the request's path (the calling thread) and in all (the counter's thread too), for
/// views like `bench/serve.sh` sends. A measurement, not a check:
/// `cargo test --release --lib analytics_cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn analytics_cost_per_view() {
    fn cpu(who: libc::c_int) -> Duration {
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage only writes into the struct it is given.
        unsafe { libc::getrusage(who, &mut usage) };
        let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        time(usage.ru_utime) + time(usage.ru_stime)
    }
    let pool = database("cost");
    let collector = Collector::start(pool.clone(), Vec::new(), Vec::new()).unwrap();
    let mut request = headers(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    );
    request.insert("accept-encoding", HeaderValue::from_static("br, gzip"));
    let paths: Vec<(Uri, Served)> = [
        ("/", "index.html"),
        ("/get-quote", "get-quote/index.html"),
        (
            "/products/dump-truck-insurance",
            "products/dump-truck-insurance/index.html",
        ),
        ("/about", "about/index.html"),
        ("/blog", "blog/index.html"),
    ]
    .iter()
    .map(|(path, file)| (path.parse().unwrap(), Served::file(file)))
    .collect();
    let peer: IpAddr = "127.0.0.1".parse().unwrap();
    const VIEWS: u32 = 1_000_000;
    let (process, thread) = (cpu(libc::RUSAGE_SELF), cpu(libc::RUSAGE_THREAD));
    for n in 0..VIEWS {
        let (uri, served) = &paths[n as usize % 5];
        collector.answered(&Method::GET, uri, &request, peer, 200, Some(*served));
    }
    let on_path = cpu(libc::RUSAGE_THREAD) - thread;
    collector.stop();
    let all = cpu(libc::RUSAGE_SELF) - process;
    println!(
        "per view: {:.0} ns on the request's path, {:.0} ns in all (the counter's thread and the write included)",
        on_path.as_nanos() as f64 / f64::from(VIEWS),
        all.as_nanos() as f64 / f64::from(VIEWS),
    );
}
