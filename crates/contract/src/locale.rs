//! The site's two languages (issue 15): English at the root, Spanish (es-US) below `/es`, one mapping both ways.
//! A Spanish page has the English page's path behind `/es` (`/get-quote` <-> `/es/get-quote`, `/` <-> `/es`), and
//! a Spanish file the English file's path behind `es/` (`_errors/404.html` <-> `es/_errors/404.html`). The server's
//! words for a form (its messages, choices, sentences) are written in English in [`crate::forms`]; [`Locale::text`]
//! gives their Spanish, from the table in `spanish.rs`.

/// A language of the site. English is the default wherever a request does not name one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Locale {
    #[default]
    En,
    Es,
}

/// The name of the field (JSON and form posts) a form gives its language in.
pub const FIELD: &str = "locale";

impl Locale {
    pub const ALL: [Locale; 2] = [Locale::En, Locale::Es];

    /// `en` or `es`: what a form sends, what a lead stores, the `hreflang` and `<html lang>`.
    pub const fn code(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Es => "es",
        }
    }

    /// A language named by its code; `None` for anything else.
    pub fn parse(code: &str) -> Option<Locale> {
        Locale::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language's name in English, for the agency's notifications and the CLI's lists.
    pub const fn english_name(self) -> &'static str {
        match self {
            Locale::En => "English",
            Locale::Es => "Spanish",
        }
    }

    /// What the language's pages' paths start with: nothing for English, `/es` for Spanish.
    pub const fn prefix(self) -> &'static str {
        match self {
            Locale::En => "",
            Locale::Es => "/es",
        }
    }

    /// The page at the English `path` in this language: `/` is `/es`, `/get-quote` is `/es/get-quote`.
    pub fn page(self, path: &str) -> String {
        match (self, path) {
            (Locale::En, _) => path.to_string(),
            (_, "/") => self.prefix().to_string(),
            _ => format!("{}{path}", self.prefix()),
        }
    }

    /// The embedded file of this language for the English `file` (relative to the site's root).
    pub fn file(self, file: &str) -> String {
        match self {
            Locale::En => file.to_string(),
            Locale::Es => format!("es/{file}"),
        }
    }

    /// The language of the page at `path`, and the English page's path.
    pub fn of_path(path: &str) -> (Locale, &str) {
        match path.strip_prefix(Locale::Es.prefix()) {
            Some("") => (Locale::Es, "/"),
            Some(rest) if rest.starts_with('/') => (Locale::Es, rest),
            _ => (Locale::En, path),
        }
    }

    /// One of the contract's English texts (a message, a choice's label, a sentence) in this language. A text the
    /// Spanish table lacks stays English; a test holds every text of the contract to having its translation.
    pub fn text(self, english: &'static str) -> &'static str {
        match self {
            Locale::En => english,
            Locale::Es => crate::spanish::text(english).unwrap_or(english),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_both_ways() {
        for (english, spanish) in [
            ("/", "/es"),
            ("/get-quote", "/es/get-quote"),
            ("/blog/a-post", "/es/blog/a-post"),
        ] {
            assert_eq!(Locale::Es.page(english), spanish);
            assert_eq!(Locale::En.page(english), english);
            assert_eq!(Locale::of_path(spanish), (Locale::Es, english));
            assert_eq!(Locale::of_path(english), (Locale::En, english));
        }
        assert_eq!(Locale::of_path("/estimates"), (Locale::En, "/estimates"));
        assert_eq!(Locale::Es.file("_errors/404.html"), "es/_errors/404.html");
    }

    #[test]
    fn codes_parse_back() {
        for locale in Locale::ALL {
            assert_eq!(Locale::parse(locale.code()), Some(locale));
        }
        assert_eq!(Locale::parse("fr"), None);
        assert_eq!(Locale::parse("ES"), None);
    }
}
