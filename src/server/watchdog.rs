//! What a connection is doing, for its watchdog: the phase it is in (waiting for a head, idle, busy) and when its
//! reads and writes last made progress, kept by the socket wrapper and the answer body, read by the deadline check.

use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use http_body_util::Full;
use rocket::tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::limits::Limits;
use super::parse_errors::{Rewritten, may_be_answer, with_headers};

/// Waiting for the first request's head (the clock started at the connection).
pub(super) const FIRST_HEAD: u8 = 0;
/// Between requests, nothing of the next head received yet.
pub(super) const IDLE: u8 = 1;
/// Bytes of a later request's head received, the head not yet complete.
pub(super) const HEAD: u8 = 2;
/// A request is being answered (its body read, the application at work, the answer written).
pub(super) const BUSY: u8 = 3;

/// Shared by a connection's socket, its requests and its watchdog. They all run on the connection's one task, so
/// these atomics are never contended; they are atomics because the task may move between threads.
pub(super) struct Activity {
    pub(super) epoch: Instant,
    pub(super) phase: AtomicU8,
    /// Milliseconds since `epoch` when the current phase began.
    pub(super) phase_since: AtomicU64,
    /// Milliseconds since `epoch` of the last byte read or written.
    pub(super) last_progress: AtomicU64,
    /// The last write could not go out (the client is not reading).
    pub(super) write_blocked: AtomicBool,
    /// Requests being answered: one at most over HTTP/1.1, several streams at once over HTTP/2, where the
    /// connection is idle only when the last of them is over.
    pub(super) in_flight: AtomicU32,
}

impl Activity {
    pub(super) fn new() -> Activity {
        Activity {
            epoch: Instant::now(),
            phase: AtomicU8::new(FIRST_HEAD),
            phase_since: AtomicU64::new(0),
            last_progress: AtomicU64::new(0),
            write_blocked: AtomicBool::new(false),
            in_flight: AtomicU32::new(0),
        }
    }

    /// A request begins: busy until [`Activity::end`] has been called as often.
    pub(super) fn begin(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        self.enter(BUSY);
    }

    /// A request is over (answered, or given up by its client); the last one leaves the connection idle.
    pub(super) fn end(&self) {
        if self.in_flight.fetch_sub(1, Ordering::Relaxed) <= 1 {
            self.in_flight.store(0, Ordering::Relaxed);
            self.enter(IDLE);
        }
    }

    pub(super) fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    pub(super) fn enter(&self, phase: u8) {
        self.phase_since.store(self.now(), Ordering::Relaxed);
        self.phase.store(phase, Ordering::Relaxed);
    }

    pub(super) fn read_some(&self) {
        let now = self.now();
        self.last_progress.store(now, Ordering::Relaxed);
        if self.phase.load(Ordering::Relaxed) == IDLE {
            self.phase_since.store(now, Ordering::Relaxed);
            self.phase.store(HEAD, Ordering::Relaxed);
        }
    }

    pub(super) fn wrote(&self, blocked: bool) {
        if !blocked {
            self.last_progress.store(self.now(), Ordering::Relaxed);
        }
        self.write_blocked.store(blocked, Ordering::Relaxed);
    }

    /// When the connection is to be closed if nothing changes before then; `None`: not while in this phase.
    pub(super) fn deadline(&self, limits: &Limits) -> Option<Instant> {
        let at = |millis: u64, timeout: Duration| {
            Some(self.epoch + Duration::from_millis(millis) + timeout)
        };
        let last_progress = self.last_progress.load(Ordering::Relaxed);
        if self.write_blocked.load(Ordering::Relaxed) {
            // The client is not taking the answer.
            return at(last_progress, limits.stall_timeout);
        }
        let since = self.phase_since.load(Ordering::Relaxed);
        match self.phase.load(Ordering::Relaxed) {
            FIRST_HEAD | HEAD => at(since, limits.head_timeout),
            // The application at work is never cut short (a request body has its own limits, in `read_body`).
            BUSY => None,
            // Idle from when the answer went out, not from when hyper took it. With keep-alive off, hyper closes the
            // connection itself after each answer.
            _ => limits
                .keep_alive
                .and_then(|timeout| at(since.max(last_progress), timeout)),
        }
    }
}

