//! The lead API as a browser or a program sees it: `POST /api/leads/quote` and `POST /api/leads/contact` through
//! Rocket's local client on the application `main` serves, each test on a SQLite file of its own (a real database,
//! no mocks), the stored leads read back with the store's own `open` and `list`.
//!
//! Covered: every stored field, the specification's validation messages word for word, sanitising, the e-mail and
//! IP rate limits (and `X-Forwarded-For` only from trusted proxies), spam traps, idempotency, malformed and hostile
//! bodies, the no-JavaScript form path and 500 leads stored concurrently.

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use crate::common::{consent_text, consent_version};
use rocket::figment::Figment;
use rocket::http::{ContentType, Header, Status};
use rocket::local::blocking::{Client, LocalResponse};
use serde_json::{Value, json};
use truckins::store::{Lead, LeadFilter, list, open};

use crate::common;
use crate::common::forms::form_encode;

const QUOTE: &str = "/api/leads/quote";
const CONTACT: &str = "/api/leads/contact";

// --- Setup -------------------------------------------------------------------------------------------------------

/// The application on a fresh database, its configuration changed by `configure`.
fn app_with(label: &str, configure: impl FnOnce(Figment) -> Figment) -> (Client, PathBuf) {
    let database = common::temp_database(label);
    let client = common::client_with(configure(common::figment(&database)));
    (client, database)
}

fn app(label: &str) -> (Client, PathBuf) {
    app_with(label, |figment| figment)
}

/// Every stored lead, oldest first, read through the store on the same file.
fn stored(database: &Path) -> Vec<Lead> {
    let pool = open(database, 1).expect("the database opens");
    let mut leads = list(&pool, &LeadFilter::default()).expect("the leads table can be read");
    leads.reverse();
    leads
}

/// The number of rows, counted with SQL: fails if the `leads` table is gone.
fn row_count(database: &Path) -> i64 {
    let pool = open(database, 1).expect("the database opens");
    let connection = pool.get().unwrap();
    connection
        .query_row("SELECT COUNT(*) FROM leads", [], |row| row.get(0))
        .expect("the leads table still exists")
}

fn ip(text: &str) -> SocketAddr {
    text.parse().unwrap()
}

// --- Requests ----------------------------------------------------------------------------------------------------

fn post_json<'c>(client: &'c Client, path: &str, body: &Value) -> LocalResponse<'c> {
    client
        .post(path.to_string())
        .header(ContentType::JSON)
        .body(body.to_string())
        .dispatch()
}

fn post_json_from<'c>(
    client: &'c Client,
    path: &str,
    remote: &str,
    body: &Value,
) -> LocalResponse<'c> {
    client
        .post(path.to_string())
        .header(ContentType::JSON)
        .remote(ip(remote))
        .body(body.to_string())
        .dispatch()
}

/// Status and JSON body of a response; the body must be JSON whatever the status.
fn answer(response: LocalResponse<'_>) -> (Status, Value) {
    let status = response.status();
    assert_eq!(
        response.content_type(),
        Some(ContentType::JSON),
        "{status}: every API answer is JSON"
    );
    let text = response.into_string().unwrap_or_default();
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{status}: {e}: {text}"));
    (status, value)
}

fn send(client: &Client, path: &str, body: &Value) -> (Status, Value) {
    answer(post_json(client, path, body))
}

/// Sends a lead that must be stored; returns its id.
fn created(client: &Client, path: &str, body: &Value) -> i64 {
    let (status, value) = send(client, path, body);
    assert_eq!(status, Status::Created, "{value}");
    value["id"].as_i64().expect("the id is a number")
}

/// Sends a raw body with the given content type.
fn post_raw<'c>(
    client: &'c Client,
    path: &str,
    content_type: Option<ContentType>,
    body: impl AsRef<[u8]>,
) -> LocalResponse<'c> {
    let mut request = client.post(path.to_string()).body(body);
    if let Some(content_type) = content_type {
        request = request.header(content_type);
    }
    request.dispatch()
}

// --- Bodies ------------------------------------------------------------------------------------------------------

fn quote_body() -> Value {
    crate::common::valid_quote()
}

fn contact_body() -> Value {
    json!({
        "name": "Luis Ortega",
        "email": "luis@example.com",
        "subject": "Certificate of insurance",
        "message": "Please send a certificate of insurance for my new shipper.",
    })
}

/// `body` with `field` set to `value` (`null` removes the field, as the server reads it).
fn with(mut body: Value, field: &str, value: impl Into<Value>) -> Value {
    body[field] = value.into();
    body
}

/// A contact body from its own e-mail address, so the per-e-mail limit is not reached.
fn contact_from(email: &str) -> Value {
    with(contact_body(), "email", email)
}

fn post_form<'c>(client: &'c Client, path: &str, pairs: &[(&str, &str)]) -> LocalResponse<'c> {
    client
        .post(path.to_string())
        .header(ContentType::Form)
        .body(form_encode(pairs))
        .dispatch()
}

/// The text of the error paragraph beside `field` in a filled-in form page (`<p id="...-{field}-error">`).
pub(crate) fn error_beside<'h>(html: &'h str, field: &str) -> Option<&'h str> {
    let suffix = format!("-{field}-error\"");
    html.match_indices("<p id=\"").find_map(|(at, _)| {
        let rest = &html[at + "<p id=\"".len()..];
        let id_end = rest.find('"')?;
        if !rest[..=id_end].ends_with(&suffix) {
            return None;
        }
        let text = &rest[rest.find('>')? + 1..];
        Some(&text[..text.find("</p>")?])
    })
}

fn errors_of(value: &Value) -> BTreeMap<String, String> {
    let object = value.as_object().expect("an object");
    assert_eq!(
        object.keys().collect::<Vec<_>>(),
        ["errors"],
        "a 422 carries only `errors`: {value}"
    );
    object["errors"]
        .as_object()
        .expect("errors is an object")
        .iter()
        .map(|(field, message)| {
            let message = message
                .as_str()
                .unwrap_or_else(|| panic!("one message per field, as text: {value}"));
            (field.clone(), message.to_string())
        })
        .collect()
}

// --- 1, 2: what is stored --------------------------------------------------------------------------------------

