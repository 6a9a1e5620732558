//! The notifications' words, checked on leads of each form.

use super::*;
use crate::leads::store::Status;

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
