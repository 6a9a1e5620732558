//! Acknowledged means off the machine: the server's side of off-site replication by Litestream, which runs beside
//! it (`litestream replicate -exec "truckins serve"`) and copies the leads database to another machine. Nothing is
//! replicated here; this module asks Litestream, through its control socket ([`socket`]), how far the copy is.
//!
//! Every lead a visitor is told was received is a *ticket* once committed. One task of the server's ([`follow`])
//! asks Litestream for all the tickets waiting at once: `POST /sync` with `wait` (when `replica_acknowledge`) answers
//! after the commits made before it are on the replica, so leads committed at the same moment share one wait however
//! many there are. With `replica_acknowledge` a lead's answer waits for the first copy off the machine, whichever
//! comes first: its ticket on the replica, or its news taken by the agency's relay or webhook ([`acknowledge`]), at
//! most `replica_wait`. Never a 5xx because of the replica: past the wait the lead is answered all the same (it is
//! committed here), counted as unconfirmed.
//!
//! The replica is *behind* once a ticket has waited longer than `replica_wait` (noticed by the follower every second
//! while it waits, or by a lead's answer); it has *caught up* once Litestream reports every commit made up to then on
//! the replica, however many came since. Both are logged with their figures. `/healthz` shows the state
//! ([`health`]); the log says when Litestream does not answer, at start and every minute while it does not.

mod acknowledge;
mod health;
pub mod socket;

pub use acknowledge::Confirmation;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use rocket::tokio::{self, sync::Notify, sync::watch};

use crate::config::Settings;
use socket::{Client, Positions};

/// How long a sync with `wait` may take on this side: Litestream gives up on it after 30 s (its own limit), longer
/// than any `replica_wait`, so a lead answered without its confirmation is still followed to the replica, to say
/// when the replica has caught up.
const SYNC_DEADLINE: Duration = Duration::from_secs(35);

/// How long to wait before asking again when Litestream did not answer or could not reach the replica: often enough
/// to notice a replica that is back within a second, rarely enough not to busy a Litestream that is down.
const RETRY_PAUSE: Duration = Duration::from_secs(1);

/// How often the state is refreshed (and a Litestream that does not answer is named in the log) with no lead waiting.
const LOOK_INTERVAL: Duration = Duration::from_secs(60);

/// A `/healthz` look at Litestream answers within this or counts as not answering.
const HEALTH_DEADLINE: Duration = Duration::from_secs(1);

/// A `/healthz` look at Litestream serves every health check within this time (`/healthz` is public: a flood of
/// checks must not become a flood of syncs).
const HEALTH_REUSE: Duration = Duration::from_secs(1);

/// The replica's side of the leads: nothing without `replica_socket`.
#[derive(Clone, Default)]
pub struct Replica(Option<Arc<Shared>>);

struct Shared {
    client: Client,
    acknowledge: bool,
    wait: Duration,
    state: Mutex<State>,
    /// The highest ticket on the replica; every lower one is too.
    confirmed: watch::Sender<u64>,
    /// Wakes the follower: a ticket was issued.
    work: Notify,
    /// The last `/healthz` look at Litestream: when, and what it said. One look at a time.
    health_look: tokio::sync::Mutex<Option<(Instant, Result<Positions, String>)>>,
}

#[derive(Default)]
struct State {
    /// Tickets issued so far: ticket `n` is the `n`th commit to follow.
    issued: u64,
    /// Tickets not yet on the replica, oldest first, with when each was issued.
    waiting: VecDeque<(u64, Instant)>,
    /// Tickets up to the first number are on the replica once it holds Litestream's transaction, the second
    /// (known from a sync asked after they were issued), oldest first.
    targets: VecDeque<(u64, u64)>,
    /// Since when the replica has been behind, and the commit it has to hold to have caught up.
    behind: Option<Behind>,
    /// When it last caught up: lateness is counted from then at the earliest.
    caught_up_at: Option<Instant>,
    /// How the leads' answers went (`/healthz`).
    counts: acknowledge::Counts,
    /// Since a lead was answered with no copy confirmed within `replica_wait`, while no copy has been confirmed
    /// since: the leads after it are answered at once (see `acknowledge`).
    unconfirmed_since: Option<Instant>,
    /// Whether Litestream answered the last question; when the log last said it did not (kept across answers, so
    /// that a replica coming and going is named once a minute, not at each change).
    answering: Option<bool>,
    complained_at: Option<Instant>,
    /// Whether the log's last word on Litestream was that it does not answer (then its answer again is said).
    said_unavailable: bool,
}

