//! Consent the agency can prove, and a visitor can take back (issue 25): revocations ([`revocations`]: the site's
//! opt-out form, `truckins optout add` for those received by phone, text, e-mail or letter), what they change (a lead's
//! do-not-contact standing in `leads list` and the exports, the visitor's confirmation withheld, the agency told
//! through the outbox), erasure on request and past the retention period ([`forget`], [`retention`]), and one lead's
//! proof of consent ([`proof`]).

mod elsewhere;
pub mod forget;
pub mod proof;
pub mod retention;
pub mod revocations;
pub mod traces;

pub use revocations::{NewRevocation, Revocation, Standing, standings};
