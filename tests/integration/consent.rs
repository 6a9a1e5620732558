//! Consent taken back and privacy requests (issue 25), through the real binary, a real SQLite file, the real SMTP
//! server and webhook receiver of the notification tests, and the CLI:
//!
//! - an opt-out on the site flags the matching lead `do_not_contact` in `leads list` and both exports, reaches the
//!   agency by e-mail and signed webhook, withholds every later confirmation to that address, and answers the same
//!   whether the number was known or not; a later quote with fresh consent shows the earlier opt-out as history;
//! - bad input gets a clear error (an empty form, a malformed phone, a wrong type, 10,000 opt-outs from one address);
//! - `truckins optout add|list`; `truckins leads forget` leaves none of the person's bytes in the database file or its
//!   WAL; the retention period erases old leads at the server's start and once a day (settable clock);
//!   `truckins leads proof` of an older lead holds its consent's evidence and every opt-out since.

use std::path::Path;

use rocket::http::Status;
use serde_json::{Value, json};

use crate::common::forms::{post_form, post_json};
use crate::common::process::{TempDir, free_port};
use crate::notify::support::{Smtp, SmtpOptions, deliveries, part, wait_for_delivery, wait_until};
use crate::notify::{agency, cli, env, lead, plain_smtp, post, quote, serve, verify};

/// The rows of `leads export --format json`.
fn export_json(dir: &Path, database: &Path) -> Vec<Value> {
    json_rows(dir, database, &["leads", "export", "--format", "json"])
}

/// The rows a command prints as a JSON array.
fn json_rows(dir: &Path, database: &Path, args: &[&str]) -> Vec<Value> {
    let (ok, text) = cli(dir, database, args, &[]);
    assert!(ok, "{text}");
    serde_json::from_str::<Value>(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}"))
        .as_array()
        .unwrap()
        .clone()
}

fn lead_in(rows: &[Value], id: i64) -> Value {
    rows.iter()
        .find(|row| row["id"] == id)
        .unwrap_or_else(|| panic!("lead {id} in {rows:?}"))
        .clone()
}

/// `optout list --format json`.
fn opt_outs(dir: &Path, database: &Path) -> Vec<Value> {
    json_rows(dir, database, &["optout", "list", "--format", "json"])
}

