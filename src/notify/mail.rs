//! Sending e-mail: lettre's async SMTP client on the relay of `smtp_url` (STARTTLS required, TLS from the start, or
//! plain to this machine), TLS by rustls with the public roots and any CA of `smtp_ca_file`; an attempt's outcome
//! sorted into sent, try again (4xx, no connection, timeout, TLS) or failed for good (5xx); and the step-by-step
//! checks behind `truckins notify test` and `truckins check` (the session and login alone, then the test e-mail).
//! The owner's report goes the same way as the agency's e-mail about a lead.

use std::time::Duration;

use lettre::address::Envelope;
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::transport::smtp::{Error, PoolConfig};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::Channel;
use super::compose;
use super::outbox::{About, Due};
use super::worker::Outcome;
use crate::config::Settings;
use crate::config::endpoints::{Relay, Security, ca_file};
use crate::config::notify::mailbox;

/// The agency's mail: the relay, the sender and the recipients, from checked settings.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    relay: Relay,
    from: Mailbox,
    to: Vec<Mailbox>,
    /// Signs the status links of the agency's e-mail about a lead (src/status); without it, the e-mail has none.
    links: Option<crate::links::Signer>,
}

impl Mailer {
    /// `None` when e-mail is off.
    pub fn new(settings: &Settings) -> Result<Option<Mailer>, String> {
        let Some(url) = &settings.smtp_url else {
            return Ok(None);
        };
        let relay = Relay::parse(url)?;
        let from = mailbox("mail_from", settings.mail_from.as_deref().unwrap_or(""))?;
        let to = settings
            .notify_to
            .iter()
            .map(|to| mailbox("notify_to", to))
            .collect::<Result<Vec<_>, _>>()?;
        let tls = match relay.security {
            Security::Plain => Tls::None,
            security => {
                let mut parameters = TlsParameters::builder(relay.host.clone());
                if let Some(file) = &settings.smtp_ca_file {
                    for der in ca_file("smtp_ca_file", file)? {
                        let certificate = Certificate::from_der(der.to_vec())
                            .map_err(|e| format!("`smtp_ca_file` {}: {e}", file.display()))?;
                        parameters = parameters.add_root_certificate(certificate);
                    }
                }
                let parameters = parameters
                    .build_rustls()
                    .map_err(|e| format!("TLS for the relay: {e}"))?;
                if security == Security::Tls {
                    Tls::Wrapper(parameters)
                } else {
                    Tls::Required(parameters)
                }
            }
        };
        let mut builder =
            AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(relay.host.clone())
                .port(relay.port)
                .tls(tls)
                // A relay may take its time over a message (spam checks): longer than a webhook's answer.
                .timeout(Some(Duration::from_secs(settings.notify_timeout * 3)))
                // EHLO with the sending domain rather than "localhost", which some relays score as spam.
                .hello_name(ClientId::Domain(from.email.domain().to_string()))
                // Connections kept a while for the next lead (or the rest of a backlog), as many as are used.
                .pool_config(
                    PoolConfig::new()
                        .max_size(super::worker::CONCURRENT as u32)
                        .idle_timeout(Duration::from_secs(30)),
                );
        if let Some((user, password)) = &relay.credentials {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(Some(Mailer {
            transport: builder.build(),
            relay,
            from,
            to,
            links: None,
        }))
    }

    /// The same mailer, with the status links signed by `links` in the agency's e-mail about a lead.
    pub fn with_links(mut self, links: Option<crate::links::Signer>) -> Mailer {
        self.links = links;
        self
    }

    /// The status links of the agency's e-mail about `lead`: each next status, valid for 30 days from now.
    fn actions(&self, lead: &crate::store::Lead) -> Vec<(crate::store::Status, String)> {
        let Some(signer) = &self.links else {
            return Vec::new();
        };
        let now = crate::clock::now_utc();
        lead.status
            .next()
            .map(|status| (status, signer.link(lead.id, status, now)))
            .collect()
    }

    /// A quote's submission as the agency's e-mail about `due` carries it (see `compose::submission::wanted`).
    fn submission(&self, due: &Due, lead: &crate::store::Lead) -> Option<compose::Submission> {
        compose::submission::of_due(self.links.as_ref(), due, lead)
    }

    /// One attempt of an e-mail delivery (the agency's, the owner's report, or the visitor's confirmation).
    pub async fn deliver(&self, due: &Due) -> Outcome {
        let message = match (&due.about, due.channel) {
            (About::Report(payload), _) => compose::report::message(payload, &due.key, &self.from),
            (About::OptOut(payload), _) => {
                compose::optout::message(payload, &due.key, &self.from, &self.to)
            }
            // Status changes go to the webhook alone (the table's CHECK); never picked up by an e-mail lane.
            (About::Status(..), _) => {
                return Outcome::Failed("a status change is not sent by e-mail".into());
            }
            (About::Lead(lead), Channel::Autoreply) => {
                compose::autoreply_message(lead, &due.key, &self.from)
            }
            // A reminder about a lead someone worked since it was queued is not sent: it would remind of nothing.
            (About::Lead(lead), _)
                if due.kind == super::Kind::Reminder
                    && lead.status != crate::store::Status::New =>
            {
                return Outcome::Withheld(format!(
                    "not sent: the lead was marked {} before the reminder went",
                    lead.status
                ));
            }
            // An x-date is not sent for a lead won, erased or opted out since it was queued, nor for an expiration
            // changed meanwhile: it would ask to re-quote what is not to be re-quoted.
            (About::Lead(lead), _)
                if due.kind == super::Kind::Xdate
                    && let Some(reason) = compose::xdate::withheld(lead, &due.standing) =>
            {
                return Outcome::Withheld(reason);
            }
            (About::Lead(lead), _) => compose::agency_message(
                lead,
                due.kind,
                &due.standing,
                compose::Links {
                    actions: &self.actions(lead),
                    submission: self.submission(due, lead).as_ref(),
                },
                &due.key,
                &self.from,
                &self.to,
            ),
        };
        match message {
            // The agency's e-mail (a lead's or the report) to several addresses, refused for good (one refused RCPT
            // stops the whole transaction, nothing sent): sent again to each recipient on its own, so that one
            // address refused does not stop it reaching the others.
            Ok(message) if due.channel == Channel::Email && message.envelope().to().len() > 1 => {
                let raw = message.formatted();
                let together = self.sorted(self.transport.send_raw(message.envelope(), &raw).await);
                if !matches!(together, Outcome::Failed(_)) {
                    return together;
                }
                let mut outcomes = Vec::with_capacity(message.envelope().to().len());
                for to in message.envelope().to() {
                    let outcome =
                        match Envelope::new(Some(self.from.email.clone()), vec![to.clone()]) {
                            Ok(envelope) => {
                                self.sorted(self.transport.send_raw(&envelope, &raw).await)
                            }
                            Err(error) => {
                                Outcome::Failed(format!("the e-mail could not be built: {error}"))
                            }
                        };
                    outcomes.push((to.to_string(), outcome));
                }
                combine(outcomes)
            }
            Ok(message) => self.send(message).await,
            // Nothing about the lead (or the queued report) will change: trying again cannot help.
            Err(reason) => Outcome::Failed(reason),
        }
    }

    fn sorted<T>(&self, result: Result<T, Error>) -> Outcome {
        match result {
            Ok(_) => Outcome::Sent,
            Err(error) if error.is_permanent() => {
                Outcome::Failed(format!("the relay refused it: {error}"))
            }
            Err(error) => Outcome::Retry(describe(&error, &self.relay)),
        }
    }

    async fn send(&self, message: Message) -> Outcome {
        self.sorted(self.transport.send(message).await)
    }

    /// `truckins notify test`: connects (TLS, authentication) and sends a test e-mail to `notify_to`, saying which
    /// step failed.
    pub async fn test(&self) -> Result<String, String> {
        self.verify().await?;
        self.send_test().await
    }

    /// Connects to the relay, greets it, takes TLS as `smtp_url` says and logs in, sending nothing: what `truckins
    /// check` asks of the relay, and `notify test`'s first step. Says what was done, or which step failed.
    pub async fn verify(&self) -> Result<String, String> {
        let place = self.relay.describe();
        match self.transport.test_connection().await {
            Ok(true) => {
                let login = if self.relay.credentials.is_some() {
                    ", accepted the login"
                } else {
                    ", no login asked for"
                };
                Ok(format!("{place} answered{login}"))
            }
            Ok(false) => Err(format!(
                "{place}: the relay did not answer NOOP after connecting"
            )),
            Err(error) if error.is_permanent() || error.is_transient() => {
                let what = if self.relay.credentials.is_some() {
                    "authentication refused"
                } else {
                    "the relay refused the session (does it need a user name and password in smtp_url?)"
                };
                Err(format!("{place}: {what}: {error}"))
            }
            Err(error) => Err(format!("{place}: {}", describe(&error, &self.relay))),
        }
    }

    /// Sends the test e-mail from `mail_from` to `notify_to` (`notify test`, and `truckins check --send-test`).
    pub async fn send_test(&self) -> Result<String, String> {
        let place = self.relay.describe();
        let message = compose::test_message(&self.from, &self.to)?;
        let recipients = self
            .to
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        match self.transport.send(message).await {
            Ok(response) => Ok(format!(
                "sent a test e-mail through {place} from {} to {recipients} ({})",
                self.from,
                response.message().collect::<Vec<_>>().join(" ")
            )),
            Err(error) if error.is_permanent() || error.is_transient() => Err(format!(
                "{place}: recipient or sender rejected (from {}, to {recipients}): {error}",
                self.from
            )),
            Err(error) => Err(format!("{place}: {}", describe(&error, &self.relay))),
        }
    }

    /// The sender and the recipients, as the e-mail names them.
    pub fn addresses(&self) -> (String, Vec<String>) {
        (
            self.from.to_string(),
            self.to.iter().map(ToString::to_string).collect(),
        )
    }
}

/// The outcome of the agency's e-mail sent to each recipient on its own: sent when it reached at least one (those
/// it did not reach are named in the log, not tried again: that would send it twice to the others), tried again
/// when none took it and one may later, failed only when every recipient refused it for good.
pub fn combine(outcomes: Vec<(String, Outcome)>) -> Outcome {
    let missed: Vec<String> = outcomes
        .iter()
        .filter_map(|(to, outcome)| match outcome {
            Outcome::Sent => None,
            Outcome::Retry(reason) | Outcome::Failed(reason) | Outcome::Withheld(reason) => {
                Some(format!("{to}: {reason}"))
            }
        })
        .collect();
    if outcomes
        .iter()
        .any(|(_, outcome)| *outcome == Outcome::Sent)
    {
        if !missed.is_empty() {
            rocket::warn!(
                "the agency's e-mail was sent, but not to: {}",
                missed.join("; ")
            );
        }
        Outcome::Sent
    } else if outcomes
        .iter()
        .any(|(_, outcome)| matches!(outcome, Outcome::Retry(_)))
    {
        Outcome::Retry(missed.join("; "))
    } else {
        Outcome::Failed(missed.join("; "))
    }
}

/// A failed attempt in words: what went wrong, in the terms `notify test` promises.
fn describe(error: &Error, relay: &Relay) -> String {
    let place = format!("{}:{}", relay.host, relay.port);
    if error.is_timeout() {
        format!("host unreachable: {place} did not answer in time ({error})")
    } else if error.is_tls() || looks_like_tls(&source_chain(error)) {
        format!("TLS failed with {place} (is the certificate trusted? see smtp_ca_file): {error}")
    } else if error.is_transient() {
        format!("the relay said try later: {error}")
    } else if error.is_client() {
        // lettre's own refusals, e.g. a relay that does not offer STARTTLS when it is required.
        format!("{place}: {error}")
    } else if error.is_response() {
        format!("{place} answered something that is not SMTP: {error}")
    } else {
        format!("host unreachable: {place}: {}", source_chain(error))
    }
}

/// Whether an error's words are rustls' (a certificate not trusted, a handshake that failed): lettre reports some
/// of them as connection errors.
fn looks_like_tls(text: &str) -> bool {
    let text = text.to_lowercase();
    ["certificate", "handshake", "tls", "unknownissuer"]
        .iter()
        .any(|word| text.contains(word))
}

/// An error with its sources ("Connection error: Connection refused (os error 111)").
fn source_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certificate_errors_read_as_tls() {
        assert!(looks_like_tls(
            "Connection error: invalid peer certificate: UnknownIssuer"
        ));
        assert!(!looks_like_tls(
            "Connection error: Connection refused (os error 111)"
        ));
    }

    #[test]
    fn one_refused_recipient_does_not_fail_the_agency_e_mail() {
        let sent = || ("a@example.com".to_string(), Outcome::Sent);
        let refused = || {
            (
                "b@example.com".to_string(),
                Outcome::Failed("550 no such user".into()),
            )
        };
        let later = || {
            (
                "c@example.com".to_string(),
                Outcome::Retry("451 later".into()),
            )
        };
        assert_eq!(combine(vec![sent(), refused()]), Outcome::Sent);
        assert_eq!(combine(vec![refused(), sent(), later()]), Outcome::Sent);
        assert_eq!(
            combine(vec![refused(), refused()]),
            Outcome::Failed(
                "b@example.com: 550 no such user; b@example.com: 550 no such user".into()
            )
        );
        assert!(
            matches!(combine(vec![refused(), later()]), Outcome::Retry(reason) if reason.contains("550") && reason.contains("451"))
        );
    }
}
