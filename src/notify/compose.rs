//! The words of the notifications: the agency's e-mail about a lead (a subject to triage by, every field in a plain
//! text and an HTML part, the consent evidence, where the lead came from, the command to move it along), the
//! visitor's short confirmation, the test e-mail, and the webhook's JSON. Whatever the visitor typed goes into the
//! HTML escaped and into headers only through lettre's encoding.

use lettre::Message;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use serde_json::json;

use crate::leads::escape_html;
use crate::leads::store::{Lead, Source};

/// "hotshot\tHot Shot" lines, from content/forms.toml (written by build.rs).
const TYPE_LABELS: &str = include_str!(concat!(env!("OUT_DIR"), "/insurance-type-labels.txt"));
/// The agency's name and phone number, one a line, from content/site.toml.
const AGENCY: &str = include_str!(concat!(env!("OUT_DIR"), "/agency.txt"));

fn agency() -> (&'static str, &'static str) {
    let mut lines = AGENCY.lines();
    (
        lines.next().unwrap_or("").trim(),
        lines.next().unwrap_or("").trim(),
    )
}

/// The label visitors saw for an insurance type's stored value ("hotshot" -> "Hot Shot").
pub fn type_label(value: &str) -> &str {
    TYPE_LABELS
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .find(|(known, _)| *known == value)
        .map_or(value, |(_, label)| label)
}

fn is_quote(lead: &Lead) -> bool {
    lead.source == Source::Quote
}

/// One line, without control characters: for subjects and table cells built from what a visitor typed.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

fn trucks(count: i64) -> String {
    if count == 1 {
        "1 truck".into()
    } else {
        format!("{count} trucks")
    }
}

/// `New quote: Maria Lopez, Lopez Hauling, Hot Shot, 2 trucks` or `New message: Maria Lopez, Certificate of insurance`.
pub fn subject(lead: &Lead) -> String {
    let mut parts = vec![one_line(&lead.name)];
    if is_quote(lead) {
        parts.extend(
            lead.company
                .as_deref()
                .map(one_line)
                .filter(|c| !c.is_empty()),
        );
        parts.extend(
            lead.insurance_type
                .as_deref()
                .map(|t| type_label(t).to_string()),
        );
        parts.extend(lead.vehicle_count.map(trucks));
        format!("New quote: {}", parts.join(", "))
    } else {
        parts.extend(
            lead.subject
                .as_deref()
                .map(one_line)
                .filter(|s| !s.is_empty()),
        );
        format!("New message: {}", parts.join(", "))
    }
}

/// The sections of the agency's e-mail: a title and (label, value) rows, values as stored.
fn sections(lead: &Lead) -> Vec<(&'static str, Vec<(&'static str, String)>)> {
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let mut about = vec![
        ("Name", lead.name.clone()),
        ("E-mail", lead.email.clone()),
        ("Phone", text(&lead.phone)),
        ("Company", text(&lead.company)),
    ];
    if is_quote(lead) {
        about.push((
            "Insurance type",
            lead.insurance_type
                .as_deref()
                .map(type_label)
                .unwrap_or("")
                .into(),
        ));
        about.push((
            "Vehicles",
            lead.vehicle_count
                .map(|n| n.to_string())
                .unwrap_or_default(),
        ));
        about.push(("DOT number", text(&lead.dot_number)));
        if let Some(snapshot) = &lead.carrier_snapshot {
            // As FMCSA's census had it when the quote came in (src/carriers): what the underwriter checks first.
            about.push(("Census match", snapshot.details()));
        }
    } else {
        about.push(("Subject", text(&lead.subject)));
        about.push(("Message", text(&lead.message)));
    }
    let consent = if lead.consent_given {
        vec![
            ("Given", "yes".to_string()),
            ("At", text(&lead.consent_at)),
            ("From IP", text(&lead.ip)),
            ("Text version", text(&lead.consent_version)),
            ("Text", text(&lead.consent_text)),
        ]
    } else {
        vec![
            (
                "Given",
                "no (a contact message asks for no consent)".to_string(),
            ),
            ("From IP", text(&lead.ip)),
        ]
    };
    let origin = vec![
        ("Page", text(&lead.page_url)),
        ("Landing page", text(&lead.landing_page)),
        ("Referrer", text(&lead.referrer)),
        ("utm_source", text(&lead.utm_source)),
        ("utm_medium", text(&lead.utm_medium)),
        ("utm_campaign", text(&lead.utm_campaign)),
        ("utm_term", text(&lead.utm_term)),
        ("utm_content", text(&lead.utm_content)),
        ("gclid", text(&lead.gclid)),
        ("Browser", text(&lead.user_agent)),
    ];
    let record = vec![
        (
            "Lead",
            format!(
                "#{} ({} form), received {}",
                lead.id, lead.source, lead.created_at
            ),
        ),
        ("Status", lead.status.to_string()),
        ("Move it along", status_command(lead.id)),
    ];
    [
        ("The lead", about),
        ("Consent", consent),
        ("Where it came from", origin),
        ("In truckins", record),
    ]
    .into_iter()
    .map(|(title, rows)| {
        (
            title,
            rows.into_iter()
                .filter(|(_, value)| !value.trim().is_empty())
                .collect(),
        )
    })
    .collect()
}

