//! The socket client and the follower against sockets that answer well, slowly, wrongly or not at all. The socket's
//! other end here is a stand-in for Litestream (an external program; the real one is run by
//! `tests/integration/replica.rs`): it answers each request with what the test gives it.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rocket::tokio::io::{AsyncReadExt, AsyncWriteExt};
use rocket::tokio::net::UnixListener;
use rocket::tokio::sync::Mutex as AsyncMutex;
use rocket::tokio::{self, sync::watch};

use super::*;
use crate::notify::first_copy::FirstCopies;

/// A folder of its own for a test's socket.
fn socket_path(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "truckins-replica-{label}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("litestream.sock")
}

/// What the stand-in does with one request.
#[derive(Clone)]
enum Behaviour {
    /// Answers with this status and body.
    Answer(u16, String),
    /// Says something that is not HTTP.
    Garbage,
    /// Reads the request and never answers.
    Silent,
    /// Answers as Litestream would: one more transaction for each request, on the replica at once; a sync with
    /// `wait` is held while `hold` is true.
    Litestream,
}

struct StandIn {
    behaviour: AsyncMutex<Behaviour>,
    /// The requests received, as text.
    requests: AsyncMutex<Vec<String>>,
    /// Litestream's transaction: one more for each sync.
    txid: AtomicU64,
    /// While true, a sync with `wait` holds its answer.
    hold: watch::Sender<bool>,
}

