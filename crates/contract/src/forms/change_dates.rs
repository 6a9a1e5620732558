//! The policy change request's dates and their bounds (issue 36: no date without an end), each against the
//! agency's today that the server passes in: the effective date from today to a year from today, a driver 18 to 100
//! years old, a hire date not after today. The fields and their messages are in [`super::policy_change`]; the
//! effective date has two refusals (too early, too late), so the second is [`EFFECTIVE_DATE_TOO_LATE`] here.

use super::calendar::CalendarDate;
use super::policy_change::EFFECTIVE_DATE;

/// The refusal of an effective date more than a year after the agency's today: an insurer binds nothing that far
/// ahead, and a year such as 9999 is a typing mistake the agency would otherwise find only on the phone.
pub const EFFECTIVE_DATE_TOO_LATE: &str = "The effective date must be within a year from today";

/// How far ahead a change may be asked to take effect.
pub const EFFECTIVE_WITHIN_YEARS: i32 = 1;

/// Why a change may not take effect on `requested`, given the agency's `today`, or `None` when it may: not before
/// today (an insurer backdates nothing a web form asks for; a day already past needs a person on the phone), not
/// after the same day a year from now (29 February's year later is 28 February).
pub fn effective_date_refusal(
    requested: CalendarDate,
    today: CalendarDate,
) -> Option<&'static str> {
    if requested < today {
        Some(EFFECTIVE_DATE.refused_message())
    } else if today
        .years_later(EFFECTIVE_WITHIN_YEARS)
        .is_some_and(|latest| requested > latest)
    {
        Some(EFFECTIVE_DATE_TOO_LATE)
    } else {
        None
    }
}

/// The youngest a commercial driver can be: 18 for a CDL within one state (21 across state lines, which is the
/// insurer's question, not the form's).
pub const YOUNGEST_DRIVER_AGE: i32 = 18;
/// Past this, a date of birth is a typing mistake (a year of 1926 for 1962).
pub const OLDEST_DRIVER_AGE: i32 = 100;

/// Whether a driver born on `born` is [`YOUNGEST_DRIVER_AGE`] to [`OLDEST_DRIVER_AGE`] years old on `today`. A
/// driver born on 29 February comes of age on 1 March in a year without one: the later of the two ways states
/// count it, so the form never takes a driver some state would call too young.
pub fn driver_age_ok(born: CalendarDate, today: CalendarDate) -> bool {
    let youngest = today.years_earlier(YOUNGEST_DRIVER_AGE);
    let oldest = today.years_earlier(OLDEST_DRIVER_AGE + 1);
    youngest.is_some_and(|latest_birthday| born <= latest_birthday)
        && oldest.is_none_or(|too_early| born > too_early)
}

/// Whether a driver hired on `hired` may be added on the agency's `today`: not after today. A driver whose first
/// day is still ahead is added once hired; a hire date in 2099 is a typing mistake.
pub fn hire_date_ok(hired: CalendarDate, today: CalendarDate) -> bool {
    hired <= today
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forms::policy_change::{DRIVER_DATE_OF_BIRTH, HIRE_DATE};

    fn date(text: &str) -> CalendarDate {
        CalendarDate::parse(text).expect(text)
    }

    #[test]
    fn an_effective_date_runs_from_today_to_a_year_from_today_each_end_with_its_message() {
        let today = date("2026-03-02");
        for ok in ["2026-03-02", "2026-04-01", "2027-03-02"] {
            assert_eq!(effective_date_refusal(date(ok), today), None, "{ok}");
        }
        for past in ["2026-03-01", "2025-12-31"] {
            assert_eq!(
                effective_date_refusal(date(past), today),
                Some("The effective date cannot be in the past"),
                "{past}"
            );
        }
        for late in ["2027-03-03", "2099-01-01", "9999-12-31"] {
            assert_eq!(
                effective_date_refusal(date(late), today),
                Some("The effective date must be within a year from today"),
                "{late}"
            );
        }
        // From 29 February, a year is 28 February.
        let leap = date("2028-02-29");
        assert_eq!(effective_date_refusal(date("2029-02-28"), leap), None);
        assert!(effective_date_refusal(date("2029-03-01"), leap).is_some());
        assert_ne!(EFFECTIVE_DATE.refused, EFFECTIVE_DATE.invalid);
        assert_ne!(EFFECTIVE_DATE.refused, Some(EFFECTIVE_DATE_TOO_LATE));
    }

    #[test]
    fn drivers_are_18_to_100() {
        let today = date("2026-03-02");
        assert!(driver_age_ok(date("2008-03-02"), today), "18 today");
        assert!(!driver_age_ok(date("2008-03-03"), today), "18 tomorrow");
        assert!(driver_age_ok(date("1962-07-15"), today));
        assert!(
            driver_age_ok(date("1925-03-03"), today),
            "100 until tomorrow"
        );
        assert!(!driver_age_ok(date("1925-03-02"), today), "101 today");
        assert!(!driver_age_ok(date("2030-01-01"), today));
        assert!(!driver_age_ok(date("2099-01-01"), today));
        // Born on 29 February: 18 on 1 March of a year without one, the day every way of counting agrees on.
        assert!(driver_age_ok(date("2008-02-29"), date("2026-03-01")));
        assert!(!driver_age_ok(date("2008-02-29"), date("2026-02-28")));
        assert_eq!(
            DRIVER_DATE_OF_BIRTH.refused_message(),
            "The driver must be 18 to 100 years old: please check the date of birth"
        );
    }

    #[test]
    fn a_hire_date_is_today_or_before_with_its_own_message() {
        let today = date("2026-03-02");
        for ok in ["2026-03-02", "2026-03-01", "1990-01-01"] {
            assert!(hire_date_ok(date(ok), today), "{ok}");
        }
        for late in ["2026-03-03", "2099-01-01"] {
            assert!(!hire_date_ok(date(late), today), "{late}");
        }
        assert_eq!(
            HIRE_DATE.refused_message(),
            "The hire date cannot be in the future"
        );
        assert_ne!(HIRE_DATE.refused, HIRE_DATE.invalid);
    }
}
