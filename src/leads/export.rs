//! Lead export for the CLI: RFC 4180 CSV (written by the `csv` crate) that is safe to open in a spreadsheet, or JSON.
//! Both carry every stored column ([`COLUMNS`]): the certificate requests' and the quotes' added details too, and a
//! claim's or change request's reference and own fields (the CSV a column for each: [`request_columns`]).
//! A cell that begins with `=`, `+`, `-`, `@` (or their full-width `＝＋－＠`), a tab or a carriage return could run
//! as a formula in a spreadsheet, so it is prefixed with an apostrophe (OWASP's advice for CSV injection). A phone
//! number, stored as E.164 (`+15552100142`), is written as people write it, `(555) 210-0142`: nothing a spreadsheet
//! evaluates, and no apostrophe for the agent to see or copy; the JSON keeps E.164.
//!
//! A quote's schedules (issue 39) are stored columns, so each list is a CSV column of its JSON text (guarded like
//! every cell) and an array in the JSON; the CSV adds their counts, the losses' total, the number of the lead's
//! documents and their names and sizes as JSON ([`SCHEDULE_COLUMNS`]), the JSON `losses_total` and `documents` (names, types and sizes, never bytes).
//!
//! Both are also safe to print in a terminal, whatever an older version stored: no control character (other than
//! tab and line feed) and no bidirectional control reaches the output raw. CSV shows each as U+FFFD; JSON writes
//! it as a `\uXXXX` escape, so the value reads back as stored.

use crate::text::{printable, us_phone};
use std::io::Write;

use super::validate::is_invisible_control;
use crate::consent::Standing;
use crate::store::documents::Document;
use crate::store::schedules::losses_total;
use crate::store::{COLUMNS, Lead};

/// The columns after the stored ones: what the revocations say of each lead (src/consent), as of the export.
pub const STANDING_COLUMNS: [&str; 2] = ["do_not_contact", "opted_out_before"];

/// The CSV's counts of a quote's schedules and documents (issue 39), before the standing.
pub const SCHEDULE_COLUMNS: [&str; 6] = [
    "vehicles",
    "drivers",
    "losses",
    "losses_total",
    "documents",
    "document_files",
];

/// Each lead's documents, in the order of the leads (a lead without an entry has none).
pub type Documents = [Vec<Document>];

/// The counts of [`SCHEDULE_COLUMNS`] for `lead` and its `documents`, and the documents' names and sizes as JSON
/// (guarded like every cell by the caller).
fn schedule_counts(lead: &Lead, documents: &[Document]) -> [String; 6] {
    let count = |rows: Option<usize>| rows.unwrap_or_default().to_string();
    let losses = lead.loss_history.as_ref().map(|rows| rows.0.as_slice());
    [
        count(lead.vehicle_schedule.as_ref().map(|rows| rows.0.len())),
        count(lead.driver_schedule.as_ref().map(|rows| rows.0.len())),
        count(losses.map(<[_]>::len)),
        losses_total(losses.unwrap_or_default()).to_string(),
        documents.len().to_string(),
        if documents.is_empty() {
            String::new()
        } else {
            let files: Vec<serde_json::Value> = documents
                .iter()
                .map(|document| serde_json::json!({"file_name": document.file_name, "size": document.size}))
                .collect();
            serde_json::Value::Array(files).to_string()
        },
    ]
}

/// What the JSON says of a document: its name, type and size.
fn document_json(document: &Document) -> serde_json::Value {
    serde_json::json!({
        "file_name": document.file_name,
        "media_type": document.media_type,
        "size": document.size,
    })
}

/// The CSV's own columns for a claim's or a change request's fields (stored together in `request`, issue 28): one
/// per field, `request_` and its name (a change's `effective_date` is not the quote details' `effective_date`), in
/// the forms' order, each value guarded like every cell; `reference` before them. The JSON keeps `request` as an
/// object and adds `reference`.
pub fn request_columns() -> &'static [String] {
    static COLUMNS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
        let shared = ["name", "insured_name", "phone", "email"];
        let mut names: Vec<String> = Vec::new();
        for field in contract::forms::CLAIM
            .fields
            .iter()
            .chain(contract::forms::CHANGE.fields)
        {
            let name = format!("request_{}", field.name);
            if !shared.contains(&field.name) && !names.contains(&name) {
                names.push(name);
            }
        }
        names
    });
    &COLUMNS
}

/// The CSV's header: the stored columns but `request`, `reference`, the request's fields, then the standing.
pub fn csv_columns() -> Vec<&'static str> {
    COLUMNS
        .iter()
        .copied()
        .filter(|column| *column != "request")
        .chain(["reference"])
        .chain(request_columns().iter().map(String::as_str))
        .chain(SCHEDULE_COLUMNS)
        .chain(STANDING_COLUMNS)
        .collect()
}

