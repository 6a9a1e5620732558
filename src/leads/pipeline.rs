//! What happens to a submission that could be read: spam checks (honeypot, too fast) -> validation ->
//! copies of one `submission_id` one at a time -> repeat check (the first answer again) -> rate limits -> storage
//! (committed) -> a [`Verdict`], which the routes put into JSON and [`nojs`](super::nojs) into a page.
//!
//! The two spam checks end differently (issue 36). A filled honeypot is a program (people never see the field):
//! answered like a success and stored nowhere. A form sent faster than a person types ([`is_too_fast`]) may still
//! be a person (a browser's autofill, a password manager), and a lead told "received" must never be lost: it is
//! validated and stored like any other, marked `suspected_spam`. The agency's e-mail about it says so (its subject
//! starts with `[Suspected spam] `, its body says why) and the webhook's lead carries `"suspected_spam": true`, so
//! the agency can filter without losing anyone; the visitor's confirmation is not sent, so a program cannot use
//! the form to mail whatever address it types (src/notify: [`Outbox::enqueue`](crate::notify::Outbox::enqueue)).

use std::time::Duration;

use contract::forms::HONEYPOT_FIELD;

use super::Form;
use super::routes::{Leads, Visit};
use super::validate::{self, FieldErrors, RawFields};
use crate::limits::RetryAfter;
use crate::store::Language;
use crate::store::{self, Lead, Stored};
use contract::locale::Locale;

/// A form filled faster than this was filled by a program.
const FASTEST_HUMAN_MS: u64 = 1500;
pub const CONTACTS_PER_EMAIL: usize = 3;
pub const WINDOW: Duration = Duration::from_secs(10 * 60);

/// What happened to a submission, before it is put into JSON or a page.
pub enum Verdict {
    /// Stored: the lead's id, and for a new quote the token its details can be added with (src/leads/details.rs).
    Accepted(i64, Option<String>),
    /// Spam caught by the honeypot, answered like a success and stored nowhere.
    Dropped,
    Invalid(FieldErrors),
    /// Over a rate limit: when it lets the client in again.
    RateLimited(RetryAfter),
    /// Details posted with a token no lead has.
    UnknownToken,
    /// Details posted with the token of a quote more than 24 hours old.
    Expired,
    /// Every connection taken, or the file locked by another program: try again in a moment.
    Busy,
    /// The storage cannot take leads (the file gone or replaced, read-only, the disk full or failing).
    Unavailable,
    Failed,
}

