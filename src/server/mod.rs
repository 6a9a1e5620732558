//! The HTTP server: owns the listening socket and every connection, and answers each request.
//!
//! Rocket 0.5 listens by itself and has no public way to bound a connection: no time limit on a request head, none
//! on an idle keep-alive connection between requests, no cap on connections, so a few hundred sockets that send
//! nothing use up the process's open files and the site stops answering. This module listens instead. It
//! - caps the connections served at once below the open-files limit (more wait in the kernel's queue), and those
//!   of one client address at `max_connections_per_ip` (more are closed at once; trusted proxies are not counted),
//! - closes a connection that has not sent a complete request head within `request_head_timeout` (counted from the
//!   connection, or from the first byte of a later head), one idle between requests for longer than Rocket's
//!   `keep_alive`, one whose client takes nothing of an answer for 30 s, and one whose request body stops arriving
//!   for `request_head_timeout` or is not complete within `request_body_timeout` of its head (408),
//! - stops gracefully on a signal: no new connections, requests in flight finish within `shutdown.grace`.
//!
//! GET and HEAD of the site's files are answered here, from the index in memory ([`site::respond`], which Rocket's
//! page route also calls, so both answer alike). Every other request (the leads API and forms, the health check)
//! goes to the Rocket application in process through Rocket's local client: its fairings, guards, catchers and
//! limits decide, exactly as they do in the tests.
//!
//! Rooms: [`limits`] (the bounds, from the configuration and the open-files limit), [`shares`] (the connections
//! each client address holds), [`watchdog`] (what each connection is doing and its deadline), [`answer`] (one
//! request: a site file, the application, or a refusal), [`parse_errors`] (hyper's own answers to requests it
//! cannot parse, given the security headers), [`https`] (built-in HTTPS: the handshake, HTTP/2 or HTTP/1.1 by ALPN,
//! the plain port's challenges and redirects); this file listens, runs each connection with its watchdog, and stops.
//! With `tls_domains`, it listens on `https_port` (the site) and `http_port` (redirects) in the place of `port`; both
//! share the connection cap and each address's share.

mod answer;
mod https;
mod limits;
mod parse_errors;
mod shares;
mod watchdog;

use std::io::{self, Write};
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use hyper::header::HeaderValue;
use hyper_util::rt::{TokioExecutor, TokioIo};
use rocket::figment::Figment;
use rocket::local::asynchronous::Client;
use rocket::tokio;
use rocket::tokio::io::{AsyncRead, AsyncWrite};
use rocket::tokio::net::{TcpListener, TcpSocket};
use rocket::tokio::sync::{Semaphore, watch};

use crate::config::Settings;

