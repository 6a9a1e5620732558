//! The census file as the CSV parser reads it, with a cap on a record's length (a stray quote cannot swallow the
//! rest of the file into memory).

use std::path::Path;

use super::import::MAX_RECORD;

/// The census file as the CSV parser reads it, watching the bytes go by: a record (the bytes from one line end
/// outside quotes to the next) longer than [`MAX_RECORD`] is an error naming the line the record began on. Quotes
/// are followed as the parser follows them: one opens a quoted field only at the field's start, `""` inside is a
/// quote, and a quote in the middle of an unquoted field (`12" PIPE`) is just a character.
pub(super) struct Capped<R> {
    inner: R,
    state: Quoting,
    record_bytes: usize,
    line: u64,
    record_line: u64,
}

impl<R> Capped<R> {
    pub(super) fn new(inner: R) -> Self {
        Capped {
            inner,
            state: Quoting::FieldStart,
            record_bytes: 0,
            line: 1,
            record_line: 1,
        }
    }
}

/// Where [`Capped`] is in the CSV's quoting.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quoting {
    FieldStart,
    Unquoted,
    Quoted,
    /// A quote inside a quoted field: `""` (a quote) or the field's end.
    QuoteInQuoted,
}

impl Quoting {
    /// The state after `byte`, and whether `byte` ended the record.
    fn next(self, byte: u8) -> (Quoting, bool) {
        use Quoting::*;
        match (self, byte) {
            (Quoted, b'"') => (QuoteInQuoted, false),
            (Quoted, _) => (Quoted, false),
            (FieldStart, b'"') | (QuoteInQuoted, b'"') => (Quoted, false),
            (_, b'\n') => (FieldStart, true),
            (_, b',') => (FieldStart, false),
            _ => (Unquoted, false),
        }
    }
}

/// How [`Capped`] tells its error apart from the file's own I/O errors.
#[derive(Debug)]
struct TooLong(u64);

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "record at line {} longer than {MAX_RECORD} bytes",
            self.0
        )
    }
}

impl std::error::Error for TooLong {}

/// What stops an import that cannot read on: a record too long, or the file's own error.
pub(super) fn read_error(source: &Path, error: &std::io::Error) -> String {
    match too_long(error) {
        Some(line) => format!(
            "line {line}: malformed, a record longer than {} KiB (an unclosed quote?); the import stopped and the \
             census in place is kept",
            MAX_RECORD / 1024
        ),
        None => format!("cannot read {}: {error}", source.display()),
    }
}

/// The line of a record [`Capped`] refused.
pub(super) fn too_long(error: &std::io::Error) -> Option<u64> {
    error
        .get_ref()?
        .downcast_ref::<TooLong>()
        .map(|too_long| too_long.0)
}

impl<R: std::io::Read> std::io::Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buf)?;
        for &byte in &buf[..read] {
            let (state, ended) = self.state.next(byte);
            self.state = state;
            if byte == b'\n' {
                self.line += 1;
            }
            if ended {
                self.record_bytes = 0;
                self.record_line = self.line;
                continue;
            }
            self.record_bytes += 1;
            if self.record_bytes > MAX_RECORD {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    TooLong(self.record_line),
                ));
            }
        }
        Ok(read)
    }
}
