//! What the e-mails say of the agency and its forms, from the facts the build wrote (`crate::built`): each insurance
//! type's label as the English or the Spanish form showed it, and the agency's name and phone.

use contract::locale::Locale;

/// "hotshot\tHot Shot" lines, from content/forms.toml (written by build.rs).
fn type_labels() -> &'static str {
    crate::built::text("insurance-type-labels.txt")
}
/// The same from content/es/forms.toml: the labels the Spanish form showed.
fn type_labels_es() -> &'static str {
    crate::built::text("insurance-type-labels.es.txt")
}
/// The agency's name and phone number, one a line, from content/facts.toml.
fn agency_facts() -> &'static str {
    crate::built::text("agency.txt")
}

pub(super) fn agency() -> (&'static str, &'static str) {
    let mut lines = agency_facts().lines();
    (
        lines.next().unwrap_or("").trim(),
        lines.next().unwrap_or("").trim(),
    )
}

/// The label visitors saw for an insurance type's stored value ("hotshot" -> "Hot Shot").
pub fn type_label(value: &str) -> &str {
    type_label_in(Locale::En, value)
}

/// The label the form of `locale` showed for an insurance type's stored value.
pub fn type_label_in(locale: Locale, value: &str) -> &str {
    let labels = match locale {
        Locale::En => type_labels(),
        Locale::Es => type_labels_es(),
    };
    labels
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .find(|(known, _)| *known == value)
        .map_or(value, |(_, label)| label)
}
