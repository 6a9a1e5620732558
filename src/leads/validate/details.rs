//! The rules of "Speed up your quote" (issue 13, part 2): every field optional, each checked with its own message;
//! lists (states, commodities) cleaned, deduplicated and stored comma-separated; the schedules (issue 39) by
//! [`super::schedules`], against the agency's today.

use contract::forms::Field;
use contract::forms::details::{self as rules, COMMODITIES_CHOICES, US_STATES};

use time::Date;

use super::change::calendar_date;
use super::coi::{date, flag};
use super::schedules::schedules;
use super::{FieldErrors, RawFields, check, text};

pub use crate::store::details::Details;

/// The details, or the first error of each field. The token is checked by the caller (it decides 404 or 410).
pub fn details(fields: &RawFields, today: Date) -> Result<Details, FieldErrors> {
    let mut errors = FieldErrors::new();
    let schedules = schedules(fields, calendar_date(today), &mut errors);
    let mc_number = check(
        &mut errors,
        &rules::MC_NUMBER,
        mc_number(fields.get("mc_number")),
    );
    let years = number(&mut errors, &rules::YEARS_IN_BUSINESS, fields);
    let radius = choice(&mut errors, &rules::RADIUS, fields, &rules::RADIUS_CHOICES);
    let states = check(
        &mut errors,
        &rules::OPERATING_STATES,
        states(fields.get("operating_states")),
    );
    let commodities = check(
        &mut errors,
        &rules::COMMODITIES,
        commodities(fields.get("commodities")),
    )
    .flatten();
    let other = text(&mut errors, fields, &rules::COMMODITIES_OTHER);
    let other = other.filter(|text| !text.is_empty());
    let chose_other = commodities
        .as_deref()
        .is_some_and(|list| list.split(',').any(|c| c == "other"));
    if chose_other && other.is_none() && !errors.contains_key(rules::COMMODITIES_OTHER.name) {
        errors.insert(
            rules::COMMODITIES_OTHER.name.into(),
            rules::COMMODITIES_OTHER.missing_message(),
        );
    }
    let hazmat = check(
        &mut errors,
        &rules::HAZMAT,
        optional_flag(&rules::HAZMAT, fields.get("hazmat")),
    )
    .flatten();
    let power_units = number(&mut errors, &rules::POWER_UNITS, fields);
    let trailers = number(&mut errors, &rules::TRAILERS, fields);
    let drivers = number(&mut errors, &rules::DRIVERS, fields);
    let insurer = text(&mut errors, fields, &rules::CURRENT_INSURER);
    let expiration = optional_date(&mut errors, &rules::POLICY_EXPIRATION, fields);
    let effective = optional_date(&mut errors, &rules::EFFECTIVE_DATE, fields);
    let claims = number(&mut errors, &rules::CLAIMS_3Y, fields);
    let best_time = choice(
        &mut errors,
        &rules::BEST_TIME_TO_CALL,
        fields,
        &rules::BEST_TIME_CHOICES,
    );
    if !errors.is_empty() {
        return Err(errors);
    }
    let filled = |text: Option<String>| text.filter(|t| !t.is_empty());
    Ok(Details {
        mc_number: filled(mc_number.flatten()),
        years_in_business: years,
        radius,
        operating_states: filled(states),
        commodities,
        // Kept only with `other` chosen: otherwise it describes nothing the visitor picked.
        commodities_other: other.filter(|_| chose_other),
        hazmat,
        power_units,
        trailers,
        drivers,
        current_insurer: filled(insurer),
        policy_expiration: expiration,
        effective_date: effective,
        claims_3y: claims,
        best_time_to_call: best_time,
        schedules,
    })
}

/// Up to eight digits, written with or without `MC` in front (`MC-123456`); stored as the digits.
fn mc_number(raw: &str) -> Result<Option<String>, &'static str> {
    let text = raw.trim();
    let digits = text
        .strip_prefix("MC")
        .or_else(|| text.strip_prefix("mc"))
        .unwrap_or(text)
        .trim_start_matches([' ', '-', '#']);
    if text.is_empty() {
        return Ok(None);
    }
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(rules::MC_NUMBER.invalid_message());
    }
    Ok(Some(digits.to_string()))
}

/// An optional whole number within the field's range.
fn number(errors: &mut FieldErrors, field: &Field, fields: &RawFields) -> Option<i64> {
    let raw = fields.get(field.name).trim();
    if raw.is_empty() {
        return None;
    }
    let (min, max) = field.range.unwrap_or((0, i64::MAX));
    match raw.parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Some(n),
        _ => {
            errors.insert(field.name.into(), field.invalid_message());
            None
        }
    }
}

/// An optional value of a closed list.
fn choice(
    errors: &mut FieldErrors,
    field: &Field,
    fields: &RawFields,
    choices: &[(&str, &str)],
) -> Option<String> {
    let raw = fields.get(field.name).trim();
    if raw.is_empty() {
        return None;
    }
    if choices.iter().any(|(value, _)| *value == raw) {
        Some(raw.to_string())
    } else {
        errors.insert(field.name.into(), field.invalid_message());
        None
    }
}

