//! The delivery worker, in the server process, on a thread of its own at a lower priority than the requests (nice
//! 10), which holds its sends back while a flood of leads comes in ([`pace`]: accepting them comes first), all but
//! the first copies of leads whose answers wait for them (`super::first_copy`), which go ahead of everything: one task
//! per channel that is on, each sending its channel's due
//! deliveries a few at a time (a receiver that hangs holds up only its own channel, and a backlog after an outage
//! drains at several times the pace of one round trip per delivery), woken when a lead is committed (its first
//! attempt a tenth of a second later, gathering a burst into one batch) and otherwise at the next delivery due (or
//! every few seconds, to see re-queues made by the CLI).
//! A failed attempt is tried again after a growing, jittered wait (`notify_retry_base`, doubling up to an hour) for
//! at least 24 h, then the delivery is marked failed with its last reason. Deliveries pending at start are simply
//! due: nothing is lost by a restart or a SIGKILL (a delivery cut off mid-attempt is sent again: at least once). A
//! graceful stop begins no attempt but finishes those under way, within `shutdown.grace`, and records them, so that
//! what the relay took is not sent again;
//! those of a channel no longer configured are marked failed at start. Outcomes whose write fails are kept in memory
//! and written before the table is read again (after the idle wait), so their deliveries are not sent again.
//!
//! The worker has its own connection to the leads file, committing without a sync to disk (`synchronous=NORMAL`):
//! its writes are made durable by the next lead's commit, and one lost would only mean a delivery sent again, so
//! the leads do not wait on its fsyncs. It takes the store's writer turn like every writer of the process.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rocket::futures::future::join_all;
use rocket::futures::stream::{self, StreamExt};
use rocket::tokio::sync::{oneshot, watch};
use rocket::tokio::{self, time};
use rocket::{Orbit, Rocket};
use rusqlite::{Connection, OpenFlags};

mod log;
mod pace;
mod retry;
mod unconfigured;

use log::log;
use pace::{HOLD_STEP, Pace, lower_priority};
pub use retry::{GIVE_UP_AFTER, retry_delay, update};
use unconfigured::fail_unconfigured;

use super::mail::Mailer;
use super::outbox::{self, Due, Update};
use super::webhook::Webhook;
use super::{Channel, Kind, Outbox};
use crate::config::Settings;

/// How one attempt went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Sent,
    /// Not now (no connection, a timeout, a temporary refusal): try again later.
    Retry(String),
    /// Refused for good (a permanent SMTP answer, a webhook 4xx): trying again cannot help.
    Failed(String),
    /// Not to be sent at all: a confirmation to an address that opted out (src/consent).
    Withheld(String),
}

/// With nothing due, a channel still looks at the table this often (a `truckins outbox retry` from the CLI).
const IDLE_LOOK: Duration = Duration::from_secs(5);
/// Deliveries taken from the table at a time.
const BATCH: u32 = 64;
/// After a wake-up, the deliveries committed meanwhile are gathered this long, so that a burst of leads makes a few
/// batches (a few reads and one write each) rather than one per lead, each taking the writer's turn from the leads.
const GATHER: Duration = Duration::from_millis(100);
/// Attempts of one channel under way at once (also the most SMTP connections kept open for it).
pub const CONCURRENT: usize = 8;

/// The senders of the channels that are on.
struct Senders {
    mail: Option<Mailer>,
    webhook: Option<Webhook>,
}

impl Senders {
    async fn deliver(&self, due: &Due) -> Outcome {
        if let Some(since) = &due.withheld {
            return Outcome::Withheld(format!("withheld: the address opted out on {since}"));
        }
        let missing = || Outcome::Retry("the channel is not configured now".into());
        match due.channel {
            Channel::Email | Channel::Autoreply => match &self.mail {
                Some(mail) => mail.deliver(due).await,
                None => missing(),
            },
            Channel::Webhook => match &self.webhook {
                Some(webhook) => webhook.deliver(due).await,
                None => missing(),
            },
        }
    }
}

/// What the lanes are told at a stop: the instant by which the attempts under way must have finished. One instant
/// for all of them, set when the stop is asked for, so no lane counts its grace from when it happened to notice.
type Stop = Option<Instant>;

/// The running worker; [`Worker::begin_stop`] and [`Worker::stop`] end it.
pub struct Worker {
    stop: watch::Sender<Stop>,
    /// Closed when the worker's thread has finished.
    finished: oneshot::Receiver<()>,
    /// Rocket's `shutdown.grace`: how long attempts under way at a stop may take to finish.
    grace: Duration,
    /// When the attempts under way at the stop must have finished: the stop's request plus the grace.
    deadline: Option<Instant>,
}

