//! Speed to lead and the funnel in `truckins report`, against the real binary: leads posted to the real server at
//! known moments (its `test_clock`), visits from three sources, then status history written into the file as the
//! status links and `truckins leads status` write it (`status_changes`), and the report in the agency's time zone
//! (`America/Chicago`) with the built-in hours of content/facts.toml (Monday to Friday 08:00-18:00, Saturday
//! 10:00-14:00, Sunday closed). Every figure is exact, in the JSON, the table, the HTML file and the e-mail.

use std::path::Path;

use serde_json::{Value, json};

use super::analytics::{nu_html_checker, set_day};
use super::common::process::{Http, Server, TempDir, truckins};
use super::common::valid_quote;

const BROWSER: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                       Chrome/126.0.0.0 Safari/537.36";
const ZONE: &str = "America/Chicago";

/// A page view by a browser at `ip` (through the trusted proxy), from `referer` if any.
fn visit(http: &mut Http, target: &str, ip: &str, referer: Option<&str>) {
    let mut headers = vec![
        ("User-Agent", BROWSER),
        ("X-Forwarded-For", ip),
        ("Accept", "text/html"),
        ("Accept-Language", "en-US"),
    ];
    if let Some(referer) = referer {
        headers.push(("Referer", referer));
    }
    let reply = http.send("GET", target, &headers, None).unwrap();
    assert_eq!(reply.status, 200, "{target}");
}

