//! The agency's business hours (the `[[hours]]` of content/facts.toml, built in) in its time zone (the `time_zone`
//! setting, else the server's local zone): the minutes of business hours between two instants, and the instant at
//! which some number of them will have passed. Speed-to-lead in `truckins report` and the reminder of a lead left
//! `new` count in these minutes, so that a lead sent at 9 pm on a Saturday is not 35 hours late on Monday morning.
//!
//! build.rs writes the hours into `$OUT_DIR/hours.txt`, one line per day and opening, in the week's order:
//!
//! ```text
//! # a comment
//! Monday 08:00 18:00
//! Saturday 10:00 14:00
//! Sunday closed
//! ```
//!
//! A line is a day's English name and either its opening and closing times (24-hour local wall-clock times,
//! `opens < closes`, `24:00` for midnight at the day's end) or `closed`. A day may have several openings; a day
//! not named is closed. Blank lines and lines starting with `#` are skipped.
//!
//! The time zone is applied once, by `main`, which sets the process's `TZ` before any thread starts
//! ([`use_time_zone`]); local times are then the C library's (`localtime_r`, as [`crate::clock::local_date`]).
//! The counting itself is pure: it works over a [`Zone`], so that tests can use fixed offsets and a zone that
//! switches to summer time without touching the process's `TZ`.

use std::path::PathBuf;
use std::sync::OnceLock;

use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, UtcOffset, Weekday};

/// The hours of content/facts.toml, as build.rs wrote them (format above).
fn built_hours() -> &'static str {
    crate::built::text("hours.txt")
}

/// Minutes in a day, the latest a day's opening may close (`24:00`).
const MINUTES_PER_DAY: u16 = 24 * 60;

/// The week's days in the order of the file and of [`WeekHours`].
pub(crate) const WEEKDAYS: [(Weekday, &str); 7] = [
    (Weekday::Monday, "Monday"),
    (Weekday::Tuesday, "Tuesday"),
    (Weekday::Wednesday, "Wednesday"),
    (Weekday::Thursday, "Thursday"),
    (Weekday::Friday, "Friday"),
    (Weekday::Saturday, "Saturday"),
    (Weekday::Sunday, "Sunday"),
];

/// One stretch of a day the agency is open, in minutes since local midnight: `opens < closes <= 1440`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Opening {
    pub opens: u16,
    pub closes: u16,
}

/// The agency's week: each day's openings (Monday first), sorted, overlaps merged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WeekHours {
    days: [Vec<Opening>; 7],
}

impl WeekHours {
    /// A week from each day's openings, Monday first (sorted and merged here).
    pub fn new(days: [Vec<Opening>; 7]) -> WeekHours {
        WeekHours {
            days: days.map(merged),
        }
    }

