//! Counting without slowing the answers. The server hands each request it answered itself to
//! [`Collector::answered`], which for a page view only copies a few header values into a buffer under a short lock
//! (no hashing, no allocation of its own, never a write to disk). A thread of the collector's own turns the buffer
//! into visit rows (programs left out, the device, the referrer's host, the campaign tags, the visitor key) and
//! writes them in one transaction every [`WRITE_INTERVAL`] and when the server stops; once a day it also folds the
//! rows older than 90 days into daily totals.
//!
//! The visitor key is 64 bits of SHA-256(day's salt, IP address, user agent). The salt is 32 random bytes made when
//! the first view of a day is counted, kept only in that thread's memory, never written anywhere and forgotten the
//! day after: one person is one visitor per day, and nobody (the owner included) can link two days' visitors or get
//! back from a key to an address.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use hyper::header::{
    ACCEPT_LANGUAGE, CONTENT_TYPE, HOST, HeaderMap, HeaderName, HeaderValue, REFERER, USER_AGENT,
};
use hyper::{Method, Uri};
use sha2::{Digest, Sha256};
use time::Date;

use super::classify::{self, Device, Tags};
use super::store::{self, Visit};
use crate::client_ip::ClientIp;
use crate::leads::store::DbPool;

/// How often gathered views are written (and at most how many seconds of them a crash loses).
pub const WRITE_INTERVAL: Duration = Duration::from_secs(10);
/// Beyond this many buffered bytes (about 5,000 views) the thread is woken to turn them into rows early.
const FOLD_BYTES: usize = 1 << 20;
/// Beyond this many (the thread is not keeping up), views are dropped and counted: counting never slows serving.
const MAX_BYTES: usize = 16 << 20;
/// The longest header value copied, in bytes; more is cut.
const MAX_FIELD: usize = 512;
/// Rows kept in memory while the database refuses them (busy, full, gone); beyond, new rows are dropped and counted.
const MAX_ROWS: usize = 200_000;
/// Request headers of prefetches and previews: a page fetched in case it is opened is not a page seen.
const PREFETCH_HEADERS: [&str; 4] = ["sec-purpose", "purpose", "x-purpose", "x-moz"];

/// A lock that a panic elsewhere did not make unusable: counting must keep going.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a buffered request was.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// A page answered 200 with HTML to what looks like a browser.
    View = 0,
    /// A GET of /robots.txt: only crawlers ask for it, so the same visitor's views that day are not counted.
    Robots = 1,
}

/// The page views of the running server, on their way to the database.
pub struct Collector {
    pending: Arc<Pending>,
    trusted_proxies: Vec<IpAddr>,
    wake: SyncSender<()>,
    stopping: Arc<AtomicBool>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

/// Requests noted and not yet turned into rows, as records of bytes (see [`Collector::note`]).
#[derive(Default)]
struct Pending {
    bytes: Mutex<Vec<u8>>,
    dropped: AtomicU64,
}

impl Collector {
    /// A collector writing into `pool`, with its thread. `own_hosts` are this site's public host names (a referrer
    /// naming one is a click within the site); the `Host` of each request counts as one too.
    pub fn start(
        pool: DbPool,
        trusted_proxies: Vec<IpAddr>,
        own_hosts: Vec<String>,
    ) -> std::io::Result<Collector> {
        Collector::with_interval(pool, trusted_proxies, own_hosts, WRITE_INTERVAL)
    }

