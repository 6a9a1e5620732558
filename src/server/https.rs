//! Built-in HTTPS at the connection and the request (issue 38): which port a connection came in on, the TLS
//! handshake (bounded like a request head) with HTTP/2 or HTTP/1.1 by ALPN, the plain port's answers (ACME's
//! HTTP-01 tokens, and a permanent redirect to HTTPS for everything else) and the HTTPS port's redirect of the other
//! names to the canonical one. The certificate and the challenges are [`crate::tls`]'s.

use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use hyper::header::{CONTENT_TYPE, HOST, HeaderValue, LOCATION};
use hyper::{Method, Request};
use rocket::tokio::net::TcpStream;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

use super::answer::{Answer, Shared};
use crate::tls::{ACME_TLS_ALPN, Tls};

/// The port a connection came in on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Port {
    /// No built-in HTTPS: the site in plain HTTP (a proxy in front), as before.
    Plain,
    /// `https_port`: the site, over TLS.
    Https,
    /// `http_port` beside built-in HTTPS: challenges and redirects only.
    Redirect,
}

/// The protocol a TLS connection agreed on.
pub(super) enum Agreed {
    Http2(TlsStream<TcpStream>),
    Http1(TlsStream<TcpStream>),
    /// A TLS-ALPN-01 validation: the handshake was all it wanted.
    AcmeValidation,
}

/// The TLS handshake, by `deadline` (a client that never completes one holds nothing longer than a request head).
pub(super) async fn handshake(
    acceptor: &TlsAcceptor,
    stream: TcpStream,
    deadline: Instant,
) -> Option<Agreed> {
    let accepted = rocket::tokio::time::timeout_at(deadline.into(), acceptor.accept(stream))
        .await
        .ok()?
        .ok()?;
    Some(match accepted.get_ref().1.alpn_protocol() {
        Some(b"h2") => Agreed::Http2(accepted),
        Some(protocol) if protocol == ACME_TLS_ALPN => Agreed::AcmeValidation,
        _ => Agreed::Http1(accepted),
    })
}

/// The host a request names (`Host`, or HTTP/2's `:authority`), lowercased, without its port.
fn host_of<B>(request: &Request<B>) -> Option<String> {
    let authority = request
        .headers()
        .get(HOST)
        .and_then(|value| value.to_str().ok())
        .map(str::to_string)
        .or_else(|| request.uri().authority().map(|a| a.as_str().to_string()))?;
    let host = match authority.rsplit_once(':') {
        // An IPv6 literal keeps its colons inside brackets.
        Some((host, port)) if !port.contains(']') => host,
        _ => authority.as_str(),
    };
    Some(host.trim_end_matches('.').to_ascii_lowercase())
}

/// `https://HOST[:PORT]/path?query` for `request`.
fn https_location<B>(host: &str, https_port: u16, request: &Request<B>) -> String {
    let path = request.uri().path_and_query().map_or("/", |p| p.as_str());
    match https_port {
        443 => format!("https://{host}{path}"),
        port => format!("https://{host}:{port}{path}"),
    }
}

/// A permanent redirect: 301 for GET and HEAD (what every client follows), 308 for the rest (the method and body
/// kept: a form posted to the old address is posted again to the new one).
fn moved(method: &Method, location: String, shared: &Shared) -> Answer {
    let status = if method == Method::GET || method == Method::HEAD {
        301
    } else {
        308
    };
    let mut headers = shared.security_headers.clone();
    if let Ok(location) = HeaderValue::from_str(&location) {
        headers.push((LOCATION, location));
    }
    Answer {
        status,
        headers,
        body: Bytes::new(),
        close: false,
    }
}

/// What the port answers before the site is looked at: on the plain port everything (a token, or a redirect);
/// on the HTTPS port a redirect when another of the names is asked for; `None`: the site answers.
pub(super) fn before_site<B>(
    port: Port,
    tls: Option<&Arc<Tls>>,
    shared: &Shared,
    request: &Request<B>,
) -> Option<Answer> {
    let tls = tls?;
    let host = host_of(request);
    let known = |host: &String| tls.settings.tls_domains.contains(host);
    match port {
        Port::Plain => None,
        Port::Https => {
            let host = host.filter(known)?;
            if host == tls.canonical() {
                return None;
            }
            let location = https_location(tls.canonical(), tls.settings.https_port, request);
            Some(moved(request.method(), location, shared))
        }
        Port::Redirect => {
            if let Some(token) = request
                .uri()
                .path()
                .strip_prefix("/.well-known/acme-challenge/")
                && let Some(key_authorization) = tls.http01(token)
            {
                let mut headers = shared.security_headers.clone();
                headers.push((CONTENT_TYPE, HeaderValue::from_static("text/plain")));
                return Some(Answer {
                    status: 200,
                    headers,
                    body: Bytes::from(key_authorization),
                    close: false,
                });
            }
            // The same name over HTTPS; an address that is none of the names (the machine's IP) goes to the
            // canonical name, the only ones the certificate is good for.
            let host = host.filter(known);
            let host = host.as_deref().unwrap_or(tls.canonical());
            let location = https_location(host, tls.settings.https_port, request);
            Some(moved(request.method(), location, shared))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_comes_without_its_port_from_host_or_the_authority() {
        let request = Request::get("/x")
            .header(HOST, "WWW.Example.com:8080")
            .body(())
            .unwrap();
        assert_eq!(host_of(&request).as_deref(), Some("www.example.com"));
        let request = Request::get("https://example.com/x?y=1").body(()).unwrap();
        assert_eq!(host_of(&request).as_deref(), Some("example.com"));
        assert_eq!(
            https_location("example.com", 443, &request),
            "https://example.com/x?y=1"
        );
        assert_eq!(
            https_location("example.com", 8443, &request),
            "https://example.com:8443/x?y=1"
        );
        let request = Request::get("/").header(HOST, "[::1]").body(()).unwrap();
        assert_eq!(host_of(&request).as_deref(), Some("[::1]"));
        let request = Request::get("/").body(()).unwrap();
        assert_eq!(host_of(&request), None);
    }
}
