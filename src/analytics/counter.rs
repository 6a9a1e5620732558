//! The collector's thread: turns the buffered requests into visit rows (programs and robots.txt readers left out,
//! the device, the referrer's host, the campaign tags, the visitor key from the day's salt) and writes them in one
//! transaction every write interval and at the stop (tried a few times then), folding old days into daily totals
//! once a day. At each wake it forgets the salts (and the day's crawlers and caps) of the days before yesterday.
//!
//! A flood (random addresses, referrers or campaign tags) cannot grow memory or the database without bound: see
//! [`Caps`]. What is over a cap is still counted, as `(other)`, or dropped and counted in the log.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use time::Date;

pub(super) use super::caps::Caps;
use super::caps::row_bytes;
use super::classify::{self, Device, Tags};
use super::collector::{Kind, Pending, lock};
use super::record::{Record, next_record};
use super::store::{self, Visit};
use crate::store::DbPool;

/// Rows kept in memory while the database refuses them (busy, full, gone); beyond, new rows are dropped and counted.
const MAX_ROWS: usize = 200_000;
/// What a value over its day's cap is counted as.
pub(super) const OTHER: &str = "(other)";
/// Tries of the last write at the server's stop, with a short pause (doubling from [`FINAL_PAUSE`]) between.
const FINAL_TRIES: u32 = 4;
const FINAL_PAUSE: Duration = Duration::from_millis(100);

/// The distinct values seen on one day: referrer hosts, then utm_source, utm_medium, utm_campaign.
type DayValues = [HashSet<String>; 4];

/// The collector's thread and everything only it touches.
pub(super) struct Counter {
    pool: DbPool,
    own_hosts: Vec<String>,
    pending: Arc<Pending>,
    stopping: Arc<AtomicBool>,
    /// The batch of last time, emptied, so batches reuse one allocation.
    spare: Vec<u8>,
    caps: Caps,
    /// The salts of today and yesterday (views from just before midnight may still be buffered).
    salts: Vec<(i32, [u8; 32])>,
    /// Per day, the visitor keys that asked for /robots.txt.
    crawlers: HashMap<i32, HashSet<i64>>,
    /// Per day, a hash of each distinct row counted (for [`Caps::rows_per_day`]).
    day_rows: HashMap<i32, HashSet<u64>>,
    /// Per day, the distinct referrers and tags counted (for [`Caps::values_per_day`]).
    day_values: HashMap<i32, DayValues>,
    /// User agents seen lately: `None` for a program's, else the device (the checks run once per agent).
    agents: HashMap<String, Option<Device>>,
    rows: HashMap<Visit, u64>,
    /// About the memory of `rows`.
    row_bytes: usize,
    rows_dropped: u64,
    /// The day the old rows were last folded into daily totals.
    folded_on: Option<Date>,
}

impl Counter {
    pub(super) fn new(
        pool: DbPool,
        own_hosts: Vec<String>,
        pending: Arc<Pending>,
        stopping: Arc<AtomicBool>,
        caps: Caps,
    ) -> Counter {
        Counter {
            pool,
            own_hosts,
            pending,
            stopping,
            spare: Vec::new(),
            caps,
            salts: Vec::new(),
            crawlers: HashMap::new(),
            day_rows: HashMap::new(),
            day_values: HashMap::new(),
            agents: HashMap::new(),
            rows: HashMap::new(),
            row_bytes: 0,
            rows_dropped: 0,
            folded_on: None,
        }
    }

    pub(super) fn run(&mut self, woken: &Receiver<()>, interval: Duration) {
        let mut next_write = Instant::now() + interval;
        loop {
            let wait = next_write.saturating_duration_since(Instant::now());
            let closed = matches!(
                woken.recv_timeout(wait),
                Err(RecvTimeoutError::Disconnected)
            );
            // Every wake, traffic or not: a day's salt is gone once the day after it has ended.
            self.forget_before(crate::clock::today());
            self.fold_pending();
            let stopping = closed || self.stopping.load(Ordering::SeqCst);
            if stopping {
                // The last chance: a database busy for a moment must not lose the last seconds of views.
                for attempt in 0..FINAL_TRIES {
                    if attempt > 0 {
                        std::thread::sleep(FINAL_PAUSE * 2u32.pow(attempt - 1));
                    }
                    if self.write() {
                        return;
                    }
                }
                rocket::error!(
                    "visit counts: {} rows could not be written at the stop and are lost",
                    self.rows.len()
                );
                return;
            }
            if Instant::now() >= next_write {
                self.write();
                next_write = Instant::now() + interval;
            }
        }
    }

