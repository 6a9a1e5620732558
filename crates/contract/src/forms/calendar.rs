//! The dates and clock times the client-service forms send, read the one way both sides agree on, and the little
//! calendar arithmetic their rules need ("not in the future", "not in the past", "at least 18 years old").
//!
//! Wire format: a date is `YYYY-MM-DD` and a clock time `HH:MM` (24-hour), exactly what `<input type="date">` and
//! `<input type="time">` send, whatever the language of the page shows. The contract carries its own small types
//! rather than a date library: it depends on nothing the web build's generator does not need, and the server turns
//! its own `time::Date` into a [`CalendarDate`] with [`CalendarDate::new`].

use std::fmt;

/// A day of the proleptic Gregorian calendar, years 1 to 9999. Ordered by time (the fields are in that order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CalendarDate {
    year: i32,
    month: u8,
    day: u8,
}

impl CalendarDate {
    /// The day, if it exists (no 31 April, no 29 February outside leap years).
    pub const fn new(year: i32, month: u8, day: u8) -> Option<CalendarDate> {
        if year < 1 || year > 9999 || month < 1 || month > 12 {
            return None;
        }
        if day < 1 || day > days_in_month(year, month) {
            return None;
        }
        Some(CalendarDate { year, month, day })
    }

    /// `YYYY-MM-DD`, four-digit year, two-digit month and day, nothing around it. Anything else (`2026-3-2`,
    /// `03/02/2026`, `2026-02-30`) is not a date of the forms.
    pub fn parse(text: &str) -> Option<CalendarDate> {
        let bytes = text.as_bytes();
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return None;
        }
        let year = digits(&bytes[0..4])?;
        let month = digits(&bytes[5..7])?;
        let day = digits(&bytes[8..10])?;
        CalendarDate::new(year as i32, month as u8, day as u8)
    }

    pub const fn year(self) -> i32 {
        self.year
    }

    pub const fn month(self) -> u8 {
        self.month
    }

    pub const fn day(self) -> u8 {
        self.day
    }

    /// The same day of the month `years` earlier; 29 February becomes 28 February in a year without one. `None`
    /// before year 1.
    pub const fn years_earlier(self, years: i32) -> Option<CalendarDate> {
        let year = self.year - years;
        if year < 1 {
            return None;
        }
        Some(self.in_year(year))
    }

    /// The same day of the month `years` later (`years` at least 0); 29 February becomes 28 February in a year
    /// without one. `None` after year 9999.
    pub const fn years_later(self, years: i32) -> Option<CalendarDate> {
        let year = self.year.saturating_add(years);
        if year > 9999 {
            return None;
        }
        Some(self.in_year(year))
    }

    /// The same day of the month in `year`; 29 February becomes 28 February in a year without one.
    const fn in_year(self, year: i32) -> CalendarDate {
        let last = days_in_month(year, self.month);
        let day = if self.day > last { last } else { self.day };
        CalendarDate {
            year,
            month: self.month,
            day,
        }
    }

    /// Days since 1970-01-01 (negative before), by the civil-from-days method (H. Hinnant): whole 400-year eras
    /// of 146,097 days, the year counted from March so that the leap day falls at its end.
    const fn days_since_epoch(self) -> i64 {
        let month = self.month as i64;
        let year = self.year as i64 - if month <= 2 { 1 } else { 0 };
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let month_from_march = (month + 9) % 12;
        let day_of_year = (153 * month_from_march + 2) / 5 + self.day as i64 - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }

    /// The day `days` after 1970-01-01; the inverse of `days_since_epoch`.
    const fn from_days_since_epoch(days: i64) -> CalendarDate {
        let days = days + 719_468;
        let era = days.div_euclid(146_097);
        let day_of_era = days - era * 146_097;
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let month_from_march = (5 * day_of_year + 2) / 153;
        let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
        let month = if month_from_march < 10 {
            month_from_march + 3
        } else {
            month_from_march - 9
        };
        let year = year_of_era + era * 400 + if month <= 2 { 1 } else { 0 };
        CalendarDate {
            year: year as i32,
            month: month as u8,
            day: day as u8,
        }
    }
}