/// The connection's socket, reporting what moves through it to the connection's [`Activity`]; hyper's own answers
/// to requests it cannot parse go out with the security headers ([`super::parse_errors`]).
pub(super) struct WatchedStream<S> {
    /// The TCP socket, or the TLS stream on it (the plain side: what hyper reads and writes).
    pub(super) stream: S,
    pub(super) activity: Arc<Activity>,
    /// The security headers as head lines, shared by all connections.
    pub(super) security_lines: Arc<[u8]>,
    /// One of hyper's answers being written with those headers.
    pub(super) rewritten: Option<Rewritten>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> WatchedStream<S> {
    /// What hyper writes, with the headers added when it is one of hyper's own answers: looked at only while no
    /// request of ours is being answered (hyper answers a parse error before any service call for that request), and
    /// only when it begins as such an answer does.
    fn rewrite(&self, bytes: &[u8]) -> Option<Rewritten> {
        if self.activity.phase.load(Ordering::Relaxed) == BUSY || !may_be_answer(bytes) {
            return None;
        }
        with_headers(bytes, &self.security_lines).map(|answer| Rewritten {
            bytes: answer,
            written: 0,
            stands_for: bytes.len(),
        })
    }

    fn poll_rewritten(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let Some(rewritten) = self.rewritten.as_mut() else {
            return Poll::Ready(Ok(0));
        };
        let result = rewritten.poll_write_to(&mut self.stream, cx);
        if result.is_ready() {
            self.rewritten = None;
        }
        self.activity.wrote(result.is_pending());
        result
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for WatchedStream<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.read_some();
        }
        result
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for WatchedStream<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.rewritten.is_none() {
            self.rewritten = self.rewrite(buf);
        }
        if self.rewritten.is_some() {
            return self.poll_rewritten(cx);
        }
        let result = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.activity.wrote(result.is_pending());
        result
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if self.rewritten.is_none()
            && bufs
                .iter()
                .find(|slice| !slice.is_empty())
                .is_some_and(|first| may_be_answer(first))
        {
            // hyper's answers are a few hundred bytes: gathered, they are looked at as one write.
            let gathered: Vec<u8> = bufs
                .iter()
                .flat_map(|slice| slice.iter().copied())
                .collect();
            self.rewritten = self.rewrite(&gathered);
        }
        if self.rewritten.is_some() {
            return self.poll_rewritten(cx);
        }
        let result = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.activity.wrote(result.is_pending());
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// An answer's body, in one piece; when hyper has taken all of it (or dropped it), the request is over.
pub(super) struct AnswerBody {
    pub(super) bytes: Full<Bytes>,
    /// Held for its drop: the request is over when hyper is done with the body.
    pub(super) _request: InFlight,
}

/// One request being answered, from its head to its answer's end: dropped with the answer's body, or with the
/// request's future when its client gives it up (an HTTP/2 stream reset) before there is one.
pub(super) struct InFlight(pub(super) Arc<Activity>);

impl InFlight {
    pub(super) fn begin(activity: Arc<Activity>) -> InFlight {
        activity.begin();
        InFlight(activity)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.end();
    }
}

impl Body for AnswerBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.bytes).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.bytes.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.bytes.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;

    #[test]
    fn an_idle_connection_has_the_keep_alive_deadline_a_blocked_one_the_stall_deadline_a_busy_one_none()
     {
        let settings = Settings::default();
        let limits = Limits::new(&settings, 5, None);
        let activity = Activity::new();
        let first = activity.deadline(&limits).unwrap();
        assert_eq!(first, activity.epoch + limits.head_timeout);
        activity.enter(BUSY);
        assert_eq!(activity.deadline(&limits), None);
        activity.wrote(true);
        let blocked = activity.deadline(&limits).unwrap();
        assert!(blocked >= activity.epoch + limits.stall_timeout);
        activity.wrote(false);
        activity.enter(IDLE);
        let idle = activity.deadline(&limits).unwrap();
        assert!(idle < activity.epoch + limits.stall_timeout);
        assert!(idle >= activity.epoch + Duration::from_secs(5));
        activity.read_some();
        assert_eq!(activity.phase.load(Ordering::Relaxed), HEAD);
    }
}
