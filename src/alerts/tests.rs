//! When an alert goes, and when it does not: after its time, once, with a "resolved" when it is over, at most one an
//! hour however the concern comes and goes.

use super::*;

fn alerts(replica_after: u64) -> Alerts {
    let dir = std::env::temp_dir().join(format!(
        "truckins-alerts-{}-{replica_after}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let settings = Settings {
        smtp_url: Some("smtp://127.0.0.1:2525?tls=none".into()),
        notify_to: vec!["owner@agency.example".into()],
        replica_alert_after: replica_after,
        ..Settings::default()
    };
    let pool = crate::store::open(&dir.join("leads.db"), 1).unwrap();
    Alerts::new(&settings, pool, Outbox::new(&settings))
}

const BEHIND: &str =
    "the off-site copy of the leads (the replica) is behind since 2:05 PM: 3 leads not copied yet";

/// The replica's concern as it stands `seconds` after the start of a test (`None`: well), and what it makes.
fn replica_clock(
    alerts: &Alerts,
    start: Instant,
) -> impl Fn(Option<&str>, u64) -> Option<ReportMail> + '_ {
    move |trouble, seconds| {
        alerts.decide(
            Concern::ReplicaBehind,
            trouble,
            start + Duration::from_secs(seconds),
        )
    }
}

#[test]
fn the_replica_behind_is_told_after_its_time_once_then_when_it_has_caught_up() {
    let alerts = alerts(600);
    let replica = replica_clock(&alerts, Instant::now());
    let behind = Some(BEHIND);
    assert!(replica(behind, 0).is_none());
    assert!(replica(behind, 599).is_none());
    let told = replica(behind, 600).expect("after replica_alert_after");
    assert_eq!(told.subject, format!("Action needed: {BEHIND}"));
    assert!(told.text.starts_with("The off-site copy"), "{}", told.text);
    assert!(told.text.contains("journalctl"), "{}", told.text);
    assert_eq!(told.to, ["owner@agency.example"]);
    // Still behind: nothing more.
    assert!(replica(behind, 700).is_none());
    assert!(replica(behind, 5000).is_none());
    let over = replica(None, 5100).expect("resolved");
    assert_eq!(
        over.subject,
        "Resolved: the off-site copy of the leads has caught up"
    );
    assert!(over.text.contains("after 1 h 25 min"), "{}", over.text);
    // Well, and well again: nothing.
    assert!(replica(None, 5200).is_none());
}

#[test]
fn at_most_one_alert_an_hour_and_no_resolved_for_an_alert_not_sent() {
    let alerts = alerts(10);
    let start = Instant::now();
    let replica = replica_clock(&alerts, start);
    let behind = Some(BEHIND);
    // (the replica's state, seconds after the start, whether an e-mail goes)
    let timeline = [
        (behind, 0, false),
        (behind, 10, true),
        (None, 20, true),
        // Behind again within the hour: neither the alert nor its resolution.
        (behind, 30, false),
        (behind, 100, false),
        (None, 200, false),
        // An hour after the last alert, a new one goes.
        (behind, 3700, false),
        (behind, 3710, true),
    ];
    for (trouble, seconds, told) in timeline {
        let mail = replica(trouble, seconds);
        assert_eq!(mail.is_some(), told, "at {seconds} s, {trouble:?}");
    }
    let start = Instant::now();
    let at = |seconds: u64| start + Duration::from_secs(seconds);
    // Each concern keeps its own hour; the others are news at once.
    let disk = alerts.decide(
        Concern::DiskNearlyFull,
        Some("the server's disk is nearly full: 200 MB free"),
        at(3710),
    );
    assert_eq!(
        disk.expect("at once").subject,
        "Action needed: the server's disk is nearly full: 200 MB free"
    );
}

#[test]
fn a_trouble_of_several_sentences_has_its_first_as_the_subject() {
    let alerts = alerts(0);
    let told = alerts
        .decide(
            Concern::Certificate,
            Some("The HTTPS certificate for a.test expires in 9 days (2026-12-07) and has not been renewed. The last attempt failed: timeout."),
            Instant::now(),
        )
        .unwrap();
    assert_eq!(
        told.subject,
        "Action needed: the HTTPS certificate for a.test expires in 9 days (2026-12-07) and has not been renewed"
    );
    assert!(
        told.text.contains("The last attempt failed: timeout."),
        "{}",
        told.text
    );
}

#[test]
fn the_e_mail_s_html_is_the_text_escaped() {
    let alerts = alerts(0);
    let told = alerts
        .decide(
            Concern::Certificate,
            Some("the certificate for <a&b> expires"),
            Instant::now(),
        )
        .unwrap();
    assert!(told.html.contains("&lt;a&amp;b&gt;"), "{}", told.html);
    assert!(!told.html.contains("<a&b>"));
}
