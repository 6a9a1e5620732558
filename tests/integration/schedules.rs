//! The schedules of a quote's details (issue 39) through the real binary, with a test clock: vehicles, drivers and
//! losses sent as JSON rows or as CSV text (from a program, or the page without JavaScript posting its textareas),
//! each row held to its columns' rules with the error named by its row (`vehicle_schedule[1].vin`), a licence number
//! refused, the lists' limits kept, nothing of a refused post stored, and what was taken shown by `leads export`.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::forms::form_encode;
use crate::common::process::{Reply, Server, TempDir, succeeded, truckins};
use crate::notify::{post, quote};

const DETAILS: &str = "/api/leads/details";
/// Valid VINs (their ISO 3779 check digits computed), and the second with its check digit wrong.
const VIN_1: &str = "1M8GDM9AXKP042788";
const VIN_2: &str = "1FUJGLDR3CLBP8834";
const VIN_2_WRONG: &str = "1FUJGLDR4CLBP8834";

/// A server whose clock stands at noon on 2 March 2026 (UTC), on a leads file of its own folder.
fn serve(label: &str) -> (TempDir, std::path::PathBuf, Server) {
    let dir = TempDir::new(label);
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    std::fs::write(&clock, "2026-03-02T12:00:00Z").unwrap();
    let database_arg = database.to_str().unwrap().to_string();
    let server = Server::start_with_env(
        dir.path(),
        label,
        &["--database", &database_arg, "--ip-limit", "1000"],
        &[
            ("TRUCKINS_TEST_CLOCK", clock.to_str().unwrap()),
            ("TZ", "UTC"),
        ],
    );
    (dir, database, server)
}

