//! The carrier census: `truckins carriers import` on a fixture in FMCSA's format (columns in another order, quoted
//! fields with commas and quotes, blank counts, bad rows reported by line), `GET /api/carriers/<dot>` (the API's
//! fields and never the census's phone, e-mail or street; 400, 404 with and without a census, 429), a second import
//! replacing the first while lookups keep answering (checked from inside the import, before its rename), and the
//! snapshot a quote keeps, in `leads list` and both exports.

use std::path::{Path, PathBuf};

use rocket::http::{ContentType, Status};
use rocket::local::blocking::Client;
use serde_json::{Value, json};
use truckins::carriers::import::{MAX_RECORD, import, import_with};
use truckins::store::{LeadFilter, list, open};

use crate::common;
use crate::common::forms::post_json;
use crate::common::process::{Server, TempDir, succeeded, truckins};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/census.csv");
/// CRLF line ends, blank lines, a quoted line break and a date with a non-ASCII byte.
const CRLF_FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/census_crlf.csv"
);

/// What the fixture's contact columns hold: none of it may be stored or answered.
const CONTACT_DETAILS: [&str; 6] = [
    "555-0101",
    "5550103",
    "lonestar.example",
    "dispatch@",
    "SECRET ST",
    "HIDDEN RD",
];

fn lone_star() -> Value {
    json!({
        "dot_number": 1234567,
        "legal_name": "LONE STAR HAULERS, LLC",
        "dba_name": "LSH",
        "city": "AUSTIN",
        "state": "TX",
        "power_units": 12,
        "drivers": 14,
        "operation": "interstate",
        "hazmat": false,
        "mcs150_date": "2024-01-15",
    })
}

/// The application on a fresh leads database; the census path is the default, `carriers.db` beside it.
fn app_with(label: &str, limit: usize) -> (Client, PathBuf) {
    let database = common::temp_database(label);
    let figment = common::figment(&database).merge(("carrier_lookup_limit", limit));
    (common::client_with(figment), database)
}

fn census_of(database: &Path) -> PathBuf {
    database.with_file_name("carriers.db")
}

fn lookup(client: &Client, dot: &str) -> (Status, Value) {
    let response = client.get(format!("/api/carriers/{dot}")).dispatch();
    let status = response.status();
    assert_eq!(response.content_type(), Some(ContentType::JSON), "{dot}");
    (status, response.into_json().unwrap_or(Value::Null))
}