#[test]
fn a_valid_quote_is_stored_with_every_field() {
    let (client, database) = app("quote-fields");
    let body = json!({
        "name": "  Dana O'Neil-Smith ",
        "email": "  Dana.ONeil@Example.COM ",
        "phone": "(555) 210-0142",
        "company": "Lone Star Haulers LLC",
        "insurance_type": "dump",
        "vehicle_count": 3,
        "dot_number": "1234567",
        "consent": true,
        "elapsed_ms": 8000,
        "submission_id": "7f0c7c1e-quote-fields",
        "page_url": "https://milepost.example/get-quote?utm_source=google",
        "utm_source": "google",
        "utm_medium": "cpc",
        "utm_campaign": "spring-dump",
        "utm_term": "dump truck insurance",
        "utm_content": "ad-1",
        "gclid": "EAIaIQobChMI",
        "referrer": "https://www.google.com/",
        "landing_page": "https://milepost.example/products/dump-truck-insurance",
    });
    let before = time::OffsetDateTime::now_utc();
    let response = client
        .post(QUOTE)
        .header(ContentType::JSON)
        .header(Header::new("User-Agent", "Mozilla/5.0 (TestBrowser 1.0)"))
        .remote(ip("198.51.100.23:4242"))
        .body(body.to_string())
        .dispatch();
    let (status, value) = answer(response);
    assert_eq!(status, Status::Created);
    let id = value["id"].as_i64().expect("a numeric id");
    // Issue 13: a new quote's answer also carries its details token (128 random bits, hex; never the id).
    let token = value["details_token"].as_str().expect("a details token");
    assert!(
        token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()),
        "{token}"
    );
    assert_eq!(
        value,
        json!({ "id": id, "details_token": token }),
        "the answer is exactly {{\"id\": N, \"details_token\": T}}"
    );

    let leads = stored(&database);
    assert_eq!(leads.len(), 1);
    let lead = &leads[0];
    assert_eq!(lead.id, id);
    assert_eq!(lead.source.as_str(), "quote");
    assert_eq!(lead.status.as_str(), "new");
    assert_eq!(lead.name, "Dana O'Neil-Smith", "trimmed");
    assert_eq!(lead.email, "dana.oneil@example.com", "lowercased, trimmed");
    assert_eq!(lead.phone.as_deref(), Some("+15552100142"));
    assert_eq!(lead.company.as_deref(), Some("Lone Star Haulers LLC"));
    assert_eq!(lead.insurance_type.as_deref(), Some("dump"));
    assert_eq!(lead.vehicle_count, Some(3));
    assert_eq!(lead.dot_number.as_deref(), Some("1234567"));
    assert_eq!(lead.subject, None);
    assert_eq!(lead.message, None);
    assert!(lead.consent_given);
    assert_eq!(lead.consent_text.as_deref(), Some(consent_text().trim()));
    assert!(lead.consent_text.as_deref().unwrap().len() > 100);
    assert_eq!(
        lead.consent_version.as_deref(),
        Some(consent_version().trim())
    );
    assert!(!consent_version().trim().is_empty());
    // The stored words are the ones the form shows, from content/forms.toml, naming the agency by its legal name as
    // content/facts.toml gives it (the consent is given to the company that will call).
    let read = |file: &str| -> toml::Table {
        std::fs::read_to_string(format!("{}/content/{file}", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .parse()
            .unwrap()
    };
    let (forms, facts) = (read("forms.toml"), read("facts.toml"));
    let legal_name = facts["legal_name"].as_str().unwrap();
    let written = forms["consent_text"].as_str().unwrap();
    assert!(written.contains("{legal_name}"), "{written}");
    assert_eq!(
        lead.consent_text.as_deref(),
        Some(written.replace("{legal_name}", legal_name).trim())
    );
    // The version: forms.toml's, and the short hash of the words as shown (they follow the facts).
    let version = lead.consent_version.as_deref().unwrap();
    let (written_version, words_hash) = version.split_once('+').unwrap();
    assert_eq!(Some(written_version), forms["consent_version"].as_str());
    assert_eq!(words_hash.len(), 8, "{version}");
    // Consent time and creation time: the same instant, RFC 3339, now.
    let created_at = time::OffsetDateTime::parse(
        &lead.created_at,
        &time::format_description::well_known::Rfc3339,
    )
    .expect("created_at is RFC 3339");
    let after = time::OffsetDateTime::now_utc();
    assert!(
        before - time::Duration::seconds(1) <= created_at
            && created_at <= after + time::Duration::seconds(1),
        "{}",
        lead.created_at
    );
    assert_eq!(lead.consent_at.as_deref(), Some(lead.created_at.as_str()));
    assert_eq!(lead.ip.as_deref(), Some("198.51.100.23"));
    assert_eq!(
        lead.user_agent.as_deref(),
        Some("Mozilla/5.0 (TestBrowser 1.0)")
    );
    assert_eq!(
        lead.page_url.as_deref(),
        Some("https://milepost.example/get-quote?utm_source=google")
    );
    assert_eq!(lead.utm_source.as_deref(), Some("google"));
    assert_eq!(lead.utm_medium.as_deref(), Some("cpc"));
    assert_eq!(lead.utm_campaign.as_deref(), Some("spring-dump"));
    assert_eq!(lead.utm_term.as_deref(), Some("dump truck insurance"));
    assert_eq!(lead.utm_content.as_deref(), Some("ad-1"));
    assert_eq!(lead.gclid.as_deref(), Some("EAIaIQobChMI"));
    assert_eq!(lead.referrer.as_deref(), Some("https://www.google.com/"));
    assert_eq!(
        lead.landing_page.as_deref(),
        Some("https://milepost.example/products/dump-truck-insurance")
    );
    assert_eq!(lead.submission_id.as_deref(), Some("7f0c7c1e-quote-fields"));
}

#[test]
fn a_minimal_quote_stores_absent_optional_fields_as_null() {
    let (client, database) = app("quote-minimal");
    let body = json!({
        "name": "José Núñez",
        "email": "jose@example.com",
        "insurance_type": "hotshot",
        "vehicle_count": "1",
        "consent": "on",
        "phone": "",
        "company": "   ",
        "dot_number": "",
    });
    created(&client, QUOTE, &body);
    let lead = &stored(&database)[0];
    assert_eq!(lead.name, "José Núñez", "letters beyond ASCII are letters");
    assert_eq!(lead.vehicle_count, Some(1), "a count sent as text");
    for (field, value) in [
        ("phone", &lead.phone),
        ("company", &lead.company),
        ("dot_number", &lead.dot_number),
        ("user_agent", &lead.user_agent),
        ("page_url", &lead.page_url),
        ("utm_source", &lead.utm_source),
        ("utm_medium", &lead.utm_medium),
        ("utm_campaign", &lead.utm_campaign),
        ("utm_term", &lead.utm_term),
        ("utm_content", &lead.utm_content),
        ("gclid", &lead.gclid),
        ("referrer", &lead.referrer),
        ("landing_page", &lead.landing_page),
        ("submission_id", &lead.submission_id),
    ] {
        assert_eq!(value, &None, "{field} is NULL when not sent");
    }
    assert!(lead.consent_given);
}

#[test]
fn us_phone_formats_are_stored_normalised() {
    let (client, database) = app("phones");
    let formats = [
        "555-210-0142",
        "555.210.0142",
        "+1 555 210 0142",
        "15552100142",
        "(555)2100142",
    ];
    for (n, phone) in formats.iter().enumerate() {
        let body = with(quote_body(), "phone", *phone);
        created(
            &client,
            QUOTE,
            &with(body, "email", format!("p{n}@example.com")),
        );
    }
    let leads = stored(&database);
    assert_eq!(leads.len(), formats.len());
    for (lead, sent) in leads.iter().zip(formats) {
        assert_eq!(lead.phone.as_deref(), Some("+15552100142"), "{sent}");
    }
}

#[test]
fn clients_cannot_set_server_owned_fields() {
    let (client, database) = app("mass-assignment");
    let body = json!({
        "name": "Dana Smith",
        "email": "dana@example.com",
        "insurance_type": "cargo",
        "vehicle_count": 2,
        "consent": true,
        "id": 999,
        "status": "won",
        "source": "contact",
        "ip": "1.2.3.4",
        "created_at": "1999-01-01T00:00:00Z",
        "consent_given": false,
        "consent_text": "I agree to nothing.",
        "consent_version": "1999-01-01",
        "consent_at": "1999-01-01T00:00:00Z",
        "subject": "Not a quote field",
        "message": "Not a quote field either",
    });
    let id = created(&client, QUOTE, &body);
    assert_ne!(id, 999);
    let lead = &stored(&database)[0];
    assert_eq!(lead.id, id);
    assert_eq!(lead.status.as_str(), "new");
    assert_eq!(lead.source.as_str(), "quote");
    assert_eq!(
        lead.ip.as_deref(),
        Some("0.0.0.0"),
        "no peer address: 0.0.0.0"
    );
    assert!(lead.created_at.starts_with("20"), "{}", lead.created_at);
    assert_ne!(lead.created_at, "1999-01-01T00:00:00Z");
    assert!(lead.consent_given);
    assert_eq!(lead.consent_text.as_deref(), Some(consent_text().trim()));
    assert_eq!(
        lead.consent_version.as_deref(),
        Some(consent_version().trim())
    );
    assert_eq!(lead.consent_at.as_deref(), Some(lead.created_at.as_str()));
    assert_eq!((&lead.subject, &lead.message), (&None, &None));
}

#[test]
fn a_valid_contact_message_is_stored_in_its_own_fields() {
    let (client, database) = app("contact-fields");
    let body = json!({
        "name": " Luis Ortega ",
        "email": " Luis@Example.com",
        "subject": "  Certificate of insurance ",
        "message": "  Please send a certificate of insurance for my new shipper.\nThanks!  ",
        "company": "Ignored Freight Co",
        "insurance_type": "dump",
        "vehicle_count": 4,
        "dot_number": "7654321",
        "consent": true,
        "utm_source": "newsletter",
    });
    let response = client
        .post(CONTACT)
        .header(ContentType::JSON)
        .header(Header::new("User-Agent", "ContactAgent/2"))
        .header(Header::new("Referer", "https://milepost.example/contact"))
        .remote(ip("192.0.2.44:1234"))
        .body(body.to_string())
        .dispatch();
    let (status, value) = answer(response);
    assert_eq!(status, Status::Created);
    let id = value["id"].as_i64().unwrap();
    assert_eq!(value, json!({ "id": id }));

    let leads = stored(&database);
    assert_eq!(leads.len(), 1);
    let lead = &leads[0];
    assert_eq!(lead.id, id);
    assert_eq!(lead.source.as_str(), "contact");
    assert_eq!(lead.status.as_str(), "new");
    assert_eq!(lead.name, "Luis Ortega");
    assert_eq!(lead.email, "luis@example.com");
    assert_eq!(lead.subject.as_deref(), Some("Certificate of insurance"));
    assert_eq!(
        lead.message.as_deref(),
        Some("Please send a certificate of insurance for my new shipper.\nThanks!")
    );
    // DECISIONS 3: the subject is not put in company; a contact message carries no quote fields.
    assert_eq!(lead.company, None);
    assert_eq!(lead.insurance_type.as_deref(), Some("Contact Form"));
    assert_eq!(lead.vehicle_count, None);
    assert_eq!(lead.dot_number, None);
    assert_eq!(lead.phone, None);
    // No consent is asked on the contact form, so none is recorded.
    assert!(!lead.consent_given);
    assert_eq!(
        (&lead.consent_text, &lead.consent_version, &lead.consent_at),
        (&None, &None, &None)
    );
    assert_eq!(lead.ip.as_deref(), Some("192.0.2.44"));
    assert_eq!(lead.user_agent.as_deref(), Some("ContactAgent/2"));
    assert_eq!(
        lead.page_url.as_deref(),
        Some("https://milepost.example/contact"),
        "without page_url the Referer header is kept"
    );
    assert_eq!(lead.utm_source.as_deref(), Some("newsletter"));
}

// --- 3: validation -----------------------------------------------------------------------------------------------

const NAME_MIN: &str = "Name must be at least 2 characters";
const NAME_MAX: &str = "Name must be less than 100 characters";
const NAME_LETTERS: &str = "Name can only contain letters, spaces, hyphens, and apostrophes";
const EMAIL_FORMAT: &str = "Please enter a valid email address";
const EMAIL_MAX: &str = "Email must be less than 255 characters";
const PHONE: &str = "Please enter a valid US phone number";
const COMPANY_MAX: &str = "Company name must be less than 200 characters";
const INSURANCE_TYPE: &str = "Please select an insurance type";
const VEHICLES_REQUIRED: &str = "Please enter the number of vehicles";
const VEHICLES_FORMAT: &str = "Invalid vehicle count format";
const VEHICLES_RANGE: &str = "Number of vehicles must be from 1 to 100,000";
const DOT: &str = "DOT number must be 1-8 digits";
const CONSENT: &str = "You must agree to our communication terms";
const SUBJECT_MIN: &str = "Subject must be at least 5 characters";
const SUBJECT_MAX: &str = "Subject must be less than 200 characters";
const MESSAGE_MIN: &str = "Message must be at least 10 characters";
const MESSAGE_MAX: &str = "Message must be less than 2000 characters";

/// An e-mail address of exactly `length` characters, valid in form.
fn email_of_length(length: usize) -> String {
    let local = "a".repeat(64);
    let domain_label = "b".repeat(length - 64 - 1 - ".com".len());
    let email = format!("{local}@{domain_label}.com");
    assert_eq!(email.len(), length);
    email
}

/// Sends `body`; exactly `field` must fail, with `message`, and nothing else.
fn assert_one_error(
    client: &Client,
    path: &str,
    body: Value,
    field: &str,
    message: &str,
    case: &str,
) {
    let (status, value) = send(client, path, &body);
    assert_eq!(status, Status::UnprocessableEntity, "{case}: {value}");
    let errors = errors_of(&value);
    let expected = BTreeMap::from([(field.to_string(), message.to_string())]);
    assert_eq!(errors, expected, "{case}");
}

/// Each case (`base` with one field set to a value) is answered 422 with that field's one message; an empty body,
/// with one message for each field of `everything_missing`.
fn assert_every_rule(
    client: &Client,
    path: &str,
    base: Value,
    cases: Vec<(&str, Value, &str)>,
    everything_missing: &[(&str, &str)],
) {
    for (field, sent, message) in cases {
        let case = format!("{path}: {field} = {sent}");
        let body = with(base.clone(), field, sent);
        assert_one_error(client, path, body, field, message, &case);
    }
    let (status, value) = send(client, path, &json!({}));
    assert_eq!(status, Status::UnprocessableEntity);
    let expected = everything_missing
        .iter()
        .map(|(field, message)| (field.to_string(), message.to_string()));
    assert_eq!(errors_of(&value), BTreeMap::from_iter(expected));
}

#[test]
fn every_quote_rule_answers_422_with_the_spec_message() {
    let (client, database) = app("quote-rules");
    let cases: Vec<(&str, Value, &str)> = vec![
        ("name", json!(""), NAME_MIN),
        ("name", json!(null), NAME_MIN),
        ("name", json!("A"), NAME_MIN),
        ("name", json!("   "), NAME_MIN),
        ("name", json!("1"), NAME_MIN),
        ("name", json!("a".repeat(101)), NAME_MAX),
        ("name", json!("7".repeat(101)), NAME_MAX),
        ("name", json!("R2-D2"), NAME_LETTERS),
        ("name", json!("Dana_Smith"), NAME_LETTERS),
        ("email", json!(""), EMAIL_FORMAT),
        ("email", json!("not-an-email"), EMAIL_FORMAT),
        ("email", json!("a@b"), EMAIL_FORMAT),
        ("email", json!("dana@@example.com"), EMAIL_FORMAT),
        ("email", json!("dana smith@example.com"), EMAIL_FORMAT),
        ("email", json!(email_of_length(256)), EMAIL_MAX),
        ("phone", json!("12345"), PHONE),
        ("phone", json!("+44 20 7946 0958"), PHONE),
        ("phone", json!("555-210-014x"), PHONE),
        ("phone", json!("055-210-0142"), PHONE),
        ("company", json!("c".repeat(201)), COMPANY_MAX),
        ("insurance_type", json!(""), INSURANCE_TYPE),
        ("insurance_type", json!(null), INSURANCE_TYPE),
        ("insurance_type", json!("boat"), INSURANCE_TYPE),
        ("insurance_type", json!("Dump"), INSURANCE_TYPE),
        ("vehicle_count", json!(null), VEHICLES_REQUIRED),
        ("vehicle_count", json!(""), VEHICLES_REQUIRED),
        ("vehicle_count", json!(0), VEHICLES_RANGE),
        ("vehicle_count", json!(-1), VEHICLES_RANGE),
        ("vehicle_count", json!(200_000), VEHICLES_RANGE),
        ("vehicle_count", json!(2.5), VEHICLES_FORMAT),
        ("vehicle_count", json!("5-10"), VEHICLES_FORMAT),
        ("vehicle_count", json!("10+"), VEHICLES_FORMAT),
        ("vehicle_count", json!("three"), VEHICLES_FORMAT),
        ("dot_number", json!("123456789"), DOT),
        ("dot_number", json!("12ab"), DOT),
        ("dot_number", json!("-1234"), DOT),
        ("consent", json!(false), CONSENT),
        ("consent", json!(null), CONSENT),
        ("consent", json!("no"), CONSENT),
        ("consent", json!(0), CONSENT),
    ];
    let everything_missing = [
        ("name", NAME_MIN),
        ("email", EMAIL_FORMAT),
        ("insurance_type", INSURANCE_TYPE),
        ("vehicle_count", VEHICLES_REQUIRED),
        ("consent", CONSENT),
    ];
    assert_every_rule(&client, QUOTE, quote_body(), cases, &everything_missing);
    assert_eq!(row_count(&database), 0, "nothing is stored on 422");
}

#[test]
fn every_contact_rule_answers_422_with_the_spec_message() {
    let (client, database) = app("contact-rules");
    let cases: Vec<(&str, Value, &str)> = vec![
        ("name", json!(""), NAME_MIN),
        ("name", json!("A"), NAME_MIN),
        ("name", json!("a".repeat(101)), NAME_MAX),
        ("name", json!("R2-D2"), NAME_LETTERS),
        ("name", json!("Luis <b>"), NAME_LETTERS),
        ("email", json!(""), EMAIL_FORMAT),
        ("email", json!("luis.example.com"), EMAIL_FORMAT),
        ("email", json!("luis@example"), EMAIL_FORMAT),
        ("email", json!(email_of_length(256)), EMAIL_MAX),
        ("subject", json!(""), SUBJECT_MIN),
        ("subject", json!(null), SUBJECT_MIN),
        ("subject", json!("Hi"), SUBJECT_MIN),
        ("subject", json!("   Hi   "), SUBJECT_MIN),
        ("subject", json!("<<ab>>"), SUBJECT_MIN),
        ("subject", json!("s".repeat(201)), SUBJECT_MAX),
        ("message", json!(""), MESSAGE_MIN),
        ("message", json!("too short"), MESSAGE_MIN),
        ("message", json!("   short    "), MESSAGE_MIN),
        ("message", json!("m".repeat(2001)), MESSAGE_MAX),
    ];
    let everything_missing = [
        ("name", NAME_MIN),
        ("email", EMAIL_FORMAT),
        ("subject", SUBJECT_MIN),
        ("message", MESSAGE_MIN),
    ];
    assert_every_rule(&client, CONTACT, contact_body(), cases, &everything_missing);
    assert_eq!(row_count(&database), 0, "nothing is stored on 422");
}

#[test]
fn limits_are_inclusive() {
    let (client, database) = app("limits");
    let quote = json!({
        "name": "N".repeat(100),
        "email": email_of_length(255),
        "company": "c".repeat(200),
        "insurance_type": "other",
        "vehicle_count": 1,
        "dot_number": "12345678",
        "consent": "yes",
    });
    created(&client, QUOTE, &quote);
    let short = json!({
        "name": "Al",
        "email": "al@example.com",
        "insurance_type": "liability",
        "vehicle_count": "1",
        "dot_number": "1",
        "consent": 1,
    });
    created(&client, QUOTE, &short);
    let contact = json!({
        "name": "Lu",
        "email": "lu@example.com",
        "subject": "s".repeat(200),
        "message": "m".repeat(2000),
    });
    created(&client, CONTACT, &contact);
    let shortest = json!({
        "name": "Lu",
        "email": "lu2@example.com",
        "subject": "Hello",
        "message": "0123456789",
    });
    created(&client, CONTACT, &shortest);
    let leads = stored(&database);
    assert_eq!(leads.len(), 4);
    assert_eq!(leads[0].name.chars().count(), 100);
    assert_eq!(leads[0].email.len(), 255);
    assert_eq!(leads[0].company.as_deref().map(str::len), Some(200));
    assert_eq!(leads[2].subject.as_deref().map(str::len), Some(200));
    assert_eq!(leads[2].message.as_deref().map(str::len), Some(2000));
}

#[test]
fn names_typed_with_combining_accents_are_letters() {
    let (client, database) = app("nfd-name");
    let name = "Jose\u{301} Nun\u{303}ez";
    created(&client, QUOTE, &with(quote_body(), "name", name));
    let stored_name = stored(&database)[0].name.clone();
    assert!(
        stored_name == name || stored_name == "Jos\u{e9} N\u{fa}\u{f1}ez",
        "{stored_name:?}"
    );
}

// --- 4: sanitising -----------------------------------------------------------------------------------------------

#[test]
fn markup_and_script_text_are_stripped_from_subjects() {
    let (client, database) = app("sanitise-subject");
    let subjects = [
        (
            "<script>alert(1)</script> Need a COI",
            "scriptalert(1)/script Need a COI",
        ),
        (
            "javascript:alert(1) policy question",
            "alert(1) policy question",
        ),
        ("JaVaScRiPt:void(0) renewal", "void(0) renewal"),
        ("javajavascript:script:x renewal", "x renewal"),
        (
            "<img src=x onerror=alert(1)> about cargo",
            "img src=x alert(1) about cargo",
        ),
        ("Question onLoad = x on cargo", "Question  x on cargo"),
        ("  Question on insurance  ", "Question on insurance"),
    ];
    for (n, (subject, _)) in subjects.iter().enumerate() {
        let body = with(
            contact_from(&format!("s{n}@example.com")),
            "subject",
            *subject,
        );
        created(&client, CONTACT, &body);
    }
    let leads = stored(&database);
    assert_eq!(leads.len(), subjects.len());
    for (lead, (sent, expected)) in leads.iter().zip(subjects) {
        let stored = lead.subject.as_deref().unwrap();
        assert_eq!(stored, expected, "{sent}");
        assert!(!stored.contains(['<', '>']), "{stored}");
        assert!(!stored.to_lowercase().contains("javascript:"), "{stored}");
        assert!(!stored.to_lowercase().contains("onerror="), "{stored}");
        assert_eq!(lead.company, None);
    }
}

#[test]
fn names_with_markup_or_script_text_are_rejected() {
    let (client, database) = app("sanitise-name");
    for (path, base) in [(QUOTE, quote_body()), (CONTACT, contact_body())] {
        for name in [
            "<script>alert(1)</script>",
            "<b>Dana</b>",
            "Dana <img src=x onerror=alert(1)>",
            "javascript:alert(1)",
            "Dana onerror=alert",
            "Dana\"><svg onload=alert(1)>",
        ] {
            let body = with(base.clone(), "name", name);
            assert_one_error(&client, path, body, "name", NAME_LETTERS, name);
        }
    }
    assert_eq!(row_count(&database), 0);
}

#[test]
fn a_quote_company_is_stored_sanitised() {
    let (client, database) = app("sanitise-company");
    let body = with(
        quote_body(),
        "company",
        " <b>Acme</b> Freight onclick=steal() ",
    );
    created(&client, QUOTE, &body);
    let company = stored(&database)[0].company.clone().unwrap();
    assert_eq!(company, "bAcme/b Freight steal()");
}

// --- 5: rate limits ----------------------------------------------------------------------------------------------

#[test]
fn a_fourth_contact_from_one_email_in_ten_minutes_is_refused() {
    let (client, database) = app("email-limit");
    for n in 0..3 {
        let body = with(
            contact_from("repeat@example.com"),
            "subject",
            format!("Question number {n}"),
        );
        created(&client, CONTACT, &body);
    }
    // The same address however it is written.
    let fourth = contact_from("  REPEAT@Example.com ");
    let (status, value) = send(&client, CONTACT, &fourth);
    assert_eq!(status, Status::TooManyRequests);
    assert_eq!(
        value,
        json!({
            "error": "Too Many Attempts",
            "message": "Please wait 10 minutes before submitting another message.",
        })
    );
    assert_eq!(
        row_count(&database),
        3,
        "nothing stored for the refused one"
    );

    // Another address is not affected, and the limit is the contact form's only.
    created(&client, CONTACT, &contact_from("other@example.com"));
    created(
        &client,
        QUOTE,
        &with(quote_body(), "email", "repeat@example.com"),
    );
    let leads = stored(&database);
    assert_eq!(leads.len(), 5);
    assert_eq!(
        leads
            .iter()
            .filter(|l| l.email == "repeat@example.com" && l.source.as_str() == "contact")
            .count(),
        3
    );
}

#[test]
fn invalid_contacts_do_not_use_up_the_email_limit() {
    let (client, database) = app("email-limit-invalid");
    for _ in 0..5 {
        let body = with(contact_from("careful@example.com"), "message", "short");
        let (status, _) = send(&client, CONTACT, &body);
        assert_eq!(status, Status::UnprocessableEntity);
    }
    for _ in 0..3 {
        created(&client, CONTACT, &contact_from("careful@example.com"));
    }
    assert_eq!(row_count(&database), 3);
}

#[test]
fn the_ip_limit_counts_both_forms_per_client_address() {
    let (client, database) = app_with("ip-limit", |f| f.merge(("ip_limit", 2)));
    let visitor = "203.0.113.7:5000";
    let (status, _) = answer(post_json_from(&client, QUOTE, visitor, &quote_body()));
    assert_eq!(status, Status::Created);
    let (status, _) = answer(post_json_from(&client, CONTACT, visitor, &contact_body()));
    assert_eq!(status, Status::Created);
    for (path, body) in [
        (QUOTE, quote_body()),
        (CONTACT, contact_from("x@example.com")),
    ] {
        let (status, value) = answer(post_json_from(&client, path, visitor, &body));
        assert_eq!(status, Status::TooManyRequests, "{path}");
        assert_eq!(value["error"], "Too Many Attempts");
        // A quote is a request, a contact message a message.
        let sent = if path == QUOTE { "request" } else { "message" };
        assert_eq!(
            value["message"],
            format!("Please wait 10 minutes before submitting another {sent}.")
        );
    }
    // Another port of the same address is the same visitor.
    let (status, _) = answer(post_json_from(
        &client,
        QUOTE,
        "203.0.113.7:6000",
        &quote_body(),
    ));
    assert_eq!(status, Status::TooManyRequests);
    // Another address has its own budget.
    let (status, _) = answer(post_json_from(
        &client,
        QUOTE,
        "198.51.100.8:5000",
        &quote_body(),
    ));
    assert_eq!(status, Status::Created);
    let ips: Vec<_> = stored(&database)
        .into_iter()
        .map(|l| l.ip.unwrap_or_default())
        .collect();
    assert_eq!(ips, ["203.0.113.7", "203.0.113.7", "198.51.100.8"]);
}

#[test]
fn a_refused_submission_takes_no_ip_slot() {
    let (client, database) = app_with("ip-release", |f| f.merge(("ip_limit", 4)));
    let visitor = "203.0.113.9:5000";
    for _ in 0..3 {
        let (status, _) = answer(post_json_from(
            &client,
            CONTACT,
            visitor,
            &contact_from("busy@example.com"),
        ));
        assert_eq!(status, Status::Created);
    }
    // Refused by the e-mail limit: the IP slot it took is given back.
    let (status, _) = answer(post_json_from(
        &client,
        CONTACT,
        visitor,
        &contact_from("busy@example.com"),
    ));
    assert_eq!(status, Status::TooManyRequests);
    let (status, _) = answer(post_json_from(&client, QUOTE, visitor, &quote_body()));
    assert_eq!(status, Status::Created, "the 4th IP slot is still free");
    let (status, _) = answer(post_json_from(&client, QUOTE, visitor, &quote_body()));
    assert_eq!(status, Status::TooManyRequests);
    assert_eq!(row_count(&database), 4);
}

#[test]
fn x_forwarded_for_from_an_untrusted_peer_is_ignored() {
    let (client, database) = app_with("xff-untrusted", |f| {
        f.merge(("ip_limit", 2))
            .merge(("trusted_proxies", vec!["10.0.0.2"]))
    });
    let post = |forwarded: &str| {
        let response = client
            .post(QUOTE)
            .header(ContentType::JSON)
            .header(Header::new("X-Forwarded-For", forwarded.to_string()))
            .remote(ip("203.0.113.7:5000"))
            .body(quote_body().to_string())
            .dispatch();
        answer(response).0
    };
    assert_eq!(post("198.51.100.1"), Status::Created);
    assert_eq!(post("198.51.100.2"), Status::Created);
    assert_eq!(
        post("198.51.100.3"),
        Status::TooManyRequests,
        "a forged header does not buy a new budget"
    );
    assert_eq!(post("10.0.0.2, 198.51.100.4"), Status::TooManyRequests);
    let ips: Vec<_> = stored(&database).into_iter().map(|l| l.ip).collect();
    assert_eq!(
        ips,
        [Some("203.0.113.7".into()), Some("203.0.113.7".into())],
        "the peer address is stored, not the header"
    );
}

#[test]
fn x_forwarded_for_from_a_trusted_proxy_is_believed() {
    let (client, database) = app_with("xff-trusted", |f| {
        f.merge(("ip_limit", 2))
            .merge(("trusted_proxies", vec!["10.0.0.2"]))
    });
    let post = |forwarded: Option<&str>| {
        let mut request = client
            .post(QUOTE)
            .header(ContentType::JSON)
            .remote(ip("10.0.0.2:443"))
            .body(quote_body().to_string());
        if let Some(forwarded) = forwarded {
            request = request.header(Header::new("X-Forwarded-For", forwarded.to_string()));
        }
        answer(request.dispatch()).0
    };
    assert_eq!(post(Some("198.51.100.1")), Status::Created);
    assert_eq!(post(Some("198.51.100.1")), Status::Created);
    assert_eq!(post(Some("198.51.100.1")), Status::TooManyRequests);
    // Each client behind the proxy has its own budget.
    assert_eq!(post(Some("198.51.100.2")), Status::Created);
    // The hop the proxy appended counts, not one the client put first.
    assert_eq!(
        post(Some("198.51.100.99, 198.51.100.1")),
        Status::TooManyRequests
    );
    assert_eq!(post(Some("198.51.100.1, 198.51.100.3")), Status::Created);
    // No header: the proxy itself is the client.
    assert_eq!(post(None), Status::Created);
    let ips: Vec<_> = stored(&database)
        .into_iter()
        .map(|l| l.ip.unwrap_or_default())
        .collect();
    assert_eq!(
        ips,
        [
            "198.51.100.1",
            "198.51.100.1",
            "198.51.100.2",
            "198.51.100.3",
            "10.0.0.2"
        ]
    );
}

// --- 6: spam traps -----------------------------------------------------------------------------------------------

#[test]
fn the_honeypot_drops_quietly_and_a_too_fast_lead_is_kept_marked() {
    let (client, database) = app_with("spam", |f| f.merge(("ip_limit", 3)));
    let honeypot = [
        (QUOTE, with(quote_body(), "website", "http://spam.example")),
        (CONTACT, with(contact_body(), "website", "x")),
    ];
    for (path, body) in &honeypot {
        let (status, value) = send(&client, path, body);
        assert_eq!(status, Status::Created, "{body}");
        assert!(value["id"].is_i64(), "answered like a success: {value}");
    }
    // Spam even when invalid: no hint that the trap was noticed.
    let (status, _) = send(&client, QUOTE, &json!({ "website": "x" }));
    assert_eq!(status, Status::Created);
    // Plain form posts too.
    let response = post_form(
        &client,
        QUOTE,
        &[
            ("name", "Bot"),
            ("email", "bot@example.com"),
            ("website", "x"),
        ],
    );
    assert_eq!(response.status(), Status::SeeOther);
    assert_eq!(row_count(&database), 0, "nothing stored");
    // Faster than a person types (issue 36): stored, marked, and checked like any lead (a 422 when invalid).
    let fast = created(&client, QUOTE, &with(quote_body(), "elapsed_ms", 300));
    let instant = created(&client, CONTACT, &with(contact_body(), "elapsed_ms", "0"));
    let invalid = send(&client, QUOTE, &json!({ "elapsed_ms": 10 })).0;
    assert_eq!(invalid, Status::UnprocessableEntity);
    // 1500 ms is a person; dropped spam took no rate-limit slot (ip_limit is 3, the two kept leads took two).
    let person = created(&client, QUOTE, &with(quote_body(), "elapsed_ms", 1500));
    let marks: Vec<(i64, bool)> = stored(&database)
        .iter()
        .map(|lead| (lead.id, lead.suspected_spam))
        .collect();
    assert_eq!(marks, [(fast, true), (instant, true), (person, false)]);
}

// --- 7: idempotency ----------------------------------------------------------------------------------------------

#[test]
fn a_repeated_submission_id_is_stored_once() {
    let (client, database) = app_with("idempotent", |f| f.merge(("ip_limit", 2)));
    let body = with(quote_body(), "submission_id", "b6a4f7e2-0001-repeat");
    let first = created(&client, QUOTE, &body);
    let again = created(&client, QUOTE, &body);
    assert_eq!(first, again);
    // A retry with changed fields still finds the first lead and changes nothing.
    let changed = with(body.clone(), "company", "Changed Name Inc");
    assert_eq!(created(&client, QUOTE, &changed), first);
    let leads = stored(&database);
    assert_eq!(leads.len(), 1);
    assert_eq!(leads[0].id, first);
    assert_eq!(leads[0].company.as_deref(), Some("Lone Star Haulers"));
    assert_eq!(
        leads[0].submission_id.as_deref(),
        Some("b6a4f7e2-0001-repeat")
    );
    // Repeats took no IP slot (ip_limit is 2): one more new lead fits.
    let other = with(quote_body(), "submission_id", "b6a4f7e2-0002-repeat");
    assert_ne!(created(&client, QUOTE, &other), first);
    assert_eq!(row_count(&database), 2);
}

#[test]
fn a_repeated_contact_takes_no_email_slot() {
    let (client, database) = app("idempotent-contact");
    let body = with(contact_body(), "submission_id", "contact-repeat-0001");
    let first = created(&client, CONTACT, &body);
    for _ in 0..5 {
        assert_eq!(created(&client, CONTACT, &body), first);
    }
    // Two more new messages from the same address still fit in its 3.
    for n in 2..4 {
        let body = with(
            contact_body(),
            "submission_id",
            format!("contact-repeat-000{n}"),
        );
        created(&client, CONTACT, &body);
    }
    assert_eq!(row_count(&database), 3);
}

// --- 8: malformed and hostile bodies -----------------------------------------------------------------------------

/// A JSON error body with `error` and `message`, never a 500.
fn assert_json_error(response: LocalResponse<'_>, expected: Status, case: &str) {
    let (status, value) = answer(response);
    assert_eq!(status, expected, "{case}: {value}");
    assert!(value["error"].is_string(), "{case}: {value}");
    assert!(value["message"].is_string(), "{case}: {value}");
}

#[test]
fn a_database_locked_by_another_program_answers_503_and_keeps_nothing_half_done() {
    let (client, database) = app("locked");
    // Another program (a stuck admin tool, say) holds the write lock past the 5 s busy timeout.
    let other = rusqlite::Connection::open(&database).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    let response = post_json(&client, QUOTE, &quote_body());
    assert_json_error(
        response,
        Status::ServiceUnavailable,
        "write lock held elsewhere",
    );
    other.execute_batch("ROLLBACK").unwrap();
    drop(other);
    // Once it lets go the same submission goes through: the refused one took no rate-limit slot and left no row.
    let response = post_json(&client, QUOTE, &quote_body());
    assert_eq!(response.status(), Status::Created);
    assert_eq!(stored(&database).len(), 1);
}

#[test]
fn unreadable_json_answers_400() {
    let (client, database) = app("bad-json");
    let deep = "[".repeat(10_000);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("not JSON", b"{name: Dana".to_vec()),
        ("empty", Vec::new()),
        ("trailing garbage", br#"{"name":"Dana"} junk"#.to_vec()),
        ("an array", br#"[{"name":"Dana"}]"#.to_vec()),
        ("a string", br#""name=Dana""#.to_vec()),
        ("a number", b"42".to_vec()),
        ("null", b"null".to_vec()),
        ("an object for a field", br#"{"name":{"a":1}}"#.to_vec()),
        ("an array for a field", br#"{"email":["a@b.com"]}"#.to_vec()),
        (
            "an object for an extra",
            br#"{"utm_source":{"a":1}}"#.to_vec(),
        ),
        ("invalid UTF-8", b"{\"name\":\"Dana \xff\xfe\"}".to_vec()),
        ("a lone surrogate", br#"{"name":"\ud800"}"#.to_vec()),
        ("deep nesting", deep.into_bytes()),
    ];
    for path in [QUOTE, CONTACT] {
        for (case, body) in &cases {
            let response = post_raw(&client, path, Some(ContentType::JSON), body);
            assert_json_error(response, Status::BadRequest, &format!("{path}: {case}"));
        }
    }
    assert_eq!(row_count(&database), 0);
}

#[test]
fn other_content_types_answer_415() {
    let (client, database) = app("content-type");
    let body = quote_body().to_string();
    for content_type in [
        Some(ContentType::Plain),
        Some(ContentType::XML),
        Some(ContentType::FormData),
        Some(ContentType::HTML),
        None,
    ] {
        for path in [QUOTE, CONTACT] {
            let case = format!("{path}: {content_type:?}");
            let response = post_raw(&client, path, content_type.clone(), &body);
            assert_json_error(response, Status::UnsupportedMediaType, &case);
        }
    }
    assert_eq!(row_count(&database), 0);
    // A charset parameter is still JSON.
    let response = post_raw(
        &client,
        QUOTE,
        Some(ContentType::new("application", "json").with_params(("charset", "utf-8"))),
        &body,
    );
    assert_eq!(response.status(), Status::Created);
}

#[test]
fn a_body_over_64_kib_answers_413() {
    let (client, database) = app("too-large");
    const LIMIT: usize = 64 * 1024;
    /// A valid contact message padded with an ignored field to exactly `length` bytes.
    fn padded(length: usize, email: &str) -> String {
        let head = contact_from(email).to_string();
        let head = head.strip_suffix('}').unwrap();
        let frame = head.len() + r#","padding":""}"#.len();
        format!(r#"{head},"padding":"{}"}}"#, "x".repeat(length - frame))
    }
    let exact = padded(LIMIT, "fits@example.com");
    assert_eq!(exact.len(), LIMIT);
    let response = post_raw(&client, CONTACT, Some(ContentType::JSON), &exact);
    assert_eq!(response.status(), Status::Created, "64 KiB exactly fits");

    let over = padded(LIMIT + 1, "over@example.com");
    let response = post_raw(&client, CONTACT, Some(ContentType::JSON), &over);
    assert_json_error(response, Status::PayloadTooLarge, "64 KiB + 1");
    let huge = format!(r#"{{"name":"{}"}}"#, "a".repeat(1024 * 1024));
    for path in [QUOTE, CONTACT] {
        let response = post_raw(&client, path, Some(ContentType::JSON), &huge);
        assert_json_error(response, Status::PayloadTooLarge, "1 MiB");
        // A browser's plain form post gets a page for people: the form again, saying what went wrong.
        let response = post_raw(&client, path, Some(ContentType::Form), &huge);
        assert_eq!(response.status(), Status::PayloadTooLarge, "1 MiB form");
        assert_eq!(
            response.content_type(),
            Some(ContentType::HTML),
            "1 MiB form"
        );
        let page = response.into_string().unwrap();
        assert!(page.contains("too long for us to accept"), "{path}");
        assert!(
            page.contains("<form"),
            "{path}: the form is there to try again"
        );
    }
    let leads = stored(&database);
    assert_eq!(leads.len(), 1);
    assert_eq!(leads[0].email, "fits@example.com");
}

#[test]
fn hostile_strings_never_cause_a_server_error() {
    let (client, database) = app_with("hostile", |f| f.merge(("ip_limit", 100_000)));
    let hostile: Vec<String> = vec![
        "x".repeat(10_000),
        "\u{0}".into(),
        "Dana\u{0}Smith".into(),
        "🚚🚚 Hauling 🚛".into(),
        "🚚".repeat(3_000),
        "'); DROP TABLE leads;--".into(),
        "Robert'); DROP TABLE leads;--".into(),
        "\" OR 1=1 --".into(),
        "%00%27%22".into(),
        "\u{202e}gnp.exe".into(),
        "\r\n\r\nX-Injected: 1".into(),
        "\u{FEFF}\u{200B}".into(),
        "TRUCKINS_FORM_MESSAGE".into(),
    ];
    let mut accepted = 0;
    let mut sent = 0;
    for (path, base, fields) in [
        (
            QUOTE,
            quote_body(),
            &[
                "name",
                "email",
                "phone",
                "company",
                "insurance_type",
                "vehicle_count",
                "dot_number",
                "consent",
                "page_url",
                "utm_source",
                "submission_id",
            ][..],
        ),
        (
            CONTACT,
            contact_body(),
            &["name", "email", "subject", "message", "referrer", "gclid"][..],
        ),
    ] {
        for field in fields {
            for value in &hostile {
                sent += 1;
                let body = with(
                    with(base.clone(), "email", format!("h{sent}@example.com")),
                    field,
                    value.as_str(),
                );
                let (status, answer) = send(&client, path, &body);
                let case = format!(
                    "{path} {field} = {:?}",
                    value.chars().take(40).collect::<String>()
                );
                // A submission id that is not 16-100 plain characters is refused outright (400).
                let refused_id = *field == "submission_id" && status == Status::BadRequest;
                assert!(
                    status == Status::Created
                        || status == Status::UnprocessableEntity
                        || refused_id,
                    "{case}: {status} {answer}"
                );
                if status == Status::Created {
                    accepted += 1;
                }
            }
        }
    }
    assert!(accepted > 0);
    assert_eq!(row_count(&database), accepted, "the table is still there");

    // What was accepted was stored as sent (trimmed), byte for byte.
    let id = created(
        &client,
        CONTACT,
        &json!({
            "name": "Robert Tables",
            "email": "bobby@example.com",
            "subject": "'); DROP TABLE leads;-- 🚚",
            "message": "Null \u{0} byte, emoji 🚛 and '); DROP TABLE leads;-- in one",
            "utm_source": "x".repeat(10_000),
            "page_url": "p".repeat(10_000),
        }),
    );
    let lead = stored(&database).into_iter().find(|l| l.id == id).unwrap();
    assert_eq!(lead.subject.as_deref(), Some("'); DROP TABLE leads;-- 🚚"));
    assert_eq!(
        lead.message.as_deref(),
        // The NUL, a control character, is removed; everything else is kept as sent.
        Some("Null  byte, emoji 🚛 and '); DROP TABLE leads;-- in one")
    );
    assert_eq!(lead.utm_source.map(|s| s.len()), Some(200), "capped");
    assert_eq!(lead.page_url.map(|s| s.len()), Some(2000), "capped");
    // A submission id is refused, not cut, when it is not 16 to 100 plain characters (two attempts could share a cut id).
    let response = client
        .post(QUOTE)
        .header(ContentType::JSON)
        .body(with(quote_body(), "submission_id", "s".repeat(10_000)).to_string())
        .dispatch();
    assert_eq!(response.status(), Status::BadRequest);
    assert_eq!(row_count(&database), accepted + 1);

    // A 10,000-character User-Agent is kept, cut to 500 characters.
    let response = client
        .post(QUOTE)
        .header(ContentType::JSON)
        .header(Header::new("User-Agent", "🚚".repeat(10_000)))
        .body(with(quote_body(), "submission_id", "user-agent-long-1").to_string())
        .dispatch();
    assert_eq!(response.status(), Status::Created);
    let lead = stored(&database).pop().unwrap();
    assert_eq!(lead.user_agent.map(|ua| ua.chars().count()), Some(500));
}

// --- 9: forms without JavaScript ---------------------------------------------------------------------------------

const GOOD_QUOTE_FORM: [(&str, &str); 8] = [
    ("name", "Dana O'Neil"),
    ("email", "Dana@Example.com"),
    ("phone", "555 210 0142"),
    ("company", "Lone Star & Sons"),
    ("insurance_type", "cargo"),
    ("vehicle_count", "12"),
    ("dot_number", "7654321"),
    ("consent", "true"),
];

#[test]
fn a_plain_form_post_is_stored_and_redirected_to_thank_you() {
    let (client, database) = app("form-ok");
    let response = post_form(&client, QUOTE, &GOOD_QUOTE_FORM);
    assert_eq!(response.status(), Status::SeeOther);
    // The quote's details token rides along, for the page's "Speed up your quote" (issue 13).
    let location = response.headers().get_one("Location").unwrap().to_string();
    let token = location
        .strip_prefix("/get-quote/thank-you?details=")
        .unwrap_or_else(|| panic!("{location}"));
    assert!(
        token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()),
        "{token}"
    );
    let page = client
        .get(location.clone())
        .dispatch()
        .into_string()
        .unwrap();
    assert!(
        page.contains(&format!("name=\"details_token\" value=\"{token}\"")),
        "{page}"
    );
    let contact = [
        ("name", "Luis Ortega"),
        ("email", "luis@example.com"),
        ("subject", "Certificate + renewal"),
        ("message", "Line one\r\nLine two & more."),
        ("website", ""),
    ];
    let response = post_form(&client, CONTACT, &contact);
    assert_eq!(response.status(), Status::SeeOther);
    assert_eq!(
        response.headers().get_one("Location"),
        Some("/contact/thank-you")
    );
    for page in ["/get-quote/thank-you", "/contact/thank-you"] {
        assert_eq!(client.get(page).dispatch().status(), Status::Ok, "{page}");
    }

    let leads = stored(&database);
    assert_eq!(leads.len(), 2);
    let (quote, message) = (&leads[0], &leads[1]);
    assert_eq!(quote.source.as_str(), "quote");
    assert_eq!(quote.name, "Dana O'Neil");
    assert_eq!(quote.email, "dana@example.com");
    assert_eq!(quote.phone.as_deref(), Some("+15552100142"));
    assert_eq!(quote.company.as_deref(), Some("Lone Star & Sons"));
    assert_eq!(quote.insurance_type.as_deref(), Some("cargo"));
    assert_eq!(quote.vehicle_count, Some(12));
    assert_eq!(quote.dot_number.as_deref(), Some("7654321"));
    assert!(quote.consent_given);
    assert_eq!(quote.consent_text.as_deref(), Some(consent_text().trim()));
    assert_eq!(message.source.as_str(), "contact");
    assert_eq!(message.subject.as_deref(), Some("Certificate + renewal"));
    assert_eq!(
        message.message.as_deref(),
        Some("Line one\nLine two & more.")
    );
}

#[test]
fn a_plain_form_post_is_never_refused_for_what_our_form_does_not_send() {
    let (client, database) = app("form-odd");
    // A malformed submission id did not come from our form (it sends none): it is ignored, the lead is stored.
    let mut pairs = GOOD_QUOTE_FORM.to_vec();
    pairs.push(("submission_id", "<not an id>"));
    let response = post_form(&client, QUOTE, &pairs);
    assert_eq!(response.status(), Status::SeeOther);
    let leads = stored(&database);
    assert_eq!(leads.len(), 1);
    assert_eq!(leads[0].submission_id, None);

    // A body that is not text gets the form again with a sentence for people, not JSON; nothing is stored.
    for path in [QUOTE, CONTACT] {
        let response = post_raw(&client, path, Some(ContentType::Form), b"name=Dana\xff\xfe");
        assert_eq!(response.status(), Status::BadRequest, "{path}");
        assert_eq!(response.content_type(), Some(ContentType::HTML), "{path}");
        let page = response.into_string().unwrap();
        assert!(page.contains("could not read"), "{path}");
        assert!(page.contains("<form"), "{path}");
    }
    assert_eq!(stored(&database).len(), 1);
}

#[test]
fn an_invalid_plain_quote_form_comes_back_filled_in_with_the_errors() {
    let (client, database) = app("form-quote-invalid");
    let response = post_form(
        &client,
        QUOTE,
        &[
            ("name", "R2-D2"),
            ("email", "dana@"),
            ("phone", "12345"),
            ("company", "<b>Acme"),
            ("insurance_type", "dump"),
            ("vehicle_count", "0"),
            ("dot_number", "12ab"),
        ],
    );
    assert_eq!(response.status(), Status::UnprocessableEntity);
    assert_eq!(response.content_type(), Some(ContentType::HTML));
    let html = response.into_string().unwrap();
    assert!(html.contains("Please correct the fields marked below."));
    for (field, message) in [
        ("name", NAME_LETTERS),
        ("email", EMAIL_FORMAT),
        ("phone", PHONE),
        ("vehicle_count", VEHICLES_RANGE),
        ("dot_number", DOT),
        ("consent", CONSENT),
        ("company", ""),
        ("insurance_type", ""),
    ] {
        assert_eq!(error_beside(&html, field), Some(message), "{field}");
    }
    for kept in [
        r#"name="name" value="R2-D2""#,
        r#"name="email" value="dana@""#,
        r#"name="phone" value="12345""#,
        r#"name="company" value="&lt;b&gt;Acme""#,
        r#"name="vehicle_count" value="0""#,
        r#"name="dot_number" value="12ab""#,
        r#"<option value="dump" selected="">"#,
    ] {
        assert!(html.contains(kept), "the page lacks {kept}");
    }
    assert!(html.contains("&lt;b&gt;Acme"));
    assert!(!html.contains("<b>Acme"), "typed markup is escaped");
    for field in [
        "name",
        "email",
        "phone",
        "vehicle_count",
        "dot_number",
        "consent",
    ] {
        let marked = format!(r#"id="correction-{field}" aria-invalid="true""#);
        assert!(
            html.contains(&marked),
            "{field} is marked invalid for screen readers"
        );
    }
    assert!(
        !html.contains(r#"id="correction-company" aria-invalid"#),
        "valid fields are not marked"
    );
    assert!(!html.contains("TRUCKINS_"), "every marker is filled");
    assert!(
        !html.contains(r#"data-fill="consent" checked"#),
        "consent was not given"
    );
    assert_eq!(row_count(&database), 0);
}

#[test]
fn an_invalid_plain_form_escapes_attribute_breakouts_and_keeps_consent() {
    let (client, database) = app("form-escape");
    let response = post_form(
        &client,
        QUOTE,
        &[
            ("name", "\"><script>alert(1)</script>"),
            ("email", "dana@example.com"),
            ("company", "O'Brien \"Fast\" & Co"),
            ("insurance_type", "hotshot"),
            ("vehicle_count", "2"),
            ("consent", "true"),
        ],
    );
    assert_eq!(response.status(), Status::UnprocessableEntity);
    let html = response.into_string().unwrap();
    assert!(!html.contains("<script>alert(1)"));
    assert!(html.contains(r#"value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;""#));
    assert!(html.contains(r#"value="O&#x27;Brien &quot;Fast&quot; &amp; Co""#));
    assert!(html.contains(r#"<option value="hotshot" selected="">"#));
    assert!(
        html.contains(r#"data-fill="consent" checked="""#),
        "consent kept"
    );
    assert_eq!(error_beside(&html, "name"), Some(NAME_LETTERS));
    assert_eq!(error_beside(&html, "consent"), Some(""));
    assert!(!html.contains("TRUCKINS_"));
    assert_eq!(row_count(&database), 0);
}

#[test]
fn an_invalid_plain_contact_form_comes_back_filled_in_with_the_errors() {
    let (client, database) = app("form-contact-invalid");
    let response = post_form(
        &client,
        CONTACT,
        &[
            ("name", "R2-D2"),
            ("email", "luis@example.com"),
            ("subject", "Hi"),
            ("message", "</textarea><script>alert(1)</script>"),
        ],
    );
    assert_eq!(response.status(), Status::UnprocessableEntity);
    assert_eq!(response.content_type(), Some(ContentType::HTML));
    assert_eq!(
        response.headers().get_one("Cache-Control"),
        Some("no-store")
    );
    let html = response.into_string().unwrap();
    assert!(html.contains("Please correct the fields marked below."));
    assert_eq!(error_beside(&html, "name"), Some(NAME_LETTERS));
    assert_eq!(error_beside(&html, "email"), Some(""));
    assert_eq!(error_beside(&html, "subject"), Some(SUBJECT_MIN));
    assert_eq!(error_beside(&html, "message"), Some(""));
    assert!(html.contains(r#"name="name" value="R2-D2""#));
    assert!(html.contains(r#"name="email" value="luis@example.com""#));
    assert!(html.contains(r#"name="subject" value="Hi""#));
    assert!(
        html.contains("&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;</textarea>"),
        "the message is kept, escaped, inside its textarea"
    );
    assert!(!html.contains("<script>alert(1)"));
    assert!(!html.contains("TRUCKINS_"));

    let response = post_form(
        &client,
        CONTACT,
        &[
            ("name", "Luis"),
            ("email", "luis@"),
            ("subject", "s".repeat(201).as_str()),
            ("message", "short"),
        ],
    );
    assert_eq!(response.status(), Status::UnprocessableEntity);
    let html = response.into_string().unwrap();
    assert_eq!(error_beside(&html, "name"), Some(""));
    assert_eq!(error_beside(&html, "email"), Some(EMAIL_FORMAT));
    assert_eq!(error_beside(&html, "subject"), Some(SUBJECT_MAX));
    assert_eq!(error_beside(&html, "message"), Some(MESSAGE_MIN));
    assert!(html.contains(">short</textarea>"));
    assert!(!html.contains("TRUCKINS_"));
    assert_eq!(row_count(&database), 0);
}

#[test]
fn a_rate_limited_plain_contact_form_says_so_on_the_page() {
    let (client, database) = app("form-limited");
    let message = [
        ("name", "Luis Ortega"),
        ("email", "luis@example.com"),
        ("subject", "Certificate"),
        ("message", "Please send a COI today."),
    ];
    for _ in 0..3 {
        assert_eq!(
            post_form(&client, CONTACT, &message).status(),
            Status::SeeOther
        );
    }
    let response = post_form(&client, CONTACT, &message);
    assert_eq!(response.status(), Status::TooManyRequests);
    assert_eq!(response.content_type(), Some(ContentType::HTML));
    let html = response.into_string().unwrap();
    assert!(
        html.contains(
            "Too Many Attempts. Please wait 10 minutes before submitting another message."
        )
    );
    assert!(
        html.contains(r#"name="subject" value="Certificate""#),
        "kept"
    );
    assert!(!html.contains("TRUCKINS_"));
    assert_eq!(row_count(&database), 3);
}

#[test]
fn typed_values_that_spell_a_marker_are_kept_as_typed() {
    let (client, _database) = app("form-marker-text");
    let response = post_form(
        &client,
        QUOTE,
        &[
            ("name", "TRUCKINS_VALUE_email"),
            ("email", "dana@"),
            ("phone", "TRUCKINS_ERROR_company"),
            ("company", "Acme"),
        ],
    );
    assert_eq!(response.status(), Status::UnprocessableEntity);
    let html = response.into_string().unwrap();
    assert!(
        html.contains(r#"name="name" value="TRUCKINS_VALUE_email""#),
        "the name as typed, not the e-mail"
    );
    assert!(html.contains(r#"name="phone" value="TRUCKINS_ERROR_company""#));
    assert_eq!(error_beside(&html, "email"), Some(EMAIL_FORMAT));
}

// --- 10: concurrency ---------------------------------------------------------------------------------------------

#[rocket::async_test]
async fn five_hundred_concurrent_leads_are_all_stored_once() {
    use rocket::local::asynchronous::Client;
    use std::sync::Arc;

    const WORKERS: usize = 50;
    const EACH: usize = 10;
    let database = common::temp_database("concurrent");
    let figment = common::figment(&database).merge(("ip_limit", 100_000));
    common::install_built();
    let client = Arc::new(
        Client::tracked(truckins::rocket_with(figment))
            .await
            .expect("the application builds"),
    );
    let mut tasks = Vec::new();
    for worker in 0..WORKERS {
        let client = Arc::clone(&client);
        tasks.push(rocket::tokio::spawn(async move {
            let mut answers = Vec::new();
            for n in 0..EACH {
                let submission = format!("load-{worker:04}-{n:08}");
                let body = with(
                    with(quote_body(), "submission_id", submission.as_str()),
                    "email",
                    format!("w{worker}n{n}@example.com"),
                );
                let response = client
                    .post(QUOTE)
                    .header(ContentType::JSON)
                    .remote(ip(&format!("198.51.100.{}:40000", worker + 1)))
                    .body(body.to_string())
                    .dispatch()
                    .await;
                let status = response.status();
                let text = response.into_string().await.unwrap_or_default();
                answers.push((submission, status, text));
            }
            answers
        }));
    }
    let mut ids = BTreeMap::new();
    for task in tasks {
        for (submission, status, text) in task.await.expect("the task finished") {
            assert_eq!(status, Status::Created, "{submission}: {text}");
            let value: Value = serde_json::from_str(&text).unwrap();
            let id = value["id"].as_i64().expect("an id");
            assert!(ids.insert(id, submission).is_none(), "id {id} given twice");
        }
    }
    assert_eq!(ids.len(), WORKERS * EACH);

    let leads = stored(&database);
    assert_eq!(leads.len(), WORKERS * EACH);
    let submissions: BTreeSet<_> = leads
        .iter()
        .map(|l| l.submission_id.clone().expect("a submission id"))
        .collect();
    assert_eq!(submissions.len(), WORKERS * EACH, "each submission once");
    for lead in &leads {
        assert_eq!(
            ids.get(&lead.id),
            lead.submission_id.as_ref(),
            "the id answered is the row stored"
        );
    }
}
