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

/// The carrier a lead matched, as the census had it when the lead was stored: kept in the lead's
/// `carrier_snapshot` column as JSON text. Read back as whatever JSON was stored (a later version may store more or
/// other fields), so an old snapshot never makes a lead unreadable.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct CarrierSnapshot(pub serde_json::Value);

impl From<Carrier> for CarrierSnapshot {
    fn from(carrier: Carrier) -> Self {
        CarrierSnapshot(serde_json::to_value(carrier).unwrap_or_default())
    }
}

impl CarrierSnapshot {
    /// `None` for a snapshot that holds nothing (JSON null, from a value that was not text).
    pub fn or_none(snapshot: Option<CarrierSnapshot>) -> Option<CarrierSnapshot> {
        snapshot.filter(|snapshot| !snapshot.0.is_null())
    }

    /// What the agency's notification says of the match: name (and DBA), place, size, operation, hazmat, the
    /// MCS-150 date; what the census did not have is left out.
    pub fn details(&self) -> String {
        let field = |key: &str| match &self.0[key] {
            serde_json::Value::String(text) if !text.trim().is_empty() => {
                Some(text.trim().to_string())
            }
            serde_json::Value::Number(number) => Some(number.to_string()),
            _ => None,
        };
        let mut parts = vec![self.summary()];
        if let Some(dba) = field("dba_name") {
            parts.push(format!("DBA {dba}"));
        }
        let place: Vec<String> = ["city", "state"]
            .iter()
            .filter_map(|key| field(key))
            .collect();
        if !place.is_empty() {
            parts.push(place.join(", "));
        }
        if let Some(units) = field("power_units") {
            parts.push(format!("{units} power units"));
        }
        if let Some(drivers) = field("drivers") {
            parts.push(format!("{drivers} drivers"));
        }
        if let Some(operation) = field("operation") {
            parts.push(operation);
        }
        if self.0["hazmat"].as_bool() == Some(true) {
            parts.push("hazmat".into());
        }
        if let Some(date) = field("mcs150_date") {
            parts.push(format!("MCS-150 {date}"));
        }
        parts.join("; ")
    }

    /// One line for a table: the legal name and the DOT number.
    pub fn summary(&self) -> String {
        let name = self.0["legal_name"].as_str().unwrap_or("?");
        match self.0["dot_number"].as_u64() {
            Some(dot) => format!("{name} (DOT {dot})"),
            None => name.to_string(),
        }
    }
}

impl rusqlite::types::ToSql for CarrierSnapshot {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(self.0.to_string()))
    }
}

/// Any stored value reads: a JSON object as itself, text that is not JSON as a string; anything else (a number,
/// which the column's TEXT affinity keeps as text, other JSON, a BLOB some other program wrote) as JSON null,
/// which the lead then holds as no snapshot (see [`CarrierSnapshot::or_none`]). A lead is never unreadable for its
/// snapshot.
impl rusqlite::types::FromSql for CarrierSnapshot {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let Ok(text) = value.as_str() else {
            return Ok(CarrierSnapshot(serde_json::Value::Null));
        };
        Ok(CarrierSnapshot(match serde_json::from_str(text) {
            Ok(object @ serde_json::Value::Object(_)) => object,
            Ok(_) => serde_json::Value::Null,
            Err(_) => serde_json::Value::String(text.into()),
        }))
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
