//! The opt-out form's fields (issue 25): a phone number, an e-mail address or both (at least one), and a note.
//! The phone and e-mail follow the lead forms' rules, but neither is required on its own.

use super::{Field, Limit};

/// The message on both the phone and the e-mail field when neither is given.
pub const ONE_OF_THEM: &str =
    "Please enter the phone number or the email address to stop contacting (or both)";

/// Optional here; the lead forms' rule otherwise ([`super::PHONE`]).
pub const PHONE: Field = super::PHONE;

/// Optional here; the lead forms' rule otherwise ([`super::EMAIL`]).
pub const EMAIL: Field = Field {
    required: false,
    ..super::EMAIL
};

pub const NOTE: Field = Field {
    max: Some(Limit {
        chars: 500,
        message: "Note must be less than 500 characters",
    }),
    ..Field::text("note")
};
