//! The lead forms' rules, in the specification's words: each field's limits and messages, and what each form posts
//! to, where it lands and what the server says when it cannot take it. The server validates with these
//! (src/leads/validate), the web app renders its inputs' `required`, `maxLength` and `pattern` from the same values,
//! so the browser's comfort checks can never disagree with the server's answer.

use crate::routes;

/// A length limit in characters (counted after the server's cleaning) and the message when it is not met.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub chars: usize,
    pub message: &'static str,
}

/// What one field accepts.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub name: &'static str,
    /// The form asks for it (the browser's `required`); an optional field may be left empty.
    pub required: bool,
    pub min: Option<Limit>,
    pub max: Option<Limit>,
    /// The message for a required field left empty, where it differs from the `min` message.
    pub missing: Option<&'static str>,
    /// The message for a value of the wrong form (characters, format, a number out of range).
    pub invalid: Option<&'static str>,
    /// The HTML `pattern` the browser checks; the server checks the same rule in Rust.
    pub pattern: Option<&'static str>,
    /// The smallest and largest number accepted, for number fields.
    pub range: Option<(i64, i64)>,
    /// The message for a whole number outside `range`, where `invalid` (about the format) does not say the limits.
    pub out_of_range: Option<&'static str>,
    /// The message for a well-formed value that a further rule refuses: a date in the past or the future, a VIN
    /// whose check digit does not match. Kept apart from `invalid` so that each rule says precisely what is wrong.
    pub refused: Option<&'static str>,
}

impl Field {
    const fn text(name: &'static str) -> Field {
        Field {
            name,
            required: false,
            min: None,
            max: None,
            missing: None,
            invalid: None,
            pattern: None,
            range: None,
            out_of_range: None,
            refused: None,
        }
    }

    /// The same rule under another name, for a field that asks the same of another thing (a trailer's model year,
    /// like a truck's).
    pub(crate) const fn named(self, name: &'static str) -> Field {
        Field { name, ..self }
    }

    /// The `min` limit; for fields that have one.
    pub const fn min_limit(&self) -> Limit {
        match self.min {
            Some(limit) => limit,
            None => panic!("the field has no minimum length"),
        }
    }

    /// The `max` limit; for fields that have one.
    pub const fn max_limit(&self) -> Limit {
        match self.max {
            Some(limit) => limit,
            None => panic!("the field has no maximum length"),
        }
    }

    /// The `invalid` message; for fields that have one.
    pub const fn invalid_message(&self) -> &'static str {
        match self.invalid {
            Some(message) => message,
            None => panic!("the field has no invalid-value message"),
        }
    }

    /// The `refused` message; for fields that have one.
    pub const fn refused_message(&self) -> &'static str {
        match self.refused {
            Some(message) => message,
            None => panic!("the field has no refused-value message"),
        }
    }

    /// What the server says of this field left empty: its `missing` message, else its `min` limit's, else its
    /// `invalid` one; none for a field that may be left empty. The quote form says it in the browser too, for the
    /// fields it flags beside the consent it refuses before sending (src/leads/validate's tests hold the server to it).
    pub fn empty_message(&self) -> Option<&'static str> {
        if !self.required {
            return None;
        }
        self.missing
            .or(self.min.map(|limit| limit.message))
            .or(self.invalid)
    }

    /// The `missing` message; for fields that have one.
    pub const fn missing_message(&self) -> &'static str {
        match self.missing {
            Some(message) => message,
            None => panic!("the field has no missing-value message"),
        }
    }
}

pub const NAME: Field = Field {
    required: true,
    min: Some(Limit {
        chars: 2,
        message: "Name must be at least 2 characters",
    }),
    max: Some(Limit {
        chars: 100,
        message: "Name must be less than 100 characters",
    }),
    invalid: Some("Name can only contain letters, spaces, hyphens, and apostrophes"),
    ..Field::text("name")
};

