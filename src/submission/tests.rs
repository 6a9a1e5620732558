//! The submission's page as rendered: every part of it, escaped, one column that never scrolls sideways.

use super::page::{self, Listed};
use crate::store::documents::Document;
use crate::store::{Driver, Lead, Loss, Rows, Source, Vehicle};

fn lead() -> Lead {
    Lead {
        id: 12,
        source: Source::Quote,
        created_at: "2026-03-02T15:00:00Z".into(),
        name: "Maria <Lopez>".into(),
        email: "maria@lopez.example".into(),
        phone: Some("(555) 210-0142".into()),
        company: Some("Lopez & Sons Hauling".into()),
        insurance_type: Some("hotshot".into()),
        current_insurer: Some("Progressive".into()),
        policy_expiration: Some("2027-03-05".into()),
        radius: Some("regional".into()),
        details_at: Some("2026-03-02T15:10:00Z".into()),
        carrier_snapshot: Some(crate::store::CarrierSnapshot(serde_json::json!({
            "dot_number": 1234567, "legal_name": "LOPEZ & SONS HAULING LLC", "city": "WACO", "state": "TX",
            "power_units": 2, "hazmat": false
        }))),
        vehicle_schedule: Some(Rows(vec![
            Vehicle {
                year: 2019,
                make: "Peterbilt".into(),
                model: Some("389".into()),
                vin: "1XPBD49X1KD000001".into(),
                stated_value: Some(95_000),
                garaging_zip: Some("76701".into()),
            },
            Vehicle {
                year: 2021,
                make: "Kenworth".into(),
                vin: "1XKYD49X1MJ000002".into(),
                ..Vehicle::default()
            },
        ])),
        driver_schedule: Some(Rows(vec![Driver {
            name: "Luis <b>Ortiz</b>".into(),
            date_of_birth: "1980-04-01".into(),
            license_state: "TX".into(),
            years_experience: Some(12),
            ..Driver::default()
        }])),
        loss_history: Some(Rows(vec![
            Loss {
                date: "2024-03-15".into(),
                kind: "physical_damage".into(),
                amount: 12_500,
                description: Some("Hail".into()),
            },
            Loss {
                date: "2023-01-02".into(),
                kind: "liability".into(),
                amount: 40_000,
                description: None,
            },
        ])),
        ..Lead::default()
    }
}

fn document() -> Document {
    Document {
        id: 3,
        lead_id: 12,
        file_name: "loss runs \"2025\".pdf".into(),
        media_type: "application/pdf".into(),
        size: 12_500,
        sha256: "ab".repeat(32),
        created_at: "2026-03-02T15:11:00Z".into(),
    }
}

#[test]
fn the_page_shows_the_whole_submission_escaped() {
    let document = document();
    let listed = [Listed {
        document: &document,
        path: "/lead-documents/12/3?until=1&sig=ab&x".into(),
    }];
    let html = page::submission(&lead(), &listed, "Sat, Apr 1, 2026");
    for shown in [
        "<html lang=\"en\">",
        "<title>Submission: Lopez &amp; Sons Hauling</title>",
        "Lead #12",
        "Maria &lt;Lopez&gt;",
        "maria@lopez.example",
        "LOPEZ &amp; SONS HAULING LLC",
        "1234567",
        "Progressive",
        "2027-03-05",
        "regional (up to 500 miles)",
        "Vehicle schedule (2)",
        "1XPBD49X1KD000001",
        "Peterbilt",
        "$95,000",
        "Driver schedule (1)",
        "Luis &lt;b&gt;Ortiz&lt;/b&gt;",
        "Loss history (2)",
        "Physical damage",
        "Total of 2 losses</th><td class=\"n\">$52,500</td>",
        "Documents (1)",
        "<a href=\"/lead-documents/12/3?until=1&amp;sig=ab&amp;x\" download>loss runs &quot;2025&quot;.pdf</a> \
         (13 KB, application/pdf)",
        "works until Sat, Apr 1, 2026",
        "@media print",
    ] {
        assert!(html.contains(shown), "{shown:?} in {html}");
    }
    // The census's one-line match is its own section, not a row of the contact's.
    assert!(!html.contains("Census match"), "{html}");
    // Tables scroll inside their own labelled box; nothing else is wider than the screen.
    assert_eq!(
        html.matches("<div class=\"scroll\" role=\"region\" aria-labelledby=\"")
            .count(),
        3
    );
    assert!(!html.contains("<script"));
    assert!(page::CONTENT_SECURITY_POLICY.starts_with("default-src 'none'; style-src 'sha256-"));
}

#[test]
fn an_empty_submission_says_so_and_an_erased_one_shows_nothing_personal() {
    let bare = Lead {
        vehicle_schedule: None,
        driver_schedule: None,
        loss_history: None,
        carrier_snapshot: None,
        ..lead()
    };
    let html = page::submission(&bare, &[], "");
    for shown in [
        "No vehicles listed.",
        "No drivers listed.",
        "No losses listed.",
        "No documents uploaded.",
        "No census match",
    ] {
        assert!(html.contains(shown), "{shown:?} in {html}");
    }
    let erased = Lead {
        erased_at: Some("2026-05-01T00:00:00Z".into()),
        ..lead()
    };
    let html = page::submission(&erased, &[], "");
    assert!(html.contains("Lead #12: erased"), "{html}");
    assert!(
        !html.contains("Maria") && !html.contains("Peterbilt"),
        "{html}"
    );
}
