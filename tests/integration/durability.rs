//! The real `truckins` binary as a process, the way the agency runs it.
//!
//! - A SIGKILL in the middle of a flood of quote submissions loses no acknowledged lead: every submission answered
//!   201 `{"id":N}` is in the SQLite file exactly once under the id the server gave, the file passes
//!   `PRAGMA integrity_check`, and the binary restarted on it serves and takes new leads (and still answers a
//!   repeated submission with its first id).
//! - The `leads` commands: the CSV export has the header and one row per lead with every typed field, neutralises
//!   spreadsheet formulas, the JSON export holds the same leads, `--status`, `--since` and `--output` work,
//!   `leads status` moves a lead, `leads list` prints a table, and bad arguments, a missing database or a file that
//!   is not a database end with a non-zero exit and a one-line error, never a panic.
//!
//! The HTTP client is hand-written on `std::net::TcpStream` (keep-alive HTTP/1.1), and the server only ever
//! listens on a free loopback port picked by the test. Every child process is killed and reaped by a guard.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::process::{Http, Server, TempDir, USER_AGENT, truckins as command};
use serde_json::{Value, json};
use truckins::store;

/// `truckins serve` on `database` (in its directory), as the tests here run it.
fn serve(database: &Path, label: &str) -> Server {
    Server::start(
        database.parent().unwrap(),
        label,
        &[
            "--database",
            database.to_str().unwrap(),
            "--ip-limit",
            "1000000",
        ],
    )
}

/// A valid quote request body.
fn quote_body(submission_id: &str) -> String {
    let mut body = crate::common::valid_quote();
    body["submission_id"] = submission_id.into();
    body.to_string()
}

/// Posts a quote and returns the id of a 201, panicking on anything else.
fn post_lead(port: u16, path: &str, body: &Value) -> i64 {
    let mut connection = Http::connect(port).expect("connect");
    let reply = connection
        .send(
            "POST",
            path,
            &[
                ("Accept", "application/json"),
                ("Content-Type", "application/json"),
            ],
            Some(body.to_string().as_bytes()),
        )
        .expect("an answer");
    assert_eq!(
        reply.status,
        201,
        "{path} {body}: {}",
        String::from_utf8_lossy(&reply.body)
    );
    let id = reply.json_or_null()["id"]
        .as_i64()
        .expect("a 201 body {\"id\": N}");
    assert!(id > 0, "a stored lead has a positive id, got {id}");
    id
}

// ---------------------------------------------------------------------------------------------------------------
// SIGKILL in the middle of a flood
// ---------------------------------------------------------------------------------------------------------------

/// What one flooding client saw.
#[derive(Default)]
struct FloodReport {
    /// (submission_id, id) of every 201.
    acknowledged: Vec<(String, i64)>,
    /// Answers other than 201, by status.
    other: HashMap<u16, usize>,
    /// Requests fully written before the kill that never got a complete answer.
    cut_off: usize,
}

fn flood(
    port: u16,
    client: usize,
    acknowledged: &AtomicUsize,
    killed: &AtomicBool,
    killed_at: &OnceLock<Instant>,
) -> FloodReport {
    let mut report = FloodReport::default();
    let give_up = Instant::now() + Duration::from_secs(120);
    let mut connection = Http::connect(port).ok();
    let mut n = 0usize;
    while Instant::now() < give_up {
        let Some(open) = connection.as_mut() else {
            if killed.load(Ordering::SeqCst) {
                break;
            }
            thread::sleep(Duration::from_millis(5));
            connection = Http::connect(port).ok();
            continue;
        };
        n += 1;
        let submission_id = format!("flood-{client:04}-{n:08}");
        let body = quote_body(&submission_id);
        let request = format!(
            "POST /api/leads/quote HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nUser-Agent: {USER_AGENT}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            open.port(),
            body.len()
        );
        if open.write_raw(request.as_bytes()).is_err() {
            connection = None;
            continue;
        }
        let written = Instant::now();
        match open.read_reply() {
            Ok(reply) if reply.status == 201 => {
                let id = reply.json_or_null()["id"].as_i64().unwrap_or_else(|| {
                    panic!(
                        "a 201 without an id: {}",
                        String::from_utf8_lossy(&reply.body)
                    )
                });
                report.acknowledged.push((submission_id, id));
                acknowledged.fetch_add(1, Ordering::SeqCst);
            }
            Ok(reply) => *report.other.entry(reply.status).or_default() += 1,
            Err(_) => {
                // Written before the kill and never answered: it was in flight when the server died.
                // (`killed_at` is set before the kill, so it is known whenever the kill caused this error.)
                if killed_at.get().is_some_and(|killed| written < *killed) {
                    report.cut_off += 1;
                }
                connection = None;
            }
        }
    }
    report
}