/// An optional YYYY-MM-DD date.
fn optional_date(errors: &mut FieldErrors, field: &Field, fields: &RawFields) -> Option<String> {
    let raw = fields.get(field.name).trim();
    if raw.is_empty() {
        return None;
    }
    match date(raw) {
        Some(date) => Some(date.to_string()),
        None => {
            errors.insert(field.name.into(), field.invalid_message());
            None
        }
    }
}

/// Yes, no, or not said.
fn optional_flag(field: &Field, raw: &str) -> Result<Option<bool>, &'static str> {
    if raw.trim().is_empty() {
        Ok(None)
    } else {
        flag(field, raw).map(Some)
    }
}

/// `tx, ok NM` -> `TX,OK,NM`, in the order given, each once.
fn states(raw: &str) -> Result<String, &'static str> {
    let message = rules::OPERATING_STATES.invalid_message();
    if raw.chars().count() > rules::OPERATING_STATES.max_limit().chars {
        return Err(message);
    }
    let mut found: Vec<String> = Vec::new();
    for code in raw
        .split([',', ' ', ';', '\n', '\t'])
        .filter(|c| !c.is_empty())
    {
        let code = code.to_ascii_uppercase();
        if !US_STATES.contains(&code.as_str()) {
            return Err(message);
        }
        if !found.contains(&code) {
            found.push(code);
        }
    }
    Ok(found.join(","))
}

/// Choices of the commodity list (comma-separated, as intake joins checkboxes of one name), each once.
fn commodities(raw: &str) -> Result<Option<String>, &'static str> {
    let mut found: Vec<&str> = Vec::new();
    for value in raw.split(',').map(str::trim).filter(|v| !v.is_empty()) {
        let Some((known, _)) = COMMODITIES_CHOICES
            .iter()
            .find(|(known, _)| *known == value)
        else {
            return Err(rules::COMMODITIES.invalid_message());
        };
        if !found.contains(known) {
            found.push(known);
        }
    }
    Ok((!found.is_empty()).then(|| found.join(",")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leads::validate::tests::fields;
    use time::macros::date;

    const TODAY: Date = date!(2026 - 03 - 02);

    #[test]
    fn everything_is_optional_and_cleaned() {
        assert_eq!(details(&fields(&[]), TODAY).unwrap(), Details::default());
        let found = details(
            &fields(&[
                ("mc_number", "MC-012345"),
                ("years_in_business", "7"),
                ("radius", "regional"),
                ("operating_states", "tx, ok NM,tx"),
                ("commodities", "machinery,other,machinery"),
                ("commodities_other", " Wind turbine blades "),
                ("hazmat", "no"),
                ("power_units", "3"),
                ("claims_3y", "0"),
                ("policy_expiration", "2026-12-31"),
                ("best_time_to_call", "morning"),
            ]),
            TODAY,
        )
        .unwrap();
        assert_eq!(found.mc_number.as_deref(), Some("012345"));
        assert_eq!(found.operating_states.as_deref(), Some("TX,OK,NM"));
        assert_eq!(found.commodities.as_deref(), Some("machinery,other"));
        assert_eq!(
            found.commodities_other.as_deref(),
            Some("Wind turbine blades")
        );
        assert_eq!(found.hazmat, Some(false));
        assert_eq!(found.claims_3y, Some(0));
    }

    #[test]
    fn each_rule_has_its_message() {
        let errors = details(
            &fields(&[
                ("mc_number", "12345678901"),
                ("years_in_business", "-1"),
                ("radius", "moon"),
                ("operating_states", "TX, ZZ"),
                ("commodities", "other"),
                ("hazmat", "perhaps"),
                ("power_units", "2.5"),
                ("effective_date", "31/12/2026"),
                ("best_time_to_call", "midnight"),
            ]),
            TODAY,
        )
        .unwrap_err();
        assert_eq!(errors["mc_number"], "MC number must be 1-8 digits");
        assert_eq!(
            errors["years_in_business"],
            "Years in business must be a whole number from 0 to 100"
        );
        assert_eq!(
            errors["radius"],
            "Please choose local, regional or long haul"
        );
        assert_eq!(
            errors["operating_states"],
            "Operating states must be two-letter US state codes, such as TX, OK"
        );
        assert_eq!(
            errors["commodities_other"],
            "Please say which other commodities you haul"
        );
        assert_eq!(errors["hazmat"], "Hazmat must be yes or no");
        assert_eq!(
            errors["power_units"],
            "Power units must be a whole number from 0 to 10000"
        );
        assert_eq!(
            errors["effective_date"],
            "Effective date must be a valid date"
        );
        assert_eq!(
            errors["best_time_to_call"],
            "Please choose a time to call from the list"
        );
        assert_eq!(errors.len(), 9);
    }
}
