//! Leads: the quote and contact forms' API. A submission flows through
//! body (JSON or urlencoded, size-capped) -> spam checks (honeypot, too fast) -> validation ([`validate`]) ->
//! copies of one `submission_id` one at a time -> repeat check (the first answer again) -> rate limits ([`limits`])
//! -> storage ([`store`], committed) -> answer.
//! Programs get JSON (201 / 422 / 429 / 4xx); a browser without JavaScript posts a plain form and gets a page:
//! 303 to a thank-you page, or the form again with the errors beside the fields and what was typed kept.

pub mod export;
pub mod limits;
pub mod store;
pub mod validate;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use rocket::data::{Data, ToByteUnit};
use rocket::fairing::AdHoc;
use rocket::http::{ContentType, Header, Status};
use rocket::request::{FromRequest, Outcome, Request};
use rocket::response::{self, Responder, Response};
use rocket::serde::json::{Value, json};
use rocket::{State, post};

use crate::client_ip::{ClientIp, TrustedProxies};
use crate::site::SiteFiles;
use limits::{OneAtATime, RateLimiter};
use store::{DbPool, Lead, Stored};
use validate::{FieldErrors, RawFields};

/// The consent text shown beside the quote form, from `content/forms.toml`, stored with every consenting lead.
pub const CONSENT_TEXT: &str = include_str!(concat!(env!("OUT_DIR"), "/consent.txt"));
pub const CONSENT_VERSION: &str = include_str!(concat!(env!("OUT_DIR"), "/consent-version.txt"));

/// Largest request body accepted; the longest valid contact message is 2,000 characters.
pub const BODY_LIMIT_KIB: u64 = 64;
/// A form filled faster than this was filled by a program.
const FASTEST_HUMAN_MS: u64 = 1500;
const CONTACTS_PER_EMAIL: usize = 3;
const WINDOW: Duration = Duration::from_secs(10 * 60);

pub use crate::config::Settings as LeadSettings;

/// Everything the lead routes share.
pub struct Leads {
    pub pool: DbPool,
    ip_limit: usize,
    per_ip: RateLimiter,
    per_email: RateLimiter,
    /// Copies of one submission, one at a time.
    submissions: OneAtATime,
}

pub fn stage() -> AdHoc {
    AdHoc::try_on_ignite("Leads", |rocket| async {
        let settings: LeadSettings = match rocket.figment().extract() {
            Ok(settings) => settings,
            Err(error) => {
                rocket::error!("invalid leads settings: {error}");
                return Err(rocket);
            }
        };
        let path = settings.database.clone();
        let size = settings.pool_size;
        let pool = match rocket::tokio::task::spawn_blocking(move || store::open(&path, size)).await
        {
            Ok(Ok(pool)) => pool,
            Ok(Err(error)) => {
                rocket::error!(
                    "cannot open the leads database {}: {error}",
                    settings.database.display()
                );
                return Err(rocket);
            }
            Err(error) => {
                rocket::error!("opening the leads database failed: {error}");
                return Err(rocket);
            }
        };
        rocket::info!("leads database: {}", settings.database.display());
        // A database created by this program is private (store::create_private); one made otherwise may not be.
        if let Ok(found) = std::fs::metadata(&settings.database)
            && found.permissions().mode() & 0o077 != 0
        {
            rocket::warn!(
                "the leads database {} can be read by other users of this machine (mode {:o}): chmod 600 it",
                settings.database.display(),
                found.permissions().mode() & 0o777
            );
        }
        let leads = Leads {
            pool,
            ip_limit: settings.ip_limit,
            per_ip: RateLimiter::new(settings.ip_limit, WINDOW),
            per_email: RateLimiter::new(CONTACTS_PER_EMAIL, WINDOW),
            submissions: OneAtATime::default(),
        };
        Ok(rocket
            .manage(leads)
            .manage(TrustedProxies(settings.trusted_proxies.clone()))
            .mount("/api", rocket::routes![quote, contact]))
    })
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Form {
    Quote,
    Contact,
}

impl Form {
    fn source(self) -> &'static str {
        match self {
            Form::Quote => "quote",
            Form::Contact => "contact",
        }
    }

    /// The rate-limit answer's sentence: a quote form sends requests, the contact form messages.
    fn rate_limit_message(self) -> &'static str {
        match self {
            Form::Quote => "Please wait 10 minutes before submitting another request.",
            Form::Contact => "Please wait 10 minutes before submitting another message.",
        }
    }

    /// The error catalogue's description of a failed insert: the quote form's and the contact form's differ.
    fn failure_message(self) -> &'static str {
        match self {
            Form::Quote => "There was an error submitting your request. Please try again.",
            Form::Contact => "We're experiencing technical difficulties. Please try again later.",
        }
    }

    fn thank_you(self) -> &'static str {
        match self {
            Form::Quote => "/get-quote/thank-you",
            Form::Contact => "/contact/thank-you",
        }
    }

    fn template(self) -> &'static str {
        match self {
            Form::Quote => "_forms/quote.html",
            Form::Contact => "_forms/contact.html",
        }
    }

    fn fields(self) -> &'static [&'static str] {
        match self {
            Form::Quote => &[
                "name",
                "email",
                "phone",
                "company",
                "insurance_type",
                "vehicle_count",
                "dot_number",
                "consent",
            ],
            Form::Contact => &["name", "email", "subject", "message"],
        }
    }
}

