//! The HTTP server: owns the listening socket and every connection, and answers each request.
//!
//! Rocket 0.5 listens by itself and has no public way to bound a connection: no time limit on a request head, none
//! on an idle keep-alive connection between requests, no cap on connections, so a few hundred sockets that send
//! nothing use up the process's open files and the site stops answering. This module listens instead. It
//! - caps the connections served at once below the open-files limit (more wait in the kernel's queue),
//! - closes a connection that has not sent a complete request head within `request_head_timeout` (counted from the
//!   connection, or from the first byte of a later head), one idle between requests for longer than Rocket's
//!   `keep_alive`, one whose client takes nothing of an answer for 30 s, and one whose request body stops arriving
//!   for `request_head_timeout` (408),
//! - stops gracefully on a signal: no new connections, requests in flight finish within `shutdown.grace`.
//!
//! GET and HEAD of the site's files are answered here, from the index in memory ([`site::respond`], which Rocket's
//! page route also calls, so both answer alike). Every other request (the leads API and forms, the health check)
//! goes to the Rocket application in process through Rocket's local client: its fairings, guards, catchers and
//! limits decide, exactly as they do in the tests.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{ACCEPT_ENCODING, HeaderName, HeaderValue, IF_NONE_MATCH};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rocket::figment::Figment;
use rocket::http::uri::Origin;
use rocket::http::{Header, Status};
use rocket::local::asynchronous::Client;
use rocket::tokio;
use rocket::tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use rocket::tokio::net::{TcpListener, TcpSocket, TcpStream};
use rocket::tokio::sync::{Semaphore, watch};

use crate::config::Settings;
use crate::ops::RequestLog;
use crate::site::{self, Negotiation, Overlay};

/// The bounds on connections, from the configuration.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// For a complete request head: from the connection for the first, from its first byte for later ones.
    pub head_timeout: Duration,
    /// Idle between requests; `None`: one request per connection.
    pub keep_alive: Option<Duration>,
    /// For a client that takes no bytes of an answer.
    pub stall_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
}

/// Files the process keeps open besides its connections: the database (each pooled connection holds the file,
/// its `-wal` and `-shm`), the listener, the runtime's own, the log.
fn reserved_files(settings: &Settings) -> usize {
    64 + 3 * settings.pool_size as usize
}

impl Limits {
    /// The configured bounds, the connection cap lowered to what `open_files` (the process's limit) leaves room for.
    pub fn new(settings: &Settings, keep_alive_seconds: u32, open_files: Option<u64>) -> Limits {
        let room = open_files
            .map(|limit| usize::try_from(limit).unwrap_or(usize::MAX))
            .map(|limit| limit.saturating_sub(reserved_files(settings)).max(1))
            .unwrap_or(usize::MAX);
        Limits {
            head_timeout: Duration::from_secs(settings.request_head_timeout),
            keep_alive: (keep_alive_seconds > 0)
                .then(|| Duration::from_secs(u64::from(keep_alive_seconds))),
            stall_timeout: Duration::from_secs(30),
            max_connections: settings.max_connections.min(room),
        }
    }
}

/// Raises the limit on open files to its hard limit (the soft one is often 1024) and returns it.
pub fn raise_open_files_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct passed, which lives on this stack frame.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    Some(limit.rlim_cur)
}

// ---------------------------------------------------------------------------------------------------------------
// What a connection is doing, for its watchdog
// ---------------------------------------------------------------------------------------------------------------

/// Waiting for the first request's head (the clock started at the connection).
const FIRST_HEAD: u8 = 0;
/// Between requests, nothing of the next head received yet.
const IDLE: u8 = 1;
/// Bytes of a later request's head received, the head not yet complete.
const HEAD: u8 = 2;
/// A request is being answered (its body read, the application at work, the answer written).
const BUSY: u8 = 3;

