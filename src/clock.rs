//! The clock: the current time as RFC 3339 UTC text, the one format of every time stamp the binary writes (stored
//! leads, migrations, the request log), and today's date (UTC) for the visit counts.
//!
//! Tests can set the time, which they need to count visits over several days in one running server: with the
//! setting `test_clock` naming a file, the time is read from that file (RFC 3339 text such as
//! `2026-03-02T10:00:00Z`) at each use, so rewriting the file moves the server to another moment. It is never set in
//! production; a file that cannot be read or parsed leaves the system clock in charge.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use time::format_description::well_known::Rfc3339;
use time::{Date, OffsetDateTime, UtcOffset};

static TEST_CLOCK: OnceLock<PathBuf> = OnceLock::new();

/// From now on, the time is the one written in `file` (the `test_clock` setting; tests only). Set once per process.
pub fn use_test_clock(file: &Path) {
    let _ = TEST_CLOCK.set(file.to_path_buf());
}

/// The current time in UTC: the system's, or the test clock's when one is set.
pub fn now_utc() -> OffsetDateTime {
    TEST_CLOCK
        .get()
        .and_then(|file| std::fs::read_to_string(file).ok())
        .and_then(|text| OffsetDateTime::parse(text.trim(), &Rfc3339).ok())
        .map(|time| time.to_offset(UtcOffset::UTC))
        .unwrap_or_else(OffsetDateTime::now_utc)
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
