//! The signed webhook: a JSON POST of the lead to `webhook_url` over hyper's HTTP/1 client connection (TLS through
//! rustls with the public roots compiled in, and any CA of `webhook_ca_file`), with `X-Truckins-Delivery` (the same on every attempt),
//! `X-Truckins-Timestamp` and `X-Truckins-Signature: sha256=HEX`, the HMAC-SHA256 of `TIMESTAMP.BODY` with the
//! secret. Any 2xx is delivered; 408, 429, 5xx, no connection and no answer within `notify_timeout` are tried
//! again; any other answer fails for good. A signed test event ([`Webhook::probe`]) serves `truckins notify test`
//! and `truckins check`, which also reads the receiver's `Date`.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use hmac::{Hmac, KeyInit, Mac};
use http_body_util::Full;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use rocket::tokio::net::TcpStream;
use rocket::tokio::{self, io::AsyncRead, io::AsyncWrite};
use sha2::Sha256;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::{self, pki_types::ServerName};

use super::compose;
use super::outbox::Due;
use super::worker::Outcome;
use crate::config::Settings;
use crate::config::endpoints::{Target, ca_file};

/// `sha256=HEX`: HMAC-SHA256 of `TIMESTAMP.BODY` with `secret` (what a receiver recomputes to check a delivery).
pub fn signature(secret: &[u8], timestamp: u64, body: &[u8]) -> String {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    let digest = mac.finalize().into_bytes();
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256={hex}")
}

/// A receiver's answer: its status, and its clock as its `Date` header gave it (with when the answer came, by this
/// machine's clock) for `truckins check` to compare the clocks.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: StatusCode,
    pub date: Option<String>,
    pub received_at: std::time::SystemTime,
}

/// The webhook of the settings.
pub struct Webhook {
    target: Target,
    secret: Vec<u8>,
    timeout: Duration,
    tls: Option<TlsConnector>,
    /// Signs the submission's link in a quote's news (src/links); without it, the news has none.
    links: Option<crate::links::Signer>,
}

/// A stream the request can go over: plain TCP or TLS on it.
trait Stream: AsyncRead + AsyncWrite + Send + Unpin + 'static {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin + 'static> Stream for T {}

