//! Built-in HTTPS by ACME (issue 38), against Debian's pebble on loopback: the server answers plain HTTP at once
//! with the ACME directory down; once pebble is up it obtains a certificate for both names (HTTP-01 and
//! TLS-ALPN-01, one each) and serves the site over HTTP/2 with HSTS; a quote over HTTPS is stored; plain HTTP and the
//! second name redirect permanently; a new folder holding only the database serves the same certificate with pebble
//! down.

#[path = "https/capability.rs"]
mod capability;
#[path = "https/pebble.rs"]
mod pebble;

use std::fs;
use std::path::Path;
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use crate::common::process::{Http, Server, TempDir, free_port, truckins};
use crate::common::valid_quote;
use pebble::{Pebble, curl, served_certificate};

const NAME: &str = "agency.example";
const WWW: &str = "www.agency.example";

/// `truckins serve` with built-in HTTPS on the two ports, ordering from `directory`; waits for the plain port's
/// first answer (pebble may be down: nothing waits for it).
fn serve(dir: &Path, label: &str, ports: (u16, u16), pebble: &Pebble) -> Server {
    let (http_port, https_port) = ports;
    let mut command = truckins(dir);
    command
        .args(["serve", "--address", "127.0.0.1"])
        .env("TRUCKINS_TLS_DOMAINS", format!("{NAME},{WWW}"))
        .env("TRUCKINS_HTTP_PORT", http_port.to_string())
        .env("TRUCKINS_HTTPS_PORT", https_port.to_string())
        .env("TRUCKINS_ACME_DIRECTORY", pebble.directory())
        .env("TRUCKINS_ACME_CA_ROOT", &pebble.api_ca)
        .env("TRUCKINS_ACME_EMAIL", "owner@agency.example");
    Server::spawn_answering(command, http_port, dir, label).expect("the server starts")
}

/// The text of curl's answer, with its last line (`HTTP 2 200`).
fn text(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn https_by_acme_from_a_directory_that_is_down_at_first_then_from_the_database_alone() {
    if !pebble::available() {
        return;
    }
    let dir = TempDir::new("https");
    let ports = (free_port(), free_port());
    let (http_port, https_port) = ports;
    let pebble = Pebble::prepare(dir.path(), http_port, https_port);

    // The ACME directory is down: the server starts and answers plain HTTP at once, with a permanent redirect.
    let started = Instant::now();
    let mut server = serve(&dir.sub("first"), "first", ports, &pebble);
    let answered_in = started.elapsed();
    let mut http = Http::connect(http_port).unwrap();
    // Written whole: the helper's `get` names the host 127.0.0.1 itself.
    let redirect = http
        .send_raw(format!("GET /quote?x=1 HTTP/1.1\r\nHost: {WWW}:{http_port}\r\n\r\n").as_bytes())
        .unwrap();
    assert_eq!(redirect.status, 301, "{redirect:?}");
    assert_eq!(
        redirect.header("location"),
        Some(format!("https://{WWW}:{https_port}/quote?x=1").as_str())
    );
    let posted = http.post_json("/api/leads/quote", &valid_quote()).unwrap();
    assert_eq!(posted.status, 308, "a POST keeps its method: {posted:?}");

    // pebble up: a certificate for both names, within a minute, verified against pebble's root.
    let pebble_running = pebble.start();
    let root = pebble.root();
    let deadline = Instant::now() + Duration::from_secs(60);
    let home = loop {
        let output = curl(&root, NAME, https_port, "/", &[]);
        if text(&output).ends_with("HTTP 2 200") {
            break text(&output);
        }
        assert!(
            Instant::now() < deadline,
            "no certificate within a minute: curl {} {}; server {} {}",
            text(&output),
            String::from_utf8_lossy(&output.stderr),
            server.stdout_text(),
            server.stderr_text()
        );
        thread::sleep(Duration::from_millis(100));
    };
    let obtained_in = started.elapsed();
    assert!(
        home.to_ascii_lowercase()
            .contains("strict-transport-security: max-age=31536000"),
        "{home}"
    );
    // The other name is on the certificate too, and redirects to the first.
    let www = text(&curl(&root, WWW, https_port, "/blog?p=2", &[]));
    assert!(www.ends_with("HTTP 2 301"), "{www}");
    assert!(
        www.contains(&format!("location: https://{NAME}:{https_port}/blog?p=2")),
        "{www}"
    );
    // A quote over HTTPS (HTTP/2) is stored.
    let quote = curl(
        &root,
        NAME,
        https_port,
        "/api/leads/quote",
        &[
            "-H",
            "Content-Type: application/json",
            "--data",
            &valid_quote().to_string(),
        ],
    );
    assert!(text(&quote).ends_with("HTTP 2 201"), "{}", text(&quote));
    // HTTP/1.1 too, for clients without HTTP/2.
    let one = text(&curl(&root, NAME, https_port, "/healthz", &["--http1.1"]));
    assert!(one.ends_with("HTTP 1.1 200"), "{one}");
    assert!(one.contains("\"certificate\":\"valid\""), "{one}");
    let first_certificate = served_certificate(NAME, https_port);
    assert!(
        first_certificate.contains("BEGIN CERTIFICATE"),
        "{first_certificate}"
    );

    // A new folder holding only the database, pebble down: the same certificate, at once, with no new order.
    server.terminate();
    drop(pebble_running);
    let second = dir.sub("second");
    fs::copy(
        dir.path().join("first/truckins.db"),
        second.join("truckins.db"),
    )
    .unwrap();
    let server = serve(&second, "second", ports, &pebble);
    let again = text(&curl(&root, NAME, https_port, "/", &[]));
    assert!(
        again.ends_with("HTTP 2 200"),
        "{again} {}",
        server.stderr_text()
    );
    assert_eq!(served_certificate(NAME, https_port), first_certificate);
    assert!(
        !server.stdout_text().contains("certificate obtained"),
        "{}",
        server.stdout_text()
    );
    // `truckins check` says the certificate is fine.
    let check = Command::new(crate::common::process::BIN)
        .current_dir(&second)
        .args(["check"])
        .env("TRUCKINS_TLS_DOMAINS", format!("{NAME},{WWW}"))
        .env("TRUCKINS_ACME_DIRECTORY", pebble.directory())
        .output()
        .unwrap();
    let check = String::from_utf8_lossy(&check.stdout).into_owned();
    let line = check
        .lines()
        .find(|line| line.contains("certificate"))
        .unwrap_or("");
    assert!(line.starts_with('✓'), "{check}");
    eprintln!(
        "plain HTTP answered {answered_in:?} after the start (ACME directory down); HTTPS/2 with a certificate \
         {obtained_in:?} after the start"
    );
}
