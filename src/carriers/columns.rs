//! The census CSV's columns, found by header name, and one data row read into a [`Carrier`]: its fields as text
//! (UTF-8, or Latin-1 for older extracts), without control or bidirectional-control characters (nothing a name
//! needs, and they could disguise what a terminal or a spreadsheet shows), and its dates as `YYYY-MM-DD`.

use std::borrow::Cow;

use csv::ByteRecord;

use super::{Carrier, Operation, parse_dot};
use crate::text::is_invisible_control;

/// Where each column the census file has is, by header name.
pub(super) struct Columns {
    width: usize,
    dot: usize,
    legal_name: usize,
    dba_name: Option<usize>,
    city: Option<usize>,
    state: Option<usize>,
    operation: Option<usize>,
    hazmat: Option<usize>,
    mcs150_date: Option<usize>,
    power_units: Option<usize>,
    drivers: Option<usize>,
}

impl Columns {
    pub(super) fn find(headers: &ByteRecord) -> Result<Columns, String> {
        let names: Vec<String> = headers
            .iter()
            .map(|name| {
                text(name)
                    .trim_start_matches('\u{feff}')
                    .trim()
                    .to_ascii_uppercase()
            })
            .collect();
        let position = |name: &str| names.iter().position(|found| found == name);
        let required = |name: &str| {
            position(name).ok_or_else(|| {
                format!(
                    "the file has no {name} column; is it FMCSA's census CSV? Its header is: {}",
                    clip(&names.join(","), 200)
                )
            })
        };
        Ok(Columns {
            width: names.len(),
            dot: required("DOT_NUMBER")?,
            legal_name: required("LEGAL_NAME")?,
            dba_name: position("DBA_NAME"),
            city: position("PHY_CITY"),
            state: position("PHY_STATE"),
            operation: position("CARRIER_OPERATION"),
            hazmat: position("HM_FLAG"),
            mcs150_date: position("MCS150_DATE"),
            power_units: position("NBR_POWER_UNIT"),
            drivers: position("DRIVER_TOTAL"),
        })
    }

    /// The carrier in one data row, or what is wrong with the row.
    pub(super) fn carrier(&self, record: &ByteRecord) -> Result<Carrier, String> {
        if record.len() != self.width {
            return Err(format!(
                "{} fields where the header has {}",
                record.len(),
                self.width
            ));
        }
        let field = |index: Option<usize>| -> Option<Cow<'_, str>> {
            let mut value = text(record.get(index?)?);
            if value.contains(is_invisible_control) {
                // A line break inside a quoted name (`\r\n` too) is one space; bidirectional controls go.
                let mut shown = String::with_capacity(value.len());
                for c in value.chars() {
                    if c.is_control() {
                        if !shown.ends_with(' ') {
                            shown.push(' ');
                        }
                    } else if !is_invisible_control(c) {
                        shown.push(c);
                    }
                }
                value = Cow::Owned(shown);
            }
            let trimmed = value.trim();
            if trimmed.is_empty() {
                None
            } else if trimmed.len() == value.len() {
                Some(value)
            } else {
                Some(Cow::Owned(trimmed.to_string()))
            }
        };
        let count = |index: Option<usize>, name: &str| -> Result<Option<u32>, String> {
            match field(index) {
                None => Ok(None),
                Some(value) => value
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("{name} {:?} is not a whole number", clip(&value, 20))),
            }
        };
        let dot_text = field(Some(self.dot)).unwrap_or_default();
        let dot_number = parse_dot(&dot_text).ok_or_else(|| {
            format!(
                "DOT_NUMBER {:?} is not a number of 1-8 digits",
                clip(&dot_text, 20)
            )
        })?;
        let legal_name = field(Some(self.legal_name)).ok_or("LEGAL_NAME is empty")?;
        Ok(Carrier {
            dot_number,
            legal_name: legal_name.into_owned(),
            dba_name: field(self.dba_name).map(Cow::into_owned),
            city: field(self.city).map(Cow::into_owned),
            state: field(self.state).map(Cow::into_owned),
            power_units: count(self.power_units, "NBR_POWER_UNIT")?,
            drivers: count(self.drivers, "DRIVER_TOTAL")?,
            operation: field(self.operation).and_then(|code| Operation::from_code(&code)),
            hazmat: field(self.hazmat).and_then(|flag| match flag.as_ref() {
                "Y" | "y" => Some(true),
                "N" | "n" => Some(false),
                _ => None,
            }),
            mcs150_date: field(self.mcs150_date).and_then(|date| iso_date(&date)),
        })
    }
}

/// A field as text: UTF-8 as it is, anything else read as Latin-1 (older census extracts are), so no row is lost
/// to its encoding.
fn text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

