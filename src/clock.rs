//! The clock: the current time as RFC 3339 UTC text, the one format of every time stamp the binary writes (stored
//! leads, migrations, the request log), and today's date (UTC) for the visit counts.
//!
//! Tests can set the time, which they need to count visits over several days in one running server: with the
//! setting `test_clock` naming a file, the time is read from that file (RFC 3339 text such as
//! `2026-03-02T10:00:00Z`) at each use, so rewriting the file moves the server to another moment (tests replace it
//! whole, by a rename). It is for tests only, never set in production (the server says so in its log). A file that
//! cannot be read or parsed is said in the log each time, and the last time read from it stays in charge: the time
//! never jumps silently back to the system clock's (only before a first good read is the system clock used, said too).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use time::format_description::well_known::Rfc3339;
use time::{Date, OffsetDateTime, UtcOffset};

static TEST_CLOCK: OnceLock<PathBuf> = OnceLock::new();
/// The last time read from the test clock's file.
static LAST_GOOD: Mutex<Option<OffsetDateTime>> = Mutex::new(None);

/// From now on, the time is the one written in `file` (the `test_clock` setting; tests only). Set once per process.
pub fn use_test_clock(file: &Path) {
    let _ = TEST_CLOCK.set(file.to_path_buf());
}

/// The current time in UTC: the system's, or the test clock's when one is set.
pub fn now_utc() -> OffsetDateTime {
    match TEST_CLOCK.get() {
        Some(file) => test_now(file),
        None => OffsetDateTime::now_utc(),
    }
}

/// The time of the test clock's `file`; when it cannot be read or parsed, said loudly, and the last good one.
fn test_now(file: &Path) -> OffsetDateTime {
    let read = std::fs::read_to_string(file)
        .map_err(|error| error.to_string())
        .and_then(|text| {
            OffsetDateTime::parse(text.trim(), &Rfc3339)
                .map_err(|error| format!("{text:?} is not RFC 3339 ({error})"))
        });
    let mut last = LAST_GOOD.lock().unwrap_or_else(PoisonError::into_inner);
    match read {
        Ok(time) => {
            let time = time.to_offset(UtcOffset::UTC);
            *last = Some(time);
            time
        }
        Err(error) => {
            let kept = *last;
            eprintln!(
                "truckins: TEST CLOCK FAILED: cannot read the time from {}: {error}; {}",
                file.display(),
                match kept {
                    Some(time) => format!("keeping the last time read, {time}"),
                    None => "no time was read from it yet: using the system clock".to_string(),
                }
            );
            kept.unwrap_or_else(OffsetDateTime::now_utc)
        }
    }
}

/// Today's date in UTC (the visit counts' days are UTC days, like every stored time stamp). Asked for every page
/// view, so without a test clock it is worked out from the seconds since 1970 alone.
pub fn today() -> Date {
    if TEST_CLOCK.get().is_some() {
        return now_utc().date();
    }
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs() / 86_400);
    // 2440588 is the Julian day number of 1970-01-01.
    i32::try_from(days)
        .ok()
        .and_then(|days| Date::from_julian_day(days + 2_440_588).ok())
        .unwrap_or_else(|| now_utc().date())
}

/// Today's date where the server runs (its local time zone, `TZ` or /etc/localtime): the agency's day, for rules a
/// person states in days ("needed by tomorrow"). Worked out by the C library's `localtime_r` from [`now_utc`], so the
/// test clock moves it too; `time`'s own local offset is refused in a process with several threads.
pub fn local_today() -> Date {
    local_date(now_utc())
}