#[test]
fn an_opt_out_on_the_site_flags_the_lead_tells_the_agency_and_withholds_confirmations() {
    let site = agency(
        "consent-web",
        "serve",
        &["--ip-limit", "1000", "--autoreply"],
    );

    // A quote, confirmed to the visitor as usual.
    let first = lead(site.server.port, "maria@lopez.example", "consent-1");
    wait_for_delivery(&site.database, first, "autoreply", "sent", |d| {
        d.state == "sent"
    });
    let mails_before = site.smtp.wait_for_mails(2).len();
    let hooks_before = site.receiver.wait_for(1).len();

    // The opt-out: the same answer as for a number nobody gave, and nothing about a record.
    let opt_out = json!({
        "phone": "555.210.0142",
        "email": "  Maria@Lopez.example ",
        "note": "Please stop calling",
        "page_url": "https://www.example.com/opt-out",
    });
    let known = post(site.server.port, "/api/opt-out", &opt_out);
    let unknown = post(
        site.server.port,
        "/api/opt-out",
        &json!({ "phone": "(214) 555-0199" }),
    );
    assert_eq!(known.status, 201, "{}", known.text());
    assert_eq!(
        (unknown.status, unknown.text()),
        (known.status, known.text())
    );
    assert_eq!(known.json(), json!({ "received": true }));

    // Stored normalised, with its evidence.
    let stored = opt_outs(site.dir.path(), &site.database);
    assert_eq!(stored.len(), 2, "{stored:?}");
    let revocation = &stored[0];
    assert_eq!(revocation["email"], "maria@lopez.example");
    assert_eq!(revocation["phone"], "+15552100142");
    assert_eq!(revocation["channel"], "web");
    assert_eq!(revocation["ip"], "127.0.0.1");
    assert_eq!(revocation["page_url"], "https://www.example.com/opt-out");
    assert_eq!(revocation["note"], "Please stop calling");
    let revoked_at = revocation["created_at"].as_str().unwrap().to_string();

    // The agency hears of it by e-mail and by the signed webhook.
    let mails = site.smtp.wait_for_mails(mails_before + 2);
    let news = mails
        .iter()
        .find(|mail| {
            mail["headers"]["subject"] == "Opt-out: (555) 210-0142, maria@lopez.example by web form"
        })
        .unwrap_or_else(|| panic!("the opt-out e-mail in {mails:?}"));
    assert_eq!(
        news["rcpt_tos"],
        json!(["owner@agency.example", "desk@agency.example"])
    );
    let text = part(news, "text/plain");
    assert!(text.contains(&format!("#{first} quote")), "{text}");
    assert!(text.contains("10 business days"), "{text}");
    assert!(
        mails
            .iter()
            .any(|mail| mail["headers"]["subject"] == "Opt-out: (214) 555-0199 by web form")
    );
    let hooks = site.receiver.wait_for(hooks_before + 2);
    let hook = hooks
        .iter()
        .find(|hook| hook.json()["opt_out"]["phone"] == "+15552100142")
        .expect("the opt-out's webhook");
    verify(hook);
    let body = hook.json();
    assert_eq!(body["event"], "opt_out");
    assert_eq!(body["leads"][0]["id"], first);
    assert_eq!(hook.header("X-Truckins-Delivery"), body["delivery"]);

    // The lead is do-not-contact, in the list and both exports.
    let row = lead_in(&export_json(site.dir.path(), &site.database), first);
    assert_eq!(row["do_not_contact"], revoked_at.as_str());
    assert_eq!(row["opted_out_before"], Value::Null);
    let (ok, csv) = cli(
        site.dir.path(),
        &site.database,
        &["leads", "export", "--format", "csv"],
        &[],
    );
    assert!(ok, "{csv}");
    let header = csv.lines().next().unwrap();
    assert!(
        header.ends_with(",do_not_contact,opted_out_before"),
        "{header}"
    );
    assert!(csv.contains(&format!(",{revoked_at},")), "{csv}");
    let (ok, list) = cli(site.dir.path(), &site.database, &["leads", "list"], &[]);
    assert!(ok && list.contains("DO NOT CONTACT (opted out"), "{list}");

    // A message from that address afterwards is not confirmed to it: the confirmation is withheld, never sent.
    let contact = post(
        site.server.port,
        "/api/leads/contact",
        &json!({
            "name": "Maria Lopez",
            "email": "maria@lopez.example",
            "subject": "About my policy",
            "message": "Please send the documents by mail.",
        }),
    );
    assert_eq!(contact.status, 201, "{}", contact.text());
    let message = contact.json()["id"].as_i64().unwrap();
    let withheld = deliveries(&site.database)
        .into_iter()
        .find(|d| d.lead_id == message && d.channel == "autoreply");
    // Within 24 h of the first, the per-address limit already holds the confirmation back; the withholding is shown
    // with a lead whose confirmation was queued, below.
    assert!(withheld.is_none(), "{withheld:?}");

    // A new quote with fresh consent after the opt-out is new consent; the export keeps the history.
    let fresh = lead(site.server.port, "maria@lopez.example", "consent-2");
    let row = lead_in(&export_json(site.dir.path(), &site.database), fresh);
    assert_eq!(row["do_not_contact"], Value::Null);
    assert_eq!(row["opted_out_before"], revoked_at.as_str());
    let row = lead_in(&export_json(site.dir.path(), &site.database), first);
    assert_eq!(row["do_not_contact"], revoked_at.as_str());
    // The agency's e-mail and webhook about the new quote say so too.
    let history = format!("History: this phone number or e-mail address opted out on {revoked_at}");
    wait_until("the new quote's e-mail with its history", || {
        site.smtp
            .mails()
            .iter()
            .any(|mail| {
                mail["parts"].as_array().is_some_and(|parts| {
                    parts
                        .iter()
                        .any(|p| p["content"].as_str().is_some_and(|c| c.contains(&history)))
                })
            })
            .then_some(())
    });
    let hook = wait_until("the new quote's webhook", || {
        site.receiver
            .received()
            .into_iter()
            .find(|hook| hook.json()["lead"]["id"] == fresh)
    });
    assert_eq!(hook.json()["lead"]["opted_out_before"], revoked_at.as_str());
    assert_eq!(hook.json()["lead"]["do_not_contact"], Value::Null);
}

