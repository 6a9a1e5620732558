//! The two addresses notifications go to, read and checked: the relay of `smtp_url` ([`Relay`]: how it is protected,
//! its credentials) and the webhook's URL ([`Target`]). Plain text goes only to this machine; an error never repeats
//! the URL, which may hold a password, and the description never shows the password or a hook's path.

use std::net::IpAddr;
use std::path::Path;

use rustls::pki_types::CertificateDer;

/// The certificate authorities of a PEM file named by `setting` (`smtp_ca_file`, `webhook_ca_file`), trusted
/// besides the public ones: read and checked, at least one.
pub fn ca_file(setting: &str, path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    use rustls::pki_types::pem::PemObject;
    let unreadable =
        |e: &dyn std::fmt::Display| format!("`{setting}` {} cannot be read: {e}", path.display());
    let certificates = CertificateDer::pem_file_iter(path)
        .map_err(|e| unreadable(&e))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| unreadable(&e))?;
    if certificates.is_empty() {
        return Err(format!(
            "`{setting}` {} holds no PEM certificate",
            path.display()
        ));
    }
    Ok(certificates)
}

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
                // Named, never its value: a password put in the wrong place would be printed with it.
                ("tls", _) => {
                    return Err(
                        "`smtp_url`'s option `tls` takes only the value none (tls=none)".into(),
                    );
                }
                _ => {
                    return Err(format!(
                        "`smtp_url` has an unknown option `{}`; the only one is tls=none",
                        crate::text::printable(&key)
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
            Some((user, _)) => format!("{}:***@", mask(user)),
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

/// A user name shown by its first character only (`a***`).
pub fn mask(user: &str) -> String {
    match user.chars().next() {
        Some(first) => format!("{first}***"),
        None => "***".to_string(),
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
            "smtp://a***:***@smtp.example.com:587 (STARTTLS required)"
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
    fn an_unknown_option_is_named_without_its_value() {
        let error = Relay::parse("smtp://u@mail.example.com:587?password=hunter2").unwrap_err();
        assert!(error.contains("`password`"), "{error}");
        assert!(!error.contains("hunter2"), "{error}");
        let error = Relay::parse("smtp://u@mail.example.com:587?tls=hunter2").unwrap_err();
        assert!(
            error.contains("`tls`") && !error.contains("hunter2"),
            "{error}"
        );
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
}