/// `leads` with their `standings` and `documents` (in the same order; a lead without one has none).
pub fn write_csv(
    leads: &[Lead],
    standings: &[Standing],
    documents: &Documents,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    // CRLF line ends, as RFC 4180 writes them; fields quoted when they hold a comma, a quote or a line break.
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(out);
    writer.write_record(csv_columns())?;
    for (index, lead) in leads.iter().enumerate() {
        let standing = standings.get(index).cloned().unwrap_or_default();
        let value = serde_json::to_value(lead).unwrap_or_default();
        let cell = |text: &str| neutralise(printable(text).into_owned());
        let stored = COLUMNS
            .iter()
            .filter(|column| **column != "request")
            .map(|column| {
                let text = match &value[*column] {
                    serde_json::Value::Null => String::new(),
                    serde_json::Value::String(text) => printable(text).into_owned(),
                    // The snapshot's JSON too: serde_json leaves C1 and bidirectional controls raw.
                    other => printable(&other.to_string()).into_owned(),
                };
                match (*column == "phone").then(|| us_phone(&text)).flatten() {
                    Some(phone) => phone,
                    // Anything else, a phone an older version stored otherwise included, is guarded.
                    None => neutralise(text),
                }
            });
        let reference = lead.source.reference(lead.id).unwrap_or_default();
        let request = request_columns().iter().map(|column| {
            let name = column.trim_start_matches("request_");
            cell(
                lead.request
                    .as_ref()
                    .and_then(|request| request.get(name))
                    .unwrap_or_default(),
            )
        });
        let counts = schedule_counts(
            lead,
            documents.get(index).map(Vec::as_slice).unwrap_or_default(),
        )
        .map(|text| cell(&text));
        writer.write_record(
            stored
                .chain([reference])
                .chain(request)
                .chain(counts)
                .chain(
                    [standing.do_not_contact, standing.opted_out_before]
                        .map(Option::unwrap_or_default),
                ),
        )?;
    }
    writer.flush()
}

/// `leads` as a JSON array, each with its standing's two fields (null when none), its losses' total and its
/// documents.
pub fn write_json(
    leads: &[Lead],
    standings: &[Standing],
    documents: &Documents,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let values: Vec<serde_json::Value> = leads
        .iter()
        .enumerate()
        .map(|(index, lead)| {
            let standing = standings.get(index).cloned().unwrap_or_default();
            let mut value = serde_json::to_value(lead).unwrap_or_default();
            value["reference"] = serde_json::json!(lead.source.reference(lead.id));
            value["do_not_contact"] = serde_json::json!(standing.do_not_contact);
            value["opted_out_before"] = serde_json::json!(standing.opted_out_before);
            let losses = lead.loss_history.as_ref().map(|rows| rows.0.as_slice());
            value["losses_total"] = serde_json::json!(losses_total(losses.unwrap_or_default()));
            let attached = documents.get(index).map(Vec::as_slice).unwrap_or_default();
            value["documents"] = attached.iter().map(document_json).collect();
            value
        })
        .collect();
    let text = serde_json::to_string_pretty(&values)?;
    // serde_json escapes C0 controls itself and writes DEL, C1 controls and bidirectional controls as they are.
    // Such characters can only stand inside strings (the rest of the text is ASCII punctuation, digits, letters,
    // spaces and line feeds), where `\uXXXX` means the same character.
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\u{7f}' || (!c.is_ascii() && is_invisible_control(c)) {
            escaped.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            escaped.push(c);
        }
    }
    out.write_all(escaped.as_bytes())?;
    writeln!(out)
}

/// What a formula may begin with: the ASCII starters, a tab and a carriage return, and their full-width (`＝＋－＠`)
/// and small-form (`﹦﹢﹣﹫`) look-alikes, which spreadsheets in East Asian locales read as the ASCII ones.
const FORMULA_STARTERS: [char; 14] = [
    '=', '+', '-', '@', '\t', '\r', '\u{FF1D}', '\u{FF0B}', '\u{FF0D}', '\u{FF20}', '\u{FE66}',
    '\u{FE62}', '\u{FE63}', '\u{FE6B}',
];

