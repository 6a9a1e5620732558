//! Working a lead from the agency's e-mail (issue 26), through the real binary, a real SQLite file, the real SMTP
//! server and webhook receiver of the notification tests, and the CLI:
//!
//! - the link read out of the agency's e-mail: a GET shows the lead and changes nothing, the POST changes the status
//!   (history, `leads show`, the webhook's signed `lead.status` event), a second POST changes nothing and says so;
//! - refused: a tampered signature, another lead's id, another status, an expired link (settable clock), a flood of
//!   guesses (429); every page `noindex`, no `Referer`, not cached; a Spanish lead's page is English;
//! - the reminder: due at the right business minute across a weekend in the agency's time zone (settable clock),
//!   sent once, with the links, and never for a lead someone worked before it fell due.

use std::path::Path;

use serde_json::{Value, json};

use crate::analytics::set_day as write_clock;
use crate::common::process::{Http, Reply, TempDir, free_port};
use crate::notify::support::{Smtp, SmtpOptions, part, wait_until};
use crate::notify::{agency, cli, env, lead, plain_smtp, post, quote, serve, verify};

/// The links of an agency e-mail's plain-text part: (status label, path and query).
pub(crate) fn links_in(mail: &Value) -> Vec<(String, String)> {
    part(mail, "text/plain")
        .lines()
        .filter_map(|line| {
            let (label, link) = line.trim().split_once(": ")?;
            let at = link.find("/lead-status/")?;
            link.starts_with("http")
                .then(|| (label.to_string(), link[at..].to_string()))
        })
        .collect()
}

pub(crate) fn link_for(mail: &Value, label: &str) -> String {
    links_in(mail)
        .into_iter()
        .find(|(found, _)| found == label)
        .unwrap_or_else(|| panic!("a {label} link in {}", part(mail, "text/plain")))
        .1
}

pub(crate) fn get(port: u16, path: &str) -> Reply {
    Http::connect(port).unwrap().get(path, &[]).unwrap()
}

/// The page's button pressed: an empty form posted to it.
pub(crate) fn confirm(port: u16, path: &str) -> Reply {
    crate::claims::post_form(port, path, &[])
}

/// The lead's status, from `leads export`.
pub(crate) fn status_of(dir: &Path, database: &Path, id: i64) -> String {
    let (ok, text) = cli(dir, database, &["leads", "export", "--format", "json"], &[]);
    assert!(ok, "{text}");
    let rows: Value = serde_json::from_str(&text).unwrap();
    rows.as_array()
        .unwrap()
        .iter()
        .find(|row| row["id"] == id)
        .map(|row| row["status"].as_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("lead {id} in {text}"))
}

fn assert_private_page(reply: &Reply) {
    assert_eq!(reply.header("X-Robots-Tag"), Some("noindex, nofollow"));
    assert_eq!(reply.header("Referrer-Policy"), Some("no-referrer"));
    assert_eq!(reply.header("Cache-Control"), Some("no-store"));
    let text = reply.text();
    assert!(
        text.contains("<meta name=\"robots\" content=\"noindex, nofollow\">"),
        "{text}"
    );
    assert!(!text.contains("<script"), "no JavaScript: {text}");
}

