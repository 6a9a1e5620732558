//! The collector and its thread on a real database file: batches written within the interval without a stop, a new
//! salt each day, programs and robots.txt readers left out, and old days folded into daily totals without changing
//! the report.

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use hyper::header::{HeaderMap, HeaderValue};
use hyper::{Method, Uri};
use time::{Date, Month};

use crate::analytics::classify::Device;
use crate::analytics::collector::{Collector, Kind, lock};
use crate::analytics::report::{self, Range};
use crate::analytics::store::{self, Visit};
use crate::site::Served;
use crate::store::{DbPool, open};

const PHONE: &str =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

pub(super) fn database(name: &str) -> DbPool {
    let dir =
        std::env::temp_dir().join(format!("truckins-analytics-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    open(&PathBuf::from(&dir).join("leads.db"), 2).unwrap()
}

pub(super) fn headers(agent: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert("user-agent", HeaderValue::from_str(agent).unwrap());
    headers.insert("accept-language", HeaderValue::from_static("en"));
    headers.insert("host", HeaderValue::from_static("www.example.com"));
    headers
}

/// A collector that writes only when stopped (or when a buffer holds about 1 MiB), so that what it holds can be read.
fn holding(pool: &DbPool) -> Collector {
    Collector::with_interval(
        pool.clone(),
        Vec::new(),
        Vec::new(),
        Duration::from_secs(3600),
    )
    .unwrap()
}

/// The bytes waiting in all of the collector's buffers.
pub(super) fn buffered(collector: &Collector) -> usize {
    lock(&collector.pending.buffers)
        .iter()
        .map(|buffer| lock(buffer).bytes.len())
        .sum()
}

fn day(n: u8) -> Date {
    Date::from_calendar_date(2026, Month::March, n).unwrap()
}

/// (day, visitor, path, views) of every row, in order.
fn rows(pool: &DbPool) -> Vec<(String, i64, String, i64)> {
    let connection = pool.get().unwrap();
    let mut statement = connection
        .prepare("SELECT day, visitor, path, views FROM analytics_visits ORDER BY day, path")
        .unwrap();
    statement
        .query_map([], |row| row.try_into())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn analytics_batches_are_written_within_the_interval_with_a_new_salt_each_day() {
    let pool = database("interval");
    let collector = Collector::with_interval(
        pool.clone(),
        Vec::new(),
        Vec::new(),
        Duration::from_millis(50),
    )
    .unwrap();
    let ip: IpAddr = "203.0.113.5".parse().unwrap();

    // Days within the 90 kept row by row (older ones would be folded into daily totals at once).
    let today = crate::clock::today();
    let yesterday = today.previous_day().unwrap();
    let view = |day| {
        collector.note(
            Kind::View,
            day,
            ip,
            &headers(PHONE),
            "index.html",
            "utm_source=x",
        )
    };
    view(yesterday);
    view(yesterday);
    view(today);
    // Written by the thread on its own, without a stop: wait for it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while rows(&pool).len() < 2 {
        assert!(
            Instant::now() < deadline,
            "never written: {:?}",
            rows(&pool)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let written = rows(&pool);
    assert_eq!(written[0].0, yesterday.to_string());
    assert_eq!(
        written[0].3, 2,
        "two views of one page by one visitor on one day are one row"
    );
    assert_eq!(written[1].0, today.to_string());
    assert_ne!(
        written[0].1, written[1].1,
        "the same address and browser on the next day is another key"
    );
    drop(collector);
}

#[test]
fn analytics_programs_heads_and_robots_txt_readers_are_not_counted() {
    let pool = database("programs");
    let collector = Collector::start(pool.clone(), Vec::new(), Vec::new()).unwrap();
    let html = Some(Served::file("about/index.html"));
    let about: Uri = "/about".parse().unwrap();
    let answered = |method: &Method, uri: &Uri, headers: &HeaderMap, ip: &str, status: u16| {
        collector.answered(method, uri, headers, ip.parse().unwrap(), status, html);
    };
    answered(&Method::GET, &about, &headers(PHONE), "198.51.100.1", 200);
    answered(&Method::HEAD, &about, &headers(PHONE), "198.51.100.2", 200);
    answered(
        &Method::GET,
        &about,
        &headers(GOOGLEBOT),
        "198.51.100.3",
        200,
    );
    answered(&Method::GET, &about, &headers(PHONE), "198.51.100.4", 404);
    let mut prefetch = headers(PHONE);
    prefetch.insert("sec-purpose", HeaderValue::from_static("prefetch"));
    answered(&Method::GET, &about, &prefetch, "198.51.100.5", 200);
    let mut no_language = headers(PHONE);
    no_language.remove("accept-language");
    answered(&Method::GET, &about, &no_language, "198.51.100.6", 200);
    let robots: Uri = "/robots.txt".parse().unwrap();
    collector.answered(
        &Method::GET,
        &robots,
        &headers(PHONE),
        "198.51.100.7".parse().unwrap(),
        200,
        Some(Served::file("robots.txt")),
    );
    answered(&Method::GET, &about, &headers(PHONE), "198.51.100.7", 200);
    collector.stop();
    let written = rows(&pool);
    assert_eq!(written.len(), 1, "{written:?}");
    assert_eq!(written[0].3, 1);
}

#[test]
fn analytics_old_days_folded_into_daily_totals_leave_the_report_unchanged() {
    let pool = database("fold");
    let visit =
        |n: u8, visitor: i64, path: &str, referrer: &str, campaign: &str, device: Device| Visit {
            day: day(n),
            visitor,
            path: path.into(),
            referrer: referrer.into(),
            utm_source: String::new(),
            utm_medium: String::new(),
            utm_campaign: campaign.into(),
            device,
            entry: !referrer.is_empty() || path == "/",
        };
    let rows: HashMap<Visit, u64> = [
        (visit(2, 1, "/", "", "spring", Device::Phone), 2),
        (visit(2, 1, "/about", "", "", Device::Phone), 1),
        (visit(2, 2, "/about", "google.com", "", Device::Desktop), 3),
        (visit(3, 1, "/", "", "", Device::Phone), 1),
        (visit(4, 3, "/get-quote", "bing.com", "", Device::Tablet), 1),
    ]
    .into_iter()
    .collect();
    store::save(&pool, &rows, None).unwrap();
    let range = Range {
        since: day(1),
        until: day(5),
    };
    let before = serde_json::to_value(report::build(&pool, range).unwrap()).unwrap();
    assert_eq!(before["totals"]["visitors"], 4);
    assert_eq!(before["totals"]["pageviews"], 8);
    // Days 2 and 3 are older than 90 days on June 2: folded, and the rows gone.
    let june = Date::from_calendar_date(2026, Month::June, 2).unwrap();
    assert_eq!(store::fold_before(june), day(4));
    store::save(&pool, &HashMap::new(), Some(store::fold_before(june))).unwrap();
    let left: i64 = pool
        .get()
        .unwrap()
        .query_row("SELECT COUNT(*) FROM analytics_visits", [], |row| {
            row.get(0)
        })
        .unwrap();
    assert_eq!(left, 1, "only day 4's row is left");
    let after = serde_json::to_value(report::build(&pool, range).unwrap()).unwrap();
    assert_eq!(before, after);
}

#[test]
fn analytics_hostile_headers_and_addresses_end_up_short_and_printable() {
    let pool = database("hostile");
    let collector = Collector::start(pool.clone(), Vec::new(), Vec::new()).unwrap();
    let html = Some(Served::file("about/index.html"));
    let long = "A".repeat(10_000);
    let mut hostile = headers(PHONE);
    hostile.insert(
        "user-agent",
        HeaderValue::from_bytes(b"Mozilla/5.0 (Linux; Android 14; Mobile) \xff\xfe\x80").unwrap(),
    );
    hostile.insert(
        "referer",
        HeaderValue::from_str(&format!("https://{long}.example/\u{7f}"))
            .unwrap_or(HeaderValue::from_static("x")),
    );
    hostile.insert("host", HeaderValue::from_bytes(b"\xff:99999").unwrap());
    let targets = [
        format!("/about?utm_source=%00%1b%5B2J%e2%80%aeEvil&utm_campaign={long}"),
        "/about?utm_source=%zz%&utm_medium=%%%".to_string(),
        format!("/{}?{}", "a".repeat(3000), "utm_source=".repeat(500)),
    ];
    for target in &targets {
        let uri: Uri = target.parse().unwrap();
        collector.answered(
            &Method::GET,
            &uri,
            &hostile,
            "2001:db8::1".parse().unwrap(),
            200,
            html,
        );
    }
    collector.stop();
    let connection = pool.get().unwrap();
    let mut statement = connection
        .prepare("SELECT path, referrer, utm_source, utm_medium, utm_campaign, device FROM analytics_visits")
        .unwrap();
    let rows: Vec<[String; 6]> = statement
        .query_map([], |row| {
            Ok([
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
            ])
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    for row in &rows {
        for text in row {
            assert!(text.chars().count() <= 300, "{text}");
            assert!(
                !text.chars().any(crate::text::is_invisible_control),
                "{text:?}"
            );
        }
        assert_eq!(row[5], "phone");
        assert_eq!(row[1], "", "no plausible host: no referrer");
    }
    assert!(rows.iter().any(|row| row[2] == "[2jevil"), "{rows:?}");
}

/// Which of a thread's views share a slot of its recent records does not depend on the date: the same two pages
/// viewed back and forth are folded on every day of a year (with the day in the slot's hash they were not on about
/// one day in 64).
#[test]
fn analytics_repeats_are_folded_alike_on_every_day() {
    let pool = database("repeats-days");
    let collector = holding(&pool);
    let ip: IpAddr = "203.0.113.9".parse().unwrap();
    let first = Date::from_calendar_date(2026, Month::January, 1).unwrap();
    for offset in 0..365 {
        let day = first + time::Duration::days(offset);
        let note = |file: &str| collector.note(Kind::View, day, ip, &headers(PHONE), file, "");
        note("index.html");
        note("blog/index.html");
        let two_records = buffered(&collector);
        note("index.html");
        note("blog/index.html");
        assert_eq!(
            buffered(&collector),
            two_records,
            "{day}: both repeats folded"
        );
    }
    drop(collector);
}

#[test]
fn analytics_a_view_repeated_among_a_few_others_is_one_record_that_counts_every_time() {
    let pool = database("repeats");
    let collector = holding(&pool);
    let ip: IpAddr = "203.0.113.9".parse().unwrap();
    let today = crate::clock::today();
    let note = |file: &str, query: &str| {
        collector.note(Kind::View, today, ip, &headers(PHONE), file, query);
    };
    // 1,000 times back and forth between the home page and the blog, then 500 more reloads of the home page.
    for _ in 0..1_000 {
        note("index.html", "");
        note("blog/index.html", "");
    }
    for _ in 0..500 {
        note("index.html", "");
    }
    // Two records in this thread's buffer, however many views.
    assert!(
        buffered(&collector) < 2 * 200,
        "{} bytes for two records",
        buffered(&collector)
    );
    // More distinct views at once than the thread remembers (300 campaigns, three rounds): each still counted.
    for _ in 0..3 {
        for campaign in 0..300 {
            note("coverage/index.html", &format!("utm_campaign=c{campaign}"));
        }
    }
    collector.stop();
    let mut written: HashMap<String, i64> = HashMap::new();
    for (_, _, path, views) in rows(&pool) {
        *written.entry(path).or_default() += views;
    }
    assert_eq!(
        written,
        HashMap::from([
            ("/".to_string(), 1_500),
            ("/blog".to_string(), 1_000),
            ("/coverage".to_string(), 900)
        ])
    );
}