/// Every form's e-mail address (quote, contact, certificate request). Only ASCII, and no `?`: the pattern allows
/// the printable ASCII characters, U+0021 `!` to U+007E `~`, except `?` (U+003F). An address with other letters
/// (`josé@exämple.com`) needs SMTPUTF8 from every relay on its way, which many refuse, and a refused message is a
/// lead the agency never hears of; `?` is legal but unheard of in a real address, and would start the headers
/// (cc, body) of a `mailto:` link made of it. The server checks the same rule in Rust, with [`EMAIL_NOT_ASCII`]
/// for other letters and the `invalid` message for `?`.
pub const EMAIL: Field = Field {
    required: true,
    max: Some(Limit {
        chars: 255,
        message: "Email must be less than 255 characters",
    }),
    invalid: Some("Please enter a valid email address"),
    pattern: Some("[!->@-~]+"),
    ..Field::text("email")
};

/// The message for an e-mail address with characters outside ASCII (see [`EMAIL`]).
pub const EMAIL_NOT_ASCII: &str =
    "Please enter an email address without accented or special letters (such as é or ñ)";

/// DECISIONS 11: optional, US formats; 25 characters hold any way of writing a US number.
pub const PHONE: Field = Field {
    max: Some(Limit {
        chars: 25,
        message: "Please enter a valid US phone number",
    }),
    invalid: Some("Please enter a valid US phone number"),
    ..Field::text("phone")
};

/// The client-service forms' phone (claim, policy change): required there, because the agency calls back about a
/// loss or a change rather than writing; the lead forms' rule otherwise.
pub const SERVICE_PHONE: Field = Field {
    required: true,
    missing: Some("Please enter a phone number we can reach you at"),
    ..PHONE
};

/// The policy's number, as the declarations page or the ID card prints it (`TX-CA-123456-01`, `01 APS 123456`,
/// `CAP1234567/02`): letters, digits, spaces, and the separators insurers use. Optional: a driver on the shoulder
/// rarely has it, and the agency finds the policy by the insured's name.
pub const POLICY_NUMBER: Field = Field {
    max: Some(Limit {
        chars: 40,
        message: "Policy number must be less than 40 characters",
    }),
    invalid: Some(
        "Policy number can only contain letters, digits, spaces, hyphens, slashes and dots",
    ),
    // `-`, `/` and `.` escaped: browsers compile `pattern` with the `v` flag, where a bare `-` or `/` in a class is
    // a syntax error (and an invalid pattern is silently not checked at all).
    pattern: Some("[A-Za-z0-9 \\-\\/\\.]+"),
    ..Field::text("policy_number")
};

/// Whether `value` is a policy number by [`POLICY_NUMBER`]'s pattern (the length is the field's `max`).
pub fn is_policy_number(value: &str) -> bool {
    !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '/' | '.'))
}

pub const COMPANY: Field = Field {
    max: Some(Limit {
        chars: 200,
        message: "Company name must be less than 200 characters",
    }),
    ..Field::text("company")
};

pub const INSURANCE_TYPE: Field = Field {
    required: true,
    missing: Some("Please select an insurance type"),
    invalid: Some("Please select an insurance type"),
    ..Field::text("insurance_type")
};

/// DECISIONS 10: a whole number from 1.
pub const VEHICLE_COUNT: Field = Field {
    required: true,
    missing: Some("Please enter the number of vehicles"),
    invalid: Some("Invalid vehicle count format"),
    range: Some((1, 100_000)),
    // The spec's "Invalid vehicle count format" is about a value that is no number; a number the server will not take
    // says which it would.
    out_of_range: Some("Number of vehicles must be from 1 to 100,000"),
    ..Field::text("vehicle_count")
};

pub const DOT_NUMBER: Field = Field {
    max: Some(Limit {
        chars: 8,
        message: "DOT number must be 1-8 digits",
    }),
    invalid: Some("DOT number must be 1-8 digits"),
    pattern: Some("[0-9]{1,8}"),
    ..Field::text("dot_number")
};

pub const CONSENT: Field = Field {
    required: true,
    missing: Some("You must agree to our communication terms"),
    ..Field::text("consent")
};

pub const SUBJECT: Field = Field {
    required: true,
    min: Some(Limit {
        chars: 5,
        message: "Subject must be at least 5 characters",
    }),
    max: Some(Limit {
        chars: 200,
        message: "Subject must be less than 200 characters",
    }),
    ..Field::text("subject")
};

pub const MESSAGE: Field = Field {
    required: true,
    min: Some(Limit {
        chars: 10,
        message: "Message must be at least 10 characters",
    }),
    max: Some(Limit {
        chars: 2000,
        message: "Message must be less than 2000 characters",
    }),
    ..Field::text("message")
};

