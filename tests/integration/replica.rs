//! Off-site replication with Litestream, proved with real processes: Debian's OpenSSH server on 127.0.0.1 holds the
//! replica (SFTP), Litestream 0.5 replicates the leads file to it and runs the real `truckins serve` as its `-exec`
//! child, several clients flood quote submissions, and the drill is what losing the machine looks like: SIGKILL of
//! the server and Litestream, the leads file, its WAL and Litestream's state deleted, then Litestream started again
//! the same way, restoring the file from the replica before the server opens it.
//!
//! - With `replica_acknowledge` the drill loses no acknowledged lead: every quote answered 201 is back under the id
//!   it was given, the restored file passes `PRAGMA integrity_check`, and the notifications still pending at the
//!   kill (the webhook receiver refused them until then) are sent after the restore.
//! - The replica down (sshd killed, its sessions too) in the middle of a flood ([`outage`]): every lead is still
//!   acknowledged, each once the agency's relay took its e-mail, the owner is e-mailed that the replica is behind and
//!   again when it has caught up (within 30 s of the store's return, the flood going on), and a drill then loses
//!   nothing acknowledged, while a status link e-mailed before the loss works after the restore.
//! - Without `replica_acknowledge` the same drill prints how many acknowledged leads were lost (the commits of the
//!   last second, not yet copied): a figure, not an assertion; the restored file passes `integrity_check`. That the
//!   figure is usually above zero is what makes the first drill a real check.
//!
//! Everything listens on 127.0.0.1 only; every wait is for an event with a deadline (see `harness`).

mod harness;
mod outage;

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use crate::notify::support::{Answer, Receiver, deliveries};
use harness::{Acknowledged, Seen, Setup, Stack, flood_for, health, lost, read_leads, wait_until};

/// Client threads of a flood.
const CLIENTS: usize = 6;
/// How long a drill floods before the kill.
const FLOOD: Duration = Duration::from_secs(3);
/// At most this many leads in a flood (a bound on the notifications to send after the restore, should leads be
/// answered far faster than expected).
const MOST: usize = 5000;

/// A server's settings: fast notification retries, a webhook to `receiver`, and the replica's.
fn settings(
    setup: &Setup,
    receiver: &Receiver,
    acknowledge: bool,
    wait: Option<&str>,
) -> Vec<(&'static str, String)> {
    let mut env = crate::notify::env(None, Some(&receiver.url()));
    env.push((
        "TRUCKINS_REPLICA_SOCKET",
        setup.socket.display().to_string(),
    ));
    if acknowledge {
        env.push(("TRUCKINS_REPLICA_ACKNOWLEDGE", "true".to_string()));
    }
    if let Some(wait) = wait {
        env.push(("TRUCKINS_REPLICA_WAIT", wait.to_string()));
    }
    env
}

/// Floods `stack` for [`FLOOD`], kills the server and Litestream in the middle of it, and returns what the clients
/// saw (every 201 was read before the kill).
fn kill_mid_flood(stack: &mut Stack, label: &str) -> Seen {
    let flood = flood_for(stack.port, CLIENTS, label, FLOOD, MOST);
    stack.kill();
    let seen = flood.finish();
    assert!(
        !seen.acknowledged.is_empty(),
        "no lead was acknowledged in {FLOOD:?}: {}",
        stack.log_tail()
    );
    assert!(
        seen.other.is_empty(),
        "answers other than 201: {:?}",
        seen.other
    );
    seen
}