#[test]
fn a_confirmation_queued_before_an_opt_out_is_withheld() {
    let dir = TempDir::new("consent-withheld");
    let database = dir.path().join("leads.db");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    // The relay refuses for now: the confirmation waits in the outbox.
    smtp.answer("rcpt", "451 4.3.0 Try again later", -1);
    let env = env(Some(&plain_smtp(smtp.port)), None);
    let server = serve(
        &database,
        "serve",
        &env,
        &["--ip-limit", "1000", "--autoreply"],
    );
    let id = lead(server.port, "ana@ortiz.example", "withheld-1");
    wait_for_delivery(&database, id, "autoreply", "tried", |d| d.attempts > 0);
    let (ok, text) = cli(
        dir.path(),
        &database,
        &[
            "optout",
            "add",
            "--email",
            "Ana@Ortiz.example",
            "--via",
            "email",
        ],
        &env,
    );
    assert!(ok, "{text}");
    assert!(
        text.contains("1 leads with it are now do_not_contact"),
        "{text}"
    );
    smtp.accept();
    let withheld = wait_for_delivery(&database, id, "autoreply", "withheld", |d| {
        d.state == "withheld"
    });
    assert!(
        withheld
            .last_error
            .as_deref()
            .unwrap_or("")
            .contains("opted out"),
        "{withheld:?}"
    );
    // The agency's e-mails (the lead's, the opt-out's) went; nothing went to the visitor.
    wait_for_delivery(&database, id, "email", "sent", |d| d.state == "sent");
    let mails = smtp.wait_for_mails(2);
    assert!(
        mails
            .iter()
            .all(|mail| mail["rcpt_tos"] != json!(["ana@ortiz.example"])),
        "{mails:?}"
    );
    assert!(
        mails
            .iter()
            .any(|mail| mail["headers"]["subject"] == "Opt-out: ana@ortiz.example by e-mail")
    );
    drop(server);
}

#[test]
fn the_opt_out_form_refuses_what_it_cannot_take_with_clear_errors() {
    let database = crate::common::temp_database("opt-out-errors");
    let client =
        crate::common::client_with(crate::common::figment(&database).merge(("ip_limit", 5)));
    let one_of_them = contract::forms::optout::ONE_OF_THEM;
    let (status, body) = post_json(&client, "/api/opt-out", &json!({}));
    assert_eq!(status, Status::UnprocessableEntity);
    assert_eq!(
        body["errors"],
        json!({ "phone": one_of_them, "email": one_of_them })
    );
    let (status, body) = post_json(&client, "/api/opt-out", &json!({ "phone": "555-01" }));
    assert_eq!(status, Status::UnprocessableEntity);
    assert_eq!(
        body["errors"],
        json!({ "phone": "Please enter a valid US phone number" })
    );
    let (status, body) = post_json(
        &client,
        "/api/opt-out",
        &json!({ "email": "not an address", "note": "x".repeat(501) }),
    );
    assert_eq!(status, Status::UnprocessableEntity);
    assert_eq!(
        body["errors"],
        json!({
            "email": "Please enter a valid email address",
            "note": "Note must be less than 500 characters",
        })
    );
    let (status, body) = post_json(&client, "/api/opt-out", &json!({ "phone": ["a"] }));
    assert_eq!(status, Status::BadRequest, "{body}");
    let (status, body) = post_json(
        &client,
        "/api/opt-out",
        &json!({ "email": "maria@lopez.example", "locale": "es", "phone": "12" }),
    );
    assert_eq!(status, Status::UnprocessableEntity);
    assert_eq!(
        body["errors"]["phone"],
        "Escriba un número de teléfono válido de EE. UU."
    );

    // Without JavaScript: the form again with the error, or the page that says what happens next.
    let (status, _, page) = post_form(&client, "/api/opt-out", &[("note", "")]);
    assert_eq!(status, Status::UnprocessableEntity);
    assert!(page.contains(one_of_them), "{page}");
    let (status, location, _) = post_form(&client, "/api/opt-out", &[("phone", "(214) 555-0199")]);
    assert_eq!(
        (status, location.as_deref()),
        (Status::SeeOther, Some("/opt-out/received"))
    );
    let (status, location, _) = post_form(
        &client,
        "/api/opt-out",
        &[("email", "ana@ortiz.example"), ("locale", "es")],
    );
    assert_eq!(
        (status, location.as_deref()),
        (Status::SeeOther, Some("/es/opt-out/received"))
    );
    // The honeypot: answered as a success, stored nowhere.
    let (status, body) = post_json(
        &client,
        "/api/opt-out",
        &json!({ "phone": "(214) 555-0100", "website": "http://spam.example" }),
    );
    assert_eq!(
        (status, body),
        (Status::Created, json!({ "received": true }))
    );

    // A flood from one address: the limit's worth stored, every other one refused with the form's sentence.
    let mut refused = 0;
    for n in 0..10_000 {
        let (status, body) = post_json(
            &client,
            "/api/opt-out",
            &json!({ "phone": format!("(214) 555-{:04}", n % 10_000) }),
        );
        match status {
            Status::Created => {}
            Status::TooManyRequests => {
                refused += 1;
                assert_eq!(
                    body["message"],
                    "Please wait 10 minutes before sending another opt-out request, or call us.",
                    "{body}"
                );
            }
            other => panic!("opt-out {n}: {other} {body}"),
        }
    }
    let connection = rusqlite::Connection::open(&database).unwrap();
    let stored: i64 = connection
        .query_row("SELECT COUNT(*) FROM revocations", [], |row| row.get(0))
        .unwrap();
    // Two earlier plain-form opt-outs took two of the five slots.
    assert_eq!(stored, 5, "revocations stored");
    assert_eq!(refused, 10_000 - 3);
}

