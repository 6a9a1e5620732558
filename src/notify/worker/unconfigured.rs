//! Deliveries waiting for a channel that is off at start: marked failed, for `truckins outbox retry` once it is on.

use rusqlite::Connection;

use crate::notify::{Channel, outbox};
use crate::store::StoreError;

/// Deliveries of a channel turned off since they were queued: marked failed, for `outbox retry` once it is back on.
/// Only when there are any: a start with nothing to mark writes nothing, so a read-only database (which `/healthz`
/// and the leads API already report) adds nothing to the log here.
pub(super) fn fail_unconfigured(connection: &Connection, on: &[Channel]) {
    let reason = |error: rusqlite::Error| StoreError::Sqlite(error).public_reason();
    let waiting = match outbox::pending_unconfigured(connection, on) {
        Ok(0) => return,
        Ok(waiting) => waiting,
        Err(error) => {
            rocket::error!(
                "notifications: cannot look for deliveries waiting on channels that are off: {}",
                reason(error)
            );
            return;
        }
    };
    match outbox::fail_unconfigured(connection, on) {
        Ok(count) => rocket::warn!(
            "notifications: {count} pending deliveries of channels not configured now marked failed \
             (truckins outbox retry --all-failed once the channel is configured again)"
        ),
        Err(error) => rocket::error!(
            "notifications: {waiting} deliveries wait for channels that are not configured now; they could not be \
             marked failed ({}) and stay pending until the channel is configured again",
            reason(error)
        ),
    }
}
