//! A graceful stop (SIGTERM) while e-mails are being sent: the relay has taken messages and not yet answered. The
//! sends under way are finished and recorded, not dropped and made again after the restart, so that no message
//! goes out twice (issue 36: 8 of 1,836 leads were sent twice with the same Message-ID).

use std::collections::HashMap;

use crate::common::process::{TempDir, free_port, send_sigterm};
use crate::notify::support::{Smtp, SmtpOptions, deliveries, wait_until};
use crate::notify::{env, lead, plain_smtp, serve};

/// The SMTP server takes each message (it is in its folder) but holds its answer to DATA until [`Smtp::accept`].
fn hold(smtp: &Smtp) {
    std::fs::write(smtp.dir.join("control.json"), r#"{"hold": true}"#).unwrap();
}

/// Whether process `pid` has exited (a zombie, not yet reaped by the test).
fn exited(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'))
    })
}

#[test]
fn a_graceful_stop_while_sending_finishes_what_the_relay_took_and_sends_nothing_twice() {
    let dir = TempDir::new("notify-stop");
    let database = dir.path().join("leads.db");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    hold(&smtp);
    let mut env = env(Some(&plain_smtp(smtp.port)), None);
    // A relay's held answer must not time out while the test sets the stop up (an SMTP command has three times
    // `notify_timeout`: 90 s), and the stop's grace must not end before the test lets the relay answer: both far
    // above what a slow machine takes between the server's word and `smtp.accept()`, so only the events order the
    // test. The server exits as soon as the sends are recorded, not at the end of the grace.
    env.retain(|(key, _)| *key != "TRUCKINS_NOTIFY_TIMEOUT");
    env.push(("TRUCKINS_NOTIFY_TIMEOUT", "30".to_string()));
    env.push(("ROCKET_SHUTDOWN", "{grace=60}".to_string()));
    let mut server = serve(&database, "first", &env, &[]);
    for n in 0..20 {
        lead(
            server.port,
            &format!("stop-{n}@example.com"),
            &format!("stop-{n}"),
        );
    }
    // The relay has messages and their senders wait for its answer: the stop comes now.
    smtp.wait_for_mails(1);
    send_sigterm(server.pid());
    // The answer is held until the server either says it finishes the sends under way or has gone (the bug: it
    // dropped them at once), so both orders are seen the same way every run.
    wait_until("the server to finish its sends or to exit", || {
        let said = server.stdout_text() + &server.stderr_text();
        (exited(server.pid()) || said.contains("attempts under way are finished first"))
            .then_some(())
    });
    let said = server.stdout_text() + &server.stderr_text();
    if let Some((_, rest)) = said.split_once("are finished first (within ") {
        let seconds: u64 = rest.split(' ').next().unwrap().parse().unwrap();
        assert!(
            seconds >= 50,
            "the test's grace of 60 s is in force: {said}"
        );
    }
    smtp.accept();
    assert!(server.wait_exit().success());

    let mut server = serve(&database, "second", &env, &[]);
    let total = wait_until("every delivery sent after the restart", || {
        let all = deliveries(&database);
        all.iter().all(|d| d.state == "sent").then_some(all.len())
    });
    assert!(server.terminate().success());
    assert_eq!(total, 20, "the agency's e-mail of each lead");
    let mut seen: HashMap<String, usize> = HashMap::new();
    for mail in smtp.mails() {
        let id = mail["headers"]["message-id"].as_str().unwrap().to_string();
        *seen.entry(id).or_default() += 1;
    }
    let twice: Vec<_> = seen.iter().filter(|(_, count)| **count > 1).collect();
    assert!(twice.is_empty(), "sent more than once: {twice:?}");
    assert_eq!(seen.len(), total, "every delivery received once");
}