/// The disk lost, then Litestream started again the same way: it restores the leads file before the server opens
/// it. Returns the new stack, `integrity_check`'s answer and the restored leads.
///
/// The file the killed server left is checked first (sound, every acknowledged lead in it: what `durability.rs`
/// proves), so that a failure below is the replica's, not the server's.
fn restore(
    setup: &Setup,
    acknowledged: &[Acknowledged],
    env: &[(&'static str, String)],
    label: &str,
) -> (Stack, String, HashMap<String, i64>) {
    let (check, local) = read_leads(&setup.database);
    assert_eq!(
        check, "ok",
        "PRAGMA integrity_check of the file the killed server left"
    );
    assert_none_lost(acknowledged, &local, "in the file the killed server left");
    setup.lose_the_disk();
    let stack = Stack::start(setup, label, env);
    assert!(
        stack.restored(),
        "Litestream did not restore the leads file from the replica: {}",
        stack.log_tail()
    );
    let (check, stored) = read_leads(&setup.database);
    (stack, check, stored)
}

fn assert_none_lost(acknowledged: &[Acknowledged], stored: &HashMap<String, i64>, place: &str) {
    let lost = lost(acknowledged, stored);
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged leads are not {place} under the id they were given, e.g. {:?}",
        lost.len(),
        acknowledged.len(),
        &lost[..lost.len().min(5)]
    );
}

/// The lead ids of the webhook requests the receiver answered 200.
fn notified(receiver: &Receiver) -> HashSet<i64> {
    receiver
        .received()
        .iter()
        .filter(|request| request.answer == Answer::Status(200))
        .filter_map(|request| request.json()["lead"]["id"].as_i64())
        .collect()
}

#[test]
fn drill_with_acknowledge_loses_no_acknowledged_lead_and_sends_pending_notifications() {
    let started = Instant::now();
    let setup = Setup::new("replica-drill");
    // The receiver refuses every delivery until the restore: they are all pending at the kill.
    let receiver = Receiver::start(&[], Answer::Status(503));
    let env = settings(&setup, &receiver, true, None);
    let mut stack = Stack::start(&setup, "first", &env);
    let (status, body) = health(stack.port);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["replica"]["litestream"], "ok", "{body}");
    assert_eq!(body["replica"]["acknowledge"], true, "{body}");

    let seen = kill_mid_flood(&mut stack, "drill");
    // Every acknowledged lead's webhook delivery is pending in the file the killed server left: the receiver
    // refused them all.
    let ids: Vec<i64> = seen.acknowledged.iter().map(|a| a.id).collect();
    let pending: HashSet<i64> = deliveries(&setup.database)
        .iter()
        .filter(|d| d.channel == "webhook" && d.state == "pending")
        .map(|d| d.lead_id)
        .collect();
    assert!(
        ids.iter().all(|id| pending.contains(id)),
        "every acknowledged lead has a pending webhook delivery at the kill"
    );
    assert!(
        notified(&receiver).is_empty(),
        "nothing was sent before the kill"
    );
    let replica_files = setup.replica_files();
    receiver.then(Answer::Status(200));
    let (stack, check, stored) = restore(&setup, &seen.acknowledged, &env, "restored");
    println!(
        "drill with acknowledge: {} leads acknowledged in {FLOOD:?} by {CLIENTS} clients (slowest answer {:?}, {} \
         cut off by the kill), {} pending deliveries at the kill, {} leads restored from {replica_files} replica \
         files",
        seen.acknowledged.len(),
        seen.slowest(),
        seen.unanswered,
        pending.len(),
        stored.len()
    );
    assert_eq!(check, "ok", "PRAGMA integrity_check of the restored file");
    assert_none_lost(&seen.acknowledged, &stored, "back after the restore");

    // The deliveries pending at the kill were restored with their leads, and the server sends them now.
    let sent = wait_until(
        "every acknowledged lead's webhook to be sent after the restore",
        || {
            let notified = notified(&receiver);
            ids.iter()
                .all(|id| notified.contains(id))
                .then_some(notified.len())
        },
    );
    wait_until("every restored delivery to be marked sent", || {
        deliveries(&setup.database)
            .iter()
            .all(|d| d.state == "sent")
            .then_some(())
    });
    let (status, body) = health(stack.port);
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["replica"]["litestream"], "ok",
        "after the restore: {body}"
    );
    println!(
        "after the restore: {sent} notifications sent, /healthz {}; {:?} in all",
        body["replica"],
        started.elapsed()
    );
}

#[test]
fn drill_without_acknowledge_prints_the_leads_it_lost() {
    let started = Instant::now();
    let setup = Setup::new("replica-no-ack");
    let receiver = Receiver::start(&[], Answer::Status(503));
    let env = settings(&setup, &receiver, false, None);
    let mut stack = Stack::start(&setup, "first", &env);
    let seen = kill_mid_flood(&mut stack, "no-ack");
    receiver.then(Answer::Status(200));
    let (_stack, check, stored) = restore(&setup, &seen.acknowledged, &env, "restored");
    let lost = lost(&seen.acknowledged, &stored);
    let last = seen.acknowledged.last().map(|a| a.at);
    let oldest_lost = lost.iter().map(|a| a.at).min();
    eprintln!(
        "drill without acknowledge: {} of {} acknowledged leads lost ({} restored; the oldest lost was acknowledged \
         {:?} before the last answer); {:?} in all",
        lost.len(),
        seen.acknowledged.len(),
        stored.len(),
        last.zip(oldest_lost).map(|(last, oldest)| last - oldest),
        started.elapsed()
    );
    assert_eq!(check, "ok", "PRAGMA integrity_check of the restored file");
}

/// Latency percentile `p` (0..=100) of `took`, sorted.
fn percentile(sorted: &[Duration], p: usize) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

