//! The counting of business minutes over fixed offsets and a zone that switches to summer time, and the built-in
//! hours read back as content/facts.toml states them.

use time::macros::{datetime, offset};
use time::{OffsetDateTime, UtcOffset};

use super::*;

/// Monday to Friday 08:00-18:00, Saturday 10:00-14:00, Sunday closed: the hours content/facts.toml states.
fn agency() -> WeekHours {
    WeekHours::parse(
        "# comment\n\nMonday 08:00 18:00\nTuesday 08:00 18:00\nWednesday 08:00 18:00\nThursday 08:00 18:00\n\
         Friday 08:00 18:00\nSaturday 10:00 14:00\nSunday closed\n",
    )
    .unwrap()
}

/// Monday to Friday 08:00-18:00 only.
fn weekdays() -> WeekHours {
    let day = || {
        vec![Opening {
            opens: 480,
            closes: 1080,
        }]
    };
    WeekHours::new([day(), day(), day(), day(), day(), Vec::new(), Vec::new()])
}

/// Open around the clock every day: business minutes are then the real minutes, whatever the wall clock does.
fn always_open() -> WeekHours {
    WeekHours::new(std::array::from_fn(|_| {
        vec![Opening {
            opens: 0,
            closes: 1440,
        }]
    }))
}

/// Chicago's rules for 2026 alone: CST (-6), CDT (-5) from 2026-03-08 02:00 CST to 2026-11-01 02:00 CDT.
struct Central2026;

impl Zone for Central2026 {
    fn offset_at(&self, instant: OffsetDateTime) -> UtcOffset {
        let summer = datetime!(2026-03-08 08:00 UTC)..datetime!(2026-11-01 07:00 UTC);
        if summer.contains(&instant) {
            offset!(-5)
        } else {
            offset!(-6)
        }
    }
}

const CST: UtcOffset = offset!(-6);

#[test]
fn the_built_hours_are_those_of_site_toml() {
    let built = WeekHours::built();
    assert_eq!(built, &agency());
    assert_eq!(
        built.describe(),
        "Monday 08:00-18:00, Tuesday 08:00-18:00, Wednesday 08:00-18:00, Thursday 08:00-18:00, \
         Friday 08:00-18:00, Saturday 10:00-14:00, Sunday closed"
    );
    assert_eq!(built.business_day_minutes(), 600);
}

#[test]
fn a_weekend_is_not_counted() {
    // 2026-02-07 is a Saturday: a lead at 21:00 with Monday-to-Friday hours waits for Monday 08:00.
    let saturday_night = datetime!(2026-02-07 21:00 -6);
    assert_eq!(
        add_business_minutes_in(&weekdays(), &CST, saturday_night, 60),
        datetime!(2026-02-09 09:00 -6)
    );
    for hours in [weekdays(), agency()] {
        assert_eq!(
            business_minutes_in(&hours, &CST, saturday_night, datetime!(2026-02-09 08:30 -6)),
            30
        );
    }
    // Friday 17:00 to Monday 09:00: Friday's last hour, Saturday's four, Monday's first.
    let friday = datetime!(2026-02-06 17:00 -6);
    let monday = datetime!(2026-02-09 09:00 -6);
    assert_eq!(business_minutes_in(&agency(), &CST, friday, monday), 360);
    assert_eq!(business_minutes_in(&weekdays(), &CST, friday, monday), 120);
    assert_eq!(
        add_business_minutes_in(&agency(), &CST, friday, 360),
        monday
    );
    // The same instants given in UTC count the same.
    assert_eq!(
        business_minutes_in(
            &agency(),
            &CST,
            friday.to_offset(UtcOffset::UTC),
            monday.to_offset(UtcOffset::UTC)
        ),
        360
    );
}

#[test]
fn a_lead_before_opening_counts_from_the_opening() {
    let early = datetime!(2026-02-10 06:00 -6); // a Tuesday
    assert_eq!(
        business_minutes_in(&agency(), &CST, early, datetime!(2026-02-10 08:05 -6)),
        5
    );
    assert_eq!(
        business_minutes_in(&agency(), &CST, early, datetime!(2026-02-10 07:59 -6)),
        0
    );
    assert_eq!(
        add_business_minutes_in(&agency(), &CST, early, 5),
        datetime!(2026-02-10 08:05 -6)
    );
}

