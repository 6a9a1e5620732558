//! The language of a lead (issue 15) on the server's side, none of it needing the Spanish pages: the API's `locale`
//! field (absent is English, `es` Spanish, anything else a 422 on the field), every message of a Spanish request
//! in Spanish (422, 429, 404 of the details, a body that cannot be read), the lead stored with its language and the
//! Spanish consent, the language in `leads list` and `leads export`, and migration 0009 on an older database.
//! What needs the Spanish pages (error pages under `/es`, the no-JS path) is in `spanish.rs`; the pages themselves
//! in both languages in `languages.rs`.

use std::path::{Path, PathBuf};

use crate::common::{consent_text, consent_text_es, consent_version, consent_version_es};
use rocket::http::{ContentType, Header, Status};
use rocket::local::blocking::Client;
use serde_json::{Value, json};
use truckins::store::{self, Lead, LeadFilter};

use crate::common;
use crate::common::forms::post_json;
use crate::common::process::truckins;

fn app(label: &str, ip_limit: usize) -> (Client, PathBuf) {
    let database = common::temp_database(label);
    let figment = common::figment(&database).merge(("ip_limit", ip_limit));
    (common::client_with(figment), database)
}

fn spanish(mut body: Value) -> Value {
    body["locale"] = json!("es");
    body
}

fn contact() -> Value {
    json!({
        "name": "Luis Ortega",
        "email": "luis@example.com",
        "subject": "Certificado de seguro",
        "message": "Necesito un certificado de seguro para un cliente nuevo.",
    })
}

/// Every stored lead, oldest first.
fn stored(database: &Path) -> Vec<Lead> {
    let pool = store::open(database, 1).unwrap();
    let mut leads = store::list(&pool, &LeadFilter::default()).unwrap();
    leads.reverse();
    leads
}

#[test]
fn a_spanish_request_gets_its_field_errors_in_spanish() {
    let (client, _) = app("es-422", 100);
    let mut quote = spanish(common::valid_quote());
    quote["name"] = json!("A");
    quote["email"] = json!("not-an-address");
    quote["dot_number"] = json!("12a");
    let (status, body) = post_json(&client, "/api/leads/quote", &quote);
    assert_eq!(status, Status::UnprocessableEntity, "{body}");
    assert_eq!(
        body["errors"],
        json!({
            "name": "El nombre debe tener al menos 2 caracteres",
            "email": "Escriba un correo electrónico válido",
            "dot_number": "El número DOT debe tener de 1 a 8 dígitos",
        })
    );
    let mut message = spanish(contact());
    message["subject"] = json!("Hola");
    let (status, body) = post_json(&client, "/api/leads/contact", &message);
    assert_eq!(status, Status::UnprocessableEntity);
    assert_eq!(
        body["errors"]["subject"],
        "El asunto debe tener al menos 5 caracteres"
    );
    // The same mistakes without a locale are told in English.
    quote["locale"] = Value::Null;
    let (_, body) = post_json(&client, "/api/leads/quote", &quote);
    assert_eq!(body["errors"]["name"], "Name must be at least 2 characters");
}

#[test]
fn a_spanish_request_over_the_limit_is_told_in_spanish() {
    let (client, _) = app("es-429", 1);
    let (status, _) = post_json(&client, "/api/leads/quote", &spanish(common::valid_quote()));
    assert_eq!(status, Status::Created);
    let (status, body) = post_json(&client, "/api/leads/quote", &spanish(common::valid_quote()));
    assert_eq!(status, Status::TooManyRequests);
    assert_eq!(
        body["message"],
        "Espere 10 minutos antes de enviar otra solicitud."
    );
    // The title is for programs: it stays as it was.
    assert_eq!(body["error"], "Too Many Attempts");
}

#[test]
fn an_unknown_locale_is_a_422_on_the_locale_field_in_english() {
    let (client, database) = app("bad-locale", 100);
    for locale in [json!("fr"), json!("ES"), json!("es-US"), json!(5)] {
        let mut quote = common::valid_quote();
        quote["locale"] = locale.clone();
        let (status, body) = post_json(&client, "/api/leads/quote", &quote);
        assert_eq!(status, Status::UnprocessableEntity, "{locale}: {body}");
        assert_eq!(
            body,
            json!({ "errors": { "locale": "The locale must be en or es." } }),
            "{locale}"
        );
    }
    assert!(stored(&database).is_empty());
}

