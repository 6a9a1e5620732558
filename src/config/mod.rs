//! The binary's configuration, in one typed place. Sources, each overriding the one before:
//! built-in defaults < the settings file (`--config FILE`, `TRUCKINS_CONFIG`, else /etc/truckins/truckins.toml if it
//! exists: `file.rs`; without one, `Rocket.toml` or the file named by `ROCKET_CONFIG`, as Rocket reads them) <
//! environment variables (`ROCKET_*`, and `TRUCKINS_*` for this program's own settings) < command-line flags.
//! A misspelt key or a bad value stops the start with one line naming it and where it came from; the effective
//! configuration is printed at start (it holds no secrets).

use std::net::IpAddr;
use std::path::{Path, PathBuf};

use rocket::figment::providers::{Env, Serialized};
use rocket::figment::{Figment, Profile, Provider};
use serde::{Deserialize, Serialize};

mod describe;
pub mod endpoints;
mod file;
mod mistakes;
pub mod notify;
pub mod replica;
pub mod tls;

pub use describe::describe;
pub use file::{DEFAULT_FILE, Named, SettingsFile, files_read};
use mistakes::misspelt_profile;
pub use mistakes::one_line;

/// This program's settings (Rocket's own — address, port, limits, ... — sit beside them in the same sources).
#[derive(Clone, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct Settings {
    /// The SQLite file holding the leads.
    pub database: PathBuf,
    /// The SQLite file holding the FMCSA carrier census (`truckins carriers import`); unset, `carriers.db` beside
    /// the leads database. Its own file so that lead backups stay small.
    pub carriers_database: Option<PathBuf>,
    /// DOT numbers one client IP may look up per 10 minutes (the quote form's "Is this your company?").
    pub carrier_lookup_limit: usize,
    /// The public address of the site (`https://www.example.com`) for canonical links, structured data and the
    /// sitemap; unset, the `base_url` of `content/facts.toml` that the site was built with.
    pub base_url: Option<String>,
    /// Reverse proxies whose `X-Forwarded-For` is believed (e.g. `["127.0.0.1"]` behind Caddy on the same host).
    pub trusted_proxies: Vec<IpAddr>,
    /// Lead submissions accepted per client IP per 10 minutes, both forms together.
    pub ip_limit: usize,
    /// Connections in the database pool.
    pub pool_size: u32,
    /// Request logs as `text` (one readable line each) or `json` (one object per line).
    pub log_format: LogFormat,
    /// Send `Strict-Transport-Security`: only when every visitor reaches the site over HTTPS.
    pub hsts: bool,
    /// Seconds a client has to send a complete request head, counted from its connection (for the first request)
    /// or from the head's first byte; a connection still without one is closed. (Rocket's `keep_alive` is how long
    /// a connection may sit idle between requests.)
    pub request_head_timeout: u64,
    /// Seconds a client has to send a whole request body, counted from its head; a body still arriving then is
    /// answered 408 (a lead is a few KiB; a body trickled a byte at a time would otherwise hold its connection).
    pub request_body_timeout: u64,
    /// Connections served at once; more wait to be accepted. Lowered at start to what the process's limit on
    /// open files leaves room for.
    pub max_connections: usize,
    /// Connections served at once from one client address (the socket's, never `X-Forwarded-For`; an IPv6 /64
    /// counts as one address); more from it are closed as soon as they are accepted. At most half of
    /// `max_connections`, and at least 1. Connections from `trusted_proxies` are not counted: every visitor comes through them.
    pub max_connections_per_ip: usize,

    // Lead notifications (src/notify): the agency's e-mail, a signed webhook and the visitor's confirmation.
    /// The agency's mail relay: `smtp://user:pass@host:587` (STARTTLS required), `smtps://user:pass@host:465`, or
    /// `smtp://host:25?tls=none` for a relay on this machine only. Unset: no e-mail.
    pub smtp_url: Option<String>,
    /// A PEM file of certificate authorities trusted for the relay besides the public ones (a private CA).
    pub smtp_ca_file: Option<PathBuf>,
    /// Where the agency's e-mail about each lead goes: one address or several (comma-separated in the environment).
    #[serde(deserialize_with = "notify::addresses")]
    pub notify_to: Vec<String>,
    /// The sender of every e-mail: an address of the agency's own domain (SPF/DKIM), never the visitor's.
    pub mail_from: Option<String>,
    /// The agency's CRM or automation hook, sent each lead as JSON (https, or http to this machine only).
    pub webhook_url: Option<String>,
    /// The key the webhook's `X-Truckins-Signature` (HMAC-SHA256) is made with; required with `webhook_url`.
    pub webhook_secret: Option<String>,
    /// A PEM file of certificate authorities trusted for an https webhook besides the public ones (a CRM or
    /// automation server behind a private CA).
    pub webhook_ca_file: Option<PathBuf>,
    /// Send the visitor a short confirmation (at most one per address per 24 h).
    pub autoreply: bool,
    /// Seconds a webhook receiver has to answer; an SMTP relay has three times as long per command.
    pub notify_timeout: u64,
    /// Seconds before the first retry of a failed delivery; each later wait doubles (up to an hour), with jitter.
    /// Lowered by the tests; at most 24 (with the jitter, the first retry within 30 s).
    pub notify_retry_base: f64,
    /// Count the pages served to people, without cookies and without keeping anything that identifies them, for
    /// `truckins report` (see `src/analytics/`); `false` counts nothing.
    pub analytics: bool,
    // Off-site replication (src/replica): Litestream, running beside the server, copies the leads database.
    /// The path of Litestream's control socket (`socket.path` in its configuration). Set, the server knows its
    /// database is replicated: `/healthz` shows the replica's state, and the log says when Litestream does not answer.
    pub replica_socket: Option<PathBuf>,
    /// Answer a lead (its 201, or the plain form's 303) only once it is off this machine: Litestream reports its
    /// commit on the replica, or (the replica behind) the agency's relay or webhook took its news; or once
    /// `replica_wait` has passed (then it is answered all the same: it is stored here). src/replica/acknowledge.rs.
    pub replica_acknowledge: bool,
    /// Seconds a lead's answer waits at most for its first copy off the machine (the replica, or its news taken by
    /// the agency's relay or webhook); when none confirms in time, the next leads are answered at once until one does.
    pub replica_wait: f64,
    /// Seconds the replica may stay behind before one e-mail tells `notify_to` (and one when it has caught up; at most
    /// one alert an hour): src/alerts.
    pub replica_alert_after: u64,
    /// Days a lead (and an opt-out) is kept before its personal fields are erased, once a day by the server
    /// (src/consent/retention.rs). The default, 1,825, is the TCPA's four-year limitation period and a year; `0`
    /// keeps them until erased by hand (`truckins leads forget`).
    pub lead_retention_days: u32,
    /// The agency's time zone, an IANA name such as `America/Chicago` (a file under /usr/share/zoneinfo, or
    /// `$TZDIR`); unset, the server's local zone (`TZ`, else /etc/localtime). The business hours of
    /// content/facts.toml are in it (speed-to-lead, reminders), and so is the agency's day. `main` applies it to the
    /// whole process before anything else runs (src/hours.rs).
    pub time_zone: Option<String>,
    /// Minutes of business hours a lead may stay `new` before the agency gets one reminder e-mail about it; `0`
    /// sends none.
    pub remind_after_minutes: u32,
    /// Days before a quote's policy expiration (the x-date) that the agency gets one e-mail to re-quote a lead it
    /// did not win (src/status/xdates.rs); `0` sends none.
    pub xdate_lead_days: u32,
    /// Tests only: a file holding the current time as RFC 3339 text, read at each use instead of the system clock
    /// (see [`crate::clock`]). Never set in production.
    pub test_clock: Option<PathBuf>,
    /// Built-in HTTPS by ACME (`tls_domains`, `acme_*`, `https_port`, `http_port`; src/config/tls.rs).
    #[serde(flatten)]
    pub tls: tls::TlsSettings,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            database: PathBuf::from("truckins.db"),
            carriers_database: None,
            carrier_lookup_limit: 30,
            base_url: None,
            trusted_proxies: Vec::new(),
            ip_limit: 20,
            pool_size: 8,
            log_format: LogFormat::Text,
            hsts: false,
            request_head_timeout: 10,
            request_body_timeout: 10,
            max_connections: 4096,
            // A browser opens up to 6 connections to a site; 64 leave room for an office or a yard behind one
            // address, while 4096 slots take at least 64 addresses to fill.
            max_connections_per_ip: 64,
            smtp_url: None,
            smtp_ca_file: None,
            webhook_ca_file: None,
            notify_to: Vec::new(),
            mail_from: None,
            webhook_url: None,
            webhook_secret: None,
            autoreply: false,
            notify_timeout: 10,
            notify_retry_base: 10.0,
            analytics: true,
            replica_socket: None,
            replica_acknowledge: false,
            replica_wait: 5.0,
            replica_alert_after: 600,
            lead_retention_days: 1825,
            time_zone: None,
            remind_after_minutes: 60,
            xdate_lead_days: 60,
            test_clock: None,
            tls: tls::TlsSettings::default(),
        }
    }
}

