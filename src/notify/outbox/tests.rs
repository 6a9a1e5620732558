//! The table's rules on a real SQLite file: the owner's report is due on the e-mail lane only, with the message it
//! was queued with, a lead's deliveries are read with their lead as before, each lane reads the pending index no
//! further than it needs, and the deliveries of channels turned off are counted before any is marked failed.

use super::*;
use crate::store::{Lead, Source, Status, Stored};

/// A folder of the test's own for a leads file (`truckins-outbox-<name>-<pid>` in the temporary folder), emptied.
fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("truckins-outbox-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Dana's new lead from the form of `source`, made now.
fn dana(source: Source) -> Lead {
    Lead {
        source,
        status: Status::New,
        created_at: store::now(),
        name: "Dana".into(),
        email: "dana@example.com".into(),
        ..Lead::default()
    }
}

/// The steps of the plan SQLite makes for `sql` with `arguments`, as `EXPLAIN QUERY PLAN` words them.
fn query_plan(connection: &Connection, sql: &str, arguments: impl rusqlite::Params) -> Vec<String> {
    connection
        .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
        .unwrap()
        .query_map(arguments, |row| row.get::<_, String>(3))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_report_is_due_on_the_e_mail_lane_only_and_a_lead_as_before() {
    let dir = fresh_dir("report");
    let pool = store::open(&dir.join("leads.db"), 1).unwrap();
    let lead = dana(Source::Quote);
    let stored = store::insert_with(
        &pool,
        &lead,
        Box::new(|transaction, id| {
            enqueue(transaction, id, &Channel::ALL, "dana@example.com", false)
        }),
    )
    .unwrap();
    let Stored::New(lead_id) = stored else {
        panic!("{stored:?}")
    };
    let connection = pool.get().unwrap();
    let report = enqueue_report(&connection, r#"{"subject":"Website report"}"#).unwrap();
    let now = now_ms() + 1;

    let mail = due(&connection, Channel::Email, now, 10).unwrap();
    assert_eq!(mail.len(), 2);
    assert_eq!(
        (mail[0].kind, mail[0].lead().map(|l| l.id)),
        (Kind::Lead, Some(lead_id))
    );
    let last = &mail[1];
    assert_eq!(
        (last.id, last.kind, last.lead().is_none()),
        (report, Kind::Report, true)
    );
    assert!(matches!(&last.about, About::Report(payload) if payload.contains("Website report")));
    for channel in [Channel::Webhook, Channel::Autoreply] {
        let due = due(&connection, channel, now, 10).unwrap();
        assert_eq!(due.len(), 1, "{channel:?}");
        assert_eq!(
            (due[0].kind, due[0].lead().map(|l| l.id)),
            (Kind::Lead, Some(lead_id))
        );
    }

    // The table itself refuses a report without its message, or on another channel.
    let insert = |channel: &str, payload: Option<&str>| {
        connection.execute(
            "INSERT INTO deliveries (key, kind, channel, payload, created_at, created_ms, queued_ms, \
             next_attempt_ms) VALUES ('k', 'report', ?1, ?2, '', 0, 0, 0)",
            params![channel, payload],
        )
    };
    assert!(insert("email", None).is_err());
    assert!(insert("email", Some("not json")).is_err());
    assert!(insert("webhook", Some("{}")).is_err());
    assert!(insert("autoreply", Some("{}")).is_err());
    let listed = list(&connection, None, 10).unwrap();
    assert_eq!(listed.len(), 4);
    assert_eq!(
        (
            listed[0].kind.as_str(),
            listed[0].lead_id,
            listed[0].channel.as_str()
        ),
        ("report", None, "email")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deliveries_of_channels_turned_off_are_counted_without_writing_then_marked_failed() {
    let dir = fresh_dir("off");
    let database = dir.join("leads.db");
    let pool = store::open(&database, 1).unwrap();
    let lead = dana(Source::Quote);
    store::insert_with(
        &pool,
        &lead,
        Box::new(|transaction, id| {
            enqueue(
                transaction,
                id,
                &[Channel::Email, Channel::Webhook],
                "dana@example.com",
                false,
            )
        }),
    )
    .unwrap();
    drop(pool);
    // Read-only, as the server sees a database it may not write: counting works, and with every channel on there
    // is nothing to count.
    let read_only =
        Connection::open_with_flags(&database, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    assert_eq!(pending_unconfigured(&read_only, &Channel::ALL).unwrap(), 0);
    assert_eq!(
        pending_unconfigured(&read_only, &[Channel::Email]).unwrap(),
        1
    );
    assert_eq!(pending_unconfigured(&read_only, &[]).unwrap(), 2);
    let refused = fail_unconfigured(&read_only, &[]).unwrap_err();
    assert_eq!(
        refused.sqlite_error_code(),
        Some(rusqlite::ErrorCode::ReadOnly)
    );
    drop(read_only);
    let writable = Connection::open(&database).unwrap();
    assert_eq!(fail_unconfigured(&writable, &[Channel::Email]).unwrap(), 1);
    assert_eq!(
        pending_unconfigured(&writable, &[Channel::Email]).unwrap(),
        0
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each lane reads the index of pending deliveries in time order, never the whole table, and no further than it
/// needs: up to now for what is due, up to the end of its idle wait for when to wake (the query plans SQLite makes
/// on the migrated schema, and the answers).
#[test]
fn a_lane_reads_the_pending_index_by_time_and_no_further_than_it_needs() {
    let dir = fresh_dir("plans");
    let pool = store::open(&dir.join("leads.db"), 1).unwrap();
    let connection = pool.get().unwrap();
    for channel in ["email", "webhook", "autoreply"] {
        for (sql, arguments) in [
            (DUE_SQL, params![channel, 0, 10]),
            (NEXT_DUE_SQL, params![channel, 0]),
        ] {
            let plan = query_plan(&connection, sql, arguments);
            assert_eq!(
                plan,
                ["SEARCH deliveries USING INDEX deliveries_pending (next_attempt_ms<?)"],
                "{sql} ({channel})"
            );
        }
    }
    // A report queued now (e-mail only): due at once, found by the e-mail lane looking ahead, not by looking before
    // it was queued, nor by the webhook lane.
    enqueue_report(&connection, "{}").unwrap();
    let now = now_ms();
    assert!(
        next_due(&connection, Channel::Email, now + 5_000)
            .unwrap()
            .is_some()
    );
    assert_eq!(
        next_due(&connection, Channel::Email, now - 60_000).unwrap(),
        None
    );
    assert_eq!(
        next_due(&connection, Channel::Webhook, now + 5_000).unwrap(),
        None
    );
    drop(connection);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A claim's news to the agency (urgent) goes first whenever the lane sends anything, due yet or not; alone and
/// not yet due, it waits for its own time; the client's confirmation is not urgent; its own index is used.
#[test]
fn urgent_deliveries_go_first_whenever_the_lane_sends() {
    let dir = fresh_dir("urgent");
    let pool = store::open(&dir.join("leads.db"), 1).unwrap();
    let store_lead = |source: Source| {
        let lead = dana(source);
        let urgent = source == Source::Claim;
        match store::insert_with(
            &pool,
            &lead,
            Box::new(move |transaction, id| enqueue(transaction, id, &Channel::ALL, "", urgent)),
        )
        .unwrap()
        {
            Stored::New(id) | Stored::Repeat(id) => id,
        }
    };
    let quote = store_lead(Source::Quote);
    let claim = store_lead(Source::Claim);
    let connection = pool.get().unwrap();
    let now = now_ms() + 1;
    // What the lane takes at `now`: each lead's id and whether it is urgent.
    let due = |channel: Channel| -> Vec<(i64, bool)> {
        due_urgent_first(&connection, channel, now, 10)
            .unwrap()
            .iter()
            .map(|d| (d.lead().map_or(0, |l| l.id), d.urgent))
            .collect()
    };
    let retry_later = |lead: i64| {
        connection
            .execute(
                "UPDATE deliveries SET next_attempt_ms = ?1 WHERE lead_id = ?2",
                params![now + 60_000, lead],
            )
            .unwrap()
    };
    assert_eq!(due(Channel::Email), [(claim, true), (quote, false)]);
    // The claim's retry is later than the quote's: still first when the quote is due.
    retry_later(claim);
    assert_eq!(due(Channel::Webhook), [(claim, true), (quote, false)]);
    // With nothing else due, it keeps its own time.
    retry_later(quote);
    assert!(due(Channel::Email).is_empty());
    let plan = query_plan(&connection, URGENT_SQL, params!["email", 0, 10]);
    assert_eq!(
        plan,
        ["SEARCH deliveries USING INDEX deliveries_urgent (next_attempt_ms<?)"]
    );
    drop(connection);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bytes this process has written so far (`wchar` of `/proc/self/io`; 0 where there is none), for the
/// measurements below.
fn written_bytes() -> f64 {
    let io = std::fs::read_to_string("/proc/self/io").unwrap_or_default();
    io.lines()
        .find_map(|line| line.strip_prefix("wchar: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0.0)
}

/// The quote the measurements below store, one per thread and number.
fn measured_lead(thread: usize, n: usize, consent: &str) -> Lead {
    Lead {
        source: Source::Quote,
        status: Status::New,
        created_at: store::now(),
        name: "Maria Lopez".into(),
        email: "maria@lopezhauling.example".into(),
        phone: Some("+15550102030".into()),
        company: Some("Lopez Hauling LLC".into()),
        insurance_type: Some("hotshot".into()),
        vehicle_count: Some(2),
        consent_given: true,
        consent_text: Some(consent.to_string()),
        consent_version: Some("2026-11-26".into()),
        consent_at: Some(store::now()),
        ip: Some("127.0.0.1".into()),
        user_agent: Some("Mozilla/5.0 (X11; Linux x86_64) bench".into()),
        page_url: Some("/get-quote".into()),
        submission_id: Some(format!("{thread:04}-{n:012}")),
        ..Lead::default()
    }
}

/// What a lead's deliveries add to storing it, measured on the store alone (no HTTP, no sending): 16 threads
/// (`OUTBOX_THREADS`) submit quotes like the benchmark's through the group commit, with the agency's e-mail and
/// webhook queued in the lead's transaction and without. Prints leads/s, the process's CPU and the bytes it wrote per
/// lead for each, three rounds alternated (bench/RESULTS.md, issue 12).
/// `cargo test --release --lib outbox_cost -- --ignored --nocapture`
#[test]
#[ignore = "measurement"]
fn outbox_cost_per_lead() {
    let threads: usize = std::env::var("OUTBOX_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(16);
    const PER_THREAD: usize = 1_500;
    fn cpu_seconds() -> f64 {
        // SAFETY: getrusage writes only into the struct it is given.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(libc::RUSAGE_SELF, &mut usage);
            usage
        };
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
    let run = |label: &str, round: usize, channels: &'static [Channel]| -> (f64, f64, f64) {
        let dir = fresh_dir(&format!("cost-{label}-{round}"));
        let pool = store::open(&dir.join("leads.db"), threads as u32).unwrap();
        let consent = "I agree to be contacted about my quote by phone, text or e-mail. ".repeat(8);
        let (started, cpu, written) = (std::time::Instant::now(), cpu_seconds(), written_bytes());
        std::thread::scope(|scope| {
            for thread in 0..threads {
                let (pool, consent) = (pool.clone(), consent.clone());
                scope.spawn(move || {
                    for n in 0..PER_THREAD {
                        let lead = measured_lead(thread, n, &consent);
                        let token = store::details::new_token().unwrap();
                        store::insert_with(
                            &pool,
                            &lead,
                            Box::new(move |transaction, id| {
                                store::details::set_token(transaction, id, &token)?;
                                enqueue(
                                    transaction,
                                    id,
                                    channels,
                                    "maria@lopezhauling.example",
                                    false,
                                )
                            }),
                        )
                        .unwrap();
                    }
                });
            }
        });
        let (wall, cpu) = (started.elapsed().as_secs_f64(), cpu_seconds() - cpu);
        let written = written_bytes() - written;
        let _ = std::fs::remove_dir_all(&dir);
        let leads = (threads * PER_THREAD) as f64;
        (leads / wall, cpu / leads * 1e6, written / leads)
    };
    let mut totals = [(0.0, 0.0, 0.0); 2];
    for round in 0..3 {
        let both: &'static [Channel] = &[Channel::Email, Channel::Webhook];
        for (which, channels) in [&[][..], both].into_iter().enumerate() {
            let (rate, cpu, written) =
                run(if which == 0 { "none" } else { "both" }, round, channels);
            println!(
                "round {round}, {}: {rate:.0} leads/s, {cpu:.1} µs CPU and {written:.0} bytes written per lead",
                if which == 0 {
                    "no deliveries"
                } else {
                    "e-mail + webhook"
                }
            );
            totals[which].0 += rate;
            totals[which].1 += cpu;
            totals[which].2 += written;
        }
    }
    println!(
        "with deliveries: {:.3}x the leads/s, {:.3}x the CPU and {:.3}x the bytes written per lead",
        totals[1].0 / totals[0].0,
        totals[1].1 / totals[0].1,
        totals[1].2 / totals[0].2
    );
}

/// What `secure_delete` (on for every connection since issue 25, so that `truckins leads forget` leaves no copy of a
/// person in the file) costs a lead's path through the store: leads stored with their e-mail and webhook deliveries
/// by 16 threads through the group commit, then every delivery marked sent in the worker's batches of 64, on the same
/// code with the pragma ON (as shipped) and OFF (set back on each of the pool's connections), three rounds
/// alternated. Prints leads/s, the time to mark the deliveries, and the bytes written per lead.
/// `cargo test --release --lib secure_delete_cost -- --ignored --nocapture`
#[test]
#[ignore = "measurement"]
fn secure_delete_cost_per_lead() {
    const THREADS: usize = 16;
    const PER_THREAD: usize = 1_000;
    let run = |secure: bool, round: usize| -> (f64, f64, f64) {
        let dir = std::env::temp_dir().join(format!(
            "truckins-secure-delete-{secure}-{round}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let pool = store::open(&dir.join("leads.db"), THREADS as u32).unwrap();
        if !secure {
            // Every connection the pool will hand out, taken at once and set back to SQLite's default.
            let all: Vec<_> = (0..THREADS).map(|_| pool.get().unwrap()).collect();
            for connection in &all {
                connection
                    .execute_batch("PRAGMA secure_delete = OFF")
                    .unwrap();
            }
        }
        let consent = "I agree to be contacted about my quote by phone, text or e-mail. ".repeat(8);
        let (started, written) = (std::time::Instant::now(), written_bytes());
        std::thread::scope(|scope| {
            for thread in 0..THREADS {
                let (pool, consent) = (pool.clone(), consent.clone());
                scope.spawn(move || {
                    for n in 0..PER_THREAD {
                        let lead = measured_lead(thread, n, &consent);
                        store::insert_with(
                            &pool,
                            &lead,
                            Box::new(move |transaction, id| {
                                enqueue(
                                    transaction,
                                    id,
                                    &[Channel::Email, Channel::Webhook],
                                    "maria@lopezhauling.example",
                                    false,
                                )
                            }),
                        )
                        .unwrap();
                    }
                });
            }
        });
        let stored = started.elapsed().as_secs_f64();
        let marking = std::time::Instant::now();
        let connection = pool.get().unwrap();
        for channel in [Channel::Email, Channel::Webhook] {
            loop {
                let batch = due(&connection, channel, i64::MAX, 64).unwrap();
                if batch.is_empty() {
                    break;
                }
                let updates: Vec<(i64, Update)> =
                    batch.iter().map(|d| (d.id, Update::Sent)).collect();
                record_all(&connection, &updates).unwrap();
            }
        }
        let marked = marking.elapsed().as_secs_f64();
        let written = written_bytes() - written;
        drop(connection);
        let _ = std::fs::remove_dir_all(&dir);
        let leads = (THREADS * PER_THREAD) as f64;
        (leads / stored, marked, written / leads)
    };
    let mut totals = [(0.0, 0.0, 0.0); 2];
    for round in 0..3 {
        for (which, secure) in [false, true].into_iter().enumerate() {
            let (rate, marked, written) = run(secure, round);
            println!(
                "round {round}, secure_delete {}: {rate:.0} leads/s, deliveries marked sent in {marked:.2} s, \
                 {written:.0} bytes written per lead",
                if secure { "ON " } else { "OFF" }
            );
            totals[which].0 += rate;
            totals[which].1 += marked;
            totals[which].2 += written;
        }
    }
    println!(
        "secure_delete ON: {:.3}x the leads/s, {:.3}x the time to mark deliveries sent, {:.3}x the bytes written per \
         lead",
        totals[1].0 / totals[0].0,
        totals[1].1 / totals[0].1,
        totals[1].2 / totals[0].2
    );
}

#[test]
fn the_first_copies_waited_for_are_read_by_lead_however_long_the_backlog_and_only_when_due() {
    let dir = fresh_dir("awaited");
    let pool = store::open(&dir.join("leads.db"), 1).unwrap();
    let mut ids = Vec::new();
    for n in 0..80 {
        let lead = Lead {
            source: Source::Quote,
            status: Status::New,
            created_at: store::now(),
            name: format!("Lead {n}"),
            email: format!("lead{n}@example.com"),
            ..Lead::default()
        };
        let stored = store::insert_with(
            &pool,
            &lead,
            Box::new(|transaction, id| enqueue(transaction, id, &Channel::ALL, "", false)),
        )
        .unwrap();
        let Stored::New(id) = stored else {
            panic!("{stored:?}")
        };
        ids.push(id);
    }
    let connection = pool.get().unwrap();
    let now = now_ms() + 1;
    // The newest lead is behind 79 others on its lane, yet read first when waited for; only its kind `lead` news,
    // only on the lane asked.
    let newest = *ids.last().unwrap();
    let awaited = due_awaited(&connection, Channel::Email, &[newest], now).unwrap();
    assert_eq!(awaited.len(), 1);
    assert_eq!(
        (
            awaited[0].kind,
            awaited[0].channel,
            awaited[0].lead().map(|l| l.id)
        ),
        (Kind::Lead, Channel::Email, Some(newest))
    );
    assert!(
        due_awaited(&connection, Channel::Email, &[], now)
            .unwrap()
            .is_empty()
    );
    // One not due yet (a retry waiting its turn) is not read again at once.
    connection
        .execute(
            "UPDATE deliveries SET next_attempt_ms = ?1 WHERE lead_id = ?2",
            params![now + 60_000, newest],
        )
        .unwrap();
    assert!(
        due_awaited(&connection, Channel::Email, &[newest], now)
            .unwrap()
            .is_empty()
    );
    // Read through the lead's own index, not the whole table.
    let plan = query_plan(&connection, AWAITED_SQL, params!["email", "[1]", now]);
    assert!(
        plan.iter()
            .any(|step| step.contains("deliveries_lead_channel")),
        "{plan:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
