//! `truckins leads forget` erases a person's traces beyond their own fields (issue 36): their own campaign tags and
//! addresses that hold their e-mail or name; elsewhere (another lead's tags and message, the owner's report waiting in
//! the outbox, which lists campaigns, and the visit counts) the e-mail the request was made by. The database's bytes
//! are searched afterwards, as `consent.rs` does for the person's own fields. Names and companies are looked for in
//! the person's own rows only: other people's pages and tags that share their words ("Trucking", "None") are kept,
//! and their visits are not merged into `(erased)`.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::process::{Http, TempDir};
use crate::consent::files_holding;
use crate::notify::{cli, env, lead, plain_smtp, post, quote, serve};

const EMAIL: &str = "zelda.quixote@forget.example";
const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/// A page view as a browser makes it, counted by the analytics.
fn visit(port: u16, path: &str) {
    let reply = Http::connect(port)
        .unwrap()
        .get(
            path,
            &[
                ("User-Agent", FIREFOX),
                ("Accept", "text/html"),
                ("Accept-Language", "en-US"),
            ],
        )
        .unwrap();
    assert_eq!(reply.status, 200, "{path}");
}

/// The visit counts (page, campaign tags, views), and the owner's stored report.
fn counts_and_report(database: &std::path::Path) -> (Vec<(String, String, i64)>, String) {
    let connection = rusqlite::Connection::open(database).unwrap();
    let counts = connection
        .prepare(
            "SELECT path, coalesce(utm_source, '') || ' ' || coalesce(utm_medium, ''), SUM(views) \
             FROM analytics_visits GROUP BY 1, 2 ORDER BY 1, 2",
        )
        .unwrap()
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let report = connection
        .query_row(
            "SELECT payload FROM deliveries WHERE kind = 'report'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    (counts, report)
}

/// Posts a quote, which must be stored; its id.
fn created(port: u16, quote: &Value) -> i64 {
    let reply = post(port, "/api/leads/quote", quote);
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_i64().unwrap()
}

/// `report --email` for today, which queues the owner's report.
fn queue_todays_report(dir: &Path, database: &Path) {
    let today = time::OffsetDateTime::now_utc().date().to_string();
    let (ok, text) = cli(
        dir,
        database,
        &["report", "--email", "--since", &today, "--until", &today],
        &env(Some(&plain_smtp(9)), None),
    );
    assert!(ok, "{text}");
}

/// `leads forget` of her address, which must say it erased `leads` leads.
fn forget_her(dir: &Path, database: &Path, leads: usize) {
    let (ok, text) = cli(dir, database, &["leads", "forget", "--email", EMAIL], &[]);
    assert!(
        ok && text.contains(&format!("erased {leads} leads")),
        "{text}"
    );
}

fn export_json(dir: &std::path::Path, database: &std::path::Path) -> Vec<Value> {
    let (ok, text) = cli(dir, database, &["leads", "export", "--format", "json"], &[]);
    assert!(ok, "{text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn forget_erases_the_person_from_campaign_tags_other_leads_reports_and_visit_counts() {
    let dir = TempDir::new("forget-traces");
    let database = dir.path().join("leads.db");
    let mut server = serve(&database, "serve", &[], &[]);
    // A visit whose campaign tag carries the address, counted by the analytics.
    visit(
        server.port,
        "/?utm_source=newsletter&utm_campaign=zelda.quixote%40forget.example&utm_medium=email",
    );
    let mut zelda = quote(EMAIL, "traces-1");
    zelda["name"] = json!("Zelda Quixote");
    zelda["company"] = json!("Windmill Freight");
    zelda["utm_term"] = json!(EMAIL);
    zelda["utm_content"] = json!("Zelda Quixote");
    zelda["utm_medium"] = json!("email");
    zelda["referrer"] = json!("https://mail.example.com/read?to=zelda.quixote%40forget.example");
    zelda["landing_page"] = json!("https://www.example.com/?email=zelda.quixote@forget.example");
    let id = created(server.port, &zelda);
    // Someone else's lead that quotes her address, and campaign tags with it.
    let mut other = quote("partner@else.example", "traces-2");
    other["utm_term"] = json!(format!("ref {EMAIL}"));
    let other = created(server.port, &other);
    let message = post(
        server.port,
        "/api/leads/contact",
        &json!({
            "name": "Pat Partner",
            "email": "pat@else.example",
            "subject": "Fleet",
            "message": format!("Please also write to {EMAIL} about the fleet."),
        }),
    );
    assert_eq!(message.status, 201, "{}", message.text());
    let contact = message.json()["id"].as_i64().unwrap();
    lead(server.port, "bystander@else.example", "traces-3");
    // The visit counts are written at the stop.
    assert!(server.terminate().success());
    // The owner's report, waiting in the outbox (no server sends it), lists the campaigns.
    queue_todays_report(dir.path(), &database);
    for trace in [EMAIL, "zelda.quixote%40forget.example", "zelda quixote"] {
        assert!(
            !files_holding(&database, trace).is_empty(),
            "{trace:?} is in the files at first"
        );
    }

    forget_her(dir.path(), &database, 1);
    for trace in [
        "zelda.quixote",
        "zelda quixote",
        "zelda-quixote",
        "quixote%40",
        "windmill freight",
    ] {
        assert_eq!(
            files_holding(&database, trace),
            Vec::<String>::new(),
            "{trace:?} left"
        );
    }
    let rows = export_json(dir.path(), &database);
    let row = |id: i64| rows.iter().find(|row| row["id"] == id).unwrap().clone();
    let erased = row(id);
    assert_eq!(erased["utm_term"], Value::Null);
    assert_eq!(erased["utm_content"], Value::Null);
    // The tags that say nobody stay, as do the hosts.
    assert_eq!(erased["utm_source"], "google");
    assert_eq!(erased["utm_medium"], "email");
    assert_eq!(erased["utm_campaign"], "hotshot-fall");
    assert_eq!(erased["referrer"], "https://mail.example.com");
    // The other people's leads keep what is theirs, without her address.
    let other = row(other);
    assert_eq!(other["email"], "partner@else.example");
    assert_eq!(other["utm_term"], Value::Null);
    assert_eq!(other["utm_campaign"], "hotshot-fall");
    assert_eq!(
        row(contact)["message"],
        "Please also write to (erased) about the fleet."
    );
    // The report is still one the server can send.
    let report = crate::common::queued_report(&database);
    assert!(
        report["html"].as_str().unwrap().contains("<html"),
        "{report}"
    );
}

#[test]
fn forget_keeps_other_people_s_pages_and_tags_that_share_words_with_her_names() {
    let dir = TempDir::new("forget-words");
    let database = dir.path().join("leads.db");
    let mut server = serve(&database, "serve", &[], &[]);
    // Someone's visit to a page whose words are her company's, with a tag that is her other company's.
    visit(
        server.port,
        "/products/trucking-insurance?utm_source=newsletter&utm_medium=none",
    );
    // Her two leads: a company "Trucking", and "None" (as people type in a field they have nothing for).
    let mut first = quote(EMAIL, "words-1");
    first["company"] = json!("Trucking");
    created(server.port, &first);
    let mut second = quote(EMAIL, "words-2");
    second["company"] = json!("None");
    second["utm_medium"] = json!("none");
    let hers = created(server.port, &second);
    // Someone else's lead from the same page and the same tag.
    let mut other = quote("partner@else.example", "words-3");
    other["utm_medium"] = json!("none");
    other["page_url"] = json!("https://www.example.com/products/trucking-insurance");
    let other = created(server.port, &other);
    assert!(server.terminate().success());
    queue_todays_report(dir.path(), &database);
    let (counts, report) = counts_and_report(&database);
    assert!(
        counts.contains(&(
            "/products/trucking-insurance".to_string(),
            "newsletter none".to_string(),
            1
        )),
        "{counts:?}"
    );

    forget_her(dir.path(), &database, 2);
    // The visit counts and the report are as they were: nothing of them is hers.
    assert_eq!(counts_and_report(&database), (counts, report));
    assert_eq!(files_holding(&database, "(erased)"), Vec::<String>::new());
    let rows = export_json(dir.path(), &database);
    let row = |id: i64| rows.iter().find(|row| row["id"] == id).unwrap().clone();
    let other = row(other);
    assert_eq!(other["utm_medium"], "none");
    assert_eq!(
        other["page_url"],
        "https://www.example.com/products/trucking-insurance"
    );
    // In her own lead her company is still looked for: the tag that is her company's name goes.
    assert_eq!(row(hers)["utm_medium"], Value::Null);
}
