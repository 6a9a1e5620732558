//! `truckins check`, the preflight (issue 27), through the real binary with settings in its environment, against
//! the notification tests' real SMTP server (aiosmtpd with STARTTLS under a private CA, and a login) and webhook
//! receiver (which dates its answers, for the clock), temporary folders for the database and the backups:
//!
//! - a good configuration: every line ✓ or –, exit 0, `ok: true` in JSON; no e-mail sent, one signed test event
//!   per run to the webhook;
//! - each ✗ on its own, everything else good: the relay down, an http base URL, a database folder that cannot take
//!   a file (a path under a regular file: refused to root too), a backup three days old;
//! - `--send-test` sends exactly one e-mail;
//! - the replica: Litestream's socket answering (a stand-in that answers `POST /sync` as Litestream does), then gone.
//!
//! Nothing waits for a time: each run is a process that has exited, and whatever it sent was received before it
//! did (the SMTP server writes a message before it answers 250).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use crate::common::process::{TempDir, free_port, truckins};
use crate::notify::support::{Answer, Receiver, Smtp, SmtpOptions, certificates};
use crate::notify::{PASSWORD, SECRET, verify};

/// Everything a good configuration has: a relay, a webhook receiver, a database folder and a fresh backup.
struct Setup {
    dir: TempDir,
    smtp: Smtp,
    receiver: Receiver,
    ca: PathBuf,
    database: PathBuf,
    backups: PathBuf,
}

impl Setup {
    fn new(label: &str) -> Setup {
        let dir = TempDir::new(label);
        let (ca, cert, key) = certificates(dir.path());
        let auth = format!("mailer:{PASSWORD}");
        let smtp = Smtp::start(
            free_port(),
            &dir.sub("smtp"),
            SmtpOptions {
                tls: Some((&cert, &key)),
                auth: Some(&auth),
            },
        );
        let receiver = Receiver::start(&[], Answer::Status(200));
        let database = dir.sub("data").join("leads.db");
        let backups = dir.sub("backups");
        std::fs::write(backups.join("leads-2026-11-22-0315.db"), b"a backup").unwrap();
        Setup {
            dir,
            smtp,
            receiver,
            ca,
            database,
            backups,
        }
    }

    /// The relay's address on `port`, with the login (the password percent-encoded, as in the settings file).
    fn smtp_url(&self, port: u16) -> String {
        format!("smtp://mailer:pa55-w0rd%21@127.0.0.1:{port}")
    }

