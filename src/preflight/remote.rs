//! The checks that ask another program: the mail relay (connect, greet, TLS as `smtp_url` says, log in; one test
//! e-mail only with `--send-test`), the webhook (one signed test event) and Litestream's control socket. Each goes
//! through the client the server itself uses (`notify::mail::Mailer`, `notify::webhook::Webhook`,
//! `replica::socket::Client`), so what passes here is what the server will do, and each has a deadline.

use std::future::Future;
use std::time::Duration;

use rocket::tokio;

use super::Check;
use crate::config::Settings;
use crate::notify::mail::Mailer;
use crate::notify::webhook::{Answer, Webhook};
use crate::replica::socket::Client;

/// How long a whole exchange with the relay may take: what the relay is allowed for one command (three times
/// `notify_timeout`), so a check never hangs on a relay that accepts the connection and then says nothing.
fn relay_deadline(settings: &Settings) -> Duration {
    Duration::from_secs(settings.notify_timeout * 3)
}

/// `future` within `deadline`, or an error saying how long it was waited for.
async fn within<T>(
    deadline: Duration,
    future: impl Future<Output = Result<T, String>>,
) -> Result<T, String> {
    tokio::time::timeout(deadline, future)
        .await
        .unwrap_or_else(|_| {
            Err(format!(
                "no answer within {} s (three times notify_timeout)",
                deadline.as_secs()
            ))
        })
}

/// The relay (`smtp`) and, when asked, the test e-mail (`email_test`).
pub async fn mail(settings: &Settings, send_test: bool) -> Vec<Check> {
    let mut checks = Vec::new();
    let mailer = match Mailer::new(settings) {
        Ok(Some(mailer)) => mailer,
        Ok(None) => {
            checks.push(Check::skip(
                "smtp",
                "smtp_url not set: leads get no e-mail (they are stored, and posted to the webhook if one is set); \
                 set smtp_url, mail_from and notify_to",
            ));
            if send_test {
                checks.push(Check::fail(
                    "email_test",
                    "--send-test, but there is no relay to send through (smtp_url)",
                ));
            }
            return checks;
        }
        Err(why) => {
            checks.push(Check::fail("smtp", why));
            return checks;
        }
    };
    let deadline = relay_deadline(settings);
    let (from, to) = mailer.addresses();
    let verified = within(deadline, mailer.verify()).await;
    let relay_ok = verified.is_ok();
    checks.push(match verified {
        Ok(what) => Check::ok(
            "smtp",
            format!("{what}; mail from {from} to {}", to.join(", ")),
        ),
        Err(why) => Check::fail("smtp", why),
    });
    if send_test {
        checks.push(if relay_ok {
            match within(deadline, mailer.send_test()).await {
                Ok(what) => Check::ok("email_test", what),
                Err(why) => Check::fail("email_test", why),
            }
        } else {
            Check::skip("email_test", "not sent: the relay check above failed")
        });
    }
    checks
}

/// The webhook, and its answer (for the clock's comparison) when it gave one.
pub async fn webhook(settings: &Settings) -> (Check, Option<Answer>) {
    let webhook = match Webhook::new(settings) {
        Ok(Some(webhook)) => webhook,
        Ok(None) => {
            return (
                Check::skip(
                    "webhook",
                    "webhook_url not set: no CRM or automation hook gets the leads",
                ),
                None,
            );
        }
        Err(why) => return (Check::fail("webhook", why), None),
    };
    // The webhook's own deadline is `notify_timeout`, as for a lead's delivery.
    match webhook.probe().await {
        Ok(answer) => (webhook_answered(&webhook.describe(), &answer), Some(answer)),
        Err(why) => (Check::fail("webhook", why), None),
    }
}

/// Any answer under 500 shows a receiver at the address; a 5xx is a receiver that is failing.
fn webhook_answered(place: &str, answer: &Answer) -> Check {
    let status = answer.status;
    if status.is_server_error() {
        Check::fail(
            "webhook",
            format!(
                "{place} answered {status} to a signed test event: the receiver is failing (a lead's delivery \
                 would be retried until it answers otherwise)"
            ),
        )
    } else if status.is_success() {
        Check::ok(
            "webhook",
            format!("{place} answered {status} to a signed test event"),
        )
    } else {
        Check::ok(
            "webhook",
            format!(
                "{place} answered {status} to a signed test event: it answers, but a lead's delivery answered so \
                 would fail (does the receiver refuse the \"test\" event, or is the path wrong?)"
            ),
        )
    }
}

/// Litestream's control socket, when `replica_socket` is set.
pub async fn replica(settings: &Settings) -> Check {
    let Some(socket) = &settings.replica_socket else {
        return Check::skip(
            "replica",
            "replica_socket not set: no copy off this machine (docs/replication.md)",
        );
    };
    let client = Client::new(socket, &settings.database);
    // Without `wait`: Litestream answers at once with where it stands; nothing is copied for the check's sake.
    let deadline = Duration::from_secs(settings.notify_timeout);
    match client.sync(false, deadline).await {
        Ok(positions) => {
            let behind = positions.local.saturating_sub(positions.replicated);
            let state = if behind == 0 {
                "the replica has every one".to_string()
            } else {
                format!("the replica {behind} behind (it copies within seconds)")
            };
            Check::ok(
                "replica",
                format!(
                    "Litestream answers at {} for {}: transaction {} here, {state}",
                    socket.display(),
                    client.database(),
                    positions.local
                ),
            )
        }
        Err(why) => Check::fail(
            "replica",
            format!("Litestream at {}: {why}", socket.display()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preflight::Status;
    use hyper::StatusCode;

    fn answered(code: u16) -> Check {
        let answer = Answer {
            status: StatusCode::from_u16(code).unwrap(),
            date: None,
            received_at: std::time::SystemTime::now(),
        };
        webhook_answered("https://hooks.example.com:443", &answer)
    }

    #[test]
    fn a_webhook_that_answers_under_500_passes_and_a_failing_one_does_not() {
        assert_eq!(answered(200).status, Status::Ok);
        let refused = answered(404);
        assert_eq!(refused.status, Status::Ok);
        assert!(refused.detail.contains("would fail"), "{}", refused.detail);
        assert_eq!(answered(502).status, Status::Fail);
    }
}
