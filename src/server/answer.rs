//! Answering one request: GET and HEAD of the site's files from the index in memory, everything else through the
//! Rocket application's local client (the body read within two time limits: between its pieces, and for all of
//! it), and the server's own refusals.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{ACCEPT_ENCODING, HOST, HeaderName, HeaderValue, IF_NONE_MATCH};
use hyper::{Method, Request, Response, StatusCode};
use rocket::http::uri::Origin;
use rocket::http::{Header, Status};
use rocket::local::asynchronous::Client;
use rocket::tokio;

use super::https::{self, Port};
use super::limits::Limits;
use super::watchdog::{Activity, AnswerBody, InFlight};
use crate::ops::RequestLog;
use crate::site::{self, Negotiation, Overlay};

/// Everything a request may need, shared by all connections.
pub(super) struct Shared {
    pub(super) client: Client,
    pub(super) log: RequestLog,
    /// The security headers (see [`crate::security`]), made once.
    pub(super) security_headers: Vec<(HeaderName, HeaderValue)>,
    /// The same as the lines of a head, for hyper's own answers (see [`super::parse_errors`]).
    pub(super) security_lines: Arc<[u8]>,
    pub(super) limits: Limits,
    /// Counts page views for `truckins report`; none when `analytics = false`.
    pub(super) analytics: Option<Arc<crate::analytics::Collector>>,
    /// Built-in HTTPS (`tls_domains`): the certificate, the challenges, the canonical name.
    pub(super) tls: Option<Arc<crate::tls::Tls>>,
}

impl Shared {
    pub(super) fn overlay(&self) -> &Overlay {
        static NONE: std::sync::LazyLock<Overlay> = std::sync::LazyLock::new(Overlay::default);
        self.client.rocket().state::<Overlay>().unwrap_or(&NONE)
    }
}

/// A complete answer before it gets its body type: status, headers and bytes.
pub(super) struct Answer {
    pub(super) status: u16,
    pub(super) headers: Vec<(HeaderName, HeaderValue)>,
    pub(super) body: Bytes,
    pub(super) close: bool,
}

impl Answer {
    /// The answer to HEAD says the Content-Length its GET would have, `length`, as hyper does for a GET: not for
    /// an informational answer, a 204 or a 304, which have no length.
    pub(super) fn say_length(&mut self, length: usize) {
        let has_length = !(self.status < 200 || self.status == 204 || self.status == 304);
        if has_length {
            self.headers
                .push((hyper::header::CONTENT_LENGTH, HeaderValue::from(length)));
        }
    }

    /// The application failed to give an answer (its task panicked).
    pub(super) fn failed() -> Answer {
        Answer {
            status: 500,
            headers: Vec::new(),
            body: Bytes::new(),
            close: true,
        }
    }
}

pub(super) async fn answer(
    shared: Arc<Shared>,
    peer: SocketAddr,
    activity: Arc<Activity>,
    port: Port,
    mut request: Request<Incoming>,
) -> Result<Response<AnswerBody>, Infallible> {
    let request_in_flight = InFlight::begin(activity);
    let started = Instant::now();
    if let Some(answer) = https::before_site(port, shared.tls.as_ref(), &shared, &request) {
        shared.log.record(
            request.method().as_str(),
            request.uri().path(),
            answer.status,
            started,
        );
        return Ok(response(answer, request_in_flight));
    }
    if request.headers().get(HOST).is_none()
        && let Some(host) = request
            .uri()
            .authority()
            .and_then(|a| HeaderValue::from_str(a.as_str()).ok())
    {
        // HTTP/2 names the host in `:authority`; the application, like HTTP/1.1, reads `Host`.
        request.headers_mut().insert(HOST, host);
    }
    let path = request.uri().path();
    let is_head = request.method() == Method::HEAD;
    let is_get = request.method() == Method::GET || is_head;
    let answer = if is_get && site::serves(path) {
        let (mut answer, served) = site_file(&shared, &request);
        if is_head {
            // hyper sends no body for HEAD and counts a length only from a body that has one: an empty answer (a
            // redirect) would go without the `Content-Length: 0` its GET has.
            answer.say_length(answer.body.len());
        }
        shared
            .log
            .record(request.method().as_str(), path, answer.status, started);
        if let Some(analytics) = &shared.analytics {
            analytics.answered(
                request.method(),
                request.uri(),
                request.headers(),
                peer.ip(),
                answer.status,
                served,
            );
        }
        answer
    } else {
        // In a task of its own, like Rocket's own server: a client that hangs up, or a connection closed by the
        // server, never cancels the application halfway (a lead half-handled, a rate-limit slot taken for nothing).
        let shared = shared.clone();
        let dispatch = tokio::spawn(async move { application(&shared, peer, request).await });
        dispatch.await.unwrap_or_else(|_| Answer::failed())
    };
    Ok(response(answer, request_in_flight))
}

