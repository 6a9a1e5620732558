//! The submission's page: plain HTML in one column, with a small stylesheet of its own (allowed by its hash, no
//! script) and a print stylesheet, readable at 320 px (each schedule's table scrolls inside its own labelled box, the
//! page never sideways), English whatever the lead's language (the agency's staff and its underwriters read it). Every
//! value is escaped.

use std::sync::LazyLock;

use sha2::{Digest, Sha256};

use contract::forms::documents::size_text;

use crate::store::documents::Document;
use crate::store::{Driver, Lead, Loss, Vehicle, schedules};
use crate::text::{dollars, escape_html};

const STYLE: &str = "*{box-sizing:border-box}body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1c1917;\
background:#fff}main{max-width:48rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.5rem;line-height:1.25;\
margin:0 0 .25rem}h2{font-size:1.125rem;margin:1.75rem 0 .5rem;border-bottom:2px solid #1c1917}\
.meta{margin:0;color:#44403c}dl{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.25rem 1rem;\
margin:0}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere;white-space:pre-wrap}\
.scroll{overflow-x:auto;max-width:100%}.scroll:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}\
table{border-collapse:collapse;width:100%;font-size:.9375rem}caption{text-align:left;font-weight:600}\
th,td{border:1px solid #a8a29e;padding:.25rem .5rem;text-align:left;vertical-align:top}td{white-space:nowrap}\
td.w{white-space:normal;min-width:12rem}th{background:#f5f5f4}\
td.n,th.n{text-align:right}td.n{white-space:nowrap}tfoot td,tfoot th{font-weight:700}.none{color:#57534e}\
a{color:#1d4ed8}a:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}ul{padding-left:1.25rem}\
@media (max-width:30rem){dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.5rem}}@media print{body{font-size:11pt}main{max-width:none;padding:0}.scroll{overflow:visible}th,td{white-space:normal}a{color:#000}\
h2{break-after:avoid}tr,dl{break-inside:avoid}.noprint{display:none}}";

/// The page's Content-Security-Policy: its stylesheet by its hash, nothing else (no script, no form, no frame).
pub static CONTENT_SECURITY_POLICY: LazyLock<String> = LazyLock::new(|| {
    format!(
        "default-src 'none'; style-src 'sha256-{}'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
        crate::text::base64(&Sha256::digest(STYLE.as_bytes()))
    )
});

/// A whole page: `title` as the heading, then `body` (HTML, already escaped).
pub fn page(title: &str, body: &str) -> String {
    crate::text::private_page(title, STYLE, body)
}

/// A document as the page lists it: its signed path and what it is.
pub struct Listed<'a> {
    pub document: &'a Document,
    pub path: String,
}

/// Label and value rows as a definition list (values escaped; empty ones left out).
fn rows(rows: &[(&str, String)]) -> String {
    let items: String = rows
        .iter()
        .filter(|(_, value)| !value.trim().is_empty())
        .map(|(label, value)| {
            format!(
                "<dt>{}</dt><dd>{}</dd>",
                escape_html(label),
                escape_html(value)
            )
        })
        .collect();
    if items.is_empty() {
        "<p class=\"none\">None given.</p>".to_string()
    } else {
        format!("<dl>{items}</dl>")
    }
}

/// A section: its heading (with an id for the tables' labels) and its body.
fn section(id: &str, title: &str, body: &str) -> String {
    format!(
        "<section aria-labelledby=\"{id}\"><h2 id=\"{id}\">{}</h2>{body}</section>",
        escape_html(title)
    )
}

/// A table that scrolls inside its own box when the screen is narrower than it: the box is a region named by the
/// section's heading, and focusable so that a keyboard can scroll it.
fn table(label: &str, head: &[(&str, bool)], body: &[Vec<String>], foot: &str) -> String {
    let head: String = head
        .iter()
        .map(|(name, number)| {
            let class = if *number { " class=\"n\"" } else { "" };
            format!("<th scope=\"col\"{class}>{}</th>", escape_html(name))
        })
        .collect();
    let body: String = body
        .iter()
        .map(|cells| format!("<tr>{}</tr>", cells.concat()))
        .collect();
    format!(
        "<div class=\"scroll\" role=\"region\" aria-labelledby=\"{label}\" tabindex=\"0\"><table>\
         <thead><tr>{head}</tr></thead><tbody>{body}</tbody>{foot}</table></div>"
    )
}

