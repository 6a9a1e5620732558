//! The policy change request's rules (issue 28): who asks (name, insured, phone, e-mail, policy number), which kind
//! of change ([`policy_change::CHANGE_KINDS`]), the day it should take effect (from the agency's today, which the
//! caller passes in: [`crate::clock::local_today`], the `time_zone` setting's day, to a year from it), and the chosen
//! kind's own fields, each by the contract's rule (a VIN's check digit, a driver's age, a hire date not after today,
//! a ZIP code). Only the chosen kind's
//! fields are read: the page without JavaScript posts every section, and what was typed in another one before the
//! person changed their mind is not part of the request. A driver's license number is never read.

use contract::forms::calendar::CalendarDate;
use contract::forms::policy_change::{self as change, ChangeKind};
use contract::forms::{self as rules, Field};
use time::Date;

use super::claim::{optional_choice, policy_number, required, required_phone, us_state};
use super::coi::multiline;
use super::{
    FieldErrors, RawFields, check, email, is_combining_mark, length, name, sanitize, text,
};
use crate::store::Request;

/// A change request as stored: the lead's shared columns and the form's own fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeLead {
    pub name: String,
    pub insured_name: String,
    pub phone: String,
    pub email: String,
    pub request: Request,
}

pub fn change(fields: &RawFields, today: Date) -> Result<ChangeLead, FieldErrors> {
    let today = calendar_date(today);
    let mut errors = FieldErrors::new();
    let name = check(&mut errors, &rules::NAME, name(fields.get("name")));
    let insured = text(&mut errors, fields, &rules::INSURED_NAME);
    let phone = check(
        &mut errors,
        &rules::SERVICE_PHONE,
        required_phone(fields.get("phone")),
    );
    let email = check(&mut errors, &rules::EMAIL, email(fields.get("email")));
    let mut request = Request::default();
    let policy = check(
        &mut errors,
        &rules::POLICY_NUMBER,
        policy_number(fields.get("policy_number")),
    );
    request.set(rules::POLICY_NUMBER.name, policy.unwrap_or_default());
    let effective = check(
        &mut errors,
        &change::EFFECTIVE_DATE,
        required(&change::EFFECTIVE_DATE, fields, CalendarDate::parse).and_then(|date| {
            match change::effective_date_refusal(date, today) {
                None => Ok(date),
                Some(message) => Err(message),
            }
        }),
    );
    request.set(
        change::EFFECTIVE_DATE.name,
        effective.map(|date| date.to_string()).unwrap_or_default(),
    );
    let kind = check(
        &mut errors,
        &change::CHANGE_KIND,
        required(&change::CHANGE_KIND, fields, ChangeKind::find),
    );
    if let Some(kind) = kind {
        request.set(change::CHANGE_KIND.name, kind.value);
        let own = kind
            .required
            .iter()
            .map(|field| (field, true))
            .chain(kind.optional.iter().map(|field| (field, false)));
        for (field, needed) in own {
            let raw = fields.get(field.name);
            if raw.trim().is_empty() {
                if needed {
                    // Every kind's required field has one of the two (a test of the contract holds it).
                    let message = field
                        .missing
                        .or(field.min.map(|min| min.message))
                        .or(field.invalid)
                        .unwrap_or_default();
                    errors.insert(field.name.into(), message);
                }
                continue;
            }
            if let Some(value) = check(&mut errors, field, kind_field(field, raw, today)) {
                request.set(field.name, value);
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ChangeLead {
        name: name.unwrap_or_default(),
        insured_name: insured.unwrap_or_default(),
        phone: phone.unwrap_or_default(),
        email: email.unwrap_or_default(),
        request,
    })
}

/// The contract's date of a `time` date.
pub(super) fn calendar_date(date: Date) -> CalendarDate {
    CalendarDate::new(date.year(), u8::from(date.month()), date.day())
        .unwrap_or_else(|| unreachable!("a time::Date of years 1-9999 is a calendar date"))
}

/// One of a kind's fields, given (not empty), by its rule; the value as stored.
fn kind_field(field: &Field, raw: &str, today: CalendarDate) -> Result<String, &'static str> {
    let raw = raw.trim();
    match field.name {
        "vehicle_year" | "trailer_year" => model_year(field, raw, today),
        "vin" => {
            let vin = raw.to_ascii_uppercase();
            if !change::is_vin(&vin) {
                Err(field.invalid_message())
            } else if !change::vin_check_digit_ok(&vin) {
                Err(field.refused_message())
            } else {
                Ok(vin)
            }
        }
        "trailer_vin" => {
            let vin = raw.to_ascii_uppercase();
            if vin.len() == change::VIN_LENGTH && change::is_vin(&vin) {
                if change::vin_check_digit_ok(&vin) {
                    Ok(vin)
                } else {
                    Err(field.refused_message())
                }
            } else if change::is_trailer_vin_or_serial(&vin) {
                Ok(vin)
            } else {
                Err(field.invalid_message())
            }
        }
        "stated_value" | "trailer_stated_value" => dollars(field, raw),
        "garaging_zip" if change::is_zip_code(raw) => Ok(raw.to_string()),
        "garaging_zip" => Err(field.invalid_message()),
        "driver_name" => person_name(field, raw),
        "driver_date_of_birth" => match CalendarDate::parse(raw) {
            Some(born) if change::driver_age_ok(born, today) => Ok(born.to_string()),
            Some(_) => Err(field.refused_message()),
            None => Err(field.invalid_message()),
        },
        "hire_date" => match CalendarDate::parse(raw) {
            Some(hired) if change::hire_date_ok(hired, today) => Ok(hired.to_string()),
            Some(_) => Err(field.refused_message()),
            None => Err(field.invalid_message()),
        },
        "license_state" => us_state(field, raw),
        "license_class" => optional_choice(
            field,
            &change::LICENSE_CLASS_CHOICES,
            &raw.to_ascii_uppercase(),
        ),
        "new_address" | "lienholder_address" | "change_details" => length(field, multiline(raw)),
        // Make, model, lienholder's name, the unit a lienholder is for: one line, within the field's limits.
        _ => length(field, sanitize(raw)),
    }
}

/// A model year: four digits, within the field's range and no later than next year.
pub(super) fn model_year(
    field: &Field,
    raw: &str,
    today: CalendarDate,
) -> Result<String, &'static str> {
    if raw.len() != 4 || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(field.invalid_message());
    }
    let year: i64 = raw.parse().map_err(|_| field.invalid_message())?;
    if change::model_year_ok(year, today) {
        Ok(year.to_string())
    } else {
        Err(field
            .out_of_range
            .unwrap_or_else(|| field.invalid_message()))
    }
}