#[test]
fn sigkill_mid_flood_loses_no_acknowledged_lead() {
    const CLIENTS: usize = 8;
    let dir = TempDir::new("flood");
    let database = dir.path().join("leads.db");
    let mut server = serve(&database, "serve");
    let port = server.port;

    let acknowledged = Arc::new(AtomicUsize::new(0));
    let killed = Arc::new(AtomicBool::new(false));
    let killed_at = Arc::new(OnceLock::new());
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let (acknowledged, killed, killed_at) =
                (acknowledged.clone(), killed.clone(), killed_at.clone());
            thread::spawn(move || flood(port, client, &acknowledged, &killed, &killed_at))
        })
        .collect();

    let started = Instant::now();
    while started.elapsed() < Duration::from_millis(1500)
        && acknowledged.load(Ordering::SeqCst) < 1500
    {
        thread::sleep(Duration::from_millis(2));
    }
    let acknowledged_before_kill = acknowledged.load(Ordering::SeqCst);
    killed_at.set(Instant::now()).unwrap();
    server.kill();
    killed.store(true, Ordering::SeqCst);
    let flooded_for = started.elapsed();

    let reports: Vec<FloodReport> = clients
        .into_iter()
        .map(|client| client.join().expect("a flooding client panicked"))
        .collect();
    let acked: Vec<(String, i64)> = reports
        .iter()
        .flat_map(|r| r.acknowledged.iter().cloned())
        .collect();
    let cut_off: usize = reports.iter().map(|r| r.cut_off).sum();
    let mut other: HashMap<u16, usize> = HashMap::new();
    for report in &reports {
        for (status, count) in &report.other {
            *other.entry(*status).or_default() += count;
        }
    }

    // The file as the dead server left it (its WAL included), read by SQLite itself.
    let connection = rusqlite::Connection::open(&database).expect("the database opens");
    let check: String = connection
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .expect("integrity_check runs");
    assert_eq!(check, "ok", "PRAGMA integrity_check");
    let mut stored: HashMap<String, Vec<i64>> = HashMap::new();
    {
        let mut statement = connection
            .prepare("SELECT submission_id, id FROM leads")
            .unwrap();
        let rows = statement
            .query_map([], |row| {
                Ok((row.get::<_, Option<String>>(0)?, row.get::<_, i64>(1)?))
            })
            .unwrap();
        for row in rows {
            let (submission, id) = row.unwrap();
            let submission = submission.expect("every flooded lead has a submission_id");
            stored.entry(submission).or_default().push(id);
        }
    }
    let stored_count: usize = stored.values().map(Vec::len).sum();
    drop(connection);

    println!(
        "flood: {CLIENTS} clients for {flooded_for:?}; acknowledged {} ({acknowledged_before_kill} before the kill), \
         stored {stored_count}, cut off by the kill {cut_off}, other answers {other:?}",
        acked.len()
    );

    assert!(
        !acked.is_empty(),
        "no submission was acknowledged before the kill"
    );
    assert!(
        cut_off > 0,
        "the kill should land while requests are in flight"
    );
    assert!(other.is_empty(), "answers other than 201: {other:?}");
    let mut ids: Vec<i64> = acked.iter().map(|(_, id)| *id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(
        ids.len(),
        acked.len(),
        "two submissions were acknowledged with the same id"
    );
    let lost: Vec<String> = acked
        .iter()
        .filter(|(submission, id)| stored.get(submission) != Some(&vec![*id]))
        .map(|(submission, id)| {
            format!("{submission} -> {id}: stored {:?}", stored.get(submission))
        })
        .collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged leads are missing or stored differently, e.g. {:?}",
        lost.len(),
        acked.len(),
        &lost[..lost.len().min(10)]
    );
    assert!(
        stored.keys().all(|s| s.starts_with("flood-")),
        "only flooded leads are stored"
    );

    // The binary restarts on the same file, serves, takes a new lead and remembers the old ones.
    let server = serve(&database, "restart");
    let max_id = *ids.last().unwrap();
    let new_id = post_lead(
        server.port,
        "/api/leads/quote",
        &serde_json::from_str(&quote_body("after-restart-000001")).unwrap(),
    );
    assert!(
        !stored.values().flatten().any(|id| *id == new_id) && new_id > max_id,
        "the new lead got a fresh id ({new_id})"
    );
    let (old_submission, old_id) = &acked[acked.len() / 2];
    let again = post_lead(
        server.port,
        "/api/leads/quote",
        &serde_json::from_str(&quote_body(old_submission)).unwrap(),
    );
    assert_eq!(
        again, *old_id,
        "a repeated submission is answered with its first id after the restart"
    );
    drop(server);

    let connection = rusqlite::Connection::open(&database).unwrap();
    let total: i64 = connection
        .query_row("SELECT COUNT(*) FROM leads", [], |row| row.get(0))
        .unwrap();
    assert_eq!(
        total,
        stored_count as i64 + 1,
        "the restart added exactly one lead"
    );
    println!("after restart: {total} leads stored (new lead id {new_id})");
}

