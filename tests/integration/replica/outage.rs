//! The store down in the middle of a flood, then back while the flood goes on, then the machine lost: acknowledged
//! means off the machine all the way through. The agency's relay is a real SMTP server (aiosmtpd) that records when it
//! took each message; the replica is the SFTP server, stopped and started again on its port.
//!
//! - Every lead whose request began after the store went down is acknowledged only once the relay took its e-mail
//!   (the relay's time stamp before the answer's), none unconfirmed.
//! - The owner gets one e-mail saying the off-site copy is behind (`replica_alert_after`), and one when it has caught
//!   up; it catches up within 30 s of the store's return while the leads keep coming.
//! - The machine lost after that and restored from the store alone: every acknowledged lead is back under its id,
//!   and a status link e-mailed before the outage works on the restored server.

use std::collections::HashMap;
use std::time::{Instant, UNIX_EPOCH};

use serde_json::Value;

use super::harness::{self, Setup, Stack, health, wait_until};
use super::{CLIENTS, assert_none_lost, kill_mid_flood, restore};
use crate::common::process::free_port;
use crate::notify::support::{Smtp, SmtpOptions, part};

/// Seconds a lead waits at most; the default.
const WAIT: &str = "5";
/// Seconds behind before the owner is told: short, so the drill sees it.
const ALERT_AFTER: &str = "2";

