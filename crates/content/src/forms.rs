//! `forms.toml`: the quote form's consent text and version (the server stores them with every lead, and the
//! privacy policy quotes them through `{consent_text}` and `{consent_version}`) and its insurance types.

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
    // The privacy policy quotes it through `{consent_text}`, into HTML as well as text.
    for (field, value) in [
        ("consent_text", &forms.consent_text),
        ("consent_version", &forms.consent_version),
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