/// The command that moves a lead to its next status.
pub fn status_command(id: i64) -> String {
    format!("truckins leads status {id} contacted   (or quoted, won, lost)")
}

/// The plain-text part of the agency's e-mail.
pub fn agency_text(lead: &Lead) -> String {
    let mut out = format!(
        "{}\n\nReply to this e-mail to answer {} directly.\n",
        subject(lead),
        one_line(&lead.name)
    );
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

/// The HTML part of the agency's e-mail: the same rows, every value escaped.
pub fn agency_html(lead: &Lead) -> String {
    let mut out = format!(
        "<!doctype html><html><body style=\"font-family:sans-serif;font-size:14px\"><h1 style=\"font-size:18px\">{}</h1>\
         <p>Reply to this e-mail to answer {} directly.</p>",
        escape_html(&subject(lead)),
        escape_html(&one_line(&lead.name))
    );
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
        "E-mail" => format!("<a href=\"mailto:{text}\">{text}</a>"),
        _ => text,
    }
}

/// The part of `from` after the `@`, for Message-IDs.
fn domain(from: &Mailbox) -> String {
    from.email.domain().to_string()
}

/// The agency's e-mail about `lead`: from the agency's address, Reply-To the visitor (when their address is one
/// lettre accepts), to every `notify_to`, its Message-ID made of the delivery key (the same on every attempt).
pub fn agency_message(
    lead: &Lead,
    key: &str,
    from: &Mailbox,
    to: &[Mailbox],
) -> Result<Message, String> {
    let mut builder = Message::builder()
        .from(from.clone())
        .subject(subject(lead))
        .message_id(Some(format!("<{key}@{}>", domain(from))));
    for recipient in to {
        builder = builder.to(recipient.clone());
    }
    match lead.email.parse() {
        Ok(address) => {
            builder = builder.reply_to(Mailbox::new(Some(one_line(&lead.name)), address))
        }
        // Stored, but not an address lettre can put in a header: the body still shows it.
        Err(_) => rocket::warn!("lead {}: its e-mail address cannot be a Reply-To", lead.id),
    }
    builder
        .multipart(MultiPart::alternative_plain_html(
            agency_text(lead),
            agency_html(lead),
        ))
        .map_err(|e| format!("the e-mail could not be built: {e}"))
}

/// `Auto-Submitted: auto-generated` (RFC 3834): the visitor's confirmation is sent by a program, so mail systems
/// must not answer it automatically.
#[derive(Clone)]
struct AutoSubmitted;

impl Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(AutoSubmitted)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "auto-generated".to_string())
    }
}

/// The visitor's confirmation: short, transactional, no marketing.
pub fn autoreply_text(lead: &Lead) -> String {
    let (brand, phone) = agency();
    let what = if is_quote(lead) {
        let mut details: Vec<String> = lead
            .insurance_type
            .as_deref()
            .map(|t| type_label(t).to_string())
            .into_iter()
            .collect();
        details.extend(lead.vehicle_count.map(trucks));
        format!("your quote request ({})", details.join(", "))
    } else {
        "your message".to_string()
    };
    format!(
        "Hello,\n\nThank you: we have {what}. An agent will get back to you by phone or e-mail during \
         business hours.\n\nIf it is urgent, call us at {phone}.\n\n{brand}\n\n--\nYou get \
         this one confirmation because this address was entered in a form on our website. We will not add it to \
         any mailing list. If it was not you, please ignore this message.\n",
    )
}

pub fn autoreply_message(lead: &Lead, key: &str, from: &Mailbox) -> Result<Message, String> {
    let (brand, _) = agency();
    // The bare address, no display name: nothing the visitor typed goes out from the agency's domain.
    let to: Mailbox = Mailbox::new(
        None,
        lead.email
            .parse()
            .map_err(|e| format!("the visitor's address cannot be mailed ({e})"))?,
    );
    let subject = if is_quote(lead) {
        "We have your quote request"
    } else {
        "We have your message"
    };
    Message::builder()
        .from(from.clone())
        .to(to)
        .subject(format!("{subject} - {brand}"))
        .message_id(Some(format!("<{key}@{}>", domain(from))))
        .header(AutoSubmitted)
        .singlepart(
            SinglePart::builder()
                .header(ContentType::TEXT_PLAIN)
                .body(autoreply_text(lead)),
        )
        .map_err(|e| format!("the e-mail could not be built: {e}"))
}