/// Whole dollars, as typed with or without `$` and thousands' commas, within the field's range.
pub(super) fn dollars(field: &Field, raw: &str) -> Result<String, &'static str> {
    let digits: String = raw
        .trim_start_matches('$')
        .chars()
        .filter(|c| *c != ',')
        .collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(field.invalid_message());
    }
    let (min, max) = field.range.unwrap_or((0, i64::MAX));
    match digits.parse::<i64>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value.to_string()),
        _ => Err(field
            .out_of_range
            .unwrap_or_else(|| field.invalid_message())),
    }
}

/// A person's name by the name rule, with `field`'s messages (a driver's).
pub(super) fn person_name(field: &Field, raw: &str) -> Result<String, &'static str> {
    let cleaned = length(field, sanitize(raw))?;
    let allowed = |c: char| {
        c.is_alphabetic() || is_combining_mark(c) || matches!(c, ' ' | '-' | '\'' | '\u{2019}')
    };
    if raw.trim().chars().all(allowed) {
        Ok(cleaned)
    } else {
        Err(field.invalid_message())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leads::validate::tests::fields;
    use time::macros::date;

    const TODAY: Date = date!(2026 - 03 - 02);

    fn good(kind: &'static str) -> Vec<(&'static str, &'static str)> {
        let mut pairs = vec![
            ("name", "Rosa Diaz"),
            ("insured_name", "Diaz Hauling LLC"),
            ("phone", "214-555-0199"),
            ("email", "rosa@example.com"),
            ("change_kind", kind),
            ("effective_date", "2026-03-02"),
        ];
        pairs.extend(match kind {
            "add_vehicle" => vec![
                ("vehicle_year", "2021"),
                ("vehicle_make", "Freightliner"),
                ("vehicle_model", "Cascadia"),
                ("vin", "1m8gdm9axkp042788"),
                ("stated_value", "$85,000"),
                ("garaging_zip", "75201"),
            ],
            "add_driver" => vec![
                ("driver_name", "Luis Ortiz"),
                ("driver_date_of_birth", "1980-05-01"),
                ("license_state", "tx"),
                ("license_class", "a"),
                ("hire_date", "2026-02-23"),
            ],
            _ => vec![("change_details", "Please add my new dispatcher's e-mail.")],
        });
        pairs
    }

    fn error(kind: &'static str, field: &'static str, value: &'static str) -> &'static str {
        let mut pairs = good(kind);
        pairs.retain(|(k, _)| *k != field);
        pairs.push((field, value));
        change(&fields(&pairs), TODAY).unwrap_err()[field]
    }

    #[test]
    fn only_the_chosen_kinds_fields_are_kept() {
        let mut pairs = good("add_vehicle");
        // A driver section filled in before the person chose "Add a vehicle", and a license number no form asks.
        pairs.push(("driver_name", "Luis Ortiz"));
        pairs.push(("license_number", "12345678"));
        let lead = change(&fields(&pairs), TODAY).unwrap();
        assert_eq!(lead.request.get("vin"), Some("1M8GDM9AXKP042788"));
        assert_eq!(lead.request.get("stated_value"), Some("85000"));
        assert_eq!(lead.request.get("driver_name"), None);
        assert_eq!(lead.request.get("license_number"), None);
        let driver = change(&fields(&good("add_driver")), TODAY).unwrap();
        assert_eq!(driver.request.get("license_state"), Some("TX"));
        assert_eq!(driver.request.get("license_class"), Some("A"));
    }

    #[test]
    fn each_rule_has_its_message() {
        assert_eq!(
            error("add_vehicle", "vin", "1M8GDM9A1KP042788"),
            change::VIN.refused_message()
        );
        assert_eq!(
            error("add_vehicle", "vin", "1M8GDM9AXKP04278"),
            change::VIN.invalid_message()
        );
        assert_eq!(
            error("add_vehicle", "effective_date", "2026-03-01"),
            change::EFFECTIVE_DATE.refused_message()
        );
        assert_eq!(
            error("add_vehicle", "effective_date", "9999-12-31"),
            "The effective date must be within a year from today"
        );
        assert_eq!(
            error("add_driver", "hire_date", "2099-01-01"),
            change::HIRE_DATE.refused_message()
        );
        assert_eq!(
            error("add_vehicle", "garaging_zip", ""),
            change::GARAGING_ZIP.missing_message()
        );
        assert_eq!(
            error("add_vehicle", "vehicle_year", "2028"),
            "The model year must be from 1900 to next year"
        );
        assert_eq!(
            error("add_driver", "driver_date_of_birth", "2010-01-01"),
            change::DRIVER_DATE_OF_BIRTH.refused_message()
        );
        assert_eq!(
            error("add_driver", "license_class", "D"),
            change::LICENSE_CLASS.invalid_message()
        );
        assert_eq!(
            error("other", "change_details", ""),
            change::CHANGE_DETAILS.min_limit().message
        );
        assert_eq!(
            error("other", "change_kind", "add_truck"),
            change::CHANGE_KIND.invalid_message()
        );
        assert_eq!(
            error("other", "change_kind", ""),
            change::CHANGE_KIND.missing_message()
        );
    }

    #[test]
    fn every_kind_asks_its_required_fields() {
        for kind in &change::CHANGE_KINDS {
            let pairs = vec![
                ("name", "Rosa Diaz"),
                ("insured_name", "Diaz Hauling LLC"),
                ("phone", "214-555-0199"),
                ("email", "rosa@example.com"),
                ("change_kind", kind.value),
                ("effective_date", "2026-03-02"),
            ];
            let errors = change(&fields(&pairs), TODAY).unwrap_err();
            let named: Vec<&str> = errors.keys().map(|name| name.as_ref()).collect();
            let required: Vec<&str> = kind.required.iter().map(|field| field.name).collect();
            let mut sorted = required.clone();
            sorted.sort_unstable();
            assert_eq!(named, sorted, "{}", kind.value);
        }
    }
}
