//! Lead notifications, end to end: the real binary against a real SMTP server (aiosmtpd) and a real HTTP receiver,
//! all on 127.0.0.1 (see `support`).
//!
//! - The agency's e-mail (headers, subject, both parts with every field, HTML escaped) and the signed webhook (the
//!   signature checks out, the delivery id is the stored one); secrets never printed at start; `/healthz`,
//!   `leads list` and `outbox list` show the deliveries.
//! - SMTP down when the lead comes in, then up; a 4xx then success; a 5xx failed at once with its reason, then
//!   `outbox retry --all-failed`; webhook 500, 500, no answer (timeout), 200 with one delivery id; a 404 failed.
//! - SIGTERM while a receiver hangs stops promptly; SIGKILL with deliveries pending; the restarted server sends
//!   everything.
//! - Spam, invalid and rate-limited submissions notify no one; one confirmation per visitor address per 24 h.
//! - STARTTLS with a private CA (`smtp_ca_file`) and AUTH; `truckins notify test` names what failed.
//!
//! Retries are made fast (`notify_retry_base` 0.2 s, `notify_timeout` 1 s) and every wait is for an event.

pub mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use support::{
    Answer, Receiver, Smtp, SmtpOptions, certificates, deliveries, part, wait_for_delivery,
};

use crate::common::process::{Http, Reply, Server, TempDir, free_port, truckins};

const SECRET: &str = "test-secret-0123456789abcdef";
const PASSWORD: &str = "pa55-w0rd!";

/// Environment variables of a server or a command.
type Env = Vec<(&'static str, String)>;

/// The environment of a server with fast retries, e-mail through `smtp_url` and, if given, a webhook.
fn env(smtp_url: Option<&str>, webhook: Option<&str>) -> Env {
    let mut env = vec![
        ("TRUCKINS_NOTIFY_RETRY_BASE", "0.2".to_string()),
        ("TRUCKINS_NOTIFY_TIMEOUT", "1".to_string()),
    ];
    if let Some(url) = smtp_url {
        env.push(("TRUCKINS_SMTP_URL", url.to_string()));
        env.push((
            "TRUCKINS_MAIL_FROM",
            "Milepost Leads <leads@agency.example>".to_string(),
        ));
        env.push((
            "TRUCKINS_NOTIFY_TO",
            "owner@agency.example, desk@agency.example".to_string(),
        ));
    }
    if let Some(url) = webhook {
        env.push(("TRUCKINS_WEBHOOK_URL", url.to_string()));
        env.push(("TRUCKINS_WEBHOOK_SECRET", SECRET.to_string()));
    }
    env
}

fn plain_smtp(port: u16) -> String {
    format!("smtp://127.0.0.1:{port}?tls=none")
}

fn serve(database: &Path, label: &str, env: &[(&str, String)], args: &[&str]) -> Server {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut all = vec!["--database", database.to_str().unwrap()];
    all.extend_from_slice(if args.is_empty() {
        &["--ip-limit", "1000"]
    } else {
        args
    });
    Server::start_with_env(database.parent().unwrap(), label, &all, &env)
}

fn quote(email: &str, submission: &str) -> Value {
    json!({
        "name": "Maria Lopez",
        "email": email,
        "phone": "(555) 210-0142",
        "company": "Lopez & Sons Hauling",
        "insurance_type": "hotshot",
        "vehicle_count": 2,
        "dot_number": "1234567",
        "consent": true,
        "submission_id": format!("notify-test-{submission}"),
        "page_url": "https://www.example.com/products/hot-shot-insurance",
        "utm_source": "google",
        "utm_campaign": "hotshot-fall",
        "gclid": "abc123",
    })
}

fn post(port: u16, path: &str, body: &Value) -> Reply {
    Http::connect(port)
        .unwrap()
        .post_json(path, body)
        .expect("an answer")
}

/// Posts a quote and returns the lead's id.
fn lead(port: u16, email: &str, submission: &str) -> i64 {
    let reply = post(port, "/api/leads/quote", &quote(email, submission));
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_i64().unwrap()
}

fn cli(dir: &Path, database: &Path, args: &[&str], env: &[(&str, String)]) -> (bool, String) {
    let output = truckins(dir)
        .args(args)
        .args(["--database", database.to_str().unwrap()])
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), text)
}