/// Shared by a connection's socket, its requests and its watchdog. They all run on the connection's one task, so
/// these atomics are never contended; they are atomics because the task may move between threads.
struct Activity {
    epoch: Instant,
    phase: AtomicU8,
    /// Milliseconds since `epoch` when the current phase began.
    phase_since: AtomicU64,
    /// Milliseconds since `epoch` of the last byte read or written.
    last_progress: AtomicU64,
    /// The last write could not go out (the client is not reading).
    write_blocked: AtomicBool,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            epoch: Instant::now(),
            phase: AtomicU8::new(FIRST_HEAD),
            phase_since: AtomicU64::new(0),
            last_progress: AtomicU64::new(0),
            write_blocked: AtomicBool::new(false),
        }
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn enter(&self, phase: u8) {
        self.phase_since.store(self.now(), Ordering::Relaxed);
        self.phase.store(phase, Ordering::Relaxed);
    }

    fn read_some(&self) {
        let now = self.now();
        self.last_progress.store(now, Ordering::Relaxed);
        if self.phase.load(Ordering::Relaxed) == IDLE {
            self.phase_since.store(now, Ordering::Relaxed);
            self.phase.store(HEAD, Ordering::Relaxed);
        }
    }

    fn wrote(&self, blocked: bool) {
        if !blocked {
            self.last_progress.store(self.now(), Ordering::Relaxed);
        }
        self.write_blocked.store(blocked, Ordering::Relaxed);
    }

    /// When the connection is to be closed if nothing changes before then; `None`: not while in this phase.
    fn deadline(&self, limits: &Limits) -> Option<Instant> {
        let at = |millis: u64, timeout: Duration| {
            Some(self.epoch + Duration::from_millis(millis) + timeout)
        };
        let last_progress = self.last_progress.load(Ordering::Relaxed);
        if self.write_blocked.load(Ordering::Relaxed) {
            // The client is not taking the answer.
            return at(last_progress, limits.stall_timeout);
        }
        let since = self.phase_since.load(Ordering::Relaxed);
        match self.phase.load(Ordering::Relaxed) {
            FIRST_HEAD | HEAD => at(since, limits.head_timeout),
            // The application at work is never cut short (a request body has its own limit, in `read_body`).
            BUSY => None,
            // Idle from when the answer went out, not from when hyper took it. With keep-alive off, hyper closes the
            // connection itself after each answer.
            _ => limits
                .keep_alive
                .and_then(|timeout| at(since.max(last_progress), timeout)),
        }
    }
}

/// The connection's socket, reporting what moves through it to the connection's [`Activity`].
struct WatchedStream {
    stream: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for WatchedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.read_some();
        }
        result
    }
}

impl AsyncWrite for WatchedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.activity.wrote(result.is_pending());
        result
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.activity.wrote(result.is_pending());
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// An answer's body, in one piece; when hyper has taken all of it (or dropped it), the request is over and the
/// connection is idle.
struct AnswerBody {
    bytes: Full<Bytes>,
    activity: Arc<Activity>,
}

impl Body for AnswerBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.bytes).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.bytes.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.bytes.size_hint()
    }
}

