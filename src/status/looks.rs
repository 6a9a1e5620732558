//! The server's periodic looks over the leads (the reminders, the x-dates): a task each, one look on a blocking
//! thread every period, what it queued logged and the worker woken, and the clock's time of the last finished look
//! kept for `/healthz`.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use time::OffsetDateTime;

use crate::store::StoreError;

/// One look at `now`: the leads it queued news for.
pub(super) type Look = dyn Fn(OffsetDateTime) -> Result<Vec<i64>, StoreError> + Send + Sync;

/// Runs `look` every `every` until the runtime ends; `name` says whose in the log, `wake` tells the worker of what was
/// queued, and `last_look` keeps the clock's time (Unix seconds) of each look that finished.
pub(super) fn start(
    name: &'static str,
    every: Duration,
    last_look: &'static AtomicI64,
    look: Arc<Look>,
    wake: impl Fn() + Send + 'static,
) {
    rocket::tokio::spawn(async move {
        loop {
            let look = look.clone();
            let now = crate::clock::now_utc();
            let looked = rocket::tokio::task::spawn_blocking(move || look(now)).await;
            match looked {
                Ok(Ok(queued)) => {
                    if !queued.is_empty() {
                        rocket::info!("{name}: queued for leads {queued:?}");
                        wake();
                    }
                    last_look.store(now.unix_timestamp(), Ordering::Relaxed);
                }
                Ok(Err(error)) => {
                    rocket::error!("{name}: the look failed, tried again soon: {error}")
                }
                Err(error) => rocket::error!("{name}: the look failed: {error}"),
            }
            rocket::tokio::time::sleep(every).await;
        }
    });
}
