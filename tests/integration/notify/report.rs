//! The owner's report by e-mail: `truckins report --email`, run as its own process against the leads file while the
//! server runs, queues one delivery of kind `report`, which the server's worker sends to every `notify_to` (the
//! HTML report and the table as the text part); without the e-mail settings it fails and queues nothing.

use std::path::Path;

use serde_json::{Value, json};

use super::support::{
    Answer, Receiver, Smtp, SmtpOptions, part, read_only, rows, wait_for_delivery, wait_until,
};
use super::*;
use crate::common::process::{Http, TempDir, free_port};

const PHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) \
                     Version/17.5 Mobile/15E148 Safari/604.1";
const DESKTOP: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                       Chrome/126.0.0.0 Safari/537.36";

/// A page seen by a person's browser at `ip` (through the trusted proxy's `X-Forwarded-For`).
fn view(http: &mut Http, path: &str, ip: &str, agent: &str) {
    let headers = [
        ("User-Agent", agent),
        ("X-Forwarded-For", ip),
        ("Accept", "text/html"),
        ("Accept-Language", "en-US,en;q=0.9"),
    ];
    let reply = http.send("GET", path, &headers, None).expect("an answer");
    assert_eq!(reply.status, 200, "{path}");
}

/// Every delivery with all its columns, as text: what "unchanged" is compared on.
fn all_deliveries(database: &Path) -> Vec<Vec<String>> {
    let connection = read_only(database);
    let mut statement = connection
        .prepare("SELECT * FROM deliveries ORDER BY id")
        .unwrap();
    let columns = statement.column_count();
    statement
        .query_map([], |row| {
            (0..columns)
                .map(|i| {
                    row.get::<_, rusqlite::types::Value>(i)
                        .map(|value| format!("{value:?}"))
                })
                .collect()
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The report deliveries: (id, lead_id, channel, state).
fn reports(database: &Path) -> Vec<(i64, Option<i64>, String, String)> {
    rows(
        database,
        "SELECT id, lead_id, channel, state FROM deliveries WHERE kind = 'report' ORDER BY id",
    )
}

/// Page views written to the file so far (the server writes its counts every 10 s).
fn views_written(database: &Path) -> i64 {
    read_only(database)
        .query_row(
            "SELECT COALESCE(SUM(views), 0) FROM analytics_visits",
            [],
            |row| row.get(0),
        )
        .unwrap_or(0)
}

fn subject(mail: &Value) -> &str {
    mail["headers"]["subject"].as_str().unwrap_or("")
}

#[test]
fn notify_report_email_is_queued_by_the_cli_and_sent_by_the_running_server() {
    let dir = TempDir::new("notify-report");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    std::fs::write(&clock, "2026-11-18T12:00:00Z").unwrap();
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let mut env = env(Some(&plain_smtp(smtp.port)), None);
    env.push(("TRUCKINS_TEST_CLOCK", clock.to_str().unwrap().to_string()));
    let server = serve(
        &database,
        "serve",
        &env,
        &["--ip-limit", "1000", "--trusted-proxy", "127.0.0.1"],
    );

    // Two visitors, three views, then a quote: its own e-mail goes out as before.
    let mut http = server.http();
    view(&mut http, "/", "203.0.113.10", PHONE);
    view(&mut http, "/get-quote", "203.0.113.10", PHONE);
    view(&mut http, "/about", "198.51.100.20", DESKTOP);
    drop(http);
    let lead_id = lead(server.port, "maria@lopez.example", "report-1");
    wait_for_delivery(&database, lead_id, "email", "sent", |d| d.state == "sent");
    wait_until("the views written to the file", || {
        (views_written(&database) == 3).then_some(())
    });

    let (ok, out) = cli(
        dir.path(),
        &database,
        &["report", "--email", "--days", "7", "--until", "2026-11-22"],
        &env,
    );
    assert!(ok, "{out}");
    let queued = reports(&database);
    assert_eq!(queued.len(), 1, "one delivery of kind report: {queued:?}");
    let (id, lead, channel, _) = &queued[0];
    assert_eq!((lead, channel.as_str()), (&None, "email"));
    assert!(
        out.contains(&format!("delivery {id}"))
            && out.contains("owner@agency.example, desk@agency.example")
            && out.contains("within seconds"),
        "{out}"
    );

    // The running server's worker finds the row another process wrote and sends it.
    let mails = smtp.wait_for_mails(2);
    let reported: Vec<&Value> = mails
        .iter()
        .filter(|mail| subject(mail).starts_with("Website report"))
        .collect();
    assert_eq!(reported.len(), 1, "{mails:?}");
    let mail = reported[0];
    assert_eq!(
        subject(mail),
        "Website report: 2026-11-16 to 2026-11-22 \u{2014} 2 visitors, 1 lead"
    );
    assert_eq!(
        mail["rcpt_tos"],
        json!(["owner@agency.example", "desk@agency.example"])
    );
    assert_eq!(mail["mail_from"], "leads@agency.example");
    assert_eq!(
        mail["headers"]["from"],
        "Milepost Leads <leads@agency.example>"
    );
    let html = part(mail, "text/html");
    for expected in [
        "<h1>Site report</h1>",
        "2026-11-16 to 2026-11-22",
        "<dt>Visitors</dt><dd>2</dd>",
        "<dt>Page views</dt><dd>3</dd>",
        "<dt>Leads</dt><dd>1<small>",
        "/get-quote",
    ] {
        assert!(
            html.contains(expected),
            "{expected:?} in the HTML part:\n{html}"
        );
    }
    let text = part(mail, "text/plain");
    assert!(
        text.contains("Site report, 2026-11-16 to 2026-11-22")
            && text.contains("visitors 2   pageviews 3   leads 1"),
        "{text}"
    );

    wait_until("the report delivery marked sent", || {
        (reports(&database)[0].3 == "sent").then_some(())
    });
    let (ok, list) = cli(dir.path(), &database, &["outbox", "list"], &[]);
    assert!(ok, "{list}");
    let row = list
        .lines()
        .find(|line| line.split_whitespace().next() == Some(&id.to_string()))
        .unwrap_or_else(|| panic!("delivery {id} in:\n{list}"));
    let words: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&words[1..6], ["email", "report", "-", "sent", "1"], "{row}");
    // The lead's e-mail and the report, nothing else.
    assert_eq!(smtp.mails().len(), 2);

    // `outbox retry` sends the very report again, with the same Message-ID (a mail client shows it once).
    let (ok, out) = cli(
        dir.path(),
        &database,
        &["outbox", "retry", &id.to_string()],
        &[],
    );
    assert!(ok, "{out}");
    let again = &smtp.wait_for_mails(3)[2];
    assert_eq!(subject(again), subject(mail));
    assert_eq!(
        again["headers"]["message-id"],
        mail["headers"]["message-id"]
    );
    assert_eq!(part(again, "text/html"), html);
}

#[test]
fn notify_report_email_without_e_mail_settings_fails_and_queues_nothing() {
    let dir = TempDir::new("notify-report-off");
    let database = dir.path().join("leads.db");
    // A database with a lead and its (webhook) delivery: the table must be left exactly as it is.
    let receiver = Receiver::start(&[], Answer::Status(204));
    let mut server = serve(&database, "serve", &env(None, Some(&receiver.url())), &[]);
    let lead_id = lead(server.port, "maria@lopez.example", "report-off-1");
    wait_for_delivery(&database, lead_id, "webhook", "sent", |d| d.state == "sent");
    assert!(server.terminate().success());
    let before = all_deliveries(&database);
    assert_eq!(before.len(), 1);

    let (ok, out) = cli(
        dir.path(),
        &database,
        &["report", "--email", "--days", "7"],
        &env(None, None),
    );
    assert!(!ok, "{out}");
    for expected in [
        "e-mail is not configured",
        "smtp_url",
        "notify_to",
        "mail_from",
        "TRUCKINS_SMTP_URL",
        "nothing was queued",
    ] {
        assert!(out.contains(expected), "{expected:?} in:\n{out}");
    }
    assert_eq!(all_deliveries(&database), before);
}
