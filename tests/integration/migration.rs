//! A database made by the version before issue 13 (schema versions 1 to 5, with leads and their deliveries)
//! opened by this one: migrations 0006 (leads rebuilt for source `coi` and the new columns), 0007 (deliveries with a
//! kind), 0010 (deliveries rebuilt with cheaper CHECKs), 0011 (deliveries again, with opt-outs and withheld
//! confirmations), 0012 (leads again for `not_a_fit`, deliveries again for status events and reminders, the status
//! history), 0013 (leads again for sources `claim` and `change` and their `request`, deliveries marked urgent)
//! 0014 (a lead's `suspected_spam` mark, 0 for every lead before it), 0015 (the installation's keys) and 0016 (the
//! HTTPS certificate and ACME account) keep every row, id, index, rule and foreign key.

use std::path::Path;

use rusqlite::{Connection, params};
use truckins::store;

use crate::common;

/// The schema as the previous release left it: its five migration files, recorded as applied.
const OLD_SCHEMA: [&str; 5] = [
    include_str!("../../src/store/migrations/0001_leads.sql"),
    include_str!("../../src/store/migrations/0002_health_probe.sql"),
    include_str!("../../src/store/migrations/0003_deliveries.sql"),
    include_str!("../../src/store/migrations/0004_carrier_snapshot.sql"),
    include_str!("../../src/store/migrations/0005_analytics.sql"),
];

const OLD_LEAD_COLUMNS: &str = "id, source, status, created_at, name, email, phone, company, insurance_type, \
    vehicle_count, dot_number, subject, message, consent_given, consent_text, consent_version, consent_at, ip, \
    user_agent, page_url, utm_source, utm_medium, utm_campaign, utm_term, utm_content, gclid, referrer, landing_page, \
    submission_id, carrier_snapshot";
const OLD_DELIVERY_COLUMNS: &str = "id, key, lead_id, channel, recipient, state, attempts, created_at, created_ms, \
    queued_ms, next_attempt_ms, last_attempt_at, last_error, sent_at";

fn old_database(path: &Path) {
    let connection = common::database_migrated_to(path, &OLD_SCHEMA);
    // Ids with gaps (leads deleted since), a quote with its census snapshot, a contact message.
    for (id, source, submission) in [
        (3, "quote", "sub-a"),
        (7, "contact", "sub-b"),
        (12, "quote", "sub-c"),
    ] {
        connection
            .execute(
                "INSERT INTO leads (id, source, status, created_at, name, email, phone, company, insurance_type, \
                 vehicle_count, dot_number, subject, message, consent_given, consent_text, ip, submission_id, \
                 carrier_snapshot, utm_source) VALUES (?1, ?2, 'contacted', '2026-02-01T10:00:00Z', 'Dana', \
                 'dana@example.com', '+15552100142', 'Lone Star', 'dump', 3, '1234567', 'Subject', 'Message', 1, \
                 'I agree', '127.0.0.1', ?3, '{\"legal_name\":\"LONE STAR\"}', 'google')",
                params![id, source, submission],
            )
            .unwrap();
        for (channel, state) in [("email", "sent"), ("webhook", "pending")] {
            connection
                .execute(
                    "INSERT INTO deliveries (key, lead_id, channel, state, attempts, created_at, created_ms, \
                     queued_ms, next_attempt_ms, last_error) VALUES (?1, ?2, ?3, ?4, 2, '2026-02-01T10:00:00Z', \
                     1, 1, 5, 'was down')",
                    params![format!("key-{id}-{channel}"), id, channel, state],
                )
                .unwrap();
        }
    }
}

