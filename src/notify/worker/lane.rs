//! One channel's lane of the delivery worker: reads what is due (the first copies waited for and a claim's news
//! first), sends a few at a time, writes the outcomes in one commit, and sleeps until the next delivery is due, a
//! lead is committed, or the stop.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rocket::futures::stream::{self, StreamExt};
use rocket::tokio::{self, sync::watch, time};
use rusqlite::Connection;

use super::log::log;
use super::pace::{HOLD_STEP, Pace};
use super::{BATCH, CONCURRENT, GATHER, IDLE_LOOK, Outcome, Senders, Stop, update};

/// Deliveries other than first copies taken at a time while answers wait for first copies: two rounds of attempts.
const FEW: u32 = 2 * CONCURRENT as u32;
use crate::notify::outbox::{self, Due, Update};
use crate::notify::{Channel, Kind, Outbox};

/// One channel's loop.
pub(super) struct Lane {
    pub(super) channel: Channel,
    pub(super) outbox: Outbox,
    pub(super) senders: Arc<Senders>,
    pub(super) db: Arc<Mutex<Connection>>,
    /// The server's runtime, whose blocking threads run the database work.
    pub(super) blocking: tokio::runtime::Handle,
    pub(super) base: f64,
    /// Set at the stop: the deadline of the attempts under way.
    pub(super) stopped: watch::Receiver<Stop>,
    pub(super) pace: Arc<Pace>,
}