    /// The hours of content/facts.toml that the binary was built with.
    pub fn built() -> &'static WeekHours {
        static BUILT: OnceLock<WeekHours> = OnceLock::new();
        BUILT.get_or_init(|| {
            // build.rs writes only what this reads (a unit test reads the built file); should it ever not, every
            // minute counts, which overstates a wait rather than hiding one.
            WeekHours::parse(built_hours()).unwrap_or_else(|problem| {
                eprintln!("truckins: the built-in business hours cannot be read ({problem}): counting every minute");
                WeekHours::default()
            })
        })
    }

    /// Reads the lines build.rs writes (the module's documentation gives the format).
    pub fn parse(text: &str) -> Result<WeekHours, String> {
        let mut days: [Vec<Opening>; 7] = Default::default();
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let index = WEEKDAYS
                .iter()
                .position(|(_, name)| Some(name) == words.first())
                .ok_or_else(|| format!("{line:?}: not a day's English name first"))?;
            match words[1..] {
                ["closed"] => {}
                [opens, closes] => {
                    let (opens, closes) = (minute_of_day(opens)?, minute_of_day(closes)?);
                    if opens >= closes {
                        return Err(format!("{line:?}: closes before it opens"));
                    }
                    days[index].push(Opening { opens, closes });
                }
                _ => {
                    return Err(format!(
                        "{line:?}: neither `DAY HH:MM HH:MM` nor `DAY closed`"
                    ));
                }
            }
        }
        Ok(WeekHours::new(days))
    }

    /// The openings of `day`.
    pub fn on(&self, day: Weekday) -> &[Opening] {
        &self.days[usize::from(day.number_days_from_monday())]
    }

    /// Whether every day is closed (then the counting is in wall-clock minutes).
    pub fn always_closed(&self) -> bool {
        self.days.iter().all(Vec::is_empty)
    }

    /// What one business day is in minutes: the most any one day of the week is open (600 for 08:00 to 18:00);
    /// a whole day (1,440) without business hours.
    pub fn business_day_minutes(&self) -> i64 {
        match self.always_closed() {
            true => i64::from(MINUTES_PER_DAY),
            false => self
                .days
                .iter()
                .map(|openings| openings.iter().map(|o| i64::from(o.closes - o.opens)).sum())
                .max()
                .unwrap_or_default(),
        }
    }

    /// The week for people: `Monday 08:00-18:00, ..., Sunday closed`.
    pub fn describe(&self) -> String {
        WEEKDAYS
            .iter()
            .map(|(day, name)| {
                let openings = self.on(*day);
                if openings.is_empty() {
                    return format!("{name} closed");
                }
                let times: Vec<String> = openings
                    .iter()
                    .map(|o| format!("{}-{}", clock_time(o.opens), clock_time(o.closes)))
                    .collect();
                format!("{name} {}", times.join(" and "))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `openings` sorted, with those that overlap or touch made one (a day named twice in facts.toml counts once).
fn merged(mut openings: Vec<Opening>) -> Vec<Opening> {
    openings.sort();
    let mut out: Vec<Opening> = Vec::with_capacity(openings.len());
    for opening in openings {
        match out.last_mut() {
            Some(last) if opening.opens <= last.closes => {
                last.closes = last.closes.max(opening.closes)
            }
            _ => out.push(opening),
        }
    }
    out
}

/// `08:30` as 510; `24:00` as 1440.
fn minute_of_day(text: &str) -> Result<u16, String> {
    let parsed = text.split_once(':').and_then(|(hours, minutes)| {
        let (hours, minutes) = (hours.parse::<u16>().ok()?, minutes.parse::<u16>().ok()?);
        (hours <= 24 && minutes < 60 && text.len() == 5).then_some(hours * 60 + minutes)
    });
    parsed
        .filter(|minute| *minute <= MINUTES_PER_DAY)
        .ok_or_else(|| format!("{text:?} is not a time like 08:00"))
}

/// 510 as `08:30`.
pub(crate) fn clock_time(minute: u16) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// A time zone as the counting needs it: its offset from UTC at each instant. Local wall-clock times are turned
/// into instants from that alone ([`instant_of`]).
pub trait Zone {
    fn offset_at(&self, instant: OffsetDateTime) -> UtcOffset;
}

/// A zone that never changes its offset.
impl Zone for UtcOffset {
    fn offset_at(&self, _: OffsetDateTime) -> UtcOffset {
        *self
    }
}

/// The process's local zone: `TZ` (which `main` sets from the `time_zone` setting), else /etc/localtime; read by
/// the C library's `localtime_r`, since `time`'s own local offset is refused in a process with several threads.
pub struct LocalZone;

impl Zone for LocalZone {
    fn offset_at(&self, instant: OffsetDateTime) -> UtcOffset {
        let seconds = libc::time_t::try_from(instant.unix_timestamp()).unwrap_or_default();
        // SAFETY: `tm` is plain data that localtime_r fills in; both pointers are valid for the call.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        if unsafe { libc::localtime_r(&seconds, &mut tm) }.is_null() {
            return UtcOffset::UTC;
        }
        i32::try_from(tm.tm_gmtoff)
            .ok()
            .and_then(|offset| UtcOffset::from_whole_seconds(offset).ok())
            .unwrap_or(UtcOffset::UTC)
    }
}

/// The local wall-clock time of `instant` in `zone`.
fn local_time(zone: &impl Zone, instant: OffsetDateTime) -> PrimitiveDateTime {
    let local = instant.to_offset(zone.offset_at(instant));
    PrimitiveDateTime::new(local.date(), local.time())
}

/// The instant the wall clock of `zone` shows `local`. A time shown twice (the hour repeated when summer time
/// ends) is its first; a time never shown (the hour skipped when it begins) is read with the offset of before the
/// change, which lands as far past the jump as the time was into the skipped hour (02:30 becomes 03:30).
///
/// Offsets lie within a day of UTC, so `local` read as UTC, a day earlier and a day later, is before and after
/// the instant sought: those two offsets are the only candidates (no zone changes its offset twice in two days).
pub fn instant_of(zone: &impl Zone, local: PrimitiveDateTime) -> OffsetDateTime {
    let naive = local.assume_utc();
    let before = zone.offset_at(naive - Duration::days(1));
    let after = zone.offset_at(naive + Duration::days(1));
    let shown_with = |offset: UtcOffset| {
        let instant = local.assume_offset(offset).to_offset(UtcOffset::UTC);
        (zone.offset_at(instant) == offset).then_some(instant)
    };
    match (shown_with(before), shown_with(after)) {
        (Some(first), Some(second)) => first.min(second),
        (Some(instant), None) | (None, Some(instant)) => instant,
        (None, None) => local.assume_offset(before).to_offset(UtcOffset::UTC),
    }
}

/// The openings of the local day `day` in `zone`, as UTC instants (an opening that spans a change of offset is
/// as long as it really is).
fn openings_on(
    hours: &WeekHours,
    zone: &impl Zone,
    day: Date,
) -> impl Iterator<Item = (OffsetDateTime, OffsetDateTime)> {
    let midnight = day.midnight();
    hours.on(day.weekday()).iter().filter_map(move |opening| {
        let at = |minute: u16| instant_of(zone, midnight + Duration::minutes(i64::from(minute)));
        let (opens, closes) = (at(opening.opens), at(opening.closes));
        (opens < closes).then_some((opens, closes))
    })
}

/// Business minutes from `start` to `end` by `hours` in `zone`; 0 when `end` is not after `start`. Counted in
/// whole seconds, a started minute counting whole (5 min 1 s is 6), so that "within 5 minutes" means it.
pub fn business_minutes_in(
    hours: &WeekHours,
    zone: &impl Zone,
    start: OffsetDateTime,
    end: OffsetDateTime,
) -> i64 {
    if end <= start {
        return 0;
    }
    // No business hours at all (every day closed): then there is nothing to leave out, and the wait is the
    // wall clock's, rather than never anything.
    let elapsed = if hours.always_closed() {
        end - start
    } else {
        let mut elapsed = Duration::ZERO;
        let mut day = local_time(zone, start).date();
        let last = local_time(zone, end).date();
        while day <= last {
            for (opens, closes) in openings_on(hours, zone, day) {
                let (from, to) = (opens.max(start), closes.min(end));
                if from < to {
                    elapsed += to - from;
                }
            }
            match day.next_day() {
                Some(next) => day = next,
                None => break,
            }
        }
        elapsed
    };
    (elapsed.whole_seconds() + 59) / 60
}

/// The instant at which `minutes` business minutes by `hours` in `zone` have passed since `start` (`start` itself
/// for 0 or fewer). A count that runs out at a closing time is that closing time, not the next opening.
pub fn add_business_minutes_in(
    hours: &WeekHours,
    zone: &impl Zone,
    start: OffsetDateTime,
    minutes: i64,
) -> OffsetDateTime {
    if minutes <= 0 {
        return start;
    }
    let mut left = Duration::minutes(minutes);
    // As in business_minutes_in: without business hours, wall-clock minutes.
    if hours.always_closed() {
        return start + left;
    }
    let mut day = local_time(zone, start).date();
    loop {
        for (opens, closes) in openings_on(hours, zone, day) {
            let from = opens.max(start);
            if from < closes {
                if left <= closes - from {
                    return from + left;
                }
                left -= closes - from;
            }
        }
        match day.next_day() {
            Some(next) => day = next,
            // The end of the calendar (the year 9999): nothing is ever due there.
            None => return start + left,
        }
    }
}

/// Business minutes from `start` to `end` by the built-in hours in the agency's time zone (see
/// [`business_minutes_in`]).
pub fn business_minutes_between(start: OffsetDateTime, end: OffsetDateTime) -> i64 {
    business_minutes_in(WeekHours::built(), &LocalZone, start, end)
}

/// Whether the agency is open at `at` (its first business minute lies within the minute after `at`), by the built-in
/// hours in its time zone: a policy change sent when it is closed is read the next business day. With no hours at
/// all, always.
pub fn is_open_at(at: OffsetDateTime) -> bool {
    let hours = WeekHours::built();
    hours.always_closed()
        || business_minutes_in(hours, &LocalZone, at, at + Duration::seconds(1)) > 0
}

/// The instant `minutes` business minutes after `start`, by the built-in hours in the agency's time zone (see
/// [`add_business_minutes_in`]).
pub fn add_business_minutes(start: OffsetDateTime, minutes: i64) -> OffsetDateTime {
    add_business_minutes_in(WeekHours::built(), &LocalZone, start, minutes)
}

/// The folder of the time zone files: `$TZDIR`, as the C library reads it, else /usr/share/zoneinfo.
fn zone_folder() -> PathBuf {
    std::env::var_os("TZDIR")
        .filter(|dir| !dir.is_empty())
        .map_or_else(|| PathBuf::from("/usr/share/zoneinfo"), PathBuf::from)
}

/// Checks a `time_zone` setting: a name such as `America/Chicago` naming a time zone file of the zone folder
/// (`$TZDIR`, else /usr/share/zoneinfo), without `..` or a leading `/` that would lead out of it.
pub fn check_time_zone(name: &str) -> Result<(), String> {
    let folder = zone_folder();
    let shaped = !name.is_empty()
        && !name.contains("..")
        && !name.starts_with('/')
        && !name.contains(|c: char| c.is_whitespace() || c.is_control() || c == ':');
    if !shaped {
        return Err(format!(
            "invalid setting `time_zone`: {name:?} is not a time zone name like America/Chicago"
        ));
    }
    // A zone file starts with the magic `TZif`; zone.tab or a folder in the same place is no zone.
    let mut magic = [0_u8; 4];
    let is_zone = std::fs::File::open(folder.join(name))
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut magic))
        .is_ok_and(|()| &magic == b"TZif");
    if !is_zone {
        return Err(format!(
            "invalid setting `time_zone`: {name:?} is not a time zone of {} (a name like America/Chicago; is the \
             tzdata package installed?)",
            folder.display()
        ));
    }
    Ok(())
}

