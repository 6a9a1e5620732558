//! The clock: the current time as RFC 3339 UTC text, the one format of every time stamp the binary writes (stored
//! leads, migrations, the request log).

/// The current time as RFC 3339 UTC text, e.g. `2026-11-22T08:15:00.123Z`.
pub fn now() -> String {
    let mut text = Vec::with_capacity(32);
    write_now(&mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// [`now`] appended to `out`: the request log writes its lines without a string of their own per request.
pub fn write_now(out: &mut Vec<u8>) {
    let now = time::OffsetDateTime::now_utc();
    let start = out.len();
    if now
        .format_into(out, &time::format_description::well_known::Rfc3339)
        .is_err()
    {
        out.truncate(start);
        out.extend_from_slice(now.unix_timestamp().to_string().as_bytes());
    }
}