/// Fields accepted besides the form's own: spam checks, idempotency and attribution.
const EXTRA_FIELDS: [&str; 12] = [
    "website",
    "elapsed_ms",
    "submission_id",
    "page_url",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_term",
    "utm_content",
    "gclid",
    "referrer",
    "landing_page",
];

/// Request facts kept with a lead as consent evidence and attribution.
pub struct Visit {
    ip: ClientIp,
    user_agent: Option<String>,
    referer: Option<String>,
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Visit {
    type Error = std::convert::Infallible;

    async fn from_request(request: &'r Request<'_>) -> Outcome<Self, Self::Error> {
        let ip = request
            .guard::<ClientIp>()
            .await
            .succeeded()
            .unwrap_or(ClientIp([0, 0, 0, 0].into()));
        let header = |name: &str| {
            request
                .headers()
                .get_one(name)
                .and_then(|value| validate::clean_line(value, 500))
        };
        Outcome::Success(Visit {
            ip,
            user_agent: header("User-Agent"),
            referer: header("Referer"),
        })
    }
}

/// How the answer is given: JSON for programs, pages for a plain form post.
pub enum Reply {
    Json(Status, Value),
    Page(Status, String),
    SeeOther(&'static str),
}

impl<'r> Responder<'r, 'static> for Reply {
    fn respond_to(self, _: &'r Request<'_>) -> response::Result<'static> {
        let mut response = Response::build();
        match self {
            Reply::Json(status, value) => {
                let body = value.to_string();
                response
                    .status(status)
                    .header(ContentType::JSON)
                    .sized_body(body.len(), std::io::Cursor::new(body));
            }
            Reply::Page(status, html) => {
                response
                    .status(status)
                    .header(ContentType::HTML)
                    .header(Header::new("Cache-Control", "no-store"))
                    .sized_body(html.len(), std::io::Cursor::new(html));
            }
            Reply::SeeOther(location) => {
                response
                    .status(Status::SeeOther)
                    .header(Header::new("Location", location));
            }
        }
        Ok(response.finalize())
    }
}

#[post("/leads/quote", data = "<body>")]
async fn quote(
    body: Data<'_>,
    content_type: Option<&ContentType>,
    visit: Visit,
    leads: &State<Leads>,
) -> Reply {
    submit(Form::Quote, body, content_type, visit, leads).await
}

#[post("/leads/contact", data = "<body>")]
async fn contact(
    body: Data<'_>,
    content_type: Option<&ContentType>,
    visit: Visit,
    leads: &State<Leads>,
) -> Reply {
    submit(Form::Contact, body, content_type, visit, leads).await
}

fn json_error(status: Status, message: &str) -> Reply {
    Reply::Json(
        status,
        json!({ "error": status.reason_lossy(), "message": message }),
    )
}