impl Settings {
    /// The census file: `carriers_database`, or `carriers.db` in the leads database's folder.
    pub fn carriers_database(&self) -> PathBuf {
        self.carriers_database
            .clone()
            .unwrap_or_else(|| self.database.with_file_name("carriers.db"))
    }
}

/// The keys of [`Settings`].
pub const KEYS: [&str; 33] = [
    "database",
    "carriers_database",
    "carrier_lookup_limit",
    "base_url",
    "trusted_proxies",
    "ip_limit",
    "pool_size",
    "log_format",
    "hsts",
    "request_head_timeout",
    "request_body_timeout",
    "max_connections",
    "max_connections_per_ip",
    "smtp_url",
    "smtp_ca_file",
    "notify_to",
    "mail_from",
    "webhook_url",
    "webhook_secret",
    "webhook_ca_file",
    "autoreply",
    "notify_timeout",
    "notify_retry_base",
    "analytics",
    "replica_socket",
    "replica_acknowledge",
    "replica_wait",
    "replica_alert_after",
    "lead_retention_days",
    "time_zone",
    "remind_after_minutes",
    "xdate_lead_days",
    "test_clock",
];

/// The most days before a policy expires that its x-date e-mail may come: a year (a policy runs for one).
pub const MAX_XDATE_LEAD_DAYS: u32 = 366;

