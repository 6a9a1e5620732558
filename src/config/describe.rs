//! The effective configuration as the server prints it at start: one `key = value` per line, no secrets.

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
    lines.extend(settings.tls.describe());
    if let Some(file) = &settings.test_clock {
        lines.push(format!(
            "test_clock = {} (TESTS ONLY: the time is read from this file)",
            file.display()
        ));
    }
    lines.join("\n")
}