#[test]
fn optout_add_and_list_record_what_came_by_phone_text_email_or_letter() {
    let dir = TempDir::new("consent-cli");
    let database = dir.path().join("leads.db");
    let mut server = serve(&database, "serve", &[], &[]);
    server.terminate();
    let run = |args: &[&str]| cli(dir.path(), &database, args, &[]);
    let (ok, text) = run(&["optout", "add", "--via", "phone"]);
    assert!(
        !ok && text.contains("give --phone, --email or both"),
        "{text}"
    );
    let (ok, text) = run(&["optout", "add", "--phone", "12345", "--via", "text"]);
    assert!(
        !ok && text.contains("Please enter a valid US phone number"),
        "{text}"
    );
    let (ok, text) = run(&["optout", "add", "--phone", "2145550199", "--via", "web"]);
    assert!(
        !ok && text.contains("web"),
        "only the site records web opt-outs: {text}"
    );
    let (ok, text) = run(&[
        "optout",
        "add",
        "--phone",
        "+1 214 555 0199",
        "--via",
        "text",
        "--note",
        "=HYPERLINK(\"x\")",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("(214) 555-0199 by text message"), "{text}");
    assert!(text.contains("no lead has this phone number"), "{text}");
    let stored = opt_outs(dir.path(), &database);
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0]["channel"], "text");
    assert_eq!(stored[0]["phone"], "+12145550199");
    assert_eq!(stored[0]["ip"], Value::Null);
    let (ok, csv) = run(&["optout", "list", "--format", "csv"]);
    assert!(ok, "{csv}");
    assert!(
        csv.contains("(214) 555-0199") && csv.contains("'=HYPERLINK"),
        "{csv}"
    );
    let (ok, table) = run(&["optout", "list", "--since", "2000-01-01"]);
    assert!(
        ok && table.contains("text") && table.contains("(214) 555-0199"),
        "{table}"
    );
}

/// Whether any of the database's files holds `needle` (as bytes, in any case).
pub(crate) fn files_holding(database: &Path, needle: &str) -> Vec<String> {
    let needle = needle.to_lowercase();
    let mut found = Vec::new();
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let path = format!("{}{suffix}", database.display());
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let lower: Vec<u8> = bytes.to_ascii_lowercase();
        if lower
            .windows(needle.len())
            .any(|window| window == needle.as_bytes())
        {
            found.push(path);
        }
    }
    found
}

