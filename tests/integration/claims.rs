//! The first notice of loss (issue 28) through the real binary, with a real SMTP server (aiosmtpd) and a webhook
//! receiver on 127.0.0.1: `POST /api/leads/claim` as JSON and as a plain form, stored with every field; the
//! contract's messages one by one (a loss in the future by date and by time on the test clock, an unknown insurer,
//! each required field, in Spanish too); the agency's `URGENT CLAIM:` e-mail and the signed webhook with every
//! field; the client's confirmation with its reference and the insurer's claims line (or the agency's phone), in
//! English and Spanish, with `autoreply` off, once per address per 24 h; the export's columns, a hostile `=cmd`
//! neutralised; and the claim's e-mail sent ahead of leads already waiting when the relay comes back.
//! `policy_change.rs` uses the helpers here.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use truckins::store::{Lead, LeadFilter, Source, list, open};

use crate::common::forms::form_encode;
use crate::common::process::{Http, Reply, Server, TempDir, free_port};
use crate::notify::support::{
    Answer, Receiver, Smtp, SmtpOptions, deliveries, part, wait_for_delivery, wait_until,
};
use crate::notify::{cli, env, plain_smtp, post, serve, verify};

const CLAIM: &str = "/api/leads/claim";

/// The test clock's time: Monday 2 March 2026, 15:00 UTC (09:00 in the agency's Chicago, 11:00 on the Eastern
/// daylight clock that "not in the future" allows for).
pub(crate) const NOW: &str = "2026-03-02T15:00:00Z";

/// A server with e-mail (`autoreply` off) and a webhook, on its own leads file, the time read from `clock`.
pub(crate) struct Site {
    pub dir: TempDir,
    pub database: PathBuf,
    pub clock: PathBuf,
    pub smtp: Smtp,
    pub webhook: Receiver,
    pub server: Server,
}

pub(crate) fn site(label: &str) -> Site {
    let dir = TempDir::new(label);
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    set_clock(&clock, NOW);
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let webhook = Receiver::start(&[], Answer::Status(204));
    let mut variables = env(Some(&plain_smtp(smtp.port)), Some(&webhook.url()));
    variables.push(("TRUCKINS_TEST_CLOCK", clock.display().to_string()));
    variables.push(("TRUCKINS_TIME_ZONE", "America/Chicago".to_string()));
    let server = serve(&database, label, &variables, &[]);
    Site {
        dir,
        database,
        clock,
        smtp,
        webhook,
        server,
    }
}

/// Moves the server's clock (the file replaced whole, as the clock reads it).
pub(crate) fn set_clock(clock: &Path, time: &str) {
    let partial = clock.with_extension("partial");
    std::fs::write(&partial, time).unwrap();
    std::fs::rename(&partial, clock).unwrap();
}

/// The leads of the file, oldest first.
pub(crate) fn stored(database: &Path) -> Vec<Lead> {
    let pool = open(database, 1).expect("the database opens");
    let mut leads = list(&pool, &LeadFilter::default()).expect("the leads can be read");
    leads.reverse();
    leads
}

/// A plain form post, as a browser without JavaScript sends it.
pub(crate) fn post_form(port: u16, path: &str, pairs: &[(&str, &str)]) -> Reply {
    Http::connect(port)
        .unwrap()
        .send(
            "POST",
            path,
            &[("Content-Type", "application/x-www-form-urlencoded")],
            Some(form_encode(pairs).as_bytes()),
        )
        .expect("an answer")
}