/// The replica fell behind: when, and where things stood.
#[derive(Debug, Clone, Copy)]
struct Behind {
    since: Instant,
    /// The same moment by the wall clock, for the owner's alert.
    since_wall: SystemTime,
    /// The newest commit when it fell behind: the replica has caught up once it holds that one.
    at: u64,
}

fn lock(mutex: &Mutex<State>) -> MutexGuard<'_, State> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Replica {
    /// The replica of `settings.database` when `replica_socket` is set; its follower starts on the current tokio
    /// runtime.
    pub fn start(settings: &Settings) -> Replica {
        let Some(socket) = &settings.replica_socket else {
            return Replica(None);
        };
        let shared = Arc::new(Shared {
            client: Client::new(socket, &settings.database),
            acknowledge: settings.replica_acknowledge,
            wait: Duration::from_secs_f64(settings.replica_wait),
            state: Mutex::new(State::default()),
            confirmed: watch::Sender::new(0),
            work: Notify::new(),
            health_look: tokio::sync::Mutex::new(None),
        });
        tokio::spawn(follow(shared.clone()));
        Replica(Some(shared))
    }
}

impl Shared {
    /// A committed lead's ticket, and whether the replica is behind now; the follower is woken for it.
    fn issue(&self) -> (u64, bool) {
        let (ticket, behind) = {
            let mut state = lock(&self.state);
            state.issued += 1;
            let ticket = state.issued;
            state.waiting.push_back((ticket, Instant::now()));
            (ticket, state.behind.is_some())
        };
        self.work.notify_one();
        (ticket, behind)
    }

    /// The replica is behind once its oldest waiting ticket has waited longer than `replica_wait`: said once, with
    /// the figures, until it has caught up.
    fn check_late(&self) {
        let mut state = lock(&self.state);
        // A commit waiting since before the replica caught up is counted from then: the copy of what came during an
        // outage takes a moment after it, and is no new outage.
        let caught_up_at = state.caught_up_at;
        let late = state.waiting.front().is_some_and(|(_, issued)| {
            caught_up_at.map_or(*issued, |at| at.max(*issued)).elapsed() >= self.wait
        });
        if late {
            self.fall_behind(&mut state);
        }
    }

    /// Marks the replica behind (if it is not already), the caller holding the state.
    fn fall_behind(&self, state: &mut State) {
        if state.behind.is_some() {
            return;
        }
        let at = state.issued;
        state.behind = Some(Behind {
            since: Instant::now(),
            since_wall: SystemTime::now(),
            at,
        });
        let oldest = state
            .waiting
            .front()
            .map_or(0.0, |(_, issued)| issued.elapsed().as_secs_f64());
        rocket::warn!(
            "replica: behind: {} commit(s) not confirmed on the replica, the oldest for {oldest:.1} s (more than \
             replica_wait, {:.1} s); caught up once #{at} is there. Meanwhile a lead is acknowledged once its \
             e-mail or webhook to the agency is taken",
            state.waiting.len(),
            self.wait.as_secs_f64()
        );
    }

