//! A quote's schedules (issue 39): the vehicles, drivers and losses an underwriter prices from, as validated
//! (src/leads/validate), stored as JSON arrays in the lead's own columns (`vehicle_schedule`, `driver_schedule`,
//! `loss_history`, migration 0017) through [`Rows`], and read back typed for the exports, the agency's e-mail and the
//! submission page. Never a driver's licence number: the type has no place for one.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A power unit or trailer of the fleet. Dollars are whole.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vehicle {
    pub year: i64,
    pub make: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Upper case, its check digit verified.
    pub vin: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stated_value: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garaging_zip: Option<String>,
}

/// A driver, as ACORD 163 lists one, without the licence number.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Driver {
    pub name: String,
    /// YYYY-MM-DD.
    pub date_of_birth: String,
    /// A US state or DC by its postal code, upper case.
    pub license_state: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub years_experience: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violations_3y: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accidents_3y: Option<i64>,
}

/// A loss of the last ten years.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loss {
    /// YYYY-MM-DD.
    pub date: String,
    /// `liability`, `physical_damage`, `cargo` or `other` (`contract::forms::schedules::LOSS_KINDS`).
    pub kind: String,
    /// Whole dollars paid or reserved.
    pub amount: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The three lists of a quote's details; empty where none was sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedules {
    pub vehicle_schedule: Vec<Vehicle>,
    pub driver_schedule: Vec<Driver>,
    pub loss_history: Vec<Loss>,
}

impl Schedules {
    pub fn is_empty(&self) -> bool {
        self.vehicle_schedule.is_empty()
            && self.driver_schedule.is_empty()
            && self.loss_history.is_empty()
    }

    /// The columns' values as stored, in the order `vehicle_schedule`, `driver_schedule`, `loss_history`.
    pub fn columns(&self) -> StoredColumns {
        (
            Rows::of(&self.vehicle_schedule),
            Rows::of(&self.driver_schedule),
            Rows::of(&self.loss_history),
        )
    }
}

/// The three columns as stored: `None` for an empty list.
pub type StoredColumns = (
    Option<Rows<Vehicle>>,
    Option<Rows<Driver>>,
    Option<Rows<Loss>>,
);

/// The sum of the losses' amounts, in whole dollars.
pub fn losses_total(losses: &[Loss]) -> i64 {
    losses.iter().map(|loss| loss.amount).sum()
}

/// A list stored as one JSON array in a column (and serialized as that array in a lead's JSON export).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Rows<T>(pub Vec<T>);

impl<T: Clone> Rows<T> {
    /// The rows of a non-empty list; `None` for an empty one (the column is then NULL).
    pub fn of(list: &[T]) -> Option<Rows<T>> {
        (!list.is_empty()).then(|| Rows(list.to_vec()))
    }
}

impl<T: Serialize> ToSql for Rows<T> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        let text = serde_json::to_string(&self.0)
            .map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))?;
        Ok(ToSqlOutput::from(text))
    }
}

impl<T: DeserializeOwned> FromSql for Rows<T> {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let text = value.as_str()?;
        serde_json::from_str(text)
            .map(Rows)
            .map_err(|error| FromSqlError::Other(Box::new(error)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_go_to_json_and_back_and_an_empty_list_is_no_column() {
        let losses = vec![
            Loss {
                date: "2024-03-15".into(),
                kind: "cargo".into(),
                amount: 12_500,
                description: None,
            },
            Loss {
                date: "2023-01-02".into(),
                kind: "liability".into(),
                amount: 40_000,
                description: Some("Rear-ended at a light".into()),
            },
        ];
        assert_eq!(losses_total(&losses), 52_500);
        let connection = rusqlite::Connection::open_in_memory().unwrap();
        let stored: Rows<Loss> = connection
            .query_row("SELECT ?1", [Rows(losses.clone())], |row| row.get(0))
            .unwrap();
        assert_eq!(stored.0, losses);
        assert_eq!(Rows::<Loss>::of(&[]), None);
        let json = serde_json::to_string(&Rows(losses)).unwrap();
        assert!(json.starts_with("[{\"date\":\"2024-03-15\",\"kind\":\"cargo\",\"amount\":12500}"));
    }
}
