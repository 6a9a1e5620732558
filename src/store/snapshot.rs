//! The carrier a lead matched in the FMCSA census (src/carriers), as stored with the lead: JSON text, read back
//! whatever it holds.

use serde::Serialize;

/// The carrier a lead matched, as the census had it when the lead was stored: kept in the lead's
/// `carrier_snapshot` column as JSON text. Read back as whatever JSON was stored (a later version may store more or
/// other fields), so an old snapshot never makes a lead unreadable.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct CarrierSnapshot(pub serde_json::Value);

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
