//! Markdown to HTML with comrak: CommonMark with GitHub's tables, strikethrough and autolinks, fenced code
//! highlighted by `crate::highlight`. Raw HTML is refused (it would bypass the CSP-safe markup), and so is a `#`
//! heading (the page's title is its only one).

use std::path::Path;

use comrak::options::Plugins;

use crate::highlight::CodeHighlighter;
use crate::problems::Problems;

/// Renders Markdown; made once per build, since loading syntect's syntaxes takes a while.
pub struct MarkdownRenderer {
    highlighter: CodeHighlighter,
}

impl Default for MarkdownRenderer {
    fn default() -> Self {
        Self::new()
    }
}

impl MarkdownRenderer {
    pub fn new() -> Self {
        Self {
            highlighter: CodeHighlighter::new(),
        }
    }

    /// The HTML of `markdown`, and what is wrong with it (the problems' wording).
    pub fn render(&self, markdown: &str) -> (String, Vec<&'static str>) {
        let mut options = comrak::Options::default();
        options.extension.table = true;
        options.extension.strikethrough = true;
        options.extension.autolink = true;
        // Content is written by the agency, but raw HTML would bypass the CSP-safe markup: refuse it.
        options.render.r#unsafe = false;
        // The fence's language reaches the highlighter's `<pre>` (which shows it) only this way; without it every
        // block was labelled JavaScript.
        options.render.github_pre_lang = true;
        let mut plugins = Plugins::default();
        plugins.render.codefence_syntax_highlighter = Some(&self.highlighter);
        let html = comrak::markdown_to_html_with_plugins(markdown, &options, &plugins);
        let mut found = Vec::new();
        if html.contains("<!-- raw HTML omitted -->") {
            found.push("raw HTML is not allowed in Markdown; write it in Markdown");
        }
        if html.contains("<h1") {
            found.push("use `##` headings and below: the page's title is its only `#` heading");
        }
        (html, found)
    }

    /// The HTML of the Markdown of `file`, what is wrong with it added to `problems`.
    pub(crate) fn render_checked(
        &self,
        markdown: &str,
        file: &Path,
        problems: &mut Problems,
    ) -> String {
        let (html, found) = self.render(markdown);
        for problem in found {
            problems.add(file, problem);
        }
        html
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_left_out_and_refused() {
        let (html, problems) = MarkdownRenderer::new().render("Text <script>alert(1)</script>\n");
        assert!(!html.contains("<script"), "{html}");
        assert_eq!(
            problems,
            ["raw HTML is not allowed in Markdown; write it in Markdown"]
        );
    }

    #[test]
    fn a_first_level_heading_is_refused_in_either_spelling() {
        let renderer = MarkdownRenderer::new();
        for markdown in ["# Title\n", "Title\n=====\n"] {
            let (_, problems) = renderer.render(markdown);
            assert_eq!(
                problems,
                ["use `##` headings and below: the page's title is its only `#` heading"],
                "{markdown}"
            );
        }
        assert!(renderer.render("## Section\n").1.is_empty());
    }
}
