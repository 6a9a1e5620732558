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
//! - The honeypot's spam, invalid and rate-limited submissions notify no one; one confirmation per visitor address per
//!   24 h. A lead sent faster than a person types is kept and told to the agency, marked, never confirmed to the
//!   visitor; an opt-out is recorded however fast it came (`suspected.rs`).
//! - STARTTLS with a private CA (`smtp_ca_file`) and AUTH; `truckins notify test` names what failed.
//! - The owner's report: `truckins report --email` queues it while the server runs, the server sends it to every
//!   `notify_to` (`report.rs`); without e-mail settings it fails and queues nothing.
//!
//! Retries are made fast (`notify_retry_base` 0.2 s, `notify_timeout` 1 s) and every wait is for an event.
//! `sending.rs` has what is sent and to whom (content, headers, signatures, TLS, `notify test`); `retries.rs` what
//! happens when it cannot be sent (down, refused, hanging, restarts) and what is never sent (spam, limits).

mod headers;
mod language;
mod report;
mod retries;
mod sending;
mod stop;
pub mod support;
mod suspected;

use std::path::{Path, PathBuf};

use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::common::process::{Http, Reply, Server, TempDir, free_port, truckins};
use support::{Answer, Receiver, Smtp, SmtpOptions};

pub(super) const SECRET: &str = "test-secret-0123456789abcdef";
pub(super) const PASSWORD: &str = "pa55-w0rd!";

/// Environment variables of a server or a command.
pub(super) type Env = Vec<(&'static str, String)>;

/// The environment of a server with fast retries, e-mail through `smtp_url` and, if given, a webhook.
pub(super) fn env(smtp_url: Option<&str>, webhook: Option<&str>) -> Env {
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

pub(super) fn plain_smtp(port: u16) -> String {
    format!("smtp://127.0.0.1:{port}?tls=none")
}

pub(super) fn serve(database: &Path, label: &str, env: &[(&str, String)], args: &[&str]) -> Server {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut all = vec!["--database", database.to_str().unwrap()];
    all.extend_from_slice(if args.is_empty() {
        &["--ip-limit", "1000"]
    } else {
        args
    });
    Server::start_with_env(database.parent().unwrap(), label, &all, &env)
}

/// A server that mails a real SMTP server and posts to a webhook answering 204, on a leads file of its own folder.
pub(super) struct Agency {
    pub dir: TempDir,
    pub database: PathBuf,
    pub smtp: Smtp,
    pub receiver: Receiver,
    pub server: Server,
}

/// A server that mails a real SMTP server (no webhook), in a folder named for `folder`: the folder, the leads file,
/// the SMTP server and the server, run as [`serve`] runs it with no arguments.
pub(super) fn mailed(folder: &str) -> (TempDir, PathBuf, Smtp, Server) {
    let dir = TempDir::new(folder);
    let database = dir.path().join("leads.db");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let server = serve(
        &database,
        "serve",
        &env(Some(&plain_smtp(smtp.port)), None),
        &[],
    );
    (dir, database, smtp, server)
}

/// An [`Agency`] in a folder named for `folder`, its server run as [`serve`] runs it.
pub(super) fn agency(folder: &str, label: &str, args: &[&str]) -> Agency {
    let dir = TempDir::new(folder);
    let database = dir.path().join("leads.db");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let receiver = Receiver::start(&[], Answer::Status(204));
    let env = env(Some(&plain_smtp(smtp.port)), Some(&receiver.url()));
    let server = serve(&database, label, &env, args);
    Agency {
        dir,
        database,
        smtp,
        receiver,
        server,
    }
}

pub(super) fn quote(email: &str, submission: &str) -> Value {
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

pub(super) fn post(port: u16, path: &str, body: &Value) -> Reply {
    Http::connect(port)
        .unwrap()
        .post_json(path, body)
        .expect("an answer")
}

/// Posts a quote and returns the lead's id.
pub(super) fn lead(port: u16, email: &str, submission: &str) -> i64 {
    let reply = post(port, "/api/leads/quote", &quote(email, submission));
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_i64().unwrap()
}

pub(super) fn cli(
    dir: &Path,
    database: &Path,
    args: &[&str],
    env: &[(&str, String)],
) -> (bool, String) {
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

pub(super) fn verify(received: &support::Received) {
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