    /// The settings of a server behind Caddy on this machine, with e-mail and a webhook.
    fn env(&self) -> BTreeMap<&'static str, String> {
        BTreeMap::from([
            (
                "TRUCKINS_BASE_URL",
                "https://www.realagency.com".to_string(),
            ),
            ("TRUCKINS_ADDRESS", "127.0.0.1".to_string()),
            ("TRUCKINS_TRUSTED_PROXIES", "[127.0.0.1]".to_string()),
            ("TRUCKINS_HSTS", "true".to_string()),
            ("TRUCKINS_SMTP_URL", self.smtp_url(self.smtp.port)),
            ("TRUCKINS_SMTP_CA_FILE", self.ca.display().to_string()),
            (
                "TRUCKINS_MAIL_FROM",
                "Real Agency Leads <leads@realagency.com>".to_string(),
            ),
            ("TRUCKINS_NOTIFY_TO", "owner@realagency.com".to_string()),
            ("TRUCKINS_WEBHOOK_URL", self.receiver.url()),
            ("TRUCKINS_WEBHOOK_SECRET", SECRET.to_string()),
            ("TRUCKINS_NOTIFY_TIMEOUT", "5".to_string()),
            ("TRUCKINS_TIME_ZONE", "America/Chicago".to_string()),
        ])
    }

    /// `truckins check ARGS` with `env`, the database and the backups folder.
    fn check(&self, env: &BTreeMap<&'static str, String>, args: &[&str]) -> Run {
        self.check_with(env, &self.database, args)
    }

    fn check_with(
        &self,
        env: &BTreeMap<&'static str, String>,
        database: &Path,
        args: &[&str],
    ) -> Run {
        let output = truckins(self.dir.path())
            .arg("check")
            .arg("--database")
            .arg(database)
            .arg("--backups")
            .arg(&self.backups)
            .args(args)
            .envs(env.iter().map(|(key, value)| (*key, value.as_str())))
            .output()
            .expect("the binary runs");
        Run {
            passed: output.status.success(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

/// One run of `truckins check`.
pub(crate) struct Run {
    pub(crate) passed: bool,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// Each line's mark and name, in order.
    fn marks(&self) -> Vec<(char, String)> {
        self.stdout
            .lines()
            .map(|line| {
                let mut chars = line.chars();
                let mark = chars
                    .next()
                    .unwrap_or_else(|| panic!("an empty line in {}", self.stdout));
                let name = chars.as_str().split_whitespace().next().unwrap_or_default();
                (mark, name.to_string())
            })
            .collect()
    }

    /// The mark of the line named `name`.
    pub(crate) fn mark(&self, name: &str) -> char {
        self.marks()
            .into_iter()
            .find(|(_, found)| found == name)
            .unwrap_or_else(|| panic!("no {name} line in:\n{}", self.stdout))
            .0
    }

    /// The line named `name`.
    pub(crate) fn line(&self, name: &str) -> &str {
        self.stdout
            .lines()
            .find(|line| {
                line.chars()
                    .skip(1)
                    .collect::<String>()
                    .split_whitespace()
                    .next()
                    == Some(name)
            })
            .unwrap_or_else(|| panic!("no {name} line in:\n{}", self.stdout))
    }

    /// Every line starts with a mark, none is ✗, and the run exited 0.
    fn assert_all_good(&self) {
        assert!(
            self.passed,
            "exit 0 expected:\n{}{}",
            self.stdout, self.stderr
        );
        for (mark, name) in self.marks() {
            assert!(
                mark == '✓' || mark == '–',
                "{name} is not ✓ or –:\n{}",
                self.stdout
            );
        }
    }

    /// The run failed, the line `name` is ✗ and no other is, and it says `words`.
    fn assert_only_failure(&self, name: &str, words: &str) {
        assert!(self.line(name).contains(words), "{}", self.stdout);
        assert!(!self.passed, "a non-zero exit expected:\n{}", self.stdout);
        assert_eq!(self.mark(name), '✗', "{}", self.stdout);
        for (mark, other) in self.marks() {
            assert!(
                other == name || mark != '✗',
                "{other} failed too:\n{}",
                self.stdout
            );
        }
        assert!(
            self.stderr.contains("1 of ") && self.stderr.contains(name),
            "{}",
            self.stderr
        );
    }
}

#[test]
fn a_good_configuration_passes_every_check_and_sends_no_e_mail() {
    let setup = Setup::new("check-good");
    let run = setup.check(&setup.env(), &[]);
    run.assert_all_good();
    let names: Vec<String> = run.marks().into_iter().map(|(_, name)| name).collect();
    let every_check = [
        "settings",
        "base_url",
        "trusted_proxies",
        "hsts",
        "smtp",
        "webhook",
        "database",
        "disk",
        "backups",
        "replica",
        "census",
        "link_key",
        "certificate",
        "clock",
        "time_zone",
    ];
    assert_eq!(names, every_check, "{}", run.stdout);
    // Every check passes but those not configured here (below).
    let not_configured = ["replica", "census", "link_key", "certificate"];
    for name in every_check
        .iter()
        .filter(|name| !not_configured.contains(name))
    {
        assert_eq!(run.mark(name), '✓', "{}", run.stdout);
    }
    assert!(
        run.line("base_url")
            .contains("https://www.realagency.com is https and not a sample"),
        "{}",
        run.stdout
    );
    let smtp = run.line("smtp");
    assert!(
        smtp.contains("STARTTLS required") && smtp.contains("accepted the login"),
        "{smtp}"
    );
    assert!(
        !run.stdout.contains("pa55"),
        "the password is never printed"
    );
    assert!(
        run.line("clock")
            .contains("webhook receiver's (its Date header)"),
        "{}",
        run.stdout
    );
    // Not configured: said with why, never a failure.
    for name in not_configured {
        assert_eq!(run.mark(name), '–', "{}", run.stdout);
    }

    let json = setup.check(&setup.env(), &["--format", "json"]);
    assert!(json.passed, "{}{}", json.stdout, json.stderr);
    let report: Value = serde_json::from_str(&json.stdout).expect("one JSON object");
    assert_eq!(report["ok"], true, "{report}");
    let checks = report["checks"].as_array().unwrap();
    assert_eq!(checks.len(), names.len());
    for check in checks {
        assert!(
            check["status"] == "ok" || check["status"] == "skip",
            "{check}"
        );
        assert!(
            check["name"].is_string() && !check["detail"].as_str().unwrap().is_empty(),
            "{check}"
        );
    }

    // Two runs: no e-mail, and one signed test event each to the webhook. Nothing was left in the folder.
    assert!(setup.smtp.mails().is_empty(), "{:?}", setup.smtp.mails());
    let events = setup.receiver.received();
    assert_eq!(events.len(), 2);
    for event in &events {
        verify(event);
        assert_eq!(event.json()["event"], "test");
    }
    let left: Vec<_> = std::fs::read_dir(setup.database.parent().unwrap())
        .unwrap()
        .collect();
    assert!(
        left.is_empty(),
        "the database folder stays as it was: {left:?}"
    );
}

#[test]
fn send_test_sends_exactly_one_e_mail() {
    let setup = Setup::new("check-send");
    let run = setup.check(&setup.env(), &["--send-test"]);
    run.assert_all_good();
    assert_eq!(run.mark("email_test"), '✓', "{}", run.stdout);
    let mails = setup.smtp.mails();
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(
        mails[0]["rcpt_tos"],
        serde_json::json!(["owner@realagency.com"])
    );
    assert_eq!(mails[0]["mail_from"], "leads@realagency.com");
    assert_eq!(
        (
            mails[0]["tls"].as_bool(),
            mails[0]["authenticated"].as_bool()
        ),
        (Some(true), Some(true))
    );
}

#[test]
fn the_relay_down_fails_the_smtp_line_alone() {
    let setup = Setup::new("check-smtp-down");
    let mut env = setup.env();
    env.insert("TRUCKINS_SMTP_URL", setup.smtp_url(free_port()));
    let run = setup.check(&env, &[]);
    run.assert_only_failure("smtp", "host unreachable");
}

#[test]
fn an_http_base_url_fails_the_base_url_line_alone() {
    let setup = Setup::new("check-http");
    let mut env = setup.env();
    env.insert("TRUCKINS_BASE_URL", "http://www.realagency.com".to_string());
    let run = setup.check(&env, &[]);
    run.assert_only_failure("base_url", "is not https");
}

#[test]
fn a_database_folder_that_takes_no_file_fails_the_database_line_alone() {
    let setup = Setup::new("check-folder");
    // The database's folder is a regular file: no one can make a file in it, root included (tests may run as root,
    // whom permissions do not stop).
    let not_a_folder = setup.dir.path().join("not-a-folder");
    std::fs::write(&not_a_folder, b"").unwrap();
    let run = setup.check_with(&setup.env(), &not_a_folder.join("leads.db"), &[]);
    run.assert_only_failure("database", "cannot take a new file");
}

#[test]
fn a_backup_three_days_old_fails_the_backups_line_alone() {
    let setup = Setup::new("check-stale");
    let backup = setup.backups.join("leads-2026-11-22-0315.db");
    std::fs::File::options()
        .write(true)
        .open(&backup)
        .unwrap()
        .set_modified(SystemTime::now() - Duration::from_secs(3 * 86_400))
        .unwrap();
    let run = setup.check(&setup.env(), &[]);
    run.assert_only_failure("backups", "is 3 days 0 h old");
}

/// A stand-in for Litestream's control socket: answers each `POST /sync` as Litestream does, until dropped.
struct Litestream {
    path: PathBuf,
    asked: std::sync::mpsc::Receiver<String>,
}

impl Litestream {
    fn start(path: PathBuf) -> Litestream {
        let listener = UnixListener::bind(&path).unwrap();
        let (tell, asked) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut head = String::new();
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                    if line.trim().is_empty() {
                        break;
                    }
                    if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = value.trim().parse().unwrap_or(0);
                    }
                    head.push_str(&line);
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                // Told before answering: by the time `check` has its answer, the test can see the question.
                let _ = tell.send(format!("{head}{}", String::from_utf8_lossy(&body)));
                let answer = r#"{"txid":7,"replicated_txid":7}"#;
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{answer}",
                    answer.len()
                );
            }
        });
        Litestream { path, asked }
    }
}

impl Drop for Litestream {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[test]
fn a_replica_that_answers_passes_and_a_socket_nobody_answers_fails() {
    let setup = Setup::new("check-replica");
    let socket = setup.dir.path().join("litestream.sock");
    let mut env = setup.env();
    env.insert("TRUCKINS_REPLICA_SOCKET", socket.display().to_string());
    let litestream = Litestream::start(socket.clone());
    let run = setup.check(&env, &[]);
    run.assert_all_good();
    assert_eq!(run.mark("replica"), '✓', "{}", run.stdout);
    assert!(
        run.line("replica")
            .contains("transaction 7 here, the replica has every one"),
        "{}",
        run.stdout
    );
    // It asked where the copy stands, without waiting for one: a sync of the configured database.
    let asked = litestream.asked.try_recv().expect("Litestream was asked");
    assert!(
        asked.starts_with("POST /sync") && asked.contains(r#""wait":false"#),
        "{asked}"
    );
    assert!(asked.contains(setup.database.to_str().unwrap()), "{asked}");
    drop(litestream);
    let run = setup.check(&env, &[]);
    run.assert_only_failure("replica", "Litestream at ");
}