impl Lane {
    /// Runs `work` on the worker's connection, off the async threads.
    async fn with_db<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, String> {
        let db = self.db.clone();
        self.blocking
            .spawn_blocking(move || work(&db.lock().unwrap_or_else(PoisonError::into_inner)))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())
    }

    /// Writes the outcomes kept from a write that failed, then `new`, in one transaction; when the write fails they
    /// are all kept (in memory) for the next try, so that the deliveries they are about are not sent again.
    pub(super) async fn write(
        &self,
        kept: &mut Vec<(i64, Update)>,
        new: Vec<(i64, Update)>,
    ) -> Result<(), String> {
        kept.extend(new);
        if kept.is_empty() {
            return Ok(());
        }
        let updates = kept.clone();
        self.with_db(move |c| outbox::record_all(c, &updates))
            .await?;
        kept.clear();
        Ok(())
    }

    /// Whether answers wait for first copies on this lane (acknowledgement on, the agency's news).
    fn first_copies_in_use(&self) -> bool {
        matches!(self.channel, Channel::Email | Channel::Webhook)
            && self
                .outbox
                .first_copies()
                .is_some_and(|copies| copies.in_use())
    }

    /// The leads whose first copy a visitor's answer waits for, when this lane carries the agency's news.
    fn awaited(&self) -> Vec<i64> {
        match (self.channel, self.outbox.first_copies()) {
            (Channel::Email | Channel::Webhook, Some(copies)) => copies.awaited(),
            _ => Vec::new(),
        }
    }

    /// A lead's news taken by the relay or the webhook is its first copy off the machine: said at once, before the
    /// outcome is written, since the visitor's answer may be waiting for it.
    fn tell_taken(&self, due: &Due, outcome: &Outcome) {
        if *outcome != Outcome::Sent || due.kind != Kind::Lead || self.channel == Channel::Autoreply
        {
            return;
        }
        if let (Some(copies), Some(lead)) = (self.outbox.first_copies(), due.lead()) {
            copies.taken(lead.id);
        }
    }

    /// Waits the idle look's time after a failed write (no storm of attempts against a database that refuses
    /// them); true when the stop came meanwhile.
    async fn back_off(&mut self) -> bool {
        tokio::select! {
            _ = time::sleep(IDLE_LOOK) => false,
            _ = self.stopped.changed() => true,
        }
    }

    pub(super) async fn run(mut self) {
        let channel = self.channel;
        // Outcomes whose write failed: written first, before the table is read again.
        let mut kept: Vec<(i64, Update)> = Vec::new();
        loop {
            if self.stopped.borrow().is_some() {
                return;
            }
            if !kept.is_empty()
                && let Err(error) = self.write(&mut kept, Vec::new()).await
            {
                rocket::error!(
                    "notifications: the outcome of {} {} deliveries still cannot be recorded (kept, not sent again): {error}",
                    kept.len(),
                    channel.as_str()
                );
                if self.back_off().await {
                    return;
                }
                continue;
            }
            // The first copies that visitors' answers wait for go ahead of everything, and even while a flood holds
            // the rest back: the pacing must never delay a lead's first copy off the machine.
            let awaited = self.awaited();
            let hold = self.pace.hold_back();
            if hold && awaited.is_empty() {
                // A lead committed meanwhile may be waited for: woken by it, not only at the next step.
                let wake = self.outbox.clone();
                tokio::select! {
                    _ = time::sleep(HOLD_STEP) => continue,
                    _ = wake.waker(channel).notified() => continue,
                    _ = self.stopped.changed() => return,
                }
            }
            // While answers wait for first copies, the rest go a few at a time, so that a copy committed during a
            // batch does not wait for a whole one.
            let limit = if self.first_copies_in_use() {
                FEW
            } else {
                BATCH
            };
            let first: HashSet<i64> = awaited.iter().copied().collect();
            let batch = match self
                .with_db(move |c| {
                    let now = outbox::now_ms();
                    let mut batch = outbox::due_awaited(c, channel, &awaited, now)?;
                    if !hold {
                        let taken: HashSet<i64> = batch.iter().map(|due| due.id).collect();
                        let rest = outbox::due_urgent_first(c, channel, now, limit)?;
                        batch.extend(rest.into_iter().filter(|due| !taken.contains(&due.id)));
                    }
                    Ok(batch)
                })
                .await
            {
                Ok(batch) => batch,
                Err(error) => {
                    rocket::error!(
                        "notifications: cannot read the {} deliveries: {error}",
                        channel.as_str()
                    );
                    Vec::new()
                }
            };
            // Outcomes are written together once the batch is done (one commit, not one per delivery).
            let mut stopped = self.stopped.clone();
            let done = Mutex::new(Vec::with_capacity(batch.len()));
            let lane = &self;
            // The urgent ones (a claim's news, first in the batch) and the first copies waited for are finished
            // before the others begin: sent side by side, the others could reach the relay first.
            let (urgent, others): (Vec<&Due>, Vec<&Due>) = batch.iter().partition(|due| {
                due.urgent
                    || (due.kind == Kind::Lead
                        && due.lead().is_some_and(|lead| first.contains(&lead.id)))
            });
            let stopping = {
                let work = async {
                    for group in [urgent, others] {
                        stream::iter(group)
                            .for_each_concurrent(CONCURRENT, |due| {
                                let done = &done;
                                async move {
                                    // After the stop nothing begins: the rest stays pending, for the next start.
                                    if lane.stopped.borrow().is_some() {
                                        return;
                                    }
                                    let outcome = lane.senders.deliver(due).await;
                                    lane.tell_taken(due, &outcome);
                                    let update = update(outcome, due, lane.base, outbox::now_ms());
                                    log(due, &update);
                                    done.lock()
                                        .unwrap_or_else(PoisonError::into_inner)
                                        .push((due.id, update));
                                }
                            })
                            .await;
                    }
                };
                tokio::pin!(work);
                let stopping = tokio::select! {
                    _ = &mut work => false,
                    _ = stopped.changed() => true,
                };
                // Attempts under way at the stop are finished, not dropped: the relay may already have taken the
                // message, and one dropped before its answer is recorded would go again at the next start, the
                // same Message-ID twice. Only one still unanswered at the stop's deadline (the same for every lane,
                // so that `Worker::stop` leaves each the time to record) is dropped and left pending. A stop seen
                // without a deadline (the worker dropped) gives none.
                let deadline = (*stopped.borrow()).unwrap_or_else(Instant::now);
                if stopping {
                    rocket::warn!(
                        "notifications: stopping; the {} attempts under way are finished first (within {} s)",
                        channel.as_str(),
                        deadline.saturating_duration_since(Instant::now()).as_secs()
                    );
                }
                if stopping && time::timeout_at(deadline.into(), &mut work).await.is_err() {
                    rocket::warn!(
                        "notifications: {} attempts still unanswered after the stop's grace are left pending \
                         (made again at the next start)",
                        channel.as_str()
                    );
                }
                stopping
            };
            let updates = done.into_inner().unwrap_or_else(PoisonError::into_inner);
            if let Err(error) = self.write(&mut kept, updates).await {
                // Kept in memory and written before the next batch: not sent again meanwhile (only a stop before
                // they are written leaves them pending, to be sent again at the next start).
                rocket::error!(
                    "notifications: the outcome of {} {} deliveries could not be recorded (kept, not sent again): {error}",
                    kept.len(),
                    channel.as_str()
                );
                if stopping || self.back_off().await {
                    return;
                }
                continue;
            }
            if stopping {
                return;
            }
            if batch.len() >= limit as usize {
                continue;
            }
            // Only a delivery due within the idle look can shorten the wait.
            let idle_look_ms = IDLE_LOOK.as_millis() as i64;
            let next = self
                .with_db(move |c| outbox::next_due(c, channel, outbox::now_ms() + idle_look_ms))
                .await
                .ok()
                .flatten();
            let wait = next.map_or(IDLE_LOOK, |at| {
                Duration::from_millis(u64::try_from(at - outbox::now_ms()).unwrap_or(0))
                    .min(IDLE_LOOK)
            });
            let wake = self.outbox.clone();
            tokio::select! {
                _ = wake.waker(channel).notified() => {}
                _ = time::sleep(wait) => {}
                _ = self.stopped.changed() => return,
            }
            tokio::select! {
                _ = time::sleep(GATHER) => {}
                _ = self.stopped.changed() => return,
            }
        }
    }
}
