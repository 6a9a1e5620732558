//! What the agency gets of a quote's whole submission (issue 39), through the real binary, a real SQLite file, the
//! real SMTP server and webhook receiver of the notification tests, and the CLI:
//!
//! - the submission link read out of the agency's details e-mail (with the summary line) opens one page showing both
//!   schedules, the losses' total and the document, whose own link answers the bytes as uploaded, as a download; the
//!   webhook's `details` event carries the schedules, the document's name, size and hash, and the link;
//! - refused as the site's 404 (an unknown address): no signature, a changed one, another lead's or document's;
//! - the x-date: the e-mail for a policy expiring in 20 days comes once ("Re-quote ...: policy expires DATE", with
//!   the submission's link and the current insurer), never for a won lead; the webhook's `lead.xdate`; `truckins
//!   leads xdates` lists the coming ones.
//!
//! The schedules come with the details and the document through the upload, as a browser sends them; the agency's
//! news is held at the relay and the webhook meanwhile ([`hold`]), so that its e-mail is written once both are in.

use std::path::Path;

use serde_json::{Value, json};

use crate::analytics::set_day as write_clock;
use crate::common::process::{Http, Reply, TempDir, free_port};
use crate::notify::support::{Answer, Receiver, Smtp, SmtpOptions, part, wait_until};
use crate::notify::{Agency, agency, cli, env, plain_smtp, post, quote, serve};

/// The bytes of the document "uploaded": a small PDF.
const PDF: &[u8] =
    b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n\x00\xff";

/// A quote posted: its id and details token.
fn quoted(port: u16, email: &str, company: &str, submission: &str) -> (i64, String) {
    let mut body = quote(email, submission);
    body["company"] = json!(company);
    let reply = post(port, "/api/leads/quote", &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let body = reply.json();
    (
        body["id"].as_i64().unwrap(),
        body["details_token"].as_str().unwrap().to_string(),
    )
}

fn details(port: u16, token: &str, expiration: &str) {
    details_with(port, token, expiration, json!({}));
}

/// The details with `more` fields (the schedules) besides.
fn details_with(port: u16, token: &str, expiration: &str, more: Value) {
    let mut body = json!({
        "details_token": token,
        "radius": "regional",
        "current_insurer": "Progressive",
        "policy_expiration": expiration,
    });
    if let (Some(body), Some(more)) = (body.as_object_mut(), more.as_object()) {
        body.extend(more.clone());
    }
    let reply = post(port, "/api/leads/details", &body);
    assert_eq!(reply.status, 200, "{}", reply.text());
}

/// Two vehicles, a driver and two losses ($52,500 in all), as the details' JSON lists.
fn schedules() -> Value {
    json!({
        "vehicle_schedule": [
            {"year": 2019, "make": "Peterbilt", "model": "389", "vin": "1XPBD49X2KD000001", "stated_value": 95000,
             "garaging_zip": "76701"},
            {"year": 2021, "make": "Kenworth", "vin": "1XKYD49X9MJ000002"}
        ],
        "driver_schedule": [{"name": "Luis Ortiz", "date_of_birth": "1980-04-01", "license_state": "TX",
                             "years_experience": 12}],
        "loss_history": [
            {"date": "2024-03-15", "kind": "physical_damage", "amount": 12500, "description": "Hail"},
            {"date": "2023-01-02", "kind": "liability", "amount": 40000}
        ]
    })
}

/// The agency's news waits at the relay (451) and the webhook (503), retried, until [`release`].
fn hold(site: &Agency) {
    site.smtp.answer("data", "451 4.3.0 held by the test", -1);
    site.receiver.then(Answer::Status(503));
}

fn release(site: &Agency) {
    site.smtp.accept();
    site.receiver.then(Answer::Status(204));
}

fn get(port: u16, path: &str) -> Reply {
    Http::connect(port).unwrap().get(path, &[]).unwrap()
}

/// The path and query of the submission's link in an agency e-mail's text part.
fn submission_link(mail: &Value) -> String {
    let text = part(mail, "text/plain");
    let line = text
        .lines()
        .find(|line| line.starts_with("The whole submission, one printable page: "))
        .unwrap_or_else(|| panic!("the submission's link in {text}"));
    let at = line.find("/lead-submission/").expect("a submission link");
    line[at..].trim().to_string()
}

fn mail_with_subject<'a>(mails: &'a [Value], start: &str) -> &'a Value {
    mails
        .iter()
        .find(|mail| {
            mail["headers"]["subject"]
                .as_str()
                .is_some_and(|s| s.starts_with(start))
        })
        .unwrap_or_else(|| panic!("an e-mail whose subject starts with {start:?}"))
}

