//! The facts the server includes itself (src/leads, src/notify, src/hours.rs, src/site), as the small text files
//! build.rs writes beside the content document: the same words the pages show, so that a lead's stored consent,
//! the e-mails and the counting of business hours agree with the site.

use crate::Built;
use crate::model::Forms;

/// Each file's name and text.
pub fn server_files(built: &Built) -> Vec<(&'static str, String)> {
    let (english, spanish) = (&built.english, &built.spanish);
    let forms = &english.forms;
    let insurance_types: Vec<&str> = forms
        .insurance_types
        .iter()
        .map(|t| t.value.as_str())
        .collect();
    let labels = |forms: &Forms| -> String {
        forms
            .insurance_types
            .iter()
            .map(|t| format!("{}\t{}\n", t.value, t.label))
            .collect()
    };
    let site = &english.site;
    // The insurers the claim form may name, for the server's check and the claim's confirmation:
    // `id\tname\tclaims_phone\tclaims_url`, one a line.
    let insurers: String = site
        .insurers
        .iter()
        .map(|i| {
            format!(
                "{}\t{}\t{}\t{}\n",
                i.id, i.name, i.claims_phone, i.claims_url
            )
        })
        .collect();
    // The agency's around-the-clock claims line, for a claim's confirmation when no insurer was chosen:
    // `name\tphone`, or nothing.
    let claims_line = site
        .claims
        .as_ref()
        .map(|line| format!("{}\t{}\n", line.name, line.phone))
        .unwrap_or_default();
    vec![
        // The server stores the consent text with each lead: the same words the form shows.
        ("consent.txt", forms.consent_text.clone()),
        ("consent-version.txt", crate::forms::stored_version(forms)),
        // ... and the Spanish form's, with its own version, for a lead that was shown them.
        ("consent.es.txt", spanish.forms.consent_text.clone()),
        (
            "consent-version.es.txt",
            crate::forms::stored_version(&spanish.forms),
        ),
        // The quote form's insurance type values, which the server accepts (one per line).
        ("insurance-types.txt", insurance_types.join("\n")),
        // The base URL the pages are built with; the server rewrites it when configured with another.
        ("base-url.txt", site.base_url.clone()),
        // For the notification e-mails: each type's label ("hotshot\tHot Shot"), the agency's name and phone.
        ("insurance-type-labels.txt", labels(forms)),
        // ... and as the Spanish form shows them, for a Spanish visitor's confirmation.
        ("insurance-type-labels.es.txt", labels(&spanish.forms)),
        ("agency.txt", format!("{}\n{}", site.brand, site.phone)),
        ("insurers.txt", insurers),
        ("claims-line.txt", claims_line),
        // The agency's business hours, for speed-to-lead and reminders (src/hours.rs documents the format).
        ("hours.txt", built.hours.clone()),
    ]
}
