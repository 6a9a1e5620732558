//! The first notice of loss's rules (issue 28): who reports and how to reach them, when and where the loss happened
//! (not in the future: checked against the server's clock in UTC, which the caller passes in, on the contract's
//! rule [`claim::loss_in_future`]), what happened, and the optional facts the agency opens the claim with. The
//! insurer must be `not_sure` or one the content lists ([`crate::insurers`]).

use contract::forms::calendar::{CalendarDate, ClockTime, DateTime};
use contract::forms::claim;
use contract::forms::{self as rules, Field};
use time::OffsetDateTime;

use super::coi::multiline;
use super::{FieldErrors, RawFields, check, email, length, name, optional_phone, sanitize};
use crate::store::Request;

/// A claim as stored: the lead's shared columns and the form's own fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimLead {
    pub name: String,
    pub phone: String,
    /// Empty when none was given: the agency calls back, an address only adds a written confirmation.
    pub email: String,
    pub insured_name: Option<String>,
    pub request: Request,
}

pub fn claim(fields: &RawFields, now_utc: OffsetDateTime) -> Result<ClaimLead, FieldErrors> {
    let mut errors = FieldErrors::new();
    let name = check(&mut errors, &rules::NAME, name(fields.get("name")));
    let phone = check(
        &mut errors,
        &rules::SERVICE_PHONE,
        required_phone(fields.get("phone")),
    );
    let email = check(
        &mut errors,
        &claim::EMAIL_OPTIONAL,
        optional_email(fields.get("email")),
    );
    let mut request = Request::default();
    let date = check(
        &mut errors,
        &claim::LOSS_DATE,
        required(&claim::LOSS_DATE, fields, CalendarDate::parse),
    );
    let time = check(
        &mut errors,
        &claim::LOSS_TIME,
        required(&claim::LOSS_TIME, fields, ClockTime::parse),
    );
    if let (Some(date), Some(time)) = (date, time) {
        if let Some(field) = claim::loss_in_future(date, time, calendar_now(now_utc)) {
            errors.insert(field.name.into(), field.refused_message());
        }
        request.set(claim::LOSS_DATE.name, date.to_string());
        request.set(claim::LOSS_TIME.name, time.to_string());
    }
    let city = check(
        &mut errors,
        &claim::LOSS_CITY,
        length(&claim::LOSS_CITY, sanitize(fields.get("loss_city"))),
    );
    request.set(claim::LOSS_CITY.name, city.unwrap_or_default());
    let state = check(
        &mut errors,
        &claim::LOSS_STATE,
        us_state(&claim::LOSS_STATE, fields.get("loss_state")),
    );
    request.set(claim::LOSS_STATE.name, state.unwrap_or_default());
    let happened = check(
        &mut errors,
        &claim::WHAT_HAPPENED,
        length(
            &claim::WHAT_HAPPENED,
            multiline(fields.get("what_happened")),
        ),
    );
    request.set(claim::WHAT_HAPPENED.name, happened.unwrap_or_default());
    let insured = check(
        &mut errors,
        &claim::INSURED_NAME_OPTIONAL,
        optional_text(
            &claim::INSURED_NAME_OPTIONAL,
            sanitize(fields.get("insured_name")),
        ),
    )
    .flatten();
    let policy = check(
        &mut errors,
        &rules::POLICY_NUMBER,
        policy_number(fields.get("policy_number")),
    );
    request.set(rules::POLICY_NUMBER.name, policy.unwrap_or_default());
    let insurer = check(&mut errors, &claim::INSURER, insurer(fields.get("insurer")));
    request.set(claim::INSURER.name, insurer.unwrap_or_default());
    let vehicles = check(
        &mut errors,
        &claim::VEHICLES_INVOLVED,
        length(
            &claim::VEHICLES_INVOLVED,
            multiline(fields.get("vehicles_involved")),
        ),
    );
    request.set(claim::VEHICLES_INVOLVED.name, vehicles.unwrap_or_default());
    for (field, choices) in [
        (&claim::INJURIES, &claim::INJURIES_CHOICES),
        (&claim::TOWED, &claim::TOWED_CHOICES),
    ] {
        let chosen = check(
            &mut errors,
            field,
            optional_choice(field, choices, fields.get(field.name)),
        );
        request.set(field.name, chosen.unwrap_or_default());
    }
    let police = check(
        &mut errors,
        &claim::POLICE_REPORT_NUMBER,
        length(
            &claim::POLICE_REPORT_NUMBER,
            sanitize(fields.get("police_report_number")),
        ),
    );
    request.set(claim::POLICE_REPORT_NUMBER.name, police.unwrap_or_default());
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ClaimLead {
        name: name.unwrap_or_default(),
        phone: phone.unwrap_or_default(),
        email: email.unwrap_or_default(),
        insured_name: insured,
        request,
    })
}

/// The contract's date and time of `now` (UTC).
pub(super) fn calendar_now(now: OffsetDateTime) -> DateTime {
    let date = CalendarDate::new(now.year(), u8::from(now.month()), now.day());
    let time = ClockTime::new(now.hour(), now.minute());
    match (date, time) {
        (Some(date), Some(time)) => DateTime::new(date, time),
        // Out of the calendar's years 1-9999: no clock of this program's lifetime.
        _ => DateTime::new(
            CalendarDate::new(9999, 12, 31).unwrap_or_else(|| unreachable!()),
            ClockTime::new(23, 59).unwrap_or_else(|| unreachable!()),
        ),
    }
}

/// A required value read by `parse`: the field's `missing` message when empty, its `invalid` one when unreadable.
pub(super) fn required<T>(
    field: &Field,
    fields: &RawFields,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<T, &'static str> {
    let raw = fields.get(field.name).trim();
    if raw.is_empty() {
        return Err(field.missing_message());
    }
    parse(raw).ok_or(field.invalid_message())
}

