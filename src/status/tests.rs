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
