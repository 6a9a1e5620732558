//! "Speed up your quote" (issue 13, part 2): details added to a quote through the token of its 201 answer. The real
//! binary with a test clock, a real SMTP server and a webhook receiver: tokens reach only their own lead, unknown
//! ones are 404, a day-old one 410, a later post replaces the details, and each post notifies the agency (e-mail
//! and webhook of kind `details`, never the visitor). Rocket's local client for the plain form path and the limit.

use std::path::Path;

use rocket::http::{ContentType, Status};

use serde_json::{Value, json};
use truckins::store::{Lead, LeadFilter, list, open};

use crate::common;
use crate::common::forms::{post_form, post_json};
use crate::common::process::{Server, TempDir, free_port};
use crate::notify::support::{Answer, Receiver, Smtp, SmtpOptions, part, wait_until};
use crate::notify::{env, plain_smtp, post, quote};

const DETAILS: &str = "/api/leads/details";

fn lead(database: &Path, id: i64) -> Lead {
    let pool = open(database, 1).unwrap();
    list(&pool, &LeadFilter::default())
        .unwrap()
        .into_iter()
        .find(|lead| lead.id == id)
        .expect("the lead")
}

/// (kind, channel) of the deliveries of lead `id`, in order.
fn deliveries(database: &Path, id: i64) -> Vec<(String, String)> {
    let connection = rusqlite::Connection::open(database).unwrap();
    let mut statement = connection
        .prepare("SELECT kind, channel FROM deliveries WHERE lead_id = ?1 ORDER BY id")
        .unwrap();
    statement
        .query_map([id], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn set_clock(clock: &Path, time: &str) {
    let partial = clock.with_extension("partial");
    std::fs::write(&partial, time).unwrap();
    std::fs::rename(&partial, clock).unwrap();
}

/// A quote posted to the server: its id and details token.
fn quoted(server: &Server, email: &str, submission: &str) -> (i64, String) {
    let reply = post(server.port, "/api/leads/quote", &quote(email, submission));
    assert_eq!(reply.status, 201, "{}", reply.text());
    let body = reply.json();
    let token = body["details_token"].as_str().unwrap().to_string();
    assert_ne!(token, body["id"].to_string(), "never the id");
    (body["id"].as_i64().unwrap(), token)
}

#[test]
fn details_tokens_reach_their_own_lead_replace_its_details_and_expire_after_a_day() {
    let dir = TempDir::new("details");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    set_clock(&clock, "2026-03-02T12:00:00Z");
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), SmtpOptions::default());
    let receiver = Receiver::start(&[], Answer::Status(204));
    let mut env = env(Some(&plain_smtp(smtp.port)), Some(&receiver.url()));
    env.push(("TRUCKINS_AUTOREPLY", "true".to_string()));
    env.push(("TRUCKINS_TEST_CLOCK", clock.to_str().unwrap().to_string()));
    // Its policy expires within 60 days of the clock: no x-date (tests/integration/submission.rs) among its news.
    env.push(("TRUCKINS_XDATE_LEAD_DAYS", "0".to_string()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let database_arg = database.to_str().unwrap();
    let server = Server::start_with_env(
        dir.path(),
        "details",
        &["--database", database_arg, "--ip-limit", "1000"],
        &env,
    );
    let (first, first_token) = quoted(&server, "first@example.com", "details-1");
    let (second, second_token) = quoted(&server, "second@example.com", "details-2");
    assert_ne!(first_token, second_token);
    // Both quotes' own mails (agency and autoreply each) are out before details are added.
    smtp.wait_for_mails(4);

    // Unknown: a token no lead has, one that cannot be a token, none.
    for token in ["0123456789abcdef0123456789abcdef", "1", &first.to_string()] {
        let reply = post(server.port, DETAILS, &json!({ "details_token": token }));
        assert_eq!(reply.status, 404, "{token}: {}", reply.text());
        assert_eq!(reply.json()["error"], "Not Found");
    }
    let reply = post(server.port, DETAILS, &json!({ "radius": "local" }));
    assert_eq!(reply.status, 422);
    assert!(reply.json()["errors"]["details_token"].is_string());

    // Invalid details: each field's message, nothing stored.
    let reply = post(
        server.port,
        DETAILS,
        &json!({ "details_token": second_token, "radius": "orbit", "operating_states": "TX, XX", "power_units": -2 }),
    );
    assert_eq!(reply.status, 422);
    assert_eq!(
        reply.json()["errors"],
        json!({
            "radius": "Please choose local, regional or long haul",
            "operating_states": "Operating states must be two-letter US state codes, such as TX, OK",
            "power_units": "Power units must be a whole number from 0 to 10000",
        })
    );

    // The second quote's token changes the second lead only.
    let details = json!({
        "details_token": second_token,
        "mc_number": "MC-654321",
        "years_in_business": 6,
        "radius": "regional",
        "operating_states": "tx ok, NM",
        "commodities": ["machinery", "other"],
        "commodities_other": "Wind turbine parts",
        "hazmat": false,
        "power_units": 4,
        "trailers": 5,
        "drivers": 4,
        "current_insurer": "Progressive",
        "policy_expiration": "2026-04-01",
        "effective_date": "2026-04-01",
        "claims_3y": 1,
        "best_time_to_call": "morning",
    });
    let reply = post(server.port, DETAILS, &details);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json(), json!({ "id": second }));
    let stored = lead(&database, second);
    assert_eq!(stored.mc_number.as_deref(), Some("654321"));
    assert_eq!(stored.operating_states.as_deref(), Some("TX,OK,NM"));
    assert_eq!(stored.commodities.as_deref(), Some("machinery,other"));
    assert_eq!(
        stored.commodities_other.as_deref(),
        Some("Wind turbine parts")
    );
    assert_eq!(stored.hazmat, Some(false));
    assert_eq!(stored.claims_3y, Some(1));
    assert!(stored.details_at.is_some());
    let untouched = lead(&database, first);
    assert_eq!(untouched.radius, None);
    assert_eq!(untouched.details_at, None);

    // The agency hears of them by e-mail and webhook (kind details); the visitor gets nothing more.
    let mails = smtp.wait_for_mails(5);
    let mail = &mails[4];
    assert_eq!(
        mail["headers"]["subject"],
        "Quote details: Maria Lopez, Lopez & Sons Hauling"
    );
    assert_eq!(
        mail["rcpt_tos"],
        json!(["owner@agency.example", "desk@agency.example"])
    );
    let text = part(mail, "text/plain");
    assert!(
        text.contains("regional (up to 500 miles)") && text.contains("Wind turbine parts"),
        "{text}"
    );
    let hooks = receiver.wait_for(3);
    let hook = hooks
        .iter()
        .map(|hook| hook.json())
        .find(|body| body["event"] == "details")
        .expect("a details webhook");
    assert_eq!(hook["lead"]["id"], second);
    assert_eq!(hook["lead"]["radius"], "regional");

    // Posted again (replayed with other answers): the new details replace the old ones whole, and are news again.
    let reply = post(
        server.port,
        DETAILS,
        &json!({ "details_token": second_token, "radius": "local" }),
    );
    assert_eq!(reply.status, 200);
    let replaced = lead(&database, second);
    assert_eq!(replaced.radius.as_deref(), Some("local"));
    assert_eq!(replaced.operating_states, None);
    assert_eq!(replaced.mc_number, None);
    smtp.wait_for_mails(6);
    let kinds = wait_until("the second details' deliveries", || {
        let found = deliveries(&database, second);
        (found.len() == 7).then_some(found)
    });
    let count = |kind: &str, channel: &str| {
        kinds
            .iter()
            .filter(|(k, c)| k == kind && c == channel)
            .count()
    };
    assert_eq!(
        (
            count("lead", "email"),
            count("lead", "webhook"),
            count("lead", "autoreply"),
            count("details", "email"),
            count("details", "webhook"),
            count("details", "autoreply"),
        ),
        (1, 1, 1, 2, 2, 0)
    );

    // A day and a second after the first quote, its token is gone: 410.
    set_clock(&clock, "2026-03-03T12:00:01Z");
    let reply = post(
        server.port,
        DETAILS,
        &json!({ "details_token": first_token, "radius": "local" }),
    );
    assert_eq!(reply.status, 410, "{}", reply.text());
    assert_eq!(reply.json()["error"], "Gone");
    assert_eq!(lead(&database, first).radius, None);
}

#[test]
fn without_javascript_the_thank_you_page_carries_the_token_to_the_details_form() {
    let database = common::temp_database("details-form");
    let client = common::client_with(common::figment(&database).merge(("ip_limit", 3)));
    let quote = [
        ("name", "Dana Smith"),
        ("email", "dana@example.com"),
        ("insurance_type", "cargo"),
        ("vehicle_count", "2"),
        ("consent", "true"),
    ];
    let (status, location, _) = post_form(&client, "/api/leads/quote", &quote);
    assert_eq!(status, Status::SeeOther);
    let location = location.unwrap();
    let token = location
        .strip_prefix("/get-quote/thank-you?details=")
        .unwrap()
        .to_string();
    let page = client
        .get(location.clone())
        .dispatch()
        .into_string()
        .unwrap();
    assert!(page.contains("Speed up your quote"), "{page}");
    assert!(page.contains(&format!("value=\"{token}\"")));
    assert!(!page.contains("TRUCKINS_"), "every marker filled");
    // Without a token (or with one that cannot be a token), the page as prerendered, no form to fill.
    for plain in [
        "/get-quote/thank-you",
        "/get-quote/thank-you?details=%3Cscript%3E",
    ] {
        let page = client.get(plain).dispatch().into_string().unwrap();
        assert!(
            page.contains("Quote request submitted!") && !page.contains("Speed up your quote"),
            "{plain}"
        );
    }

    // Invalid: the page again with the errors, the token and what was typed kept.
    let (status, _, page) = post_form(
        &client,
        DETAILS,
        &[
            ("details_token", &token),
            ("radius", "regional"),
            ("commodities", "machinery"),
            ("commodities", "other"),
            ("drivers", "many"),
        ],
    );
    assert_eq!(status, Status::UnprocessableEntity);
    assert!(
        page.contains("Please say which other commodities you haul"),
        "{page}"
    );
    assert!(page.contains("Drivers must be a whole number from 0 to 10000"));
    assert!(page.contains(&format!("value=\"{token}\"")));
    assert!(page.contains("<option value=\"regional\" selected=\"\">"));
    assert!(page.contains("data-fill=\"commodities:machinery\" checked=\"\""));

    // Checkboxes of one name all count; the page lands on its own thank-you.
    let (status, location, _) = post_form(
        &client,
        DETAILS,
        &[
            ("details_token", &token),
            ("commodities", "machinery"),
            ("commodities", "refrigerated"),
            ("hazmat", "yes"),
            ("website", ""),
        ],
    );
    assert_eq!(status, Status::SeeOther);
    assert_eq!(location.as_deref(), Some("/get-quote/details-received"));
    assert_eq!(
        client
            .get("/get-quote/details-received")
            .dispatch()
            .status(),
        Status::Ok
    );
    let pool = open(&database, 1).unwrap();
    let stored = &list(&pool, &LeadFilter::default()).unwrap()[0];
    assert_eq!(
        stored.commodities.as_deref(),
        Some("machinery,refrigerated")
    );
    assert_eq!(stored.hazmat, Some(true));

    // An unknown token: the page says so (404); then the limit (3 per IP in 10 minutes, apart from the forms').
    let unknown = "ffffffffffffffffffffffffffffffff";
    let (status, _, page) = post_form(&client, DETAILS, &[("details_token", unknown)]);
    assert_eq!(status, Status::NotFound);
    assert!(
        page.contains("We could not find the quote request"),
        "{page}"
    );
    let (status, _, page) = post_form(&client, DETAILS, &[("details_token", unknown)]);
    assert_eq!(status, Status::NotFound, "{page}");
    let response = client
        .post(DETAILS)
        .header(ContentType::JSON)
        .body(json!({ "details_token": token }).to_string())
        .dispatch();
    assert_eq!(response.status(), Status::TooManyRequests);
    let body: Value = serde_json::from_str(&response.into_string().unwrap()).unwrap();
    assert_eq!(
        body["message"],
        "Please wait 10 minutes before sending your details again."
    );
}

#[test]
fn a_quote_sent_again_gets_a_new_token_that_replaces_the_first() {
    let database = common::temp_database("details-repeat");
    let client = common::client_with(common::figment(&database));
    let mut quote = common::valid_quote();
    quote["submission_id"] = json!("details-repeat-0123456789");
    let send = |body: &Value| {
        let (status, answer) = post_json(&client, "/api/leads/quote", body);
        assert_eq!(status, Status::Created, "{answer}");
        answer
    };
    let (first, again) = (send(&quote), send(&quote));
    assert_eq!(first["id"], again["id"], "stored once");
    assert_ne!(first["details_token"], again["details_token"]);
    let details = |token: &Value| {
        client
            .post(DETAILS)
            .header(ContentType::JSON)
            .body(json!({ "details_token": token, "trailers": 2 }).to_string())
            .dispatch()
            .status()
    };
    // The answer that got lost held the first token: only the one given last is taken.
    assert_eq!(details(&first["details_token"]), Status::NotFound);
    assert_eq!(details(&again["details_token"]), Status::Ok);
    assert_eq!(
        lead(&database, first["id"].as_i64().unwrap()).trailers,
        Some(2)
    );
}