#[test]
fn a_lead_after_closing_counts_from_the_next_opening() {
    let late = datetime!(2026-02-10 19:00 -6); // a Tuesday
    assert_eq!(
        business_minutes_in(&agency(), &CST, late, datetime!(2026-02-11 08:45 -6)),
        45
    );
    assert_eq!(
        add_business_minutes_in(&agency(), &CST, late, 60),
        datetime!(2026-02-11 09:00 -6)
    );
    // In another zone the same instant is another local time: 19:00 CST is 20:00 at -5, still after closing,
    // and 08:00 at +7 the next morning, at the opening.
    assert_eq!(
        add_business_minutes_in(&agency(), &offset!(-5), late, 60),
        datetime!(2026-02-11 09:00 -5)
    );
    assert_eq!(
        add_business_minutes_in(&agency(), &offset!(+7), late, 60),
        datetime!(2026-02-11 09:00 +7)
    );
}

#[test]
fn minutes_at_the_boundaries_are_exact() {
    let tuesday = |hour: u8, minute: u8, second: u8| {
        datetime!(2026-02-10 00:00 -6)
            .replace_time(time::Time::from_hms(hour, minute, second).unwrap())
    };
    let hours = agency();
    let count = |start, end| business_minutes_in(&hours, &CST, start, end);
    assert_eq!(count(tuesday(8, 0, 0), tuesday(8, 0, 0)), 0, "no time");
    assert_eq!(
        count(tuesday(9, 0, 0), tuesday(8, 0, 0)),
        0,
        "an end before the start"
    );
    assert_eq!(
        count(tuesday(10, 0, 0), tuesday(10, 0, 30)),
        1,
        "a started minute counts"
    );
    assert_eq!(count(tuesday(10, 0, 0), tuesday(10, 5, 0)), 5);
    assert_eq!(count(tuesday(10, 0, 0), tuesday(10, 5, 1)), 6);
    assert_eq!(count(tuesday(17, 59, 0), tuesday(18, 0, 0)), 1);
    assert_eq!(
        count(tuesday(17, 59, 0), tuesday(23, 0, 0)),
        1,
        "nothing after closing"
    );
    assert_eq!(
        count(tuesday(8, 0, 0), tuesday(18, 0, 0)),
        600,
        "the whole day"
    );
    assert_eq!(
        count(tuesday(8, 0, 0), datetime!(2026-02-11 08:00 -6)),
        600,
        "to the next opening"
    );
    // A count that runs out at closing is the closing, not the next morning; one more minute is the next morning's.
    let add = |start, minutes| add_business_minutes_in(&hours, &CST, start, minutes);
    assert_eq!(add(tuesday(17, 0, 0), 60), tuesday(18, 0, 0));
    assert_eq!(add(tuesday(17, 0, 0), 61), datetime!(2026-02-11 08:01 -6));
    assert_eq!(add(tuesday(18, 0, 0), 1), datetime!(2026-02-11 08:01 -6));
    assert_eq!(add(tuesday(8, 0, 0), 0), tuesday(8, 0, 0));
    assert_eq!(
        add(tuesday(3, 0, 0), 0),
        tuesday(3, 0, 0),
        "0 minutes is the start itself"
    );
    assert_eq!(add(tuesday(3, 0, 0), -5), tuesday(3, 0, 0));
    // Each inverts the other.
    for minutes in [1, 59, 600, 601, 1000, 5000] {
        for start in [
            tuesday(3, 0, 0),
            tuesday(12, 34, 56),
            datetime!(2026-02-07 21:00 -6),
        ] {
            assert_eq!(
                count(start, add(start, minutes)),
                minutes,
                "{start} + {minutes}"
            );
        }
    }
}

