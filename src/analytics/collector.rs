//! Counting without slowing the answers. The server hands each request it answered itself to
//! [`Collector::answered`], which for a page view only copies a few header values into the calling worker thread's
//! own buffer (no hashing, no allocation once the buffer has grown, no lock another worker waits on, never a write to
//! disk). The collector's thread ([`super::counter`]) empties the buffers, turns them into visit rows (programs left
//! out, the device, the referrer's host, the campaign tags, the visitor key) and writes them in one transaction every
//! [`WRITE_INTERVAL`] and when the server stops; once a day it also folds the rows older than 90 days into daily
//! totals.
//!
//! The visitor key is 64 bits of SHA-256(day's salt, IP address, user agent). The salt is 32 random bytes made when
//! the first view of a day is counted, kept only in that thread's memory, never written anywhere and forgotten at
//! the thread's first wake (every [`WRITE_INTERVAL`], traffic or not) after the following day ends (it is kept that
//! long only for views noted just before midnight): one person is one visitor per day, and nobody (the owner
//! included) can link two days' visitors or get back from a key to an address.

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use hyper::header::{
    ACCEPT_LANGUAGE, HOST, HeaderMap, HeaderName, HeaderValue, REFERER, USER_AGENT,
};
use hyper::{Method, Uri};
use time::Date;

use super::counter::{Caps, Counter};
use super::record::{COUNT, DAY};
use crate::client_ip::ClientIp;
use crate::site::Served;
use crate::store::DbPool;

/// How often gathered views are written (and at most how many seconds of them a crash loses).
pub const WRITE_INTERVAL: Duration = Duration::from_secs(10);
/// Beyond this many bytes in one buffer (about 5,000 views) the thread is woken to turn them into rows early.
const FOLD_BYTES: usize = 1 << 20;
/// Beyond this many in one buffer (the thread is not keeping up), views are dropped and counted: counting never
/// slows serving.
const MAX_BYTES: usize = 8 << 20;
/// Beyond about this many in all buffers together, views are dropped and counted too (see [`Caps`]).
pub(super) const MAX_PENDING_BYTES: usize = 32 << 20;
/// Each buffer adds to the shared total in steps of this many bytes (so the total is written rarely; it is off by
/// less than one step per buffer).
pub(super) const CHUNK: usize = 64 << 10;
/// The longest header value copied, in bytes; more is cut.
const MAX_FIELD: usize = 512;
/// Request headers of prefetches and previews: a page fetched in case it is opened is not a page seen.
const PREFETCH_HEADERS: [HeaderName; 4] = [
    HeaderName::from_static("sec-purpose"),
    HeaderName::from_static("purpose"),
    HeaderName::from_static("x-purpose"),
    HeaderName::from_static("x-moz"),
];
const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// A lock that a panic elsewhere did not make unusable: counting must keep going.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a buffered request was.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    /// A page answered 200 with HTML to what looks like a browser.
    View = 0,
    /// A GET of /robots.txt: only crawlers ask for it, so the same visitor's views that day are not counted.
    Robots = 1,
}