impl Worker {
    /// Starts the worker's thread, with a task per channel that is on; `None` with no channel on (or when the worker
    /// cannot start: then the log says why and the deliveries wait in the table for the next start). Called in the
    /// server's runtime, whose blocking threads then do the worker's database work.
    pub fn start(rocket: &Rocket<Orbit>) -> Option<Worker> {
        let settings = rocket.state::<Settings>()?.clone();
        let grace = Duration::from_secs(u64::from(rocket.config().shutdown.grace));
        let outbox = rocket.state::<Outbox>()?.clone();
        let links = rocket
            .state::<crate::links::Installed>()
            .and_then(|installed| installed.0.clone());
        let checkpoints = crate::store::Checkpoints::for_settings(&settings);
        let connection = match open(&settings.database, checkpoints) {
            Ok(connection) => connection,
            Err(error) => {
                rocket::error!(
                    "notifications not started: the leads database cannot be opened: {error}"
                );
                return None;
            }
        };
        fail_unconfigured(&connection, outbox.channels());
        if !outbox.is_active() {
            return None;
        }
        let db = Arc::new(Mutex::new(connection));
        let blocking = tokio::runtime::Handle::current();
        let (stop, stopped) = watch::channel(None);
        let (finished_tx, finished) = oneshot::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("truckins-notify".into())
            .spawn(move || {
                lower_priority();
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(error) => {
                        rocket::error!("notifications not started: {error}");
                        return;
                    }
                };
                // The senders are made and dropped in this runtime: lettre's pool spawns tasks of its own.
                runtime.block_on(async move {
                    let senders = match (Mailer::new(&settings), Webhook::new(&settings)) {
                        (Ok(mail), Ok(webhook)) => Arc::new(Senders {
                            mail: mail.map(|mail| mail.with_links(links)),
                            webhook,
                        }),
                        (Err(error), _) | (_, Err(error)) => {
                            rocket::error!("notifications not started: {error}");
                            return;
                        }
                    };
                    let pace = Arc::new(Pace::new(outbox.clone()));
                    let lanes = outbox.channels().iter().map(|&channel| {
                        Lane {
                            channel,
                            outbox: outbox.clone(),
                            senders: senders.clone(),
                            db: db.clone(),
                            blocking: blocking.clone(),
                            base: settings.notify_retry_base,
                            stopped: stopped.clone(),
                            pace: pace.clone(),
                        }
                        .run()
                    });
                    join_all(lanes).await;
                });
                drop(finished_tx);
            });
        match spawned {
            Ok(_) => Some(Worker {
                stop,
                finished,
                grace,
                deadline: None,
            }),
            Err(error) => {
                rocket::error!("notifications not started: no thread for them: {error}");
                None
            }
        }
    }

    /// Tells every channel to stop, at the start of the server's graceful stop: no attempt begins after it, and each
    /// one under way is finished and its outcome written (see [`Lane::run`]), within `shutdown.grace`, beside the
    /// requests that finish meanwhile. Every lane is given the same deadline, this call's time plus the grace.
    pub fn begin_stop(&mut self) {
        let grace = self.grace;
        let deadline = *self.deadline.get_or_insert_with(|| Instant::now() + grace);
        // `send_if_modified`: a second call changes nothing (the lanes keep the first deadline).
        self.stop
            .send_if_modified(|stop| stop.replace(deadline).is_none());
    }

    /// Waits for the channels to have stopped: at most a second (their last outcomes written) after the deadline
    /// [`Worker::begin_stop`] gave them, so that a receiver that never answers cannot hold the stop beyond what a
    /// container runtime gives (10 s); such an attempt is left pending and made again at the next start. The lanes
    /// give up on their attempts at that same deadline, so the second is theirs to record what was answered.
    pub async fn stop(mut self) {
        self.begin_stop();
        let deadline = self.deadline.unwrap_or_else(Instant::now) + Duration::from_secs(1);
        let _ = time::timeout_at(deadline.into(), self.finished).await;
    }
}

/// The worker's own connection (see the module's notes).
fn open(path: &Path, checkpoints: crate::store::Checkpoints) -> rusqlite::Result<Connection> {
    let connection =
        Connection::open_with_flags(path, OpenFlags::default() - OpenFlags::SQLITE_OPEN_CREATE)?;
    connection.busy_timeout(Duration::from_secs(5))?;
    connection.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
    checkpoints.apply(&connection)?;
    Ok(connection)
}

/// One channel's loop.
struct Lane {
    channel: Channel,
    outbox: Outbox,
    senders: Arc<Senders>,
    db: Arc<Mutex<Connection>>,
    /// The server's runtime, whose blocking threads run the database work.
    blocking: tokio::runtime::Handle,
    base: f64,
    /// Set at the stop: the deadline of the attempts under way.
    stopped: watch::Receiver<Stop>,
    pace: Arc<Pace>,
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
    async fn write(
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

    async fn run(mut self) {
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
                tokio::select! {
                    _ = time::sleep(HOLD_STEP) => continue,
                    _ = self.stopped.changed() => return,
                }
            }
            let first: HashSet<i64> = awaited.iter().copied().collect();
            let batch = match self
                .with_db(move |c| {
                    let now = outbox::now_ms();
                    let mut batch = outbox::due_awaited(c, channel, &awaited, now)?;
                    if !hold {
                        let taken: HashSet<i64> = batch.iter().map(|due| due.id).collect();
                        let rest = outbox::due_urgent_first(c, channel, now, BATCH)?;
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
            if batch.len() >= BATCH as usize {
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

#[cfg(test)]
mod tests;
