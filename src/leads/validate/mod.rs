//! The server's rules for both forms (the browser's checks are only for comfort): the specification's limits and
//! messages, word for word, the first error per field, and the sanitising of name and subject before storing.
//!
//! Input arrives as loose text fields (from JSON or a urlencoded form alike); the output is either a clean
//! [`QuoteLead`] / [`ContactLead`] or a map of field -> message.

mod change;
mod claim;
mod clean;
mod coi;
mod csv;
mod details;
mod schedules;

use std::borrow::Cow;
use std::collections::BTreeMap;

use contract::forms::{self as rules, Field};

pub use crate::fields::{email, length, optional_phone};
pub use crate::text::is_invisible_control;
pub use change::{ChangeLead, change};
pub use claim::{ClaimLead, claim};
pub use clean::{clean_line, sanitize};
pub use coi::{CoiLead, coi};
pub use details::{Details, details};
pub use schedules::NOT_A_LIST;

/// Field name -> the first error message for that field. A name is a form's field (`email`, static) or a schedule
/// row's column (`vehicle_schedule[1].vin`, made by [`contract::forms::schedules::Schedule::error_name`]).
pub type FieldErrors = BTreeMap<Cow<'static, str>, &'static str>;

/// The quote form's insurance type values, from `content/forms.toml` (one per line).
fn insurance_types() -> &'static str {
    crate::built::text("insurance-types.txt")
}

/// Whether `value` is one of the quote form's insurance types.
pub fn is_insurance_type(value: &str) -> bool {
    !value.is_empty() && insurance_types().lines().any(|known| known == value)
}

/// The fields a visitor sends, as text; absent and empty are the same.
#[derive(Debug, Default, Clone)]
pub struct RawFields(pub BTreeMap<String, String>);

impl RawFields {
    pub fn get(&self, name: &str) -> &str {
        self.0.get(name).map(String::as_str).unwrap_or("")
    }

