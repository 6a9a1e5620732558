//! "Speed up your quote" (issue 13, part 2): details of the operation added to a quote already stored, through the
//! token its 201 answer (or its no-JavaScript thank-you page) carried. Spam checks like the lead forms' -> the token's
//! form (not one: 404 without a look-up) -> validation -> rate limit (per IP, counted apart from the forms') -> the
//! details and the agency's notifications of them (kind `details`: e-mail and webhook, never the visitor's
//! confirmation) stored in one transaction, or 404 (no lead has the token) or 410 (its quote is over 24 h old).

use contract::answers;
use contract::forms::HONEYPOT_FIELD;
use contract::forms::details::DETAILS_TOKEN;

use super::pipeline::{Verdict, is_too_fast, not_stored};
use super::routes::{Leads, Visit};
use super::validate::{self, FieldErrors, RawFields};
use crate::store::details::{self as tokens, Added};

pub async fn process(fields: &RawFields, visit: &Visit, leads: &Leads) -> Verdict {
    let ip = visit.ip.0.to_string();
    if !fields.get(HONEYPOT_FIELD).trim().is_empty() || is_too_fast(fields.get("elapsed_ms")) {
        rocket::warn!("dropped a details submission from {ip}: honeypot or too fast");
        return Verdict::Dropped;
    }
    let token = fields.get(DETAILS_TOKEN.name).trim().to_string();
    if token.is_empty() {
        return Verdict::Invalid(FieldErrors::from([(
            DETAILS_TOKEN.name.into(),
            DETAILS_TOKEN.missing_message(),
        )]));
    }
    if !tokens::is_token(&token) {
        return Verdict::UnknownToken;
    }
    let details = match validate::details(fields, crate::clock::local_today()) {
        Ok(details) => details,
        Err(errors) => return Verdict::Invalid(errors),
    };
    // Every attempt with a well-formed token takes a slot, found or not: guessing tokens costs the guesser.
    let ip_key = crate::client_ip::rate_key(visit.ip.0);
    if let Err(wait) = leads.per_ip_details.acquire(&ip_key) {
        rocket::warn!("rate limit: details submissions per 10 minutes reached by {ip}");
        return Verdict::RateLimited(wait);
    }
    let pool = leads.pool.clone();
    let outbox = leads.outbox.clone();
    let now = crate::clock::now_utc();
    let added = rocket::tokio::task::spawn_blocking(move || {
        tokens::add(&pool, &token, &details, now, |transaction, id| {
            outbox.enqueue_details(transaction, id)
        })
    })
    .await;
    match added {
        Ok(Ok(Added::Lead(id))) => {
            rocket::info!("stored the details of quote lead {id}");
            // The worker is woken by the route, once the details are also on the replica (src/replica).
            Verdict::Accepted(id, None)
        }
        Ok(Ok(Added::Unknown)) => Verdict::UnknownToken,
        Ok(Ok(Added::Expired)) => Verdict::Expired,
        Ok(Err(error)) => {
            leads.per_ip_details.release(&ip_key);
            not_stored(&error)
        }
        Err(error) => {
            leads.per_ip_details.release(&ip_key);
            rocket::error!("details not stored, task failed: {error}");
            Verdict::Failed
        }
    }
}

/// What a person or a program is told about a token that takes no details (in English; the answer translates it).
pub fn refusal(verdict: &Verdict) -> Option<(rocket::http::Status, &'static str)> {
    match verdict {
        Verdict::UnknownToken => Some((rocket::http::Status::NotFound, answers::UNKNOWN_TOKEN)),
        Verdict::Expired => Some((rocket::http::Status::Gone, answers::EXPIRED_TOKEN)),
        _ => None,
    }
}
