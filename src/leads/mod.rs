//! Leads: the quote, contact, certificate request, claim and policy change forms' API. A submission flows through
//! [`routes`] (the two POST routes and the stage that opens the store) -> [`intake`] (body as JSON or urlencoded,
//! size-capped; the submission id checked) -> [`pipeline`] (spam checks, validation ([`validate`]), copies of one
//! `submission_id` one at a time, the repeat check, rate limits ([`limits`]), storage ([`store`], committed)) ->
//! the answer. Programs get JSON (201 / 422 / 429 / 4xx); a browser without JavaScript posts a plain form and gets
//! a page from [`nojs`]: 303 to a thank-you page, or the form again with the errors beside the fields and what was
//! typed kept. [`export`] writes stored leads for the CLI.
//!
//! This file holds what they all share: the two forms and the facts about them.

mod details;
pub mod export;
mod intake;
pub mod language;
mod nojs;
mod optout;
mod pipeline;
mod routes;
pub mod validate;

use crate::store;
pub use crate::text::escape_html;
pub use routes::{Leads, stage};

/// The consent text shown beside the quote form, from `content/forms.toml`, stored with every consenting lead.
pub fn consent_text() -> &'static str {
    crate::built::text("consent.txt")
}
pub fn consent_version() -> &'static str {
    crate::built::text("consent-version.txt")
}
/// The Spanish pages' consent text and its version, stored with a Spanish quote (issue 15).
pub fn consent_text_es() -> &'static str {
    crate::built::text("consent.es.txt")
}
pub fn consent_version_es() -> &'static str {
    crate::built::text("consent-version.es.txt")
}

/// The consent text and version shown on the pages of `locale`.
pub fn consent(locale: contract::locale::Locale) -> (&'static str, &'static str) {
    match locale {
        contract::locale::Locale::En => (consent_text(), consent_version()),
        contract::locale::Locale::Es => (consent_text_es(), consent_version_es()),
    }
}

/// Largest request body accepted; the longest valid contact message is 2,000 characters.
pub const BODY_LIMIT_KIB: u64 = 64;
/// Largest details body (issue 39): 50 vehicles, 50 drivers and 20 losses with every cell full fit, even as a form
/// post whose accented names take nine bytes a letter once percent-encoded. The largest body of any form.
pub const DETAILS_BODY_LIMIT_KIB: u64 = 256;

pub use crate::config::Settings as LeadSettings;

/// The forms; what differs between them is stated in the contract (crates/contract: `forms::QUOTE`, `CONTACT`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Form {
    Quote,
    Contact,
    /// A certificate of insurance request from an existing client.
    Coi,
    /// A first notice of loss from a client (issue 28).
    Claim,
    /// A client's policy change request (issue 28).
    Change,
    /// "Speed up your quote": details added to a quote lead, which makes no lead of its own (src/leads/details.rs).
    Details,
    /// The opt-out form: a revocation of consent, no lead (src/leads/optout.rs).
    OptOut,
}

impl Form {
    const ALL: [Form; 7] = [
        Form::Quote,
        Form::Contact,
        Form::Coi,
        Form::Claim,
        Form::Change,
        Form::Details,
        Form::OptOut,
    ];

    /// The largest body the form takes, in KiB.
    fn body_limit_kib(self) -> u64 {
        match self {
            Form::Details => DETAILS_BODY_LIMIT_KIB,
            _ => BODY_LIMIT_KIB,
        }
    }

    /// Whether an accepted post is a new lead, with its own news to the agency (details and opt-outs are not).
    fn makes_lead(self) -> bool {
        !matches!(self, Form::Details | Form::OptOut)
    }

    /// The form's rules, addresses and messages.
    fn rules(self) -> &'static contract::forms::Form {
        match self {
            Form::Quote => &contract::forms::QUOTE,
            Form::Contact => &contract::forms::CONTACT,
            Form::Coi => &contract::forms::COI,
            Form::Claim => &contract::forms::CLAIM,
            Form::Change => &contract::forms::CHANGE,
            Form::Details => &contract::forms::DETAILS,
            Form::OptOut => &contract::forms::OPT_OUT,
        }
    }

    /// The `source` its leads are stored with.
    fn source(self) -> store::Source {
        match self {
            Form::Quote => store::Source::Quote,
            Form::Contact => store::Source::Contact,
            Form::Coi => store::Source::Coi,
            Form::Claim => store::Source::Claim,
            Form::Change => store::Source::Change,
            // The leads details are added to are quotes; an opt-out is about whatever the person sent before.
            Form::Details | Form::OptOut => store::Source::Quote,
        }
    }
}
