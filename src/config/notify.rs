//! The notification settings checked together (what is missing, what contradicts, what is unsafe: one line that
//! stops the start) and described at start, never showing a password, the webhook's secret or its path (a hook's
//! path is often its key); `notify_to` read from a list or from commas.

use lettre::message::Mailbox;
use serde::{Deserialize, Deserializer};

use super::endpoints::{Relay, Target};
use super::{OneOrMany, Settings};

/// `notify_to` as a list (the settings file) or as one comma-separated string (the environment, a flag).
pub fn addresses<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    let list = match OneOrMany::deserialize(deserializer)? {
        OneOrMany::One(text) => vec![text],
        OneOrMany::Many(list) => list,
    };
    Ok(list
        .iter()
        .flat_map(|item| item.split(','))
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_string)
        .collect())
}

/// A mailbox of the settings (`leads@example.com` or `Agency <leads@example.com>`).
pub fn mailbox(key: &str, text: &str) -> Result<Mailbox, String> {
    text.trim()
        .parse::<Mailbox>()
        .map_err(|e| format!("invalid setting `{key}`: {text:?} is not an e-mail address ({e})"))
}

/// The largest `notify_retry_base`: with the ±25 % jitter the first retry stays within 30 s.
pub const MAX_RETRY_BASE: f64 = 24.0;

/// The notification settings checked together; one line saying what is wrong.
pub fn check(settings: &Settings) -> Result<(), String> {
    let invalid = |why: String| format!("invalid setting: {why}");
    match &settings.smtp_url {
        Some(url) => {
            Relay::parse(url).map_err(invalid)?;
            let Some(from) = &settings.mail_from else {
                return Err(
                    "invalid setting: `smtp_url` needs `mail_from`, the agency's own address to send from".into(),
                );
            };
            mailbox("mail_from", from)?;
            if settings.notify_to.is_empty() {
                return Err(
                    "invalid setting: `smtp_url` needs `notify_to`, where the leads' e-mails go"
                        .into(),
                );
            }
            for to in &settings.notify_to {
                mailbox("notify_to", to)?;
            }
            if let Some(file) = &settings.smtp_ca_file {
                super::endpoints::ca_file("smtp_ca_file", file).map_err(invalid)?;
            }
        }
        None => {
            let needs_relay = [
                ("notify_to", !settings.notify_to.is_empty()),
                ("mail_from", settings.mail_from.is_some()),
                ("smtp_ca_file", settings.smtp_ca_file.is_some()),
                ("autoreply", settings.autoreply),
            ];
            if let Some((key, _)) = needs_relay.iter().find(|(_, set)| *set) {
                return Err(format!(
                    "invalid setting: `{key}` needs `smtp_url`, the relay that sends the e-mail"
                ));
            }
        }
    }
    match (&settings.webhook_url, &settings.webhook_secret) {
        (Some(url), Some(secret)) => {
            Target::parse(url).map_err(invalid)?;
            if secret.chars().count() < 16 {
                return Err(
                    "invalid setting: `webhook_secret` must be at least 16 characters (e.g. openssl rand -hex 32)"
                        .into(),
                );
            }
        }
        (Some(_), None) => {
            return Err("invalid setting: `webhook_url` needs `webhook_secret`, the key its signature is made with".into());
        }
        (None, Some(_)) => {
            return Err("invalid setting: `webhook_secret` is set without `webhook_url`".into());
        }
        (None, None) => {}
    }
    if let Some(file) = &settings.webhook_ca_file {
        if settings.webhook_url.is_none() {
            return Err("invalid setting: `webhook_ca_file` needs `webhook_url`".into());
        }
        super::endpoints::ca_file("webhook_ca_file", file).map_err(invalid)?;
    }
    if settings.notify_timeout == 0 || settings.notify_timeout > 600 {
        return Err("invalid setting: `notify_timeout` must be 1 to 600 seconds".into());
    }
    let base = settings.notify_retry_base;
    if !(base.is_finite() && base > 0.0 && base <= MAX_RETRY_BASE) {
        return Err(format!(
            "invalid setting: `notify_retry_base` must be more than 0 and at most {MAX_RETRY_BASE} seconds (the first retry within 30 s)"
        ));
    }
    Ok(())
}

