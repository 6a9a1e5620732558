//! Acknowledged means off the machine: the server's side of off-site replication by Litestream, which runs beside
//! it (`litestream replicate -exec "truckins serve"`) and copies the leads database to another machine. Nothing is
//! replicated here; this module asks Litestream, through its control socket ([`socket`]), how far the copy is.
//!
//! Every lead a visitor is told was received is a *ticket* once committed ([`Replica::confirm`]). One task of the
//! server's ([`follow`]) asks Litestream for all the tickets waiting at once: `POST /sync` with `wait` (when
//! `replica_acknowledge`) answers after the commits made before it are on the replica, so leads committed at the same
//! moment share one wait however many there are. A lead's answer waits for its ticket at most `replica_wait`; past
//! that it is answered all the same (it is committed here; storage elsewhere being slow is no reason to refuse it),
//! the replica is *behind*, and later leads are answered at once until the replica has caught up. Never a 5xx
//! because of the replica.
//!
//! `/healthz` shows the state ([`Replica::health`]); the log says when Litestream does not answer, at start and every
//! minute while it does not.

pub mod socket;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use rocket::serde::json::{Value, json};
use rocket::tokio::{self, sync::Notify, sync::watch};

use crate::config::Settings;
use socket::{Client, Positions};

/// The longest `replica_wait` allowed: a visitor's form waits this long at most, and Litestream gives up on a sync
/// with `wait` after 30 s.
pub const LONGEST_WAIT_SECONDS: f64 = 30.0;

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

/// The settings' checks (`config::load`).
pub fn check(settings: &Settings) -> Result<(), String> {
    let wait = settings.replica_wait;
    if !(wait > 0.0 && wait <= LONGEST_WAIT_SECONDS) {
        return Err(format!(
            "invalid setting: `replica_wait` must be more than 0 and at most {LONGEST_WAIT_SECONDS} seconds"
        ));
    }
    if settings.replica_acknowledge && settings.replica_socket.is_none() {
        return Err(
            "invalid setting: `replica_acknowledge` needs `replica_socket`, the path of Litestream's control socket"
                .into(),
        );
    }
    Ok(())
}

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
    /// Since when the replica has been behind: a lead's wait ran out (and, for `/healthz`, since the oldest ticket
    /// waited longer than `replica_wait`).
    behind_since: Option<Instant>,
    /// Whether Litestream answered the last question; when the log last said it did not (kept across answers, so
    /// that a replica coming and going is named once a minute, not at each change).
    answering: Option<bool>,
    complained_at: Option<Instant>,
    /// Whether the log's last word on Litestream was that it does not answer (then its answer again is said).
    said_unavailable: bool,
}

fn lock(mutex: &Mutex<State>) -> MutexGuard<'_, State> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How a lead's answer went with the replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    /// No replica configured, or not waited for (`replica_acknowledge` off).
    NotAsked,
    /// Litestream reported the commit on the replica.
    Replicated,
    /// Answered without waiting: the replica was already behind.
    Behind,
    /// Answered without the replica's confirmation, which did not come within `replica_wait`.
    TimedOut,
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

    /// Called once a lead is committed, before the visitor is told: follows the commit to the replica and, with
    /// `replica_acknowledge`, returns once it is there (or `replica_wait` has passed, or at once while the replica
    /// is behind).
    pub async fn confirm(&self) -> Confirmation {
        let Some(shared) = &self.0 else {
            return Confirmation::NotAsked;
        };
        let (ticket, behind) = {
            let mut state = lock(&shared.state);
            state.issued += 1;
            let ticket = state.issued;
            state.waiting.push_back((ticket, Instant::now()));
            (ticket, state.behind_since.is_some())
        };
        shared.work.notify_one();
        if !shared.acknowledge {
            return Confirmation::NotAsked;
        }
        if behind {
            return Confirmation::Behind;
        }
        let mut confirmed = shared.confirmed.subscribe();
        match tokio::time::timeout(shared.wait, confirmed.wait_for(|on| *on >= ticket)).await {
            Ok(Ok(_)) => Confirmation::Replicated,
            // The follower is gone (the server is stopping) or the wait ran out.
            Ok(Err(_)) | Err(_) => shared.fall_behind(ticket),
        }
    }

    /// `/healthz`'s `"replica"`, when replication is configured: whether Litestream answers now, the local and the
    /// replicated transaction, whether the replica is behind and how long the oldest unreplicated commit has waited.
    pub async fn health(&self) -> Option<Value> {
        let shared = self.0.as_ref()?;
        // A sync without `wait`: Litestream reads the WAL's new commits and says where both copies stand.
        let asked = {
            let mut last = shared.health_look.lock().await;
            match &*last {
                Some((at, asked)) if at.elapsed() < HEALTH_REUSE => asked.clone(),
                _ => {
                    let asked = shared.client.sync(false, HEALTH_DEADLINE).await;
                    if let Err(reason) = &asked {
                        shared.not_answered(reason);
                    }
                    *last = Some((Instant::now(), asked.clone()));
                    asked
                }
            }
        };
        let state = lock(&shared.state);
        let oldest = state
            .waiting
            .front()
            .map_or(Duration::ZERO, |(_, issued)| issued.elapsed());
        let litestream = match &asked {
            Ok(_) => "ok",
            Err(_) => "unavailable",
        };
        let behind = state.behind_since.is_some() || oldest > shared.wait;
        let positions = asked.as_ref().ok();
        let mut answer = json!({
            "litestream": litestream,
            "acknowledge": shared.acknowledge,
            "behind": behind,
            "txid": positions.map(|p| p.local),
            "replicated_txid": positions.map(|p| p.replicated),
            "oldest_unreplicated_seconds": (oldest.as_secs_f64() * 10.0).round() / 10.0,
        });
        if asked.is_err() {
            // The reason (in the log, once a minute) names a path of this machine: not for whoever asks /healthz.
            answer["reason"] = "Litestream does not answer on its control socket".into();
        }
        Some(answer)
    }
}

impl Shared {
    /// A lead's wait for `ticket` ran out: the replica is behind (said once, until it has caught up). Unless the
    /// ticket was confirmed meanwhile (confirmations are sent under the state's lock, so this sees them).
    fn fall_behind(&self, ticket: u64) -> Confirmation {
        let mut state = lock(&self.state);
        if *self.confirmed.borrow() >= ticket {
            return Confirmation::Replicated;
        }
        if state.behind_since.is_none() {
            state.behind_since = Some(Instant::now());
            drop(state);
            rocket::warn!(
                "replica: a lead's commit was not confirmed on the replica within {:.1} s; leads are answered without \
                 waiting for it until it has caught up (they are stored on this machine)",
                self.wait.as_secs_f64()
            );
        }
        Confirmation::TimedOut
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
                    "; each lead is answered once it is on the replica"
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
        let caught_up = state
            .waiting
            .front()
            .is_none_or(|(_, issued)| issued.elapsed() < self.wait);
        if caught_up && let Some(since) = state.behind_since.take() {
            rocket::info!(
                "replica: caught up after {:.1} s behind; leads wait for it again",
                since.elapsed().as_secs_f64()
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
        match shared.client.sync(wait, SYNC_DEADLINE).await {
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