impl Drop for AnswerBody {
    fn drop(&mut self) {
        self.activity.enter(IDLE);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Answering requests
// ---------------------------------------------------------------------------------------------------------------

/// Everything a request may need, shared by all connections.
struct Shared {
    client: Client,
    log: RequestLog,
    /// The security headers (see [`crate::security`]), made once.
    security_headers: Vec<(HeaderName, HeaderValue)>,
    limits: Limits,
}

impl Shared {
    fn overlay(&self) -> &Overlay {
        static NONE: std::sync::LazyLock<Overlay> = std::sync::LazyLock::new(Overlay::default);
        self.client.rocket().state::<Overlay>().unwrap_or(&NONE)
    }
}

/// A complete answer before it gets its body type: status, headers and bytes.
struct Answer {
    status: u16,
    headers: Vec<(HeaderName, HeaderValue)>,
    body: Bytes,
    close: bool,
}

impl Answer {
    /// The application failed to give an answer (its task panicked).
    fn failed() -> Answer {
        Answer {
            status: 500,
            headers: Vec::new(),
            body: Bytes::new(),
            close: true,
        }
    }
}

async fn answer(
    shared: Arc<Shared>,
    peer: SocketAddr,
    activity: Arc<Activity>,
    request: Request<Incoming>,
) -> Result<Response<AnswerBody>, Infallible> {
    activity.enter(BUSY);
    let started = Instant::now();
    let path = request.uri().path();
    let is_get = request.method() == Method::GET || request.method() == Method::HEAD;
    let answer = if is_get && site::serves(path) {
        let answer = site_file(&shared, &request);
        shared
            .log
            .record(request.method().as_str(), path, answer.status, started);
        answer
    } else {
        // In a task of its own, like Rocket's own server: a client that hangs up, or a connection closed by the
        // server, never cancels the application halfway (a lead half-handled, a rate-limit slot taken for nothing).
        let shared = shared.clone();
        let dispatch = tokio::spawn(async move { application(&shared, peer, request).await });
        dispatch.await.unwrap_or_else(|_| Answer::failed())
    };
    let mut response = Response::new(AnswerBody {
        bytes: Full::new(answer.body),
        activity,
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
    Ok(response)
}

/// A GET or HEAD of the site's files, answered from memory. (For HEAD, hyper sends the head alone.)
fn site_file(shared: &Shared, request: &Request<Incoming>) -> Answer {
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
    let response = site::respond(
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
    Answer {
        status: response.status().code,
        headers,
        body: response.body().map(Bytes::from_static).unwrap_or_default(),
        close: false,
    }
}

/// A header name as hyper wants it (lowercase); our names are all valid, so the fallback is never taken.
fn header_name(name: &str) -> HeaderName {
    HeaderName::from_bytes(name.as_bytes()).unwrap_or(hyper::header::WARNING)
}

/// Largest request body passed on: one byte over the leads' limit, so the application sees it is too large and
/// answers 413 itself.
const BODY_CAP: usize = crate::leads::BODY_LIMIT_KIB as usize * 1024 + 1;

/// Any other request, dispatched to the Rocket application once its body has arrived.
async fn application(shared: &Shared, peer: SocketAddr, request: Request<Incoming>) -> Answer {
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
    let body = match read_body(body, shared.limits.head_timeout).await {
        Ok(body) => body,
        Err(BodyError::Broken) => return refusal(shared, &parts, Status::BadRequest, is_api),
        Err(BodyError::Stalled) => return refusal(shared, &parts, Status::RequestTimeout, is_api),
    };
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
    let is_head = method == rocket::http::Method::Head;
    for header in response.headers().iter() {
        // hyper frames the body itself; an answer to HEAD has none, and keeps the length it would have had.
        let is_framing = header.name() == "Content-Length" || header.name() == "Transfer-Encoding";
        if is_framing && !(is_head && header.name() == "Content-Length") {
            continue;
        }
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(header.name().as_str().as_bytes()),
            HeaderValue::from_str(header.value()),
        ) {
            headers.push((name, value));
        }
    }
    // `None` is an answer without a body (a redirect, a 204); our responders' bodies are in memory, so reading them
    // cannot fail.
    let body = response.into_bytes().await.unwrap_or_default();
    Answer {
        status,
        headers,
        body: Bytes::from(body),
        close: false,
    }
}

/// Why a request body was not read.
enum BodyError {
    /// The client broke off or framed it wrongly.
    Broken,
    /// Nothing of it arrived for `stall` (a client trickling a body would hold a worker).
    Stalled,
}

/// Reads a request body, at most [`BODY_CAP`] bytes of it, each piece within `stall` of the one before.
async fn read_body(mut body: Incoming, stall: Duration) -> Result<Vec<u8>, BodyError> {
    let mut bytes = Vec::new();
    loop {
        let frame = match tokio::time::timeout(stall, body.frame()).await {
            Err(_) => return Err(BodyError::Stalled),
            Ok(None) => return Ok(bytes),
            Ok(Some(frame)) => frame.map_err(|_| BodyError::Broken)?,
        };
        if let Ok(data) = frame.into_data() {
            let room = BODY_CAP - bytes.len();
            bytes.extend_from_slice(&data[..data.len().min(room)]);
            if bytes.len() == BODY_CAP {
                return Ok(bytes);
            }
        }
    }
}

/// A request refused before the application saw it: the error page for people, the JSON error under `/api`; the
/// connection is closed after it (what is left of the request cannot be trusted).
fn refusal(
    shared: &Shared,
    parts: &hyper::http::request::Parts,
    status: Status,
    is_api: bool,
) -> Answer {
    let started = Instant::now();
    let (content_type, body): (&'static str, Bytes) = if is_api {
        (
            "application/json",
            Bytes::from(
                crate::errors::ClientError::for_status(status)
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
        let response = site::SiteResponse::error(status, page, &negotiation, shared.overlay());
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

// ---------------------------------------------------------------------------------------------------------------
// Listening, connections, stopping
// ---------------------------------------------------------------------------------------------------------------

/// Where the server is in its life; connections watch it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Serving,
    /// Stop taking requests: idle connections close now, busy ones after their answer.
    Draining,
    /// Grace is over: close every connection now.
    Closing,
}

/// Serves the application of `figment` (already checked by [`crate::config::load`]) until a shutdown signal.
pub async fn serve(figment: Figment, settings: Settings) -> Result<(), String> {
    let config = rocket::Config::from(&figment);
    // Listened to before anything else, so a signal during the start stops the server the graceful way too.
    let signals = shutdown_signals(&config.shutdown);
    let open_files = raise_open_files_limit();
    let limits = Limits::new(&settings, config.keep_alive, open_files);
    let (rocket, log) = crate::application(figment);
    // Everything the application checks at start (settings, the database) is checked before the port is taken.
    let client = Client::untracked(rocket)
        .await
        .map_err(|error| format!("could not start: {error}"))?;
    let address = SocketAddr::new(config.address, config.port);
    let listener =
        listen(address).map_err(|error| format!("cannot listen on {address}: {error}"))?;
    println!(
        "listening on http://{} (up to {} connections; open files limit {})",
        listener.local_addr().unwrap_or(address),
        limits.max_connections,
        open_files.map_or("unknown".to_string(), |limit| limit.to_string()),
    );
    // Lead notifications go out from here on, beside the requests (src/notify).
    let notifications = crate::notify::Worker::start(client.rocket());
    let security_headers = crate::security::headers(settings.hsts)
        .map(|(name, value)| (header_name(name), HeaderValue::from_static(value)))
        .collect();
    let shared = Arc::new(Shared {
        client,
        log,
        security_headers,
        limits,
    });
    let (stage, stage_seen) = watch::channel(Stage::Serving);
    let permits = Arc::new(Semaphore::new(limits.max_connections));

    let stop = first_signal(signals);
    tokio::pin!(stop);
    let mut accept_failures = AcceptFailures::default();
    loop {
        // A permit before accepting: at the cap, new connections wait in the kernel's queue, not in our files.
        let permit = tokio::select! {
            biased;
            _ = &mut stop => break,
            permit = permits.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
        };
        let (stream, peer) = tokio::select! {
            biased;
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    accept_failures.note(&error).await;
                    continue;
                }
            },
        };
        let shared = shared.clone();
        let stage = stage_seen.clone();
        tokio::spawn(async move {
            connection(shared, stream, peer, stage).await;
            drop(permit);
        });
    }
    drop(listener);

    // Graceful stop: idle connections close at once, busy ones when answered; after the grace period every one.
    let grace = Duration::from_secs(u64::from(config.shutdown.grace));
    let mercy = Duration::from_secs(u64::from(config.shutdown.mercy));
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    let _ = stage.send(Stage::Draining);
    if tokio::time::timeout(grace, permits.acquire_many(all))
        .await
        .is_err()
    {
        let _ = stage.send(Stage::Closing);
        let _ = tokio::time::timeout(mercy, permits.acquire_many(all)).await;
    }
    // Requests whose connection is gone may still be in the application (a lead being stored): wait for them too.
    let stopped_at = Instant::now();
    while Arc::strong_count(&shared) > 1 && stopped_at.elapsed() < mercy {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    if let Some(notifications) = notifications {
        notifications.stop().await;
    }
    match Arc::try_unwrap(shared) {
        // Runs the application's shutdown fairings (the request log writes out its last lines).
        Ok(shared) => drop(shared.client.terminate().await),
        Err(shared) => shared.log.flush(),
    }
    Ok(())
}

/// Connections the kernel completes and keeps for us while every permit is taken (it caps this at
/// `net.core.somaxconn`); beyond it, clients' connection attempts wait and are retried.
const LISTEN_BACKLOG: u32 = 1024;

/// The listening socket, reusable at once after a restart (like any server's).
fn listen(address: SocketAddr) -> io::Result<TcpListener> {
    let socket = if address.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Serves one connection until it ends, breaks a limit, or the server stops.
async fn connection(
    shared: Arc<Shared>,
    stream: TcpStream,
    peer: SocketAddr,
    mut stage: watch::Receiver<Stage>,
) {
    let _ = stream.set_nodelay(true);
    let limits = shared.limits;
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(WatchedStream {
        stream,
        activity: activity.clone(),
    });
    let service_activity = activity.clone();
    let service = hyper::service::service_fn(move |request| {
        answer(shared.clone(), peer, service_activity.clone(), request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .keep_alive(limits.keep_alive.is_some())
        // Heads and buffered pipelined requests: far more than any browser sends, far less than hyper's 400 KiB.
        .max_buf_size(64 * 1024);
    let connection = builder.serve_connection(io, service);
    tokio::pin!(connection);

    // The watchdog wakes at the connection's deadline, and at least every second: a phase change can bring the
    // deadline forward (an answer sent, the connection now idle), and no one tells the timer.
    let check_every = Duration::from_secs(1);
    let next_check = |activity: &Activity| {
        let soon = Instant::now() + check_every;
        activity
            .deadline(&limits)
            .map_or(soon, |deadline| deadline.min(soon))
    };
    let timer = tokio::time::sleep_until(next_check(&activity).into());
    tokio::pin!(timer);
    let mut draining = false;
    loop {
        tokio::select! {
            _ = connection.as_mut() => return,
            _ = timer.as_mut() => {
                if activity.deadline(&limits).is_some_and(|deadline| deadline <= Instant::now()) {
                    // Dropping the connection closes the socket.
                    return;
                }
                timer.as_mut().reset(next_check(&activity).into());
            }
            changed = stage.changed() => {
                match (changed, *stage.borrow_and_update()) {
                    (Ok(()), Stage::Serving) => {}
                    (Ok(()), Stage::Draining) if !draining => {
                        draining = true;
                        connection.as_mut().graceful_shutdown();
                    }
                    (Ok(()), Stage::Draining) => {}
                    _ => return,
                }
            }
        }
    }
}

/// The shutdown signals Rocket's `[shutdown]` settings ask for (SIGTERM and SIGHUP by default, Ctrl-C unless
/// `ctrlc = false`), listened to from now on.
fn shutdown_signals(settings: &rocket::config::Shutdown) -> Vec<tokio::signal::unix::Signal> {
    use rocket::config::Sig;
    use tokio::signal::unix::{SignalKind, signal};
    let mut kinds: Vec<(SignalKind, String)> = settings
        .signals
        .iter()
        .map(|sig| {
            let kind = match sig {
                Sig::Alrm => SignalKind::alarm(),
                Sig::Chld => SignalKind::child(),
                Sig::Hup => SignalKind::hangup(),
                Sig::Int => SignalKind::interrupt(),
                Sig::Io => SignalKind::io(),
                Sig::Pipe => SignalKind::pipe(),
                Sig::Quit => SignalKind::quit(),
                Sig::Term => SignalKind::terminate(),
                Sig::Usr1 => SignalKind::user_defined1(),
                Sig::Usr2 => SignalKind::user_defined2(),
            };
            (kind, sig.to_string())
        })
        .collect();
    if settings.ctrlc {
        kinds.push((SignalKind::interrupt(), "SIGINT".to_string()));
    }
    kinds
        .into_iter()
        .filter_map(|(kind, name)| match signal(kind) {
            Ok(stream) => Some(stream),
            Err(error) => {
                eprintln!("truckins: cannot listen for {name}: {error}");
                None
            }
        })
        .collect()
}

/// Resolves at the first of `signals` (never, if there are none).
async fn first_signal(mut signals: Vec<tokio::signal::unix::Signal>) {
    std::future::poll_fn(|cx| {
        for signal in signals.iter_mut() {
            if signal.poll_recv(cx).is_ready() {
                return Poll::Ready(());
            }
        }
        Poll::Pending
    })
    .await
}

/// Failed accepts, logged at most once a minute; when the process is out of files, the loop pauses briefly so it
/// does not spin while connections close.
#[derive(Default)]
struct AcceptFailures {
    last_logged: Option<Instant>,
    since_logged: u64,
}

impl AcceptFailures {
    async fn note(&mut self, error: &io::Error) {
        self.since_logged += 1;
        if self
            .last_logged
            .is_none_or(|at| at.elapsed() >= Duration::from_secs(60))
        {
            eprintln!(
                "truckins: cannot accept connections ({error}; {} times since the last message)",
                self.since_logged
            );
            self.last_logged = Some(Instant::now());
            self.since_logged = 0;
        }
        let out_of_files = matches!(error.raw_os_error(), Some(libc::EMFILE | libc::ENFILE));
        if out_of_files {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_cap_leaves_room_for_the_database_and_the_log() {
        let settings = Settings::default();
        let limits = Limits::new(&settings, 5, Some(256));
        assert_eq!(limits.max_connections, 256 - 64 - 3 * 8);
        assert_eq!(Limits::new(&settings, 5, None).max_connections, 4096);
        assert_eq!(Limits::new(&settings, 0, None).keep_alive, None);
    }

    #[test]
    fn an_idle_connection_has_the_keep_alive_deadline_a_blocked_one_the_stall_deadline_a_busy_one_none()
     {
        let settings = Settings::default();
        let limits = Limits::new(&settings, 5, None);
        let activity = Activity::new();
        let first = activity.deadline(&limits).unwrap();
        assert_eq!(first, activity.epoch + limits.head_timeout);
        activity.enter(BUSY);
        assert_eq!(activity.deadline(&limits), None);
        activity.wrote(true);
        let blocked = activity.deadline(&limits).unwrap();
        assert!(blocked >= activity.epoch + limits.stall_timeout);
        activity.wrote(false);
        activity.enter(IDLE);
        let idle = activity.deadline(&limits).unwrap();
        assert!(idle < activity.epoch + limits.stall_timeout);
        assert!(idle >= activity.epoch + Duration::from_secs(5));
        activity.read_some();
        assert_eq!(activity.phase.load(Ordering::Relaxed), HEAD);
    }
}
