//! The policy change request (issue 28), on `/policy-change`: which change (a vehicle, a trailer or a driver added
//! or removed, a new address, a new lienholder or loss payee, something else), the facts the agency needs for that
//! change, the date it should take effect, and who asks. A request, not a change: nothing is in force until the
//! agency confirms it ([`NOT_IN_FORCE_UNTIL_CONFIRMED`]).
//!
//! Every kind has its own fields ([`CHANGE_KINDS`]). They have their own names, so a page without JavaScript can
//! show every section at once; the server reads only the chosen kind's fields and drops the others, so that a
//! section filled in before the person changed their mind is not sent on as part of the request.
//!
//! A driver's license number is never asked: a web form, the e-mails it sends and the exports are the wrong places
//! for it. With a name it is what identity thieves look for; state data-breach laws count the two together as
//! personal information whose loss must be notified, and California's privacy law counts the number as sensitive
//! personal information. The page says the agency will ask for it by phone ([`LICENSE_NUMBER_BY_PHONE`]).

use super::calendar::CalendarDate;
use super::vin::WRONG_CHECK_DIGIT;
// The VIN's rules are the standard's, in a module of their own; named here too, beside the fields they check.
pub use super::vin::{VIN_LENGTH, is_vin, vin_check_digit_ok};
use super::{Field, Limit};
// The dates' bounds are in a module of their own; named here too, beside the fields they check.
pub use super::change_dates::{
    EFFECTIVE_DATE_TOO_LATE, OLDEST_DRIVER_AGE, YOUNGEST_DRIVER_AGE, driver_age_ok,
    effective_date_refusal, hire_date_ok,
};

/// What kind of change; one of [`CHANGE_KINDS`]' values.
pub const CHANGE_KIND: Field = Field {
    required: true,
    missing: Some("Please choose the change you need"),
    invalid: Some("Please choose the change you need from the list"),
    ..Field::text("change_kind")
};

/// The day the change should take effect, YYYY-MM-DD, from today to a year from today in the agency's time
/// ([`effective_date_refusal`]; later than that is [`EFFECTIVE_DATE_TOO_LATE`]).
pub const EFFECTIVE_DATE: Field = Field {
    required: true,
    missing: Some("Please enter the date the change should take effect"),
    invalid: Some("Please enter the effective date as a valid date"),
    refused: Some("The effective date cannot be in the past"),
    ..Field::text("effective_date")
};

// A vehicle (power unit) added or removed.

pub const VEHICLE_YEAR: Field = Field {
    missing: Some("Please enter the vehicle's model year"),
    invalid: Some("Please enter the model year as 4 digits, such as 2021"),
    range: Some((OLDEST_MODEL_YEAR, NEWEST_MODEL_YEAR_ACCEPTED_BY_THE_BROWSER)),
    out_of_range: Some("The model year must be from 1900 to next year"),
    ..Field::text("vehicle_year")
};

pub const VEHICLE_MAKE: Field = Field {
    missing: Some("Please enter the vehicle's make, such as Freightliner"),
    max: Some(Limit {
        chars: 50,
        message: "Make must be less than 50 characters",
    }),
    ..Field::text("vehicle_make")
};

pub const VEHICLE_MODEL: Field = Field {
    missing: Some("Please enter the vehicle's model, such as Cascadia"),
    max: Some(Limit {
        chars: 50,
        message: "Model must be less than 50 characters",
    }),
    ..Field::text("vehicle_model")
};

/// A 17-character VIN (ISO 3779, the US form since model year 1981) with its check digit right
/// ([`is_vin`], [`vin_check_digit_ok`]). Any case is read, stored upper case.
pub const VIN: Field = Field {
    missing: Some("Please enter the vehicle's 17-character VIN"),
    max: Some(Limit {
        chars: VIN_LENGTH,
        message: "A VIN is 17 letters and digits, without I, O or Q",
    }),
    invalid: Some("A VIN is 17 letters and digits, without I, O or Q"),
    refused: Some(WRONG_CHECK_DIGIT),
    pattern: Some("[A-HJ-NPR-Za-hj-npr-z0-9]{17}"),
    ..Field::text("vin")
};

