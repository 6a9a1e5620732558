//! The notification settings: `smtp_url` read into a [`Relay`], the webhook's address read into a [`Target`], the
//! checks that stop the start with one line, and the start-up description, which never shows a password, the
//! webhook's secret or its path (a hook's path is often its key).

use std::net::IpAddr;

use lettre::message::Mailbox;
use serde::{Deserialize, Deserializer};

use crate::config::Settings;

/// How the connection to the relay is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Security {
    /// `smtp://`: plain connection upgraded with STARTTLS, which must succeed.
    StartTls,
    /// `smtps://`: TLS from the first byte.
    Tls,
    /// `smtp://...?tls=none`: no TLS, for a relay on this machine only.
    Plain,
}

/// The mail relay of `smtp_url`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relay {
    pub host: String,
    pub port: u16,
    pub security: Security,
    /// User name and password, percent-decoded.
    pub credentials: Option<(String, String)>,
}

impl Relay {
    /// Reads `smtp_url`; the error names the problem without repeating the URL (it may hold the password).
    pub fn parse(text: &str) -> Result<Relay, String> {
        let url = url::Url::parse(text).map_err(|e| {
            format!("`smtp_url` is not a URL ({e}); e.g. smtp://user:pass@host:587")
        })?;
        let host = url
            .host_str()
            .filter(|host| !host.is_empty())
            .ok_or("`smtp_url` has no host; e.g. smtp://user:pass@host:587")?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let mut plain = false;
        for (key, value) in url.query_pairs() {
            match (&*key, &*value) {
                ("tls", "none") => plain = true,
                _ => {
                    return Err(format!(
                        "`smtp_url` has an unknown option `{key}={value}`; the only one is tls=none"
                    ));
                }
            }
        }
        let security = match (url.scheme(), plain) {
            ("smtp", false) => Security::StartTls,
            ("smtp", true) => Security::Plain,
            ("smtps", false) => Security::Tls,
            ("smtps", true) => {
                return Err("`smtp_url`: smtps:// and tls=none contradict each other".into());
            }
            (scheme, _) => {
                return Err(format!(
                    "`smtp_url` must begin with smtp:// or smtps://, not {scheme}://"
                ));
            }
        };
        if security == Security::Plain && !is_loopback(&host) {
            return Err(format!(
                "`smtp_url`: tls=none sends the password and the leads unencrypted, so it is allowed only for a relay \
                 on this machine (127.0.0.1, ::1, localhost), not {host}"
            ));
        }
        let port = url.port().unwrap_or(match security {
            Security::Tls => 465,
            Security::StartTls => 587,
            Security::Plain => 25,
        });
        let decode = |text: &str| {
            percent_encoding::percent_decode_str(text)
                .decode_utf8_lossy()
                .into_owned()
        };
        let credentials = match (url.username(), url.password()) {
            ("", None) => None,
            (user, password) => Some((decode(user), decode(password.unwrap_or("")))),
        };
        Ok(Relay {
            host,
            port,
            security,
            credentials,
        })
    }

    /// The relay as shown at start and by `truckins notify test`: the password never.
    pub fn describe(&self) -> String {
        let scheme = if self.security == Security::Tls {
            "smtps"
        } else {
            "smtp"
        };
        let user = match &self.credentials {
            Some((user, _)) => format!("{user}:***@"),
            None => String::new(),
        };
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        let security = match self.security {
            Security::StartTls => "STARTTLS required",
            Security::Tls => "TLS",
            Security::Plain => "no TLS, this machine only",
        };
        format!("{scheme}://{user}{host}:{} ({security})", self.port)
    }
}

/// The webhook's address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub https: bool,
    pub host: String,
    pub port: u16,
    /// Path and query, as sent in the request line.
    pub path: String,
}