    pub(super) fn with_interval(
        pool: DbPool,
        trusted_proxies: Vec<IpAddr>,
        own_hosts: Vec<String>,
        interval: Duration,
    ) -> std::io::Result<Collector> {
        let pending = Arc::new(Pending::default());
        let stopping = Arc::new(AtomicBool::new(false));
        // One wake-up waiting is enough: the thread takes everything buffered when it runs.
        let (wake, woken) = sync_channel::<()>(1);
        let mut counter = Counter {
            pool,
            own_hosts,
            pending: pending.clone(),
            stopping: stopping.clone(),
            spare: Vec::new(),
            salts: Vec::new(),
            crawlers: HashSet::new(),
            agents: HashMap::new(),
            rows: HashMap::new(),
            rows_dropped: 0,
            folded_on: None,
        };
        let thread = std::thread::Builder::new()
            .name("visit-counts".into())
            .spawn(move || counter.run(&woken, interval))?;
        Ok(Collector {
            pending,
            trusted_proxies,
            wake,
            stopping,
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Called for every request the server answered itself (GET and HEAD of the site's files). Notes a GET answered
    /// 200 with an HTML page to what looks like a person's browser opening it, and a GET of /robots.txt; nothing
    /// else. `peer` is the socket's address (the client's comes from `X-Forwarded-For` of a trusted proxy).
    pub fn answered(
        &self,
        method: &Method,
        uri: &Uri,
        headers: &HeaderMap,
        peer: IpAddr,
        status: u16,
        answer_headers: &[(HeaderName, HeaderValue)],
    ) {
        if method != Method::GET {
            return;
        }
        let kind = if status == 200 && is_html(answer_headers) {
            if !is_navigation(headers) {
                return;
            }
            Kind::View
        } else if uri.path() == "/robots.txt" {
            Kind::Robots
        } else {
            return;
        };
        let ip = ClientIp::resolve(
            Some(peer),
            &self.trusted_proxies,
            headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|value| value.to_str().ok()),
        );
        self.note(kind, crate::clock::today(), ip, headers, uri);
    }

    /// Appends one record: kind, day, IP address (16 bytes), then user agent, host, path, query and referrer, each
    /// as a 2-byte length and at most [`MAX_FIELD`] bytes.
    fn note(&self, kind: Kind, day: Date, ip: IpAddr, headers: &HeaderMap, uri: &Uri) {
        let header = |name: HeaderName| headers.get(name).map_or(&b""[..], HeaderValue::as_bytes);
        let ip = match ip {
            IpAddr::V4(v4) => v4.to_ipv6_mapped().octets(),
            IpAddr::V6(v6) => v6.octets(),
        };
        let waiting = {
            let mut bytes = lock(&self.pending.bytes);
            if bytes.len() >= MAX_BYTES {
                drop(bytes);
                self.pending.dropped.fetch_add(1, Ordering::Relaxed);
                return;
            }
            bytes.push(kind as u8);
            bytes.extend_from_slice(&day.to_julian_day().to_le_bytes());
            bytes.extend_from_slice(&ip);
            for field in [
                header(USER_AGENT),
                header(HOST),
                uri.path().as_bytes(),
                uri.query().unwrap_or("").as_bytes(),
                header(REFERER),
            ] {
                let field = &field[..field.len().min(MAX_FIELD)];
                bytes.extend_from_slice(&(field.len() as u16).to_le_bytes());
                bytes.extend_from_slice(field);
            }
            bytes.len()
        };
        if waiting >= FOLD_BYTES {
            // Full means a wake-up is already waiting.
            let _ = self.wake.try_send(());
        }
    }

    /// Writes everything noted so far and stops the thread (the server's graceful stop); later views are not
    /// counted. Waits for the write.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        let _ = self.wake.try_send(());
        if let Some(thread) = lock(&self.thread).take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Collector {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Whether the answer is an HTML page.
fn is_html(answer_headers: &[(HeaderName, HeaderValue)]) -> bool {
    answer_headers
        .iter()
        .any(|(name, value)| *name == CONTENT_TYPE && value.as_bytes().starts_with(b"text/html"))
}

/// Whether the request looks like a person's browser opening the page: a user agent that begins like every
/// browser's, a language preference (browsers always send one; scripts and most monitors none), and no sign of a
/// prefetch or a preview. The full list of programs is checked later, off the request's path.
fn is_navigation(headers: &HeaderMap) -> bool {
    headers
        .get(USER_AGENT)
        .is_some_and(|agent| agent.as_bytes().starts_with(b"Mozilla/"))
        && headers.contains_key(ACCEPT_LANGUAGE)
        && !PREFETCH_HEADERS
            .iter()
            .any(|name| headers.contains_key(*name))
}

/// One buffered record, borrowed from the buffer.
struct Record<'a> {
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
    let day = i32::from_le_bytes(take(bytes, 4)?.try_into().ok()?);
    let ip = take(bytes, 16)?.try_into().ok()?;
    Some(Record {
        kind,
        day,
        ip,
        user_agent: field(bytes)?,
        host: field(bytes)?,
        path: field(bytes)?,
        query: field(bytes)?,
        referrer: field(bytes)?,
    })
}

/// The collector's thread and everything only it touches.
struct Counter {
    pool: DbPool,
    own_hosts: Vec<String>,
    pending: Arc<Pending>,
    stopping: Arc<AtomicBool>,
    /// The buffer taken last time, emptied, swapped back in so batches reuse two allocations.
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
    fn run(&mut self, woken: &Receiver<()>, interval: Duration) {
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
        std::mem::swap(&mut *lock(&self.pending.bytes), &mut batch);
        // Crawlers first: one that asked for robots.txt anywhere in the batch is left out of all of it.
        let mut rest = &batch[..];
        while let Some(record) = next_record(&mut rest) {
            if record.kind == Kind::Robots {
                let visitor = self.visitor(record.day, &record.ip, record.user_agent);
                self.crawlers.insert((record.day, visitor));
            }
        }
        let mut rest = &batch[..];
        while let Some(record) = next_record(&mut rest) {
            if record.kind == Kind::View {
                self.count(&record);
            }
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

    fn count(&mut self, record: &Record<'_>) {
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
            self.rows_dropped += 1;
            return;
        }
        *self.rows.entry(visit).or_insert(0) += 1;
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
