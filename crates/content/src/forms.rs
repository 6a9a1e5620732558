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
    // The privacy policy quotes it through `{consent_text}`, into HTML as well as text. An ampersand that cannot
    // start a character reference (`Smith & Sons`, from the legal name) reads the same in both.
    for (field, value) in [
        ("consent_text", &forms.consent_text),
        ("consent_version", &forms.consent_version),
        ("opt_out_link", &forms.opt_out_link),
    ] {
        problems.check(is_plain(&without_bare_ampersands(value)), &file, || {
            format!(
                "field `{field}`: write it without < > {{ or an & joined to the next word (the agency's names come \
                 from content/facts.toml)"
            )
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

/// `text` without its ampersands that HTML reads as themselves: those followed by a space or the end.
fn without_bare_ampersands(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let bare = c == '&' && chars.peek().is_none_or(|next| next.is_whitespace());
        if !bare {
            kept.push(c);
        }
    }
    kept
}

/// The version stored with a lead beside the consent words it was shown, and quoted by the privacy policy: the
/// `consent_version` of forms.toml and the first 8 hex digits of the SHA-256 of the words as shown. The words name
/// the agency from content/facts.toml, so a new legal name changes them without an edit of forms.toml; the version
/// follows, and two leads with one version were shown the same words.
pub(crate) fn stored_version(forms: &Forms) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(forms.consent_text.as_bytes());
    let short: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    format!("{}+{short}", forms.consent_version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ampersand_between_words_is_plain_and_one_joined_to_a_word_is_not() {
        assert!(is_plain(&without_bare_ampersands(
            "I give Smith & Sons, LLC my consent"
        )));
        assert!(is_plain(&without_bare_ampersands("ends with &")));
        assert!(!is_plain(&without_bare_ampersands("A&amp;B")));
        assert!(!is_plain(&without_bare_ampersands("A &lt; B")));
    }
}