impl Target {
    pub fn parse(text: &str) -> Result<Target, String> {
        let url = url::Url::parse(text).map_err(|e| {
            format!("`webhook_url` is not a URL ({e}); e.g. https://hooks.example.com/truckins")
        })?;
        let https = match url.scheme() {
            "https" => true,
            "http" => false,
            other => return Err(format!("`webhook_url` must be https://, not {other}://")),
        };
        let host = url
            .host_str()
            .ok_or("`webhook_url` has no host")?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        if !https && !is_loopback(&host) {
            return Err(format!(
                "`webhook_url` must be https:// (leads are personal data); http:// is allowed only for this machine, \
                 not {host}"
            ));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(
                "`webhook_url` must not hold a user name or password: the signature authenticates"
                    .into(),
            );
        }
        let mut path = url.path().to_string();
        if let Some(query) = url.query() {
            path.push('?');
            path.push_str(query);
        }
        Ok(Target {
            https,
            port: url
                .port_or_known_default()
                .unwrap_or(if https { 443 } else { 80 }),
            host,
            path,
        })
    }

    /// The `Host` header's value.
    pub fn authority(&self) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        let default = if self.https { 443 } else { 80 };
        if self.port == default {
            host
        } else {
            format!("{host}:{}", self.port)
        }
    }

    /// Scheme and host only: the path of a hook is often its key.
    pub fn describe(&self) -> String {
        format!(
            "{}://{}/…",
            if self.https { "https" } else { "http" },
            self.authority()
        )
    }
}

/// Whether `host` is this machine: a loopback address or `localhost`.
fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// `notify_to` as a list (Rocket.toml) or as one comma-separated string (the environment, a flag).
pub fn addresses<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
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
                super::mail::read_ca_file(file).map_err(invalid)?;
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
    if settings.notify_timeout == 0 || settings.notify_timeout > 600 {
        return Err("invalid setting: `notify_timeout` must be 1 to 600 seconds".into());
    }
    let base = settings.notify_retry_base;
    if !(base.is_finite() && base > 0.0 && base <= 3600.0) {
        return Err(
            "invalid setting: `notify_retry_base` must be more than 0 and at most 3600 seconds"
                .into(),
        );
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
    fn relays_are_read_with_their_security_and_decoded_credentials() {
        let relay = Relay::parse("smtp://apikey:p%40ss%3Aword@smtp.example.com:587").unwrap();
        assert_eq!(relay.security, Security::StartTls);
        assert_eq!(
            relay.credentials,
            Some(("apikey".into(), "p@ss:word".into()))
        );
        assert_eq!(
            relay.describe(),
            "smtp://apikey:***@smtp.example.com:587 (STARTTLS required)"
        );
        let wrapped = Relay::parse("smtps://u:p@smtp.example.com").unwrap();
        assert_eq!((wrapped.security, wrapped.port), (Security::Tls, 465));
        let local = Relay::parse("smtp://127.0.0.1:2525?tls=none").unwrap();
        assert_eq!(
            (local.security, local.port, local.credentials),
            (Security::Plain, 2525, None)
        );
        assert!(Relay::parse("smtp://[::1]:25?tls=none").is_ok());
        for bad in [
            "smtp://mail.example.com:25?tls=none",
            "smtps://localhost?tls=none",
            "http://mail.example.com",
            "smtp://host?starttls=off",
            "mail.example.com:587",
        ] {
            let error = Relay::parse(bad).unwrap_err();
            assert!(!error.contains("p@ss"), "{error}");
        }
        let error = Relay::parse("smtp://u:secret@mail.example.com:25?tls=none").unwrap_err();
        assert!(!error.contains("secret"), "{error}");
    }

    #[test]
    fn webhooks_must_be_https_unless_on_this_machine() {
        let target = Target::parse("https://hooks.example.com/catch/123/abc?x=1").unwrap();
        assert_eq!(
            (target.port, target.path.as_str(), target.authority()),
            (443, "/catch/123/abc?x=1", "hooks.example.com".to_string())
        );
        assert_eq!(target.describe(), "https://hooks.example.com/…");
        assert_eq!(
            Target::parse("http://127.0.0.1:9000/in")
                .unwrap()
                .authority(),
            "127.0.0.1:9000"
        );
        assert!(Target::parse("http://hooks.example.com/in").is_err());
        assert!(Target::parse("ftp://hooks.example.com/in").is_err());
    }

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
        for secret in ["hunter2", "SECRETPATH", "0123456789abcdef"] {
            assert!(!text.contains(secret), "{text}");
        }
        assert!(!text.contains("only be stored"));
    }
}
