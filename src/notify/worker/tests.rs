//! The worker's retry policy and its handling of outcomes that cannot be written.

use super::*;
use crate::notify::outbox::Update;
use crate::store::Lead;

fn due(attempts: u32, queued_ms: i64) -> Due {
    Due {
        id: 1,
        key: "k".into(),
        channel: Channel::Webhook,
        kind: super::super::Kind::Lead,
        attempts,
        queued_ms,
        about: super::super::outbox::About::Lead(Lead::default()),
        withheld: None,
        standing: Default::default(),
        urgent: false,
        documents: Vec::new(),
    }
}

#[test]
fn waits_grow_with_jitter_and_the_first_retry_is_within_30_seconds() {
    for _ in 0..200 {
        let first = retry_delay(10.0, 1);
        assert!(
            first >= Duration::from_millis(7_500) && first <= Duration::from_millis(12_500),
            "{first:?}"
        );
        let fifth = retry_delay(10.0, 5);
        assert!(
            fifth >= Duration::from_secs(120) && fifth <= Duration::from_secs(200),
            "{fifth:?}"
        );
        assert!(retry_delay(10.0, 40) <= Duration::from_secs(4500));
    }
}

#[test]
fn retries_go_on_for_24_hours_then_the_delivery_fails_with_its_reason() {
    let now = 100 * 24 * 3_600_000;
    let retry = update(
        Outcome::Retry("451".into()),
        &due(3, now - 3_600_000),
        10.0,
        now,
    );
    assert!(matches!(retry, Update::RetryAt(at, ref reason) if at > now && reason == "451"));
    let day = GIVE_UP_AFTER.as_millis() as i64;
    let over = update(Outcome::Retry("451".into()), &due(30, now - day), 10.0, now);
    assert_eq!(
        over,
        Update::Failed("gave up after 31 attempts in 24 h: 451".into())
    );
    let refused = update(Outcome::Failed("550".into()), &due(0, now), 10.0, now);
    assert_eq!(refused, Update::Failed("550".into()));
    // Attempts over a day at the default pace: enough, and never fewer than a dozen.
    let (mut elapsed, mut attempts) = (Duration::ZERO, 0);
    while elapsed < GIVE_UP_AFTER {
        attempts += 1;
        elapsed += retry_delay(10.0, attempts);
    }
    assert!((20..60).contains(&attempts), "{attempts}");
}

#[test]
fn outcomes_that_cannot_be_written_are_kept_and_written_first_next_time() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        // No deliveries table yet: every write fails.
        let db = Arc::new(Mutex::new(Connection::open_in_memory().unwrap()));
        let (_stop, stopped) = watch::channel(None);
        let lane = Lane {
            channel: Channel::Webhook,
            outbox: Outbox::new(&Settings::default()),
            senders: Arc::new(Senders {
                mail: None,
                webhook: None,
            }),
            db: db.clone(),
            blocking: tokio::runtime::Handle::current(),
            base: 10.0,
            stopped,
            pace: Arc::new(Pace::new(Outbox::new(&Settings::default()))),
        };
        let mut kept = Vec::new();
        assert!(lane.write(&mut kept, vec![(1, Update::Sent)]).await.is_err());
        assert_eq!(kept, vec![(1, Update::Sent)]);
        let second = (2, Update::Failed("550".into()));
        assert!(lane.write(&mut kept, vec![second.clone()]).await.is_err());
        assert_eq!(kept, vec![(1, Update::Sent), second.clone()]);
        db.lock()
            .unwrap()
            .execute_batch(
                "CREATE TABLE deliveries (id INTEGER PRIMARY KEY, state TEXT, attempts INTEGER, \
                 last_attempt_at TEXT, sent_at TEXT, next_attempt_ms INTEGER, last_error TEXT); \
                 INSERT INTO deliveries (id, state, attempts) VALUES (1, 'pending', 0), (2, 'pending', 0);",
            )
            .unwrap();
        lane.write(&mut kept, Vec::new()).await.unwrap();
        assert!(kept.is_empty());
        let states: Vec<String> = db
            .lock()
            .unwrap()
            .prepare("SELECT state FROM deliveries ORDER BY id")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(states, vec!["sent", "failed"]);
    });
}

#[test]
fn every_lane_is_given_the_deadline_of_the_stop_s_request() {
    let (stop, mut stopped) = watch::channel(None);
    let (_finished, finished) = oneshot::channel();
    let grace = Duration::from_secs(5);
    let mut worker = Worker {
        stop,
        finished,
        grace,
        deadline: None,
    };
    let asked = Instant::now();
    worker.begin_stop();
    let deadline = stopped.borrow_and_update().expect("a deadline sent");
    assert!(
        deadline >= asked + grace && deadline <= Instant::now() + grace,
        "{deadline:?}"
    );
    // Asked again (as `Worker::stop` does), the lanes keep the first instant: none is given a later one.
    worker.begin_stop();
    assert_eq!(*stopped.borrow(), Some(deadline));
    assert!(!stopped.has_changed().unwrap());
}