/// Keys that choose sources rather than set anything: `ROCKET_CONFIG` (the file) and `ROCKET_PROFILE`.
const SOURCE_KEYS: [&str; 2] = ["config", "profile"];

/// `TRUCKINS_*` variables that belong to the build and the front-end tools, not to the running binary.
const TOOL_VARIABLES: [&str; 2] = ["BUILD_", "DEV_"];

/// `TRUCKINS_CONFIG` names the settings file (`--config`): it chooses a source, it is not a setting.
const FILE_VARIABLE: &str = "CONFIG";

/// All sources merged as when no settings file is chosen (Rocket.toml or `ROCKET_CONFIG`), without the command
/// line's flags (the caller merges those last).
pub fn figment() -> Figment {
    with_ours(rocket::Config::figment())
}

/// All sources merged with `file` as the settings file, in the place of Rocket.toml; `None`: [`figment`].
pub fn figment_with(file: Option<SettingsFile>) -> Figment {
    let Some(file) = file else {
        return figment();
    };
    // Rocket's own sources but its file: ROCKET_CONFIG is refused beside a settings file (file.rs), not a key.
    let rocket = Figment::from(rocket::Config::default())
        .merge(file)
        .merge(
            Env::prefixed("ROCKET_")
                .ignore(&["PROFILE", "CONFIG"])
                .global(),
        )
        .select(Profile::from_env_or(
            "ROCKET_PROFILE",
            rocket::Config::DEFAULT_PROFILE,
        ));
    with_ours(rocket)
}

/// `rocket` (Rocket's sources, a file among them) with our defaults beneath and `TRUCKINS_*` above.
fn with_ours(rocket: Figment) -> Figment {
    let ours = Env::prefixed("TRUCKINS_").filter(|key| {
        !TOOL_VARIABLES.iter().any(|p| key.as_str().starts_with(p))
            && !key.as_str().eq_ignore_ascii_case(FILE_VARIABLE)
    });
    rocket
        // Defaults under everything: a quiet Rocket (the request log says what happened) and time for requests
        // in flight to finish when the service is stopped.
        .join(("log_level", "critical"))
        // No `Server` header: it would only tell a scanner what to try.
        .join(("ident", false))
        // 5 s + 2 s stays under the 10 s a container runtime waits before SIGKILL.
        .join(("shutdown.grace", 5))
        .join(("shutdown.mercy", 2))
        .join(Serialized::defaults(Settings::default()))
        .merge(ours.global())
}

/// The keys of Rocket's `[shutdown]` table, checked like the top-level ones (a misspelt `grace` would otherwise
/// be ignored without a word).
const SHUTDOWN_KEYS: [&str; 5] = ["ctrlc", "signals", "grace", "mercy", "force"];

/// Whether two paths name one file: the same file when both exist (links followed), the same absolute path
/// otherwise.
fn same_path(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => match (std::path::absolute(a), std::path::absolute(b)) {
            (Ok(a), Ok(b)) => a.components().eq(b.components()),
            _ => a == b,
        },
    }
}