impl fmt::Display for CalendarDate {
    /// `YYYY-MM-DD`, as it was sent and as it is stored.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// A time of day to the minute, 00:00 to 23:59. Ordered by time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClockTime {
    hour: u8,
    minute: u8,
}

impl ClockTime {
    pub const fn new(hour: u8, minute: u8) -> Option<ClockTime> {
        if hour > 23 || minute > 59 {
            return None;
        }
        Some(ClockTime { hour, minute })
    }

    /// `HH:MM`, 24-hour, two digits each: what a time input sends at its default step of a minute. `2:30 PM` is
    /// not read: the input never sends it, and a typed one would be a guess between two times.
    pub fn parse(text: &str) -> Option<ClockTime> {
        let bytes = text.as_bytes();
        if bytes.len() != 5 || bytes[2] != b':' {
            return None;
        }
        ClockTime::new(digits(&bytes[0..2])? as u8, digits(&bytes[3..5])? as u8)
    }

    pub const fn hour(self) -> u8 {
        self.hour
    }

    pub const fn minute(self) -> u8 {
        self.minute
    }
}

impl fmt::Display for ClockTime {
    /// `HH:MM`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.hour, self.minute)
    }
}

/// A date and a time of day read on one clock (a wall clock somewhere, or UTC), without saying which: the rules
/// that compare two of them say which clock each is on. Ordered by time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime {
    pub date: CalendarDate,
    pub time: ClockTime,
}

impl DateTime {
    pub const fn new(date: CalendarDate, time: ClockTime) -> DateTime {
        DateTime { date, time }
    }

    /// The moment `minutes` later (earlier when negative) on the same clock, across days, months and years.
    /// Saturates at the calendar's ends rather than leaving it.
    pub const fn plus_minutes(self, minutes: i64) -> DateTime {
        let first = CalendarDate {
            year: 1,
            month: 1,
            day: 1,
        }
        .days_since_epoch()
            * MINUTES_PER_DAY;
        let last = (CalendarDate {
            year: 9999,
            month: 12,
            day: 31,
        }
        .days_since_epoch()
            + 1)
            * MINUTES_PER_DAY
            - 1;
        let mut total = self.minutes_since_epoch().saturating_add(minutes);
        if total < first {
            total = first;
        } else if total > last {
            total = last;
        }
        let minute_of_day = total.rem_euclid(MINUTES_PER_DAY);
        DateTime {
            date: CalendarDate::from_days_since_epoch(total.div_euclid(MINUTES_PER_DAY)),
            time: ClockTime {
                hour: (minute_of_day / 60) as u8,
                minute: (minute_of_day % 60) as u8,
            },
        }
    }

    const fn minutes_since_epoch(self) -> i64 {
        self.date.days_since_epoch() * MINUTES_PER_DAY
            + self.time.hour as i64 * 60
            + self.time.minute as i64
    }
}

const MINUTES_PER_DAY: i64 = 24 * 60;

