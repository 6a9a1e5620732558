//! The Spanish translation's files (`content/es/<the English file's path>`): each English file has its translation
//! and each translation its English file, and each translation names the English text it was last reviewed against
//! by its [`review_hash`] (`translation_of`: the SHA-256 of the file as written, without a post's `author` line), so
//! that a change to the English stops the build until the Spanish is brought up to date and stamped (`cargo
//! reviewed`). The facts (`facts.toml`) are the same in every language and have no translation.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::files::{list_files, read_text};
use crate::problems::Problems;

/// The folder of the Spanish translation, inside the content folder.
pub(crate) const FOLDER: &str = "es";
/// The key each translated file starts with: the [`review_hash`] of the English file it translates.
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
        let current = review_hash(&bytes);
        match reviewed_against(&text) {
            None => problems.add(
                &target,
                format!(
                    "field `{KEY}`: missing; once the translation says what {} says, stamp it reviewed: cargo reviewed {} \
                     (sets `{KEY}` to \"{current}\")",
                    english_name(file).display(),
                    english_name(&Path::new(FOLDER).join(file)).display()
                ),
            ),
            Some(hash) if hash != current => problems.add(
                &target,
                format!(
                    "field `{KEY}`: {} changed since this translation was reviewed; bring the translation up to \
                     date, then stamp it reviewed: cargo reviewed {} (sets `{KEY}` to \"{current}\")",
                    english_name(file).display(),
                    english_name(&Path::new(FOLDER).join(file)).display()
                ),
            ),
            Some(_) => {}
        }
    }
}

/// What a translation names as the English it was reviewed against: the SHA-256 of the English file, its
/// placeholders as written (`{brand}`: changing a fact asks for no review) and without its `author` line (who signs
/// a post is a fact, one of facts.toml's `[[authors]]` and the same in both languages, not words to translate).
pub fn review_hash(english: &[u8]) -> String {
    let text = String::from_utf8_lossy(english);
    let mut hasher = Sha256::new();
    for line in text.split_inclusive('\n') {
        let is_author = line
            .strip_prefix("author")
            .is_some_and(|rest| rest.trim_start().starts_with('='));
        if !is_author {
            hasher.update(line.as_bytes());
        }
    }
    hex(&hasher.finalize())
}

/// Stamps the translation `translation` (a file under the content folder's `es/`) as reviewed against its English
/// file as it is now: its `translation_of` line set to [`review_hash`] (added as the first line of a TOML file, or of
/// a Markdown file's front matter, when missing). The new text, or why it cannot be stamped.
pub fn stamp(content_dir: &Path, translation: &Path) -> Result<Option<String>, String> {
    let folder = content_dir.join(FOLDER);
    let relative = translation.strip_prefix(&folder).map_err(|_| {
        format!(
            "{} is not a translation: not under {}",
            translation.display(),
            folder.display()
        )
    })?;
    let english = content_dir.join(relative);
    let bytes = std::fs::read(&english).map_err(|e| {
        format!(
            "{}: translates {}, which cannot be read: {e}",
            translation.display(),
            english.display()
        )
    })?;
    let text = std::fs::read_to_string(translation)
        .map_err(|e| format!("{}: {e}", translation.display()))?;
    let hash = review_hash(&bytes);
    if reviewed_against(&text) == Some(hash.as_str()) {
        return Ok(None);
    }
    let line = format!("{KEY} = \"{hash}\"");
    let stamped = if text.lines().any(is_key_line) {
        text.split_inclusive('\n')
            .map(|l| {
                if is_key_line(l) {
                    format!("{line}{}", if l.ends_with('\n') { "\n" } else { "" })
                } else {
                    l.to_string()
                }
            })
            .collect()
    } else if let Some(rest) = text.strip_prefix("+++\n") {
        format!("+++\n{line}\n{rest}")
    } else {
        format!("{line}\n{text}")
    };
    Ok(Some(stamped))
}

/// The translations under `content_dir` whose English changed since they were stamped (or were never stamped).
pub fn stale(content_dir: &Path) -> Vec<PathBuf> {
    let mut quiet = Problems::new(content_dir);
    let english = text_files(content_dir, &mut quiet);
    let translated = text_files(&content_dir.join(FOLDER), &mut quiet);
    english
        .intersection(&translated)
        .map(|file| content_dir.join(FOLDER).join(file))
        .filter(|file| matches!(stamp(content_dir, file), Ok(Some(_))))
        .collect()
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
