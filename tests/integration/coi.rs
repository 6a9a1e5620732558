//! Certificate of insurance requests (issue 13, part 3): `POST /api/leads/coi` as JSON and as a plain form post
//! through Rocket's local client on the application `main` serves (a SQLite file of its own per test), and the
//! agency's e-mail as the real binary sends it to a real SMTP server: URGENT when the certificate is needed the day
//! it is asked for or the next.

use std::path::{Path, PathBuf};

use rocket::figment::Figment;
use rocket::http::{ContentType, Status};
use rocket::local::blocking::Client;
use serde_json::{Value, json};
use truckins::store::{Lead, LeadFilter, Source, list, open};

use crate::common;
use crate::common::forms::form_encode;
use crate::notify::support::{part, wait_for_delivery};
use crate::notify::{mailed, post};

const COI: &str = "/api/leads/coi";

fn app_with(label: &str, configure: impl FnOnce(Figment) -> Figment) -> (Client, PathBuf) {
    let database = common::temp_database(label);
    let client = common::client_with(configure(common::figment(&database)));
    (client, database)
}

fn stored(database: &Path) -> Vec<Lead> {
    let pool = open(database, 1).expect("the database opens");
    let mut leads = list(&pool, &LeadFilter::default()).expect("the leads can be read");
    leads.reverse();
    leads
}

/// A date `days` after the agency's today (the server's local date), as the form sends it.
fn day(days: i64) -> String {
    (truckins::clock::local_today() + time::Duration::days(days)).to_string()
}

pub fn valid_request(needed_by: &str) -> Value {
    json!({
        "name": "Dana Smith",
        "email": "Dana@Example.com",
        "phone": "(555) 210-0142",
        "insured_name": "Lone Star Haulers LLC",
        "dot_number": "1234567",
        "certificate_holder": "Acme Logistics, Inc.",
        "holder_address": "1 Main St\nSuite 200\nAustin, TX 78701",
        "additional_insured": true,
        "waiver_of_subrogation": false,
        "needed_by": needed_by,
        "notes": "=Please copy the holder",
    })
}

fn send(client: &Client, body: &Value) -> (Status, Value) {
    let response = client
        .post(COI)
        .header(ContentType::JSON)
        .body(body.to_string())
        .dispatch();
    let status = response.status();
    assert_eq!(response.content_type(), Some(ContentType::JSON), "{status}");
    (
        status,
        serde_json::from_str(&response.into_string().unwrap()).unwrap(),
    )
}

#[test]
fn a_certificate_request_is_stored_with_every_field() {
    let (client, database) = app_with("coi-json", |f| f);
    let needed_by = day(3);
    let (status, body) = send(&client, &valid_request(&needed_by));
    assert_eq!(status, Status::Created, "{body}");
    let id = body["id"].as_i64().unwrap();
    assert!(
        body.get("details_token").is_none(),
        "only a quote gets details"
    );
    let leads = stored(&database);
    assert_eq!(leads.len(), 1);
    let lead = &leads[0];
    assert_eq!(lead.id, id);
    assert_eq!(lead.source, Source::Coi);
    assert_eq!(lead.email, "dana@example.com");
    assert_eq!(lead.phone.as_deref(), Some("+15552100142"));
    assert_eq!(lead.insured_name.as_deref(), Some("Lone Star Haulers LLC"));
    assert_eq!(lead.dot_number.as_deref(), Some("1234567"));
    assert_eq!(
        lead.certificate_holder.as_deref(),
        Some("Acme Logistics, Inc.")
    );
    assert_eq!(
        lead.holder_address.as_deref(),
        Some("1 Main St\nSuite 200\nAustin, TX 78701")
    );
    assert_eq!(lead.additional_insured, Some(true));
    assert_eq!(lead.waiver_of_subrogation, Some(false));
    assert_eq!(lead.needed_by.as_deref(), Some(needed_by.as_str()));
    assert_eq!(lead.notes.as_deref(), Some("=Please copy the holder"));
    assert!(!lead.consent_given);
}

#[test]
fn invalid_requests_name_each_field_and_store_nothing() {
    let (client, database) = app_with("coi-invalid", |f| f);
    let mut body = valid_request(&day(-1));
    body["email"] = json!("not-an-address");
    body["dot_number"] = json!("123456789");
    body["certificate_holder"] = json!("");
    body["holder_address"] = json!("Austin");
    body["additional_insured"] = json!("maybe");
    body["notes"] = json!("x".repeat(2001));
    body["insured_name"] = json!(null);
    let (status, answer) = send(&client, &body);
    assert_eq!(status, Status::UnprocessableEntity);
    assert_eq!(
        answer["errors"],
        json!({
            "email": "Please enter a valid email address",
            "dot_number": "DOT number must be 1-8 digits",
            "certificate_holder": "Certificate holder must be at least 2 characters",
            "holder_address": "Please enter the certificate holder's full mailing address",
            "additional_insured": "Additional insured must be yes or no",
            "needed_by": "Please enter a valid date that is today or later",
            "notes": "Notes must be less than 2000 characters",
            "insured_name": "Insured name must be at least 2 characters",
        })
    );
    let mut body = valid_request("");
    body["needed_by"] = json!("");
    let (_, answer) = send(&client, &body);
    assert_eq!(
        answer["errors"],
        json!({ "needed_by": "Please enter the date you need the certificate by" })
    );
    assert!(stored(&database).is_empty());
}