#[test]
fn summer_time_starting_moves_the_opening_not_the_count() {
    // Friday 2026-03-06 17:00 CST; the clocks go forward on Sunday the 8th; Monday 09:00 is CDT (-5).
    let friday = datetime!(2026-03-06 17:00 -6);
    let monday = datetime!(2026-03-09 09:00 -5);
    assert_eq!(
        business_minutes_in(&agency(), &Central2026, friday, monday),
        360
    );
    assert_eq!(
        add_business_minutes_in(&agency(), &Central2026, friday, 360),
        monday
    );
    // Read with the winter offset throughout, Monday would open an hour late: the zone matters.
    assert_eq!(business_minutes_in(&agency(), &CST, friday, monday), 300);
    // A day open around the clock is as long as it really is: 23 hours on the 8th, 25 on 2026-11-01.
    let open = always_open();
    assert_eq!(
        business_minutes_in(
            &open,
            &Central2026,
            datetime!(2026-03-08 00:00 -6),
            datetime!(2026-03-09 00:00 -5)
        ),
        23 * 60
    );
    assert_eq!(
        business_minutes_in(
            &open,
            &Central2026,
            datetime!(2026-11-01 00:00 -5),
            datetime!(2026-11-02 00:00 -6)
        ),
        25 * 60
    );
    // The skipped hour's 02:30 is read as 03:30 CDT; the repeated 01:30 is its first (CDT).
    let local = |date: time::Date, hour, minute| {
        time::PrimitiveDateTime::new(date, time::Time::from_hms(hour, minute, 0).unwrap())
    };
    assert_eq!(
        instant_of(
            &Central2026,
            local(time::macros::date!(2026 - 03 - 08), 2, 30)
        ),
        datetime!(2026-03-08 03:30 -5)
    );
    assert_eq!(
        instant_of(
            &Central2026,
            local(time::macros::date!(2026 - 11 - 01), 1, 30)
        ),
        datetime!(2026-11-01 01:30 -5)
    );
    assert_eq!(
        instant_of(
            &Central2026,
            local(time::macros::date!(2026 - 07 - 01), 9, 0)
        ),
        datetime!(2026-07-01 09:00 -5)
    );
}

#[test]
fn without_business_hours_every_minute_counts() {
    let closed = WeekHours::parse("Sunday closed\n").unwrap();
    assert!(closed.always_closed());
    assert_eq!(closed.business_day_minutes(), 1440);
    let start = datetime!(2026-02-07 21:00 -6);
    assert_eq!(
        business_minutes_in(&closed, &CST, start, datetime!(2026-02-09 08:30 -6)),
        35 * 60 + 30
    );
    assert_eq!(
        add_business_minutes_in(&closed, &CST, start, 60),
        datetime!(2026-02-07 22:00 -6)
    );
}

#[test]
fn a_day_may_have_several_openings_and_overlaps_count_once() {
    let hours = WeekHours::parse(
        "Monday 08:00 12:00\nMonday 13:00 17:00\nMonday 11:00 12:30\nTuesday 09:00 24:00\n",
    )
    .unwrap();
    assert_eq!(
        hours.on(Weekday::Monday),
        [
            Opening {
                opens: 480,
                closes: 750
            },
            Opening {
                opens: 780,
                closes: 1020
            }
        ]
    );
    assert_eq!(hours.business_day_minutes(), 900);
    // 2026-02-09 is a Monday: 11:00-12:30 and 13:00-14:00.
    assert_eq!(
        business_minutes_in(
            &hours,
            &CST,
            datetime!(2026-02-09 11:00 -6),
            datetime!(2026-02-09 14:00 -6)
        ),
        150
    );
    assert_eq!(
        add_business_minutes_in(&hours, &CST, datetime!(2026-02-09 12:00 -6), 60),
        datetime!(2026-02-09 13:30 -6)
    );
    assert!(
        hours
            .describe()
            .starts_with("Monday 08:00-12:30 and 13:00-17:00, Tuesday 09:00-24:00")
    );
}

#[test]
fn hours_that_cannot_be_read_are_refused() {
    for wrong in [
        "Mon 08:00 18:00",
        "Monday 8:00 18:00",
        "Monday 18:00 08:00",
        "Monday 08:00 24:01",
        "Monday 08:00",
        "Monday open",
    ] {
        assert!(WeekHours::parse(wrong).is_err(), "{wrong}");
    }
}

#[test]
fn a_time_zone_setting_names_a_zone_file() {
    for wrong in [
        "",
        "../../etc/passwd",
        "/etc/localtime",
        "America/../Etc/UTC",
        "Mars/Olympus",
        "America",
        ":UTC",
    ] {
        let error = check_time_zone(wrong).unwrap_err();
        assert!(
            error.starts_with("invalid setting `time_zone`: "),
            "{error}"
        );
    }
    if std::path::Path::new("/usr/share/zoneinfo/America/Chicago").is_file()
        && std::env::var_os("TZDIR").is_none()
    {
        assert_eq!(check_time_zone("America/Chicago"), Ok(()));
        if std::path::Path::new("/usr/share/zoneinfo/zone1970.tab").is_file() {
            assert!(
                check_time_zone("zone1970.tab").is_err(),
                "a file that is no zone"
            );
        }
    }
}

#[test]
fn the_local_zone_agrees_with_the_clock_s_local_date() {
    let now = crate::clock::now_utc();
    assert_eq!(
        now.to_offset(LocalZone.offset_at(now)).date(),
        crate::clock::local_date(now)
    );
}
