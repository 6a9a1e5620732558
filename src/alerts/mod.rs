//! The owner told: every state of the running server an owner must act on (the off-site copy behind, the
//! notifications failing, the disk nearly full, the HTTPS certificate), reported here by whoever knows it, becomes
//! one e-mail to `notify_to` once it has lasted long enough, and one more when it is over. At most one alert an hour
//! per concern, however often it comes and goes; an alert not sent (within the hour of the last) has no "resolved"
//! either. The e-mail is queued in the outbox like the owner's report (kind `report`, but ahead of the other
//! deliveries, as a claim's news is), so it is retried like any delivery and kept across a restart; the log says
//! each alert too, with or without e-mail.
//!
//! [`watch`] looks at the states the server knows (the replica, the deliveries, the disk) and reports them.

pub mod watch;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::config::Settings;
use crate::notify::Outbox;
use crate::notify::compose::report::ReportMail;
use crate::store::DbPool;
use crate::text::{escape_html, lower_first, upper_first};

/// Makes the alerts (after the leads' stage, whose pool and outbox they use) and manages them as state.
pub fn stage() -> rocket::fairing::AdHoc {
    rocket::fairing::AdHoc::try_on_ignite("Alerts", |rocket| async {
        let (Some(settings), Some(leads)) = (
            rocket.state::<Settings>(),
            rocket.state::<crate::leads::Leads>(),
        ) else {
            rocket::error!("the alerts need the settings and the leads' stage first");
            return Err(rocket);
        };
        let alerts = Alerts::new(settings, leads.pool.clone(), leads.outbox.clone());
        Ok(rocket.manage(alerts))
    })
}

/// Starts the server's own look at its concerns ([`watch`]) once it serves.
pub fn watching() -> rocket::fairing::AdHoc {
    rocket::fairing::AdHoc::on_liftoff("Alerts' watch", |rocket| {
        Box::pin(async move {
            let (Some(alerts), Some(settings), Some(leads)) = (
                rocket.state::<Alerts>(),
                rocket.state::<Settings>(),
                rocket.state::<crate::leads::Leads>(),
            ) else {
                return;
            };
            let watched = watch::Watched {
                replica: leads.replica.clone(),
                pool: leads.pool.clone(),
                database: settings.database.clone(),
                census: settings.carriers_database(),
                tls: rocket.state::<Arc<crate::tls::Tls>>().cloned(),
            };
            rocket::tokio::spawn(watch::run(alerts.clone(), watched));
        })
    })
}

/// At most one alert an hour for each concern.
pub const QUIET_FOR: Duration = Duration::from_secs(3600);

/// A state an owner must act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Concern {
    /// The off-site copy (Litestream's replica) is behind.
    ReplicaBehind,
    /// Deliveries (the agency's e-mail, the webhook, confirmations) have failed for more than an hour.
    DeliveriesFailing,
    /// The database's disk has under 1 GiB free.
    DiskNearlyFull,
    /// The site's HTTPS certificate is missing, expiring or not renewing.
    Certificate,
    /// The carrier census behind the DOT lookup is over 60 days old.
    CensusStale,
}

impl Concern {
    /// The e-mail's subject once it is over.
    fn resolved(self) -> &'static str {
        match self {
            Concern::ReplicaBehind => "Resolved: the off-site copy of the leads has caught up",
            Concern::DeliveriesFailing => "Resolved: the lead notifications are going out again",
            Concern::DiskNearlyFull => "Resolved: the server's disk has room again",
            Concern::Certificate => "Resolved: the site's HTTPS certificate is in order",
            Concern::CensusStale => "Resolved: the carrier census is fresh again",
        }
    }

    /// What the owner can do, under the alert's first line.
    fn advice(self) -> &'static str {
        match self {
            Concern::ReplicaBehind => {
                "Leads are still taken and stored on the server, and each is answered once the agency's e-mail or \
                 webhook has it (or, when those fail too, after a few seconds all the same); until the replica has \
                 caught up, a lead whose e-mail has not gone out yet exists only on this machine. Look at Litestream's lines in the server's log (journalctl -u truckins) and \
                 at the store it copies to (the S3 bucket or the SFTP server): reachable, keys valid, room left. \
                 `truckins check` shows the replica's line. docs/replication.md has the runbook."
            }
            Concern::DeliveriesFailing => {
                "The leads are stored and their notifications wait in the outbox, retried for 24 hours. \
                 `truckins outbox list --state pending` shows each one's last error (a relay refusing the login, a \
                 webhook answering 500); `truckins check` tries the relay and the webhook."
            }
            Concern::DiskNearlyFull => {
                "Once SQLite cannot write, every lead is refused. Free space on the server (old backups, logs: \
                 `journalctl --vacuum-size=200M`) or give it a larger disk."
            }
            Concern::Certificate => {
                "Visitors' browsers refuse the site once the certificate has expired. `truckins check` shows the \
                 certificate's line; the server's log says why the certificate authority refused."
            }
            Concern::CensusStale => {
                "The quote form's DOT lookup shows carriers (names, power units) as they were. Download FMCSA's \
                 Company Census File again and run `truckins carriers import` (docs/leads.md, \"The DOT lookup\")."
            }
        }
    }
}

/// Where one concern stands.
struct Track {
    since: Instant,
    /// Whether its alert went (then the owner is told when it is over).
    alerted: bool,
}

