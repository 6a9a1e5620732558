//! `truckins check`, the preflight a server runs before it takes traffic: each thing that must be right for a real
//! agency's site (its public address, the proxy in front, the relay, the webhook, the database's folder and disk,
//! backups, the replica, the census, the links' key, the clock, the time zone) looked at once, with the `serve` settings, and said
//! in one line: ✓ right, ✗ wrong (what to do), – not configured or not applicable (and why).
//!
//! `site.rs` judges the settings alone, `remote.rs` asks the relay, the webhook and Litestream (through the
//! notifications' and the replica's own clients, each within a deadline), `storage.rs` looks at the files,
//! `clock.rs` at the clock, and `zone.rs` at the zone the business hours are counted in. Nothing is changed: the
//! only write is a temporary file in the database's folder, removed at once, and no e-mail is sent unless asked
//! (`send_test`).

mod certificate;
mod clock;
mod remote;
mod site;
pub mod storage;
mod zone;

pub use zone::business_hours;

use std::net::SocketAddr;
use std::path::PathBuf;

use serde::Serialize;

use crate::config::Settings;

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Fail,
    /// Not configured or not applicable; the detail says why.
    Skip,
}

impl Status {
    /// The mark a line starts with.
    pub fn mark(self) -> char {
        match self {
            Status::Ok => '✓',
            Status::Fail => '✗',
            Status::Skip => '–',
        }
    }
}

/// One line of the checklist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub status: Status,
    pub detail: String,
}

impl Check {
    pub fn ok(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            status: Status::Ok,
            detail: detail.into(),
        }
    }

    pub fn fail(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            status: Status::Fail,
            detail: detail.into(),
        }
    }

    pub fn skip(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            status: Status::Skip,
            detail: detail.into(),
        }
    }
}

/// What the preflight is told besides the settings.
pub struct Options {
    /// The address `serve` would listen on (Rocket's `address` and `port`): loopback means a proxy is in front.
    pub listen: SocketAddr,
    /// The folder of the daily backups (deploy/truckins-backup.service writes `leads-*.db` there).
    pub backups: PathBuf,
    /// Send a test e-mail to `notify_to` as well.
    pub send_test: bool,
    /// The settings file the settings were read from, if any: where a missing setting is to be added.
    pub settings_file: Option<PathBuf>,
}

/// The whole checklist, in the order it is printed.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub ok: bool,
    pub checks: Vec<Check>,
}

impl Report {
    pub fn new(checks: Vec<Check>) -> Report {
        Report {
            ok: checks.iter().all(|check| check.status != Status::Fail),
            checks,
        }
    }

    /// The names of the checks that failed.
    pub fn failed(&self) -> Vec<&'static str> {
        self.checks
            .iter()
            .filter(|check| check.status == Status::Fail)
            .map(|check| check.name)
            .collect()
    }

    /// One line per check: mark, name (aligned), detail.
    pub fn text(&self) -> String {
        let width = self
            .checks
            .iter()
            .map(|check| check.name.len())
            .max()
            .unwrap_or(0);
        self.checks
            .iter()
            .map(|check| {
                format!(
                    "{} {:width$}  {}\n",
                    check.status.mark(),
                    check.name,
                    check.detail
                )
            })
            .collect()
    }

    /// One JSON object, `{"ok": bool, "checks": [{"name", "status": "ok"|"fail"|"skip", "detail"}]}`.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "{\"ok\": false}".into())
    }
}

