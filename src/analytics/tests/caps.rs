//! Counting under a flood and at the edges: revalidated views (304) count, the page is the file the site resolved,
//! memory and the database stay bounded (crawlers, rows, referrers and tags per day, bytes waiting) while a repeat
//! of a view already waiting is still counted, rows of a day already folded are not added twice, and the salts of
//! the days before yesterday are forgotten at each wake.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::time::Duration;

use hyper::header::HeaderValue;
use hyper::{Method, Uri};
use time::{Date, Month};

use super::counting::{buffered, database, headers};
use crate::analytics::classify::Device;
use crate::analytics::collector::{CHUNK, Collector, Kind};
use crate::analytics::counter::{Caps, OTHER};
use crate::analytics::report::{self, Range};
use crate::analytics::store::{self, Visit};
use crate::site::Served;
use crate::store::DbPool;

const PHONE: &str =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";

/// A collector that writes only when stopped (or when a buffer holds about 1 MiB).
fn capped(pool: &DbPool, caps: Caps) -> Collector {
    Collector::with_caps(
        pool.clone(),
        Vec::new(),
        Vec::new(),
        Duration::from_secs(3600),
        caps,
    )
    .unwrap()
}

fn ip(n: u32) -> IpAddr {
    IpAddr::V4(std::net::Ipv4Addr::from(0xC633_6400 + n))
}

