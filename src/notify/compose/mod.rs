//! The words of the notifications: the agency's e-mail about a lead (a subject to triage by, every field in a plain
//! text and an HTML part, the consent evidence, where the lead came from, the command to move it along), the
//! visitor's short confirmation, the test e-mail, and the webhook's JSON; the owner's report in [`report`].
//! Whatever the visitor typed goes into the HTML escaped and into headers only through lettre's encoding.

use crate::text::escape_html;
use lettre::Message;
use lettre::message::header::ContentType;
use lettre::message::{Mailbox, MessageBuilder, MultiPart, SinglePart};

mod autoreply;
mod facts;
mod line;
mod notes;
pub mod optout;
pub mod report;
mod rows;
pub mod submission;
mod webhook;
pub mod xdate;
use super::Kind;
use crate::consent::Standing;
use crate::store::{Lead, Source};
use autoreply::AutoSubmitted;
pub use autoreply::{autoreply_message, autoreply_text};
use contract::locale::Locale;
use facts::agency;
pub use facts::{type_label, type_label_in};
use line::{header_text, one_line};
pub use notes::{SUSPECTED_SPAM, standing_note, suspected_spam_note};
pub use rows::sections;
pub use submission::Submission;
pub use webhook::{lead_webhook_body, status_webhook_body, webhook_body};

fn is_quote(lead: &Lead) -> bool {
    lead.source == Source::Quote
}

/// What the agency's e-mail about a claim starts its subject with (the news of a claim also goes ahead of every
/// other delivery waiting: notify/worker).
pub const URGENT_CLAIM: &str = "URGENT CLAIM: ";

/// `1 truck`, `2 trucks`: the agency's words (the visitor's autoreply has its own, in their language).
fn trucks(count: i64) -> String {
    if count == 1 {
        "1 truck".into()
    } else {
        format!("{count} trucks")
    }
}

/// `New quote: Maria Lopez, Lopez Hauling, Hot Shot, 2 trucks`, `New message: Maria Lopez, Certificate of insurance`
/// or `Certificate request: Maria Lopez, Lopez Hauling LLC, for Acme Logistics, needed by 2026-03-03` (`URGENT
/// certificate request: ...` when it is needed the day it was asked for or the next).
pub fn subject(lead: &Lead) -> String {
    let mut parts = vec![one_line(&lead.name)];
    let filled = |text: &Option<String>| text.as_deref().map(one_line).filter(|t| !t.is_empty());
    match lead.source {
        Source::Quote => {
            parts.extend(filled(&lead.company));
            parts.extend(
                lead.insurance_type
                    .as_deref()
                    .map(|t| type_label(t).to_string()),
            );
            parts.extend(lead.vehicle_count.map(trucks));
            format!("New quote: {}", parts.join(", "))
        }
        Source::Contact => {
            parts.extend(filled(&lead.subject));
            format!("New message: {}", parts.join(", "))
        }
        Source::Coi => {
            parts.extend(filled(&lead.insured_name));
            parts.extend(filled(&lead.certificate_holder).map(|holder| format!("for {holder}")));
            parts.extend(filled(&lead.needed_by).map(|date| format!("needed by {date}")));
            let request = if is_urgent(lead) {
                "URGENT certificate request"
            } else {
                "Certificate request"
            };
            format!("{request}: {}", parts.join(", "))
        }
        // `URGENT CLAIM: Rosa Diaz, Waco, TX, loss 2026-03-02 09:15`: what the agent needs before opening it.
        Source::Claim => {
            let request = lead.request.clone().unwrap_or_default();
            let place: Vec<&str> = ["loss_city", "loss_state"]
                .iter()
                .filter_map(|name| request.get(name))
                .collect();
            if !place.is_empty() {
                parts.push(one_line(&place.join(", ")));
            }
            let when: Vec<&str> = ["loss_date", "loss_time"]
                .iter()
                .filter_map(|name| request.get(name))
                .collect();
            if !when.is_empty() {
                parts.push(format!("loss {}", when.join(" ")));
            }
            format!("{URGENT_CLAIM}{}", parts.join(", "))
        }
        // `Policy change request: Rosa Diaz, add a vehicle, effective 2026-12-01`.
        Source::Change => {
            let request = lead.request.clone().unwrap_or_default();
            let insured = filled(&lead.insured_name).filter(|insured| *insured != parts[0]);
            parts.extend(insured);
            if let Some(kind) = request
                .get("change_kind")
                .and_then(contract::forms::policy_change::ChangeKind::find)
            {
                parts.push(lower_first(kind.label));
            }
            if let Some(date) = request.get("effective_date") {
                parts.push(format!("effective {date}"));
            }
            format!("Policy change request: {}", parts.join(", "))
        }
    }
}

