//! What happens when a notification cannot go out (the relay down, a 4xx, a 5xx, a webhook 500 or no answer, a
//! SIGTERM or a SIGKILL meanwhile) and what never goes out (spam, invalid and limited submissions, a second
//! confirmation to one address within 24 h).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::support::{Answer, Receiver, Smtp, SmtpOptions, deliveries, part, wait_for_delivery};
use super::*;
use crate::common::process::{TempDir, free_port};

#[test]
fn smtp_down_at_submit_then_back_4xx_then_success_5xx_failed_and_retried() {
    let dir = TempDir::new("notify-smtp");
    let database = dir.path().join("leads.db");
    let port = free_port();
    let env = env(Some(&plain_smtp(port)), None);
    let server = serve(&database, "serve", &env, &[]);
    let down = lead(server.port, "down@example.com", "smtp-1");
    let waiting = wait_for_delivery(&database, down, "email", "tried", |d| d.attempts >= 2);
    assert_eq!(waiting.state, "pending");
    assert!(
        waiting
            .last_error
            .as_deref()
            .unwrap_or("")
            .contains("unreachable"),
        "{waiting:?}"
    );
    let health = server.http().get("/healthz", &[]).unwrap().json();
    assert_eq!(health["deliveries"]["pending"], 1, "{health}");

    let smtp = Smtp::start(port, &dir.sub("smtp"), SmtpOptions::default());
    smtp.wait_for_mails(1);
    wait_for_delivery(&database, down, "email", "sent", |d| d.state == "sent");

    smtp.answer("data", "451 4.3.0 Try again later", 1);
    let later = lead(server.port, "later@example.com", "smtp-2");
    let sent = wait_for_delivery(&database, later, "email", "sent", |d| d.state == "sent");
    assert_eq!(sent.attempts, 2, "{sent:?}");
    assert!(sent.last_error.unwrap().contains("451"));

    smtp.answer("data", "550 5.7.1 Message rejected", -1);
    let refused = lead(server.port, "refused@example.com", "smtp-3");
    let failed = wait_for_delivery(&database, refused, "email", "failed", |d| {
        d.state == "failed"
    });
    assert_eq!(failed.attempts, 1, "a permanent answer is not retried");
    assert!(
        failed.last_error.as_deref().unwrap().contains("550"),
        "{failed:?}"
    );
    let (_, outbox) = cli(
        dir.path(),
        &database,
        &["outbox", "list", "--state", "failed"],
        &[],
    );
    assert!(
        outbox.contains("failed") && outbox.contains("550"),
        "{outbox}"
    );
    assert_eq!(
        server.http().get("/healthz", &[]).unwrap().json()["deliveries"]["failed"],
        1
    );

    smtp.accept();
    retry_the_one_failed(dir.path(), &database);
    wait_for_delivery(&database, refused, "email", "sent after the retry", |d| {
        d.state == "sent"
    });
    assert_eq!(smtp.mails().len(), 3);
    let (ok, said) = cli(dir.path(), &database, &["outbox", "retry", "999"], &[]);
    assert!(!ok && said.contains("no delivery has id 999"), "{said}");
}

#[test]
fn webhook_retries_5xx_and_a_hanging_receiver_with_one_delivery_id_and_fails_a_4xx() {
    let dir = TempDir::new("notify-webhook");
    let database = dir.path().join("leads.db");
    let script = [
        Answer::Status(500),
        Answer::Status(500),
        Answer::Hang,
        Answer::Status(200),
    ];
    let receiver = Receiver::start(&script, Answer::Status(404));
    let server = serve(&database, "serve", &env(None, Some(&receiver.url())), &[]);
    let id = lead(server.port, "hook@example.com", "hook-1");
    let sent = wait_for_delivery(&database, id, "webhook", "sent", |d| d.state == "sent");
    assert_eq!(sent.attempts, 4, "{sent:?}");
    let received = receiver.received();
    assert_eq!(received.len(), 4);
    for request in &received {
        verify(request);
        assert_eq!(
            request.header("X-Truckins-Delivery"),
            sent.key,
            "the same id on every attempt"
        );
    }
    let refused = lead(server.port, "hook@example.com", "hook-2");
    let failed = wait_for_delivery(&database, refused, "webhook", "failed", |d| {
        d.state == "failed"
    });
    assert_eq!(failed.attempts, 1);
    assert!(failed.last_error.unwrap().contains("404"));
    let answers: Vec<Answer> = receiver.received().iter().map(|r| r.answer).collect();
    assert_eq!(
        answers[2..],
        [Answer::Hang, Answer::Status(200), Answer::Status(404)]
    );

    // Fixed at the receiver's end, the delivery is sent again by its id.
    receiver.then(Answer::Status(200));
    let (ok, said) = cli(
        dir.path(),
        &database,
        &["outbox", "retry", &failed.id.to_string()],
        &[],
    );
    assert!(ok && said.contains("queued again"), "{said}");
    wait_for_delivery(&database, refused, "webhook", "sent after the retry", |d| {
        d.state == "sent"
    });
}

