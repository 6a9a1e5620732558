//! The opt-out form (issue 25): a visitor takes back their consent to calls, texts and e-mails. The honeypot ->
//! validation (a phone, an e-mail or both) -> rate limit (per IP, counted apart from the forms') -> the revocation
//! stored with the agency's news of it (src/consent), or an error. Every accepted or dropped request gets the same
//! answer, which never says whether the number or address was known.
//!
//! The lead forms' timer does not apply (issue 36): an opt-out is one field a browser autofills in an instant, and
//! one dropped while the person reads "received" is a call the agency must not make. Honouring a program's opt-out
//! costs at most a lead the agency could not lawfully call without that person's word anyway.

use contract::forms::HONEYPOT_FIELD;

use super::pipeline::{Verdict, not_stored};
use super::routes::{Leads, Visit};
use super::validate::{self, RawFields};
use crate::consent::{NewRevocation, revocations};
use crate::store::Via;

pub async fn process(fields: &RawFields, visit: &Visit, leads: &Leads) -> Verdict {
    let ip = visit.ip.0.to_string();
    if !fields.get(HONEYPOT_FIELD).trim().is_empty() {
        rocket::warn!("dropped an opt-out from {ip}: the honeypot field was filled");
        return Verdict::Dropped;
    }
    let request = match validate::opt_out(fields) {
        Ok(request) => request,
        Err(errors) => return Verdict::Invalid(errors),
    };
    let ip_key = crate::client_ip::rate_key(visit.ip.0);
    if let Err(wait) = leads.per_ip_opt_out.acquire(&ip_key) {
        rocket::warn!("rate limit: opt-outs per 10 minutes reached by {ip}");
        return Verdict::RateLimited(wait);
    }
    let new = NewRevocation {
        email: request.email,
        phone: request.phone,
        note: request.note,
        via: Via::Web,
        ip: Some(ip),
        user_agent: visit.user_agent.clone(),
        page_url: fields
            .optional("page_url", 2000)
            .or_else(|| visit.referer.clone()),
    };
    let pool = leads.pool.clone();
    let channels = leads.outbox.channels().to_vec();
    let stored = rocket::tokio::task::spawn_blocking(move || {
        let news = move |transaction: &rusqlite::Transaction<'_>, payload: &str| {
            crate::notify::outbox::enqueue_opt_out(transaction, payload, &channels)
        };
        revocations::store(&pool, &new, &news)
    })
    .await;
    match stored {
        Ok(Ok(revocation)) => {
            rocket::warn!(
                "opt-out {} recorded (web form): the agency is told through the outbox",
                revocation.id
            );
            Verdict::Accepted(revocation.id, None)
        }
        Ok(Err(error)) => {
            leads.per_ip_opt_out.release(&ip_key);
            not_stored(&error)
        }
        Err(error) => {
            leads.per_ip_opt_out.release(&ip_key);
            rocket::error!("opt-out not stored, task failed: {error}");
            Verdict::Failed
        }
    }
}
