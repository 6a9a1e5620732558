//! Reading the files of `content/`: listing a folder, reading TOML into the model, and splitting a Markdown file
//! into its TOML front matter and body. A file that cannot be read or parsed is a problem naming it, and yields
//! `None` so that the checks go on with the other files.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::fill::Context;
use crate::problems::Problems;

/// The files under `dir` (all levels) ending in `.extension`, sorted; none when `dir` does not exist.
pub(crate) fn list_files(dir: &Path, extension: &str, problems: &mut Problems) -> Vec<PathBuf> {
    fn walk(dir: &Path, extension: &str, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, extension, found)?;
            } else if path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    if dir.is_dir()
        && let Err(error) = walk(dir, extension, &mut found)
    {
        problems.add(dir, format!("cannot be read: {error}"));
    }
    found.sort();
    found
}

/// The name of a file without its folder and extension: a product's or post's slug.
pub(crate) fn file_stem(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

pub(crate) fn read_text(file: &Path, problems: &mut Problems) -> Option<String> {
    match std::fs::read_to_string(file) {
        Ok(text) => Some(text),
        Err(error) => {
            problems.add(file, format!("cannot be read: {error}"));
            None
        }
    }
}

/// Reads TOML into `T`, the facts filled into its placeholders (`crate::fill`).
pub(crate) fn read_toml<T: DeserializeOwned>(file: &Path, problems: &mut Problems) -> Option<T> {
    let text = read_text(file, problems)?;
    let text = problems.fill(file, &text, Context::Toml);
    from_toml(&text)
        .map_err(|error| problems.add(file, error.to_string().trim_end()))
        .ok()
}

/// Reads TOML into `T` like [`read_toml`], where the top-level keys `misplaced` names belong in another file: each
/// one present is a problem naming the field and saying where it goes (`(key, where it goes)`), and the rest of the
/// file is read without it, so that one run reports the file's other problems too.
pub(crate) fn read_toml_without<T: DeserializeOwned>(
    file: &Path,
    misplaced: &[(&str, &str)],
    problems: &mut Problems,
) -> Option<T> {
    let text = read_text(file, problems)?;
    let text = problems.fill(file, &text, Context::Toml);
    let mut table: toml::Table = from_toml(&text)
        .map_err(|error| problems.add(file, error.to_string().trim_end()))
        .ok()?;
    let mut moved = false;
    for (key, goes) in misplaced {
        if table.remove(*key).is_some() {
            problems.add(file, format!("field `{key}`: {goes}"));
            moved = true;
        }
    }
    // Without a misplaced key, the text itself is read again: its errors name the line. With one, the rest is
    // written out and read (a table read directly would lose TOML's dates).
    let read = if moved {
        toml::to_string(&table)
            .map_err(|error| error.to_string())
            .and_then(|rest| from_toml(&rest).map_err(|error| error.to_string()))
    } else {
        from_toml(&text).map_err(|error| error.to_string())
    };
    read.map_err(|error| problems.add(file, error.to_string().trim_end()))
        .ok()
}

/// TOML into `T`, leaving out a translation's `translation_of` line (checked by `translations`, not part of the
/// model); the line is blanked rather than removed, so that a parse error names the line a text editor shows.
fn from_toml<T: DeserializeOwned>(text: &str) -> Result<T, toml::de::Error> {
    if !text.contains(crate::translations::KEY) {
        return toml::from_str(text);
    }
    let blanked: Vec<&str> = text
        .split('\n')
        .map(|line| {
            if crate::translations::is_key_line(line) {
                ""
            } else {
                line
            }
        })
        .collect();
    toml::from_str(&blanked.join("\n"))
}

/// Reads a Markdown file's front matter into `T`, and its body, the facts filled into both.
pub(crate) fn read_front_matter<T: DeserializeOwned>(
    file: &Path,
    problems: &mut Problems,
) -> Option<(T, String)> {
    let text = read_text(file, problems)?.replace("\r\n", "\n");
    let (front, body) = split_front_matter(&text)
        .map_err(|problem| problems.add(file, problem))
        .ok()?;
    let front = problems.fill(file, front, Context::Toml);
    let body = problems.fill(file, body, Context::Markdown);
    let front = from_toml(&front)
        .map_err(|error| {
            problems.add(
                file,
                format!("front matter: {}", error.to_string().trim_end()),
            )
        })
        .ok()?;
    Some((front, body))
}

/// Splits a Markdown file (with `\n` line ends) into its TOML front matter, between the first two `+++` lines, and
/// its body.
fn split_front_matter(text: &str) -> Result<(&str, &str), &'static str> {
    let rest = text
        .strip_prefix("+++\n")
        .ok_or("must start with a `+++` line opening the front matter")?;
    rest.split_once("\n+++\n")
        .ok_or("the front matter is not closed by a `+++` line")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_is_between_the_first_two_plus_lines() {
        let text = "+++\ntitle = \"A\"\n+++\n\nBody with +++\n+++\nmore";
        assert_eq!(
            split_front_matter(text),
            Ok(("title = \"A\"", "\nBody with +++\n+++\nmore"))
        );
    }

    #[test]
    fn front_matter_must_open_and_close() {
        assert_eq!(
            split_front_matter("title = \"A\"\n+++\nBody"),
            Err("must start with a `+++` line opening the front matter")
        );
        assert_eq!(
            split_front_matter("+++\ntitle = \"A\"\nBody"),
            Err("the front matter is not closed by a `+++` line")
        );
    }

    #[test]
    fn file_stem_is_the_slug() {
        assert_eq!(
            file_stem(Path::new("content/blog/dot-rules.md")),
            "dot-rules"
        );
    }
}
