//! Visit counts and `truckins report`, against the real binary: the site's pages are answered, and counted, by its
//! own server. Views from phones, desktops and programs over two days (moved with the `test_clock` setting), leads
//! from some of those visits, then: the report's numbers are exact, programs and HEADs are absent, the salt changes
//! between days, no visitor's IP address or user agent is in the database's files, and the HTML report is valid and
//! fetches nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use super::common::process::{Http, Reply, Server, TempDir, succeeded, truckins};
use super::common::valid_quote;

const PHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) \
                     Version/17.5 Mobile/15E148 Safari/604.1";
const DESKTOP: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                       Chrome/126.0.0.0 Safari/537.36";
/// Only visitor C browses with it, and C sends no form: it must not be found anywhere in the database.
const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const A: &str = "203.0.113.10";
const B: &str = "198.51.100.20";
const C: &str = "192.0.2.30";
const D: &str = "198.51.100.40";
const CRAWLER: &str = "203.0.113.99";
const DISGUISED: &str = "203.0.113.77";

/// One request as a browser (or a program) at `ip` sends it, through the trusted proxy's `X-Forwarded-For`.
fn request(
    http: &mut Http,
    method: &str,
    target: &str,
    ip: &str,
    agent: &str,
    extra: &[(&str, &str)],
) -> Reply {
    let mut headers = vec![
        ("User-Agent", agent),
        ("X-Forwarded-For", ip),
        ("Accept", "text/html"),
    ];
    headers.extend_from_slice(extra);
    http.send(method, target, &headers, None)
        .expect("an answer")
}

fn page(http: &mut Http, target: &str, ip: &str, agent: &str, referer: Option<&str>) -> Reply {
    let mut extra = vec![("Accept-Language", "en-US,en;q=0.9")];
    if let Some(referer) = referer {
        extra.push(("Referer", referer));
    }
    let reply = request(http, "GET", target, ip, agent, &extra);
    assert_eq!(reply.status, 200, "{target}");
    reply
}

/// Moves the server's test clock: the file is replaced whole (written beside it, then renamed over it), so the
/// server never reads a half-written time.
pub(super) fn set_day(clock: &Path, time: &str) {
    let partial = sibling(clock, ".partial");
    std::fs::write(&partial, time).unwrap();
    std::fs::rename(&partial, clock).unwrap();
}

fn post(http: &mut Http, form: &str, ip: &str, agent: &str, body: &Value) {
    let reply = http
        .send(
            "POST",
            &format!("/api/leads/{form}"),
            &[
                ("Content-Type", "application/json"),
                ("User-Agent", agent),
                ("X-Forwarded-For", ip),
            ],
            Some(body.to_string().as_bytes()),
        )
        .unwrap();
    assert_eq!(reply.status, 201, "{}", reply.text());
}

/// The report of the test's day, Monday 2 March 2026, with `args`.
fn report_of_the_day(dir: &Path, database: &Path, args: &[&str]) -> String {
    let output = succeeded(
        truckins(dir)
            .args(["report", "--database"])
            .arg(database)
            .args(["--since", "2026-03-02", "--until", "2026-03-03"])
            .args(args),
    );
    String::from_utf8(output.stdout).unwrap()
}

fn row<'a>(rows: &'a Value, key: &str, name: &str) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|row| row[key] == name)
        .unwrap_or_else(|| panic!("no {key} {name} in {rows}"))
}

