//! A status link's values are read in one spelling only (issue 36), through the real binary and its real webhook:
//!
//! - a link used once, then spelled otherwise (upper-case hex, one upper-case digit, `until` with a leading zero or
//!   `%2B`, the lead `0N` or `%2BN`, `sig` or `until` given twice) is refused 404 like a bad signature, on GET and
//!   POST: the lead stays where it is and no second `lead.status` event is queued;
//! - a parameter added by a mail provider's click tracking (`&utm_source=...`), or the two swapped, change nothing
//!   of what the link is: unused, it works (the lead moves); used, it is known as used and replays nothing;
//! - the guess limit counts an IPv6 /64 as one address (through the application with Rocket's local client, which
//!   can give a request any remote address: the test server on loopback is reachable from `::1` alone).

use std::path::Path;

use rocket::http::Status;

use crate::notify::support::wait_until;
use crate::notify::{agency, lead};
use crate::status_links::{confirm, get, link_for, status_of};

/// The `lead.status` deliveries queued for `id`, from the database (queued in the change's own transaction, so
/// a change answered is a delivery already there).
fn status_deliveries(database: &Path, id: i64) -> i64 {
    let connection = crate::notify::support::read_only(database);
    connection
        .query_row(
            "SELECT COUNT(*) FROM deliveries WHERE kind = 'status' AND lead_id = ?1",
            [id],
            |row| row.get(0),
        )
        .unwrap()
}

/// Other spellings of `link` (`/lead-status/<id>/<status>?until=<until>&sig=<sig>`), each naming the same values.
fn respellings(link: &str) -> Vec<String> {
    let (path, query) = link.split_once('?').unwrap();
    let (prefix, status) = path.rsplit_once('/').unwrap();
    let id = prefix.rsplit_once('/').unwrap().1;
    let (until, sig) = query
        .strip_prefix("until=")
        .unwrap()
        .split_once("&sig=")
        .unwrap();
    let upper = sig.to_uppercase();
    let one_upper = {
        let at = sig
            .find(|c: char| c.is_ascii_alphabetic())
            .expect("a letter in 32 hex digits");
        format!(
            "{}{}{}",
            &sig[..at],
            sig[at..=at].to_uppercase(),
            &sig[at + 1..]
        )
    };
    let with = |id: &str, until: &str, sig: &str| {
        format!("/lead-status/{id}/{status}?until={until}&sig={sig}")
    };
    vec![
        with(id, until, &upper),
        with(id, until, &one_upper),
        with(id, &format!("0{until}"), sig),
        with(id, &format!("%2B{until}"), sig),
        with(&format!("0{id}"), until, sig),
        with(&format!("%2B{id}"), until, sig),
        // Given twice: which one counts would be a guess.
        format!("{link}&sig={sig}"),
        format!("{link}&until={until}"),
    ]
}

/// `link` as a mail provider's click tracking may hand it on: a parameter added, or the two in another order.
fn tracked(link: &str) -> Vec<String> {
    let (path, query) = link.split_once('?').unwrap();
    let (until, sig) = query.split_once('&').unwrap();
    vec![
        format!("{link}&utm_source=newsletter"),
        format!("{path}?utm_medium=email&{sig}&{until}"),
    ]
}

#[test]
fn status_link_spelled_otherwise_is_refused_and_replays_nothing() {
    let site = agency("status-spellings", "status-spellings", &[]);
    let id = lead(site.server.port, "maria@lopez.example", "spellings-1");
    let mails = site.smtp.wait_for_mails(1);
    let contacted = link_for(&mails[0], "Contacted");
    let won = link_for(&mails[0], "Won");

    // Used as sent, then the lead moved on by another link, opened through a mail provider's click tracking (a
    // parameter added): a replay of the first would move it back.
    assert!(
        confirm(site.server.port, &contacted)
            .text()
            .contains("moved from New to Contacted")
    );
    let won_tracked = &tracked(&won)[0];
    let shown = get(site.server.port, won_tracked);
    assert_eq!(shown.status, 200, "{won_tracked}: {}", shown.text());
    assert!(
        confirm(site.server.port, won_tracked)
            .text()
            .contains("moved from Contacted to Won")
    );
    assert_eq!(status_deliveries(&site.database, id), 2);

    let spellings = respellings(&contacted);
    assert_eq!(spellings.len(), 8);
    for spelled in &spellings {
        for reply in [
            get(site.server.port, spelled),
            confirm(site.server.port, spelled),
        ] {
            assert_eq!(reply.status, 404, "{spelled}: {}", reply.text());
            assert!(
                reply.text().contains("This link is not valid"),
                "{spelled}: {}",
                reply.text()
            );
        }
    }
    assert_eq!(status_of(site.dir.path(), &site.database, id), "won");
    assert_eq!(
        status_deliveries(&site.database, id),
        2,
        "no further lead.status event"
    );
    // As sent, and as click tracking hands it on, the link is still known as used.
    for spelled in [vec![contacted.clone()], tracked(&contacted)].concat() {
        for reply in [
            get(site.server.port, &spelled),
            confirm(site.server.port, &spelled),
        ] {
            assert_eq!(reply.status, 200, "{spelled}: {}", reply.text());
            assert!(
                reply.text().contains("This link was already used"),
                "{spelled}: {}",
                reply.text()
            );
        }
    }
    assert_eq!(status_of(site.dir.path(), &site.database, id), "won");
    assert_eq!(status_deliveries(&site.database, id), 2);
    // The webhook got the two changes, and nothing more was queued for it.
    let events = wait_until("the two lead.status events", || {
        let events: Vec<_> = site
            .receiver
            .received()
            .into_iter()
            .filter(|r| r.json()["event"] == "lead.status")
            .map(|r| r.json()["to"].as_str().unwrap_or_default().to_string())
            .collect();
        (events.len() >= 2).then_some(events)
    });
    // Each change once (the worker may deliver the two in either order).
    let mut events = events;
    events.sort();
    assert_eq!(events, ["contacted", "won"]);
    drop(site.server);
}

#[test]
fn status_link_guesses_from_one_ipv6_64_share_one_limit() {
    let client = crate::common::client_with(crate::common::figment(&crate::common::temp_database(
        "status-ipv6",
    )));
    let guess = |from: &str, n: usize| {
        client
            .get(format!("/lead-status/1/won?until=1900000000&sig={n:032x}"))
            .remote(from.parse().unwrap())
            .dispatch()
            .status()
    };
    // Sixty guesses spread over the addresses of one /64: all counted together.
    for n in 0..60 {
        let from = format!("[2001:db8:1:2::{:x}]:4000", n + 1);
        assert_eq!(guess(&from, n), Status::NotFound, "guess {n}");
    }
    assert_eq!(
        guess("[2001:db8:1:2:ffff:ffff:ffff:ffff]:4000", 60),
        Status::TooManyRequests,
        "another address of the same /64"
    );
    assert_eq!(
        guess("[2001:db8:1:3::1]:4000", 61),
        Status::NotFound,
        "the next /64 has its own limit"
    );
}