    /// Forgets the salts, crawlers and per-day caps of the days before yesterday (`today` minus one).
    pub(super) fn forget_before(&mut self, today: Date) {
        let yesterday = today.to_julian_day() - 1;
        self.salts.retain(|(day, _)| *day >= yesterday);
        self.crawlers.retain(|day, _| *day >= yesterday);
        self.day_rows.retain(|day, _| *day >= yesterday);
        self.day_values.retain(|day, _| *day >= yesterday);
    }

    /// Turns the buffered records into rows.
    fn fold_pending(&mut self) {
        let mut batch = std::mem::take(&mut self.spare);
        let buffers: Vec<_> = lock(&self.pending.buffers).clone();
        for buffer in buffers {
            // Each thread's buffer keeps its memory for the next batch; the copy is about 200 bytes a view.
            let mut log = lock(&buffer);
            batch.extend_from_slice(&log.bytes);
            log.clear();
        }
        // Crawlers first: one that asked for robots.txt anywhere in the batch is left out of all of it.
        self.pending.bytes.store(0, Ordering::Relaxed);
        let mut rest = &batch[..];
        while let Some(record) = next_record(&mut rest) {
            if record.kind == Kind::Robots {
                let visitor = self.visitor(record.day, &record.ip, record.user_agent);
                let crawlers = self.crawlers.entry(record.day).or_default();
                if crawlers.len() < self.caps.crawlers_per_day {
                    crawlers.insert(visitor);
                }
            }
        }
        // Under load most views repeat one noted a moment before (the same visitor, page and way in, byte for
        // byte): each distinct record is classified and hashed once per batch. A run of equal records (a thread's
        // buffer under one client's load) is told by comparing bytes with the previous one, and only each run
        // is hashed.
        let mut views: HashMap<&[u8], (Record<'_>, u64)> = HashMap::new();
        let mut run: Option<(Record<'_>, u64)> = None;
        let mut rest = &batch[..];
        while let Some(record) = next_record(&mut rest) {
            if record.kind != Kind::View {
                continue;
            }
            match &mut run {
                Some((last, times)) if last.raw == record.raw => *times += record.times,
                _ => {
                    if let Some((last, times)) = run.replace((record, record.times)) {
                        views.entry(last.raw).or_insert((last, 0)).1 += times;
                    }
                }
            }
        }
        if let Some((last, times)) = run {
            views.entry(last.raw).or_insert((last, 0)).1 += times;
        }
        for (record, times) in views.into_values() {
            self.count(&record, times);
        }
        batch.clear();
        self.spare = batch;
        let dropped = self.pending.dropped.swap(0, Ordering::Relaxed)
            + std::mem::take(&mut self.rows_dropped);
        if dropped > 0 {
            rocket::warn!(
                "visit counts: {dropped} page views were not counted (the counter could not keep up)"
            );
        }
    }

    /// Counts `times` views of what `record` says.
    fn count(&mut self, record: &Record<'_>, times: u64) {
        let user_agent = String::from_utf8_lossy(record.user_agent);
        let device = match self.agents.get(user_agent.as_ref()) {
            Some(device) => *device,
            None => {
                let device =
                    (!classify::is_program(&user_agent)).then(|| classify::device(&user_agent));
                if self.agents.len() >= 10_000 {
                    self.agents.clear();
                }
                self.agents.insert(user_agent.into_owned(), device);
                device
            }
        };
        let (Some(device), Ok(day)) = (device, Date::from_julian_day(record.day)) else {
            return;
        };
        let visitor = self.visitor(record.day, &record.ip, record.user_agent);
        if self
            .crawlers
            .get(&record.day)
            .is_some_and(|crawlers| crawlers.contains(&visitor))
        {
            return;
        }
        let referrer = classify::host_of(&String::from_utf8_lossy(record.referrer));
        let host = classify::host_of_authority(&String::from_utf8_lossy(record.host));
        let internal = referrer.as_ref().is_some_and(|referrer| {
            Some(referrer) == host.as_ref() || self.own_hosts.contains(referrer)
        });
        let tags = Tags::from_query(&String::from_utf8_lossy(record.query));
        let mut visit = Visit {
            day,
            visitor,
            path: classify::clean_path(&crate::site::Served::page_path(&String::from_utf8_lossy(
                record.path,
            ))),
            referrer: if internal {
                String::new()
            } else {
                referrer.unwrap_or_default()
            },
            utm_source: tags.source,
            utm_medium: tags.medium,
            utm_campaign: tags.campaign,
            device,
            entry: !internal,
        };
        self.cap(record.day, &mut visit);
        match self.rows.get_mut(&visit) {
            Some(views) => *views += times,
            None => {
                let bytes = row_bytes(&visit);
                if self.rows.len() >= MAX_ROWS || self.row_bytes + bytes > self.caps.row_bytes {
                    self.rows_dropped += times;
                    return;
                }
                self.row_bytes += bytes;
                self.rows.insert(visit, times);
            }
        }
    }

    /// Applies the day's caps to `visit`: a referrer or tag beyond the day's distinct values is `(other)`; a row
    /// beyond the day's distinct rows is folded into the overflow row of its device and way in.
    fn cap(&mut self, day: i32, visit: &mut Visit) {
        let most = self.caps.values_per_day;
        let seen = self.day_values.entry(day).or_default();
        for (seen, value) in seen.iter_mut().zip([
            &mut visit.referrer,
            &mut visit.utm_source,
            &mut visit.utm_medium,
            &mut visit.utm_campaign,
        ]) {
            if value.is_empty() || seen.contains(value.as_str()) {
                continue;
            }
            if seen.len() < most {
                seen.insert(value.clone());
            } else {
                *value = OTHER.to_string();
            }
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        visit.hash(&mut hasher);
        let key = hasher.finish();
        let rows = self.day_rows.entry(day).or_default();
        if rows.contains(&key) {
            return;
        }
        if rows.len() < self.caps.rows_per_day {
            rows.insert(key);
            return;
        }
        let other = |value: &mut String| {
            if !value.is_empty() {
                *value = OTHER.to_string();
            }
        };
        visit.visitor = 0;
        visit.path = OTHER.to_string();
        other(&mut visit.referrer);
        other(&mut visit.utm_source);
        other(&mut visit.utm_medium);
        other(&mut visit.utm_campaign);
    }

    /// The visitor key of an address and user agent on a day.
    fn visitor(&mut self, day: i32, ip: &[u8; 16], user_agent: &[u8]) -> i64 {
        let salt = self.salt(day);
        let digest = Sha256::new()
            .chain_update(salt)
            .chain_update(ip)
            .chain_update(user_agent)
            .finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        i64::from_le_bytes(first)
    }

    #[cfg(test)]
    pub(super) fn salt_for_test(&mut self, day: i32) {
        self.salt(day);
    }

    #[cfg(test)]
    pub(super) fn salt_days(&self) -> Vec<i32> {
        self.salts.iter().map(|(day, _)| *day).collect()
    }

    /// The day's salt, made on first use; those of the days before yesterday are forgotten at every wake (see
    /// [`Counter::forget_before`]).
    fn salt(&mut self, day: i32) -> [u8; 32] {
        if let Some((_, salt)) = self.salts.iter().find(|(known, _)| *known == day) {
            return *salt;
        }
        let salt = random_salt();
        self.salts.push((day, salt));
        salt
    }

    /// Writes the rows gathered; on failure keeps them for the next try (unless the transaction was committed and
    /// only the check of the file after it failed: those rows are in the database, and adding them again would
    /// count them twice). Folds old days once a day, with a batch (a server nobody visits leaves the file alone).
    /// True when nothing is left to write.
    fn write(&mut self) -> bool {
        if self.rows.is_empty() {
            return true;
        }
        let today = crate::clock::today();
        let fold = (self.folded_on != Some(today)).then(|| store::fold_before(today));
        let result = store::save(&self.pool, &self.rows, fold);
        let done = match &result {
            Ok(late) => {
                if *late > 0 {
                    rocket::warn!(
                        "visit counts: {late} page views of days already folded into daily totals were not added"
                    );
                }
                true
            }
            Err(error) if error.committed => {
                rocket::error!(
                    "visit counts written, but the database file check after it failed (not written again): {}",
                    error.error
                );
                true
            }
            Err(error) => {
                rocket::error!(
                    "visit counts not written, kept in memory to try again: {}",
                    error.error
                );
                false
            }
        };
        if done {
            self.rows.clear();
            self.row_bytes = 0;
            if fold.is_some() {
                self.folded_on = Some(today);
            }
        }
        done
    }
}

/// 32 bytes from the operating system's random source.
fn random_salt() -> [u8; 32] {
    let mut salt = [0u8; 32];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut file| file.read_exact(&mut salt));
    if read.is_err() {
        // Not expected on Linux. std's hasher keys come from the operating system's random source too.
        use std::hash::{BuildHasher, Hasher};
        for (i, chunk) in salt.chunks_mut(8).enumerate() {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_usize(i);
            chunk.copy_from_slice(&hasher.finish().to_le_bytes());
        }
    }
    salt
}