pub(super) use crate::text::lower_first;

/// The subject of the agency's e-mail about `kind` of news of the lead; `[ES] ` first for a lead sent in Spanish,
/// so the inbox shows who to call back in Spanish; [`SUSPECTED_SPAM`] before everything for a suspected-spam lead.
pub fn agency_subject(lead: &Lead, kind: Kind) -> String {
    let subject = about(lead, kind);
    let subject = match lead.language.0 {
        Locale::En => subject,
        // A claim's subject still starts with its urgency, which an inbox rule may look for.
        Locale::Es => match subject.strip_prefix(URGENT_CLAIM) {
            Some(rest) => format!("{URGENT_CLAIM}[ES] {rest}"),
            None => format!("[ES] {subject}"),
        },
    };
    notes::marked(lead, subject)
}

fn about(lead: &Lead, kind: Kind) -> String {
    match kind {
        // A report and an opt-out are about no lead and have their own subjects (report.rs, optout.rs); they never
        // come here.
        Kind::Lead | Kind::Report | Kind::OptOut | Kind::Status => subject(lead),
        // `Re-quote Lopez Hauling: policy expires March 5, 2027`.
        Kind::Xdate => xdate::subject(lead),
        // `Still waiting: Maria Lopez asked for a quote 1 hour ago`.
        Kind::Reminder => {
            let asked = match lead.source {
                Source::Quote => "asked for a quote",
                Source::Contact => "sent a message",
                Source::Coi => "asked for a certificate",
                Source::Claim => "reported a claim",
                Source::Change => "asked for a policy change",
            };
            let created = time::OffsetDateTime::parse(
                &lead.created_at,
                &time::format_description::well_known::Rfc3339,
            );
            let ago = created
                .map(|created| ago(crate::clock::now_utc() - created))
                .unwrap_or_default();
            format!("Still waiting: {} {asked} {ago}", one_line(&lead.name))
                .trim_end()
                .to_string()
        }
        // `Quote details: Maria Lopez, Lopez Hauling`: the quote it completes is found by the name and company.
        Kind::Details => {
            let mut parts = vec![one_line(&lead.name)];
            parts.extend(
                lead.company
                    .as_deref()
                    .map(one_line)
                    .filter(|c| !c.is_empty()),
            );
            format!("Quote details: {}", parts.join(", "))
        }
    }
}

/// How long ago, in the largest whole unit: `45 minutes ago`, `1 hour ago`, `3 days ago`.
fn ago(elapsed: time::Duration) -> String {
    let minutes = elapsed.whole_minutes().max(0);
    let (count, unit) = match minutes {
        0..60 => (minutes, "minute"),
        60..2_880 => (minutes / 60, "hour"),
        _ => (minutes / 1_440, "day"),
    };
    format!("{count} {unit}{} ago", if count == 1 { "" } else { "s" })
}

/// Whether a certificate request is needed the day it was made or the next: the agency's days, so the dates are
/// the server's local ones (clock::local_date), as `needed_by` was checked at submission.
pub fn is_urgent(lead: &Lead) -> bool {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let needed = lead
        .needed_by
        .as_deref()
        .and_then(|date| time::Date::parse(date, format).ok());
    let submitted = time::OffsetDateTime::parse(
        &lead.created_at,
        &time::format_description::well_known::Rfc3339,
    )
    .map(crate::clock::local_date)
    .ok();
    match (lead.source, needed, submitted) {
        (Source::Coi, Some(needed), Some(submitted)) => submitted
            .next_day()
            .is_some_and(|tomorrow| needed <= tomorrow),
        _ => false,
    }
}