/// The page views of the running server, on their way to the database.
pub struct Collector {
    /// Tells this collector's buffers from another's in a thread's list (tests run several in one process).
    id: usize,
    pub(super) pending: Arc<Pending>,
    trusted_proxies: Vec<IpAddr>,
    wake: SyncSender<()>,
    stopping: Arc<AtomicBool>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

/// Requests noted and not yet turned into rows, as records of bytes (see [`Collector::note`]): one buffer per thread
/// that notes them (the server's workers), so that they neither take turns on one lock nor write into the same
/// memory; the collector's thread empties them all.
pub(super) struct Pending {
    pub(super) buffers: Mutex<Vec<Buffer>>,
    pub(super) dropped: AtomicU64,
    /// The bytes in all buffers, in steps of [`CHUNK`] (reset when the thread empties them).
    pub(super) bytes: AtomicUsize,
    /// Beyond this in [`Pending::bytes`], views are dropped and counted.
    pub(super) limit: usize,
}

impl Default for Pending {
    fn default() -> Pending {
        Pending {
            buffers: Mutex::default(),
            dropped: AtomicU64::new(0),
            bytes: AtomicUsize::new(0),
            limit: MAX_PENDING_BYTES,
        }
    }
}

pub(super) type Buffer = Arc<Mutex<ViewLog>>;

/// One thread's noted views: records of bytes (`record.rs`), and where a few recent distinct ones start. A view equal
/// to one of those (the same visitor, page and way in, again: a reload, a visitor going back and forth between
/// pages, a client hammering the site) adds one to that record's count instead of another 200 bytes, so a burst keeps
/// writing the same cache lines rather than streaming through memory, and the counter's thread has little to read.
#[derive(Default)]
pub(super) struct ViewLog {
    pub(super) bytes: Vec<u8>,
    recent: RecentRecords,
}

/// Slots of recent records, chosen by a hash of the record: (start, length) of the last record that fell in each.
/// Two records in one slot only mean the earlier is no longer folded into; equality is always checked byte for byte.
struct RecentRecords([Option<(usize, usize)>; RECENT_SLOTS]);

impl Default for RecentRecords {
    fn default() -> RecentRecords {
        RecentRecords([None; RECENT_SLOTS])
    }
}

/// How many recent records a thread folds repeats into: room for a handful of visitors' pages at once. A power of
/// two, and more than one: the slot is the hash's top bits (a shift by all 64 would not be defined).
const RECENT_SLOTS: usize = 64;
const _: () = assert!(RECENT_SLOTS.is_power_of_two() && RECENT_SLOTS > 1);

impl RecentRecords {
    /// The slot of the record whose bytes after its day are `tail`: a multiply-and-rotate hash of its 8-byte words,
    /// some 25 ns for a record of 200 bytes (this runs for every view, on the request's path; a collision costs only
    /// a fold missed).
    fn slot(tail: &[u8]) -> usize {
        let mut hash = tail.len() as u64;
        let mut words = tail.chunks_exact(8);
        for word in &mut words {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            hash = (hash.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        for &byte in words.remainder() {
            hash = (hash.rotate_left(5) ^ u64::from(byte)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        // The top bits: a multiplication mixes every bit of the input into them, not into the bottom ones.
        (hash >> (64 - RECENT_SLOTS.ilog2())) as usize
    }
}

impl ViewLog {
    /// Empties the log, keeping its memory for the next views.
    pub(super) fn clear(&mut self) {
        self.bytes.clear();
        self.recent = RecentRecords::default();
    }

    /// Settles the record just written at `start` (the log's last): folded into an equal recent one (which costs no
    /// room, so a repeat is counted even when the buffer is full), else kept and remembered if there is `room`, else
    /// taken back. False if it was taken back (the view is dropped).
    fn settle(&mut self, start: usize, room: bool) -> bool {
        // The day is left out of the slot's hash, so which of a thread's views share a slot does not change with
        // the date (the same view on another day takes the same slot and is told apart by the comparison below).
        let slot = RecentRecords::slot(&self.bytes[start + DAY.end..]);
        let length = self.bytes.len() - start;
        let folded = self.recent.0[slot].is_some_and(|(earlier, earlier_length)| {
            let (before, new) = self.bytes.split_at_mut(start);
            let previous = &mut before[earlier..earlier + earlier_length];
            let same = earlier_length == length
                && previous[..COUNT.start] == new[..COUNT.start]
                && previous[COUNT.end..] == new[COUNT.end..];
            let count = u32::from_le_bytes(previous[COUNT].try_into().unwrap_or_default());
            let folded = same && count < u32::MAX;
            if folded {
                previous[COUNT].copy_from_slice(&(count + 1).to_le_bytes());
            }
            folded
        });
        if folded || !room {
            self.bytes.truncate(start);
        } else {
            self.recent.0[slot] = Some((start, length));
        }
        folded || room
    }
}

thread_local! {
    /// This thread's buffer for each collector it noted views for.
    static BUFFERS: std::cell::RefCell<Vec<(usize, Buffer)>> = const { std::cell::RefCell::new(Vec::new()) };
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
        Collector::with_caps(pool, trusted_proxies, own_hosts, interval, Caps::default())
    }

    /// With other limits than the server's (tests).
    pub(super) fn with_caps(
        pool: DbPool,
        trusted_proxies: Vec<IpAddr>,
        own_hosts: Vec<String>,
        interval: Duration,
        caps: Caps,
    ) -> std::io::Result<Collector> {
        static NEXT_ID: AtomicUsize = AtomicUsize::new(0);
        let pending = Arc::new(Pending {
            buffers: Mutex::default(),
            dropped: AtomicU64::new(0),
            bytes: AtomicUsize::new(0),
            limit: caps.pending_bytes,
        });
        let stopping = Arc::new(AtomicBool::new(false));
        // One wake-up waiting is enough: the thread takes everything buffered when it runs.
        let (wake, woken) = sync_channel::<()>(1);
        let mut counter = Counter::new(pool, own_hosts, pending.clone(), stopping.clone(), caps);
        let thread = std::thread::Builder::new()
            .name("visit-counts".into())
            .spawn(move || counter.run(&woken, interval))?;
        Ok(Collector {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            pending,
            trusted_proxies,
            wake,
            stopping,
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Called for every request the server answered itself (GET and HEAD of the site's files), with the file the
    /// site answered it with (`served`, as the site resolved the path). Notes a GET of an HTML page answered 200, or
    /// 304 (a browser revalidating its copy: pages are served `no-cache`, so a repeat view is a 304), to what looks
    /// like a person's browser opening it, and a GET of /robots.txt; nothing else. `peer` is the socket's address
    /// (the client's comes from `X-Forwarded-For` of a trusted proxy).
    pub fn answered(
        &self,
        method: &Method,
        uri: &Uri,
        headers: &HeaderMap,
        peer: IpAddr,
        status: u16,
        served: Option<Served>,
    ) {
        if method != Method::GET || !(status == 200 || status == 304) {
            return;
        }
        let Some(served) = served else {
            return;
        };
        let kind = if served.is_page {
            if !is_navigation(headers) {
                return;
            }
            Kind::View
        } else if served.name == "robots.txt" {
            Kind::Robots
        } else {
            return;
        };
        let ip = ClientIp::resolve(
            Some(peer),
            &self.trusted_proxies,
            headers
                .get_all(X_FORWARDED_FOR)
                .iter()
                .filter_map(|value| value.to_str().ok()),
        );
        let query = uri.query().unwrap_or("");
        self.note(kind, crate::clock::today(), ip, headers, served.name, query);
    }

    /// Appends one record: kind, day, IP address (16 bytes), then user agent, host, the served file's name, query
    /// and referrer, each as a 2-byte length and at most [`MAX_FIELD`] bytes. Dropped (and counted) when this
    /// thread's buffer holds [`MAX_BYTES`] or all buffers together about their limit.
    pub(super) fn note(
        &self,
        kind: Kind,
        day: Date,
        ip: IpAddr,
        headers: &HeaderMap,
        file: &str,
        query: &str,
    ) {
        let header = |name: HeaderName| headers.get(name).map_or(&b""[..], HeaderValue::as_bytes);
        let ip = match ip {
            IpAddr::V4(v4) => v4.to_ipv6_mapped().octets(),
            IpAddr::V6(v6) => v6.octets(),
        };
        let waiting = BUFFERS.with_borrow_mut(|buffers| {
            let mine = match buffers.iter().position(|(id, _)| *id == self.id) {
                Some(index) => index,
                None => {
                    let buffer = Buffer::default();
                    lock(&self.pending.buffers).push(buffer.clone());
                    buffers.push((self.id, buffer));
                    buffers.len() - 1
                }
            };
            let mut log = lock(&buffers[mine].1);
            let bytes = &mut log.bytes;
            // The total is read (not written) on every view; it is written once per CHUNK bytes of a buffer.
            let room = bytes.len() < MAX_BYTES
                && self.pending.bytes.load(Ordering::Relaxed) < self.pending.limit;
            let before = bytes.len();
            bytes.push(kind as u8);
            bytes.extend_from_slice(&1u32.to_le_bytes());
            bytes.extend_from_slice(&day.to_julian_day().to_le_bytes());
            bytes.extend_from_slice(&ip);
            for field in [
                header(USER_AGENT),
                header(HOST),
                file.as_bytes(),
                query.as_bytes(),
                header(REFERER),
            ] {
                let field = &field[..field.len().min(MAX_FIELD)];
                bytes.extend_from_slice(&(field.len() as u16).to_le_bytes());
                bytes.extend_from_slice(field);
            }
            if !log.settle(before, room) {
                self.pending.dropped.fetch_add(1, Ordering::Relaxed);
                return 0;
            }
            let bytes = &log.bytes;
            let chunks = bytes.len() / CHUNK - before / CHUNK;
            if chunks > 0 {
                self.pending
                    .bytes
                    .fetch_add(chunks * CHUNK, Ordering::Relaxed);
            }
            bytes.len()
        });
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
            .any(|name| headers.contains_key(name))
}