const fn is_leap_year(year: i32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

const fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// ASCII digits only (no sign, no spaces: `str::parse` would take `+1`), as a number.
fn digits(bytes: &[u8]) -> Option<u32> {
    bytes.iter().try_fold(0u32, |number, byte| {
        byte.is_ascii_digit()
            .then(|| number * 10 + u32::from(byte - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> CalendarDate {
        CalendarDate::parse(text).expect(text)
    }

    fn at(date_text: &str, time_text: &str) -> DateTime {
        DateTime::new(
            date(date_text),
            ClockTime::parse(time_text).expect(time_text),
        )
    }

    #[test]
    fn dates_are_read_only_as_the_date_input_sends_them() {
        assert_eq!(date("2026-03-02").to_string(), "2026-03-02");
        assert_eq!(
            (date("2024-02-29").month(), date("2024-02-29").day()),
            (2, 29)
        );
        for not_a_date in [
            "",
            "2026-3-2",
            "03/02/2026",
            "2026-02-30",
            "2025-02-29",
            "1900-02-29",
            "2026-13-01",
            "2026-00-10",
            "0000-01-01",
            " 2026-03-02",
            "2026-03-02 ",
            "+202-03-02",
            "2026-03-0٢",
        ] {
            assert_eq!(CalendarDate::parse(not_a_date), None, "{not_a_date:?}");
        }
        assert!(
            CalendarDate::parse("2000-02-29").is_some(),
            "400-year leap day"
        );
    }

    #[test]
    fn times_are_read_only_as_the_time_input_sends_them() {
        assert_eq!(ClockTime::parse("00:00"), ClockTime::new(0, 0));
        assert_eq!(
            ClockTime::parse("23:59").map(|t| t.to_string()).as_deref(),
            Some("23:59")
        );
        for not_a_time in [
            "24:00", "12:60", "9:30", "09:30:00", "2:30 PM", "", "09-30", "+9:30",
        ] {
            assert_eq!(ClockTime::parse(not_a_time), None, "{not_a_time:?}");
        }
    }

    #[test]
    fn dates_and_times_order_by_time() {
        assert!(date("2026-03-02") < date("2026-03-10"));
        assert!(date("2025-12-31") < date("2026-01-01"));
        assert!(at("2026-03-02", "23:59") < at("2026-03-03", "00:00"));
        assert!(at("2026-03-02", "09:05") < at("2026-03-02", "10:00"));
    }

    #[test]
    fn minutes_carry_across_days_months_years_and_leap_days() {
        // (from, minutes added, to): across a day, a year, leap and plain Februaries, the epoch, no change; a whole
        // 400-year era either way comes back to the same day; the calendar's ends hold.
        let cases = [
            (("2026-03-02", "02:30"), -240, ("2026-03-01", "22:30")),
            (("2025-12-31", "23:30"), 45, ("2026-01-01", "00:15")),
            (("2024-03-01", "01:00"), -120, ("2024-02-29", "23:00")),
            (("2023-03-01", "01:00"), -120, ("2023-02-28", "23:00")),
            (("1970-01-01", "00:00"), -1, ("1969-12-31", "23:59")),
            (("2026-03-02", "12:00"), 0, ("2026-03-02", "12:00")),
            (
                ("2000-02-29", "12:00"),
                146_097 * MINUTES_PER_DAY,
                ("2400-02-29", "12:00"),
            ),
            (("9999-12-31", "23:59"), 10, ("9999-12-31", "23:59")),
            (("0001-01-01", "00:00"), -10, ("0001-01-01", "00:00")),
        ];
        for ((day, time), minutes, (to_day, to_time)) in cases {
            assert_eq!(
                at(day, time).plus_minutes(minutes),
                at(to_day, to_time),
                "{day} {time} {minutes:+}"
            );
        }
    }

    #[test]
    fn every_day_of_four_centuries_survives_the_round_trip() {
        let mut expected = date("1900-01-01");
        let first = expected.days_since_epoch();
        for offset in 0..146_097 {
            let day = CalendarDate::from_days_since_epoch(first + offset);
            assert_eq!(day, expected);
            assert_eq!(day.days_since_epoch(), first + offset);
            expected = next_day(expected);
        }
    }

    /// The day after, counted the slow way, to check the fast one.
    fn next_day(day: CalendarDate) -> CalendarDate {
        CalendarDate::new(day.year, day.month, day.day + 1)
            .or(CalendarDate::new(day.year, day.month + 1, 1))
            .or(CalendarDate::new(day.year + 1, 1, 1))
            .expect("a next day")
    }

    #[test]
    fn years_earlier_keeps_the_day_or_falls_back_to_the_last_of_february() {
        assert_eq!(
            date("2026-03-02").years_earlier(18),
            Some(date("2008-03-02"))
        );
        assert_eq!(
            date("2028-02-29").years_earlier(18),
            Some(date("2010-02-28"))
        );
        assert_eq!(
            date("2028-02-29").years_earlier(4),
            Some(date("2024-02-29"))
        );
        assert_eq!(date("0010-01-01").years_earlier(10), None);
    }

    #[test]
    fn years_later_keeps_the_day_or_falls_back_to_the_last_of_february() {
        assert_eq!(date("2026-03-02").years_later(1), Some(date("2027-03-02")));
        assert_eq!(date("2028-02-29").years_later(1), Some(date("2029-02-28")));
        assert_eq!(date("2028-02-29").years_later(4), Some(date("2032-02-29")));
        assert_eq!(date("9999-01-01").years_later(1), None);
    }
}