fn clip(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

/// The census's dates as `YYYY-MM-DD`: `20231108` (with or without a time after it), `2023-11-08`, `11/08/2023`
/// and Oracle's `08-NOV-23`. Anything else is no date rather than a malformed row: the date is shown, not used.
pub fn iso_date(text: &str) -> Option<String> {
    let text = text.trim();
    let digits = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse::<u32>().ok())?
    };
    let (year, month, day) =
        if text.len() >= 8 && text.as_bytes()[..8].iter().all(u8::is_ascii_digit) {
            (
                digits(text.get(..4)?)?,
                digits(text.get(4..6)?)?,
                digits(text.get(6..8)?)?,
            )
        } else if text.len() >= 10 && text.as_bytes()[4] == b'-' && text.as_bytes()[7] == b'-' {
            // `get`, not indexing: a byte past the dashes may be inside a non-ASCII character.
            (
                digits(text.get(..4)?)?,
                digits(text.get(5..7)?)?,
                digits(text.get(8..10)?)?,
            )
        } else if let [month, day, year] = text.split('/').collect::<Vec<_>>()[..] {
            (digits(year.get(..4)?)?, digits(month)?, digits(day)?)
        } else if let [day, month, year] = text.split('-').collect::<Vec<_>>()[..] {
            const MONTHS: [&str; 12] = [
                "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
            ];
            let month = MONTHS
                .iter()
                .position(|m| m.eq_ignore_ascii_case(month))
                .map(|m| m as u32 + 1)?;
            let year = match (year.len(), digits(year)?) {
                // Two-digit years: the census starts in the 1970s.
                (2, yy) if yy < 70 => 2000 + yy,
                (2, yy) => 1900 + yy,
                (4, yyyy) => yyyy,
                _ => return None,
            };
            (year, month, digits(day)?)
        } else {
            return None;
        };
    ((1900..=2999).contains(&year) && (1..=12).contains(&month) && (1..=31).contains(&day))
        .then(|| format!("{year:04}-{month:02}-{day:02}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns(header: &str) -> Result<Columns, String> {
        Columns::find(&ByteRecord::from(header.split(',').collect::<Vec<_>>()))
    }

    #[test]
    fn columns_are_found_by_name_in_any_order() {
        let found =
            columns("\u{feff}phy_city,EXTRA,LEGAL_NAME, DOT_NUMBER ,NBR_POWER_UNIT").unwrap();
        assert_eq!(
            (found.dot, found.legal_name, found.city, found.power_units),
            (3, 2, Some(0), Some(4))
        );
        assert_eq!(found.drivers, None);
        let error = columns("NAME,ADDRESS").err().unwrap();
        assert!(error.contains("no DOT_NUMBER column"), "{error}");
    }

    #[test]
    fn rows_are_read_or_say_what_is_wrong() {
        let found =
            columns("DOT_NUMBER,LEGAL_NAME,NBR_POWER_UNIT,HM_FLAG,CARRIER_OPERATION,MCS150_DATE")
                .unwrap();
        let row = |fields: &[&str]| found.carrier(&ByteRecord::from(fields.to_vec()));
        let carrier = row(&["  42", " ACME ", "", "Y", "B", "20231108 1342"]).unwrap();
        assert_eq!(carrier.dot_number, 42);
        assert_eq!(carrier.legal_name, "ACME");
        assert_eq!(
            row(&["1", "A\u{202E}B\nC", "", "", "", ""])
                .unwrap()
                .legal_name,
            "AB C"
        );
        assert_eq!(carrier.power_units, None);
        assert_eq!(carrier.hazmat, Some(true));
        assert_eq!(carrier.operation, Some(Operation::IntrastateHazmat));
        assert_eq!(carrier.mcs150_date.as_deref(), Some("2023-11-08"));
        assert!(
            row(&["x", "A", "", "", "", ""])
                .unwrap_err()
                .contains("DOT_NUMBER")
        );
        assert!(
            row(&["1", " ", "", "", "", ""])
                .unwrap_err()
                .contains("LEGAL_NAME")
        );
        assert!(
            row(&["1", "A", "many", "", "", ""])
                .unwrap_err()
                .contains("NBR_POWER_UNIT")
        );
        assert!(
            row(&["1", "A"])
                .unwrap_err()
                .contains("2 fields where the header has 6")
        );
    }

    #[test]
    fn latin_1_names_are_kept() {
        assert_eq!(text(b"TRANSPORTES PE\xd1A"), "TRANSPORTES PEÑA");
        assert_eq!(text("PEÑA".as_bytes()), "PEÑA");
    }

    #[test]
    fn census_dates_become_iso_dates() {
        for (given, expected) in [
            ("20231108", Some("2023-11-08")),
            ("20231108 0000", Some("2023-11-08")),
            ("2023-11-08", Some("2023-11-08")),
            ("11/08/2023", Some("2023-11-08")),
            ("08-NOV-23", Some("2023-11-08")),
            ("08-nov-98", Some("1998-11-08")),
            ("20231308", None),
            ("2023-11-0é", None),
            ("2023-1é-08", None),
            ("é023-11-08", None),
            ("11/08/20é3", None),
            ("08-NOé-23", None),
            ("yesterday", None),
            ("", None),
        ] {
            assert_eq!(iso_date(given).as_deref(), expected, "{given:?}");
        }
    }
}
