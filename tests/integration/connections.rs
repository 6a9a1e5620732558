//! Connections as the open internet makes them, against the real binary on a loopback port (real sockets, a real
//! limit on open files set with `ulimit`, no proxy in front).
//!
//! What these tests prove:
//! - 300 sockets that send nothing (from five addresses), against a server allowed 256 open files, neither stop it
//!   answering `/healthz` nor stay open: the server closes every one of them itself, and never runs out of
//!   descriptors.
//! - A connection that sends nothing, half a request line, a head without its end, or a head trickled a byte at a
//!   time, is closed by the server once `request_head_timeout` has passed; a complete request is answered.
//! - A keep-alive connection is kept between requests sent one after the other, and closed by the server once it
//!   has been idle for `keep_alive`.
//! - A request body that does not arrive within `request_head_timeout` is answered 408 (JSON under `/api`) and the
//!   connection is closed; so is one trickled a byte at a time, each byte in time, once `request_body_timeout` has
//!   passed since its head. A method nobody knows gets 400.
//! - One address holding its share of connections (`max_connections_per_ip`) leaves room for another: its extra
//!   connections are closed at once, a second address (127.0.0.2) is served, and a trusted proxy is not held to a
//!   share.
//! - The server's own answers for the site's files (every page, assets, redirects, 404s, bad paths; brotli, gzip
//!   and identity; 304 revalidation; HEAD) are the application's answers: same status, headers and bytes.
//! - HEAD says the Content-Length its GET has, for the site's files, redirects and the application's answers
//!   (`/healthz`, the quote's thank-you page, the carrier lookup, a JSON 404).

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::process::{Http, Server, TempDir, free_port, truckins_with_open_files};
use rocket::http::Header;

use crate::common;

/// Short limits, so the tests see connections closed soon; every wait below is for the event, bounded only by the
/// 30 s read timeout of the test client.
const HEAD_TIMEOUT: &str = "2";
const KEEP_ALIVE: &str = "3";

fn start(dir: &TempDir, label: &str) -> Server {
    Server::start_with_env(
        dir.path(),
        label,
        &[],
        &[
            ("TRUCKINS_REQUEST_HEAD_TIMEOUT", HEAD_TIMEOUT),
            ("ROCKET_KEEP_ALIVE", KEEP_ALIVE),
        ],
    )
}

#[test]
fn idle_sockets_beyond_the_open_files_limit_neither_stop_the_site_nor_stay_open() {
    let dir = TempDir::new("idle-flood");
    let port = free_port();
    let mut command = truckins_with_open_files(dir.path(), 256);
    command
        .args([
            "serve",
            "--address",
            "127.0.0.1",
            "--port",
            &port.to_string(),
        ])
        .env("TRUCKINS_REQUEST_HEAD_TIMEOUT", HEAD_TIMEOUT);
    let server = Server::spawn(command, port, dir.path(), "idle-flood").expect("the server starts");
    assert!(
        server.stdout_text().contains("open files limit 256"),
        "the limit was not applied: {}",
        server.stdout_text()
    );

    // More sockets than the process may have files: all connected (the kernel queues what is not accepted yet),
    // none sending a byte; from five addresses, 60 each, within each one's share (half the connections).
    let mut idle: Vec<Http> = (0..300)
        .map(|index| {
            let source = Ipv4Addr::new(127, 0, 0, 10 + (index % 5) as u8);
            Http::connect_from(source, port).expect("a connection")
        })
        .collect();

    let asked = Instant::now();
    let mut http = Http::connect(port).expect("a connection");
    let reply = http
        .get("/healthz", &[])
        .expect("the site answers while 300 idle sockets are open");
    assert_eq!(reply.status, 200, "{}", reply.text());
    let answered_after = asked.elapsed();

    let started = Instant::now();
    for (index, socket) in idle.iter_mut().enumerate() {
        assert!(
            socket.closed_by_server(),
            "idle socket {index} was not closed by the server"
        );
    }
    eprintln!(
        "/healthz answered after {answered_after:?} with 300 idle sockets open; all closed by the server {:?} later",
        started.elapsed()
    );
    assert!(
        !server.stderr_text().contains("Too many open files"),
        "the server ran out of descriptors: {}",
        server.stderr_text()
    );
    // And it still serves pages.
    let mut http = Http::connect(port).expect("a connection");
    assert_eq!(http.get("/", &[]).expect("the home page").status, 200);
}

