//! The `time_zone` line: the zone the agency's business hours (built in from content/facts.toml) are counted in, for
//! speed-to-lead, reminders and the agency's day. Unset, that is the machine's zone, and most servers and
//! containers keep UTC: the hours would then be counted five or six hours off the agency's, with no error
//! anywhere else. So an unset `time_zone` on a machine in UTC fails; a set one (already checked by
//! `config::load`, and made the process's by `main`) passes.

use std::path::Path;

use time::{Date, Month, OffsetDateTime};

use super::Check;
use crate::hours::{self, LocalZone, WeekHours, Zone};

/// Where the machine's own zone comes from when `time_zone` is unset, as the C library finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Machine {
    /// `TZ` in the environment, as set (a leading `:` removed); empty means UTC to the C library.
    Tz(String),
    /// /etc/localtime, a link to the file of this zone.
    Link(String),
    /// /etc/localtime, a copy of some zone's file: no name to show.
    Copy,
    /// Neither `TZ` nor /etc/localtime: the C library counts in UTC.
    Nothing,
}

impl Machine {
    /// The machine's zone as this process sees it.
    pub fn find() -> Machine {
        if let Some(tz) = std::env::var_os("TZ") {
            return Machine::Tz(tz.to_string_lossy().trim_start_matches(':').to_string());
        }
        let localtime = Path::new("/etc/localtime");
        match std::fs::read_link(localtime) {
            Ok(target) => {
                let target = target.to_string_lossy().into_owned();
                let name = target
                    .split_once("zoneinfo/")
                    .map_or(target.as_str(), |(_, name)| name);
                Machine::Link(name.to_string())
            }
            Err(_) if localtime.exists() => Machine::Copy,
            Err(_) => Machine::Nothing,
        }
    }

    /// The zone's name and where it was found, e.g. `America/New_York (the machine's: /etc/localtime)`.
    fn describe(&self) -> String {
        match self {
            Machine::Tz(name) if name.is_empty() => "UTC (the machine's: TZ is empty)".into(),
            Machine::Tz(name) => format!("{name} (the machine's: TZ)"),
            Machine::Link(name) => format!("{name} (the machine's: /etc/localtime)"),
            Machine::Copy => "the zone of /etc/localtime (the machine's)".into(),
            Machine::Nothing => "UTC (the machine's: no TZ and no /etc/localtime)".into(),
        }
    }

    /// Whether the zone is UTC: by its name, or, for a copied /etc/localtime or a name the C library cannot read
    /// (it then counts in UTC), by `always_at_utc` (the local offset is 0 in January and in July).
    fn is_utc(&self, always_at_utc: bool) -> bool {
        match self {
            Machine::Tz(name) | Machine::Link(name) => {
                utc_name(name) || (always_at_utc && hours::check_time_zone(name).is_err())
            }
            Machine::Copy => always_at_utc,
            Machine::Nothing => true,
        }
    }
}

/// Names of UTC: the zone files that are UTC and the POSIX forms such as `UTC0`.
fn utc_name(name: &str) -> bool {
    let name = name.trim_start_matches("Etc/").to_ascii_uppercase();
    let base = name.trim_end_matches(['0', '+', '-']);
    name.is_empty() || ["UTC", "UCT", "GMT", "UNIVERSAL", "ZULU", "GREENWICH"].contains(&base)
}

/// Whether this process's local offset is 0 both in January and in July of this year.
pub fn always_at_utc() -> bool {
    let year = OffsetDateTime::now_utc().year();
    [Month::January, Month::July].into_iter().all(|month| {
        Date::from_calendar_date(year, month, 1)
            .map(|day| LocalZone.offset_at(day.midnight().assume_utc()).is_utc())
            .unwrap_or(true)
    })
}

/// The week's openings, consecutive days with the same hours as one range: `Monday-Friday 08:00-18:00, Saturday
/// 10:00-14:00`; closed days left out.
pub fn business_hours(hours: &WeekHours) -> String {
    let mut parts: Vec<String> = Vec::new();
    let days = hours::WEEKDAYS;
    let mut index = 0;
    while index < days.len() {
        let openings = hours.on(days[index].0);
        let mut last = index;
        while last + 1 < days.len() && hours.on(days[last + 1].0) == openings {
            last += 1;
        }
        if !openings.is_empty() {
            let range = match last == index {
                true => days[index].1.to_string(),
                false => format!("{}-{}", days[index].1, days[last].1),
            };
            let times: Vec<String> = openings
                .iter()
                .map(|o| {
                    let (opens, closes) = (hours::clock_time(o.opens), hours::clock_time(o.closes));
                    format!("{opens}-{closes}")
                })
                .collect();
            parts.push(format!("{range} {}", times.join(" and ")));
        }
        index = last + 1;
    }
    parts.join(", ")
}

