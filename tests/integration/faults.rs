//! Faults met by the running `truckins` binary, each reproduced for real: a child process on a free loopback port,
//! a real SQLite file, real sockets, real concurrency.
//!
//! What these tests prove:
//! - The database file, its `-wal` and `-shm` deleted under the running server: `/healthz` answers 503 with the
//!   reason, `truckins healthcheck` exits non-zero, and no lead is acknowledged any more (JSON 503, a repeat of a
//!   lead stored before included; form posts 503): nothing is written into a file that is gone. The log says
//!   why. Restarted, the server takes leads again.
//! - A database file the server cannot write (read-only for the user it runs as): `/healthz` 503 and
//!   `truckins healthcheck` non-zero; every lead, JSON or form, quote or contact, answers 503, never 500; the
//!   pages are still served; nothing is stored; the notifications, off with nothing waiting, log nothing.
//! - Twenty copies of one submission sent at the same instant, by an address with two submissions left of its
//!   limit: all twenty answer 201 with the same id, one lead is stored, and the address has exactly one left.
//! - Tracking fields (`utm_*`, `gclid`, `referrer`, `landing_page`, `page_url`) and the browser's `User-Agent`
//!   are stored without control or bidirectional characters and within their length bounds; and `leads list`, the
//!   CSV export and the JSON export of rows that do hold such characters (stored by an older version) print none
//!   of them raw: the JSON export escapes them (and still reads back as stored), the others show U+FFFD.
//! - Under a `umask` of 022, the database, its `-wal` and `-shm`, an export written with `--output` and a backup
//!   are created readable by their owner only (0600).
//! - An `elapsed_ms` that is not a whole non-negative number (-1, 1.0, 1e3, "abc", "+2000") counts as filled in
//!   too fast: stored marked `suspected_spam`, as for 300 ms (issue 36); a whole 1500 is a person.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Barrier};
use std::thread;

use crate::common::process::{Reply, Server, TempDir, free_port, succeeded, truckins, with_umask};
use serde_json::{Value, json};

const QUOTE: &str = "/api/leads/quote";
const CONTACT: &str = "/api/leads/contact";

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

fn quote(submission_id: &str) -> Value {
    json!({
        "name": "Dana Whitfield",
        "email": "dana@example.com",
        "company": "Lone Star Haulers",
        "insurance_type": "dump",
        "vehicle_count": 2,
        "consent": true,
        "submission_id": submission_id,
    })
}

fn contact(submission_id: &str) -> Value {
    json!({
        "name": "Luis Ortega",
        "email": "luis@example.com",
        "subject": "Certificate of insurance",
        "message": "Please send a certificate of insurance for my new shipper.",
        "submission_id": submission_id,
    })
}

const QUOTE_FORM: &str =
    "name=Dana+Whitfield&email=dana%40example.com&insurance_type=dump&vehicle_count=2&consent=on";
const CONTACT_FORM: &str = "name=Luis+Ortega&email=luis%40example.com&subject=Certificate+please\
                            &message=Please+send+a+certificate+of+insurance.";

fn post(server: &Server, path: &str, body: &Value) -> Reply {
    server.http().post_json(path, body).expect("an answer")
}

fn post_form(server: &Server, path: &str, body: &str) -> Reply {
    post_text(server, path, "application/x-www-form-urlencoded", body)
}

/// A body sent as it is written, of the given content type.
fn post_text(server: &Server, path: &str, content_type: &str, body: &str) -> Reply {
    server
        .http()
        .send(
            "POST",
            path,
            &[("Content-Type", content_type)],
            Some(body.as_bytes()),
        )
        .expect("an answer")
}

/// The id of a 201 answer; fails the test on anything else.
fn created(reply: &Reply) -> i64 {
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_i64().expect("a 201 body {\"id\": N}")
}

/// `truckins serve --database <database>` with `args`, run in the database's directory.
fn serve_command(database: &Path, port: u16, args: &[&str]) -> Command {
    let mut command = truckins(database.parent().unwrap());
    command
        .arg("serve")
        .arg("--database")
        .arg(database)
        .args(args)
        .args(["--address", "127.0.0.1", "--port", &port.to_string()]);
    command
}