/// The notification lines of the start-up description (settings already checked).
pub fn describe(settings: &Settings) -> Vec<String> {
    let mut lines = Vec::new();
    let relay = settings
        .smtp_url
        .as_deref()
        .and_then(|url| Relay::parse(url).ok());
    let target = settings
        .webhook_url
        .as_deref()
        .and_then(|url| Target::parse(url).ok());
    if relay.is_none() && target.is_none() {
        lines.push(
            "notifications = none: leads will only be stored (set smtp_url, mail_from and notify_to for e-mail, \
             webhook_url and webhook_secret for a webhook)"
                .to_string(),
        );
    }
    if let Some(relay) = relay {
        lines.push(format!("smtp_url = {}", relay.describe()));
        if let Some(file) = &settings.smtp_ca_file {
            lines.push(format!("smtp_ca_file = {}", file.display()));
        }
        lines.push(format!(
            "mail_from = {}",
            settings.mail_from.as_deref().unwrap_or("")
        ));
        lines.push(format!("notify_to = {}", settings.notify_to.join(", ")));
        lines.push(format!(
            "autoreply = {}",
            if settings.autoreply { "on" } else { "off" }
        ));
    }
    if let Some(target) = target {
        lines.push(format!(
            "webhook_url = {} (signed; path and secret not shown)",
            target.describe()
        ));
        if let Some(file) = &settings.webhook_ca_file {
            lines.push(format!("webhook_ca_file = {}", file.display()));
        }
    }
    if !lines[0].starts_with("notifications = none") {
        lines.push(format!(
            "notify_timeout = {} s, first retry after about {} s",
            settings.notify_timeout, settings.notify_retry_base
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notify_to_takes_a_list_or_commas() {
        #[derive(Deserialize)]
        struct Holder {
            #[serde(deserialize_with = "addresses")]
            to: Vec<String>,
        }
        let one: Holder =
            serde_json::from_str(r#"{"to": "a@example.com, b@example.com,"}"#).unwrap();
        let many: Holder =
            serde_json::from_str(r#"{"to": ["a@example.com", "b@example.com"]}"#).unwrap();
        assert_eq!(one.to, vec!["a@example.com", "b@example.com"]);
        assert_eq!(many.to, one.to);
    }

    fn with(change: impl FnOnce(&mut Settings)) -> Result<(), String> {
        let mut settings = Settings::default();
        change(&mut settings);
        check(&settings)
    }

    #[test]
    fn a_webhook_ca_file_needs_the_webhook_and_a_certificate() {
        let hook = |s: &mut Settings| {
            s.webhook_url = Some("https://hooks.example.com/x".into());
            s.webhook_secret = Some("0123456789abcdef0123".into());
        };
        let alone = with(|s| s.webhook_ca_file = Some("/etc/ca.pem".into())).unwrap_err();
        assert!(
            alone.contains("`webhook_ca_file` needs `webhook_url`"),
            "{alone}"
        );
        let not_pem = std::env::temp_dir().join(format!("truckins-not-pem-{}", std::process::id()));
        std::fs::write(&not_pem, "not a certificate").unwrap();
        let empty = with(|s| {
            hook(s);
            s.webhook_ca_file = Some(not_pem.clone());
        })
        .unwrap_err();
        assert!(empty.contains("holds no PEM certificate"), "{empty}");
        let missing = with(|s| {
            hook(s);
            s.webhook_ca_file = Some("/nonexistent/ca.pem".into());
        })
        .unwrap_err();
        assert!(missing.contains("cannot be read"), "{missing}");
        let _ = std::fs::remove_file(not_pem);
    }

    #[test]
    fn incomplete_or_unsafe_settings_stop_the_start() {
        assert!(with(|_| {}).is_ok());
        let mail = |s: &mut Settings| {
            s.smtp_url = Some("smtp://u:p@smtp.example.com:587".into());
            s.mail_from = Some("Milepost <leads@example.com>".into());
            s.notify_to = vec!["agent@example.com".into()];
        };
        assert!(with(mail).is_ok());
        assert!(
            with(|s| {
                mail(s);
                s.mail_from = None
            })
            .unwrap_err()
            .contains("mail_from")
        );
        assert!(
            with(|s| {
                mail(s);
                s.notify_to.clear()
            })
            .unwrap_err()
            .contains("notify_to")
        );
        assert!(
            with(|s| {
                mail(s);
                s.notify_to = vec!["not an address".into()]
            })
            .is_err()
        );
        assert!(
            with(|s| s.autoreply = true)
                .unwrap_err()
                .contains("smtp_url")
        );
        assert!(
            with(|s| s.webhook_url = Some("https://h.example.com/x".into()))
                .unwrap_err()
                .contains("secret")
        );
        assert!(
            with(|s| {
                s.webhook_url = Some("https://h.example.com/x".into());
                s.webhook_secret = Some("short".into());
            })
            .is_err()
        );
        assert!(with(|s| s.notify_retry_base = 0.0).is_err());
        assert!(with(|s| s.notify_retry_base = 24.0).is_ok());
        assert!(
            with(|s| s.notify_retry_base = 25.0)
                .unwrap_err()
                .contains("at most 24")
        );
        assert!(with(|s| s.notify_timeout = 0).is_err());
    }

    #[test]
    fn the_description_shows_no_secret() {
        let mut settings = Settings::default();
        assert!(describe(&settings)[0].contains("leads will only be stored"));
        settings.smtp_url = Some("smtps://user:hunter2hunter2@smtp.example.com".into());
        settings.mail_from = Some("leads@example.com".into());
        settings.notify_to = vec!["a@example.com".into()];
        settings.webhook_url = Some("https://hooks.example.com/catch/SECRETPATH".into());
        settings.webhook_secret = Some("0123456789abcdef0123".into());
        let text = describe(&settings).join("\n");
        for secret in ["hunter2", "user", "SECRETPATH", "0123456789abcdef"] {
            assert!(!text.contains(secret), "{text}");
        }
        assert!(!text.contains("only be stored"));
        assert!(text.contains("u***:***@"), "{text}");
        let debug = format!("{settings:?}");
        for secret in ["hunter2", "user:", "0123456789abcdef"] {
            assert!(!debug.contains(secret), "{debug}");
        }
    }
}