fn assert_private(reply: &Reply) {
    assert_eq!(reply.header("X-Robots-Tag"), Some("noindex, nofollow"));
    assert_eq!(reply.header("Referrer-Policy"), Some("no-referrer"));
    assert_eq!(reply.header("Cache-Control"), Some("no-store"));
}

#[test]
fn the_submission_link_of_the_details_e_mail_shows_everything_and_the_document_as_uploaded() {
    let site = agency("submission", "submission", &[]);
    let port = site.server.port;
    let (id, token) = quoted(
        port,
        "maria@lopez.example",
        "Lopez & Sons Hauling",
        "submission-1",
    );
    let (other, _) = quoted(port, "dana@other.example", "Other Freight", "submission-2");
    site.smtp.wait_for_mails(2);
    site.receiver.wait_for(2);
    hold(&site);
    // As a browser names `loss runs "2025".pdf` in its multipart header.
    let uploaded = super::documents::upload(
        port,
        &token,
        "loss runs %222025%22.pdf",
        "application/pdf",
        PDF,
    );
    assert_eq!(uploaded.status, 201, "{}", uploaded.text());
    details_with(port, &token, "2030-01-15", schedules());
    release(&site);

    let mails = site.smtp.wait_for_mails(3);
    let mail = mail_with_subject(&mails, "Quote details: Maria Lopez, Lopez & Sons Hauling");
    let text = part(mail, "text/plain");
    assert!(
        text.contains("Vehicles 2, drivers 1, losses 2 totalling $52,500, documents 1"),
        "{text}"
    );
    let link = submission_link(mail);
    assert!(
        text.contains(&format!("https://www.example.com{link}")),
        "{text}"
    );
    assert!(part(mail, "text/html").contains(&link.replace('&', "&amp;")));

    // The page: the whole submission, printable, private.
    let page = get(port, &link);
    assert_eq!(page.status, 200, "{}", page.text());
    assert_private(&page);
    let csp = page.header("Content-Security-Policy").unwrap();
    assert!(
        csp.starts_with("default-src 'none'; style-src 'sha256-"),
        "{csp}"
    );
    let html = page.text();
    for shown in [
        "Submission: Lopez &amp; Sons Hauling",
        "maria@lopez.example",
        "Progressive",
        "Vehicle schedule (2)",
        "1XPBD49X2KD000001",
        "1XKYD49X9MJ000002",
        "$95,000",
        "Driver schedule (1)",
        "Luis Ortiz",
        "Loss history (2)",
        "Total of 2 losses</th><td class=\"n\">$52,500</td>",
        "Documents (1)",
        "loss runs &quot;2025&quot;.pdf",
        "@media print",
    ] {
        assert!(html.contains(shown), "{shown:?} in {html}");
    }
    assert!(!html.contains("<script"), "{html}");

    // The document, by its own link on the page: the bytes as uploaded, as a download.
    let at = html
        .find("href=\"/lead-documents/")
        .expect("the document's link")
        + 6;
    let document = html[at..html[at..].find('"').unwrap() + at].replace("&amp;", "&");
    let file = get(port, &document);
    assert_eq!(file.status, 200, "{}", file.text());
    assert_eq!(file.body, PDF, "the bytes as uploaded");
    assert_eq!(file.header("Content-Type"), Some("application/pdf"));
    assert_eq!(
        file.header("Content-Disposition"),
        Some(
            "attachment; filename=\"loss runs _2025_.pdf\"; filename*=UTF-8''loss%20runs%20%222025%22.pdf"
        )
    );
    assert_eq!(file.header("X-Content-Type-Options"), Some("nosniff"));
    assert_private(&file);

    // The webhook's details event: the schedules, the document's name, size and hash (never its bytes), the link.
    let event = wait_until("the details webhook event", || {
        site.receiver
            .received()
            .into_iter()
            .map(|r| r.json())
            .find(|body| body["event"] == "details" && body["lead"]["id"] == id)
    });
    assert_eq!(
        event["lead"]["vehicle_schedule"][0]["vin"],
        "1XPBD49X2KD000001"
    );
    assert_eq!(event["lead"]["driver_schedule"][0]["name"], "Luis Ortiz");
    assert_eq!(event["lead"]["loss_history"][1]["amount"], 40000);
    let listed = &event["lead"]["documents"][0];
    assert_eq!(listed["file_name"], "loss runs \"2025\".pdf");
    assert_eq!(listed["size"], PDF.len());
    assert_eq!(listed["sha256"].as_str().unwrap().len(), 64);
    assert!(listed.get("bytes").is_none());
    assert!(
        event["lead"]["submission_url"]
            .as_str()
            .unwrap()
            .starts_with(&format!(
                "https://www.example.com/lead-submission/{id}?until="
            ))
    );

    // Refused as an unknown address is: no signature, a changed one, another lead's, another document's.
    let unknown = get(port, "/no-such-page");
    assert_eq!(unknown.status, 404);
    let flip = |path: &str| {
        let last = path.chars().last().unwrap();
        format!(
            "{}{}",
            &path[..path.len() - 1],
            if last == '0' { '1' } else { '0' }
        )
    };
    let unsigned = |path: &str| path[..path.find('?').unwrap()].to_string();
    for refused in [
        unsigned(&link),
        flip(&link),
        link.replace(
            &format!("/lead-submission/{id}?"),
            &format!("/lead-submission/{other}?"),
        ),
        unsigned(&document),
        flip(&document),
        document.replacen(
            &format!("/lead-documents/{id}/"),
            &format!("/lead-documents/{other}/"),
            1,
        ),
        {
            let (path, query) = document.split_once('?').unwrap();
            let (head, number) = path.rsplit_once('/').unwrap();
            format!("{head}/{}?{query}", number.parse::<i64>().unwrap() + 1)
        },
        // The document's signature on its page's address.
        format!(
            "{}?{}",
            unsigned(&link),
            document.split_once('?').unwrap().1
        ),
    ] {
        let reply = get(port, &refused);
        assert_eq!(reply.status, 404, "{refused}: {}", reply.text());
        assert_eq!(
            reply.text(),
            unknown.text(),
            "the site's 404 page for {refused}"
        );
        assert_private(&reply);
    }

    // Guesses from one address: the site's 404 each, then, past 60 tries in 10 minutes, 429 (even the good link).
    let answers: Vec<u16> = (0..60)
        .map(|guess| {
            get(
                port,
                &format!("/lead-submission/{id}?until=1900000000&sig={guess:032x}"),
            )
            .status
        })
        .collect();
    let first_refused = answers
        .iter()
        .position(|status| *status == 429)
        .expect("a 429");
    assert!(
        answers[..first_refused].iter().all(|status| *status == 404),
        "{answers:?}"
    );
    assert!(
        answers[first_refused..].iter().all(|status| *status == 429),
        "{answers:?}"
    );
    let refused = get(port, &link);
    assert_eq!(refused.status, 429);
    assert!(refused.header("Retry-After").is_some());
    assert!(
        refused.text().contains("Too many tries"),
        "{}",
        refused.text()
    );
    drop(site.server);
}