/// Asserts a refused lead: 503, a JSON error with `error` and `message`, and no id.
fn assert_refused_json(reply: &Reply, what: &str) {
    assert_eq!(reply.status, 503, "{what}: {}", reply.text());
    let body = reply.json();
    assert!(body["error"].is_string(), "{what}: {body}");
    assert!(body["message"].is_string(), "{what}: {body}");
    assert!(body.get("id").is_none(), "{what}: {body}");
}

/// Asserts a new quote and a new contact message are refused with 503 JSON, and both forms posted without
/// JavaScript with the 503 "technical difficulties" page; `label` makes the submissions' ids unique.
fn assert_new_leads_refused(server: &Server, label: &str) {
    assert_refused_json(
        &post(server, QUOTE, &quote(&format!("{label}-quote"))),
        "a new quote",
    );
    assert_refused_json(
        &post(server, CONTACT, &contact(&format!("{label}-contact"))),
        "a new contact message",
    );
    for (path, body) in [(QUOTE, QUOTE_FORM), (CONTACT, CONTACT_FORM)] {
        let reply = post_form(server, path, body);
        assert_eq!(reply.status, 503, "form post to {path}: {}", reply.text());
        assert!(reply.text().contains("technical difficulties"));
    }
}

/// Asserts `/healthz` comes to answer 503 with a reason containing `reason`, and `truckins healthcheck` exits non-zero.
fn assert_unhealthy(server: &Server, dir: &Path, reason: &str) {
    let reply = crate::health_storage::healthz_until(server, 503);
    assert_eq!(reply.status, 503, "{}", reply.text());
    let body = reply.json();
    assert_eq!(body["status"], "unavailable", "{body}");
    let said = body["reason"].as_str().unwrap_or_default();
    assert!(said.contains(reason), "reason {said:?} lacks {reason:?}");
    let check = truckins(dir)
        .args(["healthcheck", "--port", &server.port.to_string()])
        .output()
        .expect("healthcheck runs");
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(!check.status.success(), "healthcheck exited 0: {stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr:?}");
    assert!(stderr.contains("503"), "{stderr}");
}

fn lead_count(database: &Path) -> i64 {
    rusqlite::Connection::open(database)
        .expect("the database opens")
        .query_row("SELECT COUNT(*) FROM leads", [], |row| row.get(0))
        .expect("a count of the leads")
}

