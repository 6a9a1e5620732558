//! The notifications' words, checked on leads of each form.

use super::*;
use crate::store::Status;

fn quote() -> Lead {
    Lead {
        id: 42,
        source: Source::Quote,
        status: Status::New,
        name: "Maria Lopez".into(),
        email: "maria@example.com".into(),
        company: Some("Lopez Hauling".into()),
        insurance_type: Some("hotshot".into()),
        vehicle_count: Some(2),
        consent_given: true,
        consent_text: Some("I agree <b>".into()),
        ..Lead::default()
    }
}

#[test]
fn a_census_match_is_in_both_parts() {
    let lead = Lead {
        dot_number: Some("1234567".into()),
        carrier_snapshot: Some(crate::carriers::CarrierSnapshot(serde_json::json!({
            "dot_number": 1234567, "legal_name": "LONE STAR HAULERS, LLC", "dba_name": "",
            "city": "AUSTIN", "state": "TX", "power_units": 12, "drivers": 14,
            "operation": "interstate", "hazmat": false, "mcs150_date": "2024-03-01",
        }))),
        ..quote()
    };
    let line = "LONE STAR HAULERS, LLC (DOT 1234567); AUSTIN, TX; 12 power units; 14 drivers; interstate; \
                MCS-150 2024-03-01";
    assert!(
        agency_text(&lead, Kind::Lead).contains(line),
        "{}",
        agency_text(&lead, Kind::Lead)
    );
    assert!(agency_html(&lead, Kind::Lead).contains("12 power units"));
    assert!(!agency_text(&quote(), Kind::Lead).contains("Census match"));
}

#[test]
fn subjects_can_be_triaged_in_an_inbox() {
    assert_eq!(
        subject(&quote()),
        "New quote: Maria Lopez, Lopez Hauling, Hot Shot, 2 trucks"
    );
    let contact = Lead {
        source: Source::Contact,
        name: "Sam\r\nBcc: x@example.com".into(),
        subject: Some("Certificate of insurance".into()),
        ..Lead::default()
    };
    assert_eq!(
        subject(&contact),
        "New message: Sam  Bcc: x@example.com, Certificate of insurance"
    );
}

#[test]
fn the_html_part_escapes_what_was_typed() {
    let mut lead = quote();
    lead.company = Some("<script>alert(1)</script>".into());
    let html = agency_html(&lead, Kind::Lead);
    assert!(!html.contains("<script>"), "{html}");
    assert!(html.contains("&lt;script&gt;") && html.contains("I agree &lt;b&gt;"));
    assert!(agency_text(&lead, Kind::Lead).contains("truckins leads status 42 contacted"));
}

#[test]
fn the_autoreply_carries_nothing_the_visitor_typed() {
    let mut lead = quote();
    lead.name = "Buy pills at example.com".into();
    let from: Mailbox = "Milepost <leads@agency.example>".parse().unwrap();
    let text = autoreply_text(&lead);
    assert!(text.starts_with("Hello,\n"), "{text}");
    let message = autoreply_message(&lead, "k1", &from).unwrap();
    let raw = String::from_utf8(message.formatted()).unwrap();
    assert!(!raw.contains("Buy pills"), "{raw}");
    assert!(!raw.contains("pills"), "{raw}");
    assert!(raw.contains("To: maria@example.com\r\n"), "{raw}");
}

#[test]
fn a_certificate_needed_today_or_tomorrow_is_urgent() {
    // The agency's days: submitted at noon UTC, which is the same day in any time zone within 11 hours of UTC.
    let request = |needed_by: &str| Lead {
        source: Source::Coi,
        name: "Dana Smith".into(),
        created_at: "2026-03-02T12:00:00Z".into(),
        insured_name: Some("Lone Star Haulers LLC".into()),
        certificate_holder: Some("Acme Logistics".into()),
        needed_by: Some(needed_by.into()),
        additional_insured: Some(true),
        ..Lead::default()
    };
    assert_eq!(
        subject(&request("2026-03-03")),
        "URGENT certificate request: Dana Smith, Lone Star Haulers LLC, for Acme Logistics, needed by 2026-03-03"
    );
    assert!(subject(&request("2026-03-02")).starts_with("URGENT certificate request: "));
    assert!(subject(&request("2026-03-04")).starts_with("Certificate request: "));
    let text = agency_text(&request("2026-03-04"), Kind::Lead);
    assert!(text.contains("Additional insured: yes"), "{text}");
    assert!(
        text.contains("Certificate holder: Acme Logistics"),
        "{text}"
    );
    assert!(!text.contains("operation's details"), "{text}");
}

#[test]
fn added_details_have_their_own_subject_and_section() {
    let lead = Lead {
        radius: Some("regional".into()),
        operating_states: Some("TX,OK".into()),
        hazmat: Some(false),
        ..quote()
    };
    assert_eq!(
        agency_subject(&lead, Kind::Details),
        "Quote details: Maria Lopez, Lopez Hauling"
    );
    let text = agency_text(&lead, Kind::Details);
    assert!(
        text.starts_with("Quote details: Maria Lopez, Lopez Hauling\n"),
        "{text}"
    );
    assert!(
        text.contains("regional (up to 500 miles)") && text.contains("TX,OK"),
        "{text}"
    );
}