#[test]
fn without_javascript_the_form_lands_on_thank_you_or_comes_back_filled_in() {
    let (client, database) = app_with("coi-form", |f| f);
    let needed_by = day(0);
    let good = [
        ("name", "Dana Smith"),
        ("email", "dana@example.com"),
        ("insured_name", "Lone Star Haulers LLC"),
        ("certificate_holder", "Acme Logistics"),
        ("holder_address", "1 Main St, Austin, TX 78701"),
        ("waiver_of_subrogation", "true"),
        ("needed_by", needed_by.as_str()),
        ("website", ""),
    ];
    let response = client
        .post(COI)
        .header(ContentType::Form)
        .body(form_encode(&good))
        .dispatch();
    assert_eq!(response.status(), Status::SeeOther);
    assert_eq!(
        response.headers().get_one("Location"),
        Some("/certificate-request/thank-you")
    );
    assert_eq!(
        client
            .get("/certificate-request/thank-you")
            .dispatch()
            .status(),
        Status::Ok
    );
    let leads = stored(&database);
    assert_eq!(leads.len(), 1);
    assert_eq!(leads[0].additional_insured, Some(false), "unticked");
    assert_eq!(leads[0].waiver_of_subrogation, Some(true));

    let mut bad = good.to_vec();
    bad.retain(|(k, _)| *k != "needed_by" && *k != "name");
    bad.push(("needed_by", "yesterday"));
    bad.push(("name", "<b>Dana</b>"));
    let response = client
        .post(COI)
        .header(ContentType::Form)
        .body(form_encode(&bad))
        .dispatch();
    assert_eq!(response.status(), Status::UnprocessableEntity);
    assert_eq!(response.content_type(), Some(ContentType::HTML));
    let page = response.into_string().unwrap();
    assert!(page.contains("Please correct the fields marked below."));
    assert!(page.contains("Please enter a valid date that is today or later"));
    assert!(
        page.contains("id=\"coi-needed_by\" aria-invalid=\"true\""),
        "{page}"
    );
    // What was typed comes back escaped; a date input gets no text that is not a date.
    assert!(page.contains("value=\"&lt;b&gt;Dana&lt;/b&gt;\""));
    assert!(!page.contains("yesterday"));
    assert!(page.contains("data-fill=\"waiver_of_subrogation\" checked=\"\""));
    assert!(!page.contains("TRUCKINS_"), "every marker is filled");
    assert_eq!(stored(&database).len(), 1);
}

#[test]
fn certificate_requests_are_rate_limited_per_address() {
    let (client, database) = app_with("coi-limit", |f| f.merge(("ip_limit", 2)));
    for _ in 0..2 {
        assert_eq!(send(&client, &valid_request(&day(1))).0, Status::Created);
    }
    let (status, body) = send(&client, &valid_request(&day(1)));
    assert_eq!(status, Status::TooManyRequests);
    assert_eq!(body["error"], "Too Many Attempts");
    assert_eq!(
        body["message"],
        "Please wait 10 minutes before submitting another request."
    );
    // The honeypot's spam is answered like a success and stored nowhere; a request sent faster than a person types
    // is kept, marked (issue 36).
    let mut spam = valid_request(&day(1));
    spam["website"] = json!("http://spam.example");
    let (client, database_spam) = app_with("coi-spam", |f| f);
    assert_eq!(send(&client, &spam).0, Status::Created);
    assert!(stored(&database_spam).is_empty());
    let mut fast = valid_request(&day(1));
    fast["elapsed_ms"] = json!(200);
    assert_eq!(send(&client, &fast).0, Status::Created);
    let kept = stored(&database_spam);
    assert_eq!((kept.len(), kept[0].suspected_spam), (1, true));
    assert!(stored(&database).iter().all(|lead| !lead.suspected_spam));
    assert_eq!(stored(&database).len(), 2);
}

#[test]
fn a_certificate_needed_tomorrow_is_mailed_as_urgent() {
    let (_dir, database, smtp, server) = mailed("coi-urgent");
    let urgent = post(server.port, COI, &valid_request(&day(1)));
    assert_eq!(urgent.status, 201, "{}", urgent.text());
    let id = urgent.json()["id"].as_i64().unwrap();
    wait_for_delivery(&database, id, "email", "sent", |d| d.state == "sent");
    let later = post(server.port, COI, &valid_request(&day(2)));
    assert_eq!(later.status, 201, "{}", later.text());

    let mails = smtp.wait_for_mails(2);
    let subjects: Vec<&str> = mails
        .iter()
        .map(|mail| mail["headers"]["subject"].as_str().unwrap())
        .collect();
    assert_eq!(
        subjects,
        [
            format!(
                "URGENT certificate request: Dana Smith, Lone Star Haulers LLC, for Acme Logistics, Inc., needed by {}",
                day(1)
            ),
            format!(
                "Certificate request: Dana Smith, Lone Star Haulers LLC, for Acme Logistics, Inc., needed by {}",
                day(2)
            ),
        ]
    );
    let text = part(&mails[0], "text/plain");
    for expected in [
        "Suite 200",
        "Additional insured: yes",
        "Waiver of subrogation: no",
        "1234567",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
}
