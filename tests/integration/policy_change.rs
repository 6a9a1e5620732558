//! The policy change request (issue 28) through the real binary, with a real SMTP server and a webhook receiver
//! (the helpers of `claims.rs`): `POST /api/leads/change` as JSON and as a plain form, only the chosen kind's fields
//! stored (the page without JavaScript posts every section), never a license number; the contract's messages one
//! by one (a VIN whose check digit is wrong, an effective date before the agency's today on the test clock or more
//! than a year after it, a hire date after it, each kind's required fields, in Spanish too); the agency's e-mail and
//! webhook; the client's confirmation with its reference and "no change is in force until we confirm it", in
//! English and Spanish, saying it will be read the next business day only when sent while the agency is closed; and
//! the export's columns, `=cmd` neutralised.

use serde_json::{Value, json};
use truckins::store::Source;

use crate::claims::{
    agency_mails, assert_subjects, changed, created, exported, first_mail_to, redirected,
    referenced, refusal, set_clock, signed_event, site, stored, subject, text_holding,
};
use crate::notify::support::part;

const CHANGE: &str = "/api/leads/change";

#[test]
fn change_requests_are_stored_mailed_confirmed_and_exported() {
    let site = site("policy-change");
    let port = site.server.port;

    // JSON during business hours (Monday 09:00 in Chicago).
    let first = referenced(port, CHANGE, &add_vehicle(), "CHG");

    // A plain form post from the Spanish page on Sunday (closed): every section posted, a driver chosen.
    set_clock(&site.clock, "2026-03-08T18:00:00Z");
    let form = [
        ("name", "Luis Ortiz"),
        ("insured_name", "Ortiz Transport"),
        ("phone", "214-555-0123"),
        ("email", "luis@example.com"),
        ("policy_number", ""),
        ("change_kind", "add_driver"),
        ("effective_date", "2026-03-09"),
        ("vehicle_year", "2019"),
        ("vin", "1M8GDM9A1KP042788"),
        ("driver_name", "Ana María Núñez"),
        ("driver_date_of_birth", "1990-07-15"),
        ("license_state", "tx"),
        ("license_class", "a"),
        ("hire_date", "2026-03-02"),
        ("change_details", ""),
        ("locale", "es"),
        ("website", ""),
    ];
    let location = redirected(port, CHANGE, &form);
    assert!(
        location.starts_with("/es/policy-change/thank-you?reference=CHG-0000"),
        "{location}"
    );
    // Something else, with a formula for a spreadsheet to run (English, the agency closed: Sunday).
    let other = json!({
        "name": "Rosa Diaz",
        "insured_name": "Diaz Hauling LLC",
        "phone": "(214) 555-0199",
        "email": "dispatch@example.com",
        "change_kind": "other",
        "effective_date": "2026-04-01",
        "change_details": "=cmd|' /C calc'!A0 add our new dispatcher as a contact",
    });
    let third = created(port, CHANGE, &other)["id"].as_i64().unwrap();

    let leads = stored(&site.database);
    assert_eq!(leads.len(), 3);
    let lead = &leads[0];
    assert_eq!(lead.source, Source::Change);
    assert_eq!(lead.insured_name.as_deref(), Some("Diaz Hauling LLC"));
    assert_eq!(lead.phone.as_deref(), Some("+12145550199"));
    let request = lead.request.clone().unwrap();
    let fields: Vec<(&str, &str)> = request
        .0
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        fields,
        [
            ("change_details", "Financed through First Bank"),
            ("change_kind", "add_vehicle"),
            ("effective_date", "2026-03-16"),
            ("garaging_zip", "75201"),
            ("policy_number", "TX-CA-123456-01"),
            ("stated_value", "85000"),
            ("vehicle_make", "Freightliner"),
            ("vehicle_model", "Cascadia"),
            ("vehicle_year", "2021"),
            ("vin", "1M8GDM9AXKP042788"),
        ],
        "the chosen kind's fields only, never a license number"
    );
    let driver = leads[1].request.clone().unwrap();
    assert_eq!(driver.get("driver_name"), Some("Ana María Núñez"));
    assert_eq!(driver.get("license_state"), Some("TX"));
    assert_eq!(driver.get("license_class"), Some("A"));
    assert_eq!(
        driver.get("vin"),
        None,
        "the vehicle section was not chosen"
    );
    assert_eq!(leads[1].language.0, contract::locale::Locale::Es);

    // The messages, one by one (the agency's today is now Sunday 8 March).
    let refused = |body: Value| refusal(port, CHANGE, &body);
    let with = |changes: Value| changed(add_vehicle(), changes);
    assert_eq!(
        refused(with(json!({ "vin": "1M8GDM9A1KP042788" }))),
        json!({ "vin": "This VIN's check digit (the 9th character) does not match the others: please check each character" })
    );
    assert_eq!(
        refused(with(json!({ "effective_date": "2026-03-07" }))),
        json!({ "effective_date": "The effective date cannot be in the past" })
    );
    assert_eq!(
        refused(with(
            json!({ "effective_date": "2026-03-07", "locale": "es" })
        )),
        json!({ "effective_date": "La fecha de vigencia no puede ser una fecha pasada" })
    );
    // No date without an end (issue 36): an effective date more than a year ahead, a hire date after today.
    assert_eq!(
        refused(with(json!({ "effective_date": "2027-03-09" }))),
        json!({ "effective_date": "The effective date must be within a year from today" })
    );
    assert_eq!(
        refused(with(
            json!({ "effective_date": "9999-12-31", "locale": "es" })
        )),
        json!({ "effective_date": "La fecha de vigencia debe estar dentro de un año a partir de hoy" })
    );
    let driver = json!({
        "change_kind": "add_driver", "driver_name": "Luis Ortiz", "driver_date_of_birth": "1990-07-15",
        "license_state": "TX", "license_class": "A", "hire_date": "2099-01-01",
    });
    assert_eq!(
        refused(with(driver)),
        json!({ "hire_date": "The hire date cannot be in the future" })
    );
    assert_eq!(
        refused(with(
            json!({ "vehicle_year": "2028", "stated_value": "50", "garaging_zip": "7520" })
        )),
        json!({
            "vehicle_year": "The model year must be from 1900 to next year",
            "stated_value": "Stated value must be from $100 to $5,000,000",
            "garaging_zip": "Please enter a US ZIP code, such as 75201",
        })
    );
    // Each kind with only the shared fields: its own required fields, each with its message.
    for kind in &contract::forms::policy_change::CHANGE_KINDS {
        let body = json!({
            "name": "Rosa Diaz",
            "insured_name": "Diaz Hauling LLC",
            "phone": "(214) 555-0199",
            "email": "rosa@example.com",
            "change_kind": kind.value,
            "effective_date": "2026-03-16",
        });
        let errors = refused(body);
        let expected: serde_json::Map<String, Value> = kind
            .required
            .iter()
            .map(|field| {
                let message = field.missing.or(field.min.map(|min| min.message)).unwrap();
                (field.name.to_string(), json!(message))
            })
            .collect();
        assert_eq!(errors, Value::Object(expected), "{}", kind.value);
    }
    assert_eq!(
        refused(json!({ "change_kind": "add_truck" }))["change_kind"],
        "Please choose the change you need from the list"
    );
    assert_eq!(stored(&site.database).len(), 3, "nothing refused is stored");

    // The agency's e-mails, every field.
    let agency = agency_mails(&site.smtp, 3);
    assert_subjects(
        &agency,
        &[
            "Policy change request: Rosa Diaz, Diaz Hauling LLC, add a vehicle, effective 2026-03-16",
            "[ES] Policy change request: Luis Ortiz, Ortiz Transport, add a driver, effective 2026-03-09",
        ],
    );
    let reference = format!("CHG-{first:06}");
    let text = text_holding(
        &agency,
        "add a vehicle",
        &[
            &reference,
            "1M8GDM9AXKP042788",
            "$85,000",
            "Freightliner",
            "Cascadia",
            "75201",
            "TX-CA-123456-01",
            "Financed through First Bank",
        ],
    );
    assert!(!text.contains("12345678"), "no license number: {text}");

    // The confirmations: the reference, not in force until confirmed; read the next business day only when sent
    // while the agency is closed.
    let confirmation = |address: &str| first_mail_to(&site.smtp, address);
    let rosa = confirmation("rosa@example.com");
    assert_eq!(
        subject(&rosa),
        format!("We have your policy change request CHG-{first:06} - Milepost Truck Insurance")
    );
    let text = part(&rosa, "text/plain");
    assert!(
        text.contains("No change is in force until we confirm it to you."),
        "{text}"
    );
    assert!(
        text.contains("(add a vehicle, effective 2026-03-16)"),
        "{text}"
    );
    assert!(
        !text.contains("next business day"),
        "sent in business hours: {text}"
    );
    let luis = confirmation("luis@example.com");
    assert!(subject(&luis).starts_with("Recibimos su solicitud de cambio de póliza CHG-"));
    let text = part(&luis, "text/plain");
    assert!(
        text.contains(
            contract::locale::Locale::Es
                .text(contract::forms::policy_change::NOT_IN_FORCE_UNTIL_CONFIRMED)
        ),
        "{text}"
    );
    assert!(
        text.contains("la leeremos el siguiente día hábil"),
        "{text}"
    );
    let dispatch = confirmation("dispatch@example.com");
    let text = part(&dispatch, "text/plain");
    assert!(
        text.contains(
            "We received it outside our business hours: we will read it on the next business day."
        ),
        "{text}"
    );
    assert!(text.contains(&format!("CHG-{third:06}")), "{text}");

    // The webhook, signed, with the request.
    let body = signed_event(&site.webhook, 3, first);
    assert_eq!(body["lead"]["source"], "change");
    assert_eq!(body["lead"]["request"]["vin"], "1M8GDM9AXKP042788");
    assert_eq!(body["lead"]["request"]["change_kind"], "add_vehicle");

    // The export.
    let rows = exported(&site);
    let row = |id: i64| rows.iter().find(|row| row["id"] == id.to_string()).unwrap();
    assert_eq!(row(first)["reference"], format!("CHG-{first:06}"));
    assert_eq!(row(first)["request_vin"], "1M8GDM9AXKP042788");
    assert_eq!(row(first)["request_effective_date"], "2026-03-16");
    assert_eq!(row(first)["request_stated_value"], "85000");
    assert_eq!(
        row(third)["request_change_details"],
        "'=cmd|' /C calc'!A0 add our new dispatcher as a contact"
    );
    assert!(
        !rows[0]
            .keys()
            .any(|column| column.contains("license_number"))
    );
}

fn add_vehicle() -> Value {
    json!({
        "name": "Rosa Diaz",
        "insured_name": "Diaz Hauling LLC",
        "phone": "(214) 555-0199",
        "email": "rosa@example.com",
        "policy_number": "TX-CA-123456-01",
        "change_kind": "add_vehicle",
        "effective_date": "2026-03-16",
        "vehicle_year": "2021",
        "vehicle_make": "Freightliner",
        "vehicle_model": "Cascadia",
        "vin": "1m8gdm9axkp042788",
        "stated_value": "85000",
        "garaging_zip": "75201",
        "change_details": "Financed through First Bank",
        // Another kind's section, filled in before the person changed their mind, and a field no form has.
        "driver_name": "Luis Ortiz",
        "license_number": "12345678",
    })
}
