//! `truckins leads export` and `leads list` on leads of issue 13: a certificate request and a quote with added
//! details, written by the real binary, the CSV read back with the `csv` crate and the JSON with serde: every new
//! field is there, formulas still neutralised, phone numbers written as people write them (E.164 in the JSON).

use rocket::http::Status;
use serde_json::{Value, json};

use crate::common;
use crate::common::forms::post_json;
use crate::common::process::{succeeded, truckins};

const NEW_FIELDS: [&str; 23] = [
    "insured_name",
    "certificate_holder",
    "holder_address",
    "additional_insured",
    "waiver_of_subrogation",
    "needed_by",
    "notes",
    "mc_number",
    "years_in_business",
    "radius",
    "operating_states",
    "commodities",
    "commodities_other",
    "hazmat",
    "power_units",
    "trailers",
    "drivers",
    "current_insurer",
    "policy_expiration",
    "effective_date",
    "claims_3y",
    "best_time_to_call",
    "details_at",
];

#[test]
fn exports_carry_every_field_of_certificate_requests_and_quote_details() {
    let database = common::temp_database("export-new-fields");
    let client = common::client_with(common::figment(&database));
    let needed_by = (truckins::clock::local_today() + time::Duration::days(5)).to_string();
    let mut request = crate::coi::valid_request(&needed_by);
    request["holder_address"] = json!("1 Main St, Suite 2\nAustin, TX 78701");
    let (status, coi) = post_json(&client, "/api/leads/coi", &request);
    assert_eq!(status, Status::Created, "{coi}");
    let (status, quote) = post_json(&client, "/api/leads/quote", &common::valid_quote());
    assert_eq!(status, Status::Created, "{quote}");
    let (status, _) = post_json(
        &client,
        "/api/leads/details",
        &json!({
            "details_token": quote["details_token"],
            "mc_number": "123456", "years_in_business": 3, "radius": "long_haul", "operating_states": "TX,CA",
            "commodities": "general_freight,other", "commodities_other": "-Sugar beets", "hazmat": true,
            "power_units": 2, "trailers": 3, "drivers": 2, "current_insurer": "Acme Mutual",
            "policy_expiration": "2026-05-01", "effective_date": "2026-05-02", "claims_3y": 0,
            "best_time_to_call": "evening",
        }),
    );
    assert_eq!(status, Status::Ok);
    drop(client);

    let dir = database.parent().unwrap();
    let csv_file = dir.join("leads.csv");
    succeeded(
        truckins(dir)
            .args(["leads", "export", "--format", "csv", "--database"])
            .arg(&database)
            .arg("--output")
            .arg(&csv_file),
    );
    let reader = csv::Reader::from_path(&csv_file).expect("RFC 4180 CSV the csv crate reads");
    let (headers, rows) = common::csv_table(reader);
    for field in NEW_FIELDS {
        assert!(headers.iter().any(|h| h == field), "{field} in {headers:?}");
    }
    assert!(
        !headers.iter().any(|h| h.contains("token")),
        "no token, nor its hash, is exported"
    );
    assert_eq!(rows.len(), 2);
    // Newest first: the quote, then the certificate request.
    let (quote_row, coi_row) = (&rows[0], &rows[1]);
    assert_eq!(coi_row["source"], "coi");
    assert_eq!(coi_row["insured_name"], "Lone Star Haulers LLC");
    assert_eq!(coi_row["certificate_holder"], "Acme Logistics, Inc.");
    assert_eq!(
        coi_row["holder_address"],
        "1 Main St, Suite 2\nAustin, TX 78701"
    );
    assert_eq!(coi_row["additional_insured"], "true");
    assert_eq!(coi_row["waiver_of_subrogation"], "false");
    assert_eq!(coi_row["needed_by"], needed_by);
    assert_eq!(
        coi_row["notes"], "'=Please copy the holder",
        "a formula is neutralised"
    );
    // A phone as people write it: no apostrophe, nothing a spreadsheet evaluates (the `+` of E.164 would be).
    assert_eq!(quote_row["phone"], "(555) 210-0142");
    assert_eq!(coi_row["phone"], "(555) 210-0142");
    assert_eq!(quote_row["radius"], "long_haul");
    assert_eq!(quote_row["operating_states"], "TX,CA");
    assert_eq!(quote_row["commodities"], "general_freight,other");
    assert_eq!(quote_row["commodities_other"], "'-Sugar beets");
    assert_eq!(quote_row["hazmat"], "true");
    assert_eq!(quote_row["claims_3y"], "0");
    assert_eq!(quote_row["best_time_to_call"], "evening");
    assert!(!quote_row["details_at"].is_empty());

    let output = truckins(dir)
        .args(["leads", "export", "--format", "json", "--database"])
        .arg(&database)
        .output()
        .unwrap();
    let leads: Value = serde_json::from_slice(&output.stdout).unwrap();
    for field in NEW_FIELDS {
        assert!(leads[0].get(field).is_some(), "{field} in the JSON");
    }
    assert_eq!(leads[1]["additional_insured"], true);
    assert_eq!(leads[0]["phone"], "+15552100142", "the JSON keeps E.164");
    assert_eq!(leads[0]["power_units"], 2);

    let output = truckins(dir)
        .args(["leads", "list", "--database"])
        .arg(&database)
        .output()
        .unwrap();
    let list = String::from_utf8_lossy(&output.stdout);
    assert!(
        list.contains("COI Lone Star Haulers LLC for Acme Logistics, Inc.,"),
        "{list}"
    );
    assert!(list.contains("details: long_haul TX,CA"), "{list}");
}
