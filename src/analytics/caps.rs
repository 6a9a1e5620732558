//! The limits that keep the visit counts' memory and database bounded under a flood, and what a row costs.

use super::store::Visit;

/// The limits that keep memory and the database bounded under a flood.
#[derive(Clone, Copy, Debug)]
pub(super) struct Caps {
    /// Visitors a day that asked for robots.txt kept to leave out; beyond, no more are added (their views count).
    pub(super) crawlers_per_day: usize,
    /// Distinct visit rows a day (in this run of the server); beyond, a new row is counted in a row of its device
    /// with visitor 0, path `(other)`, and `(other)` for a referrer or tag it had.
    pub(super) rows_per_day: usize,
    /// Distinct referrer hosts, and distinct values of each campaign tag, a day; beyond, `(other)`.
    pub(super) values_per_day: usize,
    /// About the bytes of rows kept in memory while the database refuses them; beyond, new rows are dropped.
    pub(super) row_bytes: usize,
    /// About the bytes of requests noted and not yet turned into rows (all buffers); beyond, views are dropped.
    pub(super) pending_bytes: usize,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            crawlers_per_day: 100_000,
            rows_per_day: 50_000,
            values_per_day: 1_000,
            row_bytes: 64 << 20,
            pending_bytes: super::collector::MAX_PENDING_BYTES,
        }
    }
}

/// About the memory a row takes in the map (its strings and the map's own bytes).
pub(super) fn row_bytes(visit: &Visit) -> usize {
    128 + visit.path.len()
        + visit.referrer.len()
        + visit.utm_source.len()
        + visit.utm_medium.len()
        + visit.utm_campaign.len()
}
