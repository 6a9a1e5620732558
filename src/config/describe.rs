//! The effective configuration as the server prints it at start: one `key = value` per line, no secrets; and the
//! settings' `Debug`, with the secrets masked.

use std::net::IpAddr;

use rocket::figment::Figment;

use super::Settings;

/// The effective configuration, one `key = value` per line, for the start-up log; `built_base_url` is the public
/// address the site was built with, shown when `base_url` is unset.
pub fn describe(figment: &Figment, settings: &Settings, built_base_url: &str) -> String {
    let rocket: rocket::Config = rocket::Config::from(figment);
    let base_url = settings
        .base_url
        .clone()
        .unwrap_or_else(|| format!("{built_base_url} (built in)"));
    let proxies = settings
        .trusted_proxies
        .iter()
        .map(IpAddr::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let mut lines = vec![
        format!("address = {}", rocket.address),
        format!("port = {}", rocket.port),
        format!("database = {}", settings.database.display()),
        format!(
            "carriers_database = {}",
            settings.carriers_database().display()
        ),
        format!("base_url = {base_url}"),
        format!("trusted_proxies = [{proxies}]"),
        format!("ip_limit = {} per 10 minutes", settings.ip_limit),
        format!(
            "carrier_lookup_limit = {} per 10 minutes",
            settings.carrier_lookup_limit
        ),
        format!("pool_size = {}", settings.pool_size),
        format!("log_format = {:?}", settings.log_format).to_lowercase(),
        format!("hsts = {}", settings.hsts),
        format!("request_head_timeout = {} s", settings.request_head_timeout),
        format!("request_body_timeout = {} s", settings.request_body_timeout),
        match rocket.keep_alive {
            0 => "keep_alive = off".to_string(),
            seconds => format!("keep_alive = {seconds} s"),
        },
        format!("max_connections = {}", settings.max_connections),
        format!(
            "max_connections_per_ip = {} (not for trusted_proxies)",
            settings.max_connections_per_ip
        ),
        format!("workers = {}", rocket.workers),
        format!("shutdown grace = {} s", rocket.shutdown.grace),
        format!(
            "analytics = {}",
            if settings.analytics { "on" } else { "off" }
        ),
    ];
    lines.extend(super::notify::describe(settings));
    lines.push(match &settings.replica_socket {
        None => {
            "replica = none (replica_socket unset: the leads are on this machine only)".to_string()
        }
        Some(socket) => format!(
            "replica_socket = {} (Litestream), replica_acknowledge = {}, replica_wait = {} s, replica_alert_after = {} s",
            socket.display(),
            settings.replica_acknowledge,
            settings.replica_wait,
            settings.replica_alert_after
        ),
    });
    lines.push(match settings.lead_retention_days {
        0 => "lead_retention_days = 0 (leads and opt-outs kept until erased by hand)".to_string(),
        days => {
            format!("lead_retention_days = {days} (older leads and opt-outs erased once a day)")
        }
    });
    lines.push(match &settings.time_zone {
        Some(name) => format!("time_zone = {name}"),
        None => format!("time_zone = the server's ({})", crate::hours::zone_name()),
    });
    lines.push(match settings.remind_after_minutes {
        0 => "remind_after_minutes = 0 (no reminders)".to_string(),
        minutes => format!("remind_after_minutes = {minutes} business minutes"),
    });
    lines.push(match settings.xdate_lead_days {
        0 => "xdate_lead_days = 0 (no x-date e-mails)".to_string(),
        days => format!("xdate_lead_days = {days} (a quote not won: one e-mail that many days before its policy expires)"),
    });
    lines.extend(settings.tls.describe());
    if let Some(file) = &settings.test_clock {
        lines.push(format!(
            "test_clock = {} (TESTS ONLY: the time is read from this file)",
            file.display()
        ));
    }
    lines.join("\n")
}

/// Everything but the secrets: `smtp_url`'s user name and password and `webhook_secret` are masked.
impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let smtp_url = self.smtp_url.as_deref().map(|url| {
            super::endpoints::Relay::parse(url)
                .map(|relay| relay.describe())
                .unwrap_or_else(|_| "(not shown)".to_string())
        });
        let webhook_url = self.webhook_url.as_deref().map(|url| {
            super::endpoints::Target::parse(url)
                .map(|target| target.describe())
                .unwrap_or_else(|_| "(not shown)".to_string())
        });
        f.debug_struct("Settings")
            .field("database", &self.database)
            .field("carriers_database", &self.carriers_database)
            .field("carrier_lookup_limit", &self.carrier_lookup_limit)
            .field("base_url", &self.base_url)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("ip_limit", &self.ip_limit)
            .field("pool_size", &self.pool_size)
            .field("log_format", &self.log_format)
            .field("hsts", &self.hsts)
            .field("request_head_timeout", &self.request_head_timeout)
            .field("request_body_timeout", &self.request_body_timeout)
            .field("max_connections", &self.max_connections)
            .field("max_connections_per_ip", &self.max_connections_per_ip)
            .field("smtp_url", &smtp_url)
            .field("smtp_ca_file", &self.smtp_ca_file)
            .field("webhook_ca_file", &self.webhook_ca_file)
            .field("notify_to", &self.notify_to)
            .field("mail_from", &self.mail_from)
            .field("webhook_url", &webhook_url)
            .field(
                "webhook_secret",
                &self.webhook_secret.as_ref().map(|_| "***"),
            )
            .field("autoreply", &self.autoreply)
            .field("notify_timeout", &self.notify_timeout)
            .field("notify_retry_base", &self.notify_retry_base)
            .field("analytics", &self.analytics)
            .field("replica_socket", &self.replica_socket)
            .field("replica_acknowledge", &self.replica_acknowledge)
            .field("replica_wait", &self.replica_wait)
            .field("replica_alert_after", &self.replica_alert_after)
            .field("lead_retention_days", &self.lead_retention_days)
            .field("time_zone", &self.time_zone)
            .field("remind_after_minutes", &self.remind_after_minutes)
            .field("xdate_lead_days", &self.xdate_lead_days)
            .field("test_clock", &self.test_clock)
            .field("tls", &self.tls)
            .finish()
    }
}