// ---------------------------------------------------------------------------------------------------------------
// The `leads` commands
// ---------------------------------------------------------------------------------------------------------------

/// Runs `truckins --database <database> <args>` and returns what it did.
fn truckins(database: &Path, args: &[&str]) -> Output {
    let dir = database
        .parent()
        .filter(|p| p.is_dir())
        .map(Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir);
    command(&dir)
        .arg("--database")
        .arg(database)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs a command that must succeed and returns its standard output.
fn ok(database: &Path, args: &[&str]) -> String {
    let output = truckins(database, args);
    assert!(
        output.status.success(),
        "truckins {args:?} failed ({}): {}",
        output.status,
        stderr(&output)
    );
    assert!(!stderr(&output).contains("panicked"));
    stdout(&output)
}

/// An RFC 4180 CSV text as rows of cells (quoted cells may hold commas, quotes and line breaks).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    assert!(
        text.is_empty() || text.ends_with("\r\n"),
        "CSV rows end with CRLF"
    );
    let (mut rows, mut row, mut cell) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => quoted = false,
                _ => cell.push(c),
            }
        } else {
            match c {
                '"' => {
                    assert!(cell.is_empty(), "a quote inside an unquoted cell: {cell:?}");
                    quoted = true;
                }
                ',' => row.push(std::mem::take(&mut cell)),
                '\r' if chars.peek() == Some(&'\n') => {
                    chars.next();
                    row.push(std::mem::take(&mut cell));
                    rows.push(std::mem::take(&mut row));
                }
                _ => cell.push(c),
            }
        }
    }
    assert!(
        !quoted && cell.is_empty() && row.is_empty(),
        "CSV ends mid-row"
    );
    rows
}

/// The export as a list of column -> cell maps, checking the header.
fn csv_leads(text: &str) -> Vec<HashMap<String, String>> {
    let rows = parse_csv(text);
    let header = rows.first().expect("a header row");
    let expected = truckins::leads::export::csv_columns();
    assert_eq!(header, &expected, "the CSV header");
    rows[1..]
        .iter()
        .map(|row| {
            assert_eq!(row.len(), header.len(), "a row has every column: {row:?}");
            header.iter().cloned().zip(row.iter().cloned()).collect()
        })
        .collect()
}

fn csv_ids(text: &str) -> Vec<i64> {
    csv_leads(text)
        .iter()
        .map(|lead| lead["id"].parse().unwrap())
        .collect()
}

fn json_ids(text: &str) -> Vec<i64> {
    let value: Value = serde_json::from_str(text).expect("the JSON export parses");
    value
        .as_array()
        .expect("the JSON export is an array")
        .iter()
        .map(|lead| lead["id"].as_i64().expect("every lead has an id"))
        .collect()
}

/// A lead as the store API takes it.
pub(crate) fn stored_lead(name: &str, email: &str) -> store::Lead {
    store::Lead {
        source: truckins::store::Source::Quote,
        status: truckins::store::Status::New,
        created_at: store::now(),
        name: name.into(),
        email: email.into(),
        insurance_type: Some("cargo".into()),
        vehicle_count: Some(2),
        ..store::Lead::default()
    }
}