/// The answer as hyper sends it; the request is over when hyper is done with its body.
fn response(answer: Answer, request_in_flight: InFlight) -> Response<AnswerBody> {
    let mut response = Response::new(AnswerBody {
        bytes: Full::new(answer.body),
        _request: request_in_flight,
    });
    *response.status_mut() =
        StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.reserve(answer.headers.len());
    for (name, value) in answer.headers {
        headers.append(name, value);
    }
    if answer.close {
        headers.insert(hyper::header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// A GET or HEAD of the site's files, answered from memory (for HEAD, hyper sends the head alone; the caller adds
/// its length), and the file that answered it, if one did.
pub(super) fn site_file(
    shared: &Shared,
    request: &Request<Incoming>,
) -> (Answer, Option<site::Served>) {
    let headers = request.headers();
    let negotiation = Negotiation::new(
        headers
            .get_all(ACCEPT_ENCODING)
            .iter()
            .filter_map(|value| value.to_str().ok()),
        headers
            .get(IF_NONE_MATCH)
            .and_then(|value| value.to_str().ok()),
    );
    let (response, served) = site::respond_served(
        request.uri().path(),
        request.uri().query(),
        &negotiation,
        shared.overlay(),
    );
    let mut headers = shared.security_headers.clone();
    for (name, value) in response.headers() {
        // Every value is ASCII: fixed at start, or a redirect's `Location`, a path percent-encoded by `site`.
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.push((header_name(name), value));
        }
    }
    let answer = Answer {
        status: response.status().code,
        headers,
        body: response.body().map(Bytes::from_static).unwrap_or_default(),
        close: false,
    };
    (answer, served)
}

/// A header name as hyper wants it (lowercase); our names are all valid, so the fallback is never taken.
pub(super) fn header_name(name: &str) -> HeaderName {
    HeaderName::from_bytes(name.as_bytes()).unwrap_or(hyper::header::WARNING)
}

/// Any other request, dispatched to the Rocket application once its body has arrived.
pub(super) async fn application(
    shared: &Shared,
    peer: SocketAddr,
    request: Request<Incoming>,
) -> Answer {
    let (parts, body) = request.into_parts();
    let is_api = site::is_api(parts.uri.path());
    let Some(path_and_query) = parts.uri.path_and_query() else {
        // The authority form of CONNECT: there is no path to route.
        return refusal(shared, &parts, Status::BadRequest, is_api);
    };
    // As hyper parsed it, like Rocket's own server: Rocket's stricter parser would refuse some paths hyper takes.
    let uri = Origin::new(path_and_query.path(), path_and_query.query());
    let Ok(method) = parts.method.as_str().parse::<rocket::http::Method>() else {
        // A method Rocket does not know: Rocket's own server answers these 400 too.
        return refusal(shared, &parts, Status::BadRequest, is_api);
    };
    let limits = &shared.limits;
    let bound = limits.body(&parts.method, parts.uri.path());
    // A document's body is read only with one of the few turns (held until it is answered, its copies made), at
    // most two of them a client's.
    let _turn = if bound.upload {
        let trusted = shared
            .client
            .rocket()
            .state::<crate::client_ip::TrustedProxies>()
            .map(|proxies| proxies.0.as_slice())
            .unwrap_or(&[]);
        let forwarded = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok());
        let client = crate::client_ip::ClientIp::resolve(Some(peer.ip()), trusted, forwarded);
        match super::limits::UploadTurn::take(client, limits.head_timeout).await {
            Some(turn) => Some(turn),
            None => return refusal(shared, &parts, Status::ServiceUnavailable, is_api),
        }
    } else {
        None
    };
    let declared = parts
        .headers
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|length| length.to_str().ok()?.parse::<u64>().ok());
    let body = if bound.upload && declared.is_some_and(|length| length >= bound.cap as u64) {
        // Said too large in its head: refused by the application (its Content-Length, which it is given) at once,
        // not after the client has sent megabytes for nothing.
        Vec::new()
    } else {
        let expected = declared.map_or(0, |length| length.min(bound.cap as u64) as usize);
        match read_body(body, bound.cap, expected, limits.head_timeout, bound.whole).await {
            Ok(body) => body,
            Err(BodyError::Broken) => return refusal(shared, &parts, Status::BadRequest, is_api),
            Err(BodyError::TooSlow) => {
                return refusal(shared, &parts, Status::RequestTimeout, is_api);
            }
        }
    };
    // The rest of a body over its cap is never read: the connection closes after the answer, and says so.
    let unread =
        body.len() >= bound.cap || declared.is_some_and(|length| length > body.len() as u64);
    let mut local = shared.client.req(method, uri).remote(peer).body(body);
    for (name, value) in &parts.headers {
        // Like Rocket's own server: a header value that is not UTF-8 is dropped.
        if let Ok(value) = std::str::from_utf8(value.as_bytes()) {
            local.add_header(Header::new(name.as_str().to_string(), value.to_string()));
        }
    }
    let response = local.dispatch().await;
    let status = response.status().code;
    let mut headers = Vec::with_capacity(16);
    for header in response.headers().iter() {
        // hyper frames the body itself, from the bytes below.
        if header.name() == "Content-Length" || header.name() == "Transfer-Encoding" {
            continue;
        }
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(header.name().as_str().as_bytes()),
            HeaderValue::from_str(header.value()),
        ) {
            headers.push((name, value));
        }
    }
    // Rocket drops the body of an answer to HEAD, so hyper cannot count it: the length its GET would have is said.
    let head_length = (method == rocket::http::Method::Head)
        .then(|| head_length(response.body()))
        .flatten();
    // `None` is an answer without a body (a redirect, a 204); our responders' bodies are in memory, so reading them
    // cannot fail.
    let body = response.into_bytes().await.unwrap_or_default();
    let mut answer = Answer {
        status,
        headers,
        body: Bytes::from(body),
        close: unread,
    };
    if let Some(length) = head_length {
        answer.say_length(length);
    }
    answer
}