fn cell(value: &str) -> String {
    format!("<td>{}</td>", escape_html(value))
}

/// A cell of free text, which wraps (the others keep to one line and the table scrolls).
fn text_cell(value: &str) -> String {
    format!("<td class=\"w\">{}</td>", escape_html(value))
}

fn number(value: Option<i64>) -> String {
    format!(
        "<td class=\"n\">{}</td>",
        value.map(|n| n.to_string()).unwrap_or_default()
    )
}

fn money(value: Option<i64>) -> String {
    format!(
        "<td class=\"n\">{}</td>",
        value.map(dollars).unwrap_or_default()
    )
}

fn vehicles(list: &[Vehicle]) -> String {
    if list.is_empty() {
        return "<p class=\"none\">No vehicles listed.</p>".into();
    }
    let rows: Vec<Vec<String>> = list
        .iter()
        .enumerate()
        .map(|(at, v)| {
            vec![
                number(Some(at as i64 + 1)),
                number(Some(v.year)),
                cell(&v.make),
                cell(v.model.as_deref().unwrap_or_default()),
                cell(&v.vin),
                money(v.stated_value),
                cell(v.garaging_zip.as_deref().unwrap_or_default()),
            ]
        })
        .collect();
    let total: i64 = list.iter().filter_map(|v| v.stated_value).sum();
    let foot = format!(
        "<tfoot><tr><th scope=\"row\" colspan=\"5\">Total stated value</th><td class=\"n\">{}</td><td></td></tr></tfoot>",
        dollars(total)
    );
    table(
        "vehicles",
        &[
            ("#", true),
            ("Year", true),
            ("Make", false),
            ("Model", false),
            ("VIN", false),
            ("Stated value", true),
            ("Garaging ZIP", false),
        ],
        &rows,
        &foot,
    )
}

fn drivers(list: &[Driver]) -> String {
    if list.is_empty() {
        return "<p class=\"none\">No drivers listed.</p>".into();
    }
    let rows: Vec<Vec<String>> = list
        .iter()
        .enumerate()
        .map(|(at, d)| {
            vec![
                number(Some(at as i64 + 1)),
                cell(&d.name),
                cell(&d.date_of_birth),
                cell(&d.license_state),
                number(d.years_experience),
                number(d.violations_3y),
                number(d.accidents_3y),
            ]
        })
        .collect();
    table(
        "drivers",
        &[
            ("#", true),
            ("Name", false),
            ("Date of birth", false),
            ("License state", false),
            ("Years of experience", true),
            ("Violations (3 years)", true),
            ("Accidents (3 years)", true),
        ],
        &rows,
        "",
    )
}

/// A loss kind's label (`physical_damage` -> `Physical damage`).
fn kind_label(kind: &str) -> &str {
    contract::forms::schedules::LOSS_KINDS
        .iter()
        .find(|(value, _)| *value == kind)
        .map_or(kind, |(_, label)| label)
}

fn losses(list: &[Loss]) -> String {
    if list.is_empty() {
        return "<p class=\"none\">No losses listed.</p>".into();
    }
    let rows: Vec<Vec<String>> = list
        .iter()
        .map(|l| {
            vec![
                cell(&l.date),
                cell(kind_label(&l.kind)),
                money(Some(l.amount)),
                text_cell(l.description.as_deref().unwrap_or_default()),
            ]
        })
        .collect();
    let foot = format!(
        "<tfoot><tr><th scope=\"row\" colspan=\"2\">Total of {} losses</th><td class=\"n\">{}</td><td></td></tr></tfoot>",
        list.len(),
        dollars(schedules::losses_total(list))
    );
    table(
        "losses",
        &[
            ("Date", false),
            ("Kind", false),
            ("Amount", true),
            ("Description", false),
        ],
        &rows,
        &foot,
    )
}