/// (path, referrer, utm_source, visitor, views) of every row, in order.
fn rows(pool: &DbPool) -> Vec<(String, String, String, i64, i64)> {
    let connection = pool.get().unwrap();
    let mut statement = connection
        .prepare(
            "SELECT path, referrer, utm_source, visitor, views FROM analytics_visits \
             ORDER BY path, referrer, utm_source, visitor",
        )
        .unwrap();
    statement
        .query_map([], |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn views(rows: &[(String, String, String, i64, i64)]) -> i64 {
    rows.iter().map(|row| row.4).sum()
}

#[test]
fn analytics_a_revalidated_view_counts_as_the_page_the_site_resolved() {
    let pool = database("revalidated");
    let collector = Collector::start(pool.clone(), Vec::new(), Vec::new()).unwrap();
    let about = Some(Served::file("about/index.html"));
    let encoded: Uri = "/%61bout".parse().unwrap();
    let plain: Uri = "/about".parse().unwrap();
    // A first view, a repeat view answered 304, the same page by an encoded path, and the home page as /index.html.
    collector.answered(&Method::GET, &plain, &headers(PHONE), ip(1), 200, about);
    collector.answered(&Method::GET, &plain, &headers(PHONE), ip(1), 304, about);
    collector.answered(&Method::GET, &encoded, &headers(PHONE), ip(1), 200, about);
    let index: Uri = "/index.html".parse().unwrap();
    let home = Some(Served::file("index.html"));
    collector.answered(&Method::GET, &index, &headers(PHONE), ip(1), 304, home);
    // Not pages: an asset, a redirect or error (no file), a 304 to a HEAD.
    let asset = Some(Served::file("favicon.svg"));
    collector.answered(&Method::GET, &plain, &headers(PHONE), ip(2), 200, asset);
    collector.answered(&Method::GET, &plain, &headers(PHONE), ip(3), 301, None);
    collector.answered(&Method::HEAD, &plain, &headers(PHONE), ip(4), 304, about);
    collector.stop();
    let written = rows(&pool);
    assert_eq!(
        written
            .iter()
            .map(|row| (row.0.as_str(), row.4))
            .collect::<Vec<_>>(),
        [("/", 1), ("/about", 3)],
        "{written:?}"
    );
    assert_eq!(Served::page_path("index.html"), "/");
    assert_eq!(Served::page_path("blog/index.html"), "/blog");
    assert_eq!(Served::page_path("x.html"), "/x.html");
}

#[test]
fn analytics_referrers_and_tags_beyond_the_days_cap_count_as_other() {
    let pool = database("cap-values");
    let caps = Caps {
        values_per_day: 2,
        ..Caps::default()
    };
    let collector = capped(&pool, caps);
    let today = crate::clock::today();
    for n in 0..5 {
        let mut request = headers(PHONE);
        let referrer = format!("https://site{n}.example/page");
        request.insert("referer", HeaderValue::from_str(&referrer).unwrap());
        let query = format!("utm_source=source{n}");
        collector.note(Kind::View, today, ip(n), &request, "index.html", &query);
    }
    collector.stop();
    let written = rows(&pool);
    assert_eq!(views(&written), 5, "every view still counts: {written:?}");
    // Which two are kept depends on the order within the batch; two are, the other three are `(other)`.
    for (column, prefix) in [(1, "site"), (2, "source")] {
        let value = |row: &(String, String, String, i64, i64)| {
            if column == 1 {
                row.1.clone()
            } else {
                row.2.clone()
            }
        };
        let others: i64 = written
            .iter()
            .filter(|row| value(row) == OTHER)
            .map(|row| row.4)
            .sum();
        assert_eq!(others, 3, "{written:?}");
        let mut kept: Vec<String> = written
            .iter()
            .map(value)
            .filter(|value| value != OTHER)
            .collect();
        kept.sort();
        kept.dedup();
        assert_eq!(kept.len(), 2, "{written:?}");
        assert!(kept.iter().all(|value| value.starts_with(prefix)));
    }
}

#[test]
fn analytics_rows_beyond_the_days_cap_go_into_one_overflow_row() {
    let pool = database("cap-rows");
    let caps = Caps {
        rows_per_day: 3,
        ..Caps::default()
    };
    let collector = capped(&pool, caps);
    let today = crate::clock::today();
    for n in 0..10 {
        collector.note(Kind::View, today, ip(n), &headers(PHONE), "index.html", "");
    }
    collector.stop();
    let written = rows(&pool);
    assert_eq!(written.len(), 4, "three rows and the overflow: {written:?}");
    assert_eq!(views(&written), 10);
    let overflow = written.iter().find(|row| row.0 == OTHER).unwrap();
    assert_eq!((overflow.3, overflow.4), (0, 7), "{written:?}");
}

#[test]
fn analytics_robots_txt_readers_beyond_the_days_cap_are_not_remembered() {
    let pool = database("cap-crawlers");
    let caps = Caps {
        crawlers_per_day: 2,
        ..Caps::default()
    };
    let collector = capped(&pool, caps);
    let today = crate::clock::today();
    for n in 0..3 {
        collector.note(
            Kind::Robots,
            today,
            ip(n),
            &headers(PHONE),
            "robots.txt",
            "",
        );
    }
    for n in 0..3 {
        collector.note(Kind::View, today, ip(n), &headers(PHONE), "index.html", "");
    }
    collector.stop();
    let written = rows(&pool);
    assert_eq!(
        views(&written),
        1,
        "only the third reader, not remembered, is counted: {written:?}"
    );
}

#[test]
fn analytics_bytes_waiting_and_rows_held_in_memory_are_capped() {
    let pool = database("cap-bytes");
    let caps = Caps {
        pending_bytes: 2 * CHUNK,
        ..Caps::default()
    };
    let collector = capped(&pool, caps);
    let today = crate::clock::today();
    // About 150 bytes each: 3,000 are about 450 KiB, under the 1 MiB that wakes the thread early. Each from another
    // address, so that none is folded into an earlier one.
    let dropped = || collector.pending.dropped.load(Ordering::Relaxed);
    let mut last_kept = None;
    for n in 0..3_000 {
        collector.note(Kind::View, today, ip(n), &headers(PHONE), "index.html", "");
        if dropped() == 0 {
            last_kept = Some(n);
        }
    }
    let full = buffered(&collector);
    let dropped_when_full = dropped();
    assert!(
        full <= 3 * CHUNK,
        "{full} bytes waiting with a cap of {}",
        2 * CHUNK
    );
    assert!(dropped_when_full > 0);
    // The buffer is full, and the last view kept comes again five times (a reload): it needs no room, so it is
    // counted, not dropped.
    let last_kept = last_kept.expect("some views were kept");
    for _ in 0..5 {
        collector.note(
            Kind::View,
            today,
            ip(last_kept),
            &headers(PHONE),
            "index.html",
            "",
        );
    }
    assert_eq!((buffered(&collector), dropped()), (full, dropped_when_full));
    collector.stop();
    assert_eq!(views(&rows(&pool)), 3_000 - dropped_when_full as i64 + 5);

    // Rows held in memory (until the write) stop growing at their cap too.
    let pool = database("cap-row-bytes");
    let caps = Caps {
        row_bytes: 3 * 150,
        ..Caps::default()
    };
    let collector = capped(&pool, caps);
    for n in 0..10 {
        collector.note(Kind::View, today, ip(n), &headers(PHONE), "index.html", "");
    }
    collector.stop();
    assert_eq!(rows(&pool).len(), 3);
}

#[test]
fn analytics_rows_of_a_day_already_folded_are_not_added_twice() {
    let pool = database("late");
    let day = |n: u8| Date::from_calendar_date(2026, Month::March, n).unwrap();
    let visit = |visitor: i64| Visit {
        day: day(2),
        visitor,
        path: "/".into(),
        referrer: String::new(),
        utm_source: String::new(),
        utm_medium: String::new(),
        utm_campaign: String::new(),
        device: Device::Phone,
        entry: true,
    };
    let first: HashMap<Visit, u64> = [(visit(1), 1), (visit(2), 2)].into_iter().collect();
    assert_eq!(store::save(&pool, &first, Some(day(4))).unwrap(), 0);
    let range = Range {
        since: day(1),
        until: day(3),
    };
    let before = serde_json::to_value(report::build(&pool, range).unwrap()).unwrap();
    assert_eq!(before["totals"]["visitors"], 2);
    assert_eq!(before["totals"]["pageviews"], 3);
    // Late rows of day 2 (visitor 1 again, and a new one): left out, and said.
    let late: HashMap<Visit, u64> = [(visit(1), 1), (visit(3), 4)].into_iter().collect();
    assert_eq!(store::save(&pool, &late, Some(day(4))).unwrap(), 5);
    let after = serde_json::to_value(report::build(&pool, range).unwrap()).unwrap();
    assert_eq!(before, after);
    let connection = pool.get().unwrap();
    let left: i64 = connection
        .query_row("SELECT COUNT(*) FROM analytics_visits", [], |row| {
            row.get(0)
        })
        .unwrap();
    assert_eq!(left, 0);
}

#[test]
fn analytics_salts_of_the_days_before_yesterday_are_forgotten_at_each_wake() {
    let pool = database("salts");
    let today = Date::from_calendar_date(2026, Month::March, 10).unwrap();
    let mut counter = crate::analytics::counter::Counter::new(
        pool,
        Vec::new(),
        Default::default(),
        Default::default(),
        Caps::default(),
    );
    let days: Vec<i32> = (0..4).map(|back| today.to_julian_day() - back).collect();
    for day in &days {
        counter.salt_for_test(*day);
    }
    counter.forget_before(today);
    let mut kept = counter.salt_days();
    kept.sort();
    assert_eq!(kept, [days[1], days[0]], "yesterday's and today's only");
    counter.forget_before(today.next_day().unwrap().next_day().unwrap());
    assert!(
        counter.salt_days().is_empty(),
        "no traffic, still forgotten"
    );
}