#[test]
fn a_link_in_the_agency_e_mail_shows_on_get_changes_on_post_and_only_once() {
    let site = agency("status-links", "status-links", &[]);
    let id = lead(site.server.port, "maria@lopez.example", "links-1");
    let mails = site.smtp.wait_for_mails(1);
    let offered: Vec<String> = links_in(&mails[0])
        .into_iter()
        .map(|(label, _)| label)
        .collect();
    assert_eq!(offered, ["Contacted", "Quoted", "Won", "Lost", "Not a fit"]);
    // The HTML part carries the same links, as buttons.
    let contacted = link_for(&mails[0], "Contacted");
    assert!(part(&mails[0], "text/html").contains(&contacted.replace('&', "&amp;")));
    assert!(part(&mails[0], "text/plain").contains(&format!("https://www.example.com{contacted}")));
    // The secret is kept in the leads database (so the replica and backups carry it), not beside it, and never
    // printed.
    assert!(!site.dir.path().join("leads.db.link-key").exists());
    let key: String = rusqlite::Connection::open(&site.database)
        .unwrap()
        .query_row(
            "SELECT value FROM installation_keys WHERE name = 'status_links'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(key.len(), 64);
    assert!(
        !site.server.stdout_text().contains(key.trim())
            && !site.server.stderr_text().contains(key.trim())
    );

    // A GET (a mail scanner, a preview) shows the lead and a button, and changes nothing.
    let page = get(site.server.port, &contacted);
    assert_eq!(page.status, 200, "{}", page.text());
    assert_private_page(&page);
    let text = page.text();
    for shown in [
        "Mark as Contacted?",
        "Maria Lopez",
        "Quote request",
        "#",
        "New",
        "<button type=\"submit\">Mark as Contacted</button>",
    ] {
        assert!(text.contains(shown), "{shown:?} in {text}");
    }
    assert_eq!(status_of(site.dir.path(), &site.database, id), "new");

    // The POST makes the change, keeps it in the history and tells the webhook.
    let done = confirm(site.server.port, &contacted);
    assert_eq!(done.status, 200, "{}", done.text());
    assert_private_page(&done);
    assert!(
        done.text().contains("moved from New to Contacted"),
        "{}",
        done.text()
    );
    assert_eq!(status_of(site.dir.path(), &site.database, id), "contacted");
    let (ok, shown) = cli(
        site.dir.path(),
        &site.database,
        &["leads", "show", &id.to_string()],
        &[],
    );
    assert!(ok, "{shown}");
    assert!(shown.contains("status: contacted"), "{shown}");
    assert!(
        shown.contains("new -> contacted  by a link in the agency's e-mail"),
        "{shown}"
    );
    assert!(
        shown.contains("Maria Lopez") && shown.contains("Notifications"),
        "{shown}"
    );
    let events = wait_until("the webhook's lead.status event", || {
        let received = site.receiver.received();
        let events: Vec<_> = received
            .into_iter()
            .filter(|r| r.json()["event"] == "lead.status")
            .collect();
        (!events.is_empty()).then_some(events)
    });
    verify(&events[0]);
    let event = events[0].json();
    assert_eq!(event["lead_id"], id);
    assert_eq!(event["from"], "new");
    assert_eq!(event["to"], "contacted");
    assert_eq!(event["via"], "link");
    assert_eq!(event["lead"]["status"], "contacted");
    assert_eq!(
        event["delivery"].as_str(),
        Some(events[0].header("X-Truckins-Delivery"))
    );

    // The same link again, by POST or GET: nothing changes, and the page says when it was used.
    let again = confirm(site.server.port, &contacted);
    assert_eq!(again.status, 200);
    assert!(
        again.text().contains("This link was already used"),
        "{}",
        again.text()
    );
    assert!(
        get(site.server.port, &contacted)
            .text()
            .contains("This link was already used")
    );
    // Another status's link still works; then the lead is where it was put.
    let won = link_for(&mails[0], "Won");
    assert!(
        confirm(site.server.port, &won)
            .text()
            .contains("moved from Contacted to Won")
    );
    assert_eq!(status_of(site.dir.path(), &site.database, id), "won");
    let (_, shown) = cli(
        site.dir.path(),
        &site.database,
        &["leads", "show", &id.to_string()],
        &[],
    );
    assert!(shown.contains("contacted -> won"), "{shown}");

    // Refused, whatever is changed: the signature, the lead, the status; a link cut short.
    let other = lead(site.server.port, "other@lopez.example", "links-2");
    let last = contacted.chars().last().unwrap();
    let flipped = format!(
        "{}{}",
        &contacted[..contacted.len() - 1],
        if last == '0' { '1' } else { '0' }
    );
    let other_lead = contacted.replace(
        &format!("/lead-status/{id}/"),
        &format!("/lead-status/{other}/"),
    );
    let other_status = contacted.replace("/contacted?", "/lost?");
    let cut = contacted[..contacted.find("&sig=").unwrap()].to_string();
    for refused in [
        &flipped,
        &other_lead,
        &other_status,
        &cut,
        &"/lead-status/x/contacted".to_string(),
    ] {
        for reply in [
            get(site.server.port, refused),
            confirm(site.server.port, refused),
        ] {
            assert_eq!(reply.status, 404, "{refused}: {}", reply.text());
            assert_private_page(&reply);
            assert!(
                reply.text().contains("This link is not valid"),
                "{}",
                reply.text()
            );
        }
    }
    assert_eq!(status_of(site.dir.path(), &site.database, other), "new");

    // A Spanish lead's page is in English: the agency's staff read it.
    let mut spanish = quote("ana@lopez.example", "links-es");
    spanish["locale"] = json!("es");
    let reply = post(site.server.port, "/api/leads/quote", &spanish);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let mails = site.smtp.wait_for_mails(3);
    let spanish_mail = mails
        .iter()
        .find(|mail| {
            mail["headers"]["subject"]
                .as_str()
                .is_some_and(|s| s.starts_with("[ES]"))
        })
        .expect("the Spanish lead's e-mail");
    let page = get(site.server.port, &link_for(spanish_mail, "Quoted")).text();
    assert!(
        page.contains("<html lang=\"en\">") && page.contains("Mark as Quoted?"),
        "{page}"
    );
    drop(site.server);
}

#[test]
fn an_expired_link_is_gone_and_a_flood_of_guesses_is_refused() {
    let dir = TempDir::new("status-expired");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    write_clock(&clock, "2026-03-02T15:00:00Z");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let mut env = env(Some(&plain_smtp(smtp.port)), None);
    env.push(("TRUCKINS_TEST_CLOCK", clock.display().to_string()));
    env.push(("TRUCKINS_REMIND_AFTER_MINUTES", "0".to_string()));
    let server = serve(&database, "status-expired", &env, &[]);
    let id = lead(server.port, "maria@lopez.example", "expired-1");
    let mails = smtp.wait_for_mails(1);
    let lost = link_for(&mails[0], "Lost");
    // The 30th day: still good (a GET changes nothing); a second later: gone, and it says what to do instead.
    write_clock(&clock, "2026-04-01T15:00:00Z");
    assert_eq!(get(server.port, &lost).status, 200);
    write_clock(&clock, "2026-04-01T15:00:01Z");
    for reply in [get(server.port, &lost), confirm(server.port, &lost)] {
        assert_eq!(reply.status, 410, "{}", reply.text());
        assert!(
            reply.text().contains("This link has expired"),
            "{}",
            reply.text()
        );
        assert!(
            reply
                .text()
                .contains(&format!("truckins leads status {id}")),
            "{}",
            reply.text()
        );
    }
    assert_eq!(status_of(dir.path(), &database, id), "new");

    // Guesses from one address: refused as not valid, then, past the limit, refused as too many (even a good link).
    let mut answers = Vec::new();
    for guess in 0..70 {
        let path = format!("/lead-status/{id}/won?until=1900000000&sig={guess:032x}");
        answers.push(get(server.port, &path).status);
    }
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
    // 3 requests came before the guesses (2 for the expired link, 1 on its last day).
    assert_eq!(first_refused + 3, 60, "{answers:?}");
    let refused = get(server.port, &lost);
    assert_eq!(refused.status, 429);
    assert!(
        refused.text().contains("Too many tries"),
        "{}",
        refused.text()
    );
    drop(server);
}

/// The time of the reminders' last look, from `/healthz`.
fn reminders_checked_at(port: u16) -> Option<String> {
    let reply = Http::connect(port).ok()?.get("/healthz", &[]).ok()?;
    reply.json()["reminders_checked_at"]
        .as_str()
        .map(str::to_string)
}

/// Moves the clock and waits until the reminders looked at that moment.
fn look_at(clock: &Path, port: u16, time: &str) {
    write_clock(clock, time);
    wait_until(&format!("the reminders' look at {time}"), || {
        (reminders_checked_at(port).as_deref() == Some(time)).then_some(())
    });
}

fn reminders(database: &Path) -> Vec<(i64, String)> {
    crate::notify::support::rows(
        database,
        "SELECT lead_id, state FROM deliveries WHERE kind = 'reminder' ORDER BY id",
    )
}

#[test]
fn the_reminder_falls_due_at_the_right_business_minute_across_a_weekend_and_once() {
    let dir = TempDir::new("status-reminder");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    // Saturday 28 November 2026, 13:30 in Chicago (CST, UTC-6): the agency's Saturday hours end at 14:00.
    write_clock(&clock, "2026-11-28T19:30:00Z");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let mut env = env(Some(&plain_smtp(smtp.port)), None);
    env.push(("TRUCKINS_TEST_CLOCK", clock.display().to_string()));
    env.push(("TRUCKINS_TIME_ZONE", "America/Chicago".to_string()));
    let server = serve(&database, "status-reminder", &env, &[]);
    let waiting = lead(server.port, "maria@lopez.example", "remind-1");
    let worked = lead(server.port, "dana@lopez.example", "remind-2");
    smtp.wait_for_mails(2);
    let (ok, text) = cli(
        dir.path(),
        &database,
        &["leads", "status", &worked.to_string(), "contacted"],
        &env,
    );
    assert!(ok, "{text}");
    // 30 minutes on Saturday, none on Sunday (closed), 30 on Monday from 08:00: due Monday 08:30 CST.
    look_at(&clock, server.port, "2026-11-28T20:30:00Z");
    look_at(&clock, server.port, "2026-11-30T14:29:00Z");
    assert_eq!(reminders(&database), [], "not due a minute before");
    write_clock(&clock, "2026-11-30T14:30:00Z");
    let mails = smtp.wait_for_mails(3);
    let reminder = &mails[2];
    assert_eq!(
        reminder["headers"]["subject"],
        "Still waiting: Maria Lopez asked for a quote 43 hours ago"
    );
    assert_eq!(
        links_in(reminder).len(),
        5,
        "the same links: {}",
        part(reminder, "text/plain")
    );
    // The relay has it; the server records it as sent when the relay's answer reaches it.
    wait_until("the reminder recorded as sent", || {
        (reminders(&database) == [(waiting, "sent".to_string())]).then_some(())
    });
    // Once: later looks queue nothing more, and the lead worked before it fell due never gets one.
    look_at(&clock, server.port, "2026-11-30T16:00:00Z");
    look_at(&clock, server.port, "2026-12-01T16:00:00Z");
    assert_eq!(reminders(&database), [(waiting, "sent".to_string())]);
    assert_eq!(smtp.mails().len(), 3);
    drop(server);
}