/// The date `now` falls on in the server's local time zone (see [`local_today`]).
pub fn local_date(now: OffsetDateTime) -> Date {
    let seconds = libc::time_t::try_from(now.unix_timestamp()).unwrap_or_default();
    // SAFETY: `tm` is plain data that localtime_r fills in; both pointers are valid for the call.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let local = unsafe { libc::localtime_r(&seconds, &mut tm) };
    if local.is_null() {
        return now.date();
    }
    let month = u8::try_from(tm.tm_mon + 1)
        .ok()
        .and_then(|m| time::Month::try_from(m).ok());
    match (month, u8::try_from(tm.tm_mday)) {
        (Some(month), Ok(day)) => {
            Date::from_calendar_date(tm.tm_year + 1900, month, day).unwrap_or(now.date())
        }
        _ => now.date(),
    }
}

/// `now` in the server's local time zone (the agency's: `time_zone`), with the zone's abbreviation ("CST"), for
/// the times people read (the status links' pages, `truckins leads show`). Worked out by `localtime_r` like
/// [`local_date`]; UTC when the C library cannot say.
pub fn local_time(now: OffsetDateTime) -> (OffsetDateTime, String) {
    let seconds = libc::time_t::try_from(now.unix_timestamp()).unwrap_or_default();
    // SAFETY: `tm` is plain data that localtime_r fills in; both pointers are valid for the call. `tm_zone` points
    // at the C library's own static text of the zone's name, read before any other call can change it.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let local = unsafe { libc::localtime_r(&seconds, &mut tm) };
    if local.is_null() {
        return (now, "UTC".to_string());
    }
    let zone = if tm.tm_zone.is_null() {
        String::new()
    } else {
        unsafe { std::ffi::CStr::from_ptr(tm.tm_zone) }
            .to_string_lossy()
            .into_owned()
    };
    let offset = i32::try_from(tm.tm_gmtoff)
        .ok()
        .and_then(|seconds| UtcOffset::from_whole_seconds(seconds).ok())
        .unwrap_or(UtcOffset::UTC);
    (now.to_offset(offset), zone)
}

/// RFC 3339 text (a stored time) as people read it in the agency's time zone: `Thu, Nov 26, 2026, 2:05 PM CST`;
/// the text itself when it is not a time.
pub fn readable(stored: &str) -> String {
    let Ok(time) = OffsetDateTime::parse(stored, &Rfc3339) else {
        return stored.to_string();
    };
    let (local, zone) = local_time(time);
    let format = time::macros::format_description!(
        "[weekday repr:short], [month repr:short] [day padding:none], [year], [hour repr:12 padding:none]:[minute] [period]"
    );
    let text = local.format(&format).unwrap_or_else(|_| stored.to_string());
    if zone.is_empty() {
        text
    } else {
        format!("{text} {zone}")
    }
}

/// The current time as RFC 3339 UTC text, e.g. `2026-11-22T08:15:00.123Z`.
pub fn now() -> String {
    let mut text = Vec::with_capacity(32);
    write_now(&mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// [`now`] appended to `out`: the request log writes its lines without a string of their own per request.
pub fn write_now(out: &mut Vec<u8>) {
    let now = now_utc();
    let start = out.len();
    if now.format_into(out, &Rfc3339).is_err() {
        out.truncate(start);
        out.extend_from_slice(now.unix_timestamp().to_string().as_bytes());
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_test_clock_that_cannot_be_read_keeps_its_last_time() {
        let dir = std::env::temp_dir().join(format!("truckins-clock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("clock");
        std::fs::write(&file, "2026-03-02T10:00:00Z").unwrap();
        let good = super::test_now(&file);
        assert_eq!(good.to_string(), "2026-03-02 10:00:00.0 +00:00:00");
        std::fs::write(&file, "2026-03-0").unwrap();
        assert_eq!(super::test_now(&file), good, "a half-written file");
        std::fs::remove_file(&file).unwrap();
        assert_eq!(super::test_now(&file), good, "no file");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn today_is_the_date_of_now() {
        // Run twice around the check so that a test crossing midnight still agrees with one of them.
        let before = super::now_utc().date();
        let today = super::today();
        let after = super::now_utc().date();
        assert!(
            today == before || today == after,
            "{today} {before} {after}"
        );
    }
}
