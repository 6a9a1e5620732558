//! The build date, and the check it serves: the offers' `priceValidUntil` (`offer_valid_until` in facts.toml) must
//! stay ahead of it. The date is passed in (build.rs takes it from `SOURCE_DATE_EPOCH` or the clock), so the same
//! content checks the same way in tests and in reproducible builds.

use std::path::Path;

use crate::problems::Problems;

/// A day, counted from 1970-01-01 (UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildDate(i64);

impl BuildDate {
    /// The day a Unix time (seconds since 1970-01-01 UTC) falls on.
    pub fn from_unix_seconds(seconds: i64) -> Self {
        Self(seconds.div_euclid(86_400))
    }

    /// The day of a date of the (proleptic) Gregorian calendar.
    pub fn from_ymd(year: i64, month: u8, day: u8) -> Self {
        Self(days_from_civil(year, month.into(), day.into()))
    }

    /// The calendar year this day falls in.
    pub fn year(self) -> i64 {
        let mut year = 1970 + self.0.div_euclid(366);
        while days_from_civil(year + 1, 1, 1) <= self.0 {
            year += 1;
        }
        year
    }

    /// Whole years from the year `founded` to this day's year (`{years}` in the content: "for 8 years").
    pub fn years_since(self, founded: u16) -> i64 {
        (self.year() - i64::from(founded)).max(0)
    }
}

/// Search engines show an offer's `priceValidUntil`; a date in the past, or about to be, makes the data stale.
const OFFER_MIN_DAYS_AHEAD: i64 = 60;

pub(crate) fn check_offer_valid_until(
    valid_until: &toml::value::Datetime,
    today: BuildDate,
    file: &Path,
    problems: &mut Problems,
) {
    let Some(date) = valid_until.date.filter(|_| valid_until.time.is_none()) else {
        problems.add(
            file,
            "field `offer_valid_until`: give a plain date like 2027-12-31",
        );
        return;
    };
    let days_left = BuildDate::from_ymd(date.year.into(), date.month, date.day).0 - today.0;
    problems.check(days_left >= OFFER_MIN_DAYS_AHEAD, file, || {
        format!(
            "field `offer_valid_until`: {valid_until} is {days_left} days after the build date; \
             it must be at least {OFFER_MIN_DAYS_AHEAD} days ahead (set a later date, e.g. the end of next year)"
        )
    });
}

/// Days since 1970-01-01 of a proleptic Gregorian date (years counted in 400-year eras of 146,097 days).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_year_and_the_years_since_founding() {
        assert_eq!(BuildDate::from_ymd(1970, 1, 1).year(), 1970);
        assert_eq!(BuildDate::from_ymd(2026, 12, 31).year(), 2026);
        assert_eq!(BuildDate::from_ymd(2027, 1, 1).year(), 2027);
        assert_eq!(BuildDate::from_ymd(2024, 2, 29).year(), 2024);
        assert_eq!(BuildDate::from_ymd(2026, 11, 28).years_since(2018), 8);
        assert_eq!(BuildDate::from_ymd(2026, 11, 28).years_since(2030), 0);
    }

    #[test]
    fn days_are_counted_from_1970() {
        assert_eq!(BuildDate::from_ymd(1970, 1, 1), BuildDate(0));
        assert_eq!(BuildDate::from_ymd(1969, 12, 31), BuildDate(-1));
        assert_eq!(BuildDate::from_ymd(2000, 3, 1), BuildDate(11_017));
        // 2024 is a leap year, 2100 is not.
        assert_eq!(
            BuildDate::from_ymd(2024, 3, 1).0 - BuildDate::from_ymd(2024, 2, 28).0,
            2
        );
        assert_eq!(
            BuildDate::from_ymd(2100, 3, 1).0 - BuildDate::from_ymd(2100, 2, 28).0,
            1
        );
    }

    #[test]
    fn unix_seconds_fall_on_their_utc_day() {
        assert_eq!(BuildDate::from_unix_seconds(0), BuildDate(0));
        assert_eq!(BuildDate::from_unix_seconds(86_399), BuildDate(0));
        assert_eq!(BuildDate::from_unix_seconds(-1), BuildDate(-1));
        // 2026-11-23T13:00:00Z
        assert_eq!(
            BuildDate::from_unix_seconds(1_795_438_800),
            BuildDate::from_ymd(2026, 11, 23)
        );
    }

    fn offer_problems(valid_until: &str, today: BuildDate) -> Vec<String> {
        let mut problems = Problems::new(Path::new("content"));
        let date = valid_until.parse().expect("a TOML date");
        check_offer_valid_until(&date, today, Path::new("content/facts.toml"), &mut problems);
        problems.into_vec()
    }

    #[test]
    fn the_offer_must_run_at_least_60_days_past_the_build() {
        let today = BuildDate::from_ymd(2027, 1, 1);
        assert!(offer_problems("2027-03-02", today).is_empty());
        assert_eq!(
            offer_problems("2027-03-01", today),
            [
                "content/facts.toml: field `offer_valid_until`: 2027-03-01 is 59 days after the build date; it must be \
              at least 60 days ahead (set a later date, e.g. the end of next year)"
            ]
        );
    }

    #[test]
    fn the_offer_is_a_plain_date() {
        let today = BuildDate::from_ymd(2027, 1, 1);
        for wrong in ["2028-03-01T10:00:00", "10:00:00"] {
            assert_eq!(
                offer_problems(wrong, today),
                [
                    "content/facts.toml: field `offer_valid_until`: give a plain date like 2027-12-31"
                ]
            );
        }
    }
}