#[test]
fn sigterm_does_not_wait_on_a_hanging_receiver_and_sigkill_loses_no_delivery() {
    let dir = TempDir::new("notify-restart");
    let database = dir.path().join("leads.db");
    let smtp_port = free_port();
    let receiver = Receiver::start(&[], Answer::Hang);
    let env = env(Some(&plain_smtp(smtp_port)), Some(&receiver.url()));
    // A receiver given a minute to answer: a prompt stop proves the stop does not wait on it.
    let mut patient = env.clone();
    patient.retain(|(k, _)| *k != "TRUCKINS_NOTIFY_TIMEOUT");
    patient.push(("TRUCKINS_NOTIFY_TIMEOUT", "60".to_string()));
    let mut server = serve(&database, "first", &patient, &[]);
    let first = lead(server.port, "one@example.com", "restart-1");
    receiver.wait_for(1);
    let asked = Instant::now();
    assert!(server.terminate().success());
    assert!(
        asked.elapsed() < Duration::from_secs(8),
        "stopped after {:?}",
        asked.elapsed()
    );

    let mut server = serve(&database, "second", &patient, &[]);
    let second = lead(server.port, "two@example.com", "restart-2");
    wait_for_delivery(&database, second, "email", "tried", |d| d.attempts >= 1);
    server.kill();
    let pending: Vec<_> = deliveries(&database)
        .into_iter()
        .filter(|d| d.state == "pending")
        .collect();
    assert_eq!(pending.len(), 4, "{pending:?}");

    receiver.then(Answer::Status(200));
    let smtp = Smtp::start(smtp_port, &dir.sub("smtp"), SmtpOptions::default());
    let _server = serve(&database, "third", &env, &[]);
    for id in [first, second] {
        for channel in ["email", "webhook"] {
            wait_for_delivery(&database, id, channel, "sent", |d| d.state == "sent");
        }
    }
    assert_eq!(smtp.mails().len(), 2);
    let keys: Vec<String> = deliveries(&database)
        .into_iter()
        .filter(|d| d.channel == "webhook")
        .map(|d| d.key)
        .collect();
    for request in receiver.received() {
        assert!(
            keys.iter()
                .any(|k| k == request.header("X-Truckins-Delivery"))
        );
    }
}

#[test]
fn spam_invalid_and_rate_limited_submissions_notify_no_one_and_one_autoreply_per_address() {
    let dir = TempDir::new("notify-spam");
    let database = dir.path().join("leads.db");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let env = env(Some(&plain_smtp(smtp.port)), None);
    // Flags over the environment's settings (notify_to), as for every setting.
    let flags = [
        "--ip-limit",
        "3",
        "--autoreply",
        "--notify-to",
        "flag@agency.example",
    ];
    let server = serve(&database, "serve", &env, &flags);
    // The honeypot's spam; a lead sent too fast is kept and told to the agency (suspected.rs).
    let mut honeypot = quote("bot@example.com", "spam-1");
    honeypot["website"] = json!("http://spam.example");
    let mut invalid = quote("bot@example.com", "spam-3");
    invalid["vehicle_count"] = json!(0);
    assert_eq!(post(server.port, "/api/leads/quote", &honeypot).status, 201);
    assert_eq!(post(server.port, "/api/leads/quote", &invalid).status, 422);
    let first = lead(server.port, "maria@lopez.example", "person-1");
    let again = lead(server.port, "Maria@Lopez.example", "person-2");
    let other = lead(server.port, "sam@other.example", "person-3");
    assert_eq!(
        post(
            server.port,
            "/api/leads/quote",
            &quote("x@example.com", "limited")
        )
        .status,
        429
    );

    let mails = smtp.wait_for_mails(5);
    let by_lead = |id: i64| {
        deliveries(&database)
            .into_iter()
            .filter(move |d| d.lead_id == id)
            .count()
    };
    assert_eq!(
        (by_lead(first), by_lead(again), by_lead(other)),
        (2, 1, 2),
        "{:?}",
        deliveries(&database)
    );
    assert_eq!(
        deliveries(&database).len(),
        5,
        "nothing for spam, invalid or limited submissions"
    );
    for id in [first, again, other] {
        wait_for_delivery(&database, id, "email", "sent", |d| d.state == "sent");
    }
    let replies: Vec<&Value> = mails
        .iter()
        .filter(|m| m["headers"]["auto-submitted"] == "auto-generated")
        .collect();
    assert_eq!(replies.len(), 2, "one per address");
    for mail in mails
        .iter()
        .filter(|m| m["headers"]["auto-submitted"].is_null())
    {
        assert_eq!(mail["rcpt_tos"], json!(["flag@agency.example"]));
    }
    let reply = replies
        .iter()
        .find(|m| m["rcpt_tos"] == json!(["maria@lopez.example"]))
        .unwrap();
    assert_eq!(
        reply["headers"]["from"],
        "Milepost Leads <leads@agency.example>"
    );
    // Nothing the visitor typed: no name in the greeting nor in the To header.
    assert_eq!(reply["headers"]["to"], "maria@lopez.example");
    let text = part(reply, "text/plain");
    assert!(
        text.trim_start().starts_with("Hello,")
            && !text.contains("Maria")
            && text.contains("Hot Shot, 2 trucks"),
        "{text}"
    );
    assert!(!reply["raw"].as_str().unwrap().contains("Maria"), "{reply}");
}

