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

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rocket::futures::future::join_all;
use rocket::tokio::sync::{oneshot, watch};
use rocket::tokio::{self, time};
use rocket::{Orbit, Rocket};
use rusqlite::{Connection, OpenFlags};

mod lane;
mod log;
mod pace;
mod retry;
mod unconfigured;

use lane::Lane;
use pace::{Pace, lower_priority};
pub use retry::{GIVE_UP_AFTER, retry_delay, update};
use unconfigured::fail_unconfigured;

use super::mail::Mailer;
use super::outbox::Due;
use super::webhook::Webhook;
use super::{Channel, Outbox};
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
                            mail: mail.map(|mail| mail.with_links(links.clone())),
                            webhook: webhook.map(|webhook| webhook.with_links(links)),
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

#[cfg(test)]
mod tests;
