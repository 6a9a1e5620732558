//! The list of problems found in the content: collected rather than stopping at the first, so that one build run
//! lists everything to fix, each as `<file>: <field>: <problem>` with the file named from the content folder on
//! (`content/site.toml`). It travels with every file read, so it also carries what reading needs to know of the
//! whole content: the facts that fill the placeholders (`crate::fill`), once they are known.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::fill::{Context, FactValues, unknown_message};

pub(crate) struct Problems {
    /// The folder above the content folder: paths are shown relative to it.
    base: PathBuf,
    found: Vec<String>,
    /// The facts' values filled into the words of each file read from now on.
    facts: Option<FactValues>,
}

impl Problems {
    /// Problems in the content folder `dir`.
    pub(crate) fn new(dir: &Path) -> Self {
        Self {
            base: dir.parent().map(Path::to_path_buf).unwrap_or_default(),
            found: Vec::new(),
            facts: None,
        }
    }

    /// From now on, files are read with the facts `values` filled into their placeholders.
    pub(crate) fn fill_with(&mut self, values: FactValues) {
        self.facts = Some(values);
    }

    /// `text` of `file` with the facts filled in (as it is when the facts are not known yet); an unknown
    /// placeholder is a problem of the file.
    pub(crate) fn fill(&mut self, file: &Path, text: &str, context: Context) -> String {
        let Some(facts) = &self.facts else {
            return text.to_string();
        };
        let (filled, unknown) = facts.fill(text, context);
        for token in unknown {
            self.add(file, unknown_message(&token));
        }
        filled
    }

    pub(crate) fn add(&mut self, file: &Path, message: impl fmt::Display) {
        let shown = file.strip_prefix(&self.base).unwrap_or(file);
        self.found.push(format!("{}: {message}", shown.display()));
    }

    /// Adds the problem `message` describes unless `ok`.
    pub(crate) fn check(&mut self, ok: bool, file: &Path, message: impl FnOnce() -> String) {
        if !ok {
            self.add(file, message());
        }
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    pub(crate) fn into_vec(self) -> Vec<String> {
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_files_from_the_content_folder_on() {
        let mut problems = Problems::new(Path::new("/work/site/content"));
        problems.add(
            Path::new("/work/site/content/products/cargo.toml"),
            "field `kind`: wrong",
        );
        problems.check(
            true,
            Path::new("/work/site/content/site.toml"),
            || unreachable!(),
        );
        problems.check(false, Path::new("/work/site/content/site.toml"), || {
            "bad".into()
        });
        assert_eq!(
            problems.into_vec(),
            [
                "content/products/cargo.toml: field `kind`: wrong",
                "content/site.toml: bad"
            ]
        );
    }

    #[test]
    fn a_relative_content_folder_and_a_file_outside_it_are_named_as_given() {
        let mut problems = Problems::new(Path::new("content"));
        problems.add(Path::new("content/faq.toml"), "x");
        problems.add(Path::new("/elsewhere/faq.toml"), "y");
        assert_eq!(
            problems.into_vec(),
            ["content/faq.toml: x", "/elsewhere/faq.toml: y"]
        );
    }
}