/// The time of the x-dates' last look, from `/healthz`.
fn xdates_checked_at(port: u16) -> Option<String> {
    let reply = Http::connect(port).ok()?.get("/healthz", &[]).ok()?;
    reply.json()["xdates_checked_at"]
        .as_str()
        .map(str::to_string)
}

/// Moves the clock and waits until the x-dates were looked at that moment.
fn look_at(clock: &Path, port: u16, time: &str) {
    write_clock(clock, time);
    wait_until(&format!("the x-dates' look at {time}"), || {
        (xdates_checked_at(port).as_deref() == Some(time)).then_some(())
    });
}

fn xdate_mails(smtp: &Smtp) -> Vec<Value> {
    smtp.mails()
        .into_iter()
        .filter(|mail| {
            mail["headers"]["subject"]
                .as_str()
                .is_some_and(|s| s.starts_with("Re-quote "))
        })
        .collect()
}

#[test]
fn an_x_date_comes_once_20_days_before_the_policy_expires_and_never_for_a_won_lead() {
    let dir = TempDir::new("xdates");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    // Saturday 28 November 2026, 09:00 in Chicago: the agency's day, whatever the hour.
    write_clock(&clock, "2026-11-28T15:00:00Z");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let receiver = Receiver::start(&[], Answer::Status(204));
    let mut env = env(Some(&plain_smtp(smtp.port)), Some(&receiver.url()));
    env.push(("TRUCKINS_TEST_CLOCK", clock.display().to_string()));
    env.push(("TRUCKINS_TIME_ZONE", "America/Chicago".to_string()));
    env.push(("TRUCKINS_REMIND_AFTER_MINUTES", "0".to_string()));
    let server = serve(&database, "xdates", &env, &[]);
    let port = server.port;
    // Won before its details came: never re-quoted.
    let (won, won_token) = quoted(port, "won@example.com", "Won Freight", "xdate-won");
    let (ok, text) = cli(
        dir.path(),
        &database,
        &["leads", "status", &won.to_string(), "won"],
        &env,
    );
    assert!(ok, "{text}");
    details(port, &won_token, "2026-12-18");
    // Expiring next summer: listed, not yet due.
    let (later, later_token) = quoted(port, "later@example.com", "Later Lines", "xdate-later");
    details(port, &later_token, "2027-06-01");
    // Expiring in 20 days: inside the 60 days, so due now.
    let (due, due_token) = quoted(
        port,
        "maria@lopez.example",
        "Lopez & Sons Hauling",
        "xdate-due",
    );
    details(port, &due_token, "2026-12-18");

    let mail = wait_until("the x-date e-mail", || xdate_mails(&smtp).pop());
    assert_eq!(
        mail["headers"]["subject"],
        "Re-quote Lopez & Sons Hauling: policy expires December 18, 2026"
    );
    let text = part(&mail, "text/plain");
    for shown in [
        "The policy of Lopez & Sons Hauling with Progressive expires on December 18, 2026 (in 20 days)",
        "maria@lopez.example",
        "Current insurer:",
    ] {
        assert!(text.contains(shown), "{shown:?} in {text}");
    }
    let link = submission_link(&mail);
    assert!(
        link.starts_with(&format!("/lead-submission/{due}?until=")),
        "{link}"
    );
    assert_eq!(get(port, &link).status, 200);
    let event = wait_until("the webhook's lead.xdate event", || {
        receiver
            .received()
            .into_iter()
            .map(|r| r.json())
            .find(|body| body["event"] == "lead.xdate")
    });
    assert_eq!(event["lead"]["id"], due);
    assert_eq!(event["policy_expiration"], "2026-12-18");

    // Once: later looks, up to the expiration, send nothing more; the won lead never gets one.
    look_at(&clock, port, "2026-11-29T15:00:00Z");
    look_at(&clock, port, "2026-12-18T15:00:00Z");
    assert_eq!(xdate_mails(&smtp).len(), 1);
    let events: Vec<Value> = receiver
        .received()
        .into_iter()
        .map(|r| r.json())
        .filter(|body| body["event"] == "lead.xdate")
        .collect();
    assert_eq!(events.len(), 1, "{events:?}");

    // `leads xdates` on the expiration's day: the coming ones, their due day and whether they went; the won lead is
    // not among them.
    let (ok, listed) = cli(
        dir.path(),
        &database,
        &["leads", "xdates", "--days", "365"],
        &env,
    );
    assert!(ok, "{listed}");
    let line = |id: i64| {
        listed
            .lines()
            .find(|line| line.trim_start().starts_with(&format!("{id} ")))
            .map(str::to_string)
    };
    let due_line = line(due).unwrap_or_else(|| panic!("lead {due} in {listed}"));
    for shown in [
        "Lopez & Sons Hauling",
        "Progressive",
        "2026-12-18",
        "2026-10-19",
        "sent",
    ] {
        assert!(due_line.contains(shown), "{shown:?} in {due_line}");
    }
    let later_line = line(later).unwrap_or_else(|| panic!("lead {later} in {listed}"));
    assert!(
        later_line.contains("2027-06-01")
            && later_line.contains("2027-04-02")
            && later_line.ends_with("no"),
        "{later_line}"
    );
    assert_eq!(line(won), None, "{listed}");

    // Its link works for 30 days from the e-mail, then says it has expired.
    write_clock(&clock, "2026-12-28T15:00:00Z");
    assert_eq!(get(port, &link).status, 200);
    write_clock(&clock, "2026-12-28T15:00:01Z");
    let expired = get(port, &link);
    assert_eq!(expired.status, 410, "{}", expired.text());
    assert!(
        expired.text().contains("This link has expired"),
        "{}",
        expired.text()
    );
    assert!(
        expired
            .text()
            .contains(&format!("truckins leads show {due}"))
    );
    drop(server);
}