/// Checks every source and returns the settings, or one line saying what is wrong.
pub fn load(figment: &Figment) -> Result<Settings, String> {
    let data = figment.data().map_err(|e| one_line(&e))?;
    // A file named explicitly must be there: the service would otherwise start on defaults without a word.
    // Like Rocket (figment), a relative name is looked for in the working directory and then in its parents.
    // (Beside a settings file, ROCKET_CONFIG is refused when the file is read, above.)
    if let Some(file) = std::env::var_os("ROCKET_CONFIG") {
        let path = PathBuf::from(&file);
        let found = if path.is_absolute() {
            path.is_file()
        } else {
            std::env::current_dir()
                .is_ok_and(|dir| dir.ancestors().any(|d| d.join(&path).is_file()))
        };
        if !found {
            return Err(format!(
                "ROCKET_CONFIG names {}, which was not found",
                path.display()
            ));
        }
    }
    for (profile, dict) in data {
        // Other profiles are allowed (one file may hold [staging] and [production]); a near miss of Rocket's own
        // names is a typo that would otherwise go unnoticed.
        if let Some(meant) = misspelt_profile(profile.as_str().as_str()) {
            return Err(format!(
                "unknown profile `[{profile}]`; did you mean [{meant}]?"
            ));
        }
        let shutdown = dict.get("shutdown").and_then(|value| value.as_dict());
        if let Some(key) = shutdown
            .into_iter()
            .flat_map(|table| table.keys())
            .find(|key| !SHUTDOWN_KEYS.contains(&key.as_str()))
        {
            return Err(format!(
                "unknown setting `shutdown.{key}`; known: {}",
                SHUTDOWN_KEYS.join(", ")
            ));
        }
        for key in dict.keys() {
            let known = KEYS.contains(&key.as_str())
                || tls::KEYS.contains(&key.as_str())
                || rocket::Config::PARAMETERS.contains(&key.as_str())
                || SOURCE_KEYS.contains(&key.as_str());
            if !known {
                let source = figment
                    .find_metadata(key)
                    .map(|m| {
                        format!(
                            " (from {})",
                            // A file by its whole path (figment's own display shortens it).
                            m.source
                                .as_ref()
                                .map(|s| match s.file_path() {
                                    Some(path) => path.display().to_string(),
                                    None => s.to_string(),
                                })
                                .unwrap_or(m.name.to_string())
                        )
                    })
                    .unwrap_or_default();
                return Err(format!(
                    "unknown setting `{key}`{source}; known settings: {}, and Rocket's {}",
                    KEYS.join(", "),
                    rocket::Config::PARAMETERS.join(", ")
                ));
            }
        }
    }
    rocket::Config::try_from(figment).map_err(|e| format!("invalid setting: {}", one_line(&e)))?;
    let settings: Settings = figment
        .extract()
        .map_err(|e| format!("invalid setting: {}", one_line(&e)))?;
    if same_path(&settings.database, &settings.carriers_database()) {
        return Err(format!(
            "carriers_database is the leads database ({}); an import would replace the leads",
            settings.database.display()
        ));
    }
    if let Some(url) = &settings.base_url {
        let scheme_ok = url.starts_with("https://") || url.starts_with("http://");
        if !scheme_ok || url.ends_with('/') || url.contains(char::is_whitespace) {
            return Err(format!(
                "invalid setting `base_url`: {url:?} must look like https://www.example.com (no trailing slash)"
            ));
        }
    }
    if settings.ip_limit == 0
        || settings.carrier_lookup_limit == 0
        || settings.pool_size == 0
        || settings.request_head_timeout == 0
        || settings.request_body_timeout == 0
        || settings.max_connections == 0
        || settings.max_connections_per_ip == 0
    {
        return Err(
            "invalid setting: `ip_limit`, `carrier_lookup_limit`, `pool_size`, `request_head_timeout`, \
             `request_body_timeout`, `max_connections` and `max_connections_per_ip` must be at least 1"
                .into(),
        );
    }
    if settings.xdate_lead_days > MAX_XDATE_LEAD_DAYS {
        return Err(format!(
            "invalid setting `xdate_lead_days`: {} is more than a year ({MAX_XDATE_LEAD_DAYS} days at most; 0 sends \
             no x-date e-mails)",
            settings.xdate_lead_days
        ));
    }
    if let Some(name) = &settings.time_zone {
        crate::hours::check_time_zone(name)?;
    }
    notify::check(&settings)?;
    replica::check(&settings)?;
    settings.tls.check()?;
    Ok(settings)
}

/// A setting that is a list in the settings file and one comma-separated string in the environment or a flag.
#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[cfg(test)]
mod tests;