pub(crate) fn insert(pool: &store::DbPool, lead: &store::Lead) -> i64 {
    match store::insert(pool, lead).expect("the lead is stored") {
        store::Stored::New(id) => id,
        repeat => panic!("{repeat:?}"),
    }
}

#[test]
fn csv_and_json_exports_hold_every_typed_field_of_leads_posted_to_the_server() {
    let dir = TempDir::new("export");
    let database = dir.path().join("leads.db");
    let server = serve(&database, "serve");
    let quote_a = json!({
        "name": "Dana O'Neil-Smith",
        "email": "  Dana@Example.COM ",
        "phone": "(555) 210-0142",
        "company": "Lone Star Haulers, LLC",
        "insurance_type": "dump",
        "vehicle_count": "3",
        "dot_number": "1234567",
        "consent": true,
        "submission_id": "export-lead-aaaa-1",
        "page_url": "https://example.com/get-quote",
        "utm_source": "google",
        "utm_medium": "cpc",
        "utm_campaign": "spring",
        "utm_term": "dump truck insurance",
        "utm_content": "ad-1",
        "gclid": "abc123",
        "referrer": "https://www.google.com/",
        "landing_page": "https://example.com/dump-truck-insurance",
    });
    let quote_b = json!({
        "name": "José Núñez",
        "email": "jose@example.com",
        "company": "Big \"Rig\" Co",
        "insurance_type": "hotshot",
        "vehicle_count": 12,
        "consent": "yes",
        "submission_id": "export-lead-bbbb-2",
    });
    let contact_c = json!({
        "name": "Lee Park",
        "email": "lee@example.com",
        "subject": "Question about cargo",
        "message": "Hello,\nwhat does cargo cover?\r\nThanks",
    });
    let a = post_lead(server.port, "/api/leads/quote", &quote_a);
    let b = post_lead(server.port, "/api/leads/quote", &quote_b);
    let c = post_lead(server.port, "/api/leads/contact", &contact_c);
    drop(server);

    let csv = ok(&database, &["leads", "export", "--format", "csv"]);
    let leads = csv_leads(&csv);
    assert_eq!(
        leads
            .iter()
            .map(|l| l["id"].parse::<i64>().unwrap())
            .collect::<Vec<_>>(),
        vec![c, b, a],
        "one row per lead, newest first"
    );
    let (row_c, row_b, row_a) = (&leads[0], &leads[1], &leads[2]);
    let expect = |row: &HashMap<String, String>, pairs: &[(&str, &str)]| {
        for (column, value) in pairs {
            assert_eq!(
                row[*column], *value,
                "column {column} of lead {}",
                row["id"]
            );
        }
    };
    expect(
        row_a,
        &[
            ("source", "quote"),
            ("status", "new"),
            ("name", "Dana O'Neil-Smith"),
            ("email", "dana@example.com"),
            // Stored as +1 and ten digits, written as people write it: nothing a spreadsheet evaluates.
            ("phone", "(555) 210-0142"),
            ("company", "Lone Star Haulers, LLC"),
            ("insurance_type", "dump"),
            ("vehicle_count", "3"),
            ("dot_number", "1234567"),
            ("subject", ""),
            ("message", ""),
            ("consent_given", "true"),
            ("ip", "127.0.0.1"),
            ("user_agent", USER_AGENT),
            ("page_url", "https://example.com/get-quote"),
            ("utm_source", "google"),
            ("utm_medium", "cpc"),
            ("utm_campaign", "spring"),
            ("utm_term", "dump truck insurance"),
            ("utm_content", "ad-1"),
            ("gclid", "abc123"),
            ("referrer", "https://www.google.com/"),
            ("landing_page", "https://example.com/dump-truck-insurance"),
            ("submission_id", "export-lead-aaaa-1"),
        ],
    );
    assert_eq!(
        row_a["consent_text"],
        crate::common::consent_text().trim(),
        "the consent text shown is stored"
    );
    assert_eq!(
        row_a["consent_version"],
        crate::common::consent_version().trim()
    );
    assert!(row_a["created_at"].starts_with("20") && row_a["created_at"].ends_with('Z'));
    assert_eq!(row_a["consent_at"], row_a["created_at"]);
    expect(
        row_b,
        &[
            ("source", "quote"),
            ("name", "José Núñez"),
            ("email", "jose@example.com"),
            ("phone", ""),
            ("company", "Big \"Rig\" Co"),
            ("insurance_type", "hotshot"),
            ("vehicle_count", "12"),
            ("dot_number", ""),
            ("consent_given", "true"),
            ("utm_source", ""),
            ("submission_id", "export-lead-bbbb-2"),
        ],
    );
    expect(
        row_c,
        &[
            ("source", "contact"),
            ("status", "new"),
            ("name", "Lee Park"),
            ("email", "lee@example.com"),
            ("subject", "Question about cargo"),
            ("message", "Hello,\nwhat does cargo cover?\nThanks"),
            ("consent_given", "false"),
            ("consent_text", ""),
            ("vehicle_count", ""),
            ("submission_id", ""),
        ],
    );

    let json = ok(&database, &["leads", "export", "--format", "json"]);
    assert_eq!(
        json_ids(&json),
        vec![c, b, a],
        "the JSON export has the same leads"
    );
    let value: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value[2]["name"], "Dana O'Neil-Smith");
    assert_eq!(value[2]["phone"], "+15552100142");
    assert_eq!(value[2]["vehicle_count"], 3);
    assert_eq!(value[2]["consent_given"], true);
    assert_eq!(value[1]["company"], "Big \"Rig\" Co");
    assert_eq!(value[1]["phone"], Value::Null);
    assert_eq!(
        value[0]["message"],
        "Hello,\nwhat does cargo cover?\nThanks"
    );
}