#[test]
fn spanish_details_and_unreadable_bodies_are_answered_in_spanish() {
    let (client, _) = app("es-details", 100);
    let unknown = json!({ "details_token": "0123456789abcdef0123456789abcdef", "locale": "es" });
    let (status, body) = post_json(&client, "/api/leads/details", &unknown);
    assert_eq!(status, Status::NotFound);
    assert_eq!(
        body["message"],
        "No encontramos la solicitud de cotización de estos datos. Llámenos para dárnoslos."
    );
    let (_, quote) = post_json(&client, "/api/leads/quote", &common::valid_quote());
    let details =
        json!({ "details_token": quote["details_token"], "radius": "far", "locale": "es" });
    let (status, body) = post_json(&client, "/api/leads/details", &details);
    assert_eq!(status, Status::UnprocessableEntity);
    assert_eq!(
        body["errors"]["radius"],
        "Elija local, regional o larga distancia"
    );
    // A body that cannot be read names no language: the page that sent it does.
    let response = client
        .post("/api/leads/quote")
        .header(ContentType::JSON)
        .header(Header::new("Referer", "https://example.com/es/get-quote"))
        .body("{")
        .dispatch();
    assert_eq!(response.status(), Status::BadRequest);
    let body: Value = serde_json::from_str(&response.into_string().unwrap()).unwrap();
    let message = body["message"].as_str().unwrap();
    assert!(
        message.starts_with("El cuerpo de la solicitud no es JSON válido."),
        "{message}"
    );
}

#[test]
fn a_spanish_quote_is_stored_with_its_language_and_the_spanish_consent() {
    let (client, database) = app("es-stored", 100);
    let (status, body) = post_json(&client, "/api/leads/quote", &spanish(common::valid_quote()));
    assert_eq!(status, Status::Created, "{body}");
    let (status, _) = post_json(&client, "/api/leads/quote", &common::valid_quote());
    assert_eq!(status, Status::Created);
    let (status, _) = post_json(&client, "/api/leads/contact", &spanish(contact()));
    assert_eq!(status, Status::Created);
    let leads = stored(&database);
    let (es, en, message) = (&leads[0], &leads[1], &leads[2]);
    assert_eq!(es.language.to_string(), "es");
    assert_eq!(es.consent_text.as_deref(), Some(consent_text_es().trim()));
    assert_eq!(
        es.consent_version.as_deref(),
        Some(consent_version_es().trim())
    );
    assert_ne!(consent_text_es().trim(), consent_text().trim());
    assert_eq!(en.language.to_string(), "en");
    assert_eq!(en.consent_text.as_deref(), Some(consent_text().trim()));
    assert_eq!(
        en.consent_version.as_deref(),
        Some(consent_version().trim())
    );
    assert_eq!(message.language.to_string(), "es");
}

#[test]
fn list_and_export_show_each_lead_s_language() {
    let (client, database) = app("es-export", 100);
    post_json(&client, "/api/leads/quote", &spanish(common::valid_quote()));
    post_json(&client, "/api/leads/contact", &contact());
    drop(client);
    let dir = database.parent().unwrap();
    let run = |args: &[&str]| {
        let output = truckins(dir)
            .args(args)
            .arg("--database")
            .arg(&database)
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let csv = run(&["leads", "export", "--format", "csv"]);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let column = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "language")
        .expect("a language column");
    let languages: Vec<String> = reader
        .records()
        .map(|record| record.unwrap()[column].to_string())
        .collect();
    // Newest first.
    assert_eq!(languages, ["en", "es"]);
    let json: Value = serde_json::from_str(&run(&["leads", "export", "--format", "json"])).unwrap();
    assert_eq!(json[0]["language"], "en");
    assert_eq!(json[1]["language"], "es");
    let list = run(&["leads", "list"]);
    let header = list.lines().next().unwrap();
    assert!(header.contains(" lang "), "{list}");
    let at = header.find("lang").unwrap();
    let codes: Vec<&str> = list
        .lines()
        .skip(1)
        .map(|line| line[at..at + 2].as_ref())
        .collect();
    assert_eq!(codes, ["en", "es"], "{list}");
}

