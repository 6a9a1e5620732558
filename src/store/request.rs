//! A client request's own fields (issue 28: a claim's loss, a policy change's kind and its facts), stored in the
//! lead's `request` column (migration 0013) as one JSON object of text values, as validated. One column rather than
//! one per field: the two forms have some thirty fields between them, a change uses only its kind's few, and what
//! reads them (the agency's e-mail, the webhook, the export, `leads show`) goes through the contract's list of the
//! form's fields, which gives their order and their labels.

use std::collections::BTreeMap;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

/// Field name -> value, as validated (dates YYYY-MM-DD, times HH:MM, codes as the contract's choices).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request(pub BTreeMap<String, String>);

impl Request {
    /// The value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// Sets `name` to `value` when there is one (an empty optional field is not stored).
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        if !value.is_empty() {
            self.0.insert(name.to_string(), value);
        }
    }

    /// The values in the order of `fields` (the contract's order of the form), then any other, by name.
    pub fn ordered<'a>(
        &'a self,
        fields: &'a [contract::forms::Field],
    ) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let known = fields
            .iter()
            .filter_map(|field| self.get(field.name).map(|value| (field.name, value)));
        let others = self
            .0
            .iter()
            .filter(|(name, _)| !fields.iter().any(|field| field.name == name.as_str()))
            .map(|(name, value)| (name.as_str(), value.as_str()));
        known.chain(others)
    }
}

/// How the agency's e-mail, `leads show` and the export's readers name a field of a request.
pub fn label(name: &str) -> &'static str {
    match name {
        "loss_date" => "Date of loss",
        "loss_time" => "Time of loss",
        "loss_city" => "City",
        "loss_state" => "State",
        "what_happened" => "What happened",
        "policy_number" => "Policy number",
        "insurer" => "Insurer",
        "vehicles_involved" => "Vehicles involved",
        "injuries" => "Injuries",
        "police_report_number" => "Police report",
        "towed" => "Towed",
        "change_kind" => "Change",
        "effective_date" => "Effective date",
        "vehicle_year" => "Year",
        "vehicle_make" => "Make",
        "vehicle_model" => "Model",
        "vin" => "VIN",
        "stated_value" => "Stated value",
        "garaging_zip" => "Garaging ZIP",
        "trailer_year" => "Trailer year",
        "trailer_make" => "Trailer make",
        "trailer_vin" => "Trailer VIN/serial",
        "trailer_stated_value" => "Trailer value",
        "driver_name" => "Driver",
        "driver_date_of_birth" => "Date of birth",
        "license_state" => "License state",
        "license_class" => "License class",
        "hire_date" => "Hire date",
        "new_address" => "New address",
        "lienholder_name" => "Lienholder/payee",
        "lienholder_address" => "Its address",
        "lienholder_vehicle" => "For the unit",
        "change_details" => "Details",
        _ => "Other",
    }
}

/// A stored value as the agency reads it: a choice by its label, an insurer by its name, dollars as dollars.
pub fn shown(name: &str, value: &str) -> String {
    use contract::forms::{claim, policy_change};
    let label_of = |choices: &[(&str, &'static str)]| {
        choices
            .iter()
            .find(|(known, _)| *known == value)
            .map(|(_, label)| label.to_string())
    };
    let found = match name {
        "injuries" => label_of(&claim::INJURIES_CHOICES),
        "towed" => label_of(&claim::TOWED_CHOICES),
        "insurer" if value == claim::INSURER_NOT_SURE => {
            Some(claim::INSURER_NOT_SURE_LABEL.to_string())
        }
        "insurer" => crate::insurers::find(value).map(|insurer| insurer.name.to_string()),
        "change_kind" => policy_change::ChangeKind::find(value).map(|kind| kind.label.to_string()),
        "stated_value" | "trailer_stated_value" => value
            .parse::<u64>()
            .ok()
            .and_then(|amount| i64::try_from(amount).ok())
            .map(crate::text::dollars),
        _ => None,
    };
    found.unwrap_or_else(|| value.to_string())
}

impl serde::Serialize for Request {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl ToSql for Request {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        serde_json::to_string(&self.0)
            .map(ToSqlOutput::from)
            .map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))
    }
}

impl FromSql for Request {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        serde_json::from_str(value.as_str()?)
            .map(Request)
            .map_err(|error| FromSqlError::Other(Box::new(error)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_values_are_not_kept_and_order_follows_the_form() {
        let mut request = Request::default();
        request.set("towed", "no");
        request.set("insurer", "");
        request.set("loss_date", "2026-03-01");
        assert_eq!(request.get("insurer"), None);
        let order: Vec<&str> = request
            .ordered(contract::forms::CLAIM.fields)
            .map(|(name, _)| name)
            .collect();
        assert_eq!(order, ["loss_date", "towed"]);
    }

    #[test]
    fn values_are_shown_by_their_labels() {
        assert_eq!(shown("stated_value", "85000"), "$85,000");
        assert_eq!(shown("stated_value", "100"), "$100");
        assert_eq!(shown("trailer_stated_value", "1250000"), "$1,250,000");
        assert_eq!(shown("change_kind", "add_vehicle"), "Add a vehicle");
        assert_eq!(shown("injuries", "no"), "No one was hurt");
        assert_eq!(shown("insurer", "not_sure"), "Not sure");
        assert_eq!(shown("vin", "1M8GDM9AXKP042788"), "1M8GDM9AXKP042788");
        for field in contract::forms::CLAIM
            .fields
            .iter()
            .chain(contract::forms::CHANGE.fields)
        {
            let shared = ["name", "phone", "email", "insured_name"];
            assert!(
                shared.contains(&field.name) || label(field.name) != "Other",
                "{}",
                field.name
            );
        }
    }
}
