//! A lead's answer, with `replica_acknowledge`: given once the lead is off the machine somewhere, whichever comes
//! first within `replica_wait`: its commit on the replica (Litestream's sync), or its news taken by the agency's
//! relay (SMTP 250) or webhook (2xx) (`notify::first_copy`). While the replica keeps up, it confirms in
//! milliseconds and comes first; the agency's copy counts at once only while the replica is behind, and otherwise
//! once the replica has let the whole wait pass. So a lead acknowledged while the store is reachable (even slow) is
//! on the replica and comes back with a restore, and the agency's copy answers for the leads the replica cannot
//! take. While the replica is behind only the agency's copy is waited for. When neither confirms within the wait the lead is answered all the same (it is committed here) and
//! counted unconfirmed; the leads after it are then answered at once, without a wait of their own, until a copy is
//! confirmed again (the replica caught up, or any lead's news taken), so a machine cut off from everything does
//! not hold every visitor for the whole wait.

use std::future::pending;
use std::time::Instant;

use rocket::serde::json::{Value, json};
use rocket::tokio;

use super::{Replica, Shared, lock};
use crate::notify::first_copy::Expected;

/// How a lead's answer went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    /// No replica configured, or not waited for (`replica_acknowledge` off).
    NotAsked,
    /// Litestream reported the commit on the replica.
    Replicated,
    /// The agency's relay or webhook took the lead's news first.
    Copied,
    /// Neither within `replica_wait`: answered unconfirmed.
    TimedOut,
    /// Answered at once, unconfirmed: the lead before it found no copy confirmed, and none has been since.
    AtOnce,
}

/// The leads' answers since the start, by how they were confirmed (`/healthz`).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Counts {
    replicated: u64,
    copied: u64,
    unconfirmed: u64,
}

impl Counts {
    pub(super) fn json(&self) -> Value {
        json!({
            "replica": self.replicated,
            "agency_copy": self.copied,
            "unconfirmed": self.unconfirmed,
        })
    }
}

impl Replica {
    /// Called once a lead is committed, before the visitor is told: follows the commit to the replica and, with
    /// `replica_acknowledge`, returns once it is off the machine (see the module), or `replica_wait` has passed.
    /// `first_copy` is the wait for the lead's news to the agency, when an agency channel is on.
    pub async fn acknowledge(&self, first_copy: Option<Expected>) -> Confirmation {
        let Some(shared) = &self.0 else {
            return Confirmation::NotAsked;
        };
        let issued = Instant::now();
        let (ticket, behind) = shared.issue();
        if !shared.acknowledge {
            return Confirmation::NotAsked;
        }
        if shared.nothing_confirmed_since_the_last_miss(first_copy.as_ref(), behind) {
            lock(&shared.state).counts.unconfirmed += 1;
            // Its copy still goes first: the agency's channels working again is then seen at the next lead.
            if let Some(expected) = first_copy {
                expected.still_wanted();
            }
            return Confirmation::AtOnce;
        }
        let mut confirmed = shared.confirmed.subscribe();
        let replicated = async {
            // While the replica is behind its confirmation is not waited for: only the agency's copy is.
            if behind || confirmed.wait_for(|on| *on >= ticket).await.is_err() {
                pending::<()>().await;
            }
        };
        // While the replica keeps up, the agency's copy counts only once the replica has let the whole wait pass.
        let grace = shared.wait;
        let copied = async {
            match &first_copy {
                Some(expected) => {
                    expected.taken().await;
                    if !behind {
                        tokio::time::sleep_until((issued + grace).into()).await;
                    }
                }
                None => pending().await,
            }
        };
        let first = tokio::time::timeout(shared.wait, async {
            tokio::select! {
                biased;
                _ = replicated => Confirmation::Replicated,
                _ = copied => Confirmation::Copied,
            }
        })
        .await;
        let mut state = lock(&shared.state);
        let confirmation = match first {
            Ok(confirmation) => confirmation,
            // Confirmations are sent under the state's lock: one that came as the wait ran out is seen here.
            Err(_) if *shared.confirmed.borrow() >= ticket => Confirmation::Replicated,
            Err(_) => {
                shared.fall_behind(&mut state);
                Confirmation::TimedOut
            }
        };
        match confirmation {
            Confirmation::Replicated => state.counts.replicated += 1,
            Confirmation::Copied => state.counts.copied += 1,
            _ => {
                state.counts.unconfirmed += 1;
                if let Some(expected) = first_copy {
                    expected.still_wanted();
                }
                if state.unconfirmed_since.is_none() {
                    state.unconfirmed_since = Some(Instant::now());
                    drop(state);
                    rocket::warn!(
                        "acknowledge: a lead was answered with no copy off this machine confirmed within {:.1} s \
                         (neither the replica nor the agency's e-mail or webhook); it is stored here, and the next \
                         leads are answered at once until a copy is confirmed again",
                        shared.wait.as_secs_f64()
                    );
                }
                return confirmation;
            }
        }
        state.unconfirmed_since = None;
        confirmation
    }

    /// Whether leads' answers wait for a copy off the machine (`replica_acknowledge`, with a replica).
    pub fn acknowledges(&self) -> bool {
        self.0.as_ref().is_some_and(|shared| shared.acknowledge)
    }

    /// Acknowledgement without a copy by the agency's channels: the replica's alone (tests).
    pub async fn confirm(&self) -> Confirmation {
        self.acknowledge(None).await
    }
}

impl Shared {
    /// Whether a lead is answered at once: the last lead found no copy confirmed within the wait, and none has been
    /// confirmed since (the replica still behind, no lead's news taken by the agency's channels since then).
    fn nothing_confirmed_since_the_last_miss(
        &self,
        first_copy: Option<&Expected>,
        behind: bool,
    ) -> bool {
        let mut state = lock(&self.state);
        let Some(missed) = state.unconfirmed_since else {
            return false;
        };
        let copied_since = first_copy
            .and_then(Expected::last_taken)
            .is_some_and(|taken| taken > missed);
        if !behind || copied_since {
            state.unconfirmed_since = None;
            rocket::info!(
                "acknowledge: a copy off this machine is confirmed again ({}); leads wait for one again",
                if copied_since {
                    "the agency's e-mail or webhook took a lead"
                } else {
                    "the replica has caught up"
                }
            );
            return false;
        }
        true
    }
}