/// The line: `setting` is the `time_zone` setting, `machine` the machine's zone (used when it is unset),
/// `always_at_utc` as [`always_at_utc`], `file` the settings file read, if any (where the fix goes).
pub fn check(
    setting: Option<&str>,
    machine: &Machine,
    always_at_utc: bool,
    hours: &WeekHours,
    file: Option<&Path>,
) -> Check {
    let counted = match hours.always_closed() {
        true => "no business hours are built in (content/facts.toml), so every minute is counted; the agency's \
                 day is counted in it"
            .to_string(),
        false => format!("business hours {} are counted in it", business_hours(hours)),
    };
    if let Some(name) = setting {
        return Check::ok(
            "time_zone",
            format!("{name}: {counted} (the time_zone setting)"),
        );
    }
    if machine.is_utc(always_at_utc) {
        let place = match file {
            Some(file) => format!("the settings file {}", file.display()),
            None => format!("the settings file ({})", crate::config::DEFAULT_FILE),
        };
        return Check::fail(
            "time_zone",
            format!(
                "{}: {counted}, hours off the agency's, as time_zone is unset; add time_zone = \"America/Chicago\" \
                 (the agency's zone) to {place}",
                machine.describe()
            ),
        );
    }
    Check::ok(
        "time_zone",
        format!(
            "{}: {counted}; time_zone is unset, so they follow the machine's zone (set it to keep them on a move)",
            machine.describe()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hours::Opening;
    use crate::preflight::Status;

    fn agency_week() -> WeekHours {
        let day = |opens: u16, closes: u16| vec![Opening { opens, closes }];
        let weekday = || day(8 * 60, 18 * 60);
        WeekHours::new([
            weekday(),
            weekday(),
            weekday(),
            weekday(),
            weekday(),
            day(10 * 60, 14 * 60),
            vec![],
        ])
    }

    #[test]
    fn the_week_is_said_in_ranges_of_days_with_the_same_hours() {
        assert_eq!(
            business_hours(&agency_week()),
            "Monday-Friday 08:00-18:00, Saturday 10:00-14:00"
        );
    }

    #[test]
    fn a_set_zone_passes_and_names_the_hours() {
        let line = check(
            Some("America/Chicago"),
            &Machine::Tz("UTC".into()),
            true,
            &agency_week(),
            None,
        );
        assert_eq!(line.status, Status::Ok);
        assert!(
            line.detail.starts_with(
                "America/Chicago: business hours Monday-Friday 08:00-18:00, Saturday 10:00-14:00 are counted in it"
            ),
            "{}",
            line.detail
        );
    }

    #[test]
    fn unset_on_a_machine_in_utc_fails_with_the_fix() {
        for machine in [
            Machine::Tz("UTC".into()),
            Machine::Tz("Etc/UTC".into()),
            Machine::Tz("UTC0".into()),
            Machine::Tz(String::new()),
            Machine::Link("Etc/UTC".into()),
            Machine::Nothing,
        ] {
            let line = check(
                None,
                &machine,
                true,
                &agency_week(),
                Some(Path::new("/etc/truckins/truckins.toml")),
            );
            assert_eq!(line.status, Status::Fail, "{machine:?}");
            assert!(
                line.detail.contains(
                    "add time_zone = \"America/Chicago\" (the agency's zone) to the settings file \
                     /etc/truckins/truckins.toml"
                ),
                "{}",
                line.detail
            );
        }
        // A copied /etc/localtime is judged by its offsets.
        let copy = |always_at_utc| check(None, &Machine::Copy, always_at_utc, &agency_week(), None);
        assert_eq!(copy(true).status, Status::Fail);
        assert_eq!(copy(false).status, Status::Ok);
    }

    #[test]
    fn unset_on_a_machine_in_another_zone_passes_and_says_whose_zone_it_is() {
        let line = check(
            None,
            &Machine::Link("America/New_York".into()),
            false,
            &agency_week(),
            None,
        );
        assert_eq!(line.status, Status::Ok);
        assert!(
            line.detail
                .starts_with("America/New_York (the machine's: /etc/localtime): business hours"),
            "{}",
            line.detail
        );
    }
}
