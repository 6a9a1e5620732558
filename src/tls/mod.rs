//! Built-in HTTPS (issue 38): the certificate the server presents, the ACME challenges it answers, and what the
//! owner and the monitors are told about them.
//!
//! [`Tls`] is shared by the HTTPS listener (its certificate resolver), the plain HTTP listener (HTTP-01 answers),
//! `/healthz` (Rocket state) and the background task that obtains and renews the certificate ([`acme`]). The
//! certificate and the ACME account live in the leads database ([`store`], migration 0016), so a restored or copied
//! database serves the same certificate at once, without a new order. Rooms: [`acme`] (ordering, renewal and the
//! retry schedule), [`client`] (the ACME client's HTTPS, through our own hyper and rustls), [`der`] (a
//! certificate's validity), [`store`] (the tables).

pub mod acme;
mod client;
pub mod der;
pub mod store;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, RwLock};

use rustls::crypto::ring;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use serde_json::{Value, json};

use crate::config::tls::TlsSettings;

/// The ALPN protocol of TLS-ALPN-01 (RFC 8737).
pub const ACME_TLS_ALPN: &[u8] = b"acme-tls/1";
/// A day, in seconds: how long renewal may keep failing before the owner is told.
const DAY: i64 = 86_400;
/// Days left under which the owner is told, whatever else.
const WARN_DAYS: i64 = 14;

/// A certificate being served, with its validity (Unix seconds).
#[derive(Clone)]
struct Installed {
    key: Arc<CertifiedKey>,
    not_before: i64,
    not_after: i64,
}

/// Why the last attempts failed, and since when.
#[derive(Default, Clone)]
struct Trouble {
    failing_since: Option<i64>,
    last_error: Option<String>,
    next_attempt: Option<i64>,
}

/// The built-in HTTPS's state, shared by the listeners, `/healthz` and the ACME task.
pub struct Tls {
    pub settings: TlsSettings,
    current: RwLock<Option<Installed>>,
    /// HTTP-01: token → key authorization.
    http01: Mutex<HashMap<String, String>>,
    /// TLS-ALPN-01: name → its challenge certificate.
    alpn01: Mutex<HashMap<String, Arc<CertifiedKey>>>,
    trouble: Mutex<Trouble>,
    /// When the CA's renewal information (ARI) would have the served certificate renewed, if it said so.
    ari_renew_at: Mutex<Option<i64>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A certificate chain and its private key, both PEM, as stored and as the ACME server issued them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pem {
    pub chain: String,
    pub key: String,
}

impl Pem {
    /// The chain and key as rustls serves them, with the first certificate's validity.
    pub fn certified(&self) -> Result<(Arc<CertifiedKey>, der::Validity), String> {
        let chain = CertificateDer::pem_slice_iter(self.chain.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("the certificate chain cannot be read: {e}"))?;
        let first = chain.first().ok_or("the certificate chain is empty")?;
        let validity = der::validity(first)?;
        let key = PrivateKeyDer::from_pem_slice(self.key.as_bytes())
            .map_err(|e| format!("the private key cannot be read: {e}"))?;
        let signing = ring::sign::any_supported_type(&key)
            .map_err(|e| format!("the private key cannot sign: {e}"))?;
        Ok((Arc::new(CertifiedKey::new(chain, signing)), validity))
    }
}

impl Tls {
    pub fn new(settings: TlsSettings) -> Arc<Tls> {
        Arc::new(Tls {
            settings,
            current: RwLock::new(None),
            http01: Mutex::new(HashMap::new()),
            alpn01: Mutex::new(HashMap::new()),
            trouble: Mutex::new(Trouble::default()),
            ari_renew_at: Mutex::new(None),
        })
    }

    /// The canonical name: the first of `tls_domains`.
    pub fn canonical(&self) -> &str {
        self.settings
            .tls_domains
            .first()
            .map_or("localhost", String::as_str)
    }

    /// Serves `pem` from now on (unless it cannot be read, which is said).
    pub fn install(&self, pem: &Pem) -> Result<der::Validity, String> {
        let (key, validity) = pem.certified()?;
        let installed = Installed {
            key,
            not_before: validity.not_before,
            not_after: validity.not_after,
        };
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = Some(installed);
        // The CA's renewal information was about the certificate this one replaces.
        *lock(&self.ari_renew_at) = None;
        Ok(validity)
    }

    /// The validity of the certificate served now.
    pub fn validity(&self) -> Option<der::Validity> {
        let current = self.current.read().unwrap_or_else(|p| p.into_inner());
        current.as_ref().map(|installed| der::Validity {
            not_before: installed.not_before,
            not_after: installed.not_after,
        })
    }

    /// The served certificate itself (its DER), the first of its chain.
    pub fn leaf(&self) -> Option<CertificateDer<'static>> {
        let current = self.current.read().unwrap_or_else(|p| p.into_inner());
        current
            .as_ref()
            .and_then(|installed| installed.key.cert.first().cloned())
    }

    /// When the served certificate is renewed: two thirds into its life, or earlier when the CA's renewal
    /// information says so.
    pub fn renew_at(&self) -> Option<i64> {
        let planned = acme::renew_at(self.validity()?);
        Some(lock(&self.ari_renew_at).map_or(planned, |ari| ari.min(planned)))
    }

    pub(crate) fn set_ari_renew_at(&self, at: Option<i64>) {
        *lock(&self.ari_renew_at) = at;
    }