/// Whole dollars: what the unit would be insured for under physical damage.
pub const STATED_VALUE: Field = Field {
    missing: Some("Please enter the vehicle's stated value in dollars"),
    invalid: Some("Stated value must be a whole number of dollars, such as 85000"),
    range: Some((100, 5_000_000)),
    out_of_range: Some("Stated value must be from $100 to $5,000,000"),
    ..Field::text("stated_value")
};

/// Where the vehicle is kept overnight: it decides the rate. Five digits, or ZIP+4.
pub const GARAGING_ZIP: Field = Field {
    missing: Some("Please enter the ZIP code where the vehicle is kept"),
    max: Some(Limit {
        chars: 10,
        message: "Please enter a US ZIP code, such as 75201",
    }),
    invalid: Some("Please enter a US ZIP code, such as 75201"),
    pattern: Some("[0-9]{5}(-[0-9]{4})?"),
    ..Field::text("garaging_zip")
};

/// Whether `value` is a US ZIP code by [`GARAGING_ZIP`]'s pattern.
pub fn is_zip_code(value: &str) -> bool {
    let bytes = value.as_bytes();
    let five = |part: &[u8]| part.iter().all(u8::is_ascii_digit);
    match bytes.len() {
        5 => five(bytes),
        10 => five(&bytes[..5]) && bytes[5] == b'-' && five(&bytes[6..]),
        _ => false,
    }
}

// A trailer added or removed.

pub const TRAILER_YEAR: Field = Field {
    missing: Some("Please enter the trailer's model year"),
    ..VEHICLE_YEAR.named("trailer_year")
};

pub const TRAILER_MAKE: Field = Field {
    missing: Some("Please enter the trailer's make, such as Great Dane"),
    max: Some(Limit {
        chars: 50,
        message: "Trailer make must be less than 50 characters",
    }),
    ..Field::text("trailer_make")
};

/// A trailer's VIN, or the serial number of one built before VINs had 17 characters (1981): a value of 17
/// characters is a VIN, held to the check digit like a truck's, because trailers made for the US market since then
/// carry one; a shorter one is a serial number ([`is_trailer_vin_or_serial`]).
pub const TRAILER_VIN: Field = Field {
    missing: Some("Please enter the trailer's VIN or serial number"),
    max: Some(Limit {
        chars: TRAILER_SERIAL_MAX,
        message: TRAILER_VIN_INVALID,
    }),
    invalid: Some(TRAILER_VIN_INVALID),
    refused: Some(WRONG_CHECK_DIGIT),
    pattern: Some("[A-Za-z0-9]{1,25}"),
    ..Field::text("trailer_vin")
};

const TRAILER_VIN_INVALID: &str = "Please enter the trailer's 17-character VIN (no I, O or Q), or for an older trailer its serial number";

/// The longest serial number read: longer than any VIN, for the manufacturers' own older numbering.
const TRAILER_SERIAL_MAX: usize = 25;

pub const TRAILER_STATED_VALUE: Field = Field {
    invalid: Some("Trailer stated value must be a whole number of dollars, such as 35000"),
    out_of_range: Some("Trailer stated value must be from $100 to $5,000,000"),
    ..STATED_VALUE.named("trailer_stated_value")
};

// A driver added or removed.

pub const DRIVER_NAME: Field = Field {
    missing: Some("Please enter the driver's full name"),
    min: Some(Limit {
        chars: 2,
        message: "Driver name must be at least 2 characters",
    }),
    max: Some(Limit {
        chars: 100,
        message: "Driver name must be less than 100 characters",
    }),
    invalid: Some("Driver name can only contain letters, spaces, hyphens, and apostrophes"),
    ..Field::text("driver_name")
};

/// The driver is [`YOUNGEST_DRIVER_AGE`] to [`OLDEST_DRIVER_AGE`] years old ([`driver_age_ok`]).
pub const DRIVER_DATE_OF_BIRTH: Field = Field {
    missing: Some("Please enter the driver's date of birth"),
    invalid: Some("Please enter the driver's date of birth as a valid date"),
    refused: Some("The driver must be 18 to 100 years old: please check the date of birth"),
    ..Field::text("driver_date_of_birth")
};