use answer::{Shared, answer, header_name};
use https::{Agreed, Port};
pub use limits::Limits;
use limits::{AcceptFailures, raise_open_files_limit};
use shares::{Refusals, Shares};
use watchdog::{Activity, WatchedStream};

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
pub async fn serve(figment: Figment, mut settings: Settings) -> Result<(), String> {
    // Built-in HTTPS: every visitor comes over HTTPS, so HSTS is on.
    let tls = settings
        .tls
        .enabled()
        .then(|| crate::tls::Tls::new(settings.tls.clone()));
    let figment = match tls {
        Some(_) => {
            settings.hsts = true;
            figment.merge(("hsts", true))
        }
        None => figment,
    };
    let config = rocket::Config::from(&figment);
    // Listened to before anything else, so a signal during the start stops the server the graceful way too.
    let signals = shutdown_signals(&config.shutdown);
    let open_files = raise_open_files_limit();
    let limits = Limits::new(&settings, config.keep_alive, open_files);
    let (mut rocket, log) = crate::application(figment);
    if let Some(tls) = &tls {
        rocket = rocket.manage(tls.clone());
    }
    // Everything the application checks at start (settings, the database) is checked before the port is taken.
    let client = Client::untracked(rocket)
        .await
        .map_err(|error| format!("could not start: {error}"))?;
    let port = tls
        .as_ref()
        .map_or(config.port, |tls| tls.settings.https_port);
    let address = SocketAddr::new(config.address, port);
    let listener =
        listen(address).map_err(|error| format!("cannot listen on {address}: {error}"))?;
    let mut acceptor = None;
    let mut redirects = None;
    let mut scheme = "http".to_string();
    if let Some(tls) = &tls {
        let plain = SocketAddr::new(config.address, tls.settings.http_port);
        redirects =
            Some(listen(plain).map_err(|error| format!("cannot listen on {plain}: {error}"))?);
        acceptor = Some(tokio_rustls::TlsAcceptor::from(tls.server_config()?));
        scheme = format!("http://{plain} (challenges, redirects) and https");
        // The stored certificate (if still valid) is served from the first connection; a new one is obtained in
        // the background, never holding up the start (src/tls/acme.rs).
        match client.rocket().state::<crate::leads::Leads>() {
            Some(leads) => crate::tls::acme::start(tls.clone(), leads.pool.clone()),
            None => return Err("no leads database for the certificate".into()),
        }
    }
    // Not println!: a standard output nobody reads any more (`truckins serve | head -1`) must not stop the server.
    let _ = writeln!(
        std::io::stdout().lock(),
        "listening on {scheme}://{} (up to {} connections, {} from one address; open files limit {})",
        listener.local_addr().unwrap_or(address),
        limits.max_connections,
        limits.max_connections_per_ip,
        open_files.map_or("unknown".to_string(), |limit| limit.to_string()),
    );
    // Lead notifications go out from here on, beside the requests (src/notify).
    let notifications = crate::notify::Worker::start(client.rocket());
    // Leads and opt-outs past `lead_retention_days` erased, now and once a day (src/consent/retention.rs).
    crate::consent::retention::start(&settings, client.rocket());
    // A lead still new after `remind_after_minutes` of business hours: one reminder to the agency (src/status).
    crate::status::reminders::start(&settings, client.rocket());
    // A quote not won whose policy expires within `xdate_lead_days`: one e-mail to re-quote it (src/status).
    crate::status::xdates::start(&settings, client.rocket());
    let security_headers: Vec<_> = crate::security::headers(settings.hsts)
        .map(|(name, value)| (header_name(name), HeaderValue::from_static(value)))
        .collect();
    let security_lines = parse_errors::header_lines(&security_headers).into();
    // Page views are counted (src/analytics/) unless `analytics = false`.
    let analytics = crate::analytics::start(&settings, client.rocket());
    let shared = Arc::new(Shared {
        client,
        log,
        security_headers,
        security_lines,
        limits,
        analytics: analytics.clone(),
        tls,
    });
    let (stage, stage_seen) = watch::channel(Stage::Serving);
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let shares = Shares::new(limits.max_connections_per_ip, &settings.trusted_proxies);
    let mut refusals = Refusals::default();

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
        let main_port = if acceptor.is_some() {
            Port::Https
        } else {
            Port::Plain
        };
        let redirect_accept = async {
            match &redirects {
                Some(redirects) => redirects.accept().await,
                None => std::future::pending().await,
            }
        };
        let (accepted, port) = tokio::select! {
            biased;
            _ = &mut stop => break,
            accepted = listener.accept() => (accepted, main_port),
            accepted = redirect_accept => (accepted, Port::Redirect),
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                accept_failures.note(&error).await;
                continue;
            }
        };
        let Some(share) = shares.take(peer.ip()) else {
            // The address already holds its share: the connection is closed now, before a byte is read. Answering
            // it (a 503 with `Connection: close`) would mean either waiting for its request head, which such a
            // client can trickle for `request_head_timeout` while it holds a descriptor, or writing the answer
            // before reading the request, which the close then turns into a reset that can discard the answer
            // before the client reads it. Closed at once, an extra connection costs an accept and a close and
            // holds nothing; its permit goes back with it. A person's browser keeps the connections it already
            // holds (it opens about 6 to a site), so only a client far beyond that meets this.
            refusals.note(limits.max_connections_per_ip);
            drop(stream);
            continue;
        };
        let shared = shared.clone();
        let stage = stage_seen.clone();
        let acceptor = acceptor.clone();
        tokio::spawn(async move {
            let _ = stream.set_nodelay(true);
            match (port, acceptor) {
                (Port::Https, Some(acceptor)) => {
                    let deadline = Instant::now() + shared.limits.head_timeout;
                    match https::handshake(&acceptor, stream, deadline).await {
                        Some(Agreed::Http2(tls)) => {
                            connection(shared, tls, peer, port, true, stage).await
                        }
                        Some(Agreed::Http1(tls)) => {
                            connection(shared, tls, peer, port, false, stage).await
                        }
                        Some(Agreed::AcmeValidation) | None => {}
                    }
                }
                _ => connection(shared, stream, peer, port, false, stage).await,
            }
            drop(share);
            drop(permit);
        });
    }
    drop(listener);
    drop(redirects);
    // Notifications stop now too: no new attempt, those under way finished within the same grace as the requests.
    let mut notifications = notifications;
    if let Some(notifications) = notifications.as_mut() {
        notifications.begin_stop();
    }

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
    if let Some(analytics) = analytics {
        // The views gathered since the last batch are written before the process ends.
        let _ = tokio::task::spawn_blocking(move || analytics.stop()).await;
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

/// Serves one connection (TCP, or TLS on it) until it ends, breaks a limit, or the server stops.
async fn connection<S>(
    shared: Arc<Shared>,
    stream: S,
    peer: SocketAddr,
    port: Port,
    http2: bool,
    stage: watch::Receiver<Stage>,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let limits = shared.limits;
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(WatchedStream {
        stream,
        activity: activity.clone(),
        security_lines: shared.security_lines.clone(),
        rewritten: None,
    });
    let service_activity = activity.clone();
    let service = hyper::service::service_fn(move |request| {
        answer(
            shared.clone(),
            peer,
            service_activity.clone(),
            port,
            request,
        )
    });
    if http2 {
        let mut builder = hyper::server::conn::http2::Builder::new(TokioExecutor::new());
        builder
            // A page and its assets at once, as a browser asks for them; far fewer than hyper's 200.
            .max_concurrent_streams(100)
            .max_header_list_size(64 * 1024);
        let connection = builder.serve_connection(io, service);
        tokio::pin!(connection);
        watch(
            connection,
            |c| c.graceful_shutdown(),
            &activity,
            limits,
            stage,
        )
        .await;
    } else {
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .keep_alive(limits.keep_alive.is_some())
            // Heads and buffered pipelined requests: far more than any browser sends, far less than hyper's 400 KiB.
            .max_buf_size(64 * 1024);
        let connection = builder.serve_connection(io, service);
        tokio::pin!(connection);
        watch(
            connection,
            |c| c.graceful_shutdown(),
            &activity,
            limits,
            stage,
        )
        .await;
    }
}

/// Drives `connection` under its watchdog: closed at its deadline, drained (`graceful`) when the server stops.
async fn watch<F: std::future::Future>(
    mut connection: std::pin::Pin<&mut F>,
    graceful: impl Fn(std::pin::Pin<&mut F>),
    activity: &Activity,
    limits: Limits,
    mut stage: watch::Receiver<Stage>,
) {
    // The watchdog wakes at the connection's deadline, and at least every second: a phase change can bring the
    // deadline forward (an answer sent, the connection now idle), and no one tells the timer.
    let check_every = Duration::from_secs(1);
    let next_check = |activity: &Activity| {
        let soon = Instant::now() + check_every;
        activity
            .deadline(&limits)
            .map_or(soon, |deadline| deadline.min(soon))
    };
    let timer = tokio::time::sleep_until(next_check(activity).into());
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
                timer.as_mut().reset(next_check(activity).into());
            }
            changed = stage.changed() => {
                match (changed, *stage.borrow_and_update()) {
                    (Ok(()), Stage::Serving) => {}
                    (Ok(()), Stage::Draining) if !draining => {
                        draining = true;
                        graceful(connection.as_mut());
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