/// A benchmark, not a test (`--ignored`): leads per second and latency with `replica_acknowledge` on against off,
/// in one run, 16 keep-alive clients (`BENCH_CLIENTS`) posting quotes for 10 s a round (`BENCH_SECONDS`), rounds
/// off, on, on, off, each on a fresh leads file replicated over SFTP on loopback; then the time a lost machine takes
/// to serve again with every lead (Litestream's restore and the server's start, timed). Asserts only that no
/// acknowledged lead is lost with acknowledgement on.
///
/// Run: `cargo test --release --test integration replica::bench -- --ignored --nocapture`, or from the debug build
/// of the tests with `BENCH_BINARY=target/release/truckins` (the server is what is measured).
#[test]
#[ignore = "a benchmark: run with --ignored --nocapture"]
fn bench_acknowledge_on_against_off() {
    let number = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|value| value.parse().ok())
            .unwrap_or(default)
    };
    let clients = number("BENCH_CLIENTS", 16) as usize;
    let length = Duration::from_secs(number("BENCH_SECONDS", 10));
    let mut rounds: Vec<(bool, Vec<Duration>, f64)> = Vec::new();
    for (round, acknowledge) in [false, true, true, false].into_iter().enumerate() {
        let setup = Setup::new(&format!("replica-bench-{round}"));
        let receiver = Receiver::start(&[], Answer::Status(200));
        let mut env = settings(&setup, &receiver, acknowledge, None);
        // The leads alone: no notifications to send beside them.
        env.retain(|(name, _)| name.starts_with("TRUCKINS_REPLICA"));
        let stack = Stack::start(&setup, "bench", &env);
        let started = Instant::now();
        let flood = flood_for(stack.port, clients, "bench", length, usize::MAX);
        let seen = flood.finish();
        let elapsed = started.elapsed().as_secs_f64();
        assert!(
            seen.other.is_empty(),
            "answers other than 201: {:?}",
            seen.other
        );
        let mut took: Vec<Duration> = seen.acknowledged.iter().map(|a| a.took).collect();
        took.sort();
        let rate = took.len() as f64 / elapsed;
        eprintln!(
            "round {} acknowledge {:<5}: {:>6} leads in {elapsed:.1} s = {rate:>7.1}/s; p50 {:>6.1} ms, p90 {:>6.1} ms, \
             p99 {:>6.1} ms, max {:>6.1} ms",
            round + 1,
            if acknowledge { "on" } else { "off" },
            took.len(),
            percentile(&took, 50).as_secs_f64() * 1e3,
            percentile(&took, 90).as_secs_f64() * 1e3,
            percentile(&took, 99).as_secs_f64() * 1e3,
            took.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        );
        if acknowledge && round == 2 {
            // The machine lost after the round: how long until it serves every lead again.
            let mut stack = stack;
            stack.kill();
            setup.lose_the_disk();
            let restarting = Instant::now();
            let again = Stack::start(&setup, "restored", &env);
            let serving = restarting.elapsed();
            let (check, stored) = read_leads(&setup.database);
            assert_eq!(check, "ok");
            assert_none_lost(&seen.acknowledged, &stored, "restored");
            eprintln!(
                "restore: {} leads back and /healthz 200 {:.1} s after Litestream was started on the empty machine",
                stored.len(),
                serving.as_secs_f64()
            );
            drop(again);
        }
        rounds.push((acknowledge, took, rate));
    }
    for acknowledge in [false, true] {
        let mut all: Vec<Duration> = rounds
            .iter()
            .filter(|(on, _, _)| *on == acknowledge)
            .flat_map(|(_, took, _)| took.iter().copied())
            .collect();
        all.sort();
        let rate: f64 = rounds
            .iter()
            .filter(|(on, _, _)| *on == acknowledge)
            .map(|(_, _, rate)| rate)
            .sum::<f64>()
            / 2.0;
        eprintln!(
            "acknowledge {:<3} ({clients} clients, SFTP on loopback): {rate:>7.1} leads/s, p50 {:.1} ms, p99 {:.1} ms",
            if acknowledge { "on" } else { "off" },
            percentile(&all, 50).as_secs_f64() * 1e3,
            percentile(&all, 99).as_secs_f64() * 1e3,
        );
    }
}

/// A server told Litestream's socket where nothing listens: it starts and takes leads (answered within
/// `replica_wait`), its log says Litestream does not answer, and `/healthz` (200) says so without naming the path.
#[test]
fn a_server_whose_litestream_is_not_there_says_so_and_still_takes_leads() {
    let dir = crate::common::process::TempDir::new("replica-absent");
    let database = dir.path().join("leads.db");
    let socket = dir.path().join("no-litestream.sock");
    let server = crate::common::process::Server::start_with_env(
        dir.path(),
        "absent",
        &["--database", database.to_str().unwrap()],
        &[
            ("TRUCKINS_REPLICA_SOCKET", socket.to_str().unwrap()),
            ("TRUCKINS_REPLICA_ACKNOWLEDGE", "true"),
            ("TRUCKINS_REPLICA_WAIT", "0.5"),
        ],
    );
    let logged = |server: &crate::common::process::Server| {
        format!("{}{}", server.stdout_text(), server.stderr_text())
    };
    wait_until("the log to say Litestream does not answer", || {
        logged(&server)
            .contains("Litestream is not confirming the copy")
            .then_some(())
    });
    let reply = server
        .http()
        .post_json("/api/leads/quote", &crate::common::valid_quote())
        .unwrap();
    assert_eq!(reply.status, 201, "{}", reply.text());
    let (status, body) = health(server.port);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["replica"]["litestream"], "unavailable", "{body}");
    assert_eq!(body["replica"]["behind"], true, "{body}");
    assert!(
        !body.to_string().contains("no-litestream.sock"),
        "/healthz names no path of the machine: {body}"
    );
    assert!(
        logged(&server).contains("not confirmed on the replica, the oldest for"),
        "the log says the replica is behind: {}",
        logged(&server)
    );
}
