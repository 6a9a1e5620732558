//! Status changes on a real SQLite file: history, the webhook's event, a link used twice, a lead already there.

use super::*;
use crate::store::{Lead, Source, Stored, insert, open};

fn pool(name: &str) -> store::DbPool {
    let dir = std::env::temp_dir().join(format!("truckins-status-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    open(&dir.join("leads.db"), 2).unwrap()
}

fn new_lead(pool: &store::DbPool) -> i64 {
    new_lead_of(pool, "maria@example.com")
}

fn new_lead_of(pool: &store::DbPool, email: &str) -> i64 {
    let lead = Lead {
        source: Source::Quote,
        created_at: store::now(),
        name: "Maria Lopez".into(),
        email: email.into(),
        ..Lead::default()
    };
    match insert(pool, &lead).unwrap() {
        Stored::New(id) | Stored::Repeat(id) => id,
    }
}

fn status_events(connection: &Connection, id: i64) -> Vec<serde_json::Value> {
    let mut statement = connection
        .prepare("SELECT payload FROM deliveries WHERE kind = 'status' AND lead_id = ?1 AND channel = 'webhook' ORDER BY id")
        .unwrap();
    statement
        .query_map([id], |row| row.get::<_, String>(0))
        .unwrap()
        .map(|payload| serde_json::from_str(&payload.unwrap()).unwrap())
        .collect()
}

#[test]
fn a_change_is_kept_with_its_history_and_told_to_the_webhook() {
    let pool = pool("change");
    let connection = pool.get().unwrap();
    let id = new_lead(&pool);
    let webhook = [Channel::Email, Channel::Webhook];
    let outcome = change(
        &connection,
        id,
        Status::Contacted,
        ChangedBy::Link,
        Some("aa"),
        &webhook,
    )
    .unwrap();
    let Outcome::Changed { from, at } = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(from, Status::New);
    // The same link again: nothing changes, and it says when it was used.
    assert_eq!(
        change(
            &connection,
            id,
            Status::Contacted,
            ChangedBy::Link,
            Some("aa"),
            &webhook
        )
        .unwrap(),
        Outcome::LinkUsed {
            at: at.clone(),
            now: Status::Contacted
        }
    );
    // Another way to the status it has: nothing changes, and it says since when.
    assert_eq!(
        change(
            &connection,
            id,
            Status::Contacted,
            ChangedBy::Cli,
            None,
            &webhook
        )
        .unwrap(),
        Outcome::Already {
            since: Some(at.clone())
        }
    );
    assert!(matches!(
        change(&connection, id, Status::Won, ChangedBy::Cli, None, &webhook).unwrap(),
        Outcome::Changed {
            from: Status::Contacted,
            ..
        }
    ));
    assert_eq!(
        change(
            &connection,
            9999,
            Status::Won,
            ChangedBy::Cli,
            None,
            &webhook
        )
        .unwrap(),
        Outcome::NoLead
    );
    let history = history(&connection, id).unwrap();
    let steps: Vec<(Status, Status, ChangedBy)> =
        history.iter().map(|c| (c.from, c.to, c.via)).collect();
    assert_eq!(
        steps,
        [
            (Status::New, Status::Contacted, ChangedBy::Link),
            (Status::Contacted, Status::Won, ChangedBy::Cli)
        ]
    );
    let events = status_events(&connection, id);
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0]["from"], "new");
    assert_eq!(events[0]["to"], "contacted");
    assert_eq!(events[0]["via"], "link");
    assert_eq!(events[1]["to"], "won");
    assert_eq!(
        store::get(&connection, id).unwrap().unwrap().status,
        Status::Won
    );
}

#[test]
fn a_link_s_use_is_found_through_the_lead_s_index_in_any_case_of_hex() {
    let pool = pool("link-used");
    let connection = pool.get().unwrap();
    let id = new_lead(&pool);
    let other = new_lead_of(&pool, "other@example.com");
    // A use kept by an older version, in upper-case hex.
    change(
        &connection,
        id,
        Status::Quoted,
        ChangedBy::Link,
        Some("ABCDEF"),
        &[],
    )
    .unwrap();
    assert!(link_used(&connection, id, "abcdef").unwrap().is_some());
    assert_eq!(link_used(&connection, other, "abcdef").unwrap(), None);
    let plan: Vec<String> = connection
        .prepare(&format!("EXPLAIN QUERY PLAN {LINK_USED}"))
        .unwrap()
        .query_map(params![id, "abcdef"], |row| row.get(3))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(
        plan.iter()
            .any(|step| step.starts_with("SEARCH status_changes USING INDEX status_changes_lead")),
        "{plan:?}"
    );
    assert!(
        !plan.iter().any(|step| step.starts_with("SCAN")),
        "{plan:?}"
    );
}

