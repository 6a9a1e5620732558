//! Carriers: the FMCSA Motor Carrier Census, kept locally so a quote's DOT number can be matched to a company
//! without asking anyone else. [`import`] streams the census CSV into a new SQLite file and swaps it in whole;
//! [`lookup`] answers from whichever file is in place (reopened when an import replaced it); [`routes`] is
//! `GET /api/carriers/<dot>`, rate-limited per IP. The census lives in its own file (`carriers_database`, beside the
//! leads by default) so lead backups stay small.
//!
//! This file holds what they share: the one shape a carrier is stored, answered and snapshotted in. Only the
//! columns the API shows are ever stored: the census's phone, fax, e-mail and street are never read into memory
//! beyond the CSV parser's buffer, so they cannot leak through an answer, a lead or a backup.

mod capped;
mod columns;
pub mod import;
pub mod lookup;
mod routes;

use serde::{Deserialize, Serialize};

pub use lookup::{Census, CensusError};
pub use routes::stage;

/// Largest DOT number the form accepts: 1-8 digits.
pub const MAX_DOT_DIGITS: usize = 8;

/// One carrier as the API answers it and as a lead's snapshot keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carrier {
    pub dot_number: u32,
    pub legal_name: String,
    pub dba_name: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub power_units: Option<u32>,
    pub drivers: Option<u32>,
    pub operation: Option<Operation>,
    pub hazmat: Option<bool>,
    /// The date of the carrier's last MCS-150 filing, `YYYY-MM-DD`.
    pub mcs150_date: Option<String>,
}

/// The census's `CARRIER_OPERATION`: A, B or C.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Operation {
    #[serde(rename = "interstate")]
    Interstate,
    #[serde(rename = "intrastate hazmat")]
    IntrastateHazmat,
    #[serde(rename = "intrastate non-hazmat")]
    IntrastateNonHazmat,
}

impl Operation {
    /// The census's one-letter code, which is also how it is stored.
    pub fn from_code(code: &str) -> Option<Operation> {
        match code.trim() {
            "A" | "a" => Some(Operation::Interstate),
            "B" | "b" => Some(Operation::IntrastateHazmat),
            "C" | "c" => Some(Operation::IntrastateNonHazmat),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Operation::Interstate => "A",
            Operation::IntrastateHazmat => "B",
            Operation::IntrastateNonHazmat => "C",
        }
    }
}

pub use crate::store::CarrierSnapshot;

impl From<Carrier> for CarrierSnapshot {
    fn from(carrier: Carrier) -> Self {
        CarrierSnapshot(serde_json::to_value(carrier).unwrap_or_default())
    }
}

/// A DOT number as typed in a URL or a form: 1-8 ASCII digits, not all zeros.
pub fn parse_dot(text: &str) -> Option<u32> {
    let text = text.trim();
    if text.is_empty() || text.len() > MAX_DOT_DIGITS || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|dot| *dot > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_numbers_are_one_to_eight_digits() {
        assert_eq!(parse_dot("1234567"), Some(1_234_567));
        assert_eq!(parse_dot(" 00042 "), Some(42));
        assert_eq!(parse_dot("99999999"), Some(99_999_999));
        for bad in ["", "0", "000", "123456789", "12a", "-1", "+5", "1 2", "١٢"] {
            assert_eq!(parse_dot(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn operations_read_the_census_codes_and_answer_in_words() {
        assert_eq!(Operation::from_code("A"), Some(Operation::Interstate));
        assert_eq!(
            Operation::from_code(" c "),
            Some(Operation::IntrastateNonHazmat)
        );
        assert_eq!(Operation::from_code("X"), None);
        assert_eq!(
            serde_json::to_value(Operation::IntrastateHazmat).unwrap(),
            "intrastate hazmat"
        );
        for op in [
            Operation::Interstate,
            Operation::IntrastateHazmat,
            Operation::IntrastateNonHazmat,
        ] {
            assert_eq!(Operation::from_code(op.code()), Some(op));
        }
    }
}
