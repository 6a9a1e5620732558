//! The lead forms, each as a whole: its fields, where it posts and lands, the server's sentences about it, and
//! what every form accepts besides its fields (spam checks, attribution) and the markers of its correction page.
//! The fields themselves are `super`'s and its modules'.

use super::*;

/// One lead form: its fields and addresses, and the server's sentences about it as a whole.
#[derive(Debug)]
pub struct Form {
    /// How the form is named in the API and stored with its leads (`source`).
    pub id: &'static str,
    /// Where it posts, as JSON or as a plain form.
    pub endpoint: &'static str,
    /// Where a browser without JavaScript lands once the lead is stored (a 303).
    pub thank_you: &'static str,
    /// The prerendered page the server fills in with the errors and what was typed (see [`markers`]).
    pub correction_page: &'static str,
    /// The prefix of the field ids on that page (`<prefix>-<field>`), for marking fields invalid.
    pub correction_id_prefix: &'static str,
    pub fields: &'static [Field],
    /// The 429 answer's message: the quote form sends requests, the contact form messages.
    pub rate_limit_message: &'static str,
    /// The error catalogue's description of a failed insert: the two forms' differ.
    pub failure_message: &'static str,
}

impl Form {
    /// Whether `name` is one of this form's fields.
    pub fn has_field(&self, name: &str) -> bool {
        self.fields.iter().any(|field| field.name == name)
    }
}

pub const QUOTE: Form = Form {
    id: "quote",
    endpoint: "/api/leads/quote",
    thank_you: routes::QUOTE_THANK_YOU,
    correction_page: "_forms/quote.html",
    correction_id_prefix: "correction",
    fields: &[
        NAME,
        EMAIL,
        PHONE,
        COMPANY,
        INSURANCE_TYPE,
        VEHICLE_COUNT,
        DOT_NUMBER,
        CONSENT,
    ],
    rate_limit_message: "Please wait 10 minutes before submitting another request.",
    failure_message: "There was an error submitting your request. Please try again.",
};

pub const CONTACT: Form = Form {
    id: "contact",
    endpoint: "/api/leads/contact",
    thank_you: routes::CONTACT_THANK_YOU,
    correction_page: "_forms/contact.html",
    correction_id_prefix: "contact",
    fields: &[NAME, EMAIL, SUBJECT, MESSAGE],
    rate_limit_message: "Please wait 10 minutes before submitting another message.",
    failure_message: "We're experiencing technical difficulties. Please try again later.",
};

pub const COI: Form = Form {
    id: "coi",
    endpoint: "/api/leads/coi",
    thank_you: routes::COI_THANK_YOU,
    correction_page: "_forms/coi.html",
    correction_id_prefix: "coi",
    fields: &[
        NAME,
        EMAIL,
        PHONE,
        INSURED_NAME,
        DOT_NUMBER,
        CERTIFICATE_HOLDER,
        HOLDER_ADDRESS,
        ADDITIONAL_INSURED,
        WAIVER_OF_SUBROGATION,
        NEEDED_BY,
        NOTES,
    ],
    rate_limit_message: "Please wait 10 minutes before submitting another request.",
    failure_message: "There was an error submitting your request. Please try again, or call us.",
};

/// "Speed up your quote": the operation's details added to a quote already stored, through its details token.
/// Not a lead form of its own (no lead is made), so it is not in [`FORMS`].
pub const DETAILS: Form = Form {
    id: "details",
    endpoint: "/api/leads/details",
    thank_you: routes::DETAILS_THANK_YOU,
    correction_page: "_forms/details.html",
    correction_id_prefix: "details",
    fields: &[
        details::DETAILS_TOKEN,
        details::MC_NUMBER,
        details::YEARS_IN_BUSINESS,
        details::RADIUS,
        details::OPERATING_STATES,
        details::COMMODITIES,
        details::COMMODITIES_OTHER,
        details::HAZMAT,
        details::POWER_UNITS,
        details::TRAILERS,
        details::DRIVERS,
        details::CURRENT_INSURER,
        details::POLICY_EXPIRATION,
        details::EFFECTIVE_DATE,
        details::CLAIMS_3Y,
        details::BEST_TIME_TO_CALL,
        schedules::VEHICLE_SCHEDULE_FIELD,
        schedules::DRIVER_SCHEDULE_FIELD,
        schedules::LOSS_HISTORY_FIELD,
    ],
    rate_limit_message: "Please wait 10 minutes before sending your details again.",
    failure_message: "There was an error saving your details. Please try again, or call us.",
};

/// The opt-out form (issue 25): a visitor takes back their consent to calls, texts and e-mails. Not a lead form
/// (no lead is made; a revocation is stored), so it is not in [`FORMS`]. Its answer never says whether the number or
/// address was known.
pub const OPT_OUT: Form = Form {
    id: "optOut",
    endpoint: "/api/opt-out",
    thank_you: routes::OPT_OUT_RECEIVED,
    correction_page: "_forms/opt-out.html",
    correction_id_prefix: "optout",
    fields: &[optout::PHONE, optout::EMAIL, optout::NOTE],
    rate_limit_message: "Please wait 10 minutes before sending another opt-out request, or call us.",
    failure_message: "There was an error recording your request. Please try again, or call us.",
};