/// A quote's details token.
fn token(server: &Server, submission: &str) -> String {
    let reply = post(
        server.port,
        "/api/leads/quote",
        &quote("fleet@example.com", submission),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["details_token"].as_str().unwrap().to_string()
}

/// The leads as `truckins leads export --format json` writes them.
fn exported(dir: &Path, database: &Path) -> Value {
    let output = succeeded(
        truckins(dir)
            .arg("--database")
            .arg(database)
            .args(["leads", "export", "--format", "json"]),
    );
    serde_json::from_slice(&output.stdout).expect("the export is JSON")
}

fn details(server: &Server, token: &str, lists: Value) -> Reply {
    let mut body = json!({ "details_token": token });
    for (name, list) in lists.as_object().unwrap() {
        body[name] = list.clone();
    }
    post(server.port, DETAILS, &body)
}

fn vehicles() -> Value {
    json!([
        { "year": 2021, "make": "Freightliner", "model": "Cascadia", "vin": VIN_1.to_lowercase(), "stated_value": "$85,000", "garaging_zip": "75201" },
        { "year": "2019", "make": "Kenworth", "vin": VIN_2, "stated_value": null },
    ])
}

fn drivers() -> Value {
    json!([{ "name": "Luis Ortiz", "date_of_birth": "1980-05-01", "license_state": "tx", "years_experience": 12, "violations_3y": 0, "accidents_3y": 1 }])
}

fn losses() -> Value {
    json!([
        { "date": "2024-03-15", "kind": "cargo", "amount": "$12,500", "description": "Load shifted" },
        { "date": "2021-07-01", "kind": "liability", "amount": 40000 },
    ])
}

/// The 422's errors, after checking the status.
fn refused(reply: &Reply) -> Value {
    assert_eq!(reply.status, 422, "{}", reply.text());
    reply.json()["errors"].clone()
}

#[test]
fn schedules_sent_as_rows_are_checked_row_by_row_and_exported() {
    let (dir, database, server) = serve("schedules-json");
    let token = token(&server, "schedules-json");
    let nothing_stored = || {
        let lead = &exported(dir.path(), &database)[0];
        for list in ["vehicle_schedule", "driver_schedule", "loss_history"] {
            assert!(lead[list].is_null(), "{list}: {lead}");
        }
    };

    // A wrong check digit in row 1: named by its row, and nothing of the post is stored.
    let mut wrong = vehicles();
    wrong[1]["vin"] = json!(VIN_2_WRONG);
    let errors = refused(&details(
        &server,
        &token,
        json!({ "vehicle_schedule": wrong, "driver_schedule": drivers() }),
    ));
    assert_eq!(
        errors,
        json!({ "vehicle_schedule[1].vin": "This VIN's check digit (the 9th character) does not match the others: please check each character" }),
        "only the wrong row's VIN"
    );
    nothing_stored();

    // A licence number is never taken.
    let mut with_license = drivers();
    with_license[0]["License_Number"] = json!("D1234567");
    let errors = refused(&details(
        &server,
        &token,
        json!({ "driver_schedule": with_license }),
    ));
    assert!(
        errors["driver_schedule[0].license_number"]
            .as_str()
            .unwrap()
            .contains("never take a license number"),
        "{errors}"
    );
    nothing_stored();

    // 51 vehicles; a loss eleven years ago and one tomorrow; a list that is a number.
    let many: Vec<Value> = (0..51).map(|_| vehicles()[0].clone()).collect();
    let errors = refused(&details(
        &server,
        &token,
        json!({ "vehicle_schedule": many }),
    ));
    assert_eq!(
        errors["vehicle_schedule"],
        "Please list at most 50 vehicles here: your specialist will take the rest"
    );
    for date in ["2015-03-02", "2026-03-03"] {
        let mut old = losses();
        old[1]["date"] = json!(date);
        let errors = refused(&details(&server, &token, json!({ "loss_history": old })));
        assert_eq!(
            errors,
            json!({ "loss_history[1].date": "The date of a loss must be within the last 10 years, and not in the future" }),
            "{date}"
        );
    }
    let errors = refused(&details(&server, &token, json!({ "loss_history": 3 })));
    assert_eq!(
        errors["loss_history"],
        "Please send a list of rows, or CSV text with a header line"
    );
    nothing_stored();

    // Two vehicles, a driver and two losses: taken, and exported as they were cleaned.
    let reply = details(
        &server,
        &token,
        json!({ "vehicle_schedule": vehicles(), "driver_schedule": drivers(), "loss_history": losses() }),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let lead = &exported(dir.path(), &database)[0];
    assert_eq!(lead["vehicle_schedule"][0]["vin"], VIN_1);
    assert_eq!(lead["vehicle_schedule"][0]["stated_value"], 85_000);
    assert_eq!(lead["vehicle_schedule"][1]["year"], 2019);
    assert_eq!(lead["vehicle_schedule"].as_array().unwrap().len(), 2);
    assert_eq!(
        lead["driver_schedule"],
        json!([{ "name": "Luis Ortiz", "date_of_birth": "1980-05-01", "license_state": "TX", "years_experience": 12, "violations_3y": 0, "accidents_3y": 1 }])
    );
    assert_eq!(lead["loss_history"][0]["amount"], 12_500);
    assert_eq!(lead["losses_total"], 52_500);
    // The CSV: each list as its JSON text, then the counts and the losses' total (no documents yet).
    let csv = String::from_utf8(
        succeeded(
            truckins(dir.path())
                .arg("--database")
                .arg(&database)
                .args(["leads", "export", "--format", "csv"]),
        )
        .stdout,
    )
    .unwrap();
    let header = csv.lines().next().unwrap_or_default();
    assert!(
        header.contains(",vehicles,drivers,losses,losses_total,documents,document_files,"),
        "{header}"
    );
    assert!(csv.contains(",2,1,2,52500,0,,"), "{csv}");
    assert!(csv.contains(VIN_1), "{csv}");

    // The same lists as CSV text from a program: they replace the rows; a bad row is named as in JSON.
    let vehicles_csv = format!(
        "year,make,model,vin,stated_value,garaging_zip\r\n2021,Freightliner,Cascadia,{VIN_1},\"$85,000\",75201\r\n2019,Kenworth,,{VIN_2},,\r\n"
    );
    let losses_csv =
        "Date,Kind,Amount,Description\n2024-03-15,cargo,\"$12,500\",\"Load shifted, tarp torn\"\n";
    let errors = refused(&details(
        &server,
        &token,
        json!({ "vehicle_schedule": vehicles_csv.replace(VIN_2, VIN_2_WRONG) }),
    ));
    assert!(errors["vehicle_schedule[1].vin"].is_string(), "{errors}");
    let license_csv =
        "name,date_of_birth,license_state,license_number\nLuis Ortiz,1980-05-01,TX,D1234567\n";
    let errors = refused(&details(
        &server,
        &token,
        json!({ "driver_schedule": license_csv }),
    ));
    assert!(
        errors["driver_schedule"]
            .as_str()
            .unwrap()
            .contains("never take a license number"),
        "{errors}"
    );
    let reply = details(
        &server,
        &token,
        json!({ "vehicle_schedule": vehicles_csv, "loss_history": losses_csv }),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let lead = &exported(dir.path(), &database)[0];
    assert_eq!(lead["vehicle_schedule"][1]["vin"], VIN_2);
    assert_eq!(
        lead["loss_history"],
        json!([{ "date": "2024-03-15", "kind": "cargo", "amount": 12500, "description": "Load shifted, tarp torn" }])
    );
    assert!(
        lead["driver_schedule"].is_null(),
        "details are replaced whole"
    );
    assert_eq!(lead["losses_total"], 12_500);
}

/// Posts `pairs` as the page without JavaScript does.
fn post_form(server: &Server, pairs: &[(&str, &str)]) -> Reply {
    post_body(
        server,
        "application/x-www-form-urlencoded",
        form_encode(pairs).as_bytes(),
    )
}

fn post_body(server: &Server, content_type: &str, body: &[u8]) -> Reply {
    server
        .http()
        .send(
            "POST",
            DETAILS,
            &[("Content-Type", content_type)],
            Some(body),
        )
        .expect("an answer")
}

#[test]
fn without_javascript_each_rows_errors_are_shown_beside_its_textarea() {
    let (dir, database, server) = serve("schedules-form");
    let token = token(&server, "schedules-form");
    let vehicles_csv =
        format!("year,make,vin\n2021,Mack,{VIN_1}\n2019,Kenworth <b>,{VIN_2_WRONG}\n");
    let reply = post_form(
        &server,
        &[
            ("details_token", &token),
            ("vehicle_schedule", &vehicles_csv),
        ],
    );
    assert_eq!(reply.status, 422);
    let page = reply.text();
    assert!(
        page.contains("Row 2, vin: This VIN&#x27;s check digit")
            || page.contains("Row 2, vin: This VIN&#39;s check digit"),
        "the row's error, numbered for people: {page}"
    );
    assert!(
        page.contains("aria-invalid=\"true\""),
        "the textarea is marked"
    );
    assert!(
        page.contains("2019,Kenworth &lt;b&gt;,"),
        "what was typed is kept, escaped"
    );
    assert!(!page.contains("TRUCKINS_"), "every marker filled");
    assert!(exported(dir.path(), &database)[0]["vehicle_schedule"].is_null());

    let reply = post_form(
        &server,
        &[
            ("details_token", &token),
            (
                "vehicle_schedule",
                &vehicles_csv.replace(VIN_2_WRONG, VIN_2),
            ),
        ],
    );
    assert_eq!(reply.status, 303, "{}", reply.text());
    assert_eq!(
        reply.header("location"),
        Some("/get-quote/details-received")
    );
    assert_eq!(
        exported(dir.path(), &database)[0]["vehicle_schedule"][1]["vin"],
        VIN_2
    );

    // Every list full, every cell at its longest, accented letters (nine bytes each once encoded): it fits.
    let make = "É".repeat(50);
    let vehicle_row = format!("2021,{make},{make},{VIN_1},\"$5,000,000\",75201-1234\n");
    let vehicles = format!(
        "year,make,model,vin,stated_value,garaging_zip\n{}",
        vehicle_row.repeat(50)
    );
    let driver_row = format!("{},1980-05-01,TX,70,99,99\n", "é".repeat(100));
    let drivers = format!(
        "name,date_of_birth,license_state,years_experience,violations_3y,accidents_3y\n{}",
        driver_row.repeat(50)
    );
    let loss_row = format!(
        "2024-03-15,physical_damage,\"$100,000,000\",{}\n",
        "ñ".repeat(199)
    );
    let losses = format!("date,kind,amount,description\n{}", loss_row.repeat(20));
    let full = [
        ("details_token", token.as_str()),
        ("vehicle_schedule", &vehicles),
        ("driver_schedule", &drivers),
        ("loss_history", &losses),
    ];
    assert!(
        form_encode(&full).len() > 64 * 1024,
        "more than the other forms take"
    );
    let reply = post_form(&server, &full);
    assert_eq!(reply.status, 303, "{}", reply.text());
    let lead = &exported(dir.path(), &database)[0];
    assert_eq!(lead["driver_schedule"].as_array().unwrap().len(), 50);
    assert_eq!(lead["losses_total"], 2_000_000_000i64);

    // Past the details' limit: 413, for a program and for a person.
    let huge = format!(
        "{{\"details_token\":\"{token}\",\"loss_history\":\"{}\"}}",
        "x".repeat(300 * 1024)
    );
    assert_eq!(
        post_body(&server, "application/json", huge.as_bytes()).status,
        413
    );
    let huge = form_encode(&[
        ("details_token", &token),
        ("loss_history", &"x".repeat(300 * 1024)),
    ]);
    assert_eq!(
        post_body(
            &server,
            "application/x-www-form-urlencoded",
            huge.as_bytes()
        )
        .status,
        413
    );
}
