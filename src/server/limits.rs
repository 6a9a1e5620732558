//! The bounds on connections (how many at once, how many from one address, how long a head, a request body, an idle
//! connection or a stalled answer may take, how large a body is passed on), from the configuration and the open-files
//! limit; and the accept loop's handling of failed accepts.

use std::collections::BTreeMap;
use std::io;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rocket::tokio;

use crate::config::Settings;

/// The bounds on connections, from the configuration.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// For a complete request head: from the connection for the first, from its first byte for later ones. Also
    /// the longest wait for the next piece of a request body.
    pub head_timeout: Duration,
    /// For a whole request body, from its head: a lead's body is a few KiB, so a body still arriving after this is
    /// trickled on purpose (each byte within `head_timeout` of the last, it would hold a connection for ever).
    pub body_timeout: Duration,
    /// Idle between requests; `None`: one request per connection.
    pub keep_alive: Option<Duration>,
    /// For a client that takes no bytes of an answer.
    pub stall_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
    /// Connections served at once from one client address (an IPv6 /64 counts as one): at most half of
    /// `max_connections` (and at least 1), so that one address cannot hold every slot once there are two or more.
    pub max_connections_per_ip: usize,
}

/// Files the process keeps open besides its connections: the database (each pooled connection holds the file,
/// its `-wal` and `-shm`), the listener, the runtime's own, the log.
pub(super) fn reserved_files(settings: &Settings) -> usize {
    64 + 3 * settings.pool_size as usize
}

impl Limits {
    /// The configured bounds, the connection cap lowered to what `open_files` (the process's limit) leaves room for.
    pub fn new(settings: &Settings, keep_alive_seconds: u32, open_files: Option<u64>) -> Limits {
        let room = open_files
            .map(|limit| usize::try_from(limit).unwrap_or(usize::MAX))
            .map(|limit| limit.saturating_sub(reserved_files(settings)).max(1))
            .unwrap_or(usize::MAX);
        let max_connections = settings.max_connections.min(room);
        Limits {
            head_timeout: Duration::from_secs(settings.request_head_timeout),
            body_timeout: Duration::from_secs(settings.request_body_timeout),
            keep_alive: (keep_alive_seconds > 0)
                .then(|| Duration::from_secs(u64::from(keep_alive_seconds))),
            stall_timeout: Duration::from_secs(30),
            max_connections,
            max_connections_per_ip: settings
                .max_connections_per_ip
                .min((max_connections / 2).max(1)),
        }
    }
}

/// How much of a request body is passed on to the application and how long all of it may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BodyBound {
    /// One byte over the application's own limit for the route, so that it sees a body is too large and answers 413
    /// itself (in its words: JSON or a page).
    pub(super) cap: usize,
    /// For all of it, from its head.
    pub(super) whole: Duration,
    /// A quote's document: a body of megabytes, taken a few at a time ([`UPLOADS`]).
    pub(super) upload: bool,
}

/// The slowest upload a document is given time for: 128 KiB/s (1 Mbit/s), so 10 MiB take 80 s beyond
/// `request_body_timeout`. A slower client gets 408 and can try again on a better connection.
const UPLOAD_BYTES_PER_SECOND: usize = 128 * 1024;

/// Documents' bodies read at once: each is held in memory until stored (10 MiB as read, as Rocket's request and as
/// the multipart's file: some 35 MiB at worst each), so this bounds what uploads can take of the machine's memory
/// (8 at once: under 300 MiB) however many connections send them. An upload waits `request_head_timeout` for its
/// turn, then is answered 503.
pub(super) static UPLOADS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(8);

/// Uploads one client (its network, as the rate limits count it) may send at once: a client trickling uploads holds
/// at most this many of [`UPLOADS`]' turns and leaves the rest to everyone else.
const UPLOADS_PER_CLIENT: usize = 2;

/// The clients sending a document now, and how many each.
static UPLOADERS: Mutex<BTreeMap<IpAddr, usize>> = Mutex::new(BTreeMap::new());

/// A client's turn to send a document: its place in its own share and one of [`UPLOADS`], both given back when
/// dropped (once the upload is answered).
pub(super) struct UploadTurn {
    _permit: tokio::sync::SemaphorePermit<'static>,
    _place: Place,
}

/// A client's place among its [`UPLOADS_PER_CLIENT`].
struct Place(IpAddr);

impl Drop for Place {
    fn drop(&mut self) {
        let mut held = UPLOADERS.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&self.0) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.0);
            }
        }
    }
}

impl UploadTurn {
    /// A turn for `client` (the visitor's address, as a trusted proxy reports it), waiting at most `wait` for one of
    /// [`UPLOADS`]; `None` when the client sends its share already or no turn came in time.
    pub(super) async fn take(client: IpAddr, wait: Duration) -> Option<UploadTurn> {
        let client = crate::client_ip::network_of(client);
        {
            let mut held = UPLOADERS.lock().unwrap_or_else(PoisonError::into_inner);
            let count = held.entry(client).or_insert(0);
            if *count >= UPLOADS_PER_CLIENT {
                return None;
            }
            *count += 1;
        }
        // Given back by its drop from here on, also when no turn comes.
        let place = Place(client);
        let permit = tokio::time::timeout(wait, UPLOADS.acquire())
            .await
            .ok()?
            .ok()?;
        Some(UploadTurn {
            _permit: permit,
            _place: place,
        })
    }
}

