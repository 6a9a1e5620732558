//! Whether this machine's clock is close enough to everyone else's for what the server signs and dates: the
//! webhook's `X-Truckins-Timestamp` (receivers commonly refuse one more than 5 minutes off) and the status links'
//! expiry. Two things can be measured here, and the line says which were:
//!
//! - the kernel's own view (`adjtimex` with no change asked): whether NTP (systemd-timesyncd, chrony) keeps the
//!   clock synchronised, and its estimated error;
//! - when the webhook answered with a `Date` header, the difference from the receiver's clock (to the second, plus
//!   the time the answer took).
//!
//! A measured difference over [`MAX_SKEW_SECONDS`] fails, whatever the kernel says; one within it passes, with a
//! word when the kernel does not synchronise (the clock will drift). With nothing to compare with, an
//! unsynchronised clock fails: nothing says it is right.

use std::time::SystemTime;

use time::PrimitiveDateTime;
use time::macros::format_description;

use super::Check;
use crate::notify::webhook::Answer;

/// The largest difference from another clock that passes: the usual tolerance of webhook receivers on a signed
/// timestamp.
pub const MAX_SKEW_SECONDS: i64 = 5 * 60;

/// What the kernel says of its clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kernel {
    /// NTP keeps it synchronised (no `TIME_ERROR`, no `STA_UNSYNC`).
    pub synchronised: bool,
    /// The kernel's estimate of the largest error, in microseconds.
    pub max_error_us: i64,
}

/// The kernel's clock state, asked with `adjtimex` and no modes set (which reads and changes nothing).
pub fn kernel() -> Result<Kernel, String> {
    // SAFETY: a zeroed `timex` (modes 0: read only) that the call fills in.
    let mut timex: libc::timex = unsafe { std::mem::zeroed() };
    let state = unsafe { libc::adjtimex(&mut timex) };
    if state == -1 {
        return Err(std::io::Error::last_os_error().to_string());
    }
    Ok(Kernel {
        synchronised: state != libc::TIME_ERROR && timex.status & libc::STA_UNSYNC == 0,
        max_error_us: timex.maxerror as i64,
    })
}

/// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`, the one form servers send today) as Unix seconds.
fn http_date(text: &str) -> Option<i64> {
    let format = format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    );
    PrimitiveDateTime::parse(text.trim(), format)
        .ok()
        .map(|at| at.assume_utc().unix_timestamp())
}

/// How far this machine's clock was ahead of the receiver's when its answer came (negative: behind), in seconds.
fn skew(answer: &Answer) -> Option<i64> {
    let theirs = http_date(answer.date.as_deref()?)?;
    let ours = answer
        .received_at
        .duration_since(SystemTime::UNIX_EPOCH)
        .ok()?
        .as_secs();
    Some(i64::try_from(ours).ok()? - theirs)
}

/// The `clock` line from the kernel's state and the webhook's answer, if any.
pub fn check(kernel: Result<Kernel, String>, webhook: Option<&Answer>) -> Check {
    let kernel_words = match &kernel {
        Ok(state) if state.synchronised => format!(
            "the kernel says NTP keeps it synchronised (estimated error up to {} ms)",
            state.max_error_us / 1000
        ),
        Ok(_) => "the kernel says it is not synchronised by NTP: it will drift (timedatectl set-ntp true, or \
                  install chrony)"
            .to_string(),
        Err(why) => format!("the kernel's NTP state cannot be read ({why})"),
    };
    if let Some(seconds) = webhook.and_then(skew) {
        let difference = match seconds {
            0 => "the same second as the webhook receiver's (its Date header)".to_string(),
            s if s > 0 => format!("{s} s ahead of the webhook receiver's (its Date header)"),
            s => format!("{} s behind the webhook receiver's (its Date header)", -s),
        };
        return if seconds.abs() > MAX_SKEW_SECONDS {
            Check::fail(
                "clock",
                format!(
                    "{difference}, more than {} min: receivers refuse signatures so far off; {kernel_words}",
                    MAX_SKEW_SECONDS / 60
                ),
            )
        } else {
            Check::ok(
                "clock",
                format!(
                    "{difference}, within {} min; {kernel_words}",
                    MAX_SKEW_SECONDS / 60
                ),
            )
        };
    }
    let compared = if webhook.is_some() {
        "the webhook sent no Date to compare with"
    } else {
        "no other clock at hand to compare with (a webhook's Date header is used when one answers)"
    };
    match kernel {
        Ok(state) if state.synchronised => {
            Check::ok("clock", format!("{kernel_words}; {compared}"))
        }
        Ok(_) => Check::fail("clock", format!("{kernel_words}; {compared}")),
        Err(_) => Check::skip("clock", format!("{kernel_words}; {compared}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preflight::Status;
    use hyper::StatusCode;
    use std::time::Duration;

    const SYNCED: Kernel = Kernel {
        synchronised: true,
        max_error_us: 12_000,
    };
    const ADRIFT: Kernel = Kernel {
        synchronised: false,
        max_error_us: 16_000_000,
    };

    /// An answer dated `date`, received at 1994-11-06 08:49:37 UTC plus `later` seconds.
    fn answer(date: Option<&str>, later: u64) -> Answer {
        Answer {
            status: StatusCode::OK,
            date: date.map(str::to_string),
            received_at: SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777 + later),
        }
    }

    const DATE: &str = "Sun, 06 Nov 1994 08:49:37 GMT";

    #[test]
    fn an_http_date_reads_as_unix_seconds() {
        assert_eq!(http_date(DATE), Some(784_111_777));
        assert_eq!(http_date("yesterday"), None);
    }

    #[test]
    fn a_receiver_clock_more_than_five_minutes_off_fails_whatever_the_kernel_says() {
        let near = check(Ok(ADRIFT), Some(&answer(Some(DATE), 2)));
        assert_eq!(near.status, Status::Ok, "{}", near.detail);
        assert!(
            near.detail
                .starts_with("2 s ahead of the webhook receiver's")
                && near.detail.contains("not synchronised"),
            "{}",
            near.detail
        );
        let far = check(Ok(SYNCED), Some(&answer(Some(DATE), 301)));
        assert_eq!(far.status, Status::Fail, "{}", far.detail);
        assert!(far.detail.starts_with("301 s ahead"), "{}", far.detail);
        let behind = check(
            Ok(SYNCED),
            Some(&answer(Some("Sun, 06 Nov 1994 08:59:37 GMT"), 0)),
        );
        assert_eq!(behind.status, Status::Fail);
        assert!(
            behind.detail.starts_with("600 s behind"),
            "{}",
            behind.detail
        );
    }

    #[test]
    fn without_another_clock_the_kernel_decides() {
        let synced = check(Ok(SYNCED), None);
        assert_eq!(synced.status, Status::Ok);
        assert!(synced.detail.contains("up to 12 ms"), "{}", synced.detail);
        assert_eq!(check(Ok(ADRIFT), None).status, Status::Fail);
        let undated = check(Ok(ADRIFT), Some(&answer(None, 0)));
        assert_eq!(undated.status, Status::Fail);
        assert!(
            undated.detail.contains("sent no Date"),
            "{}",
            undated.detail
        );
        assert_eq!(
            check(Err("not permitted".into()), None).status,
            Status::Skip
        );
    }
}
