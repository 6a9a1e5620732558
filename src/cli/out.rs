//! The commands' standard output. `println!` panics when the reader has gone (`truckins leads forget | head -1`:
//! EPIPE, since Rust ignores SIGPIPE), which would print a panic and, for `leads forget`, skip the WAL checkpoint
//! that follows its first line. Every line goes through [`write`] instead ([`say!`] for `println!`): a closed pipe
//! ends the output quietly and the command finishes its work; any other write error is kept, and `main` reports it
//! (exit 1) once the command is done.

use std::io::{ErrorKind, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once standard output cannot be written any more: what follows is not even tried.
static CLOSED: AtomicBool = AtomicBool::new(false);
/// The first write error other than a closed pipe.
static FAILURE: Mutex<Option<String>> = Mutex::new(None);

/// Writes `text` to standard output now (flushed, so that a closed pipe is seen at once).
pub fn write(text: &str) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(error) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        CLOSED.store(true, Ordering::Relaxed);
        // A reader that stopped early (`| head`) had what it wanted: no failure.
        if error.kind() != ErrorKind::BrokenPipe {
            let mut failure = FAILURE
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            failure.get_or_insert_with(|| format!("cannot write to standard output: {error}"));
        }
    }
}

/// The write error that stopped the output, other than a closed pipe, if any.
pub fn failure() -> Option<String> {
    FAILURE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

/// `println!` through [`write`].
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::out::write(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use say;