/// Posts `body` as JSON, which must be answered 201; the answer.
pub(crate) fn created(port: u16, path: &str, body: &Value) -> Value {
    let reply = post(port, path, body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()
}

/// Posts `body` as JSON, which must be answered 201 with its id and the reference made of it (`CLM-000123`); the id.
pub(crate) fn referenced(port: u16, path: &str, body: &Value, prefix: &str) -> i64 {
    let answer = created(port, path, body);
    let id = answer["id"].as_i64().unwrap();
    assert_eq!(answer["reference"], format!("{prefix}-{id:06}"));
    id
}

/// Posts a plain form that must be answered 303; where it sends the browser.
pub(crate) fn redirected(port: u16, path: &str, pairs: &[(&str, &str)]) -> String {
    let reply = post_form(port, path, pairs);
    assert_eq!(reply.status, 303, "{}", reply.text());
    reply.header("Location").unwrap_or_default().to_string()
}

/// Posts `body` as JSON, which must be refused 422; its messages.
pub(crate) fn refusal(port: u16, path: &str, body: &Value) -> Value {
    let reply = post(port, path, body);
    assert_eq!(reply.status, 422, "{}", reply.text());
    reply.json()["errors"].clone()
}

/// `body` with the fields of `changes` set.
pub(crate) fn changed(mut body: Value, changes: Value) -> Value {
    for (name, value) in changes.as_object().unwrap() {
        body[name] = value.clone();
    }
    body
}

/// The e-mails to `address`, in the order the SMTP server took them.
pub(crate) fn mails_to(smtp: &Smtp, address: &str) -> Vec<Value> {
    smtp.mails()
        .into_iter()
        .filter(|mail| {
            mail["rcpt_tos"]
                .as_array()
                .is_some_and(|to| to.iter().any(|a| a == address))
        })
        .collect()
}

/// The agency's first `count` e-mails, waited for.
pub(crate) fn agency_mails(smtp: &Smtp, count: usize) -> Vec<Value> {
    wait_until(&format!("the agency's {count} e-mails"), || {
        let mails = mails_to(smtp, "owner@agency.example");
        (mails.len() >= count).then_some(mails)
    })
}

/// Each of `expected` is the subject of one of `mails`.
pub(crate) fn assert_subjects(mails: &[Value], expected: &[&str]) {
    let subjects: Vec<&str> = mails.iter().map(subject).collect();
    for expected in expected {
        assert!(subjects.contains(expected), "{expected:?} in {subjects:?}");
    }
}

/// The first e-mail to `address`, waited for.
pub(crate) fn first_mail_to(smtp: &Smtp, address: &str) -> Value {
    wait_until(&format!("the e-mail to {address}"), || {
        mails_to(smtp, address).into_iter().next()
    })
}

/// The text of the one of `mails` whose subject holds `subject_part`, which must hold each of `expected`.
pub(crate) fn text_holding(mails: &[Value], subject_part: &str, expected: &[&str]) -> String {
    let mail = mails
        .iter()
        .find(|mail| subject(mail).contains(subject_part))
        .unwrap_or_else(|| panic!("an e-mail about {subject_part:?}"));
    let text = part(mail, "text/plain");
    for expected in expected {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    text.to_string()
}

/// The webhook's event for lead `id`, once `count` events are in, each of them signed.
pub(crate) fn signed_event(webhook: &Receiver, count: usize, id: i64) -> Value {
    let events = webhook.wait_for(count);
    for event in &events {
        verify(event);
    }
    events
        .iter()
        .map(|event| event.json())
        .find(|body| body["lead"]["id"] == id)
        .unwrap_or_else(|| panic!("the event of lead {id}"))
}

pub(crate) fn subject(mail: &Value) -> &str {
    mail["headers"]["subject"].as_str().unwrap_or_default()
}

/// The CSV export as header -> cell maps, one a lead.
pub(crate) fn exported(site: &Site) -> Vec<std::collections::HashMap<String, String>> {
    let (ok, text) = cli(
        site.dir.path(),
        &site.database,
        &["leads", "export", "--format", "csv"],
        &[],
    );
    assert!(ok, "{text}");
    crate::common::csv_table(csv::Reader::from_reader(text.as_bytes())).1
}

fn full_claim() -> Value {
    json!({
        "name": "Rosa Diaz",
        "phone": "(214) 555-0199",
        "email": "Rosa@Example.com",
        "loss_date": "2026-03-02",
        "loss_time": "08:40",
        "loss_city": "Waco",
        "loss_state": "tx",
        "what_happened": "=cmd|' /C calc'!A0 rear-ended at a light on I-35\nnobody hurt",
        "insured_name": "Diaz Hauling LLC",
        "policy_number": "TX-CA-123456-01",
        "insurer": "great-plains-mutual",
        "vehicles_involved": "Unit 12, 1M8GDM9AXKP042788",
        "injuries": "no",
        "police_report_number": "WPD-2026-0042",
        "towed": "yes",
    })
}

#[test]
fn claims_are_stored_mailed_as_urgent_confirmed_and_exported() {
    let site = site("claims");
    let port = site.server.port;

    // JSON, every field.
    let first = referenced(port, CLAIM, &full_claim(), "CLM");

    // A plain form post from the Spanish page, the same address (its confirmation was sent today), not sure of the
    // insurer.
    let form = [
        ("name", "Rosa Diaz"),
        ("phone", "214.555.0199"),
        ("email", "rosa@example.com"),
        ("loss_date", "2026-03-01"),
        ("loss_time", "23:10"),
        ("loss_city", "Laredo"),
        ("loss_state", "TX"),
        ("what_happened", "Se salió del camino por el hielo."),
        ("insurer", "not_sure"),
        ("injuries", "unknown"),
        ("towed", ""),
        ("locale", "es"),
        ("website", ""),
    ];
    let location = redirected(port, CLAIM, &form);
    assert!(
        location.starts_with("/es/report-a-claim/thank-you?reference=CLM-0000"),
        "{location}"
    );
    let page = Http::connect(port).unwrap().get(&location, &[]).unwrap();
    assert_eq!(page.status, 200, "the thank-you page with its reference");
    // In Spanish, without an insurer, from another address: the confirmation gives the agency's phone.
    let mut third = full_claim();
    third["email"] = json!("luis@example.com");
    third["name"] = json!("Luis Ortiz");
    third["insurer"] = json!("not_sure");
    third["locale"] = json!("es");
    let third_id = created(port, CLAIM, &third)["id"].as_i64().unwrap();

    // Stored with every field; the second with its own.
    let leads = stored(&site.database);
    assert_eq!(leads.len(), 3);
    let lead = &leads[0];
    assert_eq!(lead.source, Source::Claim);
    assert_eq!(
        (
            lead.name.as_str(),
            lead.email.as_str(),
            lead.phone.as_deref()
        ),
        ("Rosa Diaz", "rosa@example.com", Some("+12145550199"))
    );
    assert_eq!(lead.insured_name.as_deref(), Some("Diaz Hauling LLC"));
    assert!(!lead.consent_given, "no marketing consent is asked");
    let request = lead.request.clone().expect("the claim's fields");
    for (name, value) in [
        ("loss_date", "2026-03-02"),
        ("loss_time", "08:40"),
        ("loss_city", "Waco"),
        ("loss_state", "TX"),
        (
            "what_happened",
            "=cmd|' /C calc'!A0 rear-ended at a light on I-35\nnobody hurt",
        ),
        ("policy_number", "TX-CA-123456-01"),
        ("insurer", "great-plains-mutual"),
        ("vehicles_involved", "Unit 12, 1M8GDM9AXKP042788"),
        ("injuries", "no"),
        ("police_report_number", "WPD-2026-0042"),
        ("towed", "yes"),
    ] {
        assert_eq!(request.get(name), Some(value), "{name}");
    }
    let second = &leads[1];
    assert_eq!(second.language.0, contract::locale::Locale::Es);
    let request = second.request.clone().unwrap();
    assert_eq!(request.get("insurer"), Some("not_sure"));
    assert_eq!(request.get("towed"), None, "not answered");
    assert_eq!(
        request.get("what_happened"),
        Some("Se salió del camino por el hielo.")
    );

    // The messages, one by one.
    let refused = |changes: Value| refusal(port, CLAIM, &changed(full_claim(), changes));
    assert_eq!(
        refused(json!({ "loss_date": "2026-03-03" })),
        json!({ "loss_date": "The date of the loss cannot be in the future" })
    );
    assert_eq!(
        refused(json!({ "loss_time": "11:20" })),
        json!({ "loss_time": "The time of the loss cannot be later than the time now" })
    );
    assert_eq!(
        refused(json!({ "insurer": "acme-mutual" })),
        json!({ "insurer": "Please choose the insurer from the list, or Not sure" })
    );
    assert_eq!(
        refused(json!({ "loss_date": "2026-03-03", "locale": "es" })),
        json!({ "loss_date": "La fecha del siniestro no puede ser una fecha futura" })
    );
    assert_eq!(
        refused(json!({ "injuries": "maybe", "towed": "perhaps", "loss_state": "XX" })),
        json!({
            "injuries": "Please choose an answer from the list for injuries",
            "towed": "Please choose an answer from the list for towing",
            "loss_state": "Please choose a US state by its two-letter code, such as TX",
        })
    );
    let reply = post(port, CLAIM, &json!({}));
    assert_eq!(reply.status, 422);
    assert_eq!(
        reply.json()["errors"],
        json!({
            "name": "Name must be at least 2 characters",
            "phone": "Please enter a phone number we can reach you at",
            "loss_date": "Please enter the date of the loss",
            "loss_time": "Please enter the time of the loss (an estimate is fine)",
            "loss_city": "Please enter the city or nearest town where it happened",
            "loss_state": "Please choose the state where it happened",
            "what_happened": "Please describe what happened in at least 10 characters",
        })
    );
    // Without JavaScript, the form again with the messages.
    let mut bad = form.to_vec();
    bad.retain(|(name, _)| *name != "loss_date" && *name != "locale");
    bad.push(("loss_date", "2026-03-09"));
    let reply = post_form(port, CLAIM, &bad);
    assert_eq!(reply.status, 422);
    assert!(
        reply
            .text()
            .contains("Please correct the fields marked below."),
        "{}",
        reply.text()
    );
    assert_eq!(stored(&site.database).len(), 3, "nothing refused is stored");

    // The agency's e-mails: URGENT, every field.
    let agency = agency_mails(&site.smtp, 3);
    assert_subjects(
        &agency,
        &[
            "URGENT CLAIM: Rosa Diaz, Waco, TX, loss 2026-03-02 08:40",
            "URGENT CLAIM: [ES] Rosa Diaz, Laredo, TX, loss 2026-03-01 23:10",
        ],
    );
    let reference = format!("CLM-{first:06}");
    let text = text_holding(
        &agency,
        "URGENT CLAIM: Rosa Diaz, Waco",
        &[
            &reference,
            "Diaz Hauling LLC",
            "TX-CA-123456-01",
            "Great Plains Mutual",
            "Unit 12, 1M8GDM9AXKP042788",
            "No one was hurt",
            "WPD-2026-0042",
            "Yes, it was towed",
            "nobody hurt",
            "+12145550199",
        ],
    );

    // Its status links work as for every lead: the "Contacted" page names the claim.
    let link = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("Contacted: "))
        .expect("a Contacted link");
    let path = &link[link.find("/lead-status/").expect("a status link")..];
    let page = Http::connect(port).unwrap().get(path, &[]).unwrap();
    assert_eq!(page.status, 200, "{}", page.text());
    assert!(page.text().contains("Claim report"), "{}", page.text());

    // The client's confirmations, with autoreply off: one to Rosa (English, the insurer's claims line), none for
    // her second claim the same day, one to Luis in Spanish with the agency's phone.
    let rosa = first_mail_to(&site.smtp, "rosa@example.com");
    assert_eq!(
        subject(&rosa),
        format!("We have your claim report CLM-{first:06} - Milepost Truck Insurance")
    );
    let text = part(&rosa, "text/plain");
    assert!(
        text.contains(&format!("Your reference is CLM-{first:06}")),
        "{text}"
    );
    assert!(
        text.contains("call Great Plains Mutual's claims line at (555) 010-0177"),
        "{text}"
    );
    let luis = first_mail_to(&site.smtp, "luis@example.com");
    assert_eq!(
        subject(&luis),
        format!("Recibimos su reporte de siniestro CLM-{third_id:06} - Milepost Truck Insurance")
    );
    let text = part(&luis, "text/plain");
    assert!(
        text.contains("Si es urgente, llámenos al (555) 010-0142."),
        "{text}"
    );
    assert!(
        !deliveries(&site.database)
            .iter()
            .any(|d| d.lead_id == leads[1].id && d.channel == "autoreply"),
        "one confirmation per address per 24 h"
    );
    assert_eq!(mails_to(&site.smtp, "rosa@example.com").len(), 1);

    // The webhook: signed, with the claim's fields.
    let body = signed_event(&site.webhook, 3, first);
    assert_eq!(body["event"], "lead");
    assert_eq!(body["lead"]["source"], "claim");
    assert_eq!(body["lead"]["request"]["loss_city"], "Waco");
    assert_eq!(body["lead"]["request"]["insurer"], "great-plains-mutual");

    // The export: the reference and each field in a column, the formula neutralised; `leads show` prints them.
    let rows = exported(&site);
    let row = rows
        .iter()
        .find(|row| row["id"] == first.to_string())
        .unwrap();
    assert_eq!(row["source"], "claim");
    assert_eq!(row["reference"], format!("CLM-{first:06}"));
    assert_eq!(
        row["request_what_happened"],
        "'=cmd|' /C calc'!A0 rear-ended at a light on I-35\nnobody hurt"
    );
    assert_eq!(row["request_loss_state"], "TX");
    assert_eq!(row["request_police_report_number"], "WPD-2026-0042");
    assert_eq!(row["phone"], "(214) 555-0199");
    let (ok, shown) = cli(
        site.dir.path(),
        &site.database,
        &["leads", "show", &first.to_string()],
        &[],
    );
    assert!(ok, "{shown}");
    for expected in [
        "Date of loss:",
        "2026-03-02",
        "Police report:",
        "Great Plains Mutual",
    ] {
        assert!(shown.contains(expected), "{expected:?} in:\n{shown}");
    }
}

#[test]
fn an_urgent_claim_is_sent_ahead_of_leads_already_waiting() {
    let dir = TempDir::new("claim-first");
    let database = dir.path().join("leads.db");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let variables = env(Some(&plain_smtp(smtp.port)), None);
    // The relay refuses every message for now: the leads wait.
    smtp.answer("data", "451 4.3.0 Try again later", -1);
    let mut server = serve(&database, "claim-first", &variables, &[]);
    let mut waiting = Vec::new();
    for n in 0..3 {
        let reply = post(
            server.port,
            "/api/leads/quote",
            &crate::notify::quote(&format!("lead{n}@example.com"), &format!("first-{n}")),
        );
        assert_eq!(reply.status, 201, "{}", reply.text());
        waiting.push(reply.json()["id"].as_i64().unwrap());
    }
    for &id in &waiting {
        wait_for_delivery(&database, id, "email", "tried", |d| d.attempts >= 1);
    }
    // Then the claim (no e-mail address: no confirmation to tell apart), refused like the rest.
    let mut claim = full_claim();
    claim["email"] = json!("");
    let claim_id = created(server.port, CLAIM, &claim)["id"].as_i64().unwrap();
    wait_for_delivery(&database, claim_id, "email", "tried", |d| d.attempts >= 1);
    // The relay comes back while the server is stopped, so that every delivery is waiting when it starts again:
    // what goes first is then the server's choice alone.
    server.terminate();
    smtp.accept();
    let _server = serve(&database, "claim-first-again", &variables, &[]);
    let mails = smtp.wait_for_mails(4);
    let subjects: Vec<&str> = mails.iter().map(subject).collect();
    assert!(
        subjects[0].starts_with("URGENT CLAIM: Rosa Diaz"),
        "the claim first: {subjects:?}"
    );
    assert!(
        subjects[1..]
            .iter()
            .all(|subject| subject.starts_with("New quote:")),
        "{subjects:?}"
    );
}