    /// A field stored as given rather than validated (attribution: `utm_*`, `gclid`, URLs), cleaned by
    /// [`clean_line`]; absent when empty.
    pub fn optional(&self, name: &str, max_chars: usize) -> Option<String> {
        clean_line(self.get(name), max_chars)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteLead {
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub company: Option<String>,
    pub insurance_type: String,
    pub vehicle_count: i64,
    pub dot_number: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactLead {
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
}

pub fn quote(fields: &RawFields) -> Result<QuoteLead, FieldErrors> {
    let mut errors = FieldErrors::new();
    let (name, email, phone) = person(&mut errors, fields);
    let company = text(&mut errors, fields, &rules::COMPANY);
    let insurance_type = fields.get("insurance_type").trim();
    if !is_insurance_type(insurance_type) {
        let rule = &rules::INSURANCE_TYPE;
        errors.insert(rule.name.into(), rule.invalid_message());
    }
    let vehicle_count = check(
        &mut errors,
        &rules::VEHICLE_COUNT,
        vehicle_count(fields.get("vehicle_count")),
    );
    let dot = check(
        &mut errors,
        &rules::DOT_NUMBER,
        dot_number(fields.get("dot_number")),
    );
    if !is_true(fields.get("consent")) {
        let rule = &rules::CONSENT;
        errors.insert(rule.name.into(), rule.missing_message());
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let company = company.unwrap_or_default();
    let dot = dot.unwrap_or_default();
    Ok(QuoteLead {
        name: name.unwrap_or_default(),
        email: email.unwrap_or_default(),
        phone: phone.flatten(),
        company: (!company.is_empty()).then_some(company),
        insurance_type: insurance_type.to_string(),
        vehicle_count: vehicle_count.unwrap_or_default(),
        dot_number: (!dot.is_empty()).then_some(dot),
    })
}

pub fn contact(fields: &RawFields) -> Result<ContactLead, FieldErrors> {
    let mut errors = FieldErrors::new();
    let name = check(&mut errors, &rules::NAME, name(fields.get("name")));
    let email = check(&mut errors, &rules::EMAIL, email(fields.get("email")));
    let subject = text(&mut errors, fields, &rules::SUBJECT);
    // Line breaks and tabs are kept in a message; other control characters are not.
    let message: String = fields
        .get("message")
        .replace("\r\n", "\n")
        .chars()
        .filter(|c| *c == '\n' || *c == '\t' || !is_invisible_control(*c))
        .collect::<String>()
        .trim()
        .to_string();
    let message = check(
        &mut errors,
        &rules::MESSAGE,
        length(&rules::MESSAGE, message),
    );
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ContactLead {
        name: name.unwrap_or_default(),
        email: email.unwrap_or_default(),
        subject: subject.unwrap_or_default(),
        message: message.unwrap_or_default(),
    })
}

/// What the opt-out form asks to stop: a phone number (E.164), an e-mail address (lowercased) or both, and a note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptOutRequest {
    pub phone: Option<String>,
    pub email: Option<String>,
    pub note: Option<String>,
}

/// The opt-out form (issue 25): each field by the lead forms' rules, neither required alone, at least one given
/// (else [`rules::optout::ONE_OF_THEM`] on both).
pub fn opt_out(fields: &RawFields) -> Result<OptOutRequest, FieldErrors> {
    use rules::optout;
    let mut errors = FieldErrors::new();
    let phone = check(
        &mut errors,
        &optout::PHONE,
        optional_phone(fields.get(optout::PHONE.name)),
    )
    .flatten();
    let raw_email = fields.get(optout::EMAIL.name).trim();
    let email = if raw_email.is_empty() {
        None
    } else {
        check(&mut errors, &optout::EMAIL, email(raw_email))
    };
    let note = sanitize(fields.get(optout::NOTE.name));
    let note = check(&mut errors, &optout::NOTE, length(&optout::NOTE, note));
    if errors.is_empty() && phone.is_none() && email.is_none() {
        errors.insert(optout::PHONE.name.into(), optout::ONE_OF_THEM);
        errors.insert(optout::EMAIL.name.into(), optout::ONE_OF_THEM);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(OptOutRequest {
        phone,
        email,
        note: note.filter(|note| !note.is_empty()),
    })
}

/// The value, or its first error recorded under the field's name.
fn check<T>(errors: &mut FieldErrors, field: &Field, result: Result<T, &'static str>) -> Option<T> {
    result
        .map_err(|message| errors.insert(field.name.into(), message))
        .ok()
}

/// The name, e-mail address and (optional) phone number of the person a form is from.
fn person(
    errors: &mut FieldErrors,
    fields: &RawFields,
) -> (Option<String>, Option<String>, Option<Option<String>>) {
    let name = check(errors, &rules::NAME, name(fields.get("name")));
    let email = check(errors, &rules::EMAIL, email(fields.get("email")));
    let phone = check(errors, &rules::PHONE, optional_phone(fields.get("phone")));
    (name, email, phone)
}

/// A one-line text field, sanitised and held to its length.
fn text(errors: &mut FieldErrors, fields: &RawFields, field: &Field) -> Option<String> {
    check(
        errors,
        field,
        length(field, sanitize(fields.get(field.name))),
    )
}

/// Spec: 2 to 100 characters of letters, spaces, hyphens and apostrophes; stored sanitised.
fn name(raw: &str) -> Result<String, &'static str> {
    let cleaned = length(&rules::NAME, sanitize(raw))?;
    // Checked on what was typed, so markup never passes by being stripped into something valid.
    // Letters include accents typed as separate combining marks (e.g. "Jose\u{301}" for José).
    let allowed = |c: char| {
        c.is_alphabetic()
            || is_combining_mark(c)
            || c == ' '
            || c == '-'
            || c == '\''
            || c == '\u{2019}'
    };
    if !raw.trim().chars().all(allowed) {
        return Err(rules::NAME.invalid_message());
    }
    Ok(cleaned)
}

/// Optional; up to eight digits (the contract's pattern, checked here in Rust).
fn dot_number(raw: &str) -> Result<String, &'static str> {
    let dot = raw.trim();
    let max = rules::DOT_NUMBER.max_limit();
    if dot.len() > max.chars || !dot.chars().all(|c| c.is_ascii_digit()) {
        return Err(rules::DOT_NUMBER.invalid_message());
    }
    Ok(dot.to_string())
}

/// The Unicode blocks of combining diacritical marks (the marks Latin, Greek and Cyrillic names use).
fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// DECISIONS 10: a whole number from 1.
fn vehicle_count(raw: &str) -> Result<i64, &'static str> {
    let raw = raw.trim();
    let rule = &rules::VEHICLE_COUNT;
    if raw.is_empty() {
        return Err(rule.missing_message());
    }
    let (min, max) = rule.range.unwrap_or((1, i64::MAX));
    match raw.parse::<i64>() {
        Ok(count) if (min..=max).contains(&count) => Ok(count),
        Ok(_) => Err(rule.out_of_range.unwrap_or(rule.invalid_message())),
        // Digits past what a 64-bit number holds are still a number too many, not a format mistake.
        Err(_) if raw.bytes().all(|b| b.is_ascii_digit()) => {
            Err(rule.out_of_range.unwrap_or(rule.invalid_message()))
        }
        Err(_) => Err(rule.invalid_message()),
    }
}

/// Whether `raw` is a YYYY-MM-DD date (what a date input holds).
pub fn is_date(raw: &str) -> bool {
    coi::date(raw).is_some()
}

/// Whether a checkbox or flag says yes (`true`, `on`, `yes` or `1`, in any case, spaces around ignored): the one
/// reading of consent, for validation and for the form page put back.
pub fn is_true(raw: &str) -> bool {
    matches!(
        raw.trim().to_ascii_lowercase().as_str(),
        "true" | "on" | "yes" | "1"
    )
}

#[cfg(test)]
mod tests;