// ---------------------------------------------------------------------------------------------------------------
// The database file deleted or read-only under the server
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn a_database_deleted_under_the_server_acknowledges_nothing_more() {
    let dir = TempDir::new("deleted");
    let database = dir.path().join("leads.db");
    let args = [
        "--database",
        database.to_str().unwrap(),
        "--ip-limit",
        "1000",
    ];
    let mut server = Server::start(dir.path(), "deleted", &args);
    let before = created(&post(&server, QUOTE, &quote("stored-before-deletion")));

    for suffix in ["", "-wal", "-shm"] {
        let file = PathBuf::from(format!("{}{suffix}", database.display()));
        fs::remove_file(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    }

    assert_unhealthy(&server, dir.path(), "deleted");
    assert_new_leads_refused(&server, "after-deletion");
    // The first answer was given from a file that no longer exists: it is not given again.
    assert_refused_json(
        &post(&server, QUOTE, &quote("stored-before-deletion")),
        "a repeat of a lead of the deleted file",
    );
    server.terminate();
    let log = server.stdout_text() + &server.stderr_text();
    assert!(
        log.contains("deleted") && log.contains(&database.display().to_string()),
        "the log says why, naming the file: {log}"
    );
    assert!(!log.contains("panicked"), "{log}");

    // Restarted, the server works on a new file at the configured path.
    let server = Server::start(dir.path(), "deleted-restarted", &args);
    let after = created(&post(&server, QUOTE, &quote("after-the-restart")));
    assert!(after > 0 && before > 0);
    assert_eq!(lead_count(&database), 1);
}

/// Whether this test process runs as root (who may write any file, whatever its mode).
fn running_as_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// `nobody`: root's tests run the server as this user, for whom a file of mode 0444 is truly read-only.
const NOBODY: u32 = 65534;

#[test]
fn a_read_only_database_answers_503_everywhere_and_never_500() {
    let dir = TempDir::new("read-only");
    let database = dir.path().join("leads.db");
    // A database with one lead, written while it was still writable.
    let port = free_port();
    let mut server = Server::spawn(
        serve_command(&database, port, &[]),
        port,
        dir.path(),
        "writable",
    )
    .expect("the server starts");
    created(&post(&server, QUOTE, &quote("stored-while-writable")));
    server.terminate();

    fs::set_permissions(&database, fs::Permissions::from_mode(0o444)).unwrap();
    let port = free_port();
    let mut command = serve_command(&database, port, &[]);
    if running_as_root() {
        std::os::unix::fs::chown(dir.path(), Some(NOBODY), Some(NOBODY)).unwrap();
        std::os::unix::fs::chown(&database, Some(NOBODY), Some(NOBODY)).unwrap();
        command.uid(NOBODY).gid(NOBODY);
    }
    let mut server = Server::spawn_answering(command, port, dir.path(), "read-only")
        .expect("the server starts on a read-only database");

    assert_unhealthy(&server, dir.path(), "read-only");
    assert_new_leads_refused(&server, "while-read-only");
    // The site itself is still served.
    assert_eq!(server.http().get("/", &[]).unwrap().status, 200);
    server.terminate();
    let log = server.stdout_text() + &server.stderr_text();
    assert!(log.contains("read-only"), "the log says why: {log}");
    assert!(!log.contains("panicked"), "{log}");
    // Notifications are off and no delivery waits: nothing to mark failed, so nothing is tried (a write would fail).
    assert!(
        !log.contains("notifications:"),
        "the notifications had nothing to say: {log}"
    );
    assert_eq!(lead_count(&database), 1, "nothing was stored, nothing lost");
}

// ---------------------------------------------------------------------------------------------------------------
// Concurrent copies of one submission
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn concurrent_copies_of_one_submission_get_one_id_and_spend_one_slot() {
    const COPIES: usize = 20;
    let (_dir, database, server) = three_a_visitor_one_spent("copies");

    // Every copy is on its own connection with all but the last byte sent, so all of them reach the server at the
    // same instant when the barrier opens.
    let request = raw_quote("copies-of-one-submission");
    let barrier = Arc::new(Barrier::new(COPIES));
    let threads: Vec<_> = (0..COPIES)
        .map(|_| {
            let (barrier, request) = (Arc::clone(&barrier), request.clone());
            let mut http = server.http();
            thread::spawn(move || {
                let (head, last) = request.as_bytes().split_at(request.len() - 1);
                http.write_raw(head).expect("the request is sent");
                barrier.wait();
                http.send_raw(last).expect("an answer")
            })
        })
        .collect();
    let replies: Vec<Reply> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    assert!(
        statuses.iter().all(|s| *s == 201),
        "every copy answers 201: {statuses:?}"
    );
    let ids: Vec<i64> = replies.iter().map(created).collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "one id: {ids:?}");
    assert_eq!(lead_count(&database), 2);

    // The copies spent exactly one slot: one more submission fits, the next does not.
    assert_one_more_fits(&server, "copies");
}

#[test]
fn copies_whose_clients_hang_up_still_spend_one_slot() {
    let (_dir, database, server) = three_a_visitor_one_spent("abandoned");

    // Ten copies sent whole by clients that hang up at once (a fetch given up and retried): whatever of them the
    // application had begun runs to its end, so none leaves a slot taken without its lead.
    let request = raw_quote("abandoned-copies-of-one");
    for _ in 0..10 {
        let mut http = server.http();
        http.write_raw(request.as_bytes())
            .expect("the request is sent");
    }
    // The copy that waits for its answer gets the one lead.
    let id = created(&post(&server, QUOTE, &quote("abandoned-copies-of-one")));
    let again = created(&post(&server, QUOTE, &quote("abandoned-copies-of-one")));
    assert_eq!(id, again);
    assert_eq!(lead_count(&database), 2);
    assert_one_more_fits(&server, "abandoned");
}

/// A server that takes three submissions a visitor, one of them spent (a quote from `{name}-first-distinct`): its
/// folder, its database and the server.
fn three_a_visitor_one_spent(name: &str) -> (TempDir, PathBuf, Server) {
    let (dir, database, server) = server_with_ip_limit(name, 3);
    created(&post(
        &server,
        QUOTE,
        &quote(&format!("{name}-first-distinct")),
    ));
    (dir, database, server)
}

