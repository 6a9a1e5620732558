//! Quick is not a reason to lose a person (issue 36), through the real binary, the SMTP server and the webhook
//! receiver: a quote sent 100 ms after its page's timer started is kept, marked `suspected_spam` (in `leads list`,
//! `leads show` and both exports), told to the agency (the e-mail's subject starts with `[Suspected spam] `, its body
//! says why; the webhook's lead has `"suspected_spam": true`) and never confirmed to the address it gives; the
//! honeypot still drops silently; an opt-out is recorded however fast it came.

use std::path::Path;

use serde_json::{Value, json};

use super::support::{deliveries, part, wait_for_delivery};
use super::*;
use crate::common::process::TempDir;

const QUOTE: &str = "/api/leads/quote";

fn channels_of(database: &Path, lead: i64) -> Vec<String> {
    let mut channels: Vec<String> = deliveries(database)
        .into_iter()
        .filter(|d| d.lead_id == lead)
        .map(|d| d.channel)
        .collect();
    channels.sort();
    channels
}

fn run(dir: &Path, database: &Path, args: &[&str]) -> String {
    let (ok, text) = cli(dir, database, args, &[]);
    assert!(ok, "{args:?}: {text}");
    text
}

#[test]
fn a_quote_sent_too_fast_is_kept_marked_told_to_the_agency_and_never_confirmed() {
    let site = agency(
        "notify-suspected",
        "serve",
        &["--ip-limit", "1000", "--autoreply"],
    );

    // The honeypot, however slowly filled: answered like a success, stored nowhere, told to no one.
    let mut honeypot = quote("honeypot@bot.example", "suspect-0");
    honeypot["website"] = json!("http://spam.example");
    honeypot["elapsed_ms"] = json!(8000);
    let reply = post(site.server.port, QUOTE, &honeypot);
    assert_eq!(reply.status, 201, "{}", reply.text());
    // 100 ms after the page's timer started (an autofilled form, or a program).
    let mut fast = quote("fast@bot.example", "suspect-1");
    fast["elapsed_ms"] = json!(100);
    let reply = post(site.server.port, QUOTE, &fast);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let suspect = reply.json()["id"].as_i64().unwrap();
    // A person, whose confirmation goes out on the same lane after the suspect's would have.
    let mut slow = quote("maria@lopez.example", "suspect-2");
    slow["elapsed_ms"] = json!(8000);
    let reply = post(site.server.port, QUOTE, &slow);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let person = reply.json()["id"].as_i64().unwrap();

    // The suspect's deliveries: the agency's e-mail and webhook, no confirmation.
    assert_eq!(channels_of(&site.database, suspect), ["email", "webhook"]);
    assert_eq!(
        channels_of(&site.database, person),
        ["autoreply", "email", "webhook"]
    );
    assert_eq!(
        deliveries(&site.database).len(),
        5,
        "nothing for the honeypot"
    );
    wait_for_delivery(&site.database, person, "autoreply", "sent", |d| {
        d.state == "sent"
    });
    wait_for_delivery(&site.database, suspect, "email", "sent", |d| {
        d.state == "sent"
    });
    wait_for_delivery(&site.database, person, "email", "sent", |d| {
        d.state == "sent"
    });
    let mails = site.smtp.wait_for_mails(3);
    let recipients: Vec<&Value> = mails.iter().map(|m| &m["rcpt_tos"]).collect();
    assert!(
        !recipients
            .iter()
            .any(|to| to.to_string().contains("bot.example")),
        "no mail to the suspect's or the honeypot's address: {recipients:?}"
    );
    let subjects: Vec<&str> = mails
        .iter()
        .filter_map(|m| m["headers"]["subject"].as_str())
        .collect();
    let marked: Vec<&Value> = mails
        .iter()
        .filter(|m| {
            m["headers"]["subject"]
                .as_str()
                .is_some_and(|s| s.starts_with("[Suspected spam] "))
        })
        .collect();
    assert_eq!(marked.len(), 1, "{subjects:?}");
    assert_eq!(
        marked[0]["headers"]["subject"],
        "[Suspected spam] New quote: Maria Lopez, Lopez & Sons Hauling, Hot Shot, 2 trucks"
    );
    assert_eq!(
        marked[0]["headers"]["reply-to"],
        "Maria Lopez <fast@bot.example>"
    );
    let text = part(marked[0], "text/plain");
    assert!(
        text.contains("this form was sent faster than a person types"),
        "{text}"
    );
    assert!(
        subjects.contains(&"New quote: Maria Lopez, Lopez & Sons Hauling, Hot Shot, 2 trucks"),
        "the person's e-mail is not marked: {subjects:?}"
    );

    // The webhook: the lead says it, signed as ever.
    let hooks = site.receiver.wait_for(2);
    for hook in &hooks {
        verify(hook);
        let body = hook.json();
        let id = body["lead"]["id"].as_i64().unwrap();
        assert_eq!(body["lead"]["suspected_spam"], id == suspect, "{body}");
    }

    // The CLI: the list's mark, the lead's note, a column and a field in the exports.
    let list = run(site.dir.path(), &site.database, &["leads", "list"]);
    let line = |id: i64| {
        list.lines()
            .find(|line| line.starts_with(&format!("{id:>5}  ")))
            .unwrap_or_else(|| panic!("lead {id} in:\n{list}"))
            .to_string()
    };
    assert!(line(suspect).contains("SUSPECTED SPAM"), "{list}");
    assert!(!line(person).contains("SUSPECTED SPAM"), "{list}");
    assert_eq!(list.lines().count(), 3, "a header and two leads:\n{list}");
    let show = run(
        site.dir.path(),
        &site.database,
        &["leads", "show", &suspect.to_string()],
    );
    assert!(
        show.contains("SUSPECTED SPAM: this form was sent faster than a person types"),
        "{show}"
    );
    let show = run(
        site.dir.path(),
        &site.database,
        &["leads", "show", &person.to_string()],
    );
    assert!(!show.contains("SUSPECTED SPAM"), "{show}");
    let json_rows: Value = serde_json::from_str(&run(
        site.dir.path(),
        &site.database,
        &["leads", "export", "--format", "json"],
    ))
    .unwrap();
    let marks: Vec<(i64, Value)> = json_rows
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["id"].as_i64().unwrap(), row["suspected_spam"].clone()))
        .collect();
    assert_eq!(
        marks,
        [(person, json!(false)), (suspect, json!(true))],
        "newest first"
    );
    let csv_text = run(
        site.dir.path(),
        &site.database,
        &["leads", "export", "--format", "csv"],
    );
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let at = header
        .iter()
        .position(|name| name == "suspected_spam")
        .expect("a suspected_spam column");
    let cells: Vec<(String, String)> = reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            (record[0].to_string(), record[at].to_string())
        })
        .collect();
    assert_eq!(
        cells,
        [
            (person.to_string(), "false".to_string()),
            (suspect.to_string(), "true".to_string())
        ]
    );
}

