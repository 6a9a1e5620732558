//! What is sent and to whom: the agency's e-mail and the signed webhook with every field, STARTTLS with a private CA
//! and AUTH, and `truckins notify test` naming what failed; an address made to add a Cc and a body to the agent's
//! reply is refused, and one an older version stored is a `mailto:` to that address alone.

use serde_json::json;

use super::support::{
    Answer, Receiver, Smtp, SmtpOptions, certificates, deliveries, part, wait_for_delivery,
};
use super::*;
use crate::common::process::{TempDir, free_port};

#[test]
fn notify_the_agency_by_email_and_signed_webhook() {
    let site = agency("notify-content", "serve", &[]);
    let id = lead(site.server.port, "maria@lopez.example", "content-1");

    let mail = &site.smtp.wait_for_mails(1)[0];
    let headers = &mail["headers"];
    assert_eq!(headers["from"], "Milepost Leads <leads@agency.example>");
    assert_eq!(headers["reply-to"], "Maria Lopez <maria@lopez.example>");
    assert_eq!(
        headers["subject"],
        "New quote: Maria Lopez, Lopez & Sons Hauling, Hot Shot, 2 trucks"
    );
    assert_eq!(
        mail["rcpt_tos"],
        json!(["owner@agency.example", "desk@agency.example"])
    );
    assert_eq!(mail["mail_from"], "leads@agency.example");
    let text = part(mail, "text/plain");
    let html = part(mail, "text/html");
    for expected in [
        "+15552100142",
        "1234567",
        "Hot Shot",
        // The consent's version, as content/forms.toml states it today.
        crate::common::consent_version().trim(),
        "By checking this box",
        "127.0.0.1",
        "https://www.example.com/products/hot-shot-insurance",
        "hotshot-fall",
        "abc123",
        &format!("truckins leads status {id} contacted"),
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} in the text part:\n{text}"
        );
    }
    assert!(
        html.contains("Lopez &amp; Sons Hauling") && !html.contains("Lopez & Sons"),
        "{html}"
    );

    let hook = &site.receiver.wait_for(1)[0];
    verify(hook);
    assert_eq!(hook.head, "POST /hooks/truckins HTTP/1.1");
    assert_eq!(hook.header("Content-Type"), "application/json");
    let body = hook.json();
    assert_eq!(body["event"], "lead");
    assert_eq!(body["lead"]["id"], id);
    assert_eq!(body["lead"]["company"], "Lopez & Sons Hauling");
    assert_eq!(body["lead"]["insurance_type_label"], "Hot Shot");
    let webhook = wait_for_delivery(&site.database, id, "webhook", "sent", |d| d.state == "sent");
    assert_eq!(hook.header("X-Truckins-Delivery"), webhook.key);
    assert_eq!(body["delivery"], webhook.key.as_str());
    wait_for_delivery(&site.database, id, "email", "sent", |d| d.state == "sent");
    assert_eq!(
        deliveries(&site.database).len(),
        2,
        "no autoreply unless asked for"
    );

    let health = site.server.http().get("/healthz", &[]).unwrap();
    assert_eq!(health.status, 200);
    assert_eq!(
        health.json()["deliveries"]["pending"],
        0,
        "{}",
        health.text()
    );
    let (ok, list) = cli(site.dir.path(), &site.database, &["leads", "list"], &[]);
    assert!(
        ok && list.contains("notified") && list.contains("sent"),
        "{list}"
    );
    let (ok, outbox) = cli(site.dir.path(), &site.database, &["outbox", "list"], &[]);
    assert!(
        ok && outbox.contains("webhook") && outbox.contains("email"),
        "{outbox}"
    );
    let started = site.server.stdout_text() + &site.server.stderr_text();
    assert!(
        started.contains("webhook_url = http://127.0.0.1"),
        "{started}"
    );
    assert!(
        !started.contains(SECRET) && !started.contains("/hooks/truckins"),
        "{started}"
    );
}

