//! The content document as JSON, with the words that stand for facts kept elsewhere filled in, so that the copy
//! and the facts cannot disagree: `{consent_text}` and `{consent_version}` (content/forms.toml) and `{claims}` (how
//! claims are reported around the clock: the `[claims]` line of facts.toml, or the insurer's line on the policy
//! documents).

use crate::model::{ClaimsLine, Content, Forms, Site};

/// The content document the web app reads, placeholders filled in.
pub fn to_json(content: &Content) -> String {
    let json = serde_json::to_string_pretty(content).expect("content serialises");
    expand_placeholders(&json, &content.site, &content.forms)
}

fn placeholders(site: &Site, forms: &Forms) -> [(&'static str, String); 3] {
    [
        ("{consent_text}", forms.consent_text.clone()),
        ("{consent_version}", crate::forms::stored_version(forms)),
        ("{claims}", site.claims_text.clone()),
    ]
}

/// What `{claims}` says.
pub(crate) fn claims_text(line: Option<&ClaimsLine>) -> String {
    match line {
        Some(line) => format!(
            "Claims are taken around the clock by {} at {}.",
            line.name, line.phone
        ),
        None => {
            "After hours, report a claim to your insurance company's claims line, printed on your \
                 policy documents and ID cards; we follow up with you on the next business day."
                .to_string()
        }
    }
}

/// What `{claims}` says on the Spanish pages (`content/es/`): the same facts as [`claims_text`].
pub(crate) fn claims_text_es(line: Option<&ClaimsLine>) -> String {
    match line {
        Some(line) => format!(
            "Los reclamos se reciben a toda hora en {}, al {}.",
            line.name, line.phone
        ),
        None => "Fuera del horario, reporte su reclamo a la línea de reclamos de su aseguradora, impresa en los \
                 documentos de su póliza y en sus tarjetas de seguro; le damos seguimiento el siguiente día hábil."
            .to_string(),
    }
}

/// Fills the placeholders into the content document. It holds text and rendered Markdown alike, so the values
/// are JSON-escaped here and were checked to hold nothing HTML would read as markup (`crate::fields::is_plain`).
fn expand_placeholders(json: &str, site: &Site, forms: &Forms) -> String {
    let mut json = json.to_string();
    for (token, value) in placeholders(site, forms) {
        let escaped = serde_json::to_string(&value).expect("a string serialises");
        json = json.replace(token, &escaped[1..escaped.len() - 1]);
    }
    json
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Address;

    fn site_and_forms(claims: Option<ClaimsLine>) -> (Site, Forms) {
        let mut site = Site {
            brand: "B".into(),
            short_brand: "B".into(),
            legal_name: "B LLC".into(),
            description: "D".into(),
            phone: "(555) 010-0142".into(),
            phone_e164: "+15550100142".into(),
            email: "a@example.com".into(),
            base_url: "https://example.com".into(),
            founded: 2010,
            offer_valid_until: "2030-12-31".parse().expect("a date"),
            address: Address {
                street: "1 Road".into(),
                city: "Amarillo".into(),
                region: "TX".into(),
                postal_code: "79101".into(),
                country: "US".into(),
                sample: false,
            },
            hours: Vec::new(),
            licenses: Vec::new(),
            claims: None,
            claims_text: String::new(),
            social: Default::default(),
            insurers: Vec::new(),
            authors: Vec::new(),
        };
        site.claims = claims;
        site.claims_text = claims_text(site.claims.as_ref());
        let forms = Forms {
            consent_version: "2026-01".into(),
            consent_text: "I agree \"in quotes\" \\ back".into(),
            opt_out_link: "back".into(),
            insurance_types: Vec::new(),
        };
        (site, forms)
    }

    #[test]
    fn fills_each_placeholder_json_escaped() {
        let (site, forms) = site_and_forms(None);
        let json = r#"{"a": "Consent {consent_version}: {consent_text}", "b": "<p>{claims}</p>"}"#;
        let filled = expand_placeholders(json, &site, &forms);
        let value: serde_json::Value = serde_json::from_str(&filled).expect("still JSON");
        // The version as stored with a lead: forms.toml's and the words' short hash.
        assert_eq!(
            value["a"],
            "Consent 2026-01+f9da38a5: I agree \"in quotes\" \\ back"
        );
        assert_eq!(
            value["b"],
            "<p>After hours, report a claim to your insurance company's claims line, printed on your policy \
             documents and ID cards; we follow up with you on the next business day.</p>"
        );
    }

    #[test]
    fn claims_names_the_line_when_there_is_one() {
        let line = ClaimsLine {
            name: "Example Mutual's claims line".into(),
            phone: "(555) 010-0199".into(),
            phone_e164: "+15550100199".into(),
        };
        let (site, _) = site_and_forms(Some(line));
        assert_eq!(
            site.claims_text,
            "Claims are taken around the clock by Example Mutual's claims line at (555) 010-0199."
        );
    }
}
