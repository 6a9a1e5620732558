//! From a request path to what it names: decoded and checked (hostile paths end here, as 400, 404 or 414, before
//! anything is looked up), moved addresses redirected, and the right error page for what is not there.

use std::borrow::Cow;

use contract::locale::Locale;
use contract::routes::error_pages;
use rocket::http::Status;

use super::files::PREPARED;

/// Longest request path served; longer ones answer 414 (no page has a path near this).
pub(super) const MAX_PATH_BYTES: usize = 2048;

/// Old addresses that moved, answered with a permanent redirect (DECISIONS 2).
pub(super) const MOVED: &[(&str, &str)] = &[(
    "/products/physical-damage",
    "/products/physical-damage-insurance",
)];

/// The error pages, prerendered like every other page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorPage {
    NotFound,
    BlogPostNotFound,
    BadRequest,
    ServerError,
}

impl ErrorPage {
    pub(super) fn file(self) -> &'static str {
        match self {
            ErrorPage::NotFound => error_pages::NOT_FOUND,
            ErrorPage::BlogPostNotFound => error_pages::BLOG_POST_NOT_FOUND,
            ErrorPage::BadRequest => error_pages::BAD_REQUEST,
            ErrorPage::ServerError => error_pages::SERVER_ERROR,
        }
    }

    /// The page's file in `locale` (`es/_errors/404.html`); the English one while a language's is not embedded.
    pub(super) fn file_in(self, locale: Locale) -> String {
        let file = locale.file(self.file());
        if PREPARED.files.contains_key(file.as_str()) {
            file
        } else {
            self.file().to_string()
        }
    }
}

/// What a request path leads to.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolution {
    /// An embedded file, by its name in the site.
    File(&'static str),
    /// A permanent redirect to this path (and the original query).
    Redirect(String),
    Error(Status, ErrorPage),
}

/// The not-found page for a (decoded) path: the blog's own for `/blog/<slug>` (and `/es/blog/<slug>`), the site's
/// for anything else.
pub fn not_found_page(path: &str) -> ErrorPage {
    let (_, path) = Locale::of_path(path);
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    match segments.as_slice() {
        ["blog", slug] if !slug.is_empty() && *slug != ".." && *slug != "." => {
            ErrorPage::BlogPostNotFound
        }
        _ => ErrorPage::NotFound,
    }
}

/// Decodes and checks a raw (percent-encoded) request path and finds what it names.
pub fn resolve(raw_path: &str) -> Resolution {
    if raw_path.len() > MAX_PATH_BYTES {
        return Resolution::Error(Status::UriTooLong, ErrorPage::BadRequest);
    }
    let Some(decoded) = percent_decode(raw_path) else {
        return Resolution::Error(Status::BadRequest, ErrorPage::BadRequest);
    };
    let not_found = |decoded: &str| Resolution::Error(Status::NotFound, not_found_page(decoded));
    let Some(inner) = decoded.strip_prefix('/') else {
        return not_found(&decoded);
    };
    if inner.is_empty() {
        return Resolution::File("index.html");
    }

    let trimmed = inner.trim_end_matches('/');
    // Every segment must be an ordinary name: no empty segments (`//x` could become a protocol-relative redirect),
    // no `.`/`..`, no hidden (`.x`) or internal (`_errors`) names, no control characters or backslashes.
    let is_ordinary = |segment: &str| {
        !segment.is_empty()
            && !segment.starts_with('.')
            && !segment.starts_with('_')
            && !segment.chars().any(|c| c.is_control() || c == '\\')
    };
    if !trimmed.split('/').all(is_ordinary) {
        return not_found(&decoded);
    }
    if trimmed.len() != inner.len() {
        // Only a slash as sent is trimmed: one that was sent encoded (`/blog%2F`) would still be there after the
        // redirect, and the browser would loop.
        if !raw_path.ends_with('/') {
            return not_found(&decoded);
        }
        // From the path as sent, still percent-encoded: decoding it would turn `%3F` into a query, `%23` into a
        // fragment, and put raw bytes into a header.
        // Bytes a header may not carry (raw UTF-8, which hyper accepts in a path) are percent-encoded.
        return Resolution::Redirect(header_safe(raw_path.trim_end_matches('/')));
    }
    if let Some((_, to)) = MOVED.iter().find(|(from, _)| *from == decoded) {
        return Resolution::Redirect((*to).to_string());
    }
    // Precompressed variants are chosen by the server, never asked for by name: the index has none under its own.
    if let Some((name, _)) = PREPARED.files.get_key_value(trimmed) {
        return Resolution::File(name);
    }
    if let Some(index) = PREPARED.indexes.get(trimmed) {
        return Resolution::File(index);
    }
    not_found(&decoded)
}

