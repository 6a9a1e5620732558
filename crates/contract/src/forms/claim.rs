//! The first notice of loss (issue 28), on `/report-a-claim`: who reports, when and where the loss happened, what
//! happened, and what the agency needs to open the claim with the insurer. Service, not a sale: no marketing
//! consent is asked. It shares the person's name, the phone (required here), the e-mail (optional here) and the
//! policy number with the other forms.
//!
//! When: the date (`loss_date`, YYYY-MM-DD) and the clock time (`loss_time`, HH:MM) as the person's own watch read
//! them where it happened; [`loss_in_future`] checks them against the server's "now" in UTC.

use super::calendar::{CalendarDate, ClockTime, DateTime};
use super::{EMAIL, Field, Limit};

/// Optional: the agency calls back; an address only adds a written confirmation.
pub const EMAIL_OPTIONAL: Field = Field {
    required: false,
    ..EMAIL
};

pub const LOSS_DATE: Field = Field {
    required: true,
    missing: Some("Please enter the date of the loss"),
    invalid: Some("Please enter the date of the loss as a valid date"),
    refused: Some("The date of the loss cannot be in the future"),
    ..Field::text("loss_date")
};

/// An estimate is fine: the insurer asks for one, and a person who does not know the minute still knows the hour.
pub const LOSS_TIME: Field = Field {
    required: true,
    missing: Some("Please enter the time of the loss (an estimate is fine)"),
    invalid: Some("Please enter the time of the loss in hours and minutes, such as 14:30"),
    refused: Some("The time of the loss cannot be later than the time now"),
    ..Field::text("loss_time")
};

pub const LOSS_CITY: Field = Field {
    required: true,
    min: Some(Limit {
        chars: 2,
        message: "Please enter the city or nearest town where it happened",
    }),
    max: Some(Limit {
        chars: 100,
        message: "City must be less than 100 characters",
    }),
    ..Field::text("loss_city")
};

/// A US state or DC by its postal code ([`super::details::US_STATES`]); any case is read, stored upper case.
pub const LOSS_STATE: Field = Field {
    required: true,
    missing: Some("Please choose the state where it happened"),
    invalid: Some("Please choose a US state by its two-letter code, such as TX"),
    pattern: Some("[A-Za-z]{2}"),
    ..Field::text("loss_state")
};

pub const WHAT_HAPPENED: Field = Field {
    required: true,
    min: Some(Limit {
        chars: 10,
        message: "Please describe what happened in at least 10 characters",
    }),
    max: Some(Limit {
        chars: 2000,
        message: "What happened must be less than 2000 characters",
    }),
    ..Field::text("what_happened")
};

/// The insured or the company on the policy, when the person reporting is a driver and not the insured.
pub const INSURED_NAME_OPTIONAL: Field = Field {
    required: false,
    ..super::INSURED_NAME
};

/// The insurer as the content's `insurers` list names it (its id), or [`INSURER_NOT_SURE`]. The list comes from the
/// content, so the contract states only the value's shape ([`is_insurer_value`]); the server also checks the id is
/// on the list it was built with.
pub const INSURER: Field = Field {
    max: Some(Limit {
        chars: 60,
        message: "Please choose the insurer from the list, or Not sure",
    }),
    invalid: Some("Please choose the insurer from the list, or Not sure"),
    ..Field::text("insurer")
};

/// The choice for a person who does not know which insurer: an underscore, which no insurer's id (a slug of
/// letters, digits and hyphens) has, so it can never name one.
pub const INSURER_NOT_SURE: &str = "not_sure";

/// The label of [`INSURER_NOT_SURE`] in the list.
pub const INSURER_NOT_SURE_LABEL: &str = "Not sure";