#[test]
fn csv_export_neutralises_spreadsheet_formulas() {
    let dir = TempDir::new("formula");
    let database = dir.path().join("leads.db");
    let pool = store::open(&database, 1).expect("the store opens");
    let hostile = store::Lead {
        company: Some("=HYPERLINK(\"http://evil.example\",\"click\")".into()),
        phone: Some("+1 555 210 0142".into()),
        dot_number: Some("-2+3".into()),
        subject: Some("@SUM(A1:A9)".into()),
        utm_source: Some("=1+1".into()),
        ..stored_lead("=cmd|' /C calc'!A0", "@evil.example")
    };
    let id = insert(&pool, &hostile);
    let plain = insert(&pool, &stored_lead("Dana", "dana@example.com"));
    drop(pool);

    let csv = ok(&database, &["leads", "export", "--format", "csv"]);
    let leads = csv_leads(&csv);
    assert_eq!(csv_ids(&csv), vec![plain, id]);
    let row = &leads[1];
    for (column, value) in [
        ("name", "=cmd|' /C calc'!A0"),
        ("email", "@evil.example"),
        ("company", "=HYPERLINK(\"http://evil.example\",\"click\")"),
        ("phone", "+1 555 210 0142"),
        ("dot_number", "-2+3"),
        ("subject", "@SUM(A1:A9)"),
        ("utm_source", "=1+1"),
    ] {
        assert_eq!(
            row[column],
            format!("'{value}"),
            "column {column} is neutralised"
        );
    }
    assert_eq!(leads[0]["name"], "Dana", "ordinary cells are left alone");
    // No cell of the file, header included, begins with a formula character.
    for cell in parse_csv(&csv).iter().flatten() {
        assert!(
            !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
            "a formula cell: {cell:?}"
        );
    }
    // JSON is not opened in spreadsheets: it keeps the values as stored.
    let json: Value =
        serde_json::from_str(&ok(&database, &["leads", "export", "--format", "json"])).unwrap();
    assert_eq!(json[1]["name"], "=cmd|' /C calc'!A0");
}