/// The lead a mail to the agency is about, from its row "Lead:           #ID (quote form), received ...".
fn lead_of(mail: &Value) -> Option<i64> {
    let text = part(mail, "text/plain");
    let number = text
        .lines()
        .find_map(|line| line.strip_prefix("Lead:"))?
        .trim_start()
        .strip_prefix('#')?;
    let digits: String = number.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// When the relay took each lead's first e-mail (seconds since the epoch).
fn taken_at(smtp: &Smtp) -> HashMap<i64, f64> {
    let mut taken = HashMap::new();
    for mail in smtp.mails() {
        if let (Some(lead), Some(at)) = (lead_of(&mail), mail["received_at"].as_f64()) {
            taken
                .entry(lead)
                .and_modify(|first: &mut f64| *first = first.min(at))
                .or_insert(at);
        }
    }
    taken
}

/// The owner's alerts received so far: their subjects.
fn alerts(smtp: &Smtp) -> Vec<String> {
    smtp.mails()
        .iter()
        .filter_map(|mail| mail["headers"]["subject"].as_str().map(str::to_string))
        .filter(|subject| subject.starts_with("Action needed") || subject.starts_with("Resolved"))
        .collect()
}

#[test]
fn store_down_mid_flood_acknowledged_by_the_agency_s_mail_owner_told_caught_up_and_nothing_lost() {
    let started = Instant::now();
    let mut setup = Setup::new("replica-outage");
    let smtp = Smtp::start(free_port(), &setup.dir.sub("smtp"), SmtpOptions::default());
    let mut env = crate::notify::env(Some(&crate::notify::plain_smtp(smtp.port)), None);
    env.extend([
        (
            "TRUCKINS_REPLICA_SOCKET",
            setup.socket.display().to_string(),
        ),
        ("TRUCKINS_REPLICA_ACKNOWLEDGE", "true".to_string()),
        ("TRUCKINS_REPLICA_WAIT", WAIT.to_string()),
        ("TRUCKINS_REPLICA_ALERT_AFTER", ALERT_AFTER.to_string()),
    ]);
    let mut stack = Stack::start(&setup, "first", &env);
    let port = stack.port;

    // The store reachable: a status link is e-mailed with the first leads.
    let flood = harness::Flood::start(port, CLIENTS, "outage");
    wait_until("leads acknowledged with the store up", || {
        (flood.acknowledged() >= 20).then_some(())
    });
    let link = wait_until("a lead's e-mail with its status links", || {
        smtp.mails()
            .iter()
            .find(|mail| lead_of(mail).is_some())
            .map(|mail| crate::status_links::link_for(mail, "Contacted"))
    });

    // The store down while the leads keep coming.
    setup.sshd.stop();
    let stopped = std::time::SystemTime::now();
    let behind: Value = wait_until("/healthz to say the replica is behind", || {
        let (status, body) = health(port);
        assert_eq!(status, 200, "/healthz with the store down: {body}");
        (body["replica"]["behind"] == true).then_some(body)
    });
    let mark = flood.acknowledged();
    wait_until("leads acknowledged while the store is down", || {
        (flood.acknowledged() >= mark + 50).then_some(())
    });
    let alert = wait_until("the owner's alert that the replica is behind", || {
        alerts(&smtp).into_iter().find(|subject| {
            subject.starts_with(
                "Action needed: the off-site copy of the leads (the replica) is behind since",
            )
        })
    });
    assert!(alert.contains("not copied yet"), "{alert}");

    // The store back, the flood going on: caught up within 30 s (the harness's patience), every commit made until
    // then on the replica, and the owner told once each way.
    let (_, before) = health(port);
    let txid = before["replica"]["txid"]
        .as_u64()
        .expect("Litestream's position");
    setup.sshd.restart();
    let back = Instant::now();
    let back_wall = std::time::SystemTime::now();
    wait_until(
        "the replica to catch up while the leads keep coming",
        || {
            let (status, body) = health(port);
            assert_eq!(status, 200, "{body}");
            let replica = &body["replica"];
            (replica["behind"] == false
                && replica["replicated_txid"]
                    .as_u64()
                    .is_some_and(|r| r >= txid))
            .then_some(())
        },
    );
    let caught_up = back.elapsed();
    wait_until("the owner's e-mail that the replica has caught up", || {
        alerts(&smtp)
            .contains(&"Resolved: the off-site copy of the leads has caught up".to_string())
            .then_some(())
    });
    let outage = flood.finish();
    let (_, counts) = health(port);
    assert_eq!(
        counts["replica"]["behind"], false,
        "still caught up: {counts}"
    );
    let told = alerts(&smtp);
    assert_eq!(
        told.len(),
        2,
        "one alert and one all-clear, no more: {told:?}"
    );
    assert!(
        outage.other.is_empty(),
        "answers other than 201: {:?}",
        outage.other
    );

    // Every lead whose request began once the store was down was answered after the relay took its e-mail.
    let taken = taken_at(&smtp);
    let seconds = |at: std::time::SystemTime| at.duration_since(UNIX_EPOCH).unwrap().as_secs_f64();
    let during: Vec<_> = outage
        .acknowledged
        .iter()
        .filter(|a| a.answered - a.took > stopped && a.answered < back_wall)
        .collect();
    assert!(
        during.len() >= 50,
        "{} leads during the outage",
        during.len()
    );
    let early: Vec<_> = during
        .iter()
        .filter(|a| taken.get(&a.id).is_none_or(|at| *at > seconds(a.answered)))
        .map(|a| (a.id, taken.get(&a.id).copied(), seconds(a.answered)))
        .collect();
    assert!(
        early.is_empty(),
        "{} of {} leads answered during the outage before the relay took their e-mail (lead, taken, answered), \
         e.g. {:?}",
        early.len(),
        during.len(),
        &early[..early.len().min(5)]
    );
    let acknowledged = &counts["replica"]["leads_acknowledged"];
    assert_eq!(acknowledged["unconfirmed"], 0, "{counts}");
    assert!(
        acknowledged["agency_copy"].as_u64().unwrap_or(0) >= during.len() as u64,
        "{counts}"
    );
    println!(
        "store down: {} leads acknowledged during the outage, each after the relay took its e-mail (slowest answer \
         {:?}); /healthz behind {}; caught up {caught_up:?} after the store came back, the flood going on; alerts {:?}",
        during.len(),
        during.iter().map(|a| a.took).max().unwrap_or_default(),
        behind["replica"],
        alerts(&smtp)
    );

    // The machine lost: every acknowledged lead back from the store alone, and the link e-mailed before works.
    let more = kill_mid_flood(&mut stack, "after");
    let mut all = outage.acknowledged;
    all.extend(more.acknowledged);
    let (restored, check, stored) = restore(&setup, &all, &env, "restored");
    assert_eq!(check, "ok", "PRAGMA integrity_check of the restored file");
    assert_none_lost(&all, &stored, "back after the restore");
    let page = crate::status_links::get(restored.port, &link);
    assert_eq!(
        page.status,
        200,
        "the status link after the restore: {}",
        page.text()
    );
    assert!(
        page.text().contains("Mark as Contacted?"),
        "{}",
        page.text()
    );
    println!(
        "drill after the outage: {} acknowledged leads all restored, the status link e-mailed before works; {:?} in all",
        all.len(),
        started.elapsed()
    );
}
