//! Leads: the quote and contact forms' API. A submission flows through
//! [`routes`] (the two POST routes and the stage that opens the store) -> [`intake`] (body as JSON or urlencoded,
//! size-capped; the submission id checked) -> [`pipeline`] (spam checks, validation ([`validate`]), copies of one
//! `submission_id` one at a time, the repeat check, rate limits ([`limits`]), storage ([`store`], committed)) ->
//! the answer. Programs get JSON (201 / 422 / 429 / 4xx); a browser without JavaScript posts a plain form and gets
//! a page from [`nojs`]: 303 to a thank-you page, or the form again with the errors beside the fields and what was
//! typed kept. [`export`] writes stored leads for the CLI.
//!
//! This file holds what they all share: the two forms and the facts about them.

pub mod export;
mod intake;
pub mod limits;
mod nojs;
mod pipeline;
mod routes;
pub mod store;
pub mod validate;

pub use nojs::escape_html;
pub(crate) use pipeline::rate_key;
pub use routes::{Leads, stage};

/// The consent text shown beside the quote form, from `content/forms.toml`, stored with every consenting lead.
pub const CONSENT_TEXT: &str = include_str!(concat!(env!("OUT_DIR"), "/consent.txt"));
pub const CONSENT_VERSION: &str = include_str!(concat!(env!("OUT_DIR"), "/consent-version.txt"));

/// Largest request body accepted; the longest valid contact message is 2,000 characters.
pub const BODY_LIMIT_KIB: u64 = 64;

pub use crate::config::Settings as LeadSettings;

/// The two forms, and what differs between them.
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