async fn submit(
    form: Form,
    body: Data<'_>,
    content_type: Option<&ContentType>,
    visit: Visit,
    leads: &Leads,
) -> Reply {
    let is_json = content_type.is_some_and(|c| c.is_json());
    let is_form = content_type.is_some_and(|c| c.is_form());
    if !is_json && !is_form {
        return json_error(
            Status::UnsupportedMediaType,
            "Send the lead as application/json (or application/x-www-form-urlencoded).",
        );
    }
    // A request that cannot be read at all: JSON for a program, the empty form with the reason for a person.
    let refuse = |status: Status, message: &str| {
        if is_json {
            json_error(status, message)
        } else {
            let for_people = if status == Status::PayloadTooLarge {
                "What you sent is too long for us to accept. Please shorten it and send it again."
            } else {
                "Your browser sent something we could not read. Please fill in the form and send it again."
            };
            Reply::Page(
                status,
                fill_template(form, &RawFields::default(), &FieldErrors::new(), for_people),
            )
        }
    };
    let text = match body.open(BODY_LIMIT_KIB.kibibytes()).into_string().await {
        Ok(text) if text.is_complete() => text.into_inner(),
        Ok(_) => {
            return refuse(
                Status::PayloadTooLarge,
                "The request body is larger than 64 KiB.",
            );
        }
        Err(error) if error.kind() == std::io::ErrorKind::InvalidData => {
            return refuse(
                Status::BadRequest,
                "The request body is not valid UTF-8 text.",
            );
        }
        Err(error) => {
            return refuse(
                Status::BadRequest,
                &format!("The request body could not be read ({error})."),
            );
        }
    };
    let fields = if is_json {
        parse_json(&text, form).and_then(check_submission_id)
    } else {
        // Our plain form sends no submission id: one that is malformed did not come from it, and is dropped rather
        // than costing a person what they typed.
        let mut fields = parse_form(&text);
        if !is_valid_submission_id(fields.get("submission_id")) {
            fields.0.remove("submission_id");
        }
        Ok(fields)
    };
    let fields = match fields {
        Ok(fields) => fields,
        Err(message) => return refuse(Status::BadRequest, &message),
    };
    let answer = process(form, &fields, &visit, leads).await;
    if is_json {
        answer.into_json(form)
    } else {
        answer.into_page(form, &fields)
    }
}

/// What happened to a submission, before it is put into JSON or a page.
enum Verdict {
    Accepted(i64),
    /// Spam, answered like a success and stored nowhere.
    Dropped,
    Invalid(FieldErrors),
    RateLimited,
    /// Every connection taken, or the file locked by another program: try again in a moment.
    Busy,
    /// The storage cannot take leads (the file gone or replaced, read-only, the disk full or failing).
    Unavailable,
    Failed,
}

impl Verdict {
    fn into_json(self, form: Form) -> Reply {
        match self {
            Verdict::Accepted(id) => Reply::Json(Status::Created, json!({ "id": id })),
            Verdict::Dropped => Reply::Json(Status::Created, json!({ "id": 0 })),
            Verdict::Invalid(errors) => {
                Reply::Json(Status::UnprocessableEntity, json!({ "errors": errors }))
            }
            Verdict::RateLimited => Reply::Json(
                Status::TooManyRequests,
                json!({ "error": "Too Many Attempts", "message": form.rate_limit_message() }),
            ),
            Verdict::Busy => json_error(
                Status::ServiceUnavailable,
                "The server is busy. Please try again in a moment.",
            ),
            // The error catalogue's words for an insert that failed, per form.
            Verdict::Unavailable => json_error(Status::ServiceUnavailable, form.failure_message()),
            Verdict::Failed => json_error(
                Status::InternalServerError,
                "We're experiencing technical difficulties. Please try again later.",
            ),
        }
    }

    fn into_page(self, form: Form, fields: &RawFields) -> Reply {
        match self {
            Verdict::Accepted(_) | Verdict::Dropped => Reply::SeeOther(form.thank_you()),
            Verdict::Invalid(errors) => Reply::Page(
                Status::UnprocessableEntity,
                fill_template(
                    form,
                    fields,
                    &errors,
                    "Please correct the fields marked below.",
                ),
            ),
            Verdict::RateLimited => Reply::Page(
                Status::TooManyRequests,
                fill_template(
                    form,
                    fields,
                    &FieldErrors::new(),
                    &format!("Too Many Attempts. {}", form.rate_limit_message()),
                ),
            ),
            Verdict::Busy | Verdict::Unavailable | Verdict::Failed => Reply::Page(
                Status::ServiceUnavailable,
                fill_template(
                    form,
                    fields,
                    &FieldErrors::new(),
                    "We're experiencing technical difficulties. Please try again later, or call us.",
                ),
            ),
        }
    }
}

