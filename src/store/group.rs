//! Group commit: leads submitted at the same moment are committed together, in one transaction and one sync to
//! disk, instead of one sync each while the others queue. Each caller still returns only once its own lead is
//! committed (or refused), so a 201 still means "on disk".
//!
//! There is no thread of its own: a caller puts its lead in the pool's queue and takes the process's writer turn
//! ([`super::writer`]); whoever gets the turn and finds its lead still queued leads a group: it takes every queued
//! lead, writes each inside a savepoint (one lead's failure is that lead's alone), commits once, and leaves each
//! caller its outcome. Callers whose lead was written meanwhile find their outcome when their turn comes and return.

use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::{OptionalExtension, Transaction, params};

use super::{Lead, StoreError, Stored};
use crate::store::pool::DbPool;

/// What follows from a new lead in its transaction (its deliveries): run by whichever caller leads the group.
pub type Also = Box<dyn FnOnce(&Transaction<'_>, i64) -> rusqlite::Result<()> + Send>;

/// Leads waiting for the next group, one queue per database pool.
#[derive(Default)]
pub struct Queue {
    waiting: Mutex<Vec<Arc<Slot>>>,
}

/// One caller's lead and, once its group has been committed, its outcome.
struct Slot {
    job: Mutex<Option<(Lead, Also)>>,
    outcome: Mutex<Option<Result<Stored, StoreError>>>,
}

/// Leads written in one transaction at most: enough to take a burst in one sync, few enough that a group's commit
/// stays short.
const LARGEST_GROUP: usize = 128;

impl Queue {
    fn push(&self, slot: Arc<Slot>) {
        lock(&self.waiting).push(slot);
    }

    fn take(&self) -> Vec<Arc<Slot>> {
        let mut waiting = lock(&self.waiting);
        let count = waiting.len().min(LARGEST_GROUP);
        waiting.drain(..count).collect()
    }

    /// Leads queued now (for tests that line up a group).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        lock(&self.waiting).len()
    }

    /// Takes `slot` out of the queue: its caller is answered without it being written.
    fn withdraw(&self, slot: &Arc<Slot>) {
        lock(&self.waiting).retain(|queued| !Arc::ptr_eq(queued, slot));
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Stores `lead` with `also` as part of the next group and returns once it is committed (see the module's notes).
pub fn insert(pool: &DbPool, lead: &Lead, also: Also) -> Result<Stored, StoreError> {
    let slot = Arc::new(Slot {
        job: Mutex::new(Some((lead.clone(), also))),
        outcome: Mutex::new(None),
    });
    let queue = pool.group_queue();
    queue.push(slot.clone());
    loop {
        let _writer = super::writer();
        if let Some(outcome) = lock(&slot.outcome).take() {
            return outcome;
        }
        // Still queued: this caller leads the next group (which takes its own lead first or among the first).
        lead_group(pool, queue, &slot)?;
        if let Some(outcome) = lock(&slot.outcome).take() {
            return outcome;
        }
        // A group of LARGEST_GROUP earlier leads did not reach this one: lead the next.
    }
}

/// Writes the queued leads in one transaction (the caller holds the writer's turn) and leaves each its outcome.
/// When the group cannot begin (no connection, the file gone), the leader's lead leaves the queue and the reason is
/// its own; the others stay queued, untouched, and each meets the failure (or its end) at its own turn.
fn lead_group(pool: &DbPool, queue: &Queue, own: &Arc<Slot>) -> Result<(), StoreError> {
    let not_begun = |error: StoreError| {
        queue.withdraw(own);
        error
    };
    let mut connection = match pool.get() {
        Ok(connection) => connection,
        Err(error) => return Err(not_begun(error)),
    };
    let transaction =
        match connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
            Ok(transaction) => transaction,
            Err(error) => return Err(not_begun(error.into())),
        };
    // Nothing is written into a file that is no longer in place (dropping the transaction rolls it back).
    if let Err(error) = pool.check_file() {
        return Err(not_begun(error));
    }
    let slots = queue.take();
    let mut outcomes: Vec<Option<Result<Stored, StoreError>>> = Vec::with_capacity(slots.len());
    for slot in &slots {
        let job = lock(&slot.job).take();
        outcomes.push(job.map(|(lead, also)| insert_alone(&transaction, &lead, also)));
    }
    let committed = transaction
        .commit()
        .map_err(StoreError::from)
        .and_then(|()| {
            // The file may have gone between the check and the commit: then the leads are in a file nobody will open
            // again, and are not acknowledged.
            pool.check_file()
        });
    for (slot, outcome) in slots.iter().zip(outcomes) {
        let Some(outcome) = outcome else { continue };
        let outcome = match (&committed, outcome) {
            (Ok(()), outcome) => outcome,
            // A lead that failed on its own keeps its own reason; the others share the commit's.
            (Err(_), Err(own)) => Err(own),
            (Err(error), Ok(_)) => Err(replicate(error)),
        };
        *lock(&slot.outcome) = Some(outcome);
    }
    Ok(())
}

/// One lead in the group's transaction, inside a savepoint so that its failure leaves the others' rows alone:
/// found by its submission id if stored before (even earlier in this group), or inserted with what follows from it.
fn insert_alone(
    transaction: &Transaction<'_>,
    lead: &Lead,
    also: Also,
) -> Result<Stored, StoreError> {
    transaction.execute_batch("SAVEPOINT lead")?;
    let result = (|| -> rusqlite::Result<Stored> {
        if let Some(submission) = &lead.submission_id {
            let earlier: Option<i64> = transaction
                .prepare_cached("SELECT id FROM leads WHERE source = ?1 AND submission_id = ?2")?
                .query_row(params![lead.source, submission], |row| row.get(0))
                .optional()?;
            if let Some(id) = earlier {
                return Ok(Stored::Repeat(id));
            }
        }
        transaction
            .prepare_cached(super::insert_sql())?
            .execute(lead.values().as_slice())?;
        let id = transaction.last_insert_rowid();
        also(transaction, id)?;
        Ok(Stored::New(id))
    })();
    match result {
        Ok(stored) => {
            transaction.execute_batch("RELEASE lead")?;
            Ok(stored)
        }
        Err(error) => {
            transaction.execute_batch("ROLLBACK TO lead; RELEASE lead")?;
            Err(error.into())
        }
    }
}

/// The group's failure, for each of its leads: the same kind (so that each caller answers alike: busy, disk full,
/// file gone), with the same words.
fn replicate(error: &StoreError) -> StoreError {
    match error {
        StoreError::Gone { reason, detail } => StoreError::Gone {
            reason,
            detail: detail.clone(),
        },
        StoreError::Sqlite(rusqlite::Error::SqliteFailure(code, message)) => {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(*code, message.clone()))
        }
        other => StoreError::Sqlite(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
            Some(other.to_string()),
        )),
    }
}
