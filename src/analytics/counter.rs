//! The collector's thread: turns the buffered requests into visit rows (programs and robots.txt readers left out,
//! the device, the referrer's host, the campaign tags, the visitor key from the day's salt) and writes them in one
//! transaction every write interval and at the stop, folding old days into daily totals once a day.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use time::Date;

use super::classify::{self, Device, Tags};
use super::collector::{Kind, Pending, lock};
use super::store::{self, Visit};
use crate::leads::store::DbPool;

/// Rows kept in memory while the database refuses them (busy, full, gone); beyond, new rows are dropped and counted.
const MAX_ROWS: usize = 200_000;

/// One buffered record, borrowed from the buffer.
#[derive(Clone, Copy)]
struct Record<'a> {
    /// The record's bytes after its kind: the same bytes are the same view, worked out once per batch.
    raw: &'a [u8],
    kind: Kind,
    day: i32,
    ip: [u8; 16],
    user_agent: &'a [u8],
    host: &'a [u8],
    path: &'a [u8],
    query: &'a [u8],
    referrer: &'a [u8],
}

/// The next record of `bytes`, advancing past it.
fn next_record<'a>(bytes: &mut &'a [u8]) -> Option<Record<'a>> {
    fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (taken, rest) = bytes.split_at_checked(n)?;
        *bytes = rest;
        Some(taken)
    }
    fn field<'a>(bytes: &mut &'a [u8]) -> Option<&'a [u8]> {
        let length = u16::from_le_bytes(take(bytes, 2)?.try_into().ok()?);
        take(bytes, usize::from(length))
    }
    let kind = match take(bytes, 1)?[0] {
        0 => Kind::View,
        _ => Kind::Robots,
    };
    let start = *bytes;
    let day = i32::from_le_bytes(take(bytes, 4)?.try_into().ok()?);
    let ip = take(bytes, 16)?.try_into().ok()?;
    let (user_agent, host, path) = (field(bytes)?, field(bytes)?, field(bytes)?);
    let (query, referrer) = (field(bytes)?, field(bytes)?);
    Some(Record {
        raw: &start[..start.len() - bytes.len()],
        kind,
        day,
        ip,
        user_agent,
        host,
        path,
        query,
        referrer,
    })
}

/// The collector's thread and everything only it touches.
pub(super) struct Counter {
    pool: DbPool,
    own_hosts: Vec<String>,
    pending: Arc<Pending>,
    stopping: Arc<AtomicBool>,
    /// The batch of last time, emptied, so batches reuse one allocation.
    spare: Vec<u8>,
    /// The salts of today and yesterday (views from just before midnight may still be buffered).
    salts: Vec<(i32, [u8; 32])>,
    /// Visitors (day, key) that asked for /robots.txt.
    crawlers: HashSet<(i32, i64)>,
    /// User agents seen lately: `None` for a program's, else the device (the checks run once per agent).
    agents: HashMap<String, Option<Device>>,
    rows: HashMap<Visit, u64>,
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
    ) -> Counter {
        Counter {
            pool,
            own_hosts,
            pending,
            stopping,
            spare: Vec::new(),
            salts: Vec::new(),
            crawlers: HashSet::new(),
            agents: HashMap::new(),
            rows: HashMap::new(),
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
            self.fold_pending();
            let stopping = closed || self.stopping.load(Ordering::SeqCst);
            if stopping || Instant::now() >= next_write {
                self.write();
                next_write = Instant::now() + interval;
            }
            if stopping {
                return;
            }
        }
    }

    /// Turns the buffered records into rows.
    fn fold_pending(&mut self) {
        let mut batch = std::mem::take(&mut self.spare);
        let buffers: Vec<_> = lock(&self.pending.buffers).clone();
        for buffer in buffers {
            // Each thread's buffer keeps its memory for the next batch; the copy is about 200 bytes a view.
            let mut bytes = lock(&buffer);
            batch.extend_from_slice(&bytes);
            bytes.clear();
        }
        // Crawlers first: one that asked for robots.txt anywhere in the batch is left out of all of it.
        let mut rest = &batch[..];
        while let Some(record) = next_record(&mut rest) {
            if record.kind == Kind::Robots {
                let visitor = self.visitor(record.day, &record.ip, record.user_agent);
                self.crawlers.insert((record.day, visitor));
            }
        }
        // Under load most views repeat one noted a moment before (the same visitor, page and way in, byte for
        // byte): each distinct record is classified and hashed once per batch.
        let mut views: HashMap<&[u8], (Record<'_>, u64)> = HashMap::new();
        let mut rest = &batch[..];
        while let Some(record) = next_record(&mut rest) {
            if record.kind == Kind::View {
                views.entry(record.raw).or_insert((record, 0)).1 += 1;
            }
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
        if self.crawlers.contains(&(record.day, visitor)) {
            return;
        }
        let referrer = classify::host_of(&String::from_utf8_lossy(record.referrer));
        let host = classify::host_of_authority(&String::from_utf8_lossy(record.host));
        let internal = referrer.as_ref().is_some_and(|referrer| {
            Some(referrer) == host.as_ref() || self.own_hosts.contains(referrer)
        });
        let tags = Tags::from_query(&String::from_utf8_lossy(record.query));
        let visit = Visit {
            day,
            visitor,
            path: classify::clean_path(&String::from_utf8_lossy(record.path)),
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
        if self.rows.len() >= MAX_ROWS && !self.rows.contains_key(&visit) {
            self.rows_dropped += times;
            return;
        }
        *self.rows.entry(visit).or_insert(0) += times;
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

    /// The day's salt, made on first use; salts (and crawlers) of days before yesterday are forgotten then.
    fn salt(&mut self, day: i32) -> [u8; 32] {
        if let Some((_, salt)) = self.salts.iter().find(|(known, _)| *known == day) {
            return *salt;
        }
        let salt = random_salt();
        self.salts.retain(|(known, _)| *known >= day - 1);
        self.crawlers.retain(|(known, _)| *known >= day - 1);
        self.salts.push((day, salt));
        salt
    }

    /// Writes the rows gathered; on failure keeps them for the next try. Folds old days once a day, with a batch
    /// (a server nobody visits leaves the file alone).
    fn write(&mut self) {
        if self.rows.is_empty() {
            return;
        }
        let today = crate::clock::today();
        let fold = (self.folded_on != Some(today)).then(|| store::fold_before(today));
        match store::save(&self.pool, &self.rows, fold) {
            Ok(()) => {
                self.rows.clear();
                if fold.is_some() {
                    self.folded_on = Some(today);
                }
            }
            Err(error) => {
                rocket::error!("visit counts not written, kept in memory to try again: {error}")
            }
        }
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
