//! The agency's news of what was added to a quote after it (its details, its documents): one `details` delivery a
//! channel, or the one still waiting brought forward.

use rusqlite::params;

use super::{Channel, Kind, new_key, now_ms};
use crate::store;

/// Writes the agency's notifications of details or documents added to a lead (kind `details`), due in `delay_ms`:
/// its e-mail and webhook when those channels are on, never the visitor's confirmation. One still waiting to be
/// sent is brought forward instead of a second written.
pub fn enqueue_details(
    transaction: &rusqlite::Transaction<'_>,
    lead_id: i64,
    channels: &[Channel],
    delay_ms: i64,
) -> rusqlite::Result<()> {
    let due = now_ms() + delay_ms;
    for &channel in channels {
        if channel == Channel::Autoreply {
            continue;
        }
        // The message is written when it is sent, from the lead as it is then: one still waiting says everything
        // added since it was queued, and is only brought forward.
        let waiting = transaction.execute(
            "UPDATE deliveries SET next_attempt_ms = min(next_attempt_ms, ?3) \
             WHERE lead_id = ?1 AND kind = 'details' AND channel = ?2 AND state = 'pending'",
            params![lead_id, channel.as_str(), due],
        )?;
        if waiting == 0 {
            transaction.execute(
                "INSERT INTO deliveries (key, lead_id, kind, channel, created_at, created_ms, queued_ms, \
                 next_attempt_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)",
                params![new_key(), lead_id, Kind::Details.as_str(), channel.as_str(), store::now(), now_ms(), due],
            )?;
        }
    }
    Ok(())
}