/// A cell a spreadsheet could run as a formula, prefixed with an apostrophe; any other as it is.
pub fn neutralise(text: String) -> String {
    if text.starts_with(FORMULA_STARTERS) {
        format!("'{text}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Source, Status};
    use std::borrow::Cow;

    /// The cells of `leads` written as CSV, read back by the `csv` crate.
    fn round_trip(leads: &[Lead]) -> (String, Vec<Vec<String>>) {
        let mut out = Vec::new();
        write_csv(leads, &[], &[], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let rows = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes())
            .records()
            .map(|record| record.unwrap().iter().map(str::to_string).collect())
            .collect();
        (text, rows)
    }

    #[test]
    fn formula_cells_are_neutralised_and_quoted_per_rfc_4180() {
        let lead = |name: &str| Lead {
            name: name.into(),
            ..Lead::default()
        };
        let names = [
            "=HYPERLINK(\"http://x\")",
            "+1 555",
            "-2",
            "@SUM(A1)",
            "\tx",
            "a,b",
            "line\nbreak",
            "plain",
        ];
        let (text, rows) = round_trip(&names.map(lead));
        let column = COLUMNS.iter().position(|c| *c == "name").unwrap();
        let read: Vec<&str> = rows[1..].iter().map(|row| row[column].as_str()).collect();
        assert_eq!(
            read,
            [
                "'=HYPERLINK(\"http://x\")",
                "'+1 555",
                "'-2",
                "'@SUM(A1)",
                "'\tx",
                "a,b",
                "line\nbreak",
                "plain"
            ]
        );
        assert!(
            text.contains(",\"'=HYPERLINK(\"\"http://x\"\")\","),
            "{text}"
        );
        assert!(text.contains(",\"line\nbreak\","), "{text}");
        assert_eq!(neutralise("\rx".into()), "'\rx");
        for wide in [
            "\u{FF1D}HYPERLINK(1)",
            "\u{FF0B}1",
            "\u{FF0D}2",
            "\u{FF20}SUM(A1)",
            "\u{FE66}1",
        ] {
            assert_eq!(neutralise(wide.into()), format!("'{wide}"));
        }
        assert_eq!(neutralise("a\u{FF1D}1".into()), "a\u{FF1D}1");
    }

    #[test]
    fn a_stored_us_phone_is_written_as_people_write_it_and_anything_else_is_guarded() {
        assert_eq!(us_phone("+15552100142").as_deref(), Some("(555) 210-0142"));
        for other in [
            "+1555210014",
            "+155521001420",
            "+4930123456",
            "5552100142",
            "+1555210014x",
        ] {
            assert_eq!(us_phone(other), None, "{other}");
        }
        let lead = |phone: &str| Lead {
            phone: Some(phone.into()),
            ..Lead::default()
        };
        let (_, rows) = round_trip(&[lead("+15552100142"), lead("+4930123456"), lead("=1+1")]);
        let column = COLUMNS.iter().position(|c| *c == "phone").unwrap();
        let read: Vec<&str> = rows[1..].iter().map(|row| row[column].as_str()).collect();
        assert_eq!(read, ["(555) 210-0142", "'+4930123456", "'=1+1"]);
    }

    #[test]
    fn output_shows_no_control_or_bidirectional_character_raw() {
        assert_eq!(printable("plain"), Cow::Borrowed("plain"));
        assert_eq!(
            printable("a\u{1b}[31mb\u{9b}c\u{202E}d\u{7f}e\r\nf\rg\u{0}\th\ni\u{200F}"),
            "a\u{FFFD}[31mb\u{FFFD}c\u{FFFD}d\u{FFFD}e\nf\u{FFFD}g\u{FFFD}\th\ni\u{FFFD}"
        );
        let lead = Lead {
            name: "a\u{1b}b\u{9b}c\u{202E}d\u{7f}e\u{2066}f\u{0}".into(),
            ..Lead::default()
        };
        let mut out = Vec::new();
        write_json(std::slice::from_ref(&lead), &[], &[], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(r#""a\u001bb\u009bc\u202ed\u007fe\u2066f\u0000""#),
            "{text}"
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back[0]["name"], lead.name.as_str(), "escaped, not changed");
    }

    #[test]
    fn csv_has_a_header_and_one_row_per_lead() {
        let lead = Lead {
            id: 7,
            source: Source::Contact,
            status: Status::Won,
            name: "Dana".into(),
            message: Some("Hi, \"there\"".into()),
            ..Lead::default()
        };
        let (text, rows) = round_trip(&[lead]);
        let lines: Vec<&str> = text.split("\r\n").collect();
        assert!(lines[0].starts_with("id,source,status,created_at,name,email"));
        assert!(lines[1].starts_with("7,contact,won,,Dana,"));
        assert!(lines[1].contains("\"Hi, \"\"there\"\"\""));
        let header = csv_columns();
        assert_eq!(rows[0], header);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].len(), header.len());
    }

    #[test]
    fn a_requests_fields_have_columns_of_their_own_guarded_like_the_rest() {
        let mut request = crate::store::Request::default();
        request.set("what_happened", "=cmd|' /C calc'!A0");
        request.set("effective_date", "2026-12-01");
        let lead = Lead {
            id: 45,
            source: Source::Change,
            request: Some(request),
            ..Lead::default()
        };
        let (_, rows) = round_trip(&[lead]);
        let at = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
        assert_eq!(rows[1][at("reference")], "CHG-000045");
        assert_eq!(rows[1][at("request_what_happened")], "'=cmd|' /C calc'!A0");
        assert_eq!(rows[1][at("request_effective_date")], "2026-12-01");
        assert_eq!(rows[1][at("effective_date")], "");
        assert!(
            !rows[0]
                .iter()
                .any(|c| c == "request" || c.contains("license_number"))
        );
    }
}
