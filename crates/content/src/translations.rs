//! The Spanish translation's files (`content/es/<the English file's path>`): each English file has its translation
//! and each translation its English file, and each translation names the English text it was last reviewed against
//! by that file's SHA-256 (`translation_of`), so that a change to the English stops the build until the Spanish is
//! brought up to date. The facts (`facts.toml`) are the same in every language and have no translation.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::files::{list_files, read_text};
use crate::problems::Problems;

/// The folder of the Spanish translation, inside the content folder.
pub(crate) const FOLDER: &str = "es";
/// The key each translated file starts with: the SHA-256 (hex) of the English file it translates.
pub(crate) const KEY: &str = "translation_of";

/// The files of a content tree that may hold words: TOML and Markdown, without the folder's README, the images and
/// the translation, as paths relative to `dir`.
pub(crate) fn text_files(dir: &Path, problems: &mut Problems) -> BTreeSet<PathBuf> {
    let translation = dir.join(FOLDER);
    let mut files = list_files(dir, "toml", problems);
    files.extend(list_files(dir, "md", problems));
    files
        .into_iter()
        .filter(|f| !f.starts_with(&translation) && !f.ends_with("README.md"))
        .filter_map(|f| f.strip_prefix(dir).ok().map(Path::to_path_buf))
        .collect()
}

/// Checks that `dir`'s translation has exactly the English files, each reviewed against the English as it is now.
pub(crate) fn check_files(dir: &Path, problems: &mut Problems) {
    let translation = dir.join(FOLDER);
    let mut english = text_files(dir, problems);
    english.remove(Path::new(crate::site::FACTS_FILE));
    let translated = text_files(&translation, problems);
    // An English file as the messages name it, from the content folder's own name on (`content/faq.toml`).
    let english_name = |file: &Path| Path::new(dir.file_name().unwrap_or_default()).join(file);
    for missing in english.difference(&translated) {
        let problem = format!(
            "missing: translate {} into this file",
            english_name(missing).display()
        );
        problems.add(&translation.join(missing), problem);
    }
    for extra in translated.difference(&english) {
        if extra == Path::new(crate::site::FACTS_FILE) {
            let problem = format!(
                "facts are the same in every language and have no translation: remove this file; {} holds them",
                english_name(extra).display()
            );
            problems.add(&translation.join(extra), problem);
            continue;
        }
        let problem = format!(
            "translates no English file: {} does not exist",
            english_name(extra).display()
        );
        problems.add(&translation.join(extra), problem);
    }
    for file in english.intersection(&translated) {
        let (source, target) = (dir.join(file), translation.join(file));
        let (Ok(bytes), Some(text)) = (std::fs::read(&source), read_text(&target, problems)) else {
            continue;
        };
        let current = hex(&Sha256::digest(&bytes));
        match reviewed_against(&text) {
            None => problems.add(
                &target,
                format!("field `{KEY}`: missing; set it to the SHA-256 of the English file it translates, \"{current}\""),
            ),
            Some(hash) if hash != current => problems.add(
                &target,
                format!(
                    "field `{KEY}`: {} changed since this translation was reviewed; bring the translation up to \
                     date, then set `{KEY}` to its SHA-256 now, \"{current}\"",
                    english_name(file).display()
                ),
            ),
            Some(_) => {}
        }
    }
}

/// Whether `line` sets the top-level `translation_of`.
pub(crate) fn is_key_line(line: &str) -> bool {
    line.strip_prefix(KEY)
        .is_some_and(|rest| rest.trim_start().starts_with('='))
}

/// The hash a translation names: its `translation_of = "<64 hex digits>"` line (of its front matter, for Markdown),
/// the line the TOML reader leaves out.
fn reviewed_against(text: &str) -> Option<&str> {
    let line = text.lines().find(|line| is_key_line(line))?;
    let value = line.split_once('=')?.1.trim();
    let hash = value.strip_prefix('"')?.strip_suffix('"')?;
    let is_hex = hash
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    (hash.len() == 64 && is_hex).then_some(hash)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reviewed_hash_is_read_from_its_line() {
        let hash = "ab".repeat(32);
        assert_eq!(
            reviewed_against(&format!("# note\n{KEY} = \"{hash}\"\ntitle = \"x\"")),
            Some(hash.as_str())
        );
        assert_eq!(
            reviewed_against(&format!("{KEY} = \"{}\"", "AB".repeat(32))),
            None
        );
        assert_eq!(reviewed_against(&format!("{KEY} = \"abc\"")), None);
        assert_eq!(reviewed_against("title = \"x\""), None);
    }
}