#[test]
fn connections_slow_to_send_a_request_head_are_closed() {
    let dir = TempDir::new("slow-heads");
    let server = start(&dir, "slow-heads");

    let mut silent = Http::connect(server.port).expect("a connection");
    let mut half_line = Http::connect(server.port).expect("a connection");
    half_line.write_raw(b"GET /about HT").unwrap();
    let mut unfinished = Http::connect(server.port).expect("a connection");
    unfinished
        .write_raw(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n")
        .unwrap();

    // A head trickled a byte at a time, each byte well within the head timeout, never finished.
    let trickled = TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], server.port))).unwrap();
    trickled
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut writer = trickled.try_clone().unwrap();
    let trickler = thread::spawn(move || {
        let head = b"GET / HTTP/1.1\r\nX-Padding: "
            .iter()
            .chain([b'a'; 1000].iter());
        for byte in head {
            if writer.write_all(&[*byte]).is_err() {
                return true; // the server closed the connection
            }
            thread::sleep(Duration::from_millis(100));
        }
        false
    });

    let mut complete = Http::connect(server.port).expect("a connection");
    assert_eq!(complete.get("/about", &[]).unwrap().status, 200);

    assert!(
        silent.closed_by_server(),
        "a connection that sent nothing stayed open"
    );
    assert!(
        half_line.closed_by_server(),
        "half a request line stayed open"
    );
    assert!(
        unfinished.closed_by_server(),
        "a head without its end stayed open"
    );
    let mut byte = [0u8; 1];
    let read = (&trickled).read(&mut byte);
    assert!(
        matches!(read, Ok(0))
            || read.is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionReset),
        "a trickled head was not closed by the server"
    );
    assert!(
        trickler.join().unwrap(),
        "the trickled head was sent in full without the server closing the connection"
    );
}

#[test]
fn idle_keep_alive_connections_are_closed_after_keep_alive() {
    let dir = TempDir::new("keep-alive");
    let server = start(&dir, "keep-alive");
    let mut http = Http::connect(server.port).expect("a connection");
    for path in ["/", "/about", "/healthz", "/get-quote"] {
        let reply = http
            .get(path, &[])
            .expect("an answer on the same connection");
        assert_eq!(reply.status, 200, "{path}");
        assert!(!reply.closes(), "{path} closed a keep-alive connection");
    }
    assert!(
        http.closed_by_server(),
        "an idle keep-alive connection stayed open"
    );
}

