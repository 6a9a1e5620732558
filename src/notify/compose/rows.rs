//! The rows of the agency's e-mail, a section at a time: the lead as each form asks for it (a quote with the
//! operation's details added later, a message, a certificate request), its consent evidence, where it came from and
//! its place in truckins.

use contract::locale::Locale;

use super::{status_command, type_label};
use crate::store::{Lead, Source, request};

/// The sections of the agency's e-mail: a title and (label, value) rows, values as stored.
pub fn sections(lead: &Lead) -> Vec<(&'static str, Vec<(&'static str, String)>)> {
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let mut about = vec![
        ("Name", lead.name.clone()),
        ("E-mail", lead.email.clone()),
        ("Phone", text(&lead.phone)),
        ("Language", language(lead)),
        ("Company", text(&lead.company)),
    ];
    match lead.source {
        Source::Quote => {
            about.push((
                "Insurance type",
                lead.insurance_type
                    .as_deref()
                    .map(type_label)
                    .unwrap_or("")
                    .into(),
            ));
            about.push((
                "Vehicles",
                lead.vehicle_count
                    .map(|n| n.to_string())
                    .unwrap_or_default(),
            ));
            about.push(("DOT number", text(&lead.dot_number)));
            census(lead, &mut about);
        }
        Source::Contact => {
            about.push(("Subject", text(&lead.subject)));
            about.push(("Message", text(&lead.message)));
        }
        Source::Coi => {
            about.push(("Needed by", text(&lead.needed_by)));
            about.push(("Insured", text(&lead.insured_name)));
            about.push(("DOT number", text(&lead.dot_number)));
            census(lead, &mut about);
            about.push(("Certificate holder", text(&lead.certificate_holder)));
            about.push(("Holder address", text(&lead.holder_address)));
            about.push(("Additional insured", yes_no(lead.additional_insured)));
            about.push(("Waiver of subrogation", yes_no(lead.waiver_of_subrogation)));
            about.push(("Notes", text(&lead.notes)));
        }
        // A claim or a change request: every field given, in the form's order, as the agency reads it.
        Source::Claim | Source::Change => {
            about.push(("Insured", text(&lead.insured_name)));
            if let Some(reference) = lead.source.reference(lead.id) {
                about.push(("Reference", reference));
            }
            let form = match lead.source {
                Source::Claim => &contract::forms::CLAIM,
                _ => &contract::forms::CHANGE,
            };
            if let Some(request) = &lead.request {
                for (name, value) in request.ordered(form.fields) {
                    about.push((request::label(name), request::shown(name, value)));
                }
            }
            let driver = lead
                .request
                .as_ref()
                .and_then(|request| request.get("change_kind"))
                .is_some_and(|kind| kind == "add_driver");
            if driver {
                about.push((
                    "License number",
                    "never asked online: ask the driver's by phone".to_string(),
                ));
            }
        }
    }
    let consent = if lead.consent_given {
        vec![
            ("Given", "yes".to_string()),
            ("At", text(&lead.consent_at)),
            ("From IP", text(&lead.ip)),
            ("Text version", text(&lead.consent_version)),
            ("Text", text(&lead.consent_text)),
        ]
    } else {
        vec![
            (
                "Given",
                "no (only the quote form asks for consent)".to_string(),
            ),
            ("From IP", text(&lead.ip)),
        ]
    };
    let origin = vec![
        ("Page", text(&lead.page_url)),
        ("Landing page", text(&lead.landing_page)),
        ("Referrer", text(&lead.referrer)),
        ("utm_source", text(&lead.utm_source)),
        ("utm_medium", text(&lead.utm_medium)),
        ("utm_campaign", text(&lead.utm_campaign)),
        ("utm_term", text(&lead.utm_term)),
        ("utm_content", text(&lead.utm_content)),
        ("gclid", text(&lead.gclid)),
        ("Browser", text(&lead.user_agent)),
    ];
    let record = vec![
        (
            "Lead",
            format!(
                "#{} ({} form), received {}",
                lead.id, lead.source, lead.created_at
            ),
        ),
        ("Status", lead.status.to_string()),
        ("Move it along", status_command(lead.id)),
    ];
    let details = details(lead);
    [
        ("The lead", about),
        ("The operation's details", details),
        ("Consent", consent),
        ("Where it came from", origin),
        ("In truckins", record),
    ]
    .into_iter()
    .map(|(title, rows)| {
        (
            title,
            rows.into_iter()
                .filter(|(_, value)| !value.trim().is_empty())
                .collect::<Vec<_>>(),
        )
    })
    // A section with nothing in it (no details added yet) is left out.
    .filter(|(_, rows)| !rows.is_empty())
    .collect()
}

/// The carrier the DOT number matched in FMCSA's census when the lead came in (src/carriers): what the underwriter
/// or the certificate desk checks first.
fn census(lead: &Lead, rows: &mut Vec<(&'static str, String)>) {
    if let Some(snapshot) = &lead.carrier_snapshot {
        rows.push(("Census match", snapshot.details()));
    }
}

/// The language the lead was sent in: a Spanish speaker is called back in Spanish.
fn language(lead: &Lead) -> String {
    let locale = lead.language.0;
    match locale {
        Locale::En => locale.english_name().to_string(),
        Locale::Es => format!("{} (call back in Spanish)", locale.english_name()),
    }
}

fn yes_no(flag: Option<bool>) -> String {
    match flag {
        Some(true) => "yes".into(),
        Some(false) => "no".into(),
        None => String::new(),
    }
}

/// What a quote's visitor added in "Speed up your quote" (empty until they do: the section is then left out).
fn details(lead: &Lead) -> Vec<(&'static str, String)> {
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let number = |value: Option<i64>| value.map(|n| n.to_string()).unwrap_or_default();
    let radius = match lead.radius.as_deref() {
        Some("local") => "local (up to 100 miles)".to_string(),
        Some("regional") => "regional (up to 500 miles)".to_string(),
        Some("long_haul") => "long haul (over 500 miles)".to_string(),
        other => other.unwrap_or_default().to_string(),
    };
    let commodities = match (&lead.commodities, &lead.commodities_other) {
        (Some(list), Some(other)) => format!("{list} ({other})"),
        (list, _) => text(list),
    };
    vec![
        // As people read a time, in the agency's zone (the stored one is RFC 3339 UTC to the nanosecond).
        (
            "Added",
            lead.details_at
                .as_deref()
                .map(crate::clock::readable)
                .unwrap_or_default(),
        ),
        ("MC number", text(&lead.mc_number)),
        ("Years in business", number(lead.years_in_business)),
        ("Radius", radius),
        ("Operating states", text(&lead.operating_states)),
        ("Commodities", commodities),
        ("Hazmat", yes_no(lead.hazmat)),
        ("Power units", number(lead.power_units)),
        ("Trailers", number(lead.trailers)),
        ("Drivers", number(lead.drivers)),
        ("Current insurer", text(&lead.current_insurer)),
        ("Policy expiration", text(&lead.policy_expiration)),
        ("Effective date", text(&lead.effective_date)),
        ("Claims (3 years)", number(lead.claims_3y)),
        ("Best time to call", text(&lead.best_time_to_call)),
    ]
}
