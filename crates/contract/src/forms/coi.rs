//! The certificate of insurance request's own fields (issue 13); it shares name, e-mail, phone and DOT number with
//! the quote form.

use super::{Field, Limit};

/// The certificate request's fields (issue 13): who the certificate is for, and what it must say.
pub const INSURED_NAME: Field = Field {
    required: true,
    min: Some(Limit {
        chars: 2,
        message: "Insured name must be at least 2 characters",
    }),
    max: Some(Limit {
        chars: 200,
        message: "Insured name must be less than 200 characters",
    }),
    ..Field::text("insured_name")
};

pub const CERTIFICATE_HOLDER: Field = Field {
    required: true,
    min: Some(Limit {
        chars: 2,
        message: "Certificate holder must be at least 2 characters",
    }),
    max: Some(Limit {
        chars: 200,
        message: "Certificate holder must be less than 200 characters",
    }),
    ..Field::text("certificate_holder")
};

pub const HOLDER_ADDRESS: Field = Field {
    required: true,
    min: Some(Limit {
        chars: 10,
        message: "Please enter the certificate holder's full mailing address",
    }),
    max: Some(Limit {
        chars: 500,
        message: "Holder address must be less than 500 characters",
    }),
    ..Field::text("holder_address")
};

/// A checkbox: absent or `false` is no, `true`/`on`/`yes`/`1` is yes; anything else did not come from the form.
pub const ADDITIONAL_INSURED: Field = Field {
    invalid: Some("Additional insured must be yes or no"),
    ..Field::text("additional_insured")
};

pub const WAIVER_OF_SUBROGATION: Field = Field {
    invalid: Some("Waiver of subrogation must be yes or no"),
    ..Field::text("waiver_of_subrogation")
};

/// A date (YYYY-MM-DD, as `<input type="date">` sends it), today or later in the agency's time.
pub const NEEDED_BY: Field = Field {
    required: true,
    missing: Some("Please enter the date you need the certificate by"),
    invalid: Some("Please enter a valid date that is today or later"),
    ..Field::text("needed_by")
};

pub const NOTES: Field = Field {
    max: Some(Limit {
        chars: 2000,
        message: "Notes must be less than 2000 characters",
    }),
    ..Field::text("notes")
};