fn verify(received: &support::Received) {
    let timestamp = received.header("X-Truckins-Timestamp");
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(SECRET.as_bytes()).unwrap();
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(&received.body);
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(
        received.header("X-Truckins-Signature"),
        format!("sha256={hex}")
    );
    let age = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        .abs_diff(timestamp.parse().unwrap());
    assert!(age < 120, "a fresh timestamp: {timestamp}");
}

#[test]
fn notify_the_agency_by_email_and_signed_webhook() {
    let dir = TempDir::new("notify-content");
    let database = dir.path().join("leads.db");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let receiver = Receiver::start(&[], Answer::Status(204));
    let env = env(Some(&plain_smtp(smtp.port)), Some(&receiver.url()));
    let server = serve(&database, "serve", &env, &[]);
    let id = lead(server.port, "maria@lopez.example", "content-1");

    let mail = &smtp.wait_for_mails(1)[0];
    let headers = &mail["headers"];
    assert_eq!(headers["from"], "Milepost Leads <leads@agency.example>");
    assert_eq!(headers["reply-to"], "Maria Lopez <maria@lopez.example>");
    assert_eq!(
        headers["subject"],
        "New quote: Maria Lopez, Lopez & Sons Hauling, Hot Shot, 2 trucks"
    );
    assert_eq!(
        mail["rcpt_tos"],
        json!(["owner@agency.example", "desk@agency.example"])
    );
    assert_eq!(mail["mail_from"], "leads@agency.example");
    let text = part(mail, "text/plain");
    let html = part(mail, "text/html");
    for expected in [
        "+15552100142",
        "1234567",
        "Hot Shot",
        "2026-11-01",
        "By checking this box",
        "127.0.0.1",
        "https://www.example.com/products/hot-shot-insurance",
        "hotshot-fall",
        "abc123",
        &format!("truckins leads status {id} contacted"),
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} in the text part:\n{text}"
        );
    }
    assert!(
        html.contains("Lopez &amp; Sons Hauling") && !html.contains("Lopez & Sons"),
        "{html}"
    );

    let hook = &receiver.wait_for(1)[0];
    verify(hook);
    assert_eq!(hook.head, "POST /hooks/truckins HTTP/1.1");
    assert_eq!(hook.header("Content-Type"), "application/json");
    let body = hook.json();
    assert_eq!(body["event"], "lead");
    assert_eq!(body["lead"]["id"], id);
    assert_eq!(body["lead"]["company"], "Lopez & Sons Hauling");
    assert_eq!(body["lead"]["insurance_type_label"], "Hot Shot");
    let webhook = wait_for_delivery(&database, id, "webhook", "sent", |d| d.state == "sent");
    assert_eq!(hook.header("X-Truckins-Delivery"), webhook.key);
    assert_eq!(body["delivery"], webhook.key.as_str());
    wait_for_delivery(&database, id, "email", "sent", |d| d.state == "sent");
    assert_eq!(
        deliveries(&database).len(),
        2,
        "no autoreply unless asked for"
    );

    let health = server.http().get("/healthz", &[]).unwrap();
    assert_eq!(health.status, 200);
    assert_eq!(
        health.json()["deliveries"]["pending"],
        0,
        "{}",
        health.text()
    );
    let (ok, list) = cli(dir.path(), &database, &["leads", "list"], &[]);
    assert!(
        ok && list.contains("notified") && list.contains("sent"),
        "{list}"
    );
    let (ok, outbox) = cli(dir.path(), &database, &["outbox", "list"], &[]);
    assert!(
        ok && outbox.contains("webhook") && outbox.contains("email"),
        "{outbox}"
    );
    let started = server.stdout_text() + &server.stderr_text();
    assert!(
        started.contains("webhook_url = http://127.0.0.1"),
        "{started}"
    );
    assert!(
        !started.contains(SECRET) && !started.contains("/hooks/truckins"),
        "{started}"
    );
}

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
    let (ok, said) = cli(
        dir.path(),
        &database,
        &["outbox", "retry", "--all-failed"],
        &[],
    );
    assert!(
        ok && said.contains("1 failed deliveries are queued again"),
        "{said}"
    );
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
    let mut server = serve(&database, "first", &env, &[]);
    let first = lead(server.port, "one@example.com", "restart-1");
    receiver.wait_for(1);
    let asked = Instant::now();
    assert!(server.terminate().success());
    assert!(
        asked.elapsed() < Duration::from_secs(8),
        "stopped after {:?}",
        asked.elapsed()
    );

    let mut server = serve(&database, "second", &env, &[]);
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
    let mut honeypot = quote("bot@example.com", "spam-1");
    honeypot["website"] = json!("http://spam.example");
    let mut fast = quote("bot@example.com", "spam-2");
    fast["elapsed_ms"] = json!("200");
    let mut invalid = quote("bot@example.com", "spam-3");
    invalid["vehicle_count"] = json!(0);
    for body in [&honeypot, &fast] {
        assert_eq!(post(server.port, "/api/leads/quote", body).status, 201);
    }
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
    let text = part(reply, "text/plain");
    assert!(
        text.contains("Hello Maria Lopez") && text.contains("Hot Shot, 2 trucks"),
        "{text}"
    );
}

