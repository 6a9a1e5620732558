//! The table's rules on a real SQLite file: the owner's report is due on the e-mail lane only, with the message it
//! was queued with, and a lead's deliveries are read with their lead as before.

use super::*;
use crate::leads::store::{Source, Status, Stored};

#[test]
fn a_report_is_due_on_the_e_mail_lane_only_and_a_lead_as_before() {
    let dir = std::env::temp_dir().join(format!("truckins-outbox-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pool = store::open(&dir.join("leads.db"), 1).unwrap();
    let lead = Lead {
        source: Source::Quote,
        status: Status::New,
        created_at: store::now(),
        name: "Dana".into(),
        email: "dana@example.com".into(),
        ..Lead::default()
    };
    let stored = store::insert_with(
        &pool,
        &lead,
        Box::new(|transaction, id| enqueue(transaction, id, &Channel::ALL, "dana@example.com")),
    )
    .unwrap();
    let Stored::New(lead_id) = stored else {
        panic!("{stored:?}")
    };
    let connection = pool.get().unwrap();
    let report = enqueue_report(&connection, r#"{"subject":"Website report"}"#).unwrap();
    let now = now_ms() + 1;

    let mail = due(&connection, Channel::Email, now, 10).unwrap();
    assert_eq!(mail.len(), 2);
    assert_eq!(
        (mail[0].kind, mail[0].lead().map(|l| l.id)),
        (Kind::Lead, Some(lead_id))
    );
    let last = &mail[1];
    assert_eq!(
        (last.id, last.kind, last.lead().is_none()),
        (report, Kind::Report, true)
    );
    assert!(matches!(&last.about, About::Report(payload) if payload.contains("Website report")));
    for channel in [Channel::Webhook, Channel::Autoreply] {
        let due = due(&connection, channel, now, 10).unwrap();
        assert_eq!(due.len(), 1, "{channel:?}");
        assert_eq!(
            (due[0].kind, due[0].lead().map(|l| l.id)),
            (Kind::Lead, Some(lead_id))
        );
    }

    // The table itself refuses a report without its message, or on another channel.
    let insert = |channel: &str, payload: Option<&str>| {
        connection.execute(
            "INSERT INTO deliveries (key, kind, channel, payload, created_at, created_ms, queued_ms, \
             next_attempt_ms) VALUES ('k', 'report', ?1, ?2, '', 0, 0, 0)",
            params![channel, payload],
        )
    };
    assert!(insert("email", None).is_err());
    assert!(insert("email", Some("not json")).is_err());
    assert!(insert("webhook", Some("{}")).is_err());
    assert!(insert("autoreply", Some("{}")).is_err());
    let listed = list(&connection, None, 10).unwrap();
    assert_eq!(listed.len(), 4);
    assert_eq!(
        (
            listed[0].kind.as_str(),
            listed[0].lead_id,
            listed[0].channel.as_str()
        ),
        ("report", None, "email")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