    /// The certificate for a handshake: a TLS-ALPN-01 challenge's when the client asks for `acme-tls/1` only (the
    /// ACME server validating), else the one served.
    fn certificate_for(&self, hello: &ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        let acme_only = hello.alpn().is_some_and(|mut protocols| {
            protocols.next() == Some(ACME_TLS_ALPN) && protocols.next().is_none()
        });
        if acme_only {
            let name = hello.server_name()?.to_ascii_lowercase();
            return lock(&self.alpn01).get(&name).cloned();
        }
        let current = self.current.read().unwrap_or_else(|p| p.into_inner());
        current.as_ref().map(|installed| installed.key.clone())
    }

    /// The key authorization to answer `GET /.well-known/acme-challenge/<token>` with, while the order is open.
    pub fn http01(&self, token: &str) -> Option<String> {
        lock(&self.http01).get(token).cloned()
    }

    pub(crate) fn offer_http01(&self, token: String, key_authorization: String) {
        lock(&self.http01).insert(token, key_authorization);
    }

    pub(crate) fn offer_alpn01(&self, name: String, certificate: Arc<CertifiedKey>) {
        lock(&self.alpn01).insert(name, certificate);
    }

    /// The order is over: no challenge is answered any more.
    pub(crate) fn withdraw_challenges(&self) {
        lock(&self.http01).clear();
        lock(&self.alpn01).clear();
    }

    pub(crate) fn failed(&self, now: i64, error: String, next_attempt: i64) {
        let mut trouble = lock(&self.trouble);
        trouble.failing_since.get_or_insert(now);
        trouble.last_error = Some(error);
        trouble.next_attempt = Some(next_attempt);
    }

    pub(crate) fn succeeded(&self) {
        *lock(&self.trouble) = Trouble::default();
    }

    /// The TLS configuration of the HTTPS port: HTTP/2 first, HTTP/1.1, and TLS-ALPN-01's protocol.
    pub fn server_config(self: &Arc<Self>) -> Result<Arc<rustls::ServerConfig>, String> {
        let mut config =
            rustls::ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
                .with_safe_default_protocol_versions()
                .map_err(|e| format!("TLS: {e}"))?
                .with_no_client_auth()
                .with_cert_resolver(Arc::new(Resolver(self.clone())));
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec(), ACME_TLS_ALPN.to_vec()];
        Ok(Arc::new(config))
    }

    /// What the owner must be told now, in one sentence, or `None` when all is well: no certificate, or less than
    /// 14 days left, or renewal failing for a day. (What `crate::alerts` reports as the certificate's concern.)
    pub fn concern(&self, now: i64) -> Option<String> {
        let names = self.settings.tls_domains.join(", ");
        let trouble = lock(&self.trouble).clone();
        let why = trouble
            .last_error
            .as_deref()
            .map(|error| format!(" The last attempt failed: {error}"))
            .unwrap_or_default();
        let failing_a_day = trouble
            .failing_since
            .is_some_and(|since| now - since >= DAY);
        match self.validity() {
            None if failing_a_day => Some(format!(
                "No HTTPS certificate for {names}: obtaining one has failed for {} hours.{why}",
                (now - trouble.failing_since.unwrap_or(now)) / 3600
            )),
            None => None,
            Some(validity) if validity.not_after - now < WARN_DAYS * DAY => {
                let days = (validity.not_after - now).max(0) / DAY;
                Some(format!(
                    "The HTTPS certificate for {names} expires in {days} days ({}) and has not been renewed.{why}",
                    der::date(validity.not_after)
                ))
            }
            Some(_) if failing_a_day => Some(format!(
                "Renewing the HTTPS certificate for {names} has failed for {} hours.{why}",
                (now - trouble.failing_since.unwrap_or(now)) / 3600
            )),
            Some(_) => None,
        }
    }

    /// `/healthz`'s `tls` object: the certificate's state and dates, and the renewal's trouble if any.
    pub fn health(&self, now: i64) -> Value {
        let trouble = lock(&self.trouble).clone();
        let mut health = match self.validity() {
            None => json!({"certificate": "missing"}),
            Some(validity) => json!({
                "certificate": if validity.not_after <= now { "expired" } else { "valid" },
                "not_after": der::date(validity.not_after),
                "days_left": (validity.not_after - now) / DAY,
                "renew_after": der::date(self.renew_at().unwrap_or_else(|| acme::renew_at(validity))),
            }),
        };
        health["domains"] = json!(self.settings.tls_domains);
        if let Some(error) = trouble.last_error {
            health["last_error"] = json!(error);
        }
        if let Some(at) = trouble.next_attempt {
            health["next_attempt"] = json!(der::date(at));
        }
        health
    }
}

/// rustls's view of [`Tls`]: the certificate for each handshake.
struct Resolver(Arc<Tls>);

impl std::fmt::Debug for Resolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("tls::Resolver")
    }
}

impl ResolvesServerCert for Resolver {
    fn resolve(&self, hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        self.0.certificate_for(&hello)
    }
}

/// The built-in HTTPS's state as a route sees it, if the server manages one. A guard of its own, not
/// `Option<&State<..>>`: Rocket's sentinels refuse to launch with a state that is not managed, even an optional one,
/// and only the server with `tls_domains` manages this one.
pub struct Managed(pub Option<Arc<Tls>>);

#[rocket::async_trait]
impl<'r> rocket::request::FromRequest<'r> for Managed {
    type Error = std::convert::Infallible;

    async fn from_request(
        request: &'r rocket::Request<'_>,
    ) -> rocket::request::Outcome<Managed, Self::Error> {
        rocket::request::Outcome::Success(Managed(request.rocket().state::<Arc<Tls>>().cloned()))
    }
}

/// Unix seconds now.
pub fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

#[cfg(test)]
mod tests;