#[test]
fn forget_erases_a_person_from_the_database_files_and_keeps_a_record_of_the_request() {
    let dir = TempDir::new("consent-forget");
    let database = dir.path().join("leads.db");
    let server = serve(
        &database,
        "serve",
        &[("TRUCKINS_ANALYTICS", "false".to_string())],
        &[],
    );
    let mut zelda = quote("zelda.quixote@forget.example", "forget-1");
    zelda["name"] = json!("Zelda Quixote");
    zelda["phone"] = json!("(555) 867-5309");
    zelda["company"] = json!("Quixote Windmill Freight");
    zelda["dot_number"] = json!("7654321");
    zelda["page_url"] = json!("https://www.example.com/get-quote?ref=zelda-quixote");
    let reply = post(server.port, "/api/leads/quote", &zelda);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_i64().unwrap();
    let message = post(
        server.port,
        "/api/leads/contact",
        &json!({
            "name": "Zelda Quixote",
            "email": "ZELDA.QUIXOTE@forget.example",
            "subject": "Windmill cargo",
            "message": "Call me at 555 867 5309 about the windmills.",
        }),
    );
    assert_eq!(message.status, 201);
    // A claim (issue 28): its own fields, in `request`, go too.
    let claim = post(
        server.port,
        "/api/leads/claim",
        &json!({
            "name": "Zelda Quixote",
            "email": "zelda.quixote@forget.example",
            "phone": "(555) 867-5309",
            "loss_date": "2026-01-05",
            "loss_time": "10:00",
            "loss_city": "La Mancha",
            "loss_state": "TX",
            "what_happened": "A windmill blade fell on the trailer.",
        }),
    );
    assert_eq!(claim.status, 201, "{}", claim.text());
    let other = lead(server.port, "someone@else.example", "forget-2");
    assert_eq!(
        post(
            server.port,
            "/api/opt-out",
            &json!({ "email": "zelda.quixote@forget.example" })
        )
        .status,
        201
    );
    let traces = ["zelda", "quixote", "867-5309", "8675309", "windmill"];
    assert!(
        !files_holding(&database, "zelda").is_empty(),
        "the lead is in the files at first"
    );

    let forget = |extra: &[&str]| {
        let mut args = vec!["leads", "forget", "--email", "Zelda.Quixote@forget.example"];
        args.extend_from_slice(extra);
        cli(dir.path(), &database, &args, &[])
    };
    let (ok, text) = forget(&["--dry-run"]);
    assert!(ok, "{text}");
    assert!(
        text.contains("would erase 3 leads") && text.contains("and 1 opt-outs"),
        "{text}"
    );
    assert!(
        !files_holding(&database, "zelda").is_empty(),
        "a dry run changes nothing"
    );

    let (ok, text) = forget(&[]);
    assert!(ok, "{text}");
    assert!(text.contains("erased 3 leads"), "{text}");
    assert!(text.contains("no longer hold it"), "{text}");
    for trace in traces {
        assert_eq!(
            files_holding(&database, trace),
            Vec::<String>::new(),
            "{trace:?} left"
        );
    }

    // What is not personal stays; the other lead is untouched.
    let rows = export_json(dir.path(), &database);
    let erased = lead_in(&rows, id);
    assert_eq!(erased["name"], "");
    assert_eq!(erased["email"], "");
    assert_eq!(erased["phone"], Value::Null);
    assert_eq!(erased["company"], Value::Null);
    assert_eq!(erased["ip"], Value::Null);
    assert_eq!(erased["user_agent"], Value::Null);
    assert_eq!(erased["dot_number"], Value::Null);
    assert_eq!(erased["insurance_type"], "hotshot");
    assert_eq!(erased["status"], "new");
    assert_eq!(erased["utm_source"], "google");
    assert_eq!(erased["utm_campaign"], "hotshot-fall");
    assert_eq!(erased["page_url"], "https://www.example.com");
    assert!(erased["erased_at"].is_string(), "{erased}");
    assert_eq!(lead_in(&rows, other)["email"], "someone@else.example");
    let stored = opt_outs(dir.path(), &database);
    assert_eq!(stored[0]["email"], Value::Null);
    assert!(stored[0]["erased_at"].is_string());

    // The request is recognised when it comes again, without the identifier kept.
    let (ok, text) = forget(&[]);
    assert!(ok, "{text}");
    assert!(
        text.contains("erased 0 leads") && text.contains("forgotten before"),
        "{text}"
    );
    let connection = rusqlite::Connection::open(&database).unwrap();
    let (requests, hash): (i64, String) = connection
        .query_row(
            "SELECT COUNT(*), MIN(identifier_hash) FROM privacy_requests WHERE reason = 'request'",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!(requests, 2);
    assert_eq!(hash.len(), 64);
    let (ok, text) = cli(
        dir.path(),
        &database,
        &["leads", "forget", "--phone", "12"],
        &[],
    );
    assert!(!ok && text.contains("valid US phone number"), "{text}");
    drop(server);
}

fn write_clock(file: &Path, time: &str) {
    let temporary = file.with_extension("next");
    std::fs::write(&temporary, time).unwrap();
    std::fs::rename(&temporary, file).unwrap();
}

#[test]
fn the_retention_period_erases_old_leads_at_start_and_once_a_day() {
    let dir = TempDir::new("consent-retention");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    write_clock(&clock, "2020-01-01T12:00:00Z");
    let env = vec![("TRUCKINS_TEST_CLOCK", clock.display().to_string())];
    let mut server = serve(&database, "serve", &env, &[]);
    let old = lead(server.port, "old@lead.example", "retention-1");
    write_clock(&clock, "2023-06-01T12:00:00Z");
    let newer = lead(server.port, "newer@lead.example", "retention-2");
    server.terminate();

    // 1,825 days before 2025-01-02 is 2020-01-04: the first lead is past the period, the second is not.
    write_clock(&clock, "2025-01-02T12:00:00Z");
    let server = serve(&database, "serve", &env, &[]);
    wait_until("the retention pass in the log", || {
        format!("{}{}", server.stdout_text(), server.stderr_text())
            .contains("retention: erased 1 leads and 0 opt-outs made before 2020-01-04T12:00:00Z (1825 days)")
            .then_some(())
    });
    let rows = export_json(dir.path(), &database);
    assert_eq!(lead_in(&rows, old)["email"], "");
    assert!(lead_in(&rows, old)["erased_at"].is_string());
    assert_eq!(lead_in(&rows, newer)["email"], "newer@lead.example");
    drop(server);

    // `0` keeps them.
    write_clock(&clock, "2040-01-01T12:00:00Z");
    let mut kept = env.clone();
    kept.push(("TRUCKINS_LEAD_RETENTION_DAYS", "0".to_string()));
    let server = serve(&database, "serve", &kept, &[]);
    assert!(
        server.stdout_text().contains("lead_retention_days = 0"),
        "{}",
        server.stdout_text()
    );
    assert_eq!(
        lead_in(&export_json(dir.path(), &database), newer)["email"],
        "newer@lead.example"
    );
}

#[test]
fn the_proof_of_an_older_lead_holds_its_consent_and_every_opt_out_since() {
    let dir = TempDir::new("consent-proof");
    let database = dir.path().join("leads.db");
    let server = serve(&database, "serve", &[], &[]);
    let id = lead(server.port, "maria@lopez.example", "proof-1");
    let reply = post(
        server.port,
        "/api/opt-out",
        &json!({ "phone": "(555) 210-0142", "note": "by the visitor" }),
    );
    assert_eq!(reply.status, 201);
    let run = |format: &str| {
        let (ok, text) = cli(
            dir.path(),
            &database,
            &["leads", "proof", &id.to_string(), "--format", format],
            &[],
        );
        assert!(ok, "{text}");
        text
    };
    let text = run("text");
    for expected in [
        "Proof of consent: lead #",
        "By checking this box",
        crate::common::consent_version().trim(),
        "https://www.example.com/products/hot-shot-insurance",
        "127.0.0.1",
        "answered: USDOT 1234567",
        "after the consent), by web",
        "by the visitor",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    let json: Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(json["lead"], id);
    assert_eq!(json["consent"]["given"], true);
    assert_eq!(
        json["consent"]["text"],
        crate::common::consent_text().trim()
    );
    assert_eq!(json["consent"]["language"], "en");
    assert_eq!(json["opt_outs"][0]["when"], "after");
    assert_eq!(json["opt_outs"][0]["phone"], "+15552100142");
    let html = run("html");
    assert!(
        html.starts_with("<!doctype html>") && html.contains("@page"),
        "{html}"
    );
    for outside in ["src=", "href=", "url(", "@import", "<script", "<link"] {
        assert!(!html.contains(outside), "{outside} in the proof's HTML");
    }
    let (ok, text) = cli(dir.path(), &database, &["leads", "proof", "999"], &[]);
    assert!(!ok && text.contains("no lead has id 999"), "{text}");
    drop(server);
}