async fn process(form: Form, fields: &RawFields, visit: &Visit, leads: &Leads) -> Verdict {
    let ip = visit.ip.0.to_string();
    let ip_key = rate_key(visit.ip.0);
    if !fields.get("website").trim().is_empty() {
        rocket::warn!(
            "dropped a {} submission from {ip}: the honeypot field was filled",
            form.source()
        );
        return Verdict::Dropped;
    }
    if is_too_fast(fields.get("elapsed_ms")) {
        rocket::warn!(
            "dropped a {} submission from {ip}: filled in under {FASTEST_HUMAN_MS} ms",
            form.source()
        );
        return Verdict::Dropped;
    }
    let mut lead = match form {
        Form::Quote => match validate::quote(fields) {
            Ok(quote) => Lead {
                name: quote.name,
                email: quote.email,
                phone: quote.phone,
                company: quote.company,
                insurance_type: Some(quote.insurance_type),
                vehicle_count: Some(quote.vehicle_count),
                dot_number: quote.dot_number,
                consent_given: true,
                consent_text: Some(CONSENT_TEXT.trim().to_string()),
                consent_version: Some(CONSENT_VERSION.trim().to_string()),
                ..Lead::default()
            },
            Err(errors) => return Verdict::Invalid(errors),
        },
        Form::Contact => match validate::contact(fields) {
            Ok(message) => Lead {
                name: message.name,
                email: message.email,
                insurance_type: Some("Contact Form".into()),
                subject: Some(message.subject),
                message: Some(message.message),
                ..Lead::default()
            },
            Err(errors) => return Verdict::Invalid(errors),
        },
    };
    let now = store::now();
    lead.source = form.source().into();
    lead.status = "new".into();
    lead.consent_at = lead.consent_given.then(|| now.clone());
    lead.created_at = now;
    lead.ip = Some(ip.clone());
    lead.user_agent = visit.user_agent.clone();
    // Attribution as sent, without control or bidirectional characters: URLs at most 2000 characters, the
    // campaign fields 200 (longer ones are cut, never a reason to refuse a lead).
    lead.page_url = fields
        .optional("page_url", 2000)
        .or_else(|| visit.referer.clone());
    lead.submission_id = fields.optional("submission_id", 100);
    lead.utm_source = fields.optional("utm_source", 200);
    lead.utm_medium = fields.optional("utm_medium", 200);
    lead.utm_campaign = fields.optional("utm_campaign", 200);
    lead.utm_term = fields.optional("utm_term", 200);
    lead.utm_content = fields.optional("utm_content", 200);
    lead.gclid = fields.optional("gclid", 200);
    lead.referrer = fields.optional("referrer", 2000);
    lead.landing_page = fields.optional("landing_page", 2000);

    // Copies of a submission that arrive together wait for the first to be stored (or refused): each then finds
    // the stored lead below and is answered with its id, spending no slot. Held until the answer is decided.
    let _turn = match &lead.submission_id {
        Some(submission) => Some(
            leads
                .submissions
                .turn(format!("{}:{submission}", form.source()))
                .await,
        ),
        None => None,
    };
    // A repeat is answered with the first answer and takes no rate-limit slot.
    if let Some(submission) = lead.submission_id.clone() {
        let pool = leads.pool.clone();
        let found = rocket::tokio::task::spawn_blocking(move || {
            store::find_submission(&pool, form.source(), &submission)
        })
        .await;
        match found {
            Ok(Ok(Some(id))) => return Verdict::Accepted(id),
            Ok(Ok(None)) => {}
            // Not knowing whether it is a repeat, it is not stored again: the client retries later.
            Ok(Err(error)) => return not_stored(&error),
            Err(error) => {
                rocket::error!("lead not stored, task failed: {error}");
                return Verdict::Failed;
            }
        }
    }

    let email_key = (form == Form::Contact).then(|| lead.email.clone());
    if !leads.per_ip.try_acquire(&ip_key) {
        rocket::warn!(
            "rate limit: {} submissions per 10 minutes reached by {ip}",
            leads.ip_limit
        );
        return Verdict::RateLimited;
    }
    if let Some(email) = &email_key
        && !leads.per_email.try_acquire(email)
    {
        leads.per_ip.release(&ip_key);
        return Verdict::RateLimited;
    }

    let pool = leads.pool.clone();
    let stored = rocket::tokio::task::spawn_blocking(move || store::insert(&pool, &lead)).await;
    let outcome = match stored {
        Ok(Ok(Stored::New(id))) => {
            rocket::info!("stored {} lead {id}", form.source());
            return Verdict::Accepted(id);
        }
        Ok(Ok(Stored::Repeat(id))) => Verdict::Accepted(id),
        Ok(Err(error)) => not_stored(&error),
        Err(error) => {
            rocket::error!("lead not stored, task failed: {error}");
            Verdict::Failed
        }
    };
    // Not stored now: the slots taken for it are given back.
    leads.per_ip.release(&ip_key);
    if let Some(email) = &email_key {
        leads.per_email.release(email);
    }
    outcome
}

