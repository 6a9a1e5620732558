//! The "Speed up your quote" form's fields (issue 13, part 2): all optional, each checked like the lead forms',
//! and the choices of its lists.

use super::{Field, Limit};

/// The token the quote's 201 answer carries (and the no-JS thank-you page holds): which lead the details go to.
pub const DETAILS_TOKEN: Field = Field {
    required: true,
    missing: Some("This form has expired. Please call us with your details."),
    invalid: Some("This form has expired. Please call us with your details."),
    ..Field::text("details_token")
};

/// Digits, with or without `MC` in front (`MC-123456`): no `maxLength`, the prefix would not fit.
pub const MC_NUMBER: Field = Field {
    invalid: Some("MC number must be 1-8 digits"),
    pattern: Some("(MC|mc)?[ -]?[0-9]{1,8}"),
    ..Field::text("mc_number")
};

pub const YEARS_IN_BUSINESS: Field = Field {
    invalid: Some("Years in business must be a whole number from 0 to 100"),
    range: Some((0, 100)),
    ..Field::text("years_in_business")
};

/// `local` (up to 100 miles), `regional` (up to 500) or `long_haul`.
pub const RADIUS: Field = Field {
    invalid: Some("Please choose local, regional or long haul"),
    ..Field::text("radius")
};

/// Two-letter US state codes (and DC), separated by commas or spaces.
pub const OPERATING_STATES: Field = Field {
    max: Some(Limit {
        chars: 200,
        message: "Operating states must be two-letter US state codes, such as TX, OK",
    }),
    invalid: Some("Operating states must be two-letter US state codes, such as TX, OK"),
    ..Field::text("operating_states")
};

/// Choices of [`COMMODITIES_CHOICES`]; `other` asks for [`COMMODITIES_OTHER`].
pub const COMMODITIES: Field = Field {
    invalid: Some("Please choose commodities from the list"),
    ..Field::text("commodities")
};

pub const COMMODITIES_OTHER: Field = Field {
    max: Some(Limit {
        chars: 200,
        message: "Other commodities must be less than 200 characters",
    }),
    missing: Some("Please say which other commodities you haul"),
    ..Field::text("commodities_other")
};

pub const HAZMAT: Field = Field {
    invalid: Some("Hazmat must be yes or no"),
    ..Field::text("hazmat")
};

pub const POWER_UNITS: Field = Field {
    invalid: Some("Power units must be a whole number from 0 to 10000"),
    range: Some((0, 10_000)),
    ..Field::text("power_units")
};

pub const TRAILERS: Field = Field {
    invalid: Some("Trailers must be a whole number from 0 to 10000"),
    range: Some((0, 10_000)),
    ..Field::text("trailers")
};

pub const DRIVERS: Field = Field {
    invalid: Some("Drivers must be a whole number from 0 to 10000"),
    range: Some((0, 10_000)),
    ..Field::text("drivers")
};

pub const CURRENT_INSURER: Field = Field {
    max: Some(Limit {
        chars: 200,
        message: "Current insurer must be less than 200 characters",
    }),
    ..Field::text("current_insurer")
};

pub const POLICY_EXPIRATION: Field = Field {
    invalid: Some("Policy expiration must be a valid date"),
    ..Field::text("policy_expiration")
};

pub const EFFECTIVE_DATE: Field = Field {
    invalid: Some("Effective date must be a valid date"),
    ..Field::text("effective_date")
};

pub const CLAIMS_3Y: Field = Field {
    invalid: Some("Claims in the last 3 years must be a whole number from 0 to 1000"),
    range: Some((0, 1000)),
    ..Field::text("claims_3y")
};

pub const BEST_TIME_TO_CALL: Field = Field {
    invalid: Some("Please choose a time to call from the list"),
    ..Field::text("best_time_to_call")
};

/// `radius` values and how the form names them.
pub const RADIUS_CHOICES: [(&str, &str); 3] = [
    ("local", "Local (up to 100 miles)"),
    ("regional", "Regional (up to 500 miles)"),
    ("long_haul", "Long haul (over 500 miles)"),
];

/// Common trucking commodities, as underwriters group them.
pub const COMMODITIES_CHOICES: [(&str, &str); 14] = [
    ("general_freight", "General freight"),
    ("building_materials", "Building materials"),
    ("machinery", "Machinery and large objects"),
    ("refrigerated", "Refrigerated food"),
    ("dry_bulk", "Dry bulk and grain"),
    ("sand_gravel", "Sand, gravel and dirt"),
    ("logs_lumber", "Logs, poles and lumber"),
    ("metal", "Metal: sheets, coils, rolls"),
    ("vehicles", "Motor vehicles (car hauling)"),
    ("intermodal", "Intermodal containers"),
    ("household_goods", "Household goods"),
    ("livestock", "Livestock"),
    ("liquids_gases", "Liquids and gases (tank)"),
    ("other", "Other"),
];

pub const BEST_TIME_CHOICES: [(&str, &str); 4] = [
    ("morning", "Morning (8 a.m. to noon)"),
    ("afternoon", "Afternoon (noon to 5 p.m.)"),
    ("evening", "Early evening (5 to 7 p.m.)"),
    ("any", "Any time during business hours"),
];

/// The US states and DC by their postal codes.
pub const US_STATES: [&str; 51] = [
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
    "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM",
    "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA",
    "WV", "WI", "WY",
];