/// `path` with every byte that is not visible ASCII percent-encoded, fit for a `Location` header.
pub(super) fn header_safe(path: &str) -> String {
    let mut safe = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_graphic() {
            safe.push(char::from(byte));
        } else {
            safe.push_str(&format!("%{byte:02X}"));
        }
    }
    safe
}

/// Strict percent-decoding: `None` for a malformed escape or bytes that are not UTF-8.
pub(super) fn percent_decode(raw: &str) -> Option<Cow<'_, str>> {
    // Nearly every path has nothing to decode: no copy then.
    if !raw.contains('%') {
        return Some(Cow::Borrowed(raw));
    }
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let value = u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
            out.push(value);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::built;

    #[test]
    fn root_and_pages_resolve_to_their_index_files() {
        assert_eq!(resolve("/"), Resolution::File("index.html"));
        assert_eq!(resolve("/blog"), Resolution::File("blog/index.html"));
    }

    #[test]
    fn trailing_slash_redirects_without_it() {
        assert_eq!(resolve("/blog/"), Resolution::Redirect("/blog".into()));
        assert_eq!(
            resolve("/unknown///"),
            Resolution::Redirect("/unknown".into())
        );
        assert_eq!(resolve("/a%3Fb/"), Resolution::Redirect("/a%3Fb".into()));
        assert_eq!(resolve("/a%23b/"), Resolution::Redirect("/a%23b".into()));
        assert_eq!(
            resolve("/caf%C3%A9/"),
            Resolution::Redirect("/caf%C3%A9".into())
        );
        // Raw UTF-8 (hyper takes it in a path) leaves percent-encoded, so the `Location` header can carry it.
        assert_eq!(
            resolve("/caf\u{e9}/"),
            Resolution::Redirect("/caf%C3%A9".into())
        );
    }

    #[test]
    fn hostile_paths_never_leave_the_site() {
        for path in [
            "/..%2f..%2fCargo.toml",
            "/assets/../build.rs",
            "/%2e%2e/%2e%2e/etc/passwd",
            "//example.org/",
            "/.git/config",
            "/_errors/404.html",
            "/a%5c..%5cb",
            "/index.html%00.txt",
            "/index.html.br",
        ] {
            assert!(
                matches!(resolve(path), Resolution::Error(Status::NotFound, _)),
                "{path}: {:?}",
                resolve(path)
            );
        }
    }

    #[test]
    fn malformed_paths_are_bad_requests() {
        assert_eq!(
            resolve("/%zz"),
            Resolution::Error(Status::BadRequest, ErrorPage::BadRequest)
        );
        assert_eq!(
            resolve("/%ff%fe"),
            Resolution::Error(Status::BadRequest, ErrorPage::BadRequest)
        );
        assert_eq!(
            resolve("/%4"),
            Resolution::Error(Status::BadRequest, ErrorPage::BadRequest)
        );
        let long = format!("/{}", "a".repeat(10_000));
        assert_eq!(
            resolve(&long),
            Resolution::Error(Status::UriTooLong, ErrorPage::BadRequest)
        );
    }

    #[test]
    fn unknown_blog_posts_get_the_blog_not_found_page() {
        assert_eq!(
            resolve("/blog/no-such-post"),
            Resolution::Error(Status::NotFound, ErrorPage::BlogPostNotFound)
        );
        assert_eq!(
            resolve("/blog/a/b"),
            Resolution::Error(Status::NotFound, ErrorPage::NotFound)
        );
        assert_eq!(
            resolve("/nope"),
            Resolution::Error(Status::NotFound, ErrorPage::NotFound)
        );
        assert_eq!(
            resolve("/es/blog/no-such-post"),
            Resolution::Error(Status::NotFound, ErrorPage::BlogPostNotFound)
        );
        assert_eq!(
            resolve("/es/nope"),
            Resolution::Error(Status::NotFound, ErrorPage::NotFound)
        );
    }

    #[test]
    fn the_spanish_error_and_form_files_are_never_served_by_name() {
        for path in [
            "/es/_errors/404.html",
            "/es/_forms/quote.html",
            "/es/_errors",
        ] {
            assert!(
                matches!(resolve(path), Resolution::Error(Status::NotFound, _)),
                "{path}"
            );
        }
    }

    #[test]
    fn moved_pages_redirect() {
        assert_eq!(
            resolve("/products/physical-damage"),
            Resolution::Redirect("/products/physical-damage-insurance".into())
        );
    }

    #[test]
    fn every_error_page_is_embedded() {
        for page in [
            ErrorPage::NotFound,
            ErrorPage::BlogPostNotFound,
            ErrorPage::BadRequest,
            ErrorPage::ServerError,
        ] {
            assert!(
                built::file(page.file()).is_some(),
                "{} missing",
                page.file()
            );
        }
    }
}