#[test]
fn status_since_output_and_list_commands() {
    let dir = TempDir::new("commands");
    let database = dir.path().join("leads.db");
    let pool = store::open(&database, 1).expect("the store opens");
    let first = insert(&pool, &stored_lead("Avery Stone", "avery@example.com"));
    let second = insert(&pool, &stored_lead("Blake Rivers", "blake@example.com"));
    let third = insert(&pool, &stored_lead("Casey Moore", "casey@example.com"));
    let today = store::now()[..10].to_string();
    drop(pool);

    let moved = ok(&database, &["leads", "status", &second.to_string(), "won"]);
    assert_eq!(moved.trim(), format!("lead {second} is now won (was new)"));
    let won = ok(
        &database,
        &["leads", "export", "--format", "csv", "--status", "won"],
    );
    assert_eq!(csv_ids(&won), vec![second], "only the won lead");
    assert_eq!(csv_leads(&won)[0]["status"], "won");
    let won = ok(
        &database,
        &["leads", "export", "--format", "json", "--status", "won"],
    );
    assert_eq!(json_ids(&won), vec![second]);
    let lost = ok(
        &database,
        &["leads", "export", "--format", "csv", "--status", "lost"],
    );
    assert!(csv_ids(&lost).is_empty());

    let future = ok(
        &database,
        &[
            "leads",
            "export",
            "--format",
            "csv",
            "--since",
            "2999-01-01",
        ],
    );
    assert_eq!(parse_csv(&future).len(), 1, "only the header: {future:?}");
    let future = ok(
        &database,
        &[
            "leads",
            "export",
            "--format",
            "json",
            "--since",
            "2999-01-01",
        ],
    );
    assert!(json_ids(&future).is_empty());
    let recent = ok(
        &database,
        &["leads", "export", "--format", "csv", "--since", &today],
    );
    assert_eq!(csv_ids(&recent), vec![third, second, first]);

    let file = dir.path().join("export.csv");
    let output = truckins(
        &database,
        &[
            "leads",
            "export",
            "--format",
            "csv",
            "--output",
            file.to_str().unwrap(),
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        output.stdout.is_empty(),
        "nothing on standard output with --output"
    );
    assert!(
        stderr(&output).starts_with("wrote 3 leads to "),
        "{}",
        stderr(&output)
    );
    let written = std::fs::read_to_string(&file).expect("the export file is written");
    assert_eq!(csv_ids(&written), vec![third, second, first]);
    assert_eq!(
        written,
        ok(&database, &["leads", "export", "--format", "csv"])
    );
    let file = dir.path().join("export.json");
    ok(
        &database,
        &[
            "leads",
            "export",
            "--format",
            "json",
            "--output",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(
        json_ids(&std::fs::read_to_string(&file).unwrap()),
        vec![third, second, first]
    );

    let table = ok(&database, &["leads", "list"]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 4, "a header and three leads:\n{table}");
    assert!(lines[0].contains("id") && lines[0].contains("name") && lines[0].contains("email"));
    for (line, (id, name)) in lines[1..].iter().zip([
        (third, "Casey Moore"),
        (second, "Blake Rivers"),
        (first, "Avery Stone"),
    ]) {
        assert!(line.trim_start().starts_with(&id.to_string()), "{line}");
        assert!(line.contains(name), "{line}");
    }
    assert!(lines[2].contains("won"));
    let table = ok(&database, &["leads", "list", "--status", "won"]);
    assert!(
        table.contains("Blake Rivers") && !table.contains("Avery Stone"),
        "{table}"
    );
    let table = ok(&database, &["leads", "list", "--status", "lost"]);
    assert!(table.contains("(no leads)"), "{table}");

    let output = truckins(&database, &["leads", "status", "99999", "won"]);
    assert!(!output.status.success());
    assert_eq!(stderr(&output).trim(), "truckins: no lead has id 99999");
}

/// A failed command: non-zero exit, nothing on standard output, no panic, and its error on one line (clap may add
/// the accepted values and a `--help` tip on the lines after it). Returns the error line.
fn assert_fails_cleanly(output: &Output, what: &str) -> String {
    let err = stderr(output);
    assert!(!output.status.success(), "{what} succeeded");
    assert!(output.status.code().is_some(), "{what} died of a signal");
    assert!(!err.contains("panicked"), "{what} panicked: {err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{what}: {err}");
    assert!(output.stdout.is_empty(), "{what} wrote to standard output");
    let errors: Vec<&str> = err
        .lines()
        .filter(|line| line.starts_with("error") || line.starts_with("truckins:"))
        .collect();
    assert_eq!(errors.len(), 1, "{what}: one error line, got {err:?}");
    assert!(
        err.starts_with(errors[0]),
        "{what}: the error comes first: {err:?}"
    );
    errors[0].to_string()
}

#[test]
fn bad_arguments_fail_with_a_one_line_error_and_no_panic() {
    let dir = TempDir::new("arguments");
    let database = dir.path().join("leads.db");
    let pool = store::open(&database, 1).unwrap();
    let id = insert(&pool, &stored_lead("Dana", "dana@example.com"));
    drop(pool);
    for (args, names) in [
        (&["leads", "export", "--format", "xml"][..], "'xml'"),
        (&["leads", "status", "abc", "new"][..], "'abc'"),
        (
            &["leads", "status", &id.to_string(), "maybe"][..],
            "'maybe'",
        ),
        (
            &["leads", "export", "--format", "csv", "--since", "yesterday"][..],
            "yesterday",
        ),
        (
            &[
                "leads",
                "export",
                "--format",
                "csv",
                "--since",
                "2026-13-45",
            ][..],
            "2026-13-45",
        ),
        (&["leads", "list", "--limit", "-1"][..], "-1"),
        (&["leads", "export"][..], "--format"),
        (&["leads", "frobnicate"][..], "frobnicate"),
    ] {
        let output = truckins(&database, args);
        let line = assert_fails_cleanly(&output, &format!("{args:?}"));
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: usage errors exit 2"
        );
        assert!(line.starts_with("truckins: "), "{args:?}: {line}");
        assert_eq!(
            stderr(&output).trim_end().lines().count(),
            1,
            "{args:?}: one line: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(names),
            "{args:?}: the error names {names}: {line}"
        );
    }
    // Nothing was changed by the refused commands.
    let json = ok(&database, &["leads", "export", "--format", "json"]);
    let value: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value[0]["status"], "new");
}

#[test]
fn a_missing_database_is_reported_on_one_line() {
    let output = truckins(Path::new("/nonexistent/x.db"), &["leads", "list"]);
    let line = assert_fails_cleanly(&output, "leads list on /nonexistent/x.db");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stderr(&output).lines().count(), 1);
    assert!(
        line.contains("no leads database at /nonexistent/x.db"),
        "{line}"
    );
    assert!(!Path::new("/nonexistent").exists(), "nothing was created");
    for args in [
        &["leads", "export", "--format", "csv"][..],
        &["leads", "status", "1", "won"][..],
    ] {
        let output = truckins(Path::new("/nonexistent/x.db"), args);
        let line = assert_fails_cleanly(&output, &format!("{args:?}"));
        assert!(line.contains("no leads database"), "{line}");
    }
}