/// The answer to a lead the store could not take, logged with the reason (one line per request).
fn not_stored(error: &store::StoreError) -> Verdict {
    if error.is_temporary() {
        rocket::error!("lead not stored, database busy: {error}");
        Verdict::Busy
    } else if error.is_storage_fault() {
        match error {
            // Its message says what happened and what to do.
            store::StoreError::Gone { .. } => rocket::error!("lead not stored: {error}"),
            _ => rocket::error!("lead not stored, {}: {error}", error.public_reason()),
        }
        Verdict::Unavailable
    } else {
        rocket::error!("lead not stored: {error}");
        Verdict::Failed
    }
}

/// Whether `elapsed_ms` says the form was filled by a program. Our forms send the whole milliseconds since the page
/// began to load; absent (a client that does not time itself, the plain form) is no evidence either way. Anything
/// else that is not a whole non-negative number (-1, 1.0, 1e3, text) did not come from our form and counts as too
/// fast: treating it as absent would let a bot skip the check by sending garbage.
fn is_too_fast(elapsed_ms: &str) -> bool {
    let text = elapsed_ms.trim();
    if text.is_empty() {
        return false;
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    // Only digits: a number too large for u64 is a very slow person.
    text.parse::<u64>().is_ok_and(|ms| ms < FASTEST_HUMAN_MS)
}

/// A submission id is the client's name for one attempt: absent, or 16 to 100 letters, digits, `-` or `_`. Anything
/// else is refused rather than cut down, so two different attempts can never share an id.
fn is_valid_submission_id(id: &str) -> bool {
    id.is_empty()
        || ((16..=100).contains(&id.len())
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
}

fn check_submission_id(fields: RawFields) -> Result<RawFields, String> {
    if is_valid_submission_id(fields.get("submission_id")) {
        Ok(fields)
    } else {
        Err("`submission_id` must be 16 to 100 letters, digits, - or _.".into())
    }
}

/// The rate-limit key of an address: IPv4 as is, IPv6 by its /64 network (one subscriber's whole allocation).
fn rate_key(ip: std::net::IpAddr) -> String {
    match ip {
        std::net::IpAddr::V4(v4) => v4.to_string(),
        std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// A JSON body: an object whose form fields are strings, numbers or booleans.
fn parse_json(text: &str, form: Form) -> Result<RawFields, String> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| format!("The request body is not valid JSON: {e}."))?;
    let Value::Object(object) = value else {
        return Err("Send the lead as a JSON object.".into());
    };
    let mut fields = BTreeMap::new();
    for name in form.fields().iter().chain(EXTRA_FIELDS.iter()) {
        let text = match object.get(*name) {
            None | Some(Value::Null) => continue,
            Some(Value::String(text)) => text.clone(),
            Some(Value::Number(number)) => number.to_string(),
            Some(Value::Bool(flag)) => flag.to_string(),
            Some(_) => {
                return Err(format!(
                    "The field `{name}` must be text, a number or true/false."
                ));
            }
        };
        fields.insert(name.to_string(), text);
    }
    Ok(RawFields(fields))
}

/// An `application/x-www-form-urlencoded` body; the last value of a repeated name wins.
fn parse_form(text: &str) -> RawFields {
    let decode = |part: &str| {
        rocket::http::RawStr::new(part)
            .url_decode_lossy()
            .into_owned()
    };
    RawFields(
        text.split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                (decode(name), decode(value))
            })
            .collect(),
    )
}

/// A number as an `<input type="number">` value may be written: digits, an optional minus and decimal part.
fn is_html_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    [whole, fraction]
        .iter()
        .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
}