#[derive(Default)]
struct State {
    open: HashMap<Concern, Track>,
    last_alert: HashMap<Concern, Instant>,
}

/// Cheap to clone; in the Rocket state for every part that knows a concern.
#[derive(Clone)]
pub struct Alerts(Arc<Inner>);

struct Inner {
    to: Vec<String>,
    /// The outbox's database and the worker to wake, when e-mail is configured.
    mail: Option<(DbPool, Outbox)>,
    replica_after: Duration,
    state: Mutex<State>,
}

impl Alerts {
    pub fn new(settings: &Settings, pool: DbPool, outbox: Outbox) -> Alerts {
        let mail = (settings.smtp_url.is_some() && !settings.notify_to.is_empty())
            .then_some((pool, outbox));
        Alerts(Arc::new(Inner {
            to: settings.notify_to.clone(),
            mail,
            replica_after: Duration::from_secs(settings.replica_alert_after),
            state: Mutex::new(State::default()),
        }))
    }

    /// How long a concern lasts before its alert: `replica_alert_after` for the replica (a store down for a minute
    /// is no news); the others are judged by their reporters and are news at once.
    fn after(&self, concern: Concern) -> Duration {
        match concern {
            Concern::ReplicaBehind => self.0.replica_after,
            _ => Duration::ZERO,
        }
    }

    /// `concern` as it is now: `Some(trouble)`, a line saying what is wrong with its figures ("the off-site copy of
    /// the leads is behind since ...: 37 leads not copied yet"), or `None` when all is well. The alert, if one is
    /// due, is queued at once.
    pub fn report(&self, concern: Concern, trouble: Option<String>) {
        if let Some(mail) = self.decide(concern, trouble.as_deref(), Instant::now()) {
            self.send(mail);
        }
    }

    /// The e-mail `concern`'s new state calls for at `now`, if any (the state kept for the next report).
    fn decide(&self, concern: Concern, trouble: Option<&str>, now: Instant) -> Option<ReportMail> {
        let mut state = self.0.state.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(trouble) = trouble else {
            let track = state.open.remove(&concern)?;
            return track.alerted.then(|| {
                let lasted = now.saturating_duration_since(track.since);
                self.mail(
                    concern.resolved().to_string(),
                    format!(
                        "{} (after {}).\n\nNothing more to do.",
                        concern.resolved(),
                        lasting(lasted)
                    ),
                )
            });
        };
        let after = self.after(concern);
        let track = state.open.entry(concern).or_insert(Track {
            since: now,
            alerted: false,
        });
        if track.alerted || now.saturating_duration_since(track.since) < after {
            return None;
        }
        let quiet = state
            .last_alert
            .get(&concern)
            .is_some_and(|at| now.saturating_duration_since(*at) < QUIET_FOR);
        if quiet {
            // Not told now: told once the hour is over if it still lasts; and no "resolved" for it.
            return None;
        }
        if let Some(track) = state.open.get_mut(&concern) {
            track.alerted = true;
        }
        state.last_alert.insert(concern, now);
        // The subject is the trouble's first sentence; the text has it whole.
        let headline = trouble
            .split_once(". ")
            .map_or(trouble, |(first, _)| first)
            .trim_end_matches('.');
        let whole = upper_first(trouble.trim_end_matches('.'));
        Some(self.mail(
            format!("Action needed: {}", lowercased(headline)),
            format!("{whole}.\n\n{}", concern.advice()),
        ))
    }

    fn mail(&self, subject: String, text: String) -> ReportMail {
        let html = format!(
            "<!doctype html><html><body>{}</body></html>",
            text.split("\n\n")
                .map(|paragraph| format!("<p>{}</p>", escape_html(paragraph)))
                .collect::<String>()
        );
        ReportMail {
            subject,
            text,
            html,
            to: self.0.to.clone(),
        }
    }

    /// Logs the alert and queues its e-mail for the worker's e-mail lane.
    fn send(&self, mail: ReportMail) {
        let Some((pool, outbox)) = self.0.mail.clone() else {
            rocket::warn!(
                "alert (not e-mailed: smtp_url or notify_to unset): {}",
                mail.subject
            );
            return;
        };
        rocket::warn!("alert e-mailed to notify_to: {}", mail.subject);
        rocket::tokio::task::spawn_blocking(move || {
            let queued = pool
                .get()
                .map_err(|error| error.to_string())
                .and_then(|connection| {
                    crate::notify::outbox::enqueue_alert(&connection, &mail.to_json())
                        .map_err(|error| error.to_string())
                });
            match queued {
                Ok(_) => outbox.wake_news(),
                Err(error) => rocket::error!("the alert could not be queued: {error}"),
            }
        });
    }
}

/// `12 min`, `3 h 5 min`, `40 s`.
fn lasting(length: Duration) -> String {
    let seconds = length.as_secs();
    match seconds {
        0..60 => format!("{seconds} s"),
        60..3600 => format!("{} min", seconds / 60),
        _ => format!("{} h {} min", seconds / 3600, seconds % 3600 / 60),
    }
}

/// The first letter in lower case, unless the first word is an acronym ("HTTPS").
fn lowercased(text: &str) -> String {
    let first_word = text.split(' ').next().unwrap_or_default();
    if first_word.len() > 1 && first_word.chars().all(|c| !c.is_lowercase()) {
        return text.to_string();
    }
    lower_first(text)
}

#[cfg(test)]
mod tests;