/// `locale` is the submission's language, stored with the lead (with a quote, that language's consent text).
pub async fn process(
    form: Form,
    locale: Locale,
    fields: &RawFields,
    visit: &Visit,
    leads: &Leads,
) -> Verdict {
    let (consent_text, consent_version) = super::consent(locale);
    let ip = visit.ip.0.to_string();
    let ip_key = crate::client_ip::rate_key(visit.ip.0);
    if !fields.get(HONEYPOT_FIELD).trim().is_empty() {
        rocket::warn!(
            "dropped a {} submission from {ip}: the honeypot field was filled",
            form.source()
        );
        return Verdict::Dropped;
    }
    let suspected_spam = is_too_fast(fields.get("elapsed_ms"));
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
                consent_text: Some(consent_text.trim().to_string()),
                consent_version: Some(consent_version.trim().to_string()),
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
        // "Not in the past" is the agency's day: the server's local date at submission (clock::local_today).
        Form::Coi => match validate::coi(fields, crate::clock::local_today()) {
            Ok(request) => Lead {
                name: request.name,
                email: request.email,
                phone: request.phone,
                dot_number: request.dot_number,
                insured_name: Some(request.insured_name),
                certificate_holder: Some(request.certificate_holder),
                holder_address: Some(request.holder_address),
                additional_insured: Some(request.additional_insured),
                waiver_of_subrogation: Some(request.waiver_of_subrogation),
                needed_by: Some(request.needed_by),
                notes: request.notes,
                ..Lead::default()
            },
            Err(errors) => return Verdict::Invalid(errors),
        },
        // "Not in the future" is the server's clock in UTC (the contract's rule allows for every US clock).
        Form::Claim => match validate::claim(fields, crate::clock::now_utc()) {
            Ok(claim) => Lead {
                name: claim.name,
                email: claim.email,
                phone: Some(claim.phone),
                insured_name: claim.insured_name,
                request: Some(claim.request),
                ..Lead::default()
            },
            Err(errors) => return Verdict::Invalid(errors),
        },
        // "Not in the past" is the agency's day, in its time zone, like the certificate's.
        Form::Change => match validate::change(fields, crate::clock::local_today()) {
            Ok(change) => Lead {
                name: change.name,
                email: change.email,
                phone: Some(change.phone),
                insured_name: Some(change.insured_name),
                request: Some(change.request),
                ..Lead::default()
            },
            Err(errors) => return Verdict::Invalid(errors),
        },
        // Details and opt-outs make no lead: the routes send them to details::process and optout::process.
        Form::Details | Form::OptOut => return Verdict::Failed,
    };
    let now = store::now();
    lead.source = form.source();
    lead.suspected_spam = suspected_spam;
    if suspected_spam {
        rocket::warn!(
            "a {} submission from {ip} was filled in under {FASTEST_HUMAN_MS} ms: kept as suspected spam",
            form.source()
        );
    }
    lead.language = Language(locale);
    lead.status = store::Status::New;
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
            Ok(Ok(Some(id))) => return Verdict::Accepted(id, reissue(form, id, leads).await),
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
    if let Err(wait) = leads.per_ip.acquire(&ip_key) {
        rocket::warn!(
            "rate limit: {} submissions per 10 minutes reached by {ip}",
            leads.ip_limit
        );
        return Verdict::RateLimited(wait);
    }
    if let Some(email) = &email_key
        && let Err(wait) = leads.per_email.acquire(email)
    {
        leads.per_ip.release(&ip_key);
        return Verdict::RateLimited(wait);
    }

    // The carrier as the census knows it now; never a reason to fail or hold up the lead. Not when the visitor
    // answered "No" to "Is this your company?" for this number: the census's carrier is then not theirs. Kept when
    // they said yes, did not answer, or sent no answer (a form without the island, the API used directly).
    let declined = fields
        .get("carrier_answer")
        .trim()
        .eq_ignore_ascii_case("no");
    if let Some(dot) = lead.dot_number.as_ref().filter(|_| !declined) {
        lead.carrier_snapshot = crate::carriers::lookup::snapshot(&leads.census, dot)
            .await
            .map(Into::into);
    }
    let pool = leads.pool.clone();
    // The lead's notifications are stored with it, in its transaction (src/notify).
    let outbox = leads.outbox.clone();
    // A new quote's details token; only its hash is stored, with the lead. Without one (the system's generator
    // failing) the quote is still taken: the visitor is only not offered the details form.
    let token = (form == Form::Quote)
        .then(|| {
            store::details::new_token()
                .inspect_err(|error| rocket::error!("no details token for this quote: {error}"))
                .ok()
        })
        .flatten();
    let kept = token.clone();
    let source = lead.source;
    let stored = rocket::tokio::task::spawn_blocking(move || {
        let email = lead.email.clone();
        let suspected_spam = lead.suspected_spam;
        store::insert_with(
            &pool,
            &lead,
            Box::new(move |transaction, id| {
                if let Some(token) = &kept {
                    store::details::set_token(transaction, id, token)?;
                }
                outbox.enqueue(transaction, id, source, &email, suspected_spam)
            }),
        )
    })
    .await;
    let outcome = match stored {
        Ok(Ok(Stored::New(id))) => {
            rocket::info!("stored {} lead {id}", form.source());
            // The worker is woken by the route, before its answer waits for a copy off the machine (src/replica).
            return Verdict::Accepted(id, token);
        }
        Ok(Ok(Stored::Repeat(id))) => Verdict::Accepted(id, reissue(form, id, leads).await),
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

/// A new details token for a quote sent again (a retry whose first answer was lost): the first answer's token
/// cannot be given again, only its hash is kept, so the repeat gets a new one, which replaces it. Never a reason to
/// fail the answer: without it the visitor is only not offered the details form.
async fn reissue(form: Form, id: i64, leads: &Leads) -> Option<String> {
    if form != Form::Quote {
        return None;
    }
    let token = store::details::new_token()
        .inspect_err(|error| rocket::error!("no new details token for quote {id}: {error}"))
        .ok()?;
    let pool = leads.pool.clone();
    let kept = token.clone();
    let written = rocket::tokio::task::spawn_blocking(move || {
        store::write(&pool, |transaction| {
            Ok(store::details::set_token(transaction, id, &kept)?)
        })
    })
    .await;
    match written {
        Ok(Ok(())) => Some(token),
        Ok(Err(error)) => {
            rocket::error!("no new details token for quote {id}: {error}");
            None
        }
        Err(error) => {
            rocket::error!("no new details token for quote {id}: {error}");
            None
        }
    }
}

/// The answer to a lead the store could not take, logged with the reason (one line per request).
pub(super) fn not_stored(error: &store::StoreError) -> Verdict {
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

/// Whether `elapsed_ms` says the form was filled faster than a person types: a program's, or a browser's autofill.
/// Our forms send the whole milliseconds since the page
/// began to load; absent (a client that does not time itself, the plain form) is no evidence either way. Anything
/// else that is not a whole non-negative number (-1, 1.0, 1e3, text) did not come from our form and counts as too
/// fast: treating it as absent would let a bot skip the check by sending garbage.
pub(super) fn is_too_fast(elapsed_ms: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