#[test]
fn starttls_with_a_private_ca_and_authentication_and_notify_test_names_what_failed() {
    let dir = TempDir::new("notify-tls");
    let database = dir.path().join("leads.db");
    let (ca, cert, key) = certificates(dir.path());
    let auth = format!("mailer:{PASSWORD}");
    let options = SmtpOptions {
        tls: Some((&cert, &key)),
        auth: Some(&auth),
    };
    let smtp = Smtp::start(free_port(), &dir.sub("smtp"), options);
    let receiver = Receiver::start(&[Answer::Status(200)], Answer::Status(404));
    let url = |password: &str| format!("smtp://mailer:{password}@127.0.0.1:{}", smtp.port);
    let mut env = env(Some(&url("pa55-w0rd%21")), Some(&receiver.url()));
    env.push(("TRUCKINS_SMTP_CA_FILE", ca.to_str().unwrap().to_string()));
    let server = serve(&database, "serve", &env, &[]);
    let started = server.stdout_text();
    assert!(
        started.contains("smtp_url = smtp://m***:***@127.0.0.1"),
        "{started}"
    );
    assert!(
        !started.contains("pa55") && !started.contains("mailer"),
        "{started}"
    );
    let id = lead(server.port, "tls@example.com", "tls-1");
    let mail = &smtp.wait_for_mails(1)[0];
    assert_eq!(
        (mail["tls"].as_bool(), mail["authenticated"].as_bool()),
        (Some(true), Some(true))
    );
    wait_for_delivery(&database, id, "email", "sent", |d| d.state == "sent");
    drop(server);

    // `notify test`: the e-mail goes through, the webhook (now answering 404) is reported refused.
    let (ok, said) = cli(dir.path(), &database, &["notify", "test"], &env);
    assert!(
        !ok && said.contains("e-mail: ok")
            && said.contains("webhook: FAILED")
            && said.contains("404"),
        "{said}"
    );
    assert_eq!(smtp.mails().len(), 2);
    let only_mail = |change: &dyn Fn(&mut Env)| {
        let mut env: Vec<_> = env
            .iter()
            .filter(|(k, _)| !k.starts_with("TRUCKINS_WEBHOOK"))
            .cloned()
            .collect();
        change(&mut env);
        let (ok, said) = cli(dir.path(), &database, &["notify", "test"], &env);
        assert!(!ok, "{said}");
        said
    };
    let set = |key: &'static str, value: String| {
        move |env: &mut Env| {
            env.retain(|(k, _)| *k != key);
            env.push((key, value.clone()));
        }
    };
    let said = only_mail(&set("TRUCKINS_SMTP_URL", url("wrong")));
    assert!(
        said.contains("authentication refused") && !said.contains("mailer"),
        "{said}"
    );
    let said = only_mail(&|env| env.retain(|(k, _)| *k != "TRUCKINS_SMTP_CA_FILE"));
    assert!(said.contains("TLS failed"), "{said}");
    let said = only_mail(&set(
        "TRUCKINS_SMTP_URL",
        format!("smtp://127.0.0.1:{}?tls=none", free_port()),
    ));
    assert!(said.contains("host unreachable"), "{said}");
    smtp.answer("rcpt", "550 5.1.1 No such user", -1);
    let said = only_mail(&|_| {});
    assert!(
        said.contains("recipient or sender rejected") && said.contains("550"),
        "{said}"
    );
}

