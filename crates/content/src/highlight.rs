//! Fenced code blocks, highlighted at build time: comrak hands each block to `CodeHighlighter`, which has syntect
//! write it as spans with CSS classes (the site's stylesheet colours them) inside a `<pre class="code-block">` that
//! names the language for the page to show.

use std::collections::HashMap;
use std::fmt;

use comrak::adapters::SyntaxHighlighterAdapter;
use comrak::plugins::syntect::{SyntectAdapter, SyntectAdapterBuilder};

/// Highlights fenced code into CSS classes (no inline styles, which the site's CSP forbids), reading a fence without
/// a language as JavaScript and mapping the languages syntect's default set lacks onto their nearest relative.
pub(crate) struct CodeHighlighter(SyntectAdapter);

impl CodeHighlighter {
    pub(crate) fn new() -> Self {
        Self(SyntectAdapterBuilder::new().css().build())
    }

    /// The name syntect knows the fence's language by.
    fn language(info: Option<&str>) -> &str {
        match info.map(|l| l.split([',', ' ']).next().unwrap_or("").trim()) {
            None | Some("") => "js",
            Some("javascript" | "js" | "jsx" | "typescript" | "ts" | "tsx" | "mjs") => "js",
            Some("bash" | "sh" | "shell" | "console" | "zsh") => "bash",
            Some(other) => other,
        }
    }

    /// The language's name as the code block shows it.
    fn label(info: Option<&str>) -> &'static str {
        match info.map(|l| l.split([',', ' ']).next().unwrap_or("").trim()) {
            Some("typescript" | "ts") => "TypeScript",
            Some("tsx") => "TSX",
            Some("jsx") => "JSX",
            Some("bash" | "sh" | "shell" | "console" | "zsh") => "Shell",
            Some("css") => "CSS",
            Some("json") => "JSON",
            Some("html") => "HTML",
            Some("toml") => "TOML",
            None | Some("") | Some("javascript" | "js" | "mjs") => "JavaScript",
            Some(_) => "Code",
        }
    }
}

impl SyntaxHighlighterAdapter for CodeHighlighter {
    fn write_highlighted(
        &self,
        output: &mut dyn fmt::Write,
        lang: Option<&str>,
        code: &str,
    ) -> fmt::Result {
        self.0
            .write_highlighted(output, Some(Self::language(lang)), code)
    }

    fn write_pre_tag(
        &self,
        output: &mut dyn fmt::Write,
        attributes: HashMap<&'static str, std::borrow::Cow<'_, str>>,
    ) -> fmt::Result {
        let lang = attributes.get("lang").map(|l| l.as_ref());
        // tabindex: a scrollable code block must be reachable by keyboard.
        write!(
            output,
            "<pre class=\"code-block\" data-language=\"{}\" tabindex=\"0\">",
            Self::label(lang)
        )
    }

    fn write_code_tag(
        &self,
        output: &mut dyn fmt::Write,
        attributes: HashMap<&'static str, std::borrow::Cow<'_, str>>,
    ) -> fmt::Result {
        self.0.write_code_tag(output, attributes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_without_a_language_is_javascript() {
        assert_eq!(CodeHighlighter::language(None), "js");
        assert_eq!(CodeHighlighter::language(Some("")), "js");
        assert_eq!(CodeHighlighter::label(None), "JavaScript");
    }

    #[test]
    fn languages_syntect_lacks_are_read_as_their_relatives_and_keep_their_names() {
        for (info, language, label) in [
            ("ts", "js", "TypeScript"),
            ("tsx", "js", "TSX"),
            ("jsx", "js", "JSX"),
            ("mjs", "js", "JavaScript"),
            ("zsh", "bash", "Shell"),
            ("console", "bash", "Shell"),
            ("json", "json", "JSON"),
            ("toml", "toml", "TOML"),
            ("rust", "rust", "Code"),
        ] {
            assert_eq!(CodeHighlighter::language(Some(info)), language, "{info}");
            assert_eq!(CodeHighlighter::label(Some(info)), label, "{info}");
        }
    }

    #[test]
    fn the_info_string_is_read_up_to_a_comma_or_space() {
        assert_eq!(CodeHighlighter::language(Some("sh title=run.sh")), "bash");
        assert_eq!(CodeHighlighter::label(Some("css,linenos")), "CSS");
    }
}