/// The state that issued the license, a US state or DC by its postal code.
pub const LICENSE_STATE: Field = Field {
    missing: Some("Please choose the state that issued the driver's license"),
    invalid: Some("Please choose a US state by its two-letter code, such as TX"),
    pattern: Some("[A-Za-z]{2}"),
    ..Field::text("license_state")
};

/// One of [`LICENSE_CLASS_CHOICES`].
pub const LICENSE_CLASS: Field = Field {
    missing: Some("Please choose the driver's license class"),
    invalid: Some("Please choose license class A, B or C"),
    ..Field::text("license_class")
};

/// The commercial license classes, as every state names them.
pub const LICENSE_CLASS_CHOICES: [(&str, &str); 3] =
    [("A", "Class A"), ("B", "Class B"), ("C", "Class C")];

/// Today or before in the agency's time ([`hire_date_ok`]): a date in 2099 is a typing mistake.
pub const HIRE_DATE: Field = Field {
    missing: Some("Please enter the driver's hire date"),
    invalid: Some("Please enter the hire date as a valid date"),
    refused: Some("The hire date cannot be in the future"),
    ..Field::text("hire_date")
};

// A new address, lienholder or loss payee.

/// The new mailing or garaging address, on lines as on an envelope.
pub const NEW_ADDRESS: Field = Field {
    min: Some(Limit {
        chars: 10,
        message: "Please enter the full new address",
    }),
    max: Some(Limit {
        chars: 500,
        message: "New address must be less than 500 characters",
    }),
    ..Field::text("new_address")
};

pub const LIENHOLDER_NAME: Field = Field {
    min: Some(Limit {
        chars: 2,
        message: "Lienholder or loss payee name must be at least 2 characters",
    }),
    max: Some(Limit {
        chars: 200,
        message: "Lienholder or loss payee name must be less than 200 characters",
    }),
    ..Field::text("lienholder_name")
};

pub const LIENHOLDER_ADDRESS: Field = Field {
    min: Some(Limit {
        chars: 10,
        message: "Please enter the lienholder's or loss payee's full mailing address",
    }),
    max: Some(Limit {
        chars: 500,
        message: "Lienholder address must be less than 500 characters",
    }),
    ..Field::text("lienholder_address")
};

/// Which unit the lienholder or loss payee is for (unit number or VIN, free text); empty is every unit, or the
/// agency asks.
pub const LIENHOLDER_VEHICLE: Field = Field {
    max: Some(Limit {
        chars: 200,
        message: "Vehicle or trailer must be less than 200 characters",
    }),
    ..Field::text("lienholder_vehicle")
};

/// What the change is, in the person's words: required for "something else", optional beside the other kinds.
/// When given, it is held to the same 10 characters either way (one rule, one message).
pub const CHANGE_DETAILS: Field = Field {
    min: Some(Limit {
        chars: 10,
        message: "Please describe the change in at least 10 characters",
    }),
    max: Some(Limit {
        chars: 2000,
        message: "Details must be less than 2000 characters",
    }),
    ..Field::text("change_details")
};

/// One kind of change: its value (`change_kind`), its label, and its own fields, those it requires and those it
/// takes if given. The form's other fields are the same for every kind.
#[derive(Debug)]
pub struct ChangeKind {
    pub value: &'static str,
    pub label: &'static str,
    pub required: &'static [Field],
    pub optional: &'static [Field],
}

impl ChangeKind {
    /// The kind named `value`.
    pub fn find(value: &str) -> Option<&'static ChangeKind> {
        CHANGE_KINDS.iter().find(|kind| kind.value == value)
    }

    /// Whether `name` is one of this kind's fields.
    pub fn has_field(&self, name: &str) -> bool {
        self.required
            .iter()
            .chain(self.optional)
            .any(|field| field.name == name)
    }
}

