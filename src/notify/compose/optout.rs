//! The agency's e-mail about an opt-out (kind `opt_out`, src/consent): "Opt-out: (214) 555-0199 by web form", what to
//! stop and by when, the revocation's facts and the leads it names. Made at each attempt from the news stored with the
//! delivery; news erased since (a privacy request, the retention period) says only that.

use lettre::Message;
use lettre::message::{Mailbox, MultiPart};

use super::{escape_html, one_line, to_the_agency};
use crate::consent::revocations::OptOutNews;
use crate::store::Via;
use crate::text::us_phone;

/// The stored news, or `None` once erased (or unreadable).
fn news(payload: &str) -> Option<OptOutNews> {
    serde_json::from_str(payload).ok()
}

fn how(news: &OptOutNews) -> &'static str {
    news.revocation
        .channel
        .parse::<Via>()
        .map_or("another way", Via::described)
}

/// `Opt-out: (214) 555-0199, maria@example.com by web form`.
pub fn subject(payload: &str) -> String {
    let Some(news) = news(payload) else {
        return "Opt-out (its details since erased)".to_string();
    };
    let revocation = &news.revocation;
    let mut who: Vec<String> = revocation
        .phone
        .as_deref()
        .map(|phone| us_phone(phone).unwrap_or_else(|| one_line(phone)))
        .into_iter()
        .collect();
    who.extend(revocation.email.as_deref().map(one_line));
    format!("Opt-out: {} by {}", who.join(", "), how(&news))
}

/// The (label, value) rows of the revocation.
fn rows(news: &OptOutNews) -> Vec<(&'static str, String)> {
    let revocation = &news.revocation;
    let mut rows = Vec::new();
    if let Some(phone) = &revocation.phone {
        rows.push(("Phone", us_phone(phone).unwrap_or_else(|| phone.clone())));
    }
    if let Some(email) = &revocation.email {
        rows.push(("E-mail", email.clone()));
    }
    rows.push(("Received", format!("{} (UTC)", revocation.created_at)));
    rows.push(("How", how(news).to_string()));
    for (label, value) in [
        ("Note", &revocation.note),
        ("Page", &revocation.page_url),
        ("From IP", &revocation.ip),
    ] {
        if let Some(value) = value {
            rows.push((label, value.clone()));
        }
    }
    rows
}

const WHAT_TO_DO: &str = "Stop calls, texts and marketing e-mails to this number and address now: the FCC's rule \
                          allows at most 10 business days. The site sends them no more confirmations.";

fn lead_lines(news: &OptOutNews) -> Vec<String> {
    news.leads
        .iter()
        .map(|lead| {
            format!(
                "#{} {} of {}: {}",
                lead.id,
                lead.source,
                lead.created_at.get(..10).unwrap_or(&lead.created_at),
                one_line(&lead.name)
            )
        })
        .collect()
}

pub fn text(payload: &str) -> String {
    let Some(news) = news(payload) else {
        return "The details of this opt-out were erased by a privacy request or the retention period.\n".into();
    };
    let mut out = format!("{}\n\n{WHAT_TO_DO}\n\n", subject(payload));
    for (label, value) in rows(&news) {
        out.push_str(&format!(
            "{:<10} {}\n",
            format!("{label}:"),
            one_line(&value)
        ));
    }
    if news.leads.is_empty() {
        out.push_str("\nNo lead has this phone number or e-mail address.\n");
    } else {
        out.push_str(
            "\nLeads with this phone number or e-mail address (marked do_not_contact in `truckins leads list` \
             and the exports):\n",
        );
        for line in lead_lines(&news) {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out.push_str("\nEvery opt-out: truckins optout list\n");
    out
}

pub fn html(payload: &str) -> String {
    let Some(news) = news(payload) else {
        return "<!doctype html><html><body><p>The details of this opt-out were erased by a privacy request or the \
                retention period.</p></body></html>"
            .into();
    };
    let mut out = format!(
        "<!doctype html><html><body style=\"font-family:sans-serif;font-size:14px\"><h1 style=\"font-size:18px\">{}</h1>\
         <p><strong>{}</strong></p><table cellpadding=\"4\">",
        escape_html(&subject(payload)),
        escape_html(WHAT_TO_DO)
    );
    for (label, value) in rows(&news) {
        out.push_str(&format!(
            "<tr><th align=\"left\" valign=\"top\">{}</th><td>{}</td></tr>",
            escape_html(label),
            escape_html(&one_line(&value))
        ));
    }
    out.push_str("</table>");
    if news.leads.is_empty() {
        out.push_str("<p>No lead has this phone number or e-mail address.</p>");
    } else {
        out.push_str(
            "<p>Leads with this phone number or e-mail address (marked do_not_contact in <code>truckins leads \
             list</code> and the exports):</p><ul>",
        );
        for line in lead_lines(&news) {
            out.push_str(&format!("<li>{}</li>", escape_html(&line)));
        }
        out.push_str("</ul>");
    }
    out.push_str("</body></html>");
    out
}

/// The agency's e-mail about an opt-out, to every `notify_to`, its Message-ID made of the delivery key.
pub fn message(
    payload: &str,
    key: &str,
    from: &Mailbox,
    to: &[Mailbox],
) -> Result<Message, String> {
    to_the_agency(&subject(payload), Some(key), from, to)
        .multipart(MultiPart::alternative_plain_html(
            text(payload),
            html(payload),
        ))
        .map_err(|e| format!("the e-mail could not be built: {e}"))
}

/// The webhook's body for an opt-out: `{"event": "opt_out", "delivery": KEY, "opt_out": {...}, "leads": [...]}`, or
/// `"erased": true` in place of both once erased.
pub fn webhook_body(payload: &str, key: &str) -> Vec<u8> {
    let mut value = serde_json::json!({ "event": "opt_out", "delivery": key });
    match news(payload) {
        Some(news) => {
            value["opt_out"] = serde_json::json!(news.revocation);
            value["leads"] = serde_json::json!(news.leads);
        }
        None => value["erased"] = serde_json::json!(true),
    }
    value.to_string().into_bytes()
}
