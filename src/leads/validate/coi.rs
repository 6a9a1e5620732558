//! The certificate of insurance request's rules (issue 13): who asks, whose policy, who holds the certificate and by
//! when it is needed. The date is checked against the agency's today, which the caller passes in (see
//! [`crate::clock::local_today`]) so that the rule can be tested on any day.

use contract::forms::{self as rules, Field};
use time::Date;

use super::{FieldErrors, RawFields, check, dot_number, length, person, sanitize, text};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoiLead {
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub insured_name: String,
    pub dot_number: Option<String>,
    pub certificate_holder: String,
    pub holder_address: String,
    pub additional_insured: bool,
    pub waiver_of_subrogation: bool,
    /// YYYY-MM-DD.
    pub needed_by: String,
    pub notes: Option<String>,
}

pub fn coi(fields: &RawFields, today: Date) -> Result<CoiLead, FieldErrors> {
    let mut errors = FieldErrors::new();
    let (name, email, phone) = person(&mut errors, fields);
    let insured_name = text(&mut errors, fields, &rules::INSURED_NAME);
    let dot = check(
        &mut errors,
        &rules::DOT_NUMBER,
        dot_number(fields.get("dot_number")),
    );
    let holder = text(&mut errors, fields, &rules::CERTIFICATE_HOLDER);
    let address = lines(&mut errors, fields, &rules::HOLDER_ADDRESS);
    let additional = check(
        &mut errors,
        &rules::ADDITIONAL_INSURED,
        flag(&rules::ADDITIONAL_INSURED, fields.get("additional_insured")),
    );
    let waiver = check(
        &mut errors,
        &rules::WAIVER_OF_SUBROGATION,
        flag(
            &rules::WAIVER_OF_SUBROGATION,
            fields.get("waiver_of_subrogation"),
        ),
    );
    let needed_by = check(
        &mut errors,
        &rules::NEEDED_BY,
        not_before(&rules::NEEDED_BY, fields.get("needed_by"), today),
    );
    let notes = lines(&mut errors, fields, &rules::NOTES);
    if !errors.is_empty() {
        return Err(errors);
    }
    let dot = dot.unwrap_or_default();
    let notes = notes.unwrap_or_default();
    Ok(CoiLead {
        name: name.unwrap_or_default(),
        email: email.unwrap_or_default(),
        phone: phone.flatten(),
        insured_name: insured_name.unwrap_or_default(),
        dot_number: (!dot.is_empty()).then_some(dot),
        certificate_holder: holder.unwrap_or_default(),
        holder_address: address.unwrap_or_default(),
        additional_insured: additional.unwrap_or_default(),
        waiver_of_subrogation: waiver.unwrap_or_default(),
        needed_by: needed_by.map(|date| date.to_string()).unwrap_or_default(),
        notes: (!notes.is_empty()).then_some(notes),
    })
}

/// A text of several lines, cleaned as one ([`multiline`]) and held to its length.
fn lines(errors: &mut FieldErrors, fields: &RawFields, field: &Field) -> Option<String> {
    check(
        errors,
        field,
        length(field, multiline(fields.get(field.name))),
    )
}

/// Text that may span lines (an address, notes): each line sanitised like a one-line field, line breaks kept.
pub(super) fn multiline(raw: &str) -> String {
    raw.replace("\r\n", "\n")
        .split('\n')
        .map(sanitize)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// A checkbox: absent, empty or `false`/`no`/`off`/`0` is no; `true`/`on`/`yes`/`1` is yes; anything else is refused.
pub(super) fn flag(field: &rules::Field, raw: &str) -> Result<bool, &'static str> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "" | "false" | "no" | "off" | "0" => Ok(false),
        "true" | "yes" | "on" | "1" => Ok(true),
        _ => Err(field.invalid_message()),
    }
}

/// A YYYY-MM-DD date, as `<input type="date">` sends it.
pub(super) fn date(raw: &str) -> Option<Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(raw.trim(), format).ok()
}

/// A required date that is `today` or later.
fn not_before(field: &rules::Field, raw: &str, today: Date) -> Result<Date, &'static str> {
    if raw.trim().is_empty() {
        return Err(field.missing_message());
    }
    match date(raw) {
        Some(date) if date >= today => Ok(date),
        _ => Err(field.invalid_message()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leads::validate::tests::fields;
    use time::macros::date;

    const TODAY: Date = date!(2026 - 03 - 02);

    fn good() -> Vec<(&'static str, &'static str)> {
        vec![
            ("name", "Dana Smith"),
            ("email", "Dana@Example.com"),
            ("insured_name", "Lone Star Haulers LLC"),
            ("certificate_holder", "Acme Logistics"),
            ("holder_address", "1 Main St\r\nAustin, TX 78701"),
            ("additional_insured", "on"),
            ("needed_by", "2026-03-02"),
        ]
    }

    #[test]
    fn a_good_request_is_cleaned_for_storage() {
        let lead = coi(&fields(&good()), TODAY).unwrap();
        assert_eq!(lead.email, "dana@example.com");
        assert_eq!(lead.holder_address, "1 Main St\nAustin, TX 78701");
        assert!(lead.additional_insured && !lead.waiver_of_subrogation);
        assert_eq!(lead.needed_by, "2026-03-02");
        assert_eq!(lead.dot_number, None);
    }

    #[test]
    fn each_rule_has_its_message() {
        let error = |field: &'static str, value: &'static str| {
            let mut pairs = good();
            pairs.retain(|(k, _)| *k != field);
            pairs.push((field, value));
            coi(&fields(&pairs), TODAY).unwrap_err()[field]
        };
        assert_eq!(
            error("needed_by", "2026-03-01"),
            rules::NEEDED_BY.invalid_message()
        );
        assert_eq!(
            error("needed_by", "03/05/2026"),
            rules::NEEDED_BY.invalid_message()
        );
        assert_eq!(error("needed_by", ""), rules::NEEDED_BY.missing_message());
        assert_eq!(
            error("dot_number", "123456789"),
            "DOT number must be 1-8 digits"
        );
        assert_eq!(
            error("insured_name", " "),
            "Insured name must be at least 2 characters"
        );
        assert_eq!(
            error("certificate_holder", ""),
            "Certificate holder must be at least 2 characters"
        );
        assert_eq!(
            error("holder_address", "Austin"),
            rules::HOLDER_ADDRESS.min_limit().message
        );
        assert_eq!(
            error("waiver_of_subrogation", "maybe"),
            "Waiver of subrogation must be yes or no"
        );
        assert_eq!(
            error("notes", &*"x".repeat(2001).leak()),
            "Notes must be less than 2000 characters"
        );
    }
}