/// The kinds of change, in the form's order. Removing a unit asks for what identifies it on the insurer's schedule
/// (the VIN, or the trailer's VIN or serial; a driver's name), the rest is optional help.
pub const CHANGE_KINDS: [ChangeKind; 9] = [
    ChangeKind {
        value: "add_vehicle",
        label: "Add a vehicle",
        required: &[
            VEHICLE_YEAR,
            VEHICLE_MAKE,
            VEHICLE_MODEL,
            VIN,
            STATED_VALUE,
            GARAGING_ZIP,
        ],
        optional: &[CHANGE_DETAILS],
    },
    ChangeKind {
        value: "remove_vehicle",
        label: "Remove a vehicle",
        required: &[VIN],
        optional: &[VEHICLE_YEAR, VEHICLE_MAKE, VEHICLE_MODEL, CHANGE_DETAILS],
    },
    ChangeKind {
        value: "add_trailer",
        label: "Add a trailer",
        required: &[TRAILER_YEAR, TRAILER_MAKE, TRAILER_VIN],
        optional: &[TRAILER_STATED_VALUE, CHANGE_DETAILS],
    },
    ChangeKind {
        value: "remove_trailer",
        label: "Remove a trailer",
        required: &[TRAILER_VIN],
        optional: &[TRAILER_YEAR, TRAILER_MAKE, CHANGE_DETAILS],
    },
    ChangeKind {
        value: "add_driver",
        label: "Add a driver",
        required: &[
            DRIVER_NAME,
            DRIVER_DATE_OF_BIRTH,
            LICENSE_STATE,
            LICENSE_CLASS,
            HIRE_DATE,
        ],
        optional: &[CHANGE_DETAILS],
    },
    ChangeKind {
        value: "remove_driver",
        label: "Remove a driver",
        required: &[DRIVER_NAME],
        optional: &[DRIVER_DATE_OF_BIRTH, CHANGE_DETAILS],
    },
    ChangeKind {
        value: "change_address",
        label: "Change the mailing or garaging address",
        required: &[NEW_ADDRESS],
        optional: &[CHANGE_DETAILS],
    },
    ChangeKind {
        value: "change_lienholder",
        label: "Change the lienholder or loss payee",
        required: &[LIENHOLDER_NAME, LIENHOLDER_ADDRESS],
        optional: &[LIENHOLDER_VEHICLE, CHANGE_DETAILS],
    },
    ChangeKind {
        value: "other",
        label: "Something else",
        required: &[CHANGE_DETAILS],
        optional: &[],
    },
];

/// Said on the page, in the thank-you and in the confirmation e-mail, word for word.
pub const NOT_IN_FORCE_UNTIL_CONFIRMED: &str = "No change is in force until we confirm it to you.";

/// Said on the page beside the driver's fields: why there is no license number field.
pub const LICENSE_NUMBER_BY_PHONE: &str = "For your driver's safety, we never ask for a license number online: we will ask for it by phone.";

/// The year of the first model year accepted.
const OLDEST_MODEL_YEAR: i64 = 1900;
/// What the browser's `max` says; the server's limit is next year ([`model_year_ok`]), which a static page
/// cannot know.
const NEWEST_MODEL_YEAR_ACCEPTED_BY_THE_BROWSER: i64 = 2100;

/// Whether a model `year` can be on a vehicle on `today`: from 1900 to next year (a model year is sold from the
/// summer before it).
pub fn model_year_ok(year: i64, today: CalendarDate) -> bool {
    (OLDEST_MODEL_YEAR..=i64::from(today.year()) + 1).contains(&year)
}

/// Whether `value` is a trailer's VIN or serial number by [`TRAILER_VIN`]'s rule: 17 characters are a VIN, held
/// to its shape and check digit; 1 to 16 or 18 to 25 letters and digits are an older serial number.
pub fn is_trailer_vin_or_serial(value: &str) -> bool {
    if value.len() == VIN_LENGTH {
        return vin_check_digit_ok(value);
    }
    (1..=TRAILER_SERIAL_MAX).contains(&value.len())
        && value.chars().all(|c| c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests;
