//! What the server says of the replica: `/healthz`'s `"replica"` (where both copies stand, whether it is behind, how
//! the leads' answers went) and, for the owner's alerts, since when it has been behind.

use std::time::{Duration, Instant, SystemTime};

use rocket::serde::json::{Value, json};

use super::{HEALTH_DEADLINE, HEALTH_REUSE, Replica, lock};

/// The replica behind, as the owner's alert says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BehindNow {
    /// When it fell behind, by the wall clock.
    pub since: SystemTime,
    /// For how long.
    pub for_how_long: Duration,
    /// Commits (leads, mostly) not yet on the replica.
    pub waiting: usize,
}

impl Replica {
    /// `/healthz`'s `"replica"`, when replication is configured: whether Litestream answers now, the local and the
    /// replicated transaction, whether the replica is behind and how long the oldest unreplicated commit has waited,
    /// and how the leads' answers were confirmed since the start.
    pub async fn health(&self) -> Option<Value> {
        let shared = self.0.as_ref()?;
        // A sync without `wait`: Litestream reads the WAL's new commits and says where both copies stand.
        let asked = {
            let mut last = shared.health_look.lock().await;
            match &*last {
                Some((at, asked)) if at.elapsed() < HEALTH_REUSE => asked.clone(),
                _ => {
                    let asked = shared.client.sync(false, HEALTH_DEADLINE).await;
                    // Slower than the look's second is Litestream busy (its first whole copy after a restore), not
                    // gone: the follower, whose syncs may take longer, says when it really does not answer.
                    if let Err(reason) = &asked
                        && !reason.starts_with(super::socket::NO_ANSWER_WITHIN)
                    {
                        shared.not_answered(reason);
                    }
                    *last = Some((Instant::now(), asked.clone()));
                    asked
                }
            }
        };
        shared.check_late();
        let state = lock(&shared.state);
        let oldest = state
            .waiting
            .front()
            .map_or(Duration::ZERO, |(_, issued)| issued.elapsed());
        let litestream = match &asked {
            Ok(_) => "ok",
            Err(reason) if reason.starts_with(super::socket::NO_ANSWER_WITHIN) => "busy",
            Err(_) => "unavailable",
        };
        let positions = asked.as_ref().ok();
        let mut answer = json!({
            "litestream": litestream,
            "acknowledge": shared.acknowledge,
            "behind": state.behind.is_some(),
            "behind_seconds": state.behind.map(|behind| behind.since.elapsed().as_secs()),
            "txid": positions.map(|p| p.local),
            "replicated_txid": positions.map(|p| p.replicated),
            "oldest_unreplicated_seconds": (oldest.as_secs_f64() * 10.0).round() / 10.0,
            "leads_acknowledged": state.counts.json(),
        });
        if let Err(reason) = &asked {
            // The reason (in the log, once a minute) names a path of this machine: not for whoever asks /healthz.
            answer["reason"] = if reason.starts_with(super::socket::NO_ANSWER_WITHIN) {
                "Litestream is busy (its first whole copy after a restore or a first start takes seconds)".into()
            } else {
                "Litestream does not answer on its control socket".into()
            };
        }
        Some(answer)
    }

    /// Whether the replica is behind now, since when and with how many commits waiting; `None` when it is not, or
    /// when there is no replica.
    pub fn behind(&self) -> Option<BehindNow> {
        let shared = self.0.as_ref()?;
        shared.check_late();
        let state = lock(&shared.state);
        state.behind.map(|behind| BehindNow {
            since: behind.since_wall,
            for_how_long: behind.since.elapsed(),
            waiting: state.waiting.len(),
        })
    }
}
