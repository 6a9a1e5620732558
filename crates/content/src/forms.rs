//! `forms.toml`: the quote form's consent text and version (the server stores them with every lead, and the
//! privacy policy quotes them through `{consent_text}` and `{consent_version}`), the words of it that link to the
//! opt-out page, and its insurance types.

use std::collections::HashSet;
use std::path::Path;

use crate::fields::is_plain;
use crate::files::read_toml;
use crate::model::Forms;
use crate::problems::Problems;

pub(crate) fn load(dir: &Path, problems: &mut Problems) -> Option<Forms> {
    let file = dir.join("forms.toml");
    let forms: Forms = read_toml(&file, problems)?;
    problems.check(forms.consent_text.len() > 100, &file, || {
        "field `consent_text`: the full consent wording is required".into()
    });
    // The form links these words to the opt-out page, so they must be there, once, or the link would vanish or
    // land on the wrong words; the text stored with a lead is the plain sentence either way.
    problems.check(
        !forms.opt_out_link.trim().is_empty()
            && forms.consent_text.matches(&forms.opt_out_link).count() == 1,
        &file,
        || {
            format!(
                "field `opt_out_link`: {:?} must be words that `consent_text` holds exactly once (the form links them to the opt-out page)",
                forms.opt_out_link
            )
        },
    );
    // The privacy policy quotes it through `{consent_text}`, into HTML as well as text.
    for (field, value) in [
        ("consent_text", &forms.consent_text),
        ("consent_version", &forms.consent_version),
        ("opt_out_link", &forms.opt_out_link),
    ] {
        problems.check(is_plain(value), &file, || {
            format!("field `{field}`: write it without < > & or {{")
        });
    }
    let values: HashSet<&str> = forms
        .insurance_types
        .iter()
        .map(|t| t.value.as_str())
        .collect();
    problems.check(
        !values.is_empty() && values.len() == forms.insurance_types.len(),
        &file,
        || "`insurance_types`: give at least one, each with its own `value`".into(),
    );
    Some(forms)
}