/// `truckins notify test`'s e-mail.
pub fn test_message(from: &Mailbox, to: &[Mailbox]) -> Result<Message, String> {
    let mut builder = Message::builder()
        .from(from.clone())
        .subject("truckins: test of the lead notifications");
    for recipient in to {
        builder = builder.to(recipient.clone());
    }
    builder
        .singlepart(SinglePart::builder().header(ContentType::TEXT_PLAIN).body(
            "This is a test sent by `truckins notify test` with the server's settings. New leads will be sent to \
             this address like this.\n"
                .to_string(),
        ))
        .map_err(|e| format!("the e-mail could not be built: {e}"))
}

/// The webhook's body: the event, the delivery's key and the lead with every stored field.
pub fn webhook_body(event: &str, key: &str, lead: Option<&Lead>) -> Vec<u8> {
    let mut value = json!({ "event": event, "delivery": key });
    if let Some(lead) = lead {
        value["lead"] = json!(lead);
        value["lead"]["insurance_type_label"] =
            json!(lead.insurance_type.as_deref().map(type_label));
    }
    value.to_string().into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leads::store::Status;

    fn quote() -> Lead {
        Lead {
            id: 42,
            source: Source::Quote,
            status: Status::New,
            name: "Maria Lopez".into(),
            email: "maria@example.com".into(),
            company: Some("Lopez Hauling".into()),
            insurance_type: Some("hotshot".into()),
            vehicle_count: Some(2),
            consent_given: true,
            consent_text: Some("I agree <b>".into()),
            ..Lead::default()
        }
    }

    #[test]
    fn a_census_match_is_in_both_parts() {
        let lead = Lead {
            dot_number: Some("1234567".into()),
            carrier_snapshot: Some(crate::carriers::CarrierSnapshot(serde_json::json!({
                "dot_number": 1234567, "legal_name": "LONE STAR HAULERS, LLC", "dba_name": "",
                "city": "AUSTIN", "state": "TX", "power_units": 12, "drivers": 14,
                "operation": "interstate", "hazmat": false, "mcs150_date": "2024-03-01",
            }))),
            ..quote()
        };
        let line = "LONE STAR HAULERS, LLC (DOT 1234567); AUSTIN, TX; 12 power units; 14 drivers; interstate; \
                    MCS-150 2024-03-01";
        assert!(agency_text(&lead).contains(line), "{}", agency_text(&lead));
        assert!(agency_html(&lead).contains("12 power units"));
        assert!(!agency_text(&quote()).contains("Census match"));
    }

    #[test]
    fn subjects_can_be_triaged_in_an_inbox() {
        assert_eq!(
            subject(&quote()),
            "New quote: Maria Lopez, Lopez Hauling, Hot Shot, 2 trucks"
        );
        let contact = Lead {
            source: Source::Contact,
            name: "Sam\r\nBcc: x@example.com".into(),
            subject: Some("Certificate of insurance".into()),
            ..Lead::default()
        };
        assert_eq!(
            subject(&contact),
            "New message: Sam  Bcc: x@example.com, Certificate of insurance"
        );
    }

    #[test]
    fn the_html_part_escapes_what_was_typed() {
        let mut lead = quote();
        lead.company = Some("<script>alert(1)</script>".into());
        let html = agency_html(&lead);
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;") && html.contains("I agree &lt;b&gt;"));
        assert!(agency_text(&lead).contains("truckins leads status 42 contacted"));
    }

    #[test]
    fn the_autoreply_carries_nothing_the_visitor_typed() {
        let mut lead = quote();
        lead.name = "Buy pills at example.com".into();
        let from: Mailbox = "Milepost <leads@agency.example>".parse().unwrap();
        let text = autoreply_text(&lead);
        assert!(text.starts_with("Hello,\n"), "{text}");
        let message = autoreply_message(&lead, "k1", &from).unwrap();
        let raw = String::from_utf8(message.formatted()).unwrap();
        assert!(!raw.contains("Buy pills"), "{raw}");
        assert!(!raw.contains("pills"), "{raw}");
        assert!(raw.contains("To: maria@example.com\r\n"), "{raw}");
    }
}