fn rows(connection: &Connection, sql: &str) -> Vec<Vec<rusqlite::types::Value>> {
    let mut statement = connection.prepare(sql).unwrap();
    let count = statement.column_count();
    statement
        .query_map([], |row| (0..count).map(|i| row.get(i)).collect())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn names(connection: &Connection, sql: &str) -> Vec<String> {
    rows(connection, sql)
        .into_iter()
        .map(|row| match &row[0] {
            rusqlite::types::Value::Text(text) => text.clone(),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn an_old_database_with_leads_migrates_losslessly() {
    let path = common::temp_database("migrate-old");
    old_database(&path);
    let before = Connection::open(&path).unwrap();
    let leads_before = rows(
        &before,
        &format!("SELECT {OLD_LEAD_COLUMNS} FROM leads ORDER BY id"),
    );
    let deliveries_before = rows(
        &before,
        &format!("SELECT {OLD_DELIVERY_COLUMNS} FROM deliveries ORDER BY id"),
    );
    drop(before);

    let pool = store::open(&path, 1).expect("the old database opens and migrates");
    let connection = pool.get().unwrap();
    assert_eq!(
        rows(
            &connection,
            &format!("SELECT {OLD_LEAD_COLUMNS} FROM leads ORDER BY id")
        ),
        leads_before,
        "every lead, id and value kept"
    );
    assert_eq!(
        rows(
            &connection,
            &format!("SELECT {OLD_DELIVERY_COLUMNS} FROM deliveries ORDER BY id")
        ),
        deliveries_before,
        "every delivery kept"
    );
    assert_eq!(
        names(&connection, "SELECT DISTINCT kind FROM deliveries"),
        ["lead"]
    );
    assert_eq!(
        names(
            &connection,
            "SELECT version FROM schema_migrations ORDER BY version"
        )
        .len(),
        17
    );
    // Migration 0014 (issue 36): no lead from before was suspected spam, and the mark is 0 or 1.
    assert_eq!(
        names(&connection, "SELECT DISTINCT suspected_spam FROM leads"),
        ["Integer(0)"]
    );
    assert!(
        connection
            .execute("UPDATE leads SET suspected_spam = 2 WHERE id = 3", [])
            .is_err()
    );
    // Migration 0009 (issue 15): the leads from before languages were English.
    assert_eq!(
        names(&connection, "SELECT DISTINCT language FROM leads"),
        ["en"]
    );
    let indexes = names(
        &connection,
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    );
    for index in [
        "deliveries_autoreply",
        "deliveries_lead_channel",
        "deliveries_one_reminder",
        "deliveries_pending",
        "deliveries_urgent",
        "lead_documents_lead",
        "leads_created_at",
        "leads_policy_expiration",
        "leads_details_token",
        "leads_status",
        "leads_submission",
        "status_changes_lead",
        "status_changes_link",
    ] {
        assert!(indexes.iter().any(|i| i == index), "{index} in {indexes:?}");
    }
    assert_eq!(
        names(
            &connection,
            "SELECT \"table\" FROM pragma_foreign_key_list('deliveries')"
        ),
        ["leads"]
    );
    assert!(rows(&connection, "PRAGMA foreign_key_check").is_empty());
    assert_eq!(names(&connection, "PRAGMA integrity_check"), ["ok"]);
    assert_eq!(
        names(&connection, "PRAGMA foreign_keys"),
        ["Integer(1)"],
        "foreign keys are on again after the migration"
    );
    assert!(
        !names(
            &connection,
            "SELECT sql FROM sqlite_master WHERE name = 'leads'"
        )[0]
        .contains("leads_new"),
        "the table has its own name"
    );

    // The constraints hold on the rebuilt tables: one lead delivery per channel, details as often as posted, a
    // certificate request may be stored, and deleting a lead still deletes its deliveries.
    let duplicate = connection.execute(
        "INSERT INTO deliveries (key, lead_id, channel, created_at, created_ms, queued_ms, next_attempt_ms) \
         VALUES ('k', 3, 'email', 'x', 1, 1, 1)",
        [],
    );
    assert!(
        duplicate.is_err(),
        "UNIQUE (lead_id, channel) for the lead's own deliveries"
    );
    for _ in 0..2 {
        connection
            .execute(
                "INSERT INTO deliveries (key, lead_id, kind, channel, created_at, created_ms, queued_ms, \
                 next_attempt_ms) VALUES ('k', 3, 'details', 'email', 'x', 1, 1, 1)",
                [],
            )
            .unwrap();
    }
    let orphan = connection.execute(
        "INSERT INTO deliveries (key, lead_id, channel, created_at, created_ms, queued_ms, next_attempt_ms) \
         VALUES ('k', 999, 'email', 'x', 1, 1, 1)",
        [],
    );
    assert!(orphan.is_err(), "the foreign key is enforced");
    // Migration 0010 wrote the lists of allowed values with `=` and `OR`: they still take every allowed value and
    // refuse anything else.
    for (kind, channel, state) in [
        ("details", "webhook", "sent"),
        ("details", "autoreply", "failed"),
        ("details", "email", "pending"),
        // Migration 0011: a confirmation withheld from an address that opted out.
        ("lead", "autoreply", "withheld"),
        // Migration 0012: the agency's reminder about a lead.
        ("reminder", "email", "pending"),
    ] {
        connection
            .execute(
                "INSERT INTO deliveries (key, lead_id, kind, channel, state, created_at, created_ms, queued_ms, \
                 next_attempt_ms) VALUES ('k', 12, ?1, ?2, ?3, 'x', 1, 1, 1)",
                [kind, channel, state],
            )
            .unwrap_or_else(|error| panic!("{kind} {channel} {state}: {error}"));
    }
    for (kind, channel, state) in [
        ("details", "fax", "pending"),
        ("details", "email", "lost"),
        ("memo", "email", "pending"),
        // An opt-out's news without its payload.
        ("opt_out", "email", "pending"),
        // Migration 0012: a second reminder about lead 12, a reminder by webhook, a status event without its change.
        ("reminder", "email", "pending"),
        ("reminder", "webhook", "pending"),
        ("status", "webhook", "pending"),
    ] {
        let lead = if kind == "reminder" { "12" } else { "3" };
        let refused = connection
            .execute(
                "INSERT INTO deliveries (key, lead_id, kind, channel, state, created_at, created_ms, queued_ms, \
                 next_attempt_ms) VALUES ('k', ?4, ?1, ?2, ?3, 'x', 1, 1, 1)",
                [kind, channel, state, lead],
            )
            .expect_err("refused");
        assert!(
            refused.to_string().contains("CHECK constraint failed")
                || refused.to_string().contains("UNIQUE constraint failed"),
            "{kind} {channel} {state}: {refused}"
        );
    }
    connection
        .execute(
            "INSERT INTO leads (source, created_at, name, email, needed_by) VALUES ('coi', 'x', 'Dana', 'd@e.com', \
             '2026-03-02')",
            [],
        )
        .unwrap();
    // Migration 0013: a claim and a change request with their own fields as a JSON object, nothing else new, and
    // the deliveries from before are not urgent.
    for source in ["claim", "change"] {
        connection
            .execute(
                "INSERT INTO leads (source, created_at, name, email, request) VALUES (?1, 'x', 'Dana', '', \
                 '{\"loss_city\":\"Waco\"}')",
                [source],
            )
            .unwrap_or_else(|error| panic!("{source}: {error}"));
    }
    for (source, request) in [("renewal", "{}"), ("claim", "not json")] {
        assert!(
            connection
                .execute(
                    "INSERT INTO leads (source, created_at, name, email, request) VALUES (?1, 'x', 'D', '', ?2)",
                    [source, request],
                )
                .is_err(),
            "{source} {request}"
        );
    }
    assert_eq!(
        names(&connection, "SELECT DISTINCT urgent FROM deliveries"),
        ["Integer(0)"]
    );
    // Migration 0012: a lead may be not a fit, and nothing else new; its history goes with it.
    connection
        .execute("UPDATE leads SET status = 'not_a_fit' WHERE id = 3", [])
        .unwrap();
    assert!(
        connection
            .execute("UPDATE leads SET status = 'maybe' WHERE id = 3", [])
            .is_err()
    );
    connection
        .execute(
            "INSERT INTO status_changes (lead_id, from_status, to_status, changed_at, via) \
             VALUES (3, 'new', 'not_a_fit', 'x', 'cli')",
            [],
        )
        .unwrap();
    connection
        .execute("DELETE FROM leads WHERE id = 3", [])
        .unwrap();
    assert_eq!(
        rows(&connection, "SELECT id FROM status_changes").len(),
        0,
        "the history goes with its lead"
    );
    assert_eq!(
        rows(&connection, "SELECT id FROM deliveries WHERE lead_id = 3").len(),
        0,
        "ON DELETE CASCADE kept"
    );
    assert_eq!(rows(&connection, "SELECT id FROM deliveries").len(), 9);
    drop(connection);
    drop(pool);
    // Opened again: nothing is applied twice.
    drop(store::open(&path, 1).expect("opens again"));
}