#[test]
fn a_body_that_does_not_arrive_in_time_gets_408_and_an_unknown_method_400() {
    let dir = TempDir::new("slow-body");
    let server = start(&dir, "slow-body");
    let mut http = Http::connect(server.port).expect("a connection");
    http.write_raw(
        b"POST /api/leads/quote HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
          Content-Length: 400\r\n\r\n{\"name\": \"Slow",
    )
    .unwrap();
    let reply = http.read_reply().expect("an answer to the slow body");
    assert_eq!(reply.status, 408, "{}", reply.text());
    assert_eq!(reply.json()["error"], "Request Timeout");
    assert!(reply.closes(), "the connection stays open after a 408");
    assert!(http.closed_by_server());

    let mut http = Http::connect(server.port).expect("a connection");
    let reply = http.send("BREW", "/", &[], None).expect("an answer");
    assert_eq!(reply.status, 400);
    assert!(reply.text().contains("<html"), "{}", reply.text());

    // Nothing half-received was stored.
    let mut http = Http::connect(server.port).expect("a connection");
    assert_eq!(http.get("/healthz", &[]).unwrap().status, 200);
}

#[test]
fn a_body_trickled_a_byte_at_a_time_gets_408_once_the_whole_body_deadline_passes() {
    const BODY_TIMEOUT: Duration = Duration::from_secs(3);
    let dir = TempDir::new("trickled-body");
    // Each byte arrives long before the 30 s wait for the next piece: only the deadline for the whole body can end
    // this request.
    let server = Server::start_with_env(
        dir.path(),
        "trickled-body",
        &[],
        &[
            ("TRUCKINS_REQUEST_HEAD_TIMEOUT", "30"),
            ("TRUCKINS_REQUEST_BODY_TIMEOUT", "3"),
        ],
    );
    let mut http = Http::connect(server.port).expect("a connection");
    const LENGTH: usize = 4000;
    let head = format!(
        "POST /api/leads/quote HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {LENGTH}\r\n\r\n"
    );
    // Before the head goes: the server's deadline starts once it has read the head, never before this instant.
    let sent_at = Instant::now();
    http.write_raw(head.as_bytes()).unwrap();
    let mut writer = http.try_clone_writer();
    let body_complete = Arc::new(AtomicBool::new(false));
    let complete = body_complete.clone();
    let trickler = thread::spawn(move || {
        for _ in 0..LENGTH {
            if writer.write_all(b" ").is_err() {
                return; // the server closed the connection
            }
            thread::sleep(Duration::from_millis(100));
        }
        complete.store(true, Ordering::SeqCst);
    });

    let reply = http
        .read_reply()
        .expect("an answer while the body is still arriving");
    let answered_after = sent_at.elapsed();
    assert!(
        !body_complete.load(Ordering::SeqCst),
        "the body was sent in full before any answer"
    );
    assert_eq!(reply.status, 408, "{}", reply.text());
    assert_eq!(reply.json()["error"], "Request Timeout");
    assert!(reply.closes(), "the connection stays open after a 408");
    assert!(
        answered_after >= BODY_TIMEOUT,
        "answered after {answered_after:?}, before the deadline"
    );
    assert!(http.closed_by_server());
    trickler.join().unwrap();
    eprintln!("a trickled body was answered 408 after {answered_after:?}");
}

/// A connection that has sent nothing yet (the server waits `request_head_timeout` for its head).
fn idle_from(source: Ipv4Addr, port: u16) -> Http {
    Http::connect_from(source, port).expect("a connection")
}

#[test]
fn an_address_holding_its_share_of_connections_leaves_room_for_another() {
    let dir = TempDir::new("shares");
    // 40 connections at once, 10 from one address; heads are waited for longer than the test client waits for an
    // answer, so a connection held by the first address is never given back during the test.
    let server = Server::start_with_env(
        dir.path(),
        "shares",
        &[],
        &[
            ("TRUCKINS_MAX_CONNECTIONS", "40"),
            ("TRUCKINS_MAX_CONNECTIONS_PER_IP", "10"),
            ("TRUCKINS_REQUEST_HEAD_TIMEOUT", "60"),
        ],
    );
    assert!(
        server
            .stdout_text()
            .contains("up to 40 connections, 10 from one address"),
        "{}",
        server.stdout_text()
    );
    let first = Ipv4Addr::new(127, 0, 0, 1);
    // Every slot and more, from one address, in order: the kernel hands them to the server in this order.
    let mut held: Vec<Http> = (0..50).map(|_| idle_from(first, server.port)).collect();

    // Another address is answered at once; without a share per address it would wait for one of the 40 slots.
    let second = Ipv4Addr::new(127, 0, 0, 2);
    for path in ["/", "/healthz"] {
        let reply = idle_from(second, server.port)
            .get(path, &[])
            .unwrap_or_else(|e| panic!("127.0.0.2 is not answered {path}: {e}"));
        assert_eq!(reply.status, 200, "{path}");
    }
    // The first address holds at most its share: a connection beyond it was closed by the server without an
    // answer, one within it is served. (Which ones: the first ten, unless the start's health probe, also from
    // 127.0.0.1, still held its place when they came; it then gives it to a later one.)
    let mut served = 0;
    for connection in held.iter_mut() {
        if connection
            .get("/about", &[])
            .is_ok_and(|reply| reply.status == 200)
        {
            served += 1;
        }
    }
    assert!(
        (1..=10).contains(&served),
        "{served} of the first address's 50 connections were served"
    );
    assert!(
        server.stderr_text().contains("max_connections_per_ip"),
        "the log says why: {}",
        server.stderr_text()
    );
}

#[test]
fn a_trusted_proxy_is_not_held_to_one_address_share() {
    let dir = TempDir::new("proxy-share");
    let server = Server::start_with_env(
        dir.path(),
        "proxy-share",
        &["--trusted-proxy", "127.0.0.1"],
        &[
            ("TRUCKINS_MAX_CONNECTIONS_PER_IP", "2"),
            ("TRUCKINS_REQUEST_HEAD_TIMEOUT", "60"),
        ],
    );
    // Every visitor comes through the proxy: five connections at once are all served.
    let proxy = Ipv4Addr::new(127, 0, 0, 1);
    let mut through_proxy: Vec<Http> = (0..5).map(|_| idle_from(proxy, server.port)).collect();
    for connection in through_proxy.iter_mut().rev() {
        assert_eq!(connection.get("/healthz", &[]).unwrap().status, 200);
    }
    // Anyone else still has a share of 2.
    let other = Ipv4Addr::new(127, 0, 0, 2);
    let mut direct: Vec<Http> = (0..3).map(|_| idle_from(other, server.port)).collect();
    assert!(
        direct[2].closed_by_server(),
        "a third direct connection stayed open"
    );
    assert_eq!(direct[0].get("/healthz", &[]).unwrap().status, 200);
}

const CENSUS_FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/census.csv");

#[test]
fn head_says_the_length_its_get_has_for_files_redirects_and_the_application() {
    let dir = TempDir::new("head-length");
    let database = dir.path().join("leads.db");
    truckins::carriers::import::import(
        Path::new(CENSUS_FIXTURE),
        &database.with_file_name("carriers.db"),
        |_, _| {},
    )
    .expect("the census fixture imports");
    let server = Server::start(
        dir.path(),
        "head-length",
        &["--database", database.to_str().unwrap()],
    );
    let mut http = Http::connect(server.port).expect("a connection");
    for (path, status) in [
        ("/healthz", 200),
        ("/get-quote/thank-you", 200),
        ("/es/get-quote/thank-you", 200),
        ("/api/carriers/1234567", 200),
        ("/api/carriers/99999999", 404),
        ("/api/nothing-here", 404),
        ("/blog/", 308),
        ("/about", 200),
    ] {
        let get = http.get(path, &[]).expect("an answer to GET");
        let head = http
            .send("HEAD", path, &[], None)
            .expect("an answer to HEAD");
        assert_eq!(get.status, status, "GET {path}: {}", get.text());
        assert_eq!(head.status, status, "HEAD {path}");
        assert!(head.body.is_empty(), "HEAD {path} has a body");
        let length = get
            .header("content-length")
            .unwrap_or_else(|| panic!("GET {path} has no Content-Length"));
        assert_eq!(length, get.body.len().to_string(), "GET {path}");
        assert_eq!(head.header("content-length"), Some(length), "HEAD {path}");
    }
}

#[test]
fn the_server_answers_the_sites_files_exactly_as_the_application_does() {
    let dir = TempDir::new("same-answers");
    let server = Server::start(dir.path(), "same-answers", &[]);
    let client = common::client();
    let mut paths = common::sitemap_paths(&client);
    paths.extend(
        [
            "/nope",
            "/blog/nope",
            "/blog/",
            "/products/physical-damage?utm_source=x",
            "/%zz",
            "/..%2f..%2fCargo.toml",
            "/robots.txt",
            "/sitemap.xml",
            "/_errors/404.html",
        ]
        .map(String::from),
    );
    // An asset too: the first stylesheet or script a page names.
    let home = client.get("/").dispatch().into_string().unwrap();
    let asset = home
        .split("\"/assets/")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .map(|name| format!("/assets/{name}"))
        .expect("the home page names an asset");
    paths.push(asset);

    let mut http = Http::connect(server.port).expect("a connection");
    let mut compared = 0;
    for path in &paths {
        for encoding in ["br, gzip", "gzip", "identity"] {
            let ours = http
                .get(path, &[("Accept-Encoding", encoding)])
                .expect("an answer");
            let theirs = client
                .get(path.as_str())
                .header(Header::new("Accept-Encoding", encoding))
                .dispatch();
            let what = format!("GET {path} ({encoding})");
            assert_eq!(ours.status, theirs.status().code, "{what}");
            assert_eq!(
                headers_of(&ours),
                application_headers(&theirs),
                "{what}: headers differ"
            );
            assert_eq!(
                ours.body,
                theirs.into_bytes().unwrap_or_default(),
                "{what}: bodies differ"
            );
            compared += 1;

            if let Some(etag) = ours.header("etag").map(str::to_string) {
                let again = http
                    .get(
                        path,
                        &[("Accept-Encoding", encoding), ("If-None-Match", &etag)],
                    )
                    .unwrap();
                let theirs = client
                    .get(path.as_str())
                    .header(Header::new("Accept-Encoding", encoding))
                    .header(Header::new("If-None-Match", etag.clone()))
                    .dispatch();
                assert_eq!(again.status, 304, "{what} revalidated");
                assert_eq!(theirs.status().code, 304, "{what} revalidated by Rocket");
                assert_eq!(
                    headers_of(&again),
                    application_headers(&theirs),
                    "{what}: 304 headers differ"
                );
                assert!(again.body.is_empty());
            }
        }
        let head = http
            .send("HEAD", path, &[("Accept-Encoding", "br, gzip")], None)
            .expect("an answer to HEAD");
        let get = http
            .get(path, &[("Accept-Encoding", "br, gzip")])
            .expect("an answer");
        assert_eq!(head.status, get.status, "HEAD {path}");
        assert!(head.body.is_empty(), "HEAD {path} has a body");
        if !get.body.is_empty() {
            assert_eq!(
                head.header("content-length"),
                get.header("content-length"),
                "HEAD {path}"
            );
        }
    }
    eprintln!("{compared} answers compared over {} paths", paths.len());
}

/// Headers that describe the answer (not the connection or the moment), lowercased and sorted.
fn headers_of(reply: &common::process::Reply) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = reply
        .headers
        .iter()
        .filter(|(name, _)| !["date", "content-length", "connection"].contains(&name.as_str()))
        .cloned()
        .collect();
    headers.sort();
    headers
}

fn application_headers(
    response: &rocket::local::blocking::LocalResponse<'_>,
) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .map(|header| {
            (
                header.name().as_str().to_ascii_lowercase(),
                header.value().to_string(),
            )
        })
        .filter(|(name, _)| name != "content-length")
        .collect();
    headers.sort();
    headers
}