#[test]
fn an_https_webhook_is_delivered_over_tls_and_an_untrusted_certificate_is_retried_as_a_tls_failure()
{
    let dir = TempDir::new("notify-https");
    let (ca, cert, key) = certificates(dir.path());
    let port = free_port();
    let receiver =
        support::HttpsReceiver::start(port, &cert, &key, dir.path().join("received.jsonl"));
    let url = format!("https://127.0.0.1:{port}/hooks/crm");

    // The receiver's certificate comes from a CA the server does not know: not sent, retried, the reason is TLS.
    let untrusted = dir.path().join("untrusted.db");
    let server = serve(&untrusted, "untrusted", &env(None, Some(&url)), &[]);
    let id = lead(server.port, "tls-a@example.com", "https-untrusted");
    let tried = wait_for_delivery(&untrusted, id, "webhook", "tried", |d| d.attempts >= 1);
    assert_eq!(tried.state, "pending");
    let reason = tried.last_error.unwrap_or_default();
    assert!(reason.contains("TLS failed"), "{reason}");
    drop(server);
    assert!(receiver.received().is_empty());

    // With `webhook_ca_file` naming that CA: delivered over TLS, signed.
    let database = dir.path().join("leads.db");
    let mut trusted = env(None, Some(&url));
    trusted.push(("TRUCKINS_WEBHOOK_CA_FILE", ca.to_str().unwrap().to_string()));
    let server = serve(&database, "trusted", &trusted, &[]);
    assert!(
        server.stdout_text().contains("webhook_ca_file = "),
        "{}",
        server.stdout_text()
    );
    let id = lead(server.port, "tls-b@example.com", "https-trusted");
    let sent = wait_for_delivery(&database, id, "webhook", "sent", |d| d.state == "sent");
    let received = receiver.received();
    assert_eq!(received.len(), 1, "one request: {received:?}");
    let request = &received[0];
    assert_eq!(request.head, "POST /hooks/crm");
    assert_eq!(request.header("X-Truckins-Delivery"), sent.key);
    verify(request);
    assert_eq!(request.json()["lead"]["email"], "tls-b@example.com");

    // `notify test` uses the same trust: it reports the webhook ok.
    let (ok, said) = cli(dir.path(), &database, &["notify", "test"], &trusted);
    assert!(ok && said.contains("webhook: ok"), "{said}");
    assert_eq!(receiver.received().len(), 2);
}

/// An address that, put raw into a `mailto:` link, opens a draft with a Cc and a body.
const CRAFTED: &str = "a?cc=boss%40evil.example&body=wire-the-money@example.com";

#[test]
fn an_address_crafted_to_add_a_cc_is_refused_and_an_older_one_links_to_itself_alone() {
    let (dir, database, smtp, server) = mailed("notify-mailto");

    let refused = post(
        server.port,
        "/api/leads/quote",
        &quote(CRAFTED, "mailto-crafted"),
    );
    assert_eq!(refused.status, 422, "{}", refused.text());
    assert_eq!(
        refused.json()["errors"]["email"],
        "Please enter a valid email address"
    );

    // A lead stored by an older version, which took such an address: its e-mail sent again.
    let id = lead(server.port, "dana@example.com", "mailto-older");
    smtp.wait_for_mails(1);
    let delivery = wait_for_delivery(&database, id, "email", "sent", |d| d.state == "sent");
    rusqlite::Connection::open(&database)
        .unwrap()
        .execute(
            "UPDATE leads SET email = ?1 WHERE id = ?2",
            rusqlite::params![CRAFTED, id],
        )
        .unwrap();
    let (ok, said) = cli(
        dir.path(),
        &database,
        &["outbox", "retry", &delivery.id.to_string()],
        &[],
    );
    assert!(ok, "{said}");
    let mail = &smtp.wait_for_mails(2)[1];
    let html = part(mail, "text/html");
    let href = html
        .split("href=\"mailto:")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no mailto: link in {html}"));
    assert!(
        !href.contains(['?', '&', '=']),
        "the link carries headers: mailto:{href}"
    );
    let target = percent_encoding::percent_decode_str(href)
        .decode_utf8()
        .unwrap();
    assert_eq!(target, CRAFTED, "the link opens a draft to another address");
    // The address is still shown as it was stored (escaped), for the agent to read.
    assert!(
        html.contains("a?cc=boss%40evil.example&amp;body=wire-the-money@example.com"),
        "{html}"
    );
}