#[test]
fn starttls_with_a_private_ca_and_authentication_and_notify_test_names_what_failed() {
    let dir = TempDir::new("notify-tls");
    let database = dir.path().join("leads.db");
    let (ca, cert, key) = certificates(dir.path());
    let auth = format!("mailer:{PASSWORD}");
    let options = SmtpOptions {
        tls: Some((&cert, &key)),
        auth: Some(&auth),
    };
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), options);
    let receiver = Receiver::start(&[Answer::Status(200)], Answer::Status(404));
    let url = |password: &str| format!("smtp://mailer:{password}@127.0.0.1:{}", smtp.port);
    let mut env = env(Some(&url("pa55-w0rd%21")), Some(&receiver.url()));
    env.push(("TRUCKINS_SMTP_CA_FILE", ca.to_str().unwrap().to_string()));
    let server = serve(&database, "serve", &env, &[]);
    let started = server.stdout_text();
    assert!(
        started.contains("smtp_url = smtp://mailer:***@127.0.0.1"),
        "{started}"
    );
    assert!(!started.contains("pa55"), "{started}");
    let id = lead(server.port, "tls@example.com", "tls-1");
    let mail = &smtp.wait_for_mails(1)[0];
    assert_eq!(
        (mail["tls"].as_bool(), mail["authenticated"].as_bool()),
        (Some(true), Some(true))
    );
    wait_for_delivery(&database, id, "email", "sent", |d| d.state == "sent");
    drop(server);

    // `notify test`: the e-mail goes through, the webhook (now answering 404) is reported refused.
    let (ok, said) = cli(dir.path(), &database, &["notify", "test"], &env);
    assert!(
        !ok && said.contains("e-mail: ok")
            && said.contains("webhook: FAILED")
            && said.contains("404"),
        "{said}"
    );
    assert_eq!(smtp.mails().len(), 2);
    let only_mail = |change: &dyn Fn(&mut Env)| {
        let mut env: Vec<_> = env
            .iter()
            .filter(|(k, _)| !k.starts_with("TRUCKINS_WEBHOOK"))
            .cloned()
            .collect();
        change(&mut env);
        let (ok, said) = cli(dir.path(), &database, &["notify", "test"], &env);
        assert!(!ok, "{said}");
        said
    };
    let set = |key: &'static str, value: String| {
        move |env: &mut Env| {
            env.retain(|(k, _)| *k != key);
            env.push((key, value.clone()));
        }
    };
    let said = only_mail(&set("TRUCKINS_SMTP_URL", url("wrong")));
    assert!(said.contains("authentication refused"), "{said}");
    let said = only_mail(&|env| env.retain(|(k, _)| *k != "TRUCKINS_SMTP_CA_FILE"));
    assert!(said.contains("TLS"), "{said}");
    let said = only_mail(&set(
        "TRUCKINS_SMTP_URL",
        format!("smtp://127.0.0.1:{}?tls=none", free_port()),
    ));
    assert!(said.contains("host unreachable"), "{said}");
    smtp.answer("rcpt", "550 5.1.1 No such user", -1);
    let said = only_mail(&|_| {});
    assert!(
        said.contains("recipient or sender rejected") && said.contains("550"),
        "{said}"
    );
}