#[test]
fn without_a_webhook_no_event_is_queued() {
    let pool = pool("quiet");
    let connection = pool.get().unwrap();
    let id = new_lead(&pool);
    change(
        &connection,
        id,
        Status::NotAFit,
        ChangedBy::Cli,
        None,
        &[Channel::Email],
    )
    .unwrap();
    assert!(status_events(&connection, id).is_empty());
    assert_eq!(history(&connection, id).unwrap().len(), 1);
}

#[test]
fn the_e_mail_offers_every_status_but_new_and_the_current_one() {
    let offered: Vec<Status> = next_statuses(Status::New).collect();
    assert_eq!(
        offered,
        [
            Status::Contacted,
            Status::Quoted,
            Status::Won,
            Status::Lost,
            Status::NotAFit
        ]
    );
    assert!(!next_statuses(Status::Quoted).any(|s| s == Status::Quoted));
}

/// A quote whose policy expires on `expiration`, with `status`.
fn expiring(pool: &store::DbPool, email: &str, expiration: &str, status: Status) -> i64 {
    let lead = Lead {
        source: Source::Quote,
        created_at: store::now(),
        name: "Maria Lopez".into(),
        email: email.into(),
        status,
        policy_expiration: Some(expiration.into()),
        ..Lead::default()
    };
    match insert(pool, &lead).unwrap() {
        Stored::New(id) | Stored::Repeat(id) => id,
    }
}

fn day(text: &str) -> time::Date {
    time::Date::parse(
        text,
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .unwrap()
}

#[test]
fn an_x_date_is_due_from_its_lead_days_before_to_the_expiration_once_and_never_for_a_won_lead() {
    let pool = pool("xdates");
    let channels = [Channel::Email, Channel::Webhook];
    let due = expiring(&pool, "due@example.com", "2026-12-18", Status::New);
    let won = expiring(&pool, "won@example.com", "2026-12-18", Status::Won);
    let later = expiring(&pool, "later@example.com", "2027-02-17", Status::Quoted);
    let past = expiring(&pool, "past@example.com", "2026-09-01", Status::New);
    let queue = |today: &str| xdates::queue_due(&pool, 60, day(today), &channels).unwrap();
    // 60 days before 2026-12-18 is 2026-10-19: not the day before, from that day on; once.
    assert_eq!(queue("2026-10-18"), Vec::<i64>::new());
    assert_eq!(queue("2026-10-19"), [due]);
    assert_eq!(queue("2026-11-28"), Vec::<i64>::new());
    // 2027-02-17 is 81 days after 2026-11-28: due on 2026-12-19; the expired one never.
    assert_eq!(queue("2026-12-19"), [later]);
    let connection = pool.get().unwrap();
    let kinds: Vec<(i64, String)> = connection
        .prepare("SELECT lead_id, channel FROM deliveries WHERE kind = 'xdate' ORDER BY id")
        .unwrap()
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        kinds,
        [
            (due, "email".to_string()),
            (due, "webhook".to_string()),
            (later, "email".to_string()),
            (later, "webhook".to_string())
        ]
    );
    // Details posted again with another expiration: another x-date, for that one.
    connection
        .execute(
            "UPDATE leads SET policy_expiration = '2026-12-31' WHERE id = ?1",
            [due],
        )
        .unwrap();
    assert_eq!(queue("2026-12-20"), [due]);
    assert_eq!(queue("2026-12-21"), Vec::<i64>::new());
    // The coming list: soonest first, the won and the expired ones left out, each told.
    let coming = xdates::coming(&connection, day("2026-12-20"), 120, 60).unwrap();
    let listed: Vec<(i64, Option<String>, Option<time::Date>)> =
        coming.into_iter().map(|c| (c.id, c.told, c.due)).collect();
    assert_eq!(
        listed,
        [
            (due, Some("pending".to_string()), Some(day("2026-11-01"))),
            (later, Some("pending".to_string()), Some(day("2026-12-19")))
        ]
    );
    let _ = (won, past);
}