#[test]
fn analytics_views_over_two_days_and_their_leads_make_an_exact_report() {
    let dir = TempDir::new("analytics");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    set_day(&clock, "2026-03-02T12:00:00Z");
    let mut server = Server::start_with_env(
        dir.path(),
        "analytics",
        &["--trusted-proxy", "127.0.0.1"],
        &[
            ("TRUCKINS_DATABASE", database.to_str().unwrap()),
            ("TRUCKINS_TEST_CLOCK", clock.to_str().unwrap()),
        ],
    );
    let mut http = server.http();
    let site = format!("http://127.0.0.1:{}", server.port);
    let landing_a = format!("{site}/?utm_source=Newsletter&utm_medium=email&utm_campaign=spring");

    // Day 1. A (phone) arrives from a newsletter and clicks on to the quote page; B (desktop) from Google, twice
    // on one page; C (another desktop) directly.
    page(
        &mut http,
        "/?utm_source=Newsletter&utm_medium=email&utm_campaign=spring",
        A,
        PHONE,
        None,
    );
    page(&mut http, "/get-quote", A, PHONE, Some(&format!("{site}/")));
    page(
        &mut http,
        "/about",
        B,
        DESKTOP,
        Some("https://www.google.com/search?q=dump+truck+insurance"),
    );
    page(
        &mut http,
        "/about",
        B,
        DESKTOP,
        Some("https://www.google.com/search?q=dump+truck+insurance"),
    );
    page(&mut http, "/", C, FIREFOX, None);
    // Not counted: a crawler, a script, a HEAD, a prefetch, a browser-like agent that read robots.txt, an error
    // page, a file that is not a page.
    page(&mut http, "/", CRAWLER, GOOGLEBOT, None);
    page(
        &mut http,
        "/about",
        CRAWLER,
        GOOGLEBOT,
        Some("https://www.google.com/"),
    );
    assert_eq!(
        request(&mut http, "GET", "/", CRAWLER, "curl/8.5.0", &[]).status,
        200
    );
    assert_eq!(
        request(
            &mut http,
            "HEAD",
            "/about",
            A,
            PHONE,
            &[("Accept-Language", "en")]
        )
        .status,
        200
    );
    page_with(
        &mut http,
        "/about",
        A,
        PHONE,
        &[("Accept-Language", "en"), ("Sec-Purpose", "prefetch")],
    );
    assert_eq!(
        request(&mut http, "GET", "/robots.txt", DISGUISED, DESKTOP, &[]).status,
        200
    );
    page(&mut http, "/", DISGUISED, DESKTOP, None);
    let missing = request(
        &mut http,
        "GET",
        "/no-such-page",
        C,
        FIREFOX,
        &[("Accept-Language", "en")],
    );
    assert_eq!(missing.status, 404);
    request(
        &mut http,
        "GET",
        "/sitemap.xml",
        C,
        FIREFOX,
        &[("Accept-Language", "en")],
    );

    // Day 2. A again, same address and browser, directly; D (phone) from a Facebook ad; then three leads.
    set_day(&clock, "2026-03-03T09:00:00Z");
    page(&mut http, "/get-quote", A, PHONE, None);
    page(
        &mut http,
        "/products/dump-truck-insurance?utm_source=facebook&utm_campaign=spring",
        D,
        PHONE,
        Some("https://m.facebook.com/"),
    );
    let mut quote_a = valid_quote();
    quote_a["landing_page"] = json!(landing_a);
    quote_a["utm_source"] = json!("Newsletter");
    quote_a["utm_medium"] = json!("email");
    quote_a["utm_campaign"] = json!("spring");
    quote_a["page_url"] = json!(format!("{site}/get-quote"));
    quote_a["elapsed_ms"] = json!(5000);
    post(&mut http, "quote", A, PHONE, &quote_a);
    let mut quote_b = valid_quote();
    quote_b["email"] = json!("b@example.com");
    quote_b["landing_page"] = json!(format!("{site}/about"));
    quote_b["referrer"] = json!("https://www.google.com/search?q=dump+truck+insurance");
    quote_b["page_url"] = json!(format!("{site}/get-quote"));
    quote_b["elapsed_ms"] = json!(5000);
    post(&mut http, "quote", B, DESKTOP, &quote_b);
    let contact_d = json!({
        "name": "Luis Ortega",
        "email": "luis@example.com",
        "subject": "Certificate of insurance",
        "message": "Please send a certificate of insurance for my new shipper.",
        "landing_page": format!("{site}/products/dump-truck-insurance?utm_source=facebook&utm_campaign=spring"),
        "utm_source": "facebook",
        "utm_campaign": "spring",
        "referrer": "https://m.facebook.com/",
        "page_url": format!("{site}/contact"),
        "elapsed_ms": 5000,
    });
    post(&mut http, "contact", D, PHONE, &contact_d);
    drop(http);

    // The graceful stop writes the last batch.
    assert!(server.terminate().success());

    let text = report_of_the_day(dir.path(), &database, &["--format", "json"]);
    let report: Value = serde_json::from_str(&text).unwrap();
    let mut names: Vec<&String> = report.as_object().unwrap().keys().collect();
    names.sort();
    assert_eq!(
        names,
        [
            "campaigns",
            "days",
            "devices",
            "funnel",
            "pages",
            "sources",
            "speed",
            "totals"
        ]
    );
    let totals = &report["totals"];
    assert_eq!(
        (
            totals["visitors"].as_i64(),
            totals["pageviews"].as_i64(),
            totals["leads"].as_i64()
        ),
        (Some(5), Some(7), Some(3)),
        "A on two days is two visitors, B C D one each; programs, the HEAD, the prefetch and errors are absent: {totals}"
    );
    assert_eq!(
        totals["leads_by_form"],
        json!({"change": 0, "claim": 0, "coi": 0, "contact": 1, "quote": 2})
    );
    assert_eq!(totals["conversion_rate"], json!(0.6));

    let pages = &report["pages"];
    assert_eq!(pages.as_array().unwrap().len(), 4, "{pages}");
    let expect_page = |path: &str, pageviews: i64, visitors: i64, leads: i64| {
        assert_eq!(
            row(pages, "path", path),
            &json!({"path": path, "pageviews": pageviews, "visitors": visitors, "leads": leads}),
        );
    };
    expect_page("/", 2, 2, 1);
    expect_page("/about", 2, 1, 1);
    expect_page("/get-quote", 2, 2, 0);
    expect_page("/products/dump-truck-insurance", 1, 1, 1);

    let sources = &report["sources"];
    assert_eq!(sources.as_array().unwrap().len(), 4, "{sources}");
    let expect_source = |source: &str, visitors: i64, leads: i64, rate: Value| {
        assert_eq!(
            row(sources, "source", source),
            &json!({"source": source, "visitors": visitors, "leads": leads, "conversion_rate": rate}),
        );
    };
    expect_source("newsletter", 1, 1, json!(1.0));
    expect_source("google.com", 1, 1, json!(1.0));
    expect_source("facebook", 1, 1, json!(1.0));
    expect_source("direct", 2, 0, json!(0.0));
    assert_eq!(
        report["campaigns"],
        json!([{"campaign": "spring", "visitors": 2, "leads": 2, "conversion_rate": 1.0}])
    );
    assert_eq!(
        report["devices"],
        json!([
            {"device": "phone", "visitors": 3, "pageviews": 4, "leads": 2},
            {"device": "tablet", "visitors": 0, "pageviews": 0, "leads": 0},
            {"device": "desktop", "visitors": 2, "pageviews": 3, "leads": 1},
        ])
    );
    assert_eq!(
        report["days"],
        json!([
            {"day": "2026-03-02", "visitors": 3, "pageviews": 5, "leads": 0},
            {"day": "2026-03-03", "visitors": 2, "pageviews": 2, "leads": 3},
        ])
    );

    // The salt changed between the days: A's two days have two keys, each the same on all of its day's rows.
    let connection = rusqlite::Connection::open(&database).unwrap();
    let keys_of_a: Vec<(String, i64)> = connection
        .prepare("SELECT DISTINCT day, visitor FROM analytics_visits WHERE device = 'phone' AND path = '/get-quote' ORDER BY day")
        .unwrap()
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(keys_of_a.len(), 2, "{keys_of_a:?}");
    assert_ne!(keys_of_a[0].1, keys_of_a[1].1, "a new salt each day");
    drop(connection);

    // Nothing of the visitors who sent no form is in the files: not their addresses (as text or as bytes), not
    // their user agents.
    let mut bytes = Vec::new();
    for suffix in ["", "-wal", "-shm"] {
        bytes.extend(std::fs::read(sibling(&database, suffix)).unwrap_or_default());
    }
    let contains = |needle: &[u8]| bytes.windows(needle.len()).any(|window| window == needle);
    for ip in [C, CRAWLER, DISGUISED] {
        let address: std::net::Ipv4Addr = ip.parse().unwrap();
        assert!(!contains(ip.as_bytes()), "{ip}");
        assert!(!contains(&address.octets()), "{ip} as 4 bytes");
        assert!(
            !contains(&address.to_ipv6_mapped().octets()),
            "{ip} as 16 bytes"
        );
    }
    for agent in [FIREFOX, GOOGLEBOT, "Firefox/128.0", "Googlebot"] {
        assert!(!contains(agent.as_bytes()), "{agent}");
    }

    // The HTML report: one file, nothing fetched, valid.
    let file = dir.path().join("report.html");
    report_of_the_day(
        dir.path(),
        &database,
        &["--format", "html", "--output", file.to_str().unwrap()],
    );
    let html = std::fs::read_to_string(&file).unwrap();
    for external in ["http", "<script", "src=", "href=", "url(", "@import", "//"] {
        assert!(!html.contains(external), "{external} in the HTML report");
    }
    assert!(html.contains("<svg") && html.contains("google.com") && html.contains("/get-quote"));
    nu_html_checker(&file);

    // The table names the same figures.
    let table = report_of_the_day(dir.path(), &database, &[]);
    assert!(
        table.contains(
            "visitors 5   pageviews 7   leads 3 (change 0, claim 0, coi 0, contact 1, quote 2)   conversion 60.0%"
        ),
        "{table}"
    );
    // Without --until, the report ends yesterday (complete days): on day 2 it ends with day 1.
    let output = truckins(dir.path())
        .args(["report", "--database"])
        .arg(&database)
        .args(["--format", "json"])
        .env("TRUCKINS_TEST_CLOCK", &clock)
        .output()
        .unwrap();
    assert!(output.status.success());
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (&report["totals"]["since"], &report["totals"]["until"]),
        (&json!("2026-02-03"), &json!("2026-03-02"))
    );
    assert_eq!(report["totals"]["pageviews"], 5);
}