fn claim() -> Lead {
    let mut request = crate::store::Request::default();
    for (name, value) in [
        ("loss_date", "2026-03-02"),
        ("loss_time", "08:40"),
        ("loss_city", "Waco"),
        ("loss_state", "TX"),
        ("what_happened", "Rear-ended <b>at a light</b>"),
        ("insurer", "not_sure"),
    ] {
        request.set(name, value);
    }
    Lead {
        id: 123,
        source: Source::Claim,
        name: "Rosa Diaz".into(),
        phone: Some("+12145550199".into()),
        created_at: "2026-03-02T15:00:00Z".into(),
        request: Some(request),
        ..Lead::default()
    }
}

#[test]
fn a_claim_is_urgent_in_every_subject_and_its_fields_are_escaped() {
    let lead = claim();
    assert_eq!(
        agency_subject(&lead, Kind::Lead),
        "URGENT CLAIM: Rosa Diaz, Waco, TX, loss 2026-03-02 08:40"
    );
    let spanish = Lead {
        language: crate::store::Language(Locale::Es),
        ..claim()
    };
    assert_eq!(
        agency_subject(&spanish, Kind::Lead),
        "URGENT CLAIM: [ES] Rosa Diaz, Waco, TX, loss 2026-03-02 08:40"
    );
    assert!(
        agency_subject(&lead, Kind::Reminder)
            .starts_with("Still waiting: Rosa Diaz reported a claim")
    );
    let text = agency_text(&lead, Kind::Lead);
    assert!(
        text.contains("No e-mail address was given: call Rosa Diaz back."),
        "{text}"
    );
    assert!(text.contains("Reference:      CLM-000123"), "{text}");
    assert!(text.contains("Insurer:        Not sure"), "{text}");
    let html = agency_html(&lead, Kind::Lead);
    assert!(
        html.contains("Rear-ended &lt;b&gt;at a light&lt;/b&gt;"),
        "{html}"
    );
    // A claim without an address has no Reply-To, and no warning for it.
    let from: Mailbox = "Leads <leads@agency.example>".parse().unwrap();
    let message = agency_message(
        &lead,
        Kind::Lead,
        &Standing::default(),
        Links::default(),
        "k",
        &from,
        std::slice::from_ref(&from),
    )
    .unwrap();
    assert!(!String::from_utf8_lossy(&message.formatted()).contains("Reply-To"));
}

#[test]
fn a_change_names_its_kind_and_date_and_its_confirmation_what_is_not_yet_in_force() {
    let mut request = crate::store::Request::default();
    request.set("change_kind", "add_driver");
    request.set("effective_date", "2026-12-01");
    request.set("driver_name", "Luis Ortiz");
    let lead = Lead {
        id: 45,
        source: Source::Change,
        name: "Rosa Diaz".into(),
        email: "rosa@example.com".into(),
        insured_name: Some("Rosa Diaz".into()),
        created_at: "2026-03-02T15:00:00Z".into(),
        request: Some(request),
        ..Lead::default()
    };
    assert_eq!(
        agency_subject(&lead, Kind::Lead),
        "Policy change request: Rosa Diaz, add a driver, effective 2026-12-01"
    );
    let text = agency_text(&lead, Kind::Lead);
    assert!(text.contains("never asked online"), "{text}");
    let confirmation = autoreply_text(&lead);
    assert!(
        confirmation.contains("Your reference is CHG-000045."),
        "{confirmation}"
    );
    assert!(
        confirmation.contains(contract::forms::policy_change::NOT_IN_FORCE_UNTIL_CONFIRMED),
        "{confirmation}"
    );
    assert!(
        confirmation.contains("(add a driver, effective 2026-12-01)"),
        "{confirmation}"
    );
}

#[test]
fn a_suspected_spam_lead_is_marked_first_in_the_subject_and_says_why_in_both_parts() {
    let suspect = Lead {
        suspected_spam: true,
        ..quote()
    };
    assert_eq!(
        agency_subject(&suspect, Kind::Lead),
        "[Suspected spam] New quote: Maria Lopez, Lopez Hauling, Hot Shot, 2 trucks"
    );
    // Before a claim's urgency and the language, so one inbox rule finds it.
    let claim = Lead {
        suspected_spam: true,
        language: crate::store::Language(Locale::Es),
        ..claim()
    };
    assert!(
        agency_subject(&claim, Kind::Lead).starts_with("[Suspected spam] URGENT CLAIM: [ES] Rosa"),
        "{}",
        agency_subject(&claim, Kind::Lead)
    );
    let why = "this form was sent faster than a person types";
    assert!(agency_text(&suspect, Kind::Lead).starts_with("SUSPECTED SPAM: "));
    assert!(agency_text(&suspect, Kind::Lead).contains(why));
    assert!(agency_html(&suspect, Kind::Lead).contains(why));
    // Any other lead: no mark, no note.
    assert!(agency_subject(&quote(), Kind::Lead).starts_with("New quote: "));
    assert!(!agency_text(&quote(), Kind::Lead).contains(why));
    let body: serde_json::Value = serde_json::from_slice(&webhook_body(
        "lead",
        "k",
        Some(&suspect),
        &Standing::default(),
    ))
    .unwrap();
    assert_eq!(body["lead"]["suspected_spam"], true);
}
