//! Copy about claims may promise help around the clock only with the line that gives it: `{claims}` says the
//! `[claims]` line of facts.toml, and without one nobody answers claims around the clock, so no page may say so.
//! Every TOML and Markdown file of the content folder is read, line by line.

use std::path::Path;

use crate::files::{list_files, read_text};
use crate::problems::Problems;

/// Ways of saying "at any time".
const AROUND_THE_CLOCK: [&str; 6] = [
    "24/7",
    "24x7",
    "around the clock",
    "round-the-clock",
    "24 hours a day",
    "at any hour",
];

pub(crate) fn check(dir: &Path, has_claims_line: bool, problems: &mut Problems) {
    let mut files = list_files(dir, "toml", problems);
    files.extend(list_files(dir, "md", problems));
    // The folder's README describes the content; it is not on the site. A translation is checked on its own.
    let translation = dir.join(crate::translations::FOLDER);
    for file in files
        .into_iter()
        .filter(|f| !f.ends_with("README.md") && !f.starts_with(&translation))
    {
        let Some(text) = read_text(&file, problems) else {
            continue;
        };
        let is_toml = file.extension().is_some_and(|e| e == "toml");
        for (number, line) in text.lines().enumerate() {
            if !promises_claims_around_the_clock(line)
                || (is_toml && line.trim_start().starts_with('#'))
            {
                continue;
            }
            if !has_claims_line {
                problems.add(
                    &file,
                    format!(
                        "line {}: promises claims help around the clock, but facts.toml has no [claims] line; \
                         say `{{claims}}` instead (it tells how claims are reported after hours)",
                        number + 1
                    ),
                );
            } else if !line.contains("{claims}") {
                problems.add(
                    &file,
                    format!(
                        "line {}: promises claims help around the clock; name the line that gives it with `{{claims}}`",
                        number + 1
                    ),
                );
            }
        }
    }
}

/// Whether a line speaks of claims and of any hour.
fn promises_claims_around_the_clock(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.contains("claim")
        && AROUND_THE_CLOCK
            .iter()
            .any(|promise| lower.contains(promise))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_promise_speaks_of_claims_and_of_any_hour() {
        for promise in [
            "File a claim 24/7.",
            "Claims help Around The Clock",
            "round-the-clock claims service",
            "Report claims 24 hours a day, 7 days a week",
            "claims: at any hour",
            "24x7 claim reporting",
        ] {
            assert!(promises_claims_around_the_clock(promise), "{promise}");
        }
        for not_one in ["Quotes 24/7", "Claims help on business days", ""] {
            assert!(!promises_claims_around_the_clock(not_one), "{not_one}");
        }
    }
}