/// The command that moves a lead to its next status.
pub fn status_command(id: i64) -> String {
    format!("truckins leads status {id} contacted   (or quoted, won, lost, not_a_fit)")
}

/// The status links of the agency's e-mail: each next status with its signed link (src/status).
pub type Actions = [(crate::store::Status, String)];

/// What the agency's e-mail links: each next status's page, and a quote's submission (its page and summary).
#[derive(Default, Clone, Copy)]
pub struct Links<'a> {
    pub actions: &'a Actions,
    pub submission: Option<&'a Submission>,
}

/// The plain-text part of the agency's e-mail.
pub fn agency_text(lead: &Lead, kind: Kind) -> String {
    agency_text_with(lead, kind, &Standing::default(), Links::default())
}

/// [`agency_text`], with the lead's notes at the top (its standing, suspected spam), its status links and a quote's
/// submission (its signed page and summary).
pub fn agency_text_with(lead: &Lead, kind: Kind, standing: &Standing, links: Links<'_>) -> String {
    let Links {
        actions,
        submission,
    } = links;
    let note: String = notes::notes(lead, standing)
        .iter()
        .map(|note| format!("{note}\n\n"))
        .collect();
    let mut out = format!(
        "{note}{}\n\n{}\n",
        agency_subject(lead, kind),
        answer_how(lead)
    );
    if !actions.is_empty() {
        out.push_str("\nMark this lead (each link asks you to confirm):\n");
        for (status, link) in actions {
            out.push_str(&format!("  {}: {link}\n", status.label()));
        }
    }
    if let Some(submission) = submission {
        out.push_str(&submission::text(lead, kind, submission));
    }
    for (title, rows) in sections(lead) {
        out.push_str(&format!(
            "\n{title}\n{}\n",
            "-".repeat(title.chars().count())
        ));
        for (label, value) in rows {
            let mut lines = value.lines();
            out.push_str(&format!(
                "{:<15} {}\n",
                format!("{label}:"),
                lines.next().unwrap_or("")
            ));
            for line in lines {
                out.push_str(&format!("{:<15} {line}\n", ""));
            }
        }
    }
    out
}

/// How the agent answers the lead: by replying, or by phone when no address was given (a claim), with the
/// reference a client quotes when they call.
fn answer_how(lead: &Lead) -> String {
    let name = one_line(&lead.name);
    let mut how = if lead.email.is_empty() {
        format!("No e-mail address was given: call {name} back.")
    } else {
        format!("Reply to this e-mail to answer {name} directly.")
    };
    if let Some(reference) = lead.source.reference(lead.id) {
        how.push_str(&format!(" Their reference: {reference}."));
    }
    how
}

/// The HTML part of the agency's e-mail: the same rows, every value escaped.
pub fn agency_html(lead: &Lead, kind: Kind) -> String {
    agency_html_with(lead, kind, &Standing::default(), Links::default())
}

/// [`agency_html`], with the lead's notes at the top (its standing, suspected spam), its status links as buttons and
/// a quote's submission.
pub fn agency_html_with(lead: &Lead, kind: Kind, standing: &Standing, links: Links<'_>) -> String {
    let Links {
        actions,
        submission,
    } = links;
    let note: String = notes::notes(lead, standing)
        .iter()
        .map(|note| format!("<p><strong>{}</strong></p>", escape_html(note)))
        .collect();
    let mut out = format!(
        "<!doctype html><html><body style=\"font-family:sans-serif;font-size:14px\">{note}\
         <h1 style=\"font-size:18px\">{}</h1><p>{}</p>",
        escape_html(&agency_subject(lead, kind)),
        escape_html(&answer_how(lead))
    );
    if !actions.is_empty() {
        out.push_str("<p>Mark this lead (each link asks you to confirm):</p><p>");
        for (status, link) in actions {
            out.push_str(&format!(
                "<a href=\"{}\" style=\"display:inline-block;margin:0 8px 8px 0;padding:8px 14px;border:1px solid #1c1917;\
                 border-radius:6px;background:#fbbf24;color:#1c1917;font-weight:bold;text-decoration:none\">{}</a>",
                escape_html(link),
                status.label()
            ));
        }
        out.push_str("</p>");
    }
    if let Some(submission) = submission {
        out.push_str(&submission::html(lead, kind, submission));
    }
    for (title, rows) in sections(lead) {
        out.push_str(&format!(
            "<h2 style=\"font-size:15px\">{}</h2><table cellpadding=\"4\">",
            escape_html(title)
        ));
        for (label, value) in rows {
            out.push_str(&format!(
                "<tr><th align=\"left\" valign=\"top\">{}</th><td style=\"white-space:pre-wrap\">{}</td></tr>",
                escape_html(label),
                cell(label, &value)
            ));
        }
        out.push_str("</table>");
    }
    out.push_str("</body></html>");
    out
}

