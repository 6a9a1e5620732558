//! hyper's own answers to requests it cannot parse, given the security headers on their way to the socket.
//!
//! A malformed request line or header (400), a URI too long (414) or a head too large (431) never reaches our
//! service: hyper 1.x answers it itself (`Role::on_error` in `proto/h1/role.rs` makes the head,
//! `Conn::on_parse_error` in `proto/h1/conn.rs` writes it) and offers no hook to change that answer, nor a way to
//! turn the automatic answer off and give our own. So the connection's socket wrapper ([`super::watchdog`]) looks
//! at what hyper writes while no request of ours is being answered: a write that is exactly such an answer (a bare
//! head of status 400, 414 or 431 with no header but `connection`, `content-length: 0` and `date`, and no body) goes
//! out with the security headers after its status line. Anything else passes untouched, our own answers included
//! (they carry the headers already).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::header::{HeaderName, HeaderValue};
use rocket::tokio::io::AsyncWrite;

/// The statuses hyper answers parse errors with, in hyper 1.x.
const STATUSES: [&[u8]; 3] = [b"400", b"414", b"431"];

/// The only headers hyper puts on those answers.
const HYPER_HEADERS: [&[u8]; 3] = [b"connection", b"content-length", b"date"];

/// The security headers as the lines of a head (`name: value\r\n` each), made once for all connections.
pub(super) fn header_lines(headers: &[(HeaderName, HeaderValue)]) -> Vec<u8> {
    let mut lines = Vec::new();
    for (name, value) in headers {
        lines.extend_from_slice(name.as_str().as_bytes());
        lines.extend_from_slice(b": ");
        lines.extend_from_slice(value.as_bytes());
        lines.extend_from_slice(b"\r\n");
    }
    lines
}

/// Whether `bytes` may be the start of one of hyper's answers: the cheap test made on every write outside a
/// request, before anything is copied.
pub(super) fn may_be_answer(bytes: &[u8]) -> bool {
    bytes.starts_with(b"HTTP/1.1 4")
}

/// `written` with `lines` after its status line, when `written` is exactly one of hyper's answers to a request it
/// could not parse; `None` for anything else.
pub(super) fn with_headers(written: &[u8], lines: &[u8]) -> Option<Vec<u8>> {
    if !written.ends_with(b"\r\n\r\n") {
        return None;
    }
    // Each line with its `\r`, then the empty piece after the last line's `\n`.
    let mut rows: Vec<&[u8]> = written[..written.len() - 2]
        .split(|byte| *byte == b'\n')
        .collect();
    if rows.pop() != Some(b"".as_slice()) {
        return None;
    }
    let mut rows = rows.into_iter();
    let status_line = rows.next()?.strip_suffix(b"\r")?;
    let code = status_line.strip_prefix(b"HTTP/1.1 ")?.get(..3)?;
    if !STATUSES.contains(&code) {
        return None;
    }
    let mut empty_body = false;
    for row in rows {
        let (name, value) = row.strip_suffix(b"\r")?.split_at(
            row.iter()
                .position(|byte| *byte == b':')
                .filter(|at| *at > 0)?,
        );
        let name = name.to_ascii_lowercase();
        if !HYPER_HEADERS.contains(&name.as_slice()) {
            return None;
        }
        if name == b"content-length" {
            empty_body = value == b": 0";
        }
    }
    if !empty_body {
        return None;
    }
    let after_status = status_line.len() + 2;
    let mut answer = Vec::with_capacity(written.len() + lines.len());
    answer.extend_from_slice(&written[..after_status]);
    answer.extend_from_slice(lines);
    answer.extend_from_slice(&written[after_status..]);
    Some(answer)
}

/// An answer of hyper's being written with the headers added: hyper is told its own bytes were written only once
/// all of ours were, so it retries the same write (as `poll_write`'s contract has it) until then.
pub(super) struct Rewritten {
    pub(super) bytes: Vec<u8>,
    pub(super) written: usize,
    /// The length of what hyper asked to write.
    pub(super) stands_for: usize,
}

impl Rewritten {
    /// Writes what is left to `stream`; `Ready(Ok(n))` with hyper's length when all is out.
    pub(super) fn poll_write_to<W: AsyncWrite + Unpin>(
        &mut self,
        stream: &mut W,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<usize>> {
        while self.written < self.bytes.len() {
            match Pin::new(&mut *stream).poll_write(cx, &self.bytes[self.written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Ok(0)),
                Poll::Ready(Ok(n)) => self.written += n,
                Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(self.stands_for))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &[u8] = b"x-content-type-options: nosniff\r\nx-frame-options: DENY\r\n";

    #[test]
    fn hyper_s_answers_get_the_headers_after_their_status_line() {
        for status in [
            "400 Bad Request",
            "414 URI Too Long",
            "431 Request Header Fields Too Large",
        ] {
            let written = format!(
                "HTTP/1.1 {status}\r\nconnection: close\r\ncontent-length: 0\r\ndate: Sat, 28 Nov 2026 09:03:42 GMT\r\n\r\n"
            );
            let answer = with_headers(written.as_bytes(), LINES).expect(status);
            assert_eq!(
                String::from_utf8(answer).unwrap(),
                format!(
                    "HTTP/1.1 {status}\r\nx-content-type-options: nosniff\r\nx-frame-options: DENY\r\n\
                     connection: close\r\ncontent-length: 0\r\ndate: Sat, 28 Nov 2026 09:03:42 GMT\r\n\r\n"
                )
            );
        }
    }

    #[test]
    fn anything_else_passes_untouched() {
        for written in [
            // Our own answers: other headers, a body, another status.
            "HTTP/1.1 400 Bad Request\r\nx-content-type-options: nosniff\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\nno",
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
            "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\ndate: x\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\n: 0\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 400 Bad Request\ncontent-length: 0\r\n\r\n",
            "a body that says HTTP/1.1 400",
            "",
        ] {
            assert_eq!(with_headers(written.as_bytes(), LINES), None, "{written:?}");
        }
    }

    #[test]
    fn the_lines_are_those_of_a_head() {
        let headers = [(
            HeaderName::from_static("x-frame-options"),
            HeaderValue::from_static("DENY"),
        )];
        assert_eq!(header_lines(&headers), b"x-frame-options: DENY\r\n");
    }
}