impl Webhook {
    /// `None` when the webhook is off.
    pub fn new(settings: &Settings) -> Result<Option<Webhook>, String> {
        let (Some(url), Some(secret)) = (&settings.webhook_url, &settings.webhook_secret) else {
            return Ok(None);
        };
        let target = Target::parse(url)?;
        let tls = if target.https {
            let mut roots = rustls::RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            };
            if let Some(file) = &settings.webhook_ca_file {
                for certificate in ca_file("webhook_ca_file", file)? {
                    roots
                        .add(certificate)
                        .map_err(|e| format!("`webhook_ca_file` {}: {e}", file.display()))?;
                }
            }
            let config = rustls::ClientConfig::builder_with_provider(Arc::new(
                rustls::crypto::ring::default_provider(),
            ))
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS for the webhook: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
            Some(TlsConnector::from(Arc::new(config)))
        } else {
            None
        };
        Ok(Some(Webhook {
            target,
            secret: secret.as_bytes().to_vec(),
            timeout: Duration::from_secs(settings.notify_timeout),
            tls,
            links: None,
        }))
    }

    /// The same webhook, with the submission's link signed by `links` in a quote's news.
    pub fn with_links(mut self, links: Option<crate::links::Signer>) -> Webhook {
        self.links = links;
        self
    }

    /// One attempt of a lead's webhook delivery.
    pub async fn deliver(&self, due: &Due) -> Outcome {
        // As the e-mail's: no `lead.xdate` for a lead won, erased or opted out since it was queued, nor for an
        // expiration changed meanwhile.
        if let (super::outbox::About::Lead(lead), super::Kind::Xdate) = (&due.about, due.kind)
            && let Some(reason) = compose::xdate::withheld(lead, &due.standing)
        {
            return Outcome::Withheld(reason);
        }
        let body = match &due.about {
            super::outbox::About::OptOut(payload) => {
                compose::optout::webhook_body(payload, &due.key)
            }
            super::outbox::About::Status(payload, lead) => {
                compose::status_webhook_body(payload, &due.key, lead, &due.standing)
            }
            super::outbox::About::Lead(lead) => compose::lead_webhook_body(
                due.kind.event(),
                &due.key,
                Some(lead),
                &due.standing,
                compose::submission::of_due(self.links.as_ref(), due, lead).as_ref(),
            ),
            _ => compose::webhook_body(due.kind.event(), &due.key, due.lead(), &due.standing),
        };
        match self.post(&due.key, body).await {
            Ok(answer) => outcome(answer.status),
            Err(reason) => Outcome::Retry(reason),
        }
    }

    /// `truckins notify test`: a test event, signed like a lead's.
    pub async fn test(&self) -> Result<String, String> {
        let place = self.target.describe();
        let answer = self.probe().await?;
        match outcome(answer.status) {
            Outcome::Sent => Ok(format!(
                "{place} answered {} to a signed test event",
                answer.status
            )),
            Outcome::Retry(reason) | Outcome::Failed(reason) | Outcome::Withheld(reason) => {
                Err(format!("{place}: {reason}"))
            }
        }
    }

    /// A signed test event (`"event": "test"`) posted once, and the receiver's answer as it came: `notify test`
    /// judges it as a lead's delivery would be, `truckins check` only asks that the receiver answers, and reads its
    /// clock from the `Date` header. The error (no connection, TLS, no answer in time) names the receiver.
    pub async fn probe(&self) -> Result<Answer, String> {
        let key = format!("test-{:016x}", fastrand::u64(..));
        let place = self.target.describe();
        self.post(
            &key,
            compose::webhook_body("test", &key, None, &Default::default()),
        )
        .await
        .map_err(|reason| format!("{place}: {reason}"))
    }

    /// The receiver as the start-up log shows it: scheme, host and port, never the path (often the hook's key).
    pub fn describe(&self) -> String {
        self.target.describe()
    }

    /// POSTs `body` signed, within the timeout; the answer, or why there was none.
    async fn post(&self, key: &str, body: Vec<u8>) -> Result<Answer, String> {
        // Unix seconds, from the one clock the outbox schedules by.
        let timestamp = u64::try_from(super::outbox::now_ms() / 1000).unwrap_or(0);
        let request = Request::post(self.target.path.as_str())
            .header(hyper::header::HOST, self.target.authority())
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .header(
                hyper::header::USER_AGENT,
                concat!("truckins/", env!("CARGO_PKG_VERSION")),
            )
            .header("X-Truckins-Delivery", key)
            .header("X-Truckins-Timestamp", timestamp.to_string())
            .header(
                "X-Truckins-Signature",
                signature(&self.secret, timestamp, &body),
            )
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| format!("the request could not be built: {e}"))?;
        let seconds = self.timeout.as_secs();
        tokio::time::timeout(self.timeout, self.exchange(request))
            .await
            .unwrap_or_else(|_| Err(format!("no answer within {seconds} s")))
    }

    async fn exchange(&self, request: Request<Full<Bytes>>) -> Result<Answer, String> {
        let place = format!("{}:{}", self.target.host, self.target.port);
        let tcp = TcpStream::connect((self.target.host.as_str(), self.target.port))
            .await
            .map_err(|e| format!("host unreachable: {place}: {e}"))?;
        let _ = tcp.set_nodelay(true);
        let stream: Box<dyn Stream> = match &self.tls {
            None => Box::new(tcp),
            Some(connector) => {
                let name = ServerName::try_from(self.target.host.clone())
                    .map_err(|e| format!("TLS: {} is not a server name: {e}", self.target.host))?;
                Box::new(
                    connector
                        .connect(name, tcp)
                        .await
                        .map_err(|e| format!("TLS failed with {place}: {e}"))?,
                )
            }
        };
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| format!("HTTP with {place}: {e}"))?;
        // The connection is driven beside the request and dropped with it: one request per connection.
        let driver = tokio::spawn(connection);
        let answer = sender.send_request(request).await;
        driver.abort();
        let response = answer.map_err(|e| format!("no answer from {place}: {e}"))?;
        let date = response
            .headers()
            .get(hyper::header::DATE)
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        Ok(Answer {
            status: response.status(),
            date,
            received_at: std::time::SystemTime::now(),
        })
    }
}

/// What an answer's status means for the delivery.
fn outcome(status: StatusCode) -> Outcome {
    let code = status.as_u16();
    if status.is_success() {
        Outcome::Sent
    } else if status.is_server_error() || code == 429 || code == 408 {
        Outcome::Retry(format!("the receiver answered {status}"))
    } else {
        Outcome::Failed(format!("the receiver refused it: {status}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_hmac_sha256_of_timestamp_dot_body() {
        // Python: hmac.new(b"secret", b'1700000000.{"event":"test"}', hashlib.sha256).hexdigest()
        assert_eq!(
            signature(b"secret", 1_700_000_000, br#"{"event":"test"}"#),
            "sha256=e6a22eb66e93669c75e7a035a110d9a2ccfa7cdef62d0ecb361671b92718ee9f"
        );
    }

    #[test]
    fn answers_sort_into_sent_retry_and_failed() {
        assert_eq!(outcome(StatusCode::NO_CONTENT), Outcome::Sent);
        for retried in [500, 502, 503, 429, 408] {
            assert!(
                matches!(
                    outcome(StatusCode::from_u16(retried).unwrap()),
                    Outcome::Retry(_)
                ),
                "{retried}"
            );
        }
        for failed in [400, 401, 404, 410, 301] {
            assert!(
                matches!(
                    outcome(StatusCode::from_u16(failed).unwrap()),
                    Outcome::Failed(_)
                ),
                "{failed}"
            );
        }
    }
}