/// A value of the HTML table, escaped; the phone number and the e-mail address as links the agent can tap.
fn cell(label: &str, value: &str) -> String {
    let text = escape_html(value);
    match label {
        "Phone" => format!("<a href=\"tel:{text}\">{text}</a>"),
        "E-mail" => format!("<a href=\"{}\">{text}</a>", escape_html(&mailto(value))),
        _ => text,
    }
}

/// What of an address stays as it is in a `mailto:` link: letters, digits, `@`, `.`, `-` and `_`.
const MAILTO_KEEPS: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'@')
    .remove(b'.')
    .remove(b'-')
    .remove(b'_');

/// A `mailto:` link to `address` and nobody else (RFC 6068): every other character percent-encoded, so that a `?`,
/// `&` or `%` the visitor typed cannot add a Cc, a subject or a body to the agent's reply, nor hide another address.
/// Stored addresses are checked (ASCII, no `?`), but older leads may hold anything.
fn mailto(address: &str) -> String {
    format!(
        "mailto:{}",
        percent_encoding::utf8_percent_encode(address, MAILTO_KEEPS)
    )
}

/// The part of `from` after the `@`, for Message-IDs.
fn domain(from: &Mailbox) -> String {
    from.email.domain().to_string()
}

/// The agency's e-mail about `lead`: from the agency's address, Reply-To the visitor (when their address is one
/// lettre accepts), to every `notify_to`, its Message-ID made of the delivery key (the same on every attempt).
pub fn agency_message(
    lead: &Lead,
    kind: Kind,
    standing: &Standing,
    links: Links<'_>,
    key: &str,
    from: &Mailbox,
    to: &[Mailbox],
) -> Result<Message, String> {
    let mut builder = to_the_agency(&agency_subject(lead, kind), Some(key), from, to);
    match lead.email.parse() {
        Ok(address) => {
            builder = builder.reply_to(Mailbox::new(
                Some(header_text(&one_line(&lead.name))),
                address,
            ))
        }
        // A claim may come without an address: the agency calls back.
        Err(_) if lead.email.is_empty() => {}
        // Stored, but not an address lettre can put in a header: the body still shows it.
        Err(_) => rocket::warn!("lead {}: its e-mail address cannot be a Reply-To", lead.id),
    }
    builder
        .multipart(MultiPart::alternative_plain_html(
            agency_text_with(lead, kind, standing, links),
            agency_html_with(lead, kind, standing, links),
        ))
        .map_err(|e| format!("the e-mail could not be built: {e}"))
}

/// An e-mail to the agency: from its address, to every `notify_to`, titled, and for a delivery a Message-ID made of
/// its key (the same on every attempt).
fn to_the_agency(title: &str, key: Option<&str>, from: &Mailbox, to: &[Mailbox]) -> MessageBuilder {
    let mut builder = Message::builder()
        .from(from.clone())
        .subject(header_text(title));
    if let Some(key) = key {
        builder = builder.message_id(Some(format!("<{key}@{}>", domain(from))));
    }
    for recipient in to {
        builder = builder.to(recipient.clone());
    }
    builder
}

/// `truckins notify test`'s e-mail.
pub fn test_message(from: &Mailbox, to: &[Mailbox]) -> Result<Message, String> {
    to_the_agency("truckins: test of the lead notifications", None, from, to)
        .singlepart(SinglePart::builder().header(ContentType::TEXT_PLAIN).body(
            "This is a test sent by `truckins notify test` with the server's settings. New leads will be sent to \
             this address like this.\n"
                .to_string(),
        ))
        .map_err(|e| format!("the e-mail could not be built: {e}"))
}

#[cfg(test)]
mod tests;