/// A census CSV with the given data rows under FMCSA's header (a few columns), written into `dir`.
fn census_file(dir: &Path, name: &str, rows: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let mut text =
        String::from("DOT_NUMBER,LEGAL_NAME,PHY_CITY,PHY_STATE,NBR_POWER_UNIT,TELEPHONE\n");
    for row in rows {
        text.push_str(row);
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn lookups_answer_the_census_fields_and_never_contact_details() {
    let (client, database) = app_with("carrier-lookup", 100);
    let report = import(Path::new(FIXTURE), &census_of(&database), |_, _| {}).unwrap();
    assert_eq!((report.rows, report.carriers, report.malformed), (8, 4, 4));

    let (status, found) = lookup(&client, "1234567");
    assert_eq!(status, Status::Ok);
    assert_eq!(found, lone_star());
    // Quotes inside a quoted name, blank counts and an Oracle-style date.
    let (_, oneil) = lookup(&client, "07654321");
    assert_eq!(oneil["legal_name"], "O'NEIL \"BIG RIG\" TRANSPORT");
    assert_eq!(
        (&oneil["power_units"], &oneil["drivers"], &oneil["dba_name"]),
        (&Value::Null, &Value::Null, &Value::Null)
    );
    assert_eq!(oneil["operation"], "intrastate non-hazmat");
    assert_eq!(oneil["mcs150_date"], "2024-01-15");
    let (_, acme) = lookup(&client, "3333333");
    assert_eq!(acme["legal_name"], "ACME HAZMAT, INC.");
    assert_eq!(acme["dba_name"], "ACME \"HOT\" LOADS");
    assert_eq!(
        (&acme["operation"], &acme["hazmat"]),
        (&json!("intrastate hazmat"), &json!(true))
    );

    let fields = lone_star();
    let fields: Vec<&String> = fields.as_object().unwrap().keys().collect();
    for dot in ["1234567", "7654321", "3333333", "1111111"] {
        let (status, found) = lookup(&client, dot);
        assert_eq!(status, Status::Ok);
        let keys: Vec<&String> = found.as_object().unwrap().keys().collect();
        assert_eq!(keys, fields, "exactly the API's fields");
        for secret in CONTACT_DETAILS {
            assert!(!found.to_string().contains(secret), "{secret} in {found}");
        }
    }
    // Nor are they anywhere in the file.
    let bytes = std::fs::read(census_of(&database)).unwrap();
    for secret in CONTACT_DETAILS {
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{secret} is stored"
        );
    }

    // Rows that were malformed are not there; other numbers are unknown; malformed numbers are refused.
    for dot in ["2222222", "4444444", "5555555", "9999999"] {
        let (status, body) = lookup(&client, dot);
        assert_eq!(status, Status::NotFound, "{dot}");
        assert_eq!(body["message"], "No carrier has this DOT number.");
        assert!(body["error"].is_string());
        assert_eq!(body["census"], true, "a census is in place");
    }
    for dot in ["12a", "123456789", "0", "-1", "%20"] {
        assert_eq!(lookup(&client, dot).0, Status::BadRequest, "{dot}");
    }
}

#[test]
fn without_a_census_every_lookup_is_not_found() {
    let (client, database) = app_with("carrier-none", 100);
    assert!(!census_of(&database).exists());
    let (status, body) = lookup(&client, "1234567");
    assert_eq!(status, Status::NotFound);
    assert!(body["message"].is_string());
    assert_eq!(body["census"], false, "no census: the form stops asking");
}

#[test]
fn lookups_beyond_the_limit_answer_429() {
    let (client, _) = app_with("carrier-limit", 3);
    for _ in 0..3 {
        assert_eq!(lookup(&client, "1234567").0, Status::NotFound);
    }
    let (status, body) = lookup(&client, "1234567");
    assert_eq!(status, Status::TooManyRequests);
    assert_eq!(body["error"], "Too Many Attempts");
}

#[test]
fn a_second_import_replaces_the_first_and_lookups_answer_from_the_first_until_it_is_complete() {
    let (client, database) = app_with("carrier-swap", 1000);
    let dir = database.parent().unwrap();
    let census = census_of(&database);
    let first = census_file(
        dir,
        "first.csv",
        &["1234567,FIRST NAME LLC,AUSTIN,TX,3,555-0000"],
    );
    import(&first, &census, |_, _| {}).unwrap();
    assert_eq!(lookup(&client, "1234567").1["legal_name"], "FIRST NAME LLC");

    // Enough rows for progress to be reported during the import as well as at its end (before the swap).
    let mut rows: Vec<String> = (1..=40_000)
        .map(|n| format!("{},CARRIER {n},WACO,TX,{},", n + 2_000_000, n % 50))
        .collect();
    rows.push("1234567,SECOND NAME LLC,DALLAS,TX,4,".into());
    rows.push("bad,row".into());
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let second = census_file(dir, "second.csv", &rows);
    let mut seen_during = Vec::new();
    let report = import(&second, &census, |read, _| {
        // Every lookup made while the import runs answers from the first census, completely.
        let (status, body) = lookup(&client, "1234567");
        seen_during.push((read, status, body["legal_name"].clone()));
        assert_eq!(lookup(&client, "2000001").0, Status::NotFound);
    })
    .unwrap();
    assert!(seen_during.len() >= 3, "{seen_during:?}");
    for (read, status, name) in &seen_during {
        assert_eq!(
            (*status, name.as_str()),
            (Status::Ok, Some("FIRST NAME LLC")),
            "after {read} rows"
        );
    }
    assert_eq!(
        seen_during.last().unwrap().0,
        40_002,
        "the last report comes after every row"
    );
    assert_eq!((report.carriers, report.malformed), (40_001, 1));
    assert_eq!(
        report.malformed_lines[0].0, 40_003,
        "line numbers count the header"
    );

    // Once it returns, the second census answers.
    let (status, body) = lookup(&client, "1234567");
    assert_eq!(
        (status, body["legal_name"].as_str()),
        (Status::Ok, Some("SECOND NAME LLC"))
    );
    assert_eq!(lookup(&client, "2000001").1["legal_name"], "CARRIER 1");
    // No work file is left beside the census.
    assert_no_work_file(dir);
}

/// No import's work file (`…importing…`) is left in `dir`.
fn assert_no_work_file(dir: &Path) {
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.contains("importing"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_failed_import_keeps_the_census_in_place() {
    let (client, database) = app_with("carrier-failed", 100);
    let dir = database.parent().unwrap();
    let census = census_of(&database);
    import(Path::new(FIXTURE), &census, |_, _| {}).unwrap();
    let no_dot = dir.join("wrong.csv");
    std::fs::write(&no_dot, "NAME,CITY\nX,Y\n").unwrap();
    let error = import(&no_dot, &census, |_, _| {}).unwrap_err();
    assert!(error.contains("no DOT_NUMBER column"), "{error}");
    let all_bad = census_file(dir, "bad.csv", &["x,NAME,A,TX,1,", "1,,A,TX,1,"]);
    let error = import(&all_bad, &census, |_, _| {}).unwrap_err();
    assert!(error.contains("the census in place is kept"), "{error}");
    assert_eq!(lookup(&client, "1234567").1, lone_star());
}

#[test]
fn a_quote_keeps_the_carrier_as_the_census_had_it_at_submission() {
    let (client, database) = app_with("carrier-snapshot", 100);
    let census = census_of(&database);
    let quote_answered = |dot: &str, email: &str, answer: Option<&str>| {
        let mut body = json!({
            "name": "Dana O'Neil", "email": email, "company": "Lone Star", "insurance_type": "dump",
            "vehicle_count": 3, "dot_number": dot, "consent": true,
        });
        if let Some(answer) = answer {
            body["carrier_answer"] = answer.into();
        }
        let (status, answer) = post_json(&client, "/api/leads/quote", &body);
        assert_eq!(status, Status::Created, "{answer}");
    };
    let quote = |dot: &str, email: &str| quote_answered(dot, email, None);
    // No census: the lead is stored, without a snapshot.
    quote("1234567", "before@example.com");
    import(Path::new(FIXTURE), &census, |_, _| {}).unwrap();
    quote("1234567", "matched@example.com");
    quote("9999999", "unknown@example.com");
    // "Is this your company?" answered No: the census's carrier is not theirs, and no snapshot says it was.
    quote_answered("1234567", "declined@example.com", Some("no"));
    quote_answered("1234567", "accepted@example.com", Some("yes"));
    quote_answered("1234567", "unanswered@example.com", Some("unanswered"));
    // A later census changes the carrier; the lead keeps what it matched.
    let renamed = census_file(
        database.parent().unwrap(),
        "renamed.csv",
        &["1234567,RENAMED LLC,WACO,TX,1,"],
    );
    // Forced: one carrier where there were four.
    import_with(&renamed, &census, true, |_, _| {}).unwrap();

    let snapshots = stored_snapshots(&database);
    let snapshot = |email: &str| snapshots.get(email).cloned().flatten();
    assert_eq!(snapshot("before@example.com"), None);
    assert_eq!(snapshot("matched@example.com"), Some(lone_star()));
    assert_eq!(snapshot("unknown@example.com"), None);
    assert_eq!(snapshot("declined@example.com"), None);
    assert_eq!(snapshot("accepted@example.com"), Some(lone_star()));
    assert_eq!(snapshot("unanswered@example.com"), Some(lone_star()));

    // A snapshot column another program filled with an INTEGER or a BLOB reads as no snapshot; text that is not
    // JSON reads as a string and is exported printable.
    let connection = rusqlite::Connection::open(&database).unwrap();
    for (email, value) in [
        ("before@example.com", rusqlite::types::Value::Integer(7)),
        (
            "unknown@example.com",
            rusqlite::types::Value::Blob(vec![0, 1, 2]),
        ),
        (
            "declined@example.com",
            rusqlite::types::Value::Text("not json \u{1b}[31m\u{202E}".into()),
        ),
    ] {
        connection
            .execute(
                "UPDATE leads SET carrier_snapshot = ?1 WHERE email = ?2",
                rusqlite::params![value, email],
            )
            .unwrap();
    }
    drop(connection);
    let leads = list(&open(&database, 1).unwrap(), &LeadFilter::default()).unwrap();
    let snapshots = stored_snapshots(&database);
    let snapshot = |email: &str| snapshots.get(email).cloned().flatten();
    assert_eq!(snapshot("before@example.com"), None);
    assert_eq!(snapshot("unknown@example.com"), None);
    assert_eq!(
        snapshot("declined@example.com"),
        Some(json!("not json \u{1b}[31m\u{202E}"))
    );
    let mut csv = Vec::new();
    truckins::leads::export::write_csv(&leads, &[], &[], &mut csv).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert!(!csv.contains(['\u{1b}', '\u{202E}']), "{csv}");
    assert!(csv.contains("not json"), "{csv}");
}

#[test]
fn the_cli_imports_reports_bad_lines_and_the_running_server_answers_from_the_new_census() {
    let dir = TempDir::new("carriers-cli");
    let database = dir.path().join("leads.db");
    let database_arg = database.to_str().unwrap();
    let server = Server::start(dir.path(), "serve", &["--database", database_arg]);
    let mut http = server.http();
    assert_eq!(http.get("/api/carriers/1234567", &[]).unwrap().status, 404);

    let output = truckins(dir.path())
        .args(["carriers", "import", FIXTURE, "--database", database_arg])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("imported 4 carriers from 8 rows"),
        "{stdout}"
    );
    assert!(stdout.contains("4 malformed rows skipped"), "{stdout}");
    for (line, reason) in [
        (4, "DOT_NUMBER \"ABC\""),
        (5, "4 fields where the header has 22"),
        (7, "LEGAL_NAME is empty"),
        (8, "NBR_POWER_UNIT \"many\""),
    ] {
        assert!(
            stderr.contains(&format!("line {line}: skipped, {reason}")),
            "{line}: {stderr}"
        );
    }

    // The server, started before the import, answers from it without a restart.
    let reply = http.get("/api/carriers/1234567", &[]).unwrap();
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json(), lone_star());

    // A quote keeps the snapshot; `leads list` and both exports show it.
    let quote = json!({
        "name": "Dana O'Neil", "email": "dana@example.com", "insurance_type": "dump", "vehicle_count": 3,
        "dot_number": "1234567", "consent": true,
    });
    assert_eq!(
        http.post_json("/api/leads/quote", &quote).unwrap().status,
        201
    );
    let run = |args: &[&str]| {
        let output = succeeded(
            truckins(dir.path())
                .args(args)
                .args(["--database", database_arg]),
        );
        String::from_utf8(output.stdout).unwrap()
    };
    let table = run(&["leads", "list"]);
    assert!(
        table.contains("LONE STAR HAULERS, LLC (DOT 1234567)"),
        "{table}"
    );
    let exported: Value =
        serde_json::from_str(&run(&["leads", "export", "--format", "json"])).unwrap();
    assert_eq!(exported[0]["carrier_snapshot"], lone_star());
    let csv = run(&["leads", "export", "--format", "csv"]);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let column = headers
        .iter()
        .position(|h| h == "carrier_snapshot")
        .expect("a carrier_snapshot column");
    let row = reader.records().next().unwrap().unwrap();
    let cell: Value = serde_json::from_str(&row[column]).unwrap();
    assert_eq!(cell, lone_star());
}

#[test]
fn a_broken_census_never_costs_a_lead() {
    let (client, database) = app_with("carrier-broken", 100);
    std::fs::write(
        census_of(&database),
        b"this is not a SQLite database, whatever its name",
    )
    .unwrap();
    let (status, body) = lookup(&client, "1234567");
    assert_eq!(status, Status::ServiceUnavailable);
    assert!(body["message"].is_string());
    let body = json!({
        "name": "Dana O'Neil", "email": "broken@example.com", "insurance_type": "dump", "vehicle_count": 3,
        "dot_number": "1234567", "consent": true,
    });
    let response = client
        .post("/api/leads/quote")
        .header(ContentType::JSON)
        .body(body.to_string())
        .dispatch();
    assert_eq!(response.status(), Status::Created);
    let pool = open(&database, 1).unwrap();
    let leads = list(&pool, &LeadFilter::default()).unwrap();
    assert_eq!(leads.len(), 1);
    assert!(leads[0].carrier_snapshot.is_none());
}

#[test]
fn a_crlf_census_reports_the_lines_a_text_editor_shows() {
    let (client, database) = app_with("carrier-crlf", 100);
    let report = import(Path::new(CRLF_FIXTURE), &census_of(&database), |_, _| {}).unwrap();
    assert_eq!((report.rows, report.carriers, report.malformed), (6, 3, 3));
    assert_eq!(
        report
            .malformed_lines
            .iter()
            .map(|(line, reason)| (*line, reason.split(' ').next().unwrap_or_default()))
            .collect::<Vec<_>>(),
        [(4, "DOT_NUMBER"), (9, "2"), (10, "NBR_POWER_UNIT")],
        "{:?}",
        report.malformed_lines
    );
    let (status, first) = lookup(&client, "1000001");
    assert_eq!(status, Status::Ok);
    assert_eq!(first["legal_name"], "CRLF ONE, LLC");
    assert_eq!(first["mcs150_date"], "2024-01-15");
    // The last field kept no `\r`; the bad date (`2023-11-0é`) is dropped and the row kept.
    let (_, quoted) = lookup(&client, "1000002");
    assert_eq!(quoted["legal_name"], "QUOTED NAME");
    assert_eq!(quoted["power_units"], 2);
    assert_eq!(quoted["mcs150_date"], Value::Null);
    assert_eq!(lookup(&client, "1000005").1["legal_name"], "FINE");
}

#[test]
fn an_unclosed_quote_stops_the_import_at_its_line_and_keeps_the_census() {
    let (client, database) = app_with("carrier-unclosed", 100);
    let dir = database.parent().unwrap();
    let census = census_of(&database);
    import(Path::new(FIXTURE), &census, |_, _| {}).unwrap();
    let mut rows = vec![
        "9000001,FIRST,AUSTIN,TX,1,".to_string(),
        "9000002,\"UNCLOSED,AUSTIN,TX,1,".into(),
    ];
    let filler = (0..MAX_RECORD / 20).map(|n| format!("{},FILLER,AUSTIN,TX,1,", 9_100_000 + n));
    rows.extend(filler);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let unclosed = census_file(dir, "unclosed.csv", &rows);
    let error = import_with(&unclosed, &census, true, |_, _| {}).unwrap_err();
    assert!(error.starts_with("line 3: malformed"), "{error}");
    assert!(error.contains("the census in place is kept"), "{error}");
    assert_eq!(lookup(&client, "1234567").1, lone_star());
    assert_eq!(lookup(&client, "9000001").0, Status::NotFound);
    assert_no_work_file(dir);
}

#[test]
fn quotes_inside_unquoted_fields_are_characters_and_never_stop_an_import() {
    let (client, database) = app_with("carrier-inch", 100);
    let dir = database.parent().unwrap();
    let mut rows = vec![
        "9000001,12\" PIPE HAULERS,AUSTIN,TX,1,".to_string(),
        "9000002,\"QUOTED \"\"NAME\"\"\",AUSTIN,TX,1,".into(),
    ];
    rows.extend((0..MAX_RECORD / 20).map(|n| format!("{},FILLER,AUSTIN,TX,1,", 9_100_000 + n)));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let inch = census_file(dir, "inch.csv", &rows);
    let report = import(&inch, &census_of(&database), |_, _| {}).unwrap();
    assert_eq!(report.malformed, 0, "{:?}", report.malformed_lines);
    assert_eq!(
        lookup(&client, "9000001").1["legal_name"],
        "12\" PIPE HAULERS"
    );
    assert_eq!(
        lookup(&client, "9000002").1["legal_name"],
        "QUOTED \"NAME\""
    );
}

#[test]
fn a_census_with_less_than_half_the_carriers_replaces_the_one_in_place_only_when_forced() {
    let (client, database) = app_with("carrier-shrunk", 100);
    let dir = database.parent().unwrap();
    let census = census_of(&database);
    import(Path::new(FIXTURE), &census, |_, _| {}).unwrap();
    let one = census_file(dir, "one.csv", &["42,ONLY ONE,AUSTIN,TX,1,"]);
    let error = import(&one, &census, |_, _| {}).unwrap_err();
    assert!(
        error.contains("1 carriers, fewer than half the 4 of the one in place"),
        "{error}"
    );
    assert!(error.contains("--force"), "{error}");
    assert_eq!(lookup(&client, "1234567").1, lone_star());
    let two = census_file(
        dir,
        "two.csv",
        &["42,ONE,AUSTIN,TX,1,", "43,TWO,AUSTIN,TX,1,"],
    );
    import(&two, &census, |_, _| {}).unwrap();
    assert_eq!(lookup(&client, "43").1["legal_name"], "TWO");
    import_with(&one, &census, true, |_, _| {}).unwrap();
    assert_eq!(lookup(&client, "42").1["legal_name"], "ONLY ONE");
    assert_eq!(lookup(&client, "43").0, Status::NotFound);
}

#[test]
fn a_carriers_import_never_replaces_a_file_that_is_not_a_census() {
    let dir = TempDir::new("carriers-not-census");
    let database = dir.path().join("leads.db");
    let database_arg = database.to_str().unwrap();
    // The leads database, with its tables.
    drop(open(&database, 1).unwrap());
    let text = dir.path().join("notes.db");
    std::fs::write(
        &text,
        "not SQLite at all, and long enough to look like a file header........",
    )
    .unwrap();
    for (target, why) in [
        (database_arg, "is not a carriers census"),
        (text.to_str().unwrap(), "is not an SQLite database"),
    ] {
        let output = truckins(dir.path())
            .args(["carriers", "import", FIXTURE, "--database", database_arg])
            .args(["--carriers-database", target])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{target}: {stderr}");
        assert!(
            stderr.contains(why) && stderr.contains("--force"),
            "{target}: {stderr}"
        );
    }
    // The leads database is still one, not a census.
    let pool = open(&database, 1).unwrap();
    assert!(list(&pool, &LeadFilter::default()).unwrap().is_empty());
    drop(pool);
    // The same path through the configuration is refused at loading, for every command.
    let output = truckins(dir.path())
        .args(["carriers", "import", FIXTURE, "--database", database_arg])
        .env("ROCKET_CARRIERS_DATABASE", database_arg)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("carriers_database is the leads database"),
        "{stderr}"
    );
    // --force replaces what is not a census.
    succeeded(
        truckins(dir.path())
            .args([
                "carriers",
                "import",
                FIXTURE,
                "--database",
                database_arg,
                "--force",
            ])
            .args(["--carriers-database", text.to_str().unwrap()]),
    );
}

/// Each lead's carrier snapshot as the store reads it back, by the lead's e-mail.
fn stored_snapshots(
    database: &std::path::Path,
) -> std::collections::HashMap<String, Option<serde_json::Value>> {
    let pool = open(database, 1).unwrap();
    list(&pool, &LeadFilter::default())
        .unwrap()
        .into_iter()
        .map(|lead| (lead.email, lead.carrier_snapshot.map(|s| s.0)))
        .collect()
}