/// The service forms' phone: required, then the lead forms' rule; stored as +1 and ten digits.
pub(super) fn required_phone(raw: &str) -> Result<String, &'static str> {
    optional_phone(raw)?.ok_or(rules::SERVICE_PHONE.missing_message())
}

/// An optional e-mail address: empty when none, else the lead forms' rule.
fn optional_email(raw: &str) -> Result<String, &'static str> {
    if raw.trim().is_empty() {
        Ok(String::new())
    } else {
        email(raw)
    }
}

/// Optional text: `None` when empty, else held to the field's limits.
pub(super) fn optional_text(field: &Field, text: String) -> Result<Option<String>, &'static str> {
    if text.is_empty() {
        Ok(None)
    } else {
        length(field, text).map(Some)
    }
}

/// A US state or DC by its postal code, any case; stored upper case.
pub(super) fn us_state(field: &Field, raw: &str) -> Result<String, &'static str> {
    let code = raw.trim().to_ascii_uppercase();
    if code.is_empty() {
        return Err(field.missing_message());
    }
    if contract::forms::details::US_STATES.contains(&code.as_str()) {
        Ok(code)
    } else {
        Err(field.invalid_message())
    }
}

/// An optional policy number, by the contract's length and pattern.
pub(super) fn policy_number(raw: &str) -> Result<String, &'static str> {
    let number = raw.trim();
    if number.is_empty() {
        return Ok(String::new());
    }
    let field = &rules::POLICY_NUMBER;
    let number = length(field, number.to_string())?;
    if rules::is_policy_number(&number) {
        Ok(number)
    } else {
        Err(field.invalid_message())
    }
}

/// The insurer: empty (not answered), `not_sure`, or the id of an insurer the content lists.
fn insurer(raw: &str) -> Result<String, &'static str> {
    let value = raw.trim();
    if value.is_empty() {
        return Ok(String::new());
    }
    let known = value == claim::INSURER_NOT_SURE
        || (claim::is_insurer_value(value) && crate::insurers::find(value).is_some());
    if known {
        Ok(value.to_string())
    } else {
        Err(claim::INSURER.invalid_message())
    }
}

/// An optional choice among `choices`' values: empty is not answered.
pub(super) fn optional_choice(
    field: &Field,
    choices: &[(&str, &str)],
    raw: &str,
) -> Result<String, &'static str> {
    let value = raw.trim();
    if value.is_empty() || choices.iter().any(|(known, _)| *known == value) {
        Ok(value.to_string())
    } else {
        Err(field.invalid_message())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leads::validate::tests::fields;
    use time::macros::datetime;

    /// 15:00 UTC: 11:00 on the Eastern daylight clock.
    const NOW: OffsetDateTime = datetime!(2026-03-02 15:00 UTC);

    fn good() -> Vec<(&'static str, &'static str)> {
        vec![
            ("name", "Rosa Diaz"),
            ("phone", "(214) 555-0199"),
            ("loss_date", "2026-03-02"),
            ("loss_time", "09:15"),
            ("loss_city", "Waco"),
            ("loss_state", "tx"),
            (
                "what_happened",
                "Rear-ended at a light on I-35,\r\nno one hurt.",
            ),
        ]
    }

    fn error(field: &'static str, value: &'static str) -> &'static str {
        let mut pairs = good();
        pairs.retain(|(k, _)| *k != field);
        pairs.push((field, value));
        claim(&fields(&pairs), NOW).unwrap_err()[field]
    }

    #[test]
    fn a_good_claim_is_cleaned_for_storage() {
        let lead = claim(&fields(&good()), NOW).unwrap();
        assert_eq!(lead.phone, "+12145550199");
        assert_eq!(lead.email, "");
        assert_eq!(lead.request.get("loss_state"), Some("TX"));
        assert_eq!(
            lead.request.get("what_happened"),
            Some("Rear-ended at a light on I-35,\nno one hurt.")
        );
        assert_eq!(lead.request.get("insurer"), None);
    }

    #[test]
    fn each_rule_has_its_message() {
        assert_eq!(
            error("loss_date", "2026-03-03"),
            claim::LOSS_DATE.refused_message()
        );
        assert_eq!(
            error("loss_time", "11:30"),
            claim::LOSS_TIME.refused_message()
        );
        assert_eq!(
            error("loss_date", "03/02/2026"),
            claim::LOSS_DATE.invalid_message()
        );
        assert_eq!(error("loss_time", ""), claim::LOSS_TIME.missing_message());
        assert_eq!(error("phone", ""), rules::SERVICE_PHONE.missing_message());
        assert_eq!(
            error("loss_state", "ZZ"),
            claim::LOSS_STATE.invalid_message()
        );
        assert_eq!(
            error("insurer", "acme-mutual"),
            claim::INSURER.invalid_message()
        );
        assert_eq!(
            error("injuries", "maybe"),
            claim::INJURIES.invalid_message()
        );
        assert_eq!(
            error("what_happened", "Crash"),
            claim::WHAT_HAPPENED.min_limit().message
        );
        assert_eq!(
            error("policy_number", "AB#1"),
            rules::POLICY_NUMBER.invalid_message()
        );
    }

    #[test]
    fn not_sure_and_a_listed_insurer_are_taken() {
        for value in std::iter::once(claim::INSURER_NOT_SURE)
            .chain(crate::insurers::all().map(|insurer| insurer.id))
        {
            let mut pairs = good();
            pairs.push(("insurer", value));
            let lead = claim(&fields(&pairs), NOW).unwrap();
            assert_eq!(lead.request.get("insurer"), Some(value));
        }
    }
}