/// A repeat view answered 304 (the browser's copy is current) counts like the first, and a page opened by another
/// path to the same file (`/%61bout`, `/index.html`) counts under the page's own path.
#[test]
fn analytics_revalidated_views_and_other_paths_to_a_page_count_as_that_page() {
    let dir = TempDir::new("analytics-304");
    let database = dir.path().join("leads.db");
    let mut server = Server::start_with_env(
        dir.path(),
        "analytics-304",
        &["--trusted-proxy", "127.0.0.1"],
        &[("TRUCKINS_DATABASE", database.to_str().unwrap())],
    );
    let mut http = server.http();
    let first = page(&mut http, "/about", A, PHONE, None);
    let etag = first
        .header("etag")
        .expect("pages carry an ETag")
        .to_string();
    let again = request(
        &mut http,
        "GET",
        "/about",
        A,
        PHONE,
        &[("Accept-Language", "en"), ("If-None-Match", &etag)],
    );
    assert_eq!(again.status, 304);
    page(&mut http, "/%61bout", B, DESKTOP, None);
    page(&mut http, "/index.html", B, DESKTOP, None);
    drop(http);
    assert!(server.terminate().success());

    let connection = rusqlite::Connection::open(&database).unwrap();
    let views: Vec<(String, i64)> = connection
        .prepare("SELECT path, SUM(views) FROM analytics_visits GROUP BY path ORDER BY path")
        .unwrap()
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        views,
        [("/".to_string(), 1), ("/about".to_string(), 3)],
        "the 304 counted, and the paths as the site resolved them"
    );
}

fn page_with(http: &mut Http, target: &str, ip: &str, agent: &str, extra: &[(&str, &str)]) {
    assert_eq!(request(http, "GET", target, ip, agent, extra).status, 200);
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Runs the Nu Html Checker on `file` as `tests/run.sh` does (errors only), failing the test on any message.
pub(super) fn nu_html_checker(file: &Path) {
    let jar =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("web/node_modules/vnu-jar/build/dist/vnu.jar");
    assert!(
        jar.is_file(),
        "the Nu Html Checker is installed with the web app's packages: {}",
        jar.display()
    );
    let output = Command::new("java")
        .args(["-jar"])
        .arg(&jar)
        .args(["--errors-only", "--format", "gnu"])
        .arg(file)
        .output()
        .expect("java runs (tests/run.sh installs a Java runtime)");
    let messages = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success() && messages.trim().is_empty(),
        "{messages}"
    );
}