/// Files that exist but are no SQLite database: random bytes, a cut-off SQLite header, a directory.
fn not_databases(dir: &Path) -> Vec<(PathBuf, Option<Vec<u8>>)> {
    let mut random = Vec::with_capacity(4096);
    let mut state = 0x9E37_79B9_7F4A_7C15_u64 ^ u64::from(std::process::id());
    while random.len() < 4096 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        random.extend_from_slice(&state.to_le_bytes());
    }
    let garbage = dir.join("garbage.db");
    std::fs::write(&garbage, &random).unwrap();
    let cut = dir.join("cut.db");
    let mut header = b"SQLite format 3\0".to_vec();
    header.extend_from_slice(&random[..200]);
    std::fs::write(&cut, &header).unwrap();
    let directory = dir.join("a-directory.db");
    std::fs::create_dir(&directory).unwrap();
    vec![
        (garbage, Some(random)),
        (cut, Some(header)),
        (directory, None),
    ]
}

#[test]
fn a_file_that_is_not_a_database_fails_without_a_panic() {
    let dir = TempDir::new("garbage");
    for (path, content) in not_databases(dir.path()) {
        let output = truckins(&path, &["leads", "list"]);
        let line = assert_fails_cleanly(&output, &format!("leads list on {}", path.display()));
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(stderr(&output).lines().count(), 1, "{}", stderr(&output));
        assert!(
            line.starts_with(&format!("truckins: cannot open {}", path.display())),
            "the message names the file: {line}"
        );
        if let Some(content) = content {
            assert_eq!(
                std::fs::read(&path).unwrap(),
                content,
                "the file was left as it was"
            );
        }
    }
}

#[test]
fn a_file_that_is_not_a_database_is_reported_as_such() {
    let dir = TempDir::new("garbage-message");
    for (path, _) in not_databases(dir.path()) {
        let started = Instant::now();
        let output = truckins(&path, &["leads", "list"]);
        let elapsed = started.elapsed();
        let err = stderr(&output);
        assert!(!output.status.success());
        assert!(
            !err.contains("busy"),
            "{}: blamed on a busy database: {err}",
            path.display()
        );
        if path.is_file() {
            assert!(
                err.contains("not a database"),
                "{}: the message says what is wrong: {err}",
                path.display()
            );
        }
        assert!(
            elapsed < Duration::from_secs(3),
            "{}: took {elapsed:?} to give up",
            path.display()
        );
    }
}