/// How a lead came: a tagged source and campaign, a referring site, or neither.
enum Came {
    Tagged(&'static str, &'static str),
    Referred(&'static str),
    Direct,
}

/// Posts a quote at the clock's moment `at` (UTC) from `ip`, with the e-mail `email` to find it by.
fn lead(http: &mut Http, clock: &Path, site: &str, at: &str, ip: &str, email: &str, came: Came) {
    set_day(clock, at);
    let mut quote = valid_quote();
    quote["email"] = json!(email);
    quote["page_url"] = json!(format!("{site}/get-quote"));
    quote["elapsed_ms"] = json!(5000);
    match came {
        Came::Tagged(source, campaign) => {
            quote["landing_page"] = json!(format!(
                "{site}/?utm_source={source}&utm_campaign={campaign}"
            ));
            quote["utm_source"] = json!(source);
            quote["utm_campaign"] = json!(campaign);
        }
        Came::Referred(referrer) => {
            quote["landing_page"] = json!(format!("{site}/about"));
            quote["referrer"] = json!(referrer);
        }
        Came::Direct => quote["landing_page"] = json!(format!("{site}/")),
    }
    let reply = http
        .send(
            "POST",
            "/api/leads/quote",
            &[
                ("Content-Type", "application/json"),
                ("User-Agent", BROWSER),
                ("X-Forwarded-For", ip),
            ],
            Some(quote.to_string().as_bytes()),
        )
        .unwrap();
    assert_eq!(reply.status, 201, "{}", reply.text());
}

/// The report of 2026-02-02 to 2026-02-08 (UTC days) in the agency's zone, with `args` and `env` added.
fn report(
    dir: &Path,
    database: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> std::process::Output {
    truckins(dir)
        .args(["report", "--database"])
        .arg(database)
        .args(["--since", "2026-02-02", "--until", "2026-02-08"])
        .args(args)
        .env("TRUCKINS_TIME_ZONE", ZONE)
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

fn stdout_of(output: std::process::Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Whether some line of `table` is made of `cells` (whatever the spaces between them).
fn has_row(table: &str, cells: &[&str]) -> bool {
    table
        .lines()
        .any(|line| line.split_whitespace().eq(cells.iter().copied()))
}

#[test]
fn report_speed_to_lead_and_funnel_are_exact_in_business_minutes() {
    let dir = TempDir::new("report-speed");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    // 2026-02-02 is a Monday; Chicago is at -06:00 all February.
    set_day(&clock, "2026-02-02T14:00:00Z");
    let mut server = Server::start_with_env(
        dir.path(),
        "report-speed",
        &["--trusted-proxy", "127.0.0.1"],
        &[
            ("TRUCKINS_DATABASE", database.to_str().unwrap()),
            ("TRUCKINS_TEST_CLOCK", clock.to_str().unwrap()),
        ],
    );
    let mut http = server.http();
    let site = format!("http://127.0.0.1:{}", server.port);

    // Visitors on Monday: two from the newsletter's spring campaign, three from Google, one directly.
    for ip in ["203.0.113.1", "203.0.113.2"] {
        visit(
            &mut http,
            "/?utm_source=newsletter&utm_campaign=spring",
            ip,
            None,
        );
    }
    for ip in ["203.0.113.3", "203.0.113.4", "203.0.113.5"] {
        visit(
            &mut http,
            "/about",
            ip,
            Some("https://www.google.com/search?q=hotshot+insurance"),
        );
    }
    visit(&mut http, "/", "203.0.113.6", None);

    let google = "https://www.google.com/search?q=hotshot+insurance";
    let spring = |source| Came::Tagged(source, "spring");
    // Before the range (Sunday 1 February, UTC): left out of every figure.
    lead(
        &mut http,
        &clock,
        &site,
        "2026-02-01T18:00:00Z",
        "198.51.100.10",
        "l0@example.com",
        spring("newsletter"),
    );
    // Monday 09:00 and 10:00 local.
    lead(
        &mut http,
        &clock,
        &site,
        "2026-02-02T15:00:00Z",
        "198.51.100.11",
        "l1@example.com",
        spring("newsletter"),
    );
    lead(
        &mut http,
        &clock,
        &site,
        "2026-02-02T16:00:00Z",
        "198.51.100.12",
        "l2@example.com",
        spring("newsletter"),
    );
    // Tuesday 17:00, an hour before closing.
    lead(
        &mut http,
        &clock,
        &site,
        "2026-02-03T23:00:00Z",
        "198.51.100.13",
        "l3@example.com",
        Came::Referred(google),
    );
    // Thursday 11:00, from a Facebook ad of the same campaign.
    lead(
        &mut http,
        &clock,
        &site,
        "2026-02-05T17:00:00Z",
        "198.51.100.17",
        "l7@example.com",
        spring("facebook"),
    );
    // Friday 15:00.
    lead(
        &mut http,
        &clock,
        &site,
        "2026-02-06T21:00:00Z",
        "198.51.100.14",
        "l4@example.com",
        Came::Referred(google),
    );
    // Saturday 21:00, after Saturday's 14:00 closing (Sunday 03:00 UTC).
    lead(
        &mut http,
        &clock,
        &site,
        "2026-02-08T03:00:00Z",
        "198.51.100.15",
        "l5@example.com",
        Came::Direct,
    );
    // Sunday 10:00, nobody has touched it.
    lead(
        &mut http,
        &clock,
        &site,
        "2026-02-08T16:00:00Z",
        "198.51.100.16",
        "l6@example.com",
        Came::Direct,
    );
    drop(http);
    // The graceful stop writes the visits' last batch.
    assert!(server.terminate().success());

    // The history, as the status links and the CLI write it: (lead, from, to, when in UTC), then the status now.
    let connection = rusqlite::Connection::open(&database).unwrap();
    let id = |email: &str| -> i64 {
        connection
            .query_row("SELECT id FROM leads WHERE email = ?1", [email], |row| {
                row.get(0)
            })
            .unwrap()
    };
    let changes = [
        ("l0", "new", "contacted", "2026-02-02T15:00:00Z"),
        // 3 minutes; won without a recorded quote (won counts as quoted).
        ("l1", "new", "contacted", "2026-02-02T15:03:00.000Z"),
        ("l1", "contacted", "won", "2026-02-04T16:00:00Z"),
        // 45 minutes.
        ("l2", "new", "contacted", "2026-02-02T16:45:00Z"),
        ("l2", "contacted", "quoted", "2026-02-03T15:00:00Z"),
        // Tuesday 17:00 to Wednesday 09:00: 60 + 60 = 120.
        ("l3", "new", "contacted", "2026-02-04T15:00:00Z"),
        ("l3", "contacted", "lost", "2026-02-05T15:00:00Z"),
        // Friday 15:00 to Monday 12:00: 180 + 240 (Saturday) + 240 = 660, over one business day (600).
        ("l4", "new", "not_a_fit", "2026-02-09T18:00:00Z"),
        // A later change from new stored first: the earliest counts. Saturday 21:00 to Monday 08:30: 30.
        ("l5", "new", "contacted", "2026-02-09T16:00:00Z"),
        ("l5", "new", "contacted", "2026-02-09T14:30:00Z"),
    ];
    for (lead, from, to, at) in changes {
        connection
            .execute(
                "INSERT INTO status_changes (lead_id, from_status, to_status, changed_at, via) \
                 VALUES (?1, ?2, ?3, ?4, 'cli')",
                rusqlite::params![id(&format!("{lead}@example.com")), from, to, at],
            )
            .unwrap();
    }
    // l7 became quoted before any history was kept: contacted and quoted in the funnel, no speed.
    for (lead, status) in [
        ("l0", "contacted"),
        ("l1", "won"),
        ("l2", "quoted"),
        ("l3", "lost"),
        ("l4", "not_a_fit"),
        ("l5", "contacted"),
        ("l7", "quoted"),
    ] {
        connection
            .execute(
                "UPDATE leads SET status = ?1 WHERE id = ?2",
                rusqlite::params![status, id(&format!("{lead}@example.com"))],
            )
            .unwrap();
    }
    drop(connection);

    let report_json: Value = serde_json::from_str(&stdout_of(report(
        dir.path(),
        &database,
        &["--format", "json"],
        &[],
    )))
    .unwrap();
    assert_eq!(report_json["totals"]["leads"], 7);
    let speed = &report_json["speed"];
    assert_eq!(
        (
            &speed["time_zone"],
            &speed["business_day_minutes"],
            &speed["business_hours"]
        ),
        (
            &json!(ZONE),
            &json!(600),
            &json!(
                "Monday 08:00-18:00, Tuesday 08:00-18:00, Wednesday 08:00-18:00, Thursday 08:00-18:00, \
                 Friday 08:00-18:00, Saturday 10:00-14:00, Sunday closed"
            )
        )
    );
    // Answered in 3, 30, 45, 120 and 660 business minutes; l6 untouched; l7 with no recorded time.
    assert_eq!(
        speed["overall"],
        json!({
            "leads": 7, "answered": 5, "untouched": 1, "median_minutes": 45.0,
            "within_5_minutes": 1, "within_60_minutes": 3, "within_1_business_day": 4,
            "share_within_5_minutes": 0.1429, "share_within_60_minutes": 0.4286,
            "share_within_1_business_day": 0.5714,
        })
    );
    assert_eq!(
        speed["sources"],
        json!([
            {"source": "direct", "leads": 2, "answered": 1, "untouched": 1, "median_minutes": 30.0,
             "within_5_minutes": 0, "within_60_minutes": 1, "within_1_business_day": 1,
             "share_within_5_minutes": 0.0, "share_within_60_minutes": 0.5, "share_within_1_business_day": 0.5},
            {"source": "google.com", "leads": 2, "answered": 2, "untouched": 0, "median_minutes": 390.0,
             "within_5_minutes": 0, "within_60_minutes": 0, "within_1_business_day": 1,
             "share_within_5_minutes": 0.0, "share_within_60_minutes": 0.0, "share_within_1_business_day": 0.5},
            {"source": "newsletter", "leads": 2, "answered": 2, "untouched": 0, "median_minutes": 24.0,
             "within_5_minutes": 1, "within_60_minutes": 2, "within_1_business_day": 2,
             "share_within_5_minutes": 0.5, "share_within_60_minutes": 1.0, "share_within_1_business_day": 1.0},
            {"source": "facebook", "leads": 1, "answered": 0, "untouched": 0, "median_minutes": null,
             "within_5_minutes": 0, "within_60_minutes": 0, "within_1_business_day": 0,
             "share_within_5_minutes": 0.0, "share_within_60_minutes": 0.0, "share_within_1_business_day": 0.0},
        ])
    );
    assert_eq!(
        report_json["funnel"],
        json!({
            "sources": [
                {"source": "google.com", "visitors": 3, "leads": 2, "contacted": 2, "quoted": 0, "won": 0},
                {"source": "newsletter", "visitors": 2, "leads": 2, "contacted": 2, "quoted": 2, "won": 1},
                {"source": "direct", "visitors": 1, "leads": 2, "contacted": 1, "quoted": 0, "won": 0},
                {"source": "facebook", "visitors": 0, "leads": 1, "contacted": 1, "quoted": 1, "won": 0},
            ],
            "campaigns": [
                {"campaign": "spring", "visitors": 2, "leads": 3, "contacted": 3, "quoted": 3, "won": 1},
            ],
        })
    );

    // The table says the same, in 80 columns.
    let table = stdout_of(report(dir.path(), &database, &[], &[]));
    for row in [
        &["all", "7", "5", "1", "45", "14.3%", "42.9%", "57.1%"][..],
        &["direct", "2", "1", "1", "30", "0.0%", "50.0%", "50.0%"],
        &["google.com", "2", "2", "0", "390", "0.0%", "0.0%", "50.0%"],
        &[
            "newsletter",
            "2",
            "2",
            "0",
            "24",
            "50.0%",
            "100.0%",
            "100.0%",
        ],
        &["facebook", "1", "0", "0", "-", "0.0%", "0.0%", "0.0%"],
        &["google.com", "3", "2", "2", "0", "0"],
        &["newsletter", "2", "2", "2", "2", "1"],
        &["spring", "2", "3", "3", "3", "1"],
    ] {
        assert!(has_row(&table, row), "{row:?} in\n{table}");
    }
    assert!(
        table.contains("(America/Chicago; a business day is 600 minutes)"),
        "{table}"
    );
    assert!(
        table.contains("Funnel by source") && table.contains("Funnel by campaign"),
        "{table}"
    );
    // The new sections (the totals' line above them is the report's older one).
    let speed_and_funnel = table
        .lines()
        .skip_while(|line| !line.starts_with("Speed to lead"))
        .take_while(|line| *line != "Devices");
    for line in speed_and_funnel {
        assert!(
            line.chars().count() <= 80,
            "wider than 80 columns: {line:?}"
        );
    }

    // The HTML file: the same figures, nothing fetched, valid.
    let file = dir.path().join("report.html");
    stdout_of(report(
        dir.path(),
        &database,
        &["--format", "html", "--output", file.to_str().unwrap()],
        &[],
    ));
    let html = std::fs::read_to_string(&file).unwrap();
    for figures in [
        "<td>All sources</td><td>7</td><td>5</td><td>1</td><td>45</td><td>14.3%</td><td>42.9%</td><td>57.1%</td>",
        "<td>direct</td><td>2</td><td>1</td><td>1</td><td>30</td><td>0.0%</td><td>50.0%</td><td>50.0%</td>",
        "<td>google.com</td><td>3</td><td>2</td><td>2</td><td>0</td><td>0</td>",
        "<td>spring</td><td>2</td><td>3</td><td>3</td><td>3</td><td>1</td>",
        "America/Chicago",
        "One business day is 600 minutes.",
    ] {
        assert!(html.contains(figures), "{figures} in the HTML report");
    }
    for external in ["http", "<script", "src=", "href=", "url(", "@import", "//"] {
        assert!(!html.contains(external), "{external} in the HTML report");
    }
    nu_html_checker(&file);

    // The e-mailed report carries them too (queued only: the server that would send it is stopped).
    stdout_of(report(
        dir.path(),
        &database,
        &["--email"],
        &[
            ("TRUCKINS_SMTP_URL", "smtp://127.0.0.1:2525?tls=none"),
            ("TRUCKINS_NOTIFY_TO", "owner@agency.example"),
            ("TRUCKINS_MAIL_FROM", "leads@agency.example"),
        ],
    ));
    let mail = crate::common::queued_report(&database);
    let (text, html) = (
        mail["text"].as_str().unwrap(),
        mail["html"].as_str().unwrap(),
    );
    assert!(
        has_row(
            text,
            &["all", "7", "5", "1", "45", "14.3%", "42.9%", "57.1%"]
        ),
        "{text}"
    );
    assert!(
        html.contains("<td>All sources</td><td>7</td><td>5</td><td>1</td><td>45</td>"),
        "{html}"
    );
    assert!(html.contains("<h2>Funnel by campaign</h2>"));
}

#[test]
fn report_refuses_a_time_zone_that_is_not_one() {
    let dir = TempDir::new("report-zone");
    let database = dir.path().join("leads.db");
    for zone in ["Mars/Olympus", "../../../etc/passwd", "/etc/localtime"] {
        let output = truckins(dir.path())
            .args(["report", "--database"])
            .arg(&database)
            .env("TRUCKINS_TIME_ZONE", zone)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{zone}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("truckins: invalid setting `time_zone`: "),
            "{stderr}"
        );
    }
}
