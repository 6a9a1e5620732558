//! The ACME client's HTTPS: each request of instant-acme over hyper's HTTP/1 client connection and tokio-rustls
//! (the crates the webhook already uses), trusting the public roots compiled in and `acme_ca_root`, each request
//! within a deadline.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::rt::TokioIo;
use instant_acme::{BodyWrapper, BytesResponse, HttpClient};
use rocket::tokio::{self, net::TcpStream};
use rustls::pki_types::ServerName;
use tokio_rustls::TlsConnector;

use crate::config::tls::TlsSettings;

/// How long one exchange with the ACME server may take.
const EXCHANGE_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Clone)]
pub struct AcmeHttp {
    tls: TlsConnector,
}

impl AcmeHttp {
    pub fn new(settings: &TlsSettings) -> Result<AcmeHttp, String> {
        let mut roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        if let Some(file) = &settings.acme_ca_root {
            for certificate in crate::config::endpoints::ca_file("acme_ca_root", file)? {
                roots
                    .add(certificate)
                    .map_err(|e| format!("`acme_ca_root` {}: {e}", file.display()))?;
            }
        }
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS for ACME: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
        Ok(AcmeHttp {
            tls: TlsConnector::from(Arc::new(config)),
        })
    }

    async fn exchange(
        tls: TlsConnector,
        request: Request<BodyWrapper<Bytes>>,
    ) -> Result<BytesResponse, String> {
        let uri = request.uri().clone();
        if uri.scheme_str() != Some("https") {
            return Err(format!("{uri}: the ACME server is reached over https only"));
        }
        let host = uri.host().ok_or_else(|| format!("{uri} names no host"))?;
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let port = uri.port_u16().unwrap_or(443);
        let tcp = TcpStream::connect((host.as_str(), port))
            .await
            .map_err(|e| format!("cannot reach {host}:{port}: {e}"))?;
        let _ = tcp.set_nodelay(true);
        let name = ServerName::try_from(host.clone())
            .map_err(|e| format!("{host} is not a server name: {e}"))?;
        let stream = tls
            .connect(name, tcp)
            .await
            .map_err(|e| format!("TLS with {host}:{port}: {e}"))?;
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| format!("HTTP with {host}:{port}: {e}"))?;
        let driver = tokio::spawn(connection);
        let (mut parts, body) = request.into_parts();
        // The request line carries the path alone, the host goes in its header (HTTP/1.1).
        let authority = uri
            .authority()
            .map(|a| a.as_str().to_string())
            .unwrap_or(host.clone());
        parts.uri = uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .parse()
            .map_err(|e| format!("{uri}: {e}"))?;
        if let Ok(value) = hyper::header::HeaderValue::from_str(&authority) {
            parts.headers.insert(hyper::header::HOST, value);
        }
        let body = body
            .collect()
            .await
            .map(|collected| collected.to_bytes())
            .unwrap_or_default();
        let answer = sender
            .send_request(Request::from_parts(parts, Full::new(body)))
            .await
            .map_err(|e| format!("no answer from {host}:{port}: {e}"))?;
        let (parts, body) = answer.into_parts();
        let body = body
            .collect()
            .await
            .map_err(|e| format!("the answer of {host}:{port} broke off: {e}"))?
            .to_bytes();
        driver.abort();
        Ok(BytesResponse::from(hyper::Response::from_parts(
            parts,
            Full::new(body),
        )))
    }
}

impl HttpClient for AcmeHttp {
    fn request(
        &self,
        request: Request<BodyWrapper<Bytes>>,
    ) -> Pin<Box<dyn Future<Output = Result<BytesResponse, instant_acme::Error>> + Send>> {
        let tls = self.tls.clone();
        Box::pin(async move {
            match tokio::time::timeout(EXCHANGE_TIMEOUT, AcmeHttp::exchange(tls, request)).await {
                Ok(Ok(response)) => Ok(response),
                Ok(Err(why)) => Err(instant_acme::Error::Other(why.into())),
                Err(_) => Err(instant_acme::Error::Other(
                    format!(
                        "the ACME server did not answer within {} s",
                        EXCHANGE_TIMEOUT.as_secs()
                    )
                    .into(),
                )),
            }
        })
    }
}