#[test]
fn a_document_sent_after_the_details_reaches_the_agency_in_one_more_details_e_mail() {
    let dir = TempDir::new("document-news");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    write_clock(&clock, "2026-11-28T15:00:00Z");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let receiver = Receiver::start(&[], Answer::Status(204));
    let mut env = env(Some(&plain_smtp(smtp.port)), Some(&receiver.url()));
    // Under the tests' clock the news of a document waits half a second for the visit's other files, not a minute.
    env.push(("TRUCKINS_TEST_CLOCK", clock.display().to_string()));
    env.push(("TRUCKINS_XDATE_LEAD_DAYS", "0".to_string()));
    let server = serve(&database, "document-news", &env, &[]);
    let port = server.port;
    let (id, token) = quoted(port, "ana@ruiz.example", "Ruiz Trucking", "news-1");
    details(port, &token, "2027-05-01");
    let mails = smtp.wait_for_mails(2);
    let first = mail_with_subject(&mails, "Quote details: ");
    assert!(part(first, "text/plain").contains("documents 0"));
    receiver.wait_for(2);

    // The loss runs come a while later, two files of one visit: while the agency's relay and webhook hold its news
    // (so that nothing depends on how fast the two arrive), both land on one message waiting to be sent.
    smtp.answer("data", "451 4.3.0 held by the test", -1);
    receiver.then(Answer::Status(503));
    for name in ["runs-2024.pdf", "runs-2025.pdf"] {
        let uploaded = super::documents::upload(port, &token, name, "application/pdf", PDF);
        assert_eq!(uploaded.status, 201, "{}", uploaded.text());
    }
    let db = rusqlite::Connection::open(&database).unwrap();
    let details_news: i64 = db
        .query_row(
            "SELECT count(*) FROM deliveries WHERE kind = 'details' AND lead_id = ?1",
            [id],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(
        details_news, 4,
        "the details' e-mail and webhook, then one of each for both files"
    );
    smtp.accept();
    receiver.then(Answer::Status(204));
    let mail = wait_until("the documents' details e-mail", || {
        smtp.mails().into_iter().find(|mail| {
            let subject = mail["headers"]["subject"].as_str().unwrap_or("");
            subject.starts_with("Quote details: ")
                && part(mail, "text/plain").contains("documents 2")
        })
    });
    assert!(part(&mail, "text/plain").contains("/lead-submission/"));
    let event = wait_until("the documents' details webhook event", || {
        receiver
            .received()
            .iter()
            .filter(|r| matches!(r.answer, Answer::Status(204)))
            .map(|r| r.json())
            .find(|body| {
                body["event"] == "details"
                    && body["lead"]["documents"].as_array().map(Vec::len) == Some(2)
            })
    });
    assert_eq!(event["lead"]["documents"][1]["file_name"], "runs-2025.pdf");
    drop(server);
}