/// The first notice of loss (issue 28): stored with source `claim`, sent to the agency ahead of other mail.
pub const CLAIM: Form = Form {
    id: "claim",
    endpoint: "/api/leads/claim",
    thank_you: routes::CLAIM_THANK_YOU,
    correction_page: "_forms/claim.html",
    correction_id_prefix: "claim",
    fields: &[
        NAME,
        SERVICE_PHONE,
        claim::EMAIL_OPTIONAL,
        claim::LOSS_DATE,
        claim::LOSS_TIME,
        claim::LOSS_CITY,
        claim::LOSS_STATE,
        claim::WHAT_HAPPENED,
        claim::INSURED_NAME_OPTIONAL,
        POLICY_NUMBER,
        claim::INSURER,
        claim::VEHICLES_INVOLVED,
        claim::INJURIES,
        claim::POLICE_REPORT_NUMBER,
        claim::TOWED,
    ],
    // A person after an accident must not be left with a refusal alone: the sentence says where to turn instead.
    rate_limit_message: "Please wait 10 minutes before reporting another claim. If it is urgent, call us or your insurer's claims line.",
    failure_message: "There was an error sending your claim. Please call us or your insurer's claims line now.",
};

/// The policy change request (issue 28): stored with source `change`. The kinds' own fields are not required by
/// the form as a whole; [`policy_change::CHANGE_KINDS`] says which each kind requires.
pub const CHANGE: Form = Form {
    id: "change",
    endpoint: "/api/leads/change",
    thank_you: routes::POLICY_CHANGE_THANK_YOU,
    correction_page: "_forms/change.html",
    correction_id_prefix: "change",
    fields: &[
        // Who asks (an insurer takes a change from the insured or someone they authorise: both names are kept).
        NAME,
        INSURED_NAME,
        SERVICE_PHONE,
        EMAIL,
        POLICY_NUMBER,
        policy_change::CHANGE_KIND,
        policy_change::EFFECTIVE_DATE,
        // The kinds' fields.
        policy_change::VEHICLE_YEAR,
        policy_change::VEHICLE_MAKE,
        policy_change::VEHICLE_MODEL,
        policy_change::VIN,
        policy_change::STATED_VALUE,
        policy_change::GARAGING_ZIP,
        policy_change::TRAILER_YEAR,
        policy_change::TRAILER_MAKE,
        policy_change::TRAILER_VIN,
        policy_change::TRAILER_STATED_VALUE,
        policy_change::DRIVER_NAME,
        policy_change::DRIVER_DATE_OF_BIRTH,
        policy_change::LICENSE_STATE,
        policy_change::LICENSE_CLASS,
        policy_change::HIRE_DATE,
        policy_change::NEW_ADDRESS,
        policy_change::LIENHOLDER_NAME,
        policy_change::LIENHOLDER_ADDRESS,
        policy_change::LIENHOLDER_VEHICLE,
        policy_change::CHANGE_DETAILS,
    ],
    rate_limit_message: "Please wait 10 minutes before sending another change request, or call us.",
    failure_message: "There was an error sending your change request. Please try again, or call us.",
};

/// The lead forms, for what is done to each: the prospects' (quote, contact) and the clients' (certificate, claim,
/// policy change).
pub const FORMS: [&Form; 5] = [&QUOTE, &CONTACT, &COI, &CLAIM, &CHANGE];

/// Fields accepted besides a form's own: spam checks, idempotency and attribution.
pub const EXTRA_FIELDS: [&str; 13] = [
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
    // The quote form's answer to "Is this your company?": `yes`, `no` or `unanswered`. After `no` the lead keeps
    // no carrier snapshot.
    "carrier_answer",
];

/// The honeypot: a field people never see (hidden, out of the tab order) and programs fill in.
pub const HONEYPOT_FIELD: &str = "website";

/// Markers in a form's correction page, rendered by the web app where a field's typed value, its error or the
/// page's message go, and replaced by the server (escaped) in one pass.
pub mod markers {
    /// What every marker starts with.
    pub const PREFIX: &str = "TRUCKINS_";
    /// Followed by a field's name: what was typed there.
    pub const VALUE: &str = "TRUCKINS_VALUE_";
    /// Followed by a field's name: its error message, or nothing.
    pub const ERROR: &str = "TRUCKINS_ERROR_";
    /// The sentence above the form.
    pub const MESSAGE: &str = "TRUCKINS_FORM_MESSAGE";
    /// The attribute on the consent checkbox (`data-fill="consent"`) beside which the server writes `checked`.
    pub const CONSENT_FILL: &str = "consent";
    /// Between a field's name and a value in the `data-fill` of a choice of the claim and change forms (an
    /// `<option>` or a radio button: `data-fill="injuries:no"`), beside which the server writes `selected` (an
    /// option) or `checked` (anything else) when that value was sent.
    pub const CHOICE_SEPARATOR: &str = ":";
    /// On the claim's and the change request's thank-you pages: where the reference of the request goes (the
    /// server fills it in after a plain form post, `?reference=`; empty on a visit without one, so the element
    /// holding it is best hidden when empty).
    pub const REFERENCE: &str = "TRUCKINS_REFERENCE";
}