impl Limits {
    /// The bound on a body of `method` at `path`: a lead's few KiB everywhere ([`crate::leads::BODY_LIMIT_KIB`]; the
    /// details' lists 256 KiB),
    /// but a POST of a quote's document ([`contract::routes::DOCUMENTS_API`]) up to its file's 10 MiB and the form
    /// around it, with the time that takes.
    pub(super) fn body(&self, method: &hyper::Method, path: &str) -> BodyBound {
        if method == hyper::Method::POST && path == contract::routes::DOCUMENTS_API {
            let cap = crate::leads::documents::BODY_LIMIT + 1;
            BodyBound {
                cap,
                whole: self.body_timeout
                    + Duration::from_secs((cap / UPLOAD_BYTES_PER_SECOND) as u64),
                upload: true,
            }
        } else {
            // The details' lists may take 256 KiB (a fleet's 50 vehicles and 50 drivers as a form post); every other
            // route a lead's 64 KiB. One byte over, so the application sees a body is too large and answers 413.
            let details =
                method == hyper::Method::POST && path == contract::forms::DETAILS.endpoint;
            let kib = if details {
                crate::leads::DETAILS_BODY_LIMIT_KIB
            } else {
                crate::leads::BODY_LIMIT_KIB
            };
            BodyBound {
                cap: kib as usize * 1024 + 1,
                whole: self.body_timeout,
                upload: false,
            }
        }
    }
}

/// Raises the limit on open files to its hard limit (the soft one is often 1024) and returns it.
pub fn raise_open_files_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct passed, which lives on this stack frame.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    Some(limit.rlim_cur)
}

/// Failed accepts, logged at most once a minute; when the process is out of files, the loop pauses briefly so it
/// does not spin while connections close.
#[derive(Default)]
pub(super) struct AcceptFailures {
    pub(super) last_logged: Option<Instant>,
    pub(super) since_logged: u64,
}

impl AcceptFailures {
    pub(super) async fn note(&mut self, error: &io::Error) {
        self.since_logged += 1;
        if self
            .last_logged
            .is_none_or(|at| at.elapsed() >= Duration::from_secs(60))
        {
            eprintln!(
                "truckins: cannot accept connections ({error}; {} times since the last message)",
                self.since_logged
            );
            self.last_logged = Some(Instant::now());
            self.since_logged = 0;
        }
        let out_of_files = matches!(error.raw_os_error(), Some(libc::EMFILE | libc::ENFILE));
        if out_of_files {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_cap_leaves_room_for_the_database_and_the_log() {
        let settings = Settings::default();
        let limits = Limits::new(&settings, 5, Some(256));
        assert_eq!(limits.max_connections, 256 - 64 - 3 * 8);
        assert_eq!(Limits::new(&settings, 5, None).max_connections, 4096);
        assert_eq!(Limits::new(&settings, 0, None).keep_alive, None);
    }

    #[test]
    fn only_a_document_post_may_send_megabytes_and_take_longer() {
        let limits = Limits::new(&Settings::default(), 5, None);
        let lead = limits.body(&hyper::Method::POST, "/api/leads/quote");
        assert_eq!(lead.cap, 64 * 1024 + 1);
        assert_eq!(lead.whole, limits.body_timeout);
        assert!(!lead.upload);
        let details = limits.body(&hyper::Method::POST, contract::forms::DETAILS.endpoint);
        assert_eq!(details.cap, 256 * 1024 + 1);
        assert!(!details.upload);
        let document = limits.body(&hyper::Method::POST, contract::routes::DOCUMENTS_API);
        assert!(document.cap > 10 * 1024 * 1024 + 1);
        assert_eq!(
            document.whole,
            limits.body_timeout + Duration::from_secs(80)
        );
        assert!(document.upload);
        assert_eq!(
            limits.body(&hyper::Method::PUT, contract::routes::DOCUMENTS_API),
            lead
        );
    }

    #[test]
    fn a_client_sends_two_documents_at_once_and_others_still_get_a_turn() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            let wait = Duration::from_millis(50);
            let one: IpAddr = "192.0.2.7".parse().unwrap();
            let first = UploadTurn::take(one, wait).await;
            let second = UploadTurn::take(one, wait).await;
            assert!(first.is_some() && second.is_some());
            assert!(
                UploadTurn::take(one, wait).await.is_none(),
                "a third at once"
            );
            let other: IpAddr = "198.51.100.9".parse().unwrap();
            assert!(UploadTurn::take(other, wait).await.is_some());
            drop(first);
            assert!(
                UploadTurn::take(one, wait).await.is_some(),
                "its place given back"
            );
        });
    }

    #[test]
    fn one_address_gets_at_most_half_of_the_connections_and_at_least_one() {
        let settings = Settings::default();
        assert_eq!(
            Limits::new(&settings, 5, None).max_connections_per_ip,
            settings.max_connections_per_ip
        );
        let few = Settings {
            max_connections: 40,
            ..Settings::default()
        };
        assert_eq!(Limits::new(&few, 5, None).max_connections_per_ip, 20);
        let one = Settings {
            max_connections: 1,
            ..Settings::default()
        };
        assert_eq!(Limits::new(&one, 5, None).max_connections_per_ip, 1);
    }
}
