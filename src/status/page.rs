//! The pages of the status links: plain HTML with a small stylesheet of their own (allowed by its hash, nothing
//! else), readable on a phone, working without JavaScript, English whatever the lead's language (the agency's staff
//! read them). They say what a link will do, what it did, or why it cannot.

use std::sync::LazyLock;

use sha2::{Digest, Sha256};

use crate::store::{Lead, Source, Status};
use crate::text::escape_html;

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1c1917;background:#fafaf9}\
main{max-width:34rem;margin:0 auto;padding:2rem 1rem}h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}\
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0 0 1.5rem}dt{font-weight:600}\
dd{margin:0;overflow-wrap:anywhere}button{font:inherit;font-weight:600;padding:.75rem 1.25rem;border:2px solid #1c1917;\
border-radius:.5rem;background:#fbbf24;color:#1c1917;cursor:pointer}button:focus-visible{outline:3px solid #1d4ed8;\
outline-offset:3px}.note{padding:.75rem 1rem;border-left:4px solid #1d4ed8;background:#eff6ff}\
@media (prefers-color-scheme:dark){body{background:#1c1917;color:#f5f5f4}.note{background:#1e293b;border-color:#93c5fd}\
button{border-color:#f5f5f4}button:focus-visible{outline-color:#93c5fd}}";

/// The pages' Content-Security-Policy: their stylesheet by its hash, forms posted to this site, nothing else.
pub static CONTENT_SECURITY_POLICY: LazyLock<String> = LazyLock::new(|| {
    format!(
        "default-src 'none'; style-src 'sha256-{}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        crate::text::base64(&Sha256::digest(STYLE.as_bytes()))
    )
});

/// A whole page: `title` as the heading, then `body` (HTML, already escaped).
fn page(title: &str, body: &str) -> String {
    crate::text::private_page(title, STYLE, body)
}

fn form_name(source: Source) -> &'static str {
    match source {
        Source::Quote => "Quote request",
        Source::Contact => "Message",
        Source::Coi => "Certificate request",
        Source::Claim => "Claim report",
        Source::Change => "Policy change request",
    }
}

/// Who the lead is: its number, name, form, time and status now.
fn summary(lead: &Lead) -> String {
    let name = if lead.erased_at.is_some() {
        "(erased on request)".to_string()
    } else {
        lead.name.clone()
    };
    let mut rows = vec![
        ("Lead", format!("#{}", lead.id)),
        ("Name", name),
        ("Form", form_name(lead.source).to_string()),
        ("Sent", crate::clock::readable(&lead.created_at)),
        ("Status now", lead.status.label().to_string()),
    ];
    if let Some(company) = lead.company.as_deref().filter(|c| !c.is_empty())
        && lead.erased_at.is_none()
    {
        rows.insert(2, ("Company", company.to_string()));
    }
    let rows: String = rows
        .into_iter()
        .map(|(label, value)| format!("<dt>{label}</dt><dd>{}</dd>", escape_html(&value)))
        .collect();
    format!("<dl>{rows}</dl>")
}

/// The page a link opens: who the lead is and one button that makes the change. Opening it changes nothing.
pub fn confirm(lead: &Lead, to: Status, action: &str) -> String {
    page(
        &format!("Mark as {}?", to.label()),
        &format!(
            "{}<form method=\"post\" action=\"{}\"><button type=\"submit\">Mark as {}</button></form>",
            summary(lead),
            escape_html(action),
            to.label()
        ),
    )
}

/// After the change.
pub fn changed(lead: &Lead, from: Status, at: &str) -> String {
    page(
        &format!("Marked as {}", lead.status.label()),
        &format!(
            "<p class=\"note\" role=\"status\">Lead #{} moved from {} to {} on {}. Nothing else to do here.</p>{}",
            lead.id,
            from.label(),
            lead.status.label(),
            escape_html(&crate::clock::readable(at)),
            summary(lead)
        ),
    )
}

/// A lead already at the link's status: nothing changed.
pub fn already(lead: &Lead, since: Option<&str>) -> String {
    let since = since
        .map(|at| format!(" since {}", escape_html(&crate::clock::readable(at))))
        .unwrap_or_default();
    page(
        &format!("Already {}", lead.status.label()),
        &format!(
            "<p class=\"note\" role=\"status\">Lead #{} is {}{since}. Nothing was changed.</p>{}",
            lead.id,
            lead.status.label(),
            summary(lead)
        ),
    )
}

/// A link used before: nothing changed.
pub fn used(lead: &Lead, at: &str) -> String {
    page(
        "This link was already used",
        &format!(
            "<p class=\"note\" role=\"status\">It was used on {}. Nothing was changed now: lead #{} is {}.</p>{}",
            escape_html(&crate::clock::readable(at)),
            lead.id,
            lead.status.label(),
            summary(lead)
        ),
    )
}

/// A link whose 30 days are over.
pub fn expired(lead: i64) -> String {
    page(
        "This link has expired",
        &format!(
            "<p>The links in the agency's e-mail work for {} days. To change lead #{lead} now, run \
             <code>truckins leads status {lead} STATUS</code> on the server.</p>",
            crate::links::VALID_DAYS
        ),
    )
}

/// A link that is not ours (tampered with, cut short) or names no lead.
pub fn invalid() -> String {
    page(
        "This link is not valid",
        "<p>It may have been cut short or changed on its way. Open it again from the e-mail, whole, or change the \
         lead with <code>truckins leads status</code> on the server.</p>",
    )
}

/// A lead that is no longer in the database.
pub fn no_lead(lead: i64) -> String {
    page(
        "This lead no longer exists",
        &format!("<p>Lead #{lead} is not in the database any more.</p>"),
    )
}

/// Too many links tried from one address.
pub fn too_many() -> String {
    page(
        "Too many tries",
        "<p>Too many links were opened from your address in the last 10 minutes. Wait a few minutes and open the \
         link again.</p>",
    )
}

/// The database could not be read or written: try again.
pub fn unavailable() -> String {
    page(
        "Please try again",
        "<p>The change could not be made just now. Nothing was changed; open the link again in a minute.</p>",
    )
}