/// Whether `value` has the shape of an insurer's id (lower-case letters and digits in hyphen-separated words, at
/// most [`INSURER`]'s `max`) or is [`INSURER_NOT_SURE`]. The content's `insurers` list must give ids of this shape.
pub fn is_insurer_value(value: &str) -> bool {
    if value == INSURER_NOT_SURE {
        return true;
    }
    value.len() <= INSURER.max_limit().chars
        && !value.is_empty()
        && value.split('-').all(|word| {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Unit numbers or VINs, as the person writes them (one or several, on lines or with commas): at the roadside
/// nobody types a checked VIN, and a unit number is what a fleet's driver knows.
pub const VEHICLES_INVOLVED: Field = Field {
    max: Some(Limit {
        chars: 500,
        message: "Vehicles involved must be less than 500 characters",
    }),
    ..Field::text("vehicles_involved")
};

/// One of [`INJURIES_CHOICES`]; empty is not answered.
pub const INJURIES: Field = Field {
    invalid: Some("Please choose an answer from the list for injuries"),
    ..Field::text("injuries")
};

pub const POLICE_REPORT_NUMBER: Field = Field {
    max: Some(Limit {
        chars: 50,
        message: "Police report number must be less than 50 characters",
    }),
    ..Field::text("police_report_number")
};

/// One of [`TOWED_CHOICES`]; empty is not answered.
pub const TOWED: Field = Field {
    invalid: Some("Please choose an answer from the list for towing"),
    ..Field::text("towed")
};

/// `injuries` values and how the form names them: whole answers rather than "Yes"/"No", so that a screen reader
/// reading one option alone still says what it means.
pub const INJURIES_CHOICES: [(&str, &str); 3] = [
    ("yes", "Yes, someone was hurt"),
    ("no", "No one was hurt"),
    ("unknown", "Not known yet"),
];

/// `towed` values and how the form names them.
pub const TOWED_CHOICES: [(&str, &str); 3] = [
    ("yes", "Yes, it was towed"),
    ("no", "No, it was not towed"),
    ("unknown", "Not known yet"),
];

/// The US clock furthest ahead of UTC, in minutes: Eastern daylight time (UTC-4), also Puerto Rico's all year.
/// The loss's time is read on the clock where it happened, which the form does not ask (a state can span two
/// zones), so "not in the future" must hold on that clock: a loss on I-95 at 10:50 Eastern is not in the future
/// for an agency in Texas where it is 9:55.
pub const LATEST_US_CLOCK_UTC_OFFSET_MINUTES: i64 = -4 * 60;

/// What a time of "now" is allowed to run ahead of the server's clock, in minutes: people round the minutes up,
/// and their phone's clock is not the server's.
pub const CLOCK_ALLOWANCE_MINUTES: i64 = 5;

/// Which of the loss's fields is in the future, if either, given the current time `now_utc` in UTC: the date
/// ([`LOSS_DATE`], a day after today everywhere in the US) or else the time ([`LOSS_TIME`], later today than it is
/// anywhere in the US). The field's `refused` message says so.
pub fn loss_in_future(
    date: CalendarDate,
    time: ClockTime,
    now_utc: DateTime,
) -> Option<&'static Field> {
    let latest = now_utc.plus_minutes(LATEST_US_CLOCK_UTC_OFFSET_MINUTES + CLOCK_ALLOWANCE_MINUTES);
    if date > latest.date {
        Some(&LOSS_DATE)
    } else if DateTime::new(date, time) > latest {
        Some(&LOSS_TIME)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forms::{CLAIM, CONSENT, FORMS};

    fn date(text: &str) -> CalendarDate {
        CalendarDate::parse(text).expect(text)
    }

    fn time(text: &str) -> ClockTime {
        ClockTime::parse(text).expect(text)
    }

    /// 2026-03-02 15:00 UTC: 11:00 on the Eastern daylight clock, 10:00 Eastern standard, 05:00 in Hawaii.
    fn now() -> DateTime {
        DateTime::new(date("2026-03-02"), time("15:00"))
    }

    #[test]
    fn a_loss_today_or_earlier_is_taken() {
        for (day, clock) in [
            ("2026-03-02", "10:59"),
            ("2026-03-02", "00:00"),
            ("2026-03-01", "23:59"),
            ("2020-01-01", "12:00"),
        ] {
            assert!(
                loss_in_future(date(day), time(clock), now()).is_none(),
                "{day} {clock}"
            );
        }
    }

    #[test]
    fn a_loss_that_is_now_on_the_easternmost_clock_is_not_in_the_future() {
        // 11:00 is now on Eastern daylight time; the allowance takes a rounded-up 11:05 too.
        assert!(loss_in_future(date("2026-03-02"), time("11:00"), now()).is_none());
        assert!(loss_in_future(date("2026-03-02"), time("11:05"), now()).is_none());
    }

    #[test]
    fn a_loss_later_today_than_anywhere_in_the_us_is_refused_on_its_time() {
        let field = loss_in_future(date("2026-03-02"), time("11:06"), now());
        assert_eq!(field.map(|f| f.name), Some("loss_time"));
        assert_eq!(
            field.map(Field::refused_message),
            Some("The time of the loss cannot be later than the time now")
        );
    }

    #[test]
    fn a_loss_dated_after_today_is_refused_on_its_date() {
        let field = loss_in_future(date("2026-03-03"), time("00:01"), now());
        assert_eq!(field.map(|f| f.name), Some("loss_date"));
        assert_eq!(
            field.map(Field::refused_message),
            Some("The date of the loss cannot be in the future")
        );
        assert_eq!(
            loss_in_future(date("2027-01-01"), time("00:00"), now()).map(|f| f.name),
            Some("loss_date")
        );
    }

    #[test]
    fn tomorrow_in_utc_can_still_be_today_in_the_us() {
        // 02:30 UTC on the 3rd is 22:30 on the 2nd in the East: a loss at 22:00 on the 2nd is in the past there.
        let just_after_utc_midnight = DateTime::new(date("2026-03-03"), time("02:30"));
        assert!(
            loss_in_future(date("2026-03-02"), time("22:00"), just_after_utc_midnight).is_none()
        );
        assert_eq!(
            loss_in_future(date("2026-03-03"), time("00:10"), just_after_utc_midnight)
                .map(|f| f.name),
            Some("loss_date")
        );
    }

    #[test]
    fn the_required_fields_are_the_issues() {
        let required: Vec<&str> = CLAIM
            .fields
            .iter()
            .filter(|field| field.required)
            .map(|field| field.name)
            .collect();
        assert_eq!(
            required,
            [
                "name",
                "phone",
                "loss_date",
                "loss_time",
                "loss_city",
                "loss_state",
                "what_happened"
            ]
        );
        assert_eq!(
            (
                WHAT_HAPPENED.min_limit().chars,
                WHAT_HAPPENED.max_limit().chars
            ),
            (10, 2000)
        );
    }

    #[test]
    fn no_marketing_consent_is_asked() {
        assert!(!CLAIM.has_field(CONSENT.name));
        assert!(FORMS.iter().any(|form| form.id == "claim"));
    }

    #[test]
    fn insurer_values_are_slugs_or_not_sure() {
        for value in [
            "not_sure",
            "progressive",
            "great-west-casualty",
            "national-interstate",
            "a1",
        ] {
            assert!(is_insurer_value(value), "{value}");
        }
        let too_long = "a".repeat(61);
        for value in [
            "",
            "Progressive",
            "great west",
            "-progressive",
            "progressive-",
            "great--west",
            "not-sure-",
            "not_sure_at_all",
            "progresivé",
            too_long.as_str(),
        ] {
            assert!(!is_insurer_value(value), "{value}");
        }
    }

    #[test]
    fn the_answers_are_yes_no_or_unknown() {
        for choices in [INJURIES_CHOICES, TOWED_CHOICES] {
            let values: Vec<&str> = choices.iter().map(|(value, _)| *value).collect();
            assert_eq!(values, ["yes", "no", "unknown"]);
        }
    }

    #[test]
    fn the_optional_fields_keep_the_shared_rules() {
        assert!(!EMAIL_OPTIONAL.required && EMAIL_OPTIONAL.pattern == EMAIL.pattern);
        const { assert!(!INSURED_NAME_OPTIONAL.required) };
        assert_eq!(INSURED_NAME_OPTIONAL.name, "insured_name");
    }
}
