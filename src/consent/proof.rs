//! `truckins leads proof ID`: one lead's consent as a document the agency can hand to a lawyer: the words shown and
//! their version and language, the form and page, the time (UTC), IP address and user agent, the DOT question's
//! answer, and every opt-out of its e-mail or phone, before and since. As text, JSON, or one HTML page that prints
//! on one sheet and references nothing outside itself.

use rusqlite::Connection;
use serde::Serialize;

use super::revocations::{self, Revocation};
use crate::store::{self, Lead};
use crate::text::escape_html;
use crate::text::printable;

/// One lead's proof of consent.
#[derive(Debug, Clone, Serialize)]
pub struct Proof {
    pub lead: i64,
    pub form: String,
    pub status: String,
    /// When the request was stored (UTC).
    pub received_at: String,
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub consent: Consent,
    /// The DOT question: the number given, and whether the census's carrier was kept with it.
    pub dot_number: Option<String>,
    pub carrier_kept: bool,
    /// Opt-outs of the lead's e-mail or phone, oldest first, each marked before or after the consent.
    pub opt_outs: Vec<OptOut>,
    /// When the personal fields were erased (a privacy request or the retention period).
    pub erased_at: Option<String>,
    /// When this document was made.
    pub generated_at: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Consent {
    pub given: bool,
    pub text: Option<String>,
    pub version: Option<String>,
    /// `en` or `es`: the language of the pages, and of the words shown.
    pub language: String,
    pub at: Option<String>,
    pub page_url: Option<String>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct OptOut {
    /// `after` the consent (the lead must not be contacted) or `before` it (the lead's consent is newer).
    pub when: &'static str,
    #[serde(flatten)]
    pub revocation: Revocation,
}

/// The proof of lead `id`, or `None` when no lead has it.
pub fn of(connection: &Connection, id: i64) -> rusqlite::Result<Option<Proof>> {
    let Some(lead) = store::get(connection, id)? else {
        return Ok(None);
    };
    let opt_outs = opt_outs(connection, &lead)?;
    Ok(Some(Proof {
        lead: lead.id,
        form: lead.source.as_str().to_string(),
        status: lead.status.as_str().to_string(),
        received_at: lead.created_at.clone(),
        name: lead.name.clone(),
        email: lead.email.clone(),
        phone: lead.phone.clone(),
        consent: Consent {
            given: lead.consent_given,
            text: lead.consent_text.clone(),
            version: lead.consent_version.clone(),
            language: lead.language.to_string(),
            at: lead.consent_at.clone(),
            page_url: lead.page_url.clone(),
            ip: lead.ip.clone(),
            user_agent: lead.user_agent.clone(),
        },
        dot_number: lead.dot_number.clone(),
        carrier_kept: lead.carrier_snapshot.is_some(),
        opt_outs,
        erased_at: lead.erased_at.clone(),
        generated_at: store::now(),
    }))
}

/// Every revocation of `lead`'s e-mail or phone, oldest first, placed against its consent.
fn opt_outs(connection: &Connection, lead: &Lead) -> rusqlite::Result<Vec<OptOut>> {
    if lead.erased_at.is_some() {
        return Ok(Vec::new());
    }
    let email = lead.email.trim().to_lowercase();
    let all = revocations::list(connection, None)?;
    let consent = revocations::moment(revocations::consented_at(lead));
    Ok(all
        .into_iter()
        .filter(|revocation| {
            revocation.email.as_deref() == Some(email.as_str())
                || (lead.phone.is_some() && revocation.phone == lead.phone)
        })
        .map(|revocation| OptOut {
            when: if revocations::moment(&revocation.created_at) > consent {
                "after"
            } else {
                "before"
            },
            revocation,
        })
        .collect())
}

/// `value` or a dash, printable.
fn shown(value: Option<&str>) -> String {
    printable(value.unwrap_or("-")).into_owned()
}

fn phone(value: Option<&str>) -> String {
    value
        .map(|stored| crate::text::us_phone(stored).unwrap_or_else(|| stored.to_string()))
        .map_or_else(|| "-".to_string(), |text| printable(&text).into_owned())
}

/// The DOT question's answer in words.
fn dot(proof: &Proof) -> String {
    match (&proof.dot_number, proof.carrier_kept) {
        (Some(number), true) => format!(
            "answered: USDOT {} (the census's carrier was shown and kept with the request)",
            printable(number)
        ),
        (Some(number), false) => format!("answered: USDOT {}", printable(number)),
        (None, _) => "not answered (no USDOT number given)".to_string(),
    }
}

/// The rows of the document, as label and value, in order.
fn rows(proof: &Proof) -> Vec<(&'static str, String)> {
    let consent = &proof.consent;
    let mut rows = vec![
        (
            "Lead",
            format!(
                "#{} ({} form, status {})",
                proof.lead, proof.form, proof.status
            ),
        ),
        ("Received (UTC)", proof.received_at.clone()),
        (
            "Name",
            shown(
                Some(&proof.name)
                    .filter(|name| !name.is_empty())
                    .map(String::as_str),
            ),
        ),
        (
            "E-mail",
            shown(
                Some(&proof.email)
                    .filter(|email| !email.is_empty())
                    .map(String::as_str),
            ),
        ),
        ("Phone", phone(proof.phone.as_deref())),
        (
            "Consent given",
            if consent.given {
                "yes: the box was checked".to_string()
            } else {
                "no".to_string()
            },
        ),
        ("Consent at (UTC)", shown(consent.at.as_deref())),
        ("Wording version", shown(consent.version.as_deref())),
        ("Language", consent.language.clone()),
        ("Page", shown(consent.page_url.as_deref())),
        ("IP address", shown(consent.ip.as_deref())),
        ("User agent", shown(consent.user_agent.as_deref())),
        ("DOT question", dot(proof)),
    ];
    if let Some(at) = &proof.erased_at {
        rows.push((
            "Erased",
            format!("{at}: the personal fields were erased (privacy request or retention period)"),
        ));
    }
    rows
}

fn opt_out_line(opt_out: &OptOut) -> String {
    let revocation = &opt_out.revocation;
    let mut line = format!(
        "{} ({} the consent), by {}",
        revocation.created_at, opt_out.when, revocation.channel
    );
    if let Some(phone) = &revocation.phone {
        line.push_str(&format!(", phone {}", self::phone(Some(phone))));
    }
    if let Some(email) = &revocation.email {
        line.push_str(&format!(", e-mail {}", printable(email)));
    }
    if let Some(ip) = &revocation.ip {
        line.push_str(&format!(", from IP {}", printable(ip)));
    }
    if let Some(note) = &revocation.note {
        line.push_str(&format!(", note: {}", printable(note)));
    }
    line
}

/// The document as plain text.
pub fn text(proof: &Proof) -> String {
    let mut out = format!(
        "Proof of consent: lead #{}\n{}\n\n",
        proof.lead,
        "=".repeat(26)
    );
    for (label, value) in rows(proof) {
        out.push_str(&format!("{:<18} {}\n", format!("{label}:"), value));
    }
    out.push_str("\nThe exact wording shown beside the checkbox:\n\n");
    out.push_str(&shown(proof.consent.text.as_deref()));
    out.push_str("\n\nOpt-outs of this e-mail address or phone number:\n");
    if proof.opt_outs.is_empty() {
        out.push_str("  none recorded\n");
    }
    for opt_out in &proof.opt_outs {
        out.push_str(&format!("  - {}\n", opt_out_line(opt_out)));
    }
    out.push_str(&format!(
        "\nGenerated {} from the agency's lead database.\n",
        proof.generated_at
    ));
    out
}

/// The document as one HTML page: its style inline, nothing fetched, one printed sheet.
pub fn html(proof: &Proof) -> String {
    let mut out = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Proof of consent: lead #{0}</title>\
         <style>@page{{size:letter;margin:14mm}}body{{font:11pt/1.4 Georgia,serif;color:#111;max-width:180mm;\
         margin:0 auto}}h1{{font-size:16pt;margin:0 0 8pt}}table{{border-collapse:collapse;width:100%}}\
         th,td{{text-align:left;vertical-align:top;padding:2pt 6pt;border-bottom:1px solid #ccc;\
         overflow-wrap:anywhere}}th{{width:32%;font-weight:bold}}blockquote{{margin:8pt 0;padding:6pt 10pt;\
         border-left:3pt solid #333;background:#f4f4f4}}h2{{font-size:12pt;margin:12pt 0 4pt}}\
         .small{{font-size:9pt;color:#444}}</style></head><body><h1>Proof of consent: lead #{0}</h1><table>",
        proof.lead
    );
    for (label, value) in rows(proof) {
        out.push_str(&format!(
            "<tr><th>{}</th><td>{}</td></tr>",
            escape_html(label),
            escape_html(&value)
        ));
    }
    out.push_str("</table><h2>The exact wording shown beside the checkbox</h2><blockquote>");
    out.push_str(&escape_html(&shown(proof.consent.text.as_deref())));
    out.push_str("</blockquote><h2>Opt-outs of this e-mail address or phone number</h2><ul>");
    if proof.opt_outs.is_empty() {
        out.push_str("<li>none recorded</li>");
    }
    for opt_out in &proof.opt_outs {
        out.push_str(&format!("<li>{}</li>", escape_html(&opt_out_line(opt_out))));
    }
    out.push_str(&format!(
        "</ul><p class=\"small\">Generated {} from the agency's lead database.</p></body></html>\n",
        escape_html(&proof.generated_at)
    ));
    out
}