#[test]
fn an_opt_out_however_fast_is_recorded_and_the_honeypot_still_drops_it() {
    let dir = TempDir::new("optout-fast");
    let database = dir.path().join("leads.db");
    let server = serve(&database, "serve", &[], &[]);
    let opt_outs = || -> Vec<Value> {
        let text = run(
            dir.path(),
            &database,
            &["optout", "list", "--format", "json"],
        );
        serde_json::from_str::<Value>(&text)
            .unwrap_or_else(|e| panic!("{e}: {text}"))
            .as_array()
            .unwrap()
            .clone()
    };
    // The honeypot, filled slowly: answered as a success, stored nowhere.
    let bot =
        json!({ "email": "bot@example.com", "website": "http://spam.example", "elapsed_ms": 9000 });
    assert_eq!(post(server.port, "/api/opt-out", &bot).status, 201);
    // 100 ms after the page's timer started: an autofilled address, recorded.
    let fast =
        json!({ "email": "Quick@Example.com", "phone": "(214) 555-0199", "elapsed_ms": 100 });
    let reply = post(server.port, "/api/opt-out", &fast);
    assert_eq!(reply.status, 201, "{}", reply.text());
    assert_eq!(reply.json()["received"], true);
    let listed = opt_outs();
    let emails: Vec<&Value> = listed.iter().map(|row| &row["email"]).collect();
    assert_eq!(emails, [&json!("quick@example.com")], "{listed:?}");
    assert_eq!(listed[0]["phone"], "+12145550199");
}
