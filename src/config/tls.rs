//! The built-in HTTPS settings (issue 38): the names on the certificate, the ACME directory and its CA, the two
//! ports. Kept apart from the other settings (flattened into [`super::Settings`]) so that this block is one file.

use std::path::PathBuf;

use serde::{Deserialize, Deserializer, Serialize};

use super::OneOrMany;

/// Let's Encrypt's production directory, the default `acme_directory`.
pub const LETS_ENCRYPT: &str = "https://acme-v02.api.letsencrypt.org/directory";

/// The keys of [`TlsSettings`], each also `TRUCKINS_<KEY>`.
pub const KEYS: [&str; 6] = [
    "tls_domains",
    "acme_directory",
    "acme_ca_root",
    "acme_email",
    "https_port",
    "http_port",
];

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct TlsSettings {
    /// The names on the certificate, the first canonical (`["example.com", "www.example.com"]`; comma-separated
    /// in the environment). Empty: no built-in HTTPS (a proxy such as Caddy in front, as before).
    #[serde(deserialize_with = "names")]
    pub tls_domains: Vec<String>,
    /// The ACME directory the certificate is ordered from.
    pub acme_directory: String,
    /// A PEM file of certificate authorities trusted for the ACME directory's own HTTPS besides the public ones
    /// (a private ACME server, the tests' pebble).
    pub acme_ca_root: Option<PathBuf>,
    /// The contact address given to the ACME server (optional).
    pub acme_email: Option<String>,
    /// The HTTPS port (HTTP/2 and HTTP/1.1; TLS-ALPN-01).
    pub https_port: u16,
    /// The plain HTTP port: ACME's HTTP-01 answers, every other request redirected to HTTPS.
    pub http_port: u16,
}

impl Default for TlsSettings {
    fn default() -> Self {
        TlsSettings {
            tls_domains: Vec::new(),
            acme_directory: LETS_ENCRYPT.to_string(),
            acme_ca_root: None,
            acme_email: None,
            https_port: 443,
            http_port: 80,
        }
    }
}

impl TlsSettings {
    /// Whether the server does HTTPS itself.
    pub fn enabled(&self) -> bool {
        !self.tls_domains.is_empty()
    }

    /// One line saying what is wrong, if anything.
    pub fn check(&self) -> Result<(), String> {
        if !self.enabled() {
            return Ok(());
        }
        for name in &self.tls_domains {
            let fine = name.len() <= 253
                && name.contains('.')
                && name.split('.').all(|label| {
                    !label.is_empty()
                        && label.len() <= 63
                        && !label.starts_with('-')
                        && !label.ends_with('-')
                        && label
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                });
            if !fine {
                return Err(format!(
                    "invalid setting `tls_domains`: {name:?} is not a domain name (like www.example.com)"
                ));
            }
        }
        if !self.acme_directory.starts_with("https://") {
            return Err(format!(
                "invalid setting `acme_directory`: {:?} must be an https:// address",
                self.acme_directory
            ));
        }
        if self.https_port == 0 || self.http_port == 0 || self.https_port == self.http_port {
            return Err(
                "invalid setting: `https_port` and `http_port` must be two different ports".into(),
            );
        }
        if let Some(email) = &self.acme_email
            && (!email.contains('@') || email.contains(char::is_whitespace))
        {
            return Err(format!(
                "invalid setting `acme_email`: {email:?} is not an e-mail address"
            ));
        }
        Ok(())
    }

    /// The start-up log's lines.
    pub fn describe(&self) -> Vec<String> {
        if !self.enabled() {
            return vec!["tls_domains = none (HTTP only: a proxy in front does HTTPS)".to_string()];
        }
        vec![
            format!(
                "tls_domains = {} (HTTPS on port {}, HTTP/2; port {} redirects)",
                self.tls_domains.join(", "),
                self.https_port,
                self.http_port
            ),
            format!("acme_directory = {}", self.acme_directory),
        ]
    }
}

/// A list of names, or one string of comma-separated names (the environment's form), trimmed and lowercased.
fn names<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    let list = match OneOrMany::deserialize(deserializer)? {
        OneOrMany::One(text) => text.split(',').map(str::to_string).collect(),
        OneOrMany::Many(list) => list,
    };
    Ok(list
        .into_iter()
        .map(|name| name.trim().trim_end_matches('.').to_ascii_lowercase())
        .filter(|name| !name.is_empty())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_ports_must_differ() {
        let mut tls = TlsSettings::default();
        assert!(tls.check().is_ok());
        tls.tls_domains = vec!["example.com".into(), "www.example.com".into()];
        assert!(tls.check().is_ok());
        tls.tls_domains.push("not a name".into());
        assert!(tls.check().unwrap_err().contains("not a name"));
        tls.tls_domains.pop();
        tls.http_port = 443;
        assert!(tls.check().is_err());
        tls.http_port = 80;
        tls.acme_directory = "http://acme.example".into();
        assert!(tls.check().is_err());
    }
}