#[test]
fn migration_9_gives_older_leads_english_and_holds_the_column_to_en_or_es() {
    let path = common::temp_database("migrate-language");
    // A database as the release before issue 15 left it: migrations 1 to 8, and a lead.
    {
        let connection = common::database_migrated_to(&path, &OLD_SCHEMA);
        connection
            .execute_batch(
                "INSERT INTO leads (id, source, created_at, name, email) \
                 VALUES (4, 'quote', '2026-02-01T10:00:00Z', 'Dana', 'dana@example.com')",
            )
            .unwrap();
    }
    let pool = store::open(&path, 1).expect("the older database opens and migrates");
    let leads = store::list(&pool, &LeadFilter::default()).unwrap();
    assert_eq!(leads.len(), 1);
    assert_eq!(
        (leads[0].id, leads[0].language.to_string()),
        (4, "en".into())
    );
    let connection = pool.get().unwrap();
    let insert = |language: &str| {
        connection.execute(
            "INSERT INTO leads (source, created_at, name, email, language) \
             VALUES ('quote', '2026-02-02T10:00:00Z', 'Ana', 'ana@example.com', ?1)",
            [language],
        )
    };
    assert!(insert("es").is_ok());
    assert!(
        insert("fr").is_err(),
        "the CHECK holds the column to en or es"
    );
    let recorded: bool = connection
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 9)",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert!(recorded, "migration 9 is recorded as applied");
}

/// The schema before issue 15: its eight migration files.
const OLD_SCHEMA: [&str; 8] = [
    include_str!("../../src/store/migrations/0001_leads.sql"),
    include_str!("../../src/store/migrations/0002_health_probe.sql"),
    include_str!("../../src/store/migrations/0003_deliveries.sql"),
    include_str!("../../src/store/migrations/0004_carrier_snapshot.sql"),
    include_str!("../../src/store/migrations/0005_analytics.sql"),
    include_str!("../../src/store/migrations/0006_leads_coi_details.sql"),
    include_str!("../../src/store/migrations/0007_deliveries_kind.sql"),
    include_str!("../../src/store/migrations/0008_deliveries_payload.sql"),
];

/// An address with letters outside ASCII: mail to it needs SMTPUTF8, which relays may refuse.
const NOT_ASCII: &str = "josé@exämple.com";

#[test]
fn an_address_outside_ascii_is_refused_on_every_form_with_its_message_in_both_languages() {
    let (client, database) = app("email-not-ascii", 100);
    let needed_by = (truckins::clock::local_today() + time::Duration::days(3)).to_string();
    let forms = [
        ("/api/leads/quote", common::valid_quote()),
        ("/api/leads/contact", contact()),
        ("/api/leads/coi", crate::coi::valid_request(&needed_by)),
    ];
    let messages = [
        (
            false,
            "Please enter an email address without accented or special letters (such as é or ñ)",
        ),
        (
            true,
            "Escriba un correo electrónico sin acentos ni letras especiales (como é o ñ)",
        ),
    ];
    for (path, body) in &forms {
        // Each form is valid as it is: only the address is refused.
        for (in_spanish, message) in messages {
            let mut body = body.clone();
            body["email"] = json!(NOT_ASCII);
            if in_spanish {
                body = spanish(body);
            }
            let (status, answer) = post_json(&client, path, &body);
            assert_eq!(status, Status::UnprocessableEntity, "{path}: {answer}");
            assert_eq!(answer["errors"], json!({ "email": message }), "{path}");
        }
    }
    // Without JavaScript, the form page comes back with the message beside the field.
    let response = client
        .post("/api/leads/contact")
        .header(ContentType::Form)
        .body(common::forms::form_encode(&[
            ("name", "Luis Ortega"),
            ("email", NOT_ASCII),
            ("subject", "Certificate of insurance"),
            ("message", "Please send a certificate of insurance."),
        ]))
        .dispatch();
    assert_eq!(response.status(), Status::UnprocessableEntity);
    let page = response.into_string().unwrap_or_default();
    assert!(
        page.contains("without accented or special letters (such as é or ñ)"),
        "{page}"
    );
    assert!(stored(&database).is_empty(), "nothing is stored");
}