fn documents(list: &[Listed<'_>]) -> String {
    if list.is_empty() {
        return "<p class=\"none\">No documents uploaded.</p>".into();
    }
    let items: String = list
        .iter()
        .map(|listed| {
            format!(
                "<li><a href=\"{}\" download>{}</a> ({}, {})</li>",
                escape_html(&listed.path),
                escape_html(&listed.document.file_name),
                size_text(listed.document.size as usize, false),
                escape_html(&listed.document.media_type)
            )
        })
        .collect();
    format!("<ul>{items}</ul>")
}

/// The census's record as stored with the lead (its fields the census had), or why there is none.
fn census(lead: &Lead) -> String {
    let Some(snapshot) = &lead.carrier_snapshot else {
        return "<p class=\"none\">No census match (no DOT number, or the visitor said it was not them).</p>".into();
    };
    let field = |key: &str| match &snapshot.0[key] {
        serde_json::Value::String(text) => text.trim().to_string(),
        serde_json::Value::Number(number) => number.to_string(),
        serde_json::Value::Bool(true) => "yes".into(),
        serde_json::Value::Bool(false) => "no".into(),
        _ => String::new(),
    };
    rows(&[
        ("Legal name", field("legal_name")),
        ("DBA", field("dba_name")),
        ("DOT number", field("dot_number")),
        ("City", field("city")),
        ("State", field("state")),
        ("Power units", field("power_units")),
        ("Drivers", field("drivers")),
        ("Operation", field("operation")),
        ("Hazmat", field("hazmat")),
        ("MCS-150 date", field("mcs150_date")),
    ])
}

/// A stored list's rows; none for a list not sent.
fn list<T: Clone>(rows: &Option<schedules::Rows<T>>) -> &[T] {
    rows.as_ref()
        .map(|rows| rows.0.as_slice())
        .unwrap_or_default()
}

/// The whole submission of `lead`, its documents listed with their signed links; `until` is when those stop working.
pub fn submission(lead: &Lead, listed: &[Listed<'_>], until: &str) -> String {
    if let Some(at) = &lead.erased_at {
        return page(
            &format!("Lead #{}: erased", lead.id),
            &format!(
                "<p>Its personal fields, schedules and documents were erased on {} (a privacy request or the \
                 retention period).</p>",
                escape_html(&crate::clock::readable(at))
            ),
        );
    }
    let sections = crate::notify::compose::sections(lead);
    let of = |title: &str| -> Vec<(&str, String)> {
        sections
            .iter()
            .find(|(found, _)| *found == title)
            .map(|(_, rows)| rows.clone())
            .unwrap_or_default()
            .into_iter()
            .filter(|(label, _)| *label != "Census match")
            .collect()
    };
    let who = lead
        .company
        .as_deref()
        .filter(|company| !company.trim().is_empty())
        .unwrap_or(&lead.name);
    let (vehicle_rows, driver_rows, loss_rows) = (
        list(&lead.vehicle_schedule),
        list(&lead.driver_schedule),
        list(&lead.loss_history),
    );
    let body = [
        format!(
            "<p class=\"meta\">Lead #{} · received {} · status {}</p><p class=\"meta noprint\">This page's link works \
             until {}; keep a printed or saved copy for longer.</p>",
            lead.id,
            escape_html(&crate::clock::readable(&lead.created_at)),
            lead.status.label(),
            escape_html(until)
        ),
        section("contact", "Contact and quote", &rows(&of("The lead"))),
        section("census", "FMCSA census record", &census(lead)),
        section("details", "Operation details", &rows(&of("The operation's details"))),
        section(
            "vehicles",
            &format!("Vehicle schedule ({})", vehicle_rows.len()),
            &vehicles(vehicle_rows),
        ),
        section(
            "drivers",
            &format!("Driver schedule ({})", driver_rows.len()),
            &drivers(driver_rows),
        ),
        section(
            "losses",
            &format!("Loss history ({})", loss_rows.len()),
            &losses(loss_rows),
        ),
        section(
            "documents",
            &format!("Documents ({})", listed.len()),
            &documents(listed),
        ),
    ]
    .concat();
    page(&format!("Submission: {who}"), &body)
}

/// A link whose 30 days are over.
pub fn expired(lead: i64) -> String {
    page(
        "This link has expired",
        &format!(
            "<p>The links in the agency's e-mail work for {} days. To see lead #{lead} now, run \
             <code>truckins leads show {lead}</code> on the server.</p>",
            crate::links::VALID_DAYS
        ),
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

/// The database could not be read, or the links' key is missing: try again.
pub fn unavailable() -> String {
    page(
        "Please try again",
        "<p>The submission could not be read just now; open the link again in a minute.</p>",
    )
}
