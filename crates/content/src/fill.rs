//! The agency's facts written into the words: `{brand}`, `{legal_name}`, `{founded}`, `{years}`, `{city}`,
//! `{state}`, `{phone}` and `{email}` in any content file are filled in from `facts.toml` as the file is read, so
//! that every check (lengths, titles) sees the words as visitors will, and a new owner changes the agency's name in
//! one place. The files keep the placeholders: a translation's review hash is over them, so changing a fact never
//! asks for a Spanish re-review.
//!
//! The value is escaped for where it lands: inside a TOML string (`"` and `\`), or in Markdown prose (every ASCII
//! punctuation mark backslash-escaped, so `Smith & Sons` or `A*B Hauling` stay literal text).

use std::path::Path;

use crate::dates::BuildDate;
use crate::model::Facts;
use crate::problems::Problems;
use crate::site::FACTS_FILE;
use crate::translations::{FOLDER, text_files};

/// The placeholders that stand for facts, each with the fact it reads (for the messages).
pub(crate) const PLACEHOLDERS: [(&str, &str); 9] = [
    ("{brand}", "brand"),
    ("{short_brand}", "short_brand (else brand)"),
    ("{legal_name}", "legal_name"),
    ("{founded}", "founded"),
    ("{years}", "the whole years since `founded`"),
    ("{city}", "address.city"),
    ("{state}", "address.region"),
    ("{phone}", "phone"),
    ("{email}", "email"),
];

/// Placeholders filled in later, when the content document is written (`crate::placeholders`), or by the web app.
const LATER: [&str; 3] = ["{consent_text}", "{consent_version}", "{claims}"];

/// The facts' values, as the placeholders are filled with them.
#[derive(Clone, Debug, Default)]
pub(crate) struct FactValues {
    values: Vec<(&'static str, String)>,
}

/// Where a placeholder is filled in, which decides how its value is escaped.
#[derive(Clone, Copy)]
pub(crate) enum Context {
    /// Inside a TOML basic string (`"..."` or `"""..."""`): the content writes no literal strings.
    Toml,
    /// Markdown prose.
    Markdown,
}

impl FactValues {
    pub(crate) fn new(facts: &Facts, today: BuildDate) -> Self {
        let short = facts
            .short_brand
            .clone()
            .unwrap_or_else(|| facts.brand.clone());
        let values = [
            facts.brand.clone(),
            short,
            facts.legal_name.clone(),
            facts.founded.to_string(),
            today.years_since(facts.founded).to_string(),
            facts.address.city.clone(),
            facts.address.region.clone(),
            facts.phone.clone(),
            facts.email.clone(),
        ];
        FactValues {
            values: PLACEHOLDERS
                .iter()
                .map(|(token, _)| *token)
                .zip(values)
                .collect(),
        }
    }

    /// `text` with every fact placeholder filled in, escaped for `context`; and the unknown placeholders it holds
    /// (a `{...}` of lower-case letters and `_` that is neither a fact nor one filled in later), to report.
    pub(crate) fn fill(&self, text: &str, context: Context) -> (String, Vec<String>) {
        let mut filled = text.to_string();
        if text.contains('{') {
            for (token, value) in &self.values {
                if filled.contains(token) {
                    filled = filled.replace(token, &escape(value, context));
                }
            }
        }
        (filled, unknown_placeholders(text))
    }

    fn value(&self, token: &str) -> &str {
        self.values
            .iter()
            .find(|(t, _)| *t == token)
            .map_or("", |(_, value)| value.as_str())
    }
}

/// The agency's names written out in a content file instead of their placeholders: each is a page that would keep
/// the old name when the facts change (the consent text naming another company, say). Every text file of the
/// content folder `dir` and its translation is read, but `facts.toml` (where they are written once) and READMEs.
pub(crate) fn check_literal_names(dir: &Path, values: &FactValues, problems: &mut Problems) {
    let mut names: Vec<(&str, &str)> = ["{legal_name}", "{brand}", "{short_brand}"]
        .into_iter()
        .map(|token| (token, values.value(token)))
        .filter(|(_, name)| name.chars().count() >= 4)
        .collect();
    // The longest first, so that a legal name holding the brand is named once, as itself.
    names.sort_by_key(|(_, name)| std::cmp::Reverse(name.len()));
    names.dedup_by_key(|(_, name)| *name);
    let mut files = text_files(dir, problems);
    files.extend(
        text_files(&dir.join(FOLDER), problems)
            .into_iter()
            .map(|file| Path::new(FOLDER).join(file)),
    );
    for relative in files {
        if relative == Path::new(FACTS_FILE) {
            continue;
        }
        let file = dir.join(&relative);
        let Ok(mut text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for (token, name) in &names {
            if text.contains(name) {
                problems.add(
                    &file,
                    format!(
                        "names the agency \"{name}\" as written in content/facts.toml: write {token} instead, so \
                         the words follow the facts when they change"
                    ),
                );
                text = text.replace(name, "");
            }
        }
    }
}

fn escape(value: &str, context: Context) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match context {
            Context::Toml if c == '"' || c == '\\' => escaped.push('\\'),
            Context::Markdown if c.is_ascii_punctuation() => escaped.push('\\'),
            _ => {}
        }
        escaped.push(c);
    }
    escaped
}

/// The `{name}` placeholders of `text` that nothing fills in: a misspelt `{brnad}` would otherwise reach visitors.
fn unknown_placeholders(text: &str) -> Vec<String> {
    let mut unknown = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        rest = &rest[start..];
        let end = rest[1..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .map(|i| i + 1);
        match end {
            Some(end) if end > 1 && rest[end..].starts_with('}') => {
                let token = &rest[..=end];
                let known = PLACEHOLDERS.iter().any(|(t, _)| *t == token) || LATER.contains(&token);
                if !known && !unknown.iter().any(|u| u == token) {
                    unknown.push(token.to_string());
                }
                rest = &rest[end + 1..];
            }
            _ => rest = &rest[1..],
        }
    }
    unknown
}

/// What a message says of an unknown placeholder.
pub(crate) fn unknown_message(token: &str) -> String {
    let known: Vec<&str> = PLACEHOLDERS.iter().map(|(t, _)| *t).collect();
    format!(
        "{token} is not a placeholder the build fills in; the facts of content/facts.toml are written {}",
        known.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values() -> FactValues {
        FactValues {
            values: vec![
                ("{brand}", "Smith & \"Sons\"".to_string()),
                ("{years}", "8".to_string()),
            ],
        }
    }

    #[test]
    fn values_are_escaped_for_toml_strings_and_markdown() {
        let (toml_text, _) = values().fill("a = \"{brand}, {years} years\"", Context::Toml);
        assert_eq!(toml_text, "a = \"Smith & \\\"Sons\\\", 8 years\"");
        let parsed: toml::Table = toml::from_str(&toml_text).expect("still TOML");
        assert_eq!(parsed["a"].as_str(), Some("Smith & \"Sons\", 8 years"));
        let (markdown, _) = values().fill("Ask {brand}.", Context::Markdown);
        assert_eq!(markdown, "Ask Smith \\& \\\"Sons\\\".");
    }

    #[test]
    fn misspelt_placeholders_are_found_and_later_ones_are_not() {
        let (_, unknown) = values().fill(
            "{brnad} and {brand}, {claims} {consent_text} {a-b} { x } {} {brnad}",
            Context::Toml,
        );
        assert_eq!(unknown, ["{brnad}"]);
    }
}