/// Every check, with checked settings. The network checks run at once, each within its deadline (from
/// `notify_timeout`); the clock comes last, as it reads the webhook's answer.
pub async fn run(settings: &Settings, options: &Options) -> Report {
    let mut checks = Vec::new();
    checks.push(site::base_url(
        settings.base_url.as_deref(),
        crate::site::build_base_url().trim(),
    ));
    if settings.tls.enabled() {
        // Built-in HTTPS: visitors connect directly, and the server sends HSTS itself.
        checks.push(Check::skip(
            "trusted_proxies",
            "built-in HTTPS (tls_domains): visitors connect directly, no proxy in front",
        ));
        checks.push(Check::ok(
            "hsts",
            "sent by the server itself (built-in HTTPS)",
        ));
    } else {
        checks.extend(site::proxy(
            options.listen,
            &settings.trusted_proxies,
            settings.hsts,
        ));
    }
    let (mail, webhook, replica) = rocket::tokio::join!(
        remote::mail(settings, options.send_test),
        remote::webhook(settings),
        remote::replica(settings),
    );
    checks.extend(mail);
    let (webhook, answer) = webhook;
    checks.push(webhook);
    // Absolute, as the lines name them: a relative path says nothing once read in a log or a monitor.
    let absolute = |path: PathBuf| std::path::absolute(&path).unwrap_or(path);
    let database = absolute(settings.database.clone());
    let folder = storage::database_folder(&database);
    checks.push(storage::database(&database, &folder));
    checks.push(storage::disk(&folder));
    checks.push(storage::backups(
        &absolute(options.backups.clone()),
        std::time::SystemTime::now(),
    ));
    checks.push(replica);
    checks.push(storage::census(
        &absolute(settings.carriers_database()),
        time::OffsetDateTime::now_utc(),
    ));
    checks.push(storage::link_key(&database));
    checks.push(certificate::check(
        &database,
        &settings.tls,
        crate::tls::now(),
    ));
    checks.push(clock::check(clock::kernel(), answer.as_ref()));
    checks.push(zone::check(
        settings.time_zone.as_deref(),
        &zone::Machine::find(),
        zone::always_at_utc(),
        crate::hours::WeekHours::built(),
        options.settings_file.as_deref(),
    ));
    Report::new(checks)
}

/// A byte count as people read it: `1.4 GiB`, `312.0 MiB`.
fn bytes(count: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = count as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{count} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A duration as people read it: `40 s`, `12 min`, `5 h 3 min`, `3 days 2 h`.
fn age(seconds: u64) -> String {
    let (minutes, hours, days) = (seconds / 60, seconds / 3600, seconds / 86_400);
    if seconds < 60 {
        format!("{seconds} s")
    } else if minutes < 60 {
        format!("{minutes} min")
    } else if hours < 48 {
        format!("{hours} h {} min", minutes % 60)
    } else {
        format!("{days} days {} h", hours % 24)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_failure_makes_the_report_fail_and_skips_do_not() {
        let good = Report::new(vec![Check::ok("a", "fine"), Check::skip("b", "not set")]);
        assert!(good.ok);
        assert!(good.failed().is_empty());
        let bad = Report::new(vec![Check::ok("a", "fine"), Check::fail("b", "broken")]);
        assert!(!bad.ok);
        assert_eq!(bad.failed(), vec!["b"]);
    }

    #[test]
    fn each_line_starts_with_its_mark_and_the_json_says_the_status_in_words() {
        let report = Report::new(vec![
            Check::ok("base_url", "https"),
            Check::fail("smtp", "down"),
            Check::skip("webhook", "not set"),
        ]);
        let text = report.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "✓ base_url  https");
        assert_eq!(lines[1], "✗ smtp      down");
        assert_eq!(lines[2], "– webhook   not set");
        let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(json["ok"], false);
        assert_eq!(json["checks"][1]["status"], "fail");
        assert_eq!(json["checks"][2]["status"], "skip");
        assert_eq!(json["checks"][0]["detail"], "https");
    }

    #[test]
    fn sizes_and_ages_read_as_people_say_them() {
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(3 * 1024 * 1024 * 1024 / 2), "1.5 GiB");
        assert_eq!(age(42), "42 s");
        assert_eq!(age(125), "2 min");
        assert_eq!(age(5 * 3600 + 180), "5 h 3 min");
        assert_eq!(age(3 * 86_400 + 7200), "3 days 2 h");
    }
}