/// The no-JavaScript answer: the prerendered form page with what was typed put back, each field's error beside it
/// and the message on top. Everything inserted is HTML-escaped.
fn fill_template(form: Form, fields: &RawFields, errors: &FieldErrors, message: &str) -> String {
    let Some(template) = SiteFiles::get(form.template()) else {
        return format!(
            "<!doctype html><title>{0}</title><p>{0}</p>",
            escape_html(message)
        );
    };
    let mut html = String::from_utf8_lossy(&template.data).into_owned();
    // Choices first, on the template itself (typed text is escaped, so it can never match these).
    if form == Form::Quote {
        let chosen = fields.get("insurance_type");
        if validate::is_insurance_type(chosen) {
            let option = format!("<option value=\"{chosen}\">");
            html = html.replacen(
                &option,
                &format!("<option value=\"{chosen}\" selected=\"\">"),
                1,
            );
        }
        if matches!(fields.get("consent"), "true" | "on" | "yes" | "1") {
            html = html.replacen(
                "data-fill=\"consent\"",
                "data-fill=\"consent\" checked=\"\"",
                1,
            );
        }
    }
    // Fields with an error are marked invalid for assistive technology (ids as the form pages render them).
    let id_prefix = match form {
        Form::Quote => "correction",
        Form::Contact => "contact",
    };
    for name in errors.keys() {
        let id = format!("id=\"{id_prefix}-{name}\"");
        html = html.replacen(&id, &format!("{id} aria-invalid=\"true\""), 1);
    }
    // Then every marker in one pass over the template, so text a visitor typed is never read as a marker.
    const MARKER: &str = "TRUCKINS_";
    let mut filled = String::with_capacity(html.len() + 1024);
    let mut rest = html.as_str();
    while let Some(at) = rest.find(MARKER) {
        filled.push_str(&rest[..at]);
        let after = &rest[at + MARKER.len()..];
        let length = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let marker = &after[..length];
        let replacement = if marker == "FORM_MESSAGE" {
            Some(message)
        } else if let Some(name) = marker.strip_prefix("VALUE_") {
            form.fields()
                .contains(&name)
                .then(|| fields.get(name))
                .map(|typed| match name {
                    // A number input can only hold a number: letters there are invalid HTML, and a browser
                    // would show the field empty anyway (the error beside it says what is expected).
                    "vehicle_count" if is_html_number(typed.trim()) => typed.trim(),
                    "vehicle_count" => "",
                    _ => typed,
                })
        } else if let Some(name) = marker.strip_prefix("ERROR_") {
            form.fields()
                .contains(&name)
                .then(|| errors.get(name).copied().unwrap_or(""))
        } else {
            None
        };
        match replacement {
            Some(text) => filled.push_str(&escape_html(text)),
            None => filled.push_str(&rest[at..at + MARKER.len() + length]),
        }
        rest = &after[length..];
    }
    filled.push_str(rest);
    filled
}

pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_visitors_are_limited_by_their_64_network() {
        let key = |text: &str| rate_key(text.parse().unwrap());
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
    }

    #[test]
    fn submission_ids_are_checked_not_cut() {
        let with = |id: &str| RawFields([("submission_id".to_string(), id.to_string())].into());
        assert!(check_submission_id(with("")).is_ok());
        assert!(check_submission_id(with("0123456789abcdef")).is_ok());
        assert!(check_submission_id(with("short")).is_err());
        assert!(check_submission_id(with(&"a".repeat(101))).is_err());
        assert!(check_submission_id(with("0123456789abcdef<script>")).is_err());
    }

    #[test]
    fn only_a_whole_number_of_milliseconds_can_be_slow_enough() {
        for fast in [
            "0", "300", "1499", "-1", "1.0", "1500.0", "1e3", "abc", "+2000", "-0", "0x7d0",
        ] {
            assert!(is_too_fast(fast), "{fast:?}");
        }
        for person in ["", "  ", "1500", " 2000 ", "99999999999999999999999"] {
            assert!(!is_too_fast(person), "{person:?}");
        }
    }

    #[test]
    fn only_numbers_go_back_into_a_number_input() {
        for number in ["3", "0", "-2", "12.5", "007"] {
            assert!(is_html_number(number), "{number}");
        }
        for text in ["", "two", ".5", "5.", "+1", "1,000", " 3", "-", "1.2.3"] {
            assert!(!is_html_number(text), "{text:?}");
        }
    }
}
