//! The buffer's record format, read back: one page view as the collector wrote it on the request's path (kind, count,
//! day, address, then the header values it copied), borrowed from the buffer without copying.

use std::ops::Range;

use super::collector::Kind;

/// Where a record's count is (after its kind byte): how many times this same view was noted in its buffer.
pub(super) const COUNT: Range<usize> = 1..5;
/// Where a record's day is (after its count).
pub(super) const DAY: Range<usize> = COUNT.end..COUNT.end + 4;

/// One buffered record, borrowed from the buffer.
#[derive(Clone, Copy)]
pub(super) struct Record<'a> {
    /// The record's bytes after its kind and count: the same bytes are the same view, worked out once per batch.
    pub(super) raw: &'a [u8],
    pub(super) kind: Kind,
    /// How many times the view was noted in its buffer.
    pub(super) times: u64,
    pub(super) day: i32,
    pub(super) ip: [u8; 16],
    pub(super) user_agent: &'a [u8],
    pub(super) host: &'a [u8],
    pub(super) path: &'a [u8],
    pub(super) query: &'a [u8],
    pub(super) referrer: &'a [u8],
}

/// The next record of `bytes`, advancing past it.
pub(super) fn next_record<'a>(bytes: &mut &'a [u8]) -> Option<Record<'a>> {
    fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (taken, rest) = bytes.split_at_checked(n)?;
        *bytes = rest;
        Some(taken)
    }
    fn field<'a>(bytes: &mut &'a [u8]) -> Option<&'a [u8]> {
        let length = u16::from_le_bytes(take(bytes, 2)?.try_into().ok()?);
        take(bytes, usize::from(length))
    }
    let kind = match take(bytes, 1)?[0] {
        0 => Kind::View,
        _ => Kind::Robots,
    };
    let times = u64::from(u32::from_le_bytes(
        take(bytes, COUNT.len())?.try_into().ok()?,
    ));
    let start = *bytes;
    let day = i32::from_le_bytes(take(bytes, 4)?.try_into().ok()?);
    let ip = take(bytes, 16)?.try_into().ok()?;
    let (user_agent, host, path) = (field(bytes)?, field(bytes)?, field(bytes)?);
    let (query, referrer) = (field(bytes)?, field(bytes)?);
    Some(Record {
        raw: &start[..start.len() - bytes.len()],
        kind,
        times,
        day,
        ip,
        user_agent,
        host,
        path,
        query,
        referrer,
    })
}
