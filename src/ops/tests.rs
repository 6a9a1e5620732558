//! The request log's lines and the health answer's shape.

use super::*;

/// A writer whose bytes the test can read, counting the writes it received.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<(Vec<u8>, usize)>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut inner = lock(&self.0);
        inner.0.extend_from_slice(bytes);
        inner.1 += 1;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8(lock(&self.0).0.clone()).unwrap()
    }

    fn writes(&self) -> usize {
        lock(&self.0).1
    }
}

#[test]
fn every_line_is_written_once_and_in_order_when_the_log_is_dropped() {
    let captured = Captured::default();
    let log = LogWriter::new(Box::new(captured.clone()));
    let threads: Vec<_> = (0..4)
        .map(|thread| {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                for n in 0..5_000 {
                    log.append_with(|pending| {
                        let _ = writeln!(pending, "thread {thread} line {n}");
                    });
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    drop(log);
    let text = captured.text();
    assert_eq!(text.lines().count(), 20_000);
    for thread in 0..4 {
        let numbers: Vec<usize> = text
            .lines()
            .filter_map(|line| line.strip_prefix(&format!("thread {thread} line ")))
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(numbers, (0..5_000).collect::<Vec<_>>(), "thread {thread}");
    }
    assert!(
        captured.writes() < 200,
        "written in batches, not line by line: {} writes",
        captured.writes()
    );
}

#[test]
fn lines_are_written_within_the_interval_without_a_flush() {
    let captured = Captured::default();
    let log = LogWriter::new(Box::new(captured.clone()));
    log.append_with(|pending| pending.extend_from_slice(b"GET / 200 0.1ms\n"));
    let deadline = Instant::now() + FLUSH_INTERVAL * 50;
    while captured.text().is_empty() {
        assert!(Instant::now() < deadline, "the line was never written");
        std::thread::sleep(FLUSH_INTERVAL / 10);
    }
    assert_eq!(captured.text(), "GET / 200 0.1ms\n");
    drop(log);
    assert_eq!(
        captured.text(),
        "GET / 200 0.1ms\n",
        "nothing written twice"
    );
}

#[test]
fn a_closed_output_is_no_failure() {
    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
    }
    let log = LogWriter::new(Box::new(Closed));
    for _ in 0..10_000 {
        log.append_with(|pending| pending.extend_from_slice(b"GET / 200 0.1ms\n"));
    }
    log.flush();
}