impl StandIn {
    fn start(path: &std::path::Path, behaviour: Behaviour) -> Arc<StandIn> {
        let listener = UnixListener::bind(path).unwrap();
        let stand_in = Arc::new(StandIn {
            behaviour: AsyncMutex::new(behaviour),
            requests: AsyncMutex::new(Vec::new()),
            txid: AtomicU64::new(0),
            hold: watch::Sender::new(false),
        });
        let serving = stand_in.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serving.clone().serve(stream));
            }
        });
        stand_in
    }

    async fn serve(self: Arc<Self>, mut stream: tokio::net::UnixStream) {
        let mut request = Vec::new();
        let mut buffer = [0u8; 4096];
        // The head, then as much body as Content-Length says.
        loop {
            let Ok(read) = stream.read(&mut buffer).await else {
                return;
            };
            if read == 0 {
                return;
            }
            request.extend_from_slice(&buffer[..read]);
            let text = String::from_utf8_lossy(&request).to_string();
            if let Some(end) = text.find("\r\n\r\n") {
                let length = text
                    .lines()
                    .find_map(|line| line.strip_prefix("content-length: "))
                    .and_then(|n| n.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                if request.len() >= end + 4 + length {
                    break;
                }
            }
        }
        let text = String::from_utf8_lossy(&request).to_string();
        self.requests.lock().await.push(text.clone());
        let behaviour = self.behaviour.lock().await.clone();
        let (status, body) = match behaviour {
            Behaviour::Answer(status, body) => (status, body),
            Behaviour::Garbage => {
                let _ = stream.write_all(b"SSH-2.0-OpenSSH_9.2\r\n").await;
                return;
            }
            Behaviour::Silent => {
                // Holds the connection open without a word until the client gives up.
                let _ = stream.read(&mut buffer).await;
                return;
            }
            Behaviour::Litestream => {
                let txid = self.txid.fetch_add(1, Ordering::SeqCst) + 1;
                if text.contains("\"wait\":true") {
                    let _ = self.hold.subscribe().wait_for(|held| !held).await;
                }
                let body = format!(
                    r#"{{"status":"synced","path":"/x","txid":{txid},"replicated_txid":{txid}}}"#
                );
                (200, body)
            }
        };
        let answer = format!(
            "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(answer.as_bytes()).await;
    }
}

const SHORT: Duration = Duration::from_millis(300);

#[rocket::async_test]
async fn a_sync_answer_gives_both_positions_and_the_request_names_the_database_and_the_wait() {
    let path = socket_path("answer");
    let stand_in = StandIn::start(
        &path,
        Behaviour::Answer(
            200,
            r#"{"status":"synced","path":"/srv/leads.db","txid":42,"replicated_txid":41}"#.into(),
        ),
    );
    let client = Client::new(&path, std::path::Path::new("/srv/leads.db"));
    let positions = client.sync(true, SHORT * 10).await.unwrap();
    assert_eq!(
        positions,
        Positions {
            local: 42,
            replicated: 41
        }
    );
    let requests = stand_in.requests.lock().await;
    assert!(
        requests[0].starts_with("POST /sync HTTP/1.1"),
        "{}",
        requests[0]
    );
    assert!(
        requests[0].contains(r#""path":"/srv/leads.db""#),
        "{}",
        requests[0]
    );
    assert!(requests[0].contains(r#""wait":true"#), "{}", requests[0]);
}

#[rocket::async_test]
async fn no_socket_a_silent_one_and_one_that_is_not_litestream_are_each_a_reason() {
    let client = Client::new(&socket_path("none"), std::path::Path::new("/srv/leads.db"));
    let reason = client.sync(false, SHORT).await.unwrap_err();
    assert!(reason.contains("no answer at"), "{reason}");

    let reason_from = |label: &str, behaviour: Behaviour| {
        let path = socket_path(label);
        StandIn::start(&path, behaviour);
        async move {
            Client::new(&path, std::path::Path::new("/srv/leads.db"))
                .sync(false, SHORT)
                .await
                .unwrap_err()
        }
    };
    let reason = reason_from("silent", Behaviour::Silent).await;
    assert!(reason.contains("no answer within 0.3 s"), "{reason}");
    let reason = reason_from("garbage", Behaviour::Garbage).await;
    assert!(reason.contains("no answer at"), "{reason}");
    let reason = reason_from("json", Behaviour::Answer(200, r#"{"status":"ok"}"#.into())).await;
    assert!(reason.contains("not Litestream's"), "{reason}");
}

#[rocket::async_test]
async fn litestream_refusals_say_what_to_fix() {
    let path = socket_path("refusals");
    let stand_in = StandIn::start(
        &path,
        Behaviour::Answer(404, r#"{"error":"database not found"}"#.into()),
    );
    let client = Client::new(&path, std::path::Path::new("/srv/leads.db"));
    let reason = client.sync(false, SHORT).await.unwrap_err();
    assert!(
        reason.contains("does not replicate /srv/leads.db") && reason.contains("litestream.yml"),
        "{reason}"
    );
    *stand_in.behaviour.lock().await = Behaviour::Answer(
        500,
        r#"{"error":"sync database: replica sync: connection refused"}"#.into(),
    );
    let reason = client.sync(true, SHORT).await.unwrap_err();
    assert!(
        reason.contains("500") && reason.contains("replica sync: connection refused"),
        "{reason}"
    );
}

fn settings(socket: &std::path::Path, wait: Duration) -> Settings {
    Settings {
        database: "/srv/leads.db".into(),
        replica_socket: Some(socket.to_path_buf()),
        replica_acknowledge: true,
        replica_wait: wait.as_secs_f64(),
        ..Settings::default()
    }
}

#[rocket::async_test]
async fn a_lead_waits_for_the_replica_and_leads_at_the_same_moment_share_one_sync() {
    let path = socket_path("shared");
    let stand_in = StandIn::start(&path, Behaviour::Litestream);
    let replica = Replica::start(&settings(&path, Duration::from_secs(30)));
    // The first look (without wait) at start, then hold every sync with wait.
    stand_in.hold.send_replace(true);
    let leads: Vec<_> = (0..8)
        .map(|_| {
            let replica = replica.clone();
            tokio::spawn(async move { replica.confirm().await })
        })
        .collect();
    // Every lead issued its ticket and a sync with `wait` is held: until it is released, no lead is answered.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let issued = lock(&replica.0.as_ref().unwrap().state).issued;
        let held = stand_in
            .requests
            .lock()
            .await
            .iter()
            .any(|request| request.contains("\"wait\":true"));
        if issued == 8 && held {
            break;
        }
        assert!(Instant::now() < deadline, "8 tickets and a held sync");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(leads.iter().all(|lead| !lead.is_finished()));
    stand_in.hold.send_replace(false);
    for lead in leads {
        assert_eq!(lead.await.unwrap(), Confirmation::Replicated);
    }
    let syncs_with_wait = stand_in
        .requests
        .lock()
        .await
        .iter()
        .filter(|request| request.contains("\"wait\":true"))
        .count();
    assert!(
        syncs_with_wait <= 2,
        "eight leads at once took {syncs_with_wait} syncs"
    );
    let health = replica.health().await.unwrap();
    assert_eq!(health["litestream"], "ok");
    assert_eq!(health["behind"], false);
    assert_eq!(health["oldest_unreplicated_seconds"], 0.0);
}

#[rocket::async_test]
async fn past_the_wait_a_lead_is_answered_the_replica_is_behind_and_the_next_leads_do_not_wait() {
    let path = socket_path("behind");
    let stand_in = StandIn::start(&path, Behaviour::Litestream);
    let replica = Replica::start(&settings(&path, SHORT));
    stand_in.hold.send_replace(true);
    assert_eq!(replica.confirm().await, Confirmation::TimedOut);
    let health = replica.health().await.unwrap();
    assert_eq!(health["behind"], true, "{health}");
    assert_eq!(health["litestream"], "ok", "{health}");
    // Nothing confirmed since: answered at once, without a wait of its own (the held sync is still held).
    assert_eq!(replica.confirm().await, Confirmation::AtOnce);
    // The replica catches up: leads wait for it again.
    stand_in.hold.send_replace(false);
    let deadline = Instant::now() + Duration::from_secs(30);
    while replica.health().await.unwrap()["behind"] == true {
        assert!(Instant::now() < deadline, "the replica never caught up");
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(replica.confirm().await, Confirmation::Replicated);
}

#[rocket::async_test]
async fn while_the_replica_keeps_up_the_agency_s_copy_counts_only_once_the_wait_has_passed() {
    let path = socket_path("copied");
    let stand_in = StandIn::start(&path, Behaviour::Litestream);
    let replica = Replica::start(&settings(&path, SHORT));
    let copies = Arc::new(FirstCopies::default());
    // The replica not behind yet but holding the sync, the lead's copy already taken: it is answered by the copy,
    // but not before the replica has had the whole wait (so a lead acknowledged with the store up is on it).
    stand_in.hold.send_replace(true);
    copies.taken(1);
    let started = Instant::now();
    let confirmation = replica.acknowledge(Some(copies.expect(1))).await;
    assert_eq!(confirmation, Confirmation::Copied);
    assert!(started.elapsed() >= SHORT, "{:?}", started.elapsed());
    let counts = &replica.health().await.unwrap()["leads_acknowledged"];
    assert_eq!(counts["agency_copy"], 1, "{counts}");
    assert_eq!(counts["unconfirmed"], 0, "{counts}");
}

#[rocket::async_test]
async fn behind_a_lead_waits_for_its_copy_alone_and_caught_up_means_the_commit_it_fell_behind_at() {
    let path = socket_path("caught-up");
    let stand_in = StandIn::start(&path, Behaviour::Litestream);
    let replica = Replica::start(&settings(&path, SHORT));
    let copies = Arc::new(FirstCopies::default());
    stand_in.hold.send_replace(true);
    assert_eq!(replica.confirm().await, Confirmation::TimedOut);
    let behind = replica
        .behind()
        .expect("behind after a lead's wait ran out");
    assert!(behind.waiting >= 1, "{behind:?}");
    // A copy taken before the next lead: it is acknowledged by it, not at once and not by the replica.
    copies.taken(2);
    assert_eq!(
        replica.acknowledge(Some(copies.expect(2))).await,
        Confirmation::Copied
    );
    // Traffic goes on (a lead every few milliseconds, each a commit) while the replica comes back: it has caught up
    // once the commit it fell behind at is there, whatever came since.
    let traffic = {
        let replica = replica.clone();
        tokio::spawn(async move {
            loop {
                replica.confirm().await;
                tokio::time::sleep(Duration::from_millis(3)).await;
            }
        })
    };
    stand_in.hold.send_replace(false);
    let deadline = Instant::now() + Duration::from_secs(30);
    while replica.behind().is_some() {
        assert!(Instant::now() < deadline, "never caught up under traffic");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    traffic.abort();
    let health = replica.health().await.unwrap();
    assert_eq!(health["behind"], false, "{health}");
    assert!(
        health["leads_acknowledged"]["unconfirmed"]
            .as_u64()
            .unwrap()
            >= 1,
        "{health}"
    );
}

#[rocket::async_test]
async fn without_litestream_a_lead_is_answered_within_the_wait_and_health_says_so() {
    let path = socket_path("absent");
    let replica = Replica::start(&settings(&path, SHORT));
    assert_eq!(replica.confirm().await, Confirmation::TimedOut);
    let health = replica.health().await.unwrap();
    assert_eq!(health["litestream"], "unavailable", "{health}");
    assert_eq!(health["behind"], true, "{health}");
    assert!(health["txid"].is_null(), "{health}");
    assert!(
        !health.to_string().contains("/srv"),
        "no path of the machine: {health}"
    );
}