    /// Litestream answered a sync asked once tickets up to `covering` were committed: a sync with `wait` answers
    /// once all of them are on the replica; otherwise each is there once the replica holds the transaction Litestream
    /// had reached (its local position then, an upper bound). Confirmed tickets' callers are woken.
    fn answered(&self, covering: u64, waited: bool, positions: Positions) {
        let mut state = lock(&self.state);
        match state.answering {
            Some(true) => {}
            Some(false) => {
                if std::mem::take(&mut state.said_unavailable) {
                    rocket::info!(
                        "replica: Litestream answers again at {}",
                        self.client.socket().display()
                    );
                }
            }
            None => rocket::info!(
                "replica: Litestream answers at {} for {} (transaction {} here, {} on the replica){}",
                self.client.socket().display(),
                self.client.database(),
                positions.local,
                positions.replicated,
                if self.acknowledge {
                    "; each lead is answered once it is off this machine (on the replica, or its news taken by the \
                     agency's relay or webhook)"
                } else {
                    ""
                }
            ),
        }
        state.answering = Some(true);
        let mut confirmed = *self.confirmed.borrow();
        if waited {
            // The local position is read after the copy, so it may already hold later commits: not a target.
            confirmed = confirmed.max(covering);
        } else if covering > 0
            && state
                .targets
                .back()
                .is_none_or(|(upto, _)| *upto < covering)
        {
            state.targets.push_back((covering, positions.local));
        }
        while let Some(&(upto, txid)) = state.targets.front() {
            if txid > positions.replicated {
                break;
            }
            confirmed = confirmed.max(upto);
            state.targets.pop_front();
        }
        while state
            .waiting
            .front()
            .is_some_and(|(ticket, _)| *ticket <= confirmed)
        {
            state.waiting.pop_front();
        }
        // Caught up as soon as the commit it fell behind at is on the replica, however many came since.
        if let Some(behind) = state.behind
            && confirmed >= behind.at
        {
            state.behind = None;
            state.caught_up_at = Some(Instant::now());
            let waiting = state.waiting.len();
            rocket::info!(
                "replica: caught up after {:.1} s behind: every commit up to #{} (the newest when it fell behind) is \
                 on the replica, #{confirmed} in all; {waiting} newer commit(s) on their way; leads wait for it again",
                behind.since.elapsed().as_secs_f64(),
                behind.at
            );
        }
        // Sent while the state is locked: a caller whose wait runs out meanwhile sees it (`fall_behind`).
        self.confirmed.send_if_modified(|on| {
            let moved = confirmed > *on;
            *on = confirmed.max(*on);
            moved
        });
        drop(state);
    }

    /// Litestream did not answer, or could not reach the replica: said at once, and every minute while it lasts.
    fn not_answered(&self, reason: &str) {
        let mut state = lock(&self.state);
        state.answering = Some(false);
        let due = state
            .complained_at
            .is_none_or(|at| at.elapsed() >= LOOK_INTERVAL);
        if due {
            state.complained_at = Some(Instant::now());
            state.said_unavailable = true;
            let unreplicated = state.waiting.len();
            drop(state);
            rocket::error!(
                "replica: replica_socket is set but Litestream is not confirming the copy of {} ({reason}); leads are \
                 stored on this machine only until it does ({unreplicated} commit(s) waiting)",
                self.client.database()
            );
        }
    }
}

/// The follower: asks Litestream about the waiting tickets, all at once, until none waits; with none, looks every
/// [`LOOK_INTERVAL`] (so that a Litestream that does not answer is named in the log at start and every minute).
async fn follow(shared: Arc<Shared>) {
    loop {
        let (covering, any_waiting) = {
            let state = lock(&shared.state);
            (state.issued, !state.waiting.is_empty())
        };
        // With acknowledgement, a sync that returns once the commits are on the replica; otherwise Litestream's own
        // schedule copies them, and a sync only says where it stands.
        let wait = shared.acknowledge && any_waiting;
        let sync = shared.client.sync(wait, SYNC_DEADLINE);
        tokio::pin!(sync);
        // While the sync is under way, whether the oldest waiting commit has become late is looked at every second:
        // the replica is behind from then, not from when Litestream gives up.
        let answer = loop {
            tokio::select! {
                answer = &mut sync => break answer,
                _ = tokio::time::sleep(RETRY_PAUSE) => shared.check_late(),
            }
        };
        match answer {
            Ok(positions) => {
                shared.answered(covering, wait, positions);
                let still_waiting = !lock(&shared.state).waiting.is_empty();
                // Without `wait`, the copy is made on Litestream's own schedule (`sync-interval`): look again
                // shortly rather than at once. (Tickets issued meanwhile go to a sync of their own at once.)
                if still_waiting && any_waiting && !wait {
                    tokio::time::sleep(RETRY_PAUSE).await;
                }
            }
            Err(reason) => {
                shared.not_answered(&reason);
                shared.check_late();
                tokio::time::sleep(RETRY_PAUSE).await;
            }
        }
        // Nothing waiting: until a ticket is issued (a permit kept by `Notify` if it came meanwhile), or the minute.
        if lock(&shared.state).waiting.is_empty() {
            let _ = tokio::time::timeout(LOOK_INTERVAL, shared.work.notified()).await;
        }
    }
}

#[cfg(test)]
mod tests;