mod coi;
pub use coi::{
    ADDITIONAL_INSURED, CERTIFICATE_HOLDER, HOLDER_ADDRESS, INSURED_NAME, NEEDED_BY, NOTES,
    WAIVER_OF_SUBROGATION,
};

pub mod calendar;
pub mod change_dates;
pub mod claim;
pub mod details;
pub mod documents;
pub mod optout;
pub mod policy_change;
pub mod schedules;
mod vin;

mod catalogue;
pub use catalogue::{
    CHANGE, CLAIM, COI, CONTACT, DETAILS, EXTRA_FIELDS, FORMS, Form, HONEYPOT_FIELD, OPT_OUT,
    QUOTE, markers,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_share_the_prefix_the_server_scans_for() {
        for marker in [markers::VALUE, markers::ERROR, markers::MESSAGE] {
            assert!(marker.starts_with(markers::PREFIX), "{marker}");
        }
    }

    #[test]
    fn every_form_field_has_a_message_for_each_rule_it_has() {
        for form in FORMS.into_iter().chain([&DETAILS, &OPT_OUT]) {
            for field in form.fields {
                let names_a_message = field.min.is_some()
                    || field.max.is_some()
                    || field.missing.is_some()
                    || field.invalid.is_some();
                assert!(names_a_message, "{}.{} has no message", form.id, field.name);
                if field.pattern.is_some() || field.range.is_some() {
                    assert!(field.invalid.is_some(), "{}.{}", form.id, field.name);
                }
                assert!(!EXTRA_FIELDS.contains(&field.name), "{}", field.name);
            }
        }
    }

    #[test]
    fn the_email_pattern_is_printable_ascii_but_the_question_mark() {
        // The pattern is two ranges; the server's rule (src/leads/validate) allows exactly these characters.
        assert_eq!(EMAIL.pattern, Some("[!->@-~]+"));
        let allowed: Vec<char> = ('!'..='>').chain('@'..='~').collect();
        assert_eq!(allowed.len(), 94 - 1);
        assert!(!allowed.contains(&'?') && !allowed.contains(&' '));
        assert!(allowed.iter().all(char::is_ascii_graphic));
        for form in FORMS {
            assert!(
                form.has_field(EMAIL.name),
                "{} has no e-mail field",
                form.id
            );
        }
        assert!(!DETAILS.has_field(EMAIL.name));
    }

    #[test]
    fn a_forms_field_names_are_distinct() {
        for form in FORMS.into_iter().chain([&DETAILS, &OPT_OUT]) {
            let mut names: Vec<&str> = form.fields.iter().map(|field| field.name).collect();
            names.sort_unstable();
            let count = names.len();
            names.dedup();
            assert_eq!(names.len(), count, "{} names a field twice", form.id);
        }
    }

    #[test]
    fn policy_numbers_are_letters_digits_and_the_insurers_separators() {
        for number in [
            "TX-CA-123456-01",
            "01 APS 123456",
            "CAP1234567/02",
            "PHPK1234567.2",
            "7",
        ] {
            assert!(is_policy_number(number), "{number}");
        }
        for not_one in ["", "ABC#123", "ABC_123", "PÓLIZA1", "123\n456"] {
            assert!(!is_policy_number(not_one), "{not_one:?}");
        }
        assert_eq!(POLICY_NUMBER.pattern, Some("[A-Za-z0-9 \\-\\/\\.]+"));
    }

    #[test]
    fn the_service_forms_require_the_phone_the_lead_forms_do_not() {
        assert_eq!(SERVICE_PHONE.name, PHONE.name);
        const { assert!(SERVICE_PHONE.required && !PHONE.required) };
        assert_eq!(SERVICE_PHONE.invalid, PHONE.invalid);
        for form in [&CLAIM, &CHANGE] {
            let phone = form.fields.iter().find(|field| field.name == "phone");
            assert!(phone.is_some_and(|field| field.required), "{}", form.id);
        }
    }

    #[test]
    fn forms_post_to_the_leads_api_and_land_on_their_own_pages() {
        for form in FORMS {
            assert_eq!(form.endpoint, format!("/api/leads/{}", form.id));
            assert!(form.thank_you.ends_with("/thank-you"), "{}", form.thank_you);
        }
    }
}