/// The Content-Length the GET of an answer Rocket gave to HEAD would have had: our server sends every body of the
/// application whole, with its length. Rocket keeps the size of a body it stripped when the responder gave one (all
/// of ours: text, JSON, pages in memory), and a body it never had (a redirect) becomes "none" without a size, whose
/// GET sends `Content-Length: 0`. A streamed body would look the same once stripped; the application has none.
fn head_length(body: &rocket::response::Body<'_>) -> Option<usize> {
    match body.preset_size() {
        Some(size) => Some(size),
        None if body.is_none() => Some(0),
        None => None,
    }
}

/// Why a request body was not read.
pub(super) enum BodyError {
    /// The client broke off or framed it wrongly.
    Broken,
    /// Nothing of it arrived for `stall`, or not all of it within `whole` (a client trickling a body would hold a
    /// connection and a task for as long as it likes).
    TooSlow,
}

/// Reads a request body, at most `cap` bytes of it, each piece within `stall` of the one before and all of it
/// within `whole`.
pub(super) async fn read_body(
    mut body: Incoming,
    cap: usize,
    expected: usize,
    stall: Duration,
    whole: Duration,
) -> Result<Vec<u8>, BodyError> {
    let deadline = Instant::now() + whole;
    // Sized once for what the head says is coming (within the cap): a 10 MiB document is not copied as it grows.
    let mut bytes = Vec::with_capacity(expected);
    loop {
        let wait_until = (Instant::now() + stall).min(deadline);
        let frame = match tokio::time::timeout_at(wait_until.into(), body.frame()).await {
            Err(_) => return Err(BodyError::TooSlow),
            Ok(None) => return Ok(bytes),
            Ok(Some(frame)) => frame.map_err(|_| BodyError::Broken)?,
        };
        if let Ok(data) = frame.into_data() {
            let room = cap - bytes.len();
            bytes.extend_from_slice(&data[..data.len().min(room)]);
            if bytes.len() == cap {
                return Ok(bytes);
            }
        }
    }
}

/// A request refused before the application saw it: the error page for people, the JSON error under `/api`; the
/// connection is closed after it (what is left of the request cannot be trusted).
pub(super) fn refusal(
    shared: &Shared,
    parts: &hyper::http::request::Parts,
    status: Status,
    is_api: bool,
) -> Answer {
    let started = Instant::now();
    let (content_type, body): (&'static str, Bytes) = if is_api {
        // In the language of the page that sent it: the body was not read.
        let referer = parts
            .headers
            .get(hyper::header::REFERER)
            .and_then(|value| value.to_str().ok());
        let locale = crate::leads::language::of_referer(referer);
        (
            "application/json",
            Bytes::from(
                crate::errors::ClientError::for_status_in(status, locale)
                    .to_json()
                    .to_string(),
            ),
        )
    } else {
        let page = if status.code == 404 {
            site::not_found_page(parts.uri.path())
        } else {
            site::ErrorPage::BadRequest
        };
        let negotiation = Negotiation::new(std::iter::empty(), None);
        let path = parts.uri.path();
        let response =
            site::SiteResponse::error(status, page, path, &negotiation, shared.overlay());
        (
            "text/html; charset=utf-8",
            response.body().map(Bytes::from_static).unwrap_or_default(),
        )
    };
    let mut headers = shared.security_headers.clone();
    headers.push((
        hyper::header::CONTENT_TYPE,
        HeaderValue::from_static(content_type),
    ));
    shared.log.record(
        parts.method.as_str(),
        parts.uri.path(),
        status.code,
        started,
    );
    Answer {
        status: status.code,
        headers,
        body,
        close: true,
    }
}