#[test]
fn one_refused_recipient_does_not_stop_the_e_mail_to_the_others() {
    let dir = TempDir::new("notify-rcpt");
    let database = dir.path().join("leads.db");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    smtp.refuse_recipient("desk@agency.example", "550 5.1.1 No such user");
    let env = env(Some(&plain_smtp(smtp.port)), None);
    let server = serve(&database, "serve", &env, &[]);
    let id = lead(server.port, "rcpt@example.com", "rcpt-1");
    let sent = wait_for_delivery(&database, id, "email", "sent", |d| d.state != "pending");
    assert_eq!(sent.state, "sent", "{sent:?}");
    let mails = smtp.wait_for_mails(1);
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0]["rcpt_tos"], json!(["owner@agency.example"]));

    // Every recipient refused: failed, with the reasons.
    smtp.answer("rcpt", "550 5.1.1 No such user", -1);
    let id = lead(server.port, "rcpt2@example.com", "rcpt-2");
    let failed = wait_for_delivery(&database, id, "email", "failed", |d| d.state != "pending");
    assert_eq!(failed.state, "failed", "{failed:?}");
    assert!(
        failed.last_error.as_deref().unwrap().contains("550"),
        "{failed:?}"
    );
}

#[test]
fn deliveries_of_a_channel_turned_off_are_failed_at_start_and_can_be_retried() {
    let dir = TempDir::new("notify-off");
    let database = dir.path().join("leads.db");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    // A webhook nobody listens on: its delivery stays pending.
    let hook = format!("http://127.0.0.1:{}/hook", free_port());
    let with_hook = env(Some(&plain_smtp(smtp.port)), Some(&hook));
    let mut server = serve(&database, "first", &with_hook, &[]);
    let id = lead(server.port, "off@example.com", "off-1");
    wait_for_delivery(&database, id, "webhook", "tried", |d| d.attempts >= 1);
    wait_for_delivery(&database, id, "email", "sent", |d| d.state == "sent");
    assert!(server.terminate().success());

    let without = env(Some(&plain_smtp(smtp.port)), None);
    let server = serve(&database, "second", &without, &[]);
    let off = wait_for_delivery(&database, id, "webhook", "failed", |d| d.state == "failed");
    assert_eq!(
        off.last_error.as_deref(),
        Some("channel not configured"),
        "{off:?}"
    );
    drop(server);
    retry_the_one_failed(dir.path(), &database);
    let again = deliveries(&database)
        .into_iter()
        .find(|d| d.lead_id == id && d.channel == "webhook")
        .unwrap();
    assert_eq!(again.state, "pending", "{again:?}");
}

/// `outbox retry --all-failed`, which must say it queued one delivery again.
fn retry_the_one_failed(dir: &Path, database: &Path) {
    let (ok, said) = cli(dir, database, &["outbox", "retry", "--all-failed"], &[]);
    assert!(
        ok && said.contains("1 failed deliveries are queued again"),
        "{said}"
    );
}