/// A server of its own folder `name` taking `ip_limit` submissions a visitor: its folder, its database and the
/// server.
fn server_with_ip_limit(name: &str, ip_limit: usize) -> (TempDir, PathBuf, Server) {
    let dir = TempDir::new(name);
    let database = dir.path().join("leads.db");
    let limit = ip_limit.to_string();
    let args = [
        "--database",
        database.to_str().unwrap(),
        "--ip-limit",
        &limit,
    ];
    let server = Server::start(dir.path(), name, &args);
    (dir, database, server)
}

/// A quote's whole HTTP request, as a client writes it on its connection.
fn raw_quote(name: &str) -> String {
    let body = quote(name).to_string();
    format!(
        "POST {QUOTE} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Of the three submissions a visitor, one is left: one more fits, the next is refused.
fn assert_one_more_fits(server: &Server, name: &str) {
    created(&post(
        server,
        QUOTE,
        &quote(&format!("{name}-second-distinct")),
    ));
    let refused = post(server, QUOTE, &quote(&format!("{name}-third-distinct")));
    assert_eq!(refused.status, 429, "{}", refused.text());
}

// ---------------------------------------------------------------------------------------------------------------
// Control and bidirectional characters
// ---------------------------------------------------------------------------------------------------------------

/// A character a terminal or a text viewer acts on instead of showing: C0 controls other than tab and line feed,
/// DEL, C1 controls and the bidirectional controls.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The unsafe characters of `text`, a CRLF line ending (CSV's row end) allowed.
fn unsafe_chars(text: &str) -> Vec<char> {
    text.replace("\r\n", "\n")
        .chars()
        .filter(|c| is_unsafe(*c))
        .collect()
}

#[test]
fn tracking_fields_are_cleaned_and_lead_output_is_safe_to_print() {
    let (dir, database, server) = server_with_ip_limit("controls", 1000);
    let mut body = quote("tracking-with-controls");
    let long = "u".repeat(300);
    let long_url = format!("https://www.example.com/{}", "p".repeat(3000));
    let sent = [
        ("utm_source", "\u{1b}[2J\u{1b}[31mgoogle\u{1b}[0m"),
        ("utm_medium", "cpc\u{202E}evil\u{202C}"),
        ("utm_campaign", "spring\u{9b}31m sale"),
        ("utm_term", "truck\rinsurance\u{7}"),
        ("utm_content", &long),
        ("gclid", "abc\u{0}def\u{200F}"),
        ("referrer", "https://ref.example/\u{1b}]0;title\u{7}x"),
        (
            "landing_page",
            "https://www.example.com/\u{2066}dump\u{2069}",
        ),
        ("page_url", &long_url),
    ];
    for (field, value) in sent {
        body[field] = json!(value);
    }
    // Written by hand: the test client sends a User-Agent of its own with every request it builds.
    let body_text = body.to_string();
    let request = format!(
        "POST {QUOTE} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         User-Agent: Mozilla/5.0 \u{202E}gnp.exe\u{202C} \u{85}x\r\nContent-Length: {}\r\n\r\n{body_text}",
        body_text.len()
    );
    let reply = server
        .http()
        .send_raw(request.as_bytes())
        .expect("an answer");
    let id = created(&reply);

    let connection = rusqlite::Connection::open(&database).unwrap();
    let stored = |column: &str| -> String {
        connection
            .query_row(
                &format!("SELECT {column} FROM leads WHERE id = ?1"),
                [id],
                |row| row.get(0),
            )
            .unwrap()
    };
    for (column, expected) in [
        ("utm_source", "[2J[31mgoogle[0m"),
        ("utm_medium", "cpcevil"),
        ("utm_campaign", "spring31m sale"),
        ("utm_term", "truckinsurance"),
        ("gclid", "abcdef"),
        ("referrer", "https://ref.example/]0;titlex"),
        ("landing_page", "https://www.example.com/dump"),
    ] {
        assert_eq!(stored(column), expected, "{column}");
    }
    assert_eq!(stored("utm_content"), "u".repeat(200), "utm_* at most 200");
    assert_eq!(
        stored("page_url").chars().count(),
        2000,
        "URLs at most 2000"
    );
    let user_agent = stored("user_agent");
    assert_eq!(
        user_agent, "Mozilla/5.0 gnp.exe x",
        "the header is cleaned too"
    );
    drop(server);

    // A row an older version stored with such characters in every text column.
    let nasty = "a\u{1b}[31mb\u{9b}c\u{202E}d\u{7f}e\rf\u{0}g\u{2066}h";
    // Every text column: all of them but the id, the enums (source, status, radius), the numbers and the flags.
    let not_text = [
        "id",
        "source",
        "status",
        "vehicle_count",
        "consent_given",
        "additional_insured",
        "waiver_of_subrogation",
        "radius",
        "years_in_business",
        "hazmat",
        "power_units",
        "trailers",
        "drivers",
        "claims_3y",
        // A closed set (CHECK en or es), like source and status.
        "language",
        // A JSON object (CHECK json_valid): given the characters inside one below.
        "request",
        // A flag (CHECK 0 or 1).
        "suspected_spam",
        // JSON arrays (CHECK json_valid), like the request.
        "vehicle_schedule",
        "driver_schedule",
        "loss_history",
    ];
    let columns: Vec<&str> = truckins::store::COLUMNS
        .iter()
        .copied()
        .filter(|c| !not_text.contains(c))
        .collect();
    connection
        .execute(
            &format!(
                "INSERT INTO leads (source, status, {}) VALUES ('quote', 'new', {})",
                columns.join(", "),
                vec!["?1"; columns.len()].join(", ")
            ),
            [nasty],
        )
        .expect("the old row is stored");
    let old_id: i64 = connection
        .query_row("SELECT MAX(id) FROM leads", [], |row| row.get(0))
        .unwrap();
    connection
        .execute(
            "UPDATE leads SET request = json_object('what_happened', ?1) WHERE id = ?2",
            rusqlite::params![nasty, old_id],
        )
        .expect("the old row's request is stored");
    // Its schedules (issue 39) and a document, each with the characters in a text of its own.
    connection
        .execute(
            "UPDATE leads SET \
             vehicle_schedule = json_array(json_object('year', 2021, 'make', ?1, 'vin', '1M8GDM9AXKP042788')), \
             driver_schedule = json_array(json_object('name', ?1, 'date_of_birth', '1980-05-01', 'license_state', 'TX')), \
             loss_history = json_array(json_object('date', '2024-03-15', 'kind', 'cargo', 'amount', 12500, 'description', ?1)) \
             WHERE id = ?2",
            rusqlite::params![nasty, old_id],
        )
        .expect("the old row's schedules are stored");
    connection
        .execute(
            "INSERT INTO lead_documents (lead_id, file_name, media_type, size, sha256, bytes, created_at) \
             VALUES (?2, ?1, 'application/pdf', 4, '', X'25504446', '2026-01-01T00:00:00Z')",
            rusqlite::params![nasty, old_id],
        )
        .expect("the old row's document is stored");
    assert!(old_id > id, "the old row is stored");
    drop(connection);

    // What a command prints, which must hold no unsafe character.
    let printed = |what: &str, args: &[&str]| -> String {
        let output = succeeded(
            truckins(dir.path())
                .arg("--database")
                .arg(&database)
                .args(args),
        );
        let text = String::from_utf8(output.stdout).expect("UTF-8 output");
        assert_eq!(unsafe_chars(&text), Vec::<char>::new(), "{what}: {text:?}");
        text
    };
    let list = printed("leads list", &["leads", "list"]);
    assert!(list.contains("a�[31mb�c�d�e�f�g�h"), "{list}");
    let csv = printed("CSV export", &["leads", "export", "--format", "csv"]);
    assert!(csv.contains("a�[31mb�c�d�e�f�g�h"), "{csv}");
    let json_text = printed("JSON export", &["leads", "export", "--format", "json"]);
    let json: Value = serde_json::from_str(&json_text).expect("the JSON export parses");
    assert_eq!(json[0]["id"], old_id);
    assert_eq!(
        json[0]["name"], nasty,
        "the JSON export escapes, it loses nothing"
    );
    assert_eq!(json[0]["utm_source"], nasty);
    assert_eq!(json[0]["request"]["what_happened"], nasty);
    assert_eq!(json[0]["vehicle_schedule"][0]["make"], nasty);
    assert_eq!(json[0]["driver_schedule"][0]["name"], nasty);
    assert_eq!(json[0]["loss_history"][0]["description"], nasty);
    assert_eq!(json[0]["losses_total"], 12500);
    assert_eq!(json[0]["documents"][0]["file_name"], nasty);
    assert_eq!(json[0]["documents"][0]["size"], 4);
    assert!(json[0]["documents"][0].get("bytes").is_none());
    // The CSV's JSON column of each list, and `leads show`'s tables and documents: shown, never raw.
    assert!(
        csv.contains("\"[{\"\"amount\"\":12500,\"\"date\"\":\"\"2024-03-15\"\""),
        "{csv}"
    );
    assert!(csv.contains("1,1,1,12500,1,"), "the counts: {csv}");
    let shown = printed("leads show", &["leads", "show", &old_id.to_string()]);
    assert!(shown.contains("Drivers (1)"), "{shown}");
    assert!(shown.contains("total of losses: $12,500"), "{shown}");
    assert!(shown.contains("Documents (1)"), "{shown}");
    assert!(
        shown.contains("1   a�[31mb�c�d�e�f�g�h  1980-05-01  TX"),
        "{shown}"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// File modes
// ---------------------------------------------------------------------------------------------------------------

fn mode(path: &Path) -> u32 {
    fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn lead_files_are_private_whatever_the_umask() {
    let dir = TempDir::new("modes");
    let database = dir.path().join("leads.db");
    let port = free_port();
    let server = Server::spawn(
        with_umask(&serve_command(&database, port, &[]), "022"),
        port,
        dir.path(),
        "modes",
    )
    .expect("the server starts");
    created(&post(&server, QUOTE, &quote("private-files-lead")));
    for suffix in ["", "-wal", "-shm"] {
        let file = PathBuf::from(format!("{}{suffix}", database.display()));
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }

    let export = dir.path().join("leads.csv");
    let backup = dir.path().join("backup.db");
    for args in [
        vec![
            "leads",
            "export",
            "--format",
            "csv",
            "--output",
            export.to_str().unwrap(),
        ],
        vec!["backup", backup.to_str().unwrap()],
    ] {
        let mut command = truckins(dir.path());
        command.arg("--database").arg(&database).args(&args);
        succeeded(&mut with_umask(&command, "022"));
    }
    assert_eq!(mode(&export), 0o600, "the export");
    assert_eq!(mode(&backup), 0o600, "the backup");
    assert!(
        fs::read_to_string(&export)
            .unwrap()
            .contains("private-files-lead")
    );
    let leftovers: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

// ---------------------------------------------------------------------------------------------------------------
// The too-fast check
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn an_elapsed_time_that_is_not_a_whole_number_counts_as_too_fast_and_is_kept_marked() {
    let (_dir, database, server) = server_with_ip_limit("elapsed", 1000);
    // Raw JSON texts, so numbers are sent exactly as written (1.0 and 1e3 stay what they are).
    let cases = [
        "-1",
        "1.0",
        "1e3",
        "\"abc\"",
        "\"+2000\"",
        "\"1500.5\"",
        "300",
        "-0",
    ];
    for (n, elapsed) in cases.iter().enumerate() {
        let mut body = quote(&format!("elapsed-case-{n:04}-spam"));
        body["elapsed_ms"] = json!("PLACEHOLDER");
        let text = body.to_string().replace("\"PLACEHOLDER\"", elapsed);
        let reply = post_text(&server, QUOTE, "application/json", &text);
        assert!(created(&reply) > 0, "elapsed_ms {elapsed}: kept");
    }
    let form = post_form(&server, QUOTE, &format!("{QUOTE_FORM}&elapsed_ms=-1"));
    assert_eq!(form.status, 303, "{}", form.text());
    let mut person = quote("elapsed-person-000001");
    person["elapsed_ms"] = json!(1500);
    assert!(created(&post(&server, QUOTE, &person)) > 0);
    let (all, marked): (i64, i64) = rusqlite::Connection::open(&database)
        .unwrap()
        .query_row("SELECT COUNT(*), SUM(suspected_spam) FROM leads", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(
        (all, marked),
        (cases.len() as i64 + 2, cases.len() as i64 + 1),
        "all kept, all but one marked"
    );
}
