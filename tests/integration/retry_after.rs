//! Every 429 says when to try again (issue 36), through the real binary: a quote over the address's limit (JSON and
//! the form posted without JavaScript), a DOT lookup over its limit, a status link past the guess limit. Each
//! answer carries `Retry-After` as a whole number of seconds, at least 1 and at most the limit's 10-minute window.

use crate::common::process::{Http, Reply, Server, TempDir};
use crate::notify::quote;

/// Asserts a 429 with `Retry-After` a positive whole number of seconds within the 10-minute window.
fn assert_retry_after(reply: &Reply, what: &str) {
    assert_eq!(reply.status, 429, "{what}: {}", reply.text());
    let said = reply
        .header("Retry-After")
        .unwrap_or_else(|| panic!("{what}: no Retry-After in {:?}", reply.headers));
    let seconds: u64 = said
        .parse()
        .unwrap_or_else(|_| panic!("{what}: Retry-After {said:?} is not a whole number"));
    assert!(
        (1..=600).contains(&seconds),
        "{what}: Retry-After {seconds}"
    );
}

#[test]
fn every_429_says_when_to_try_again() {
    let dir = TempDir::new("retry-after");
    let database = dir.path().join("leads.db");
    let server = Server::start_with_env(
        dir.path(),
        "retry-after",
        &["--database", database.to_str().unwrap(), "--ip-limit", "1"],
        &[("TRUCKINS_CARRIER_LOOKUP_LIMIT", "1")],
    );
    let mut http = server.http();
    let first = http
        .post_json("/api/leads/quote", &quote("maria@lopez.example", "retry-1"))
        .unwrap();
    assert_eq!(first.status, 201, "{}", first.text());
    let json = http
        .post_json("/api/leads/quote", &quote("maria@lopez.example", "retry-2"))
        .unwrap();
    assert_retry_after(&json, "a quote over the limit (JSON)");
    let form = Http::connect(server.port)
        .unwrap()
        .send(
            "POST",
            "/api/leads/quote",
            &[("Content-Type", "application/x-www-form-urlencoded")],
            Some(
                b"name=Dana+Whitfield&email=dana%40example.com&insurance_type=dump&vehicle_count=2&consent=on\
                  &elapsed_ms=5000",
            ),
        )
        .unwrap();
    assert_retry_after(&form, "a quote over the limit (form)");

    // No census is imported: the first lookup is a 404, the second over the limit.
    assert_eq!(http.get("/api/carriers/1234567", &[]).unwrap().status, 404);
    let lookup = http.get("/api/carriers/1234567", &[]).unwrap();
    assert_retry_after(&lookup, "a DOT lookup over the limit");

    // Guesses at status links: 60 per 10 minutes, then 429.
    let statuses: Vec<u16> = (0..61)
        .map(|n| {
            http.get(
                &format!("/lead-status/1/won?until=1900000000&sig={n:032x}"),
                &[],
            )
            .unwrap()
            .status
        })
        .collect();
    assert!(statuses[..60].iter().all(|s| *s == 404), "{statuses:?}");
    let guess = http
        .get("/lead-status/1/won?until=1900000000&sig=0", &[])
        .unwrap();
    assert_retry_after(&guess, "a status-link guess over the limit");
    assert!(guess.text().contains("Too many tries"), "{}", guess.text());
    drop(server);
}