/// Makes `name` (a `time_zone` setting, checked here) the process's local time zone, by setting `TZ`.
///
/// Only for `main`, before any other thread exists: changing the environment while another thread reads it (the
/// C library does, for local times and more) is undefined behaviour, which is why Rust marks `set_var` unsafe.
pub fn use_time_zone(name: &str) -> Result<(), String> {
    check_time_zone(name)?;
    // SAFETY: called by `main` alone, before the runtime or any thread is started (see above).
    unsafe { std::env::set_var("TZ", format!(":{name}")) };
    // localtime_r reads TZ at its first use only; tzset makes the C library read it now.
    unsafe extern "C" {
        fn tzset();
    }
    // SAFETY: tzset takes nothing and only reads TZ, which no other thread is changing.
    unsafe { tzset() };
    Ok(())
}

/// The agency's time zone's name for the report: the `time_zone` setting (through `TZ`), else the zone
/// /etc/localtime links to, else "server's local time".
pub fn zone_name() -> String {
    if let Some(tz) = std::env::var("TZ").ok().filter(|tz| !tz.is_empty()) {
        return tz.trim_start_matches(':').to_string();
    }
    std::fs::read_link("/etc/localtime")
        .ok()
        .and_then(|target| {
            let target = target.to_string_lossy().into_owned();
            target
                .split_once("zoneinfo/")
                .map(|(_, name)| name.to_string())
        })
        .unwrap_or_else(|| "server's local time".to_string())
}

#[cfg(test)]
mod tests;
