//! The website: every page and asset built by `build.rs`, embedded in the binary and served from memory.
//!
//! A request path is decoded and checked by [`resolve`] (a pure function: hostile paths end here, as 400 or 404,
//! before anything is looked up), then mapped onto an embedded file: `/` -> `index.html`, `/x` -> `x` or
//! `x/index.html`. The response picks the precompressed variant the browser accepts (brotli, gzip or none), carries
//! an ETag per variant for revalidation (304), and is cached forever when its name is content-hashed (`assets/`).
//! Unknown paths answer 404 with the not-found page (the blog's own for `/blog/<slug>`), never a soft 404.
//! When the server is configured with another public address than the one the site was built with, the pages that
//! name it (canonical links, structured data, sitemap) are rewritten once at start into an [`Overlay`].

use std::collections::HashMap;
use std::io::{Cursor, Write};

use rocket::State;
use rocket::fairing::AdHoc;
use rocket::http::uri::Origin;
use rocket::http::{ContentType, Header, Status};
use rocket::request::{FromRequest, Outcome, Request};
use rocket::response::{self, Responder, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "$OUT_DIR/site"]
pub struct SiteFiles;

/// The public address the pages were built with (`base_url` of `content/site.toml`).
pub const BUILD_BASE_URL: &str = include_str!(concat!(env!("OUT_DIR"), "/base-url.txt"));

/// Pages rewritten for the configured public address, kept for the life of the process (identity and gzip).
#[derive(Default)]
pub struct Overlay {
    files: HashMap<String, Rewritten>,
}

struct Rewritten {
    plain: &'static [u8],
    gzip: &'static [u8],
    etag: String,
}

impl Overlay {
    /// Rewrites every text file naming the build's base URL, when `base_url` differs from it.
    pub fn new(base_url: Option<&str>) -> Overlay {
        let Some(base_url) = base_url.filter(|url| *url != BUILD_BASE_URL) else {
            return Overlay::default();
        };
        let mut files = HashMap::new();
        for name in SiteFiles::iter() {
            let is_text = [".html", ".xml", ".txt", ".json"]
                .iter()
                .any(|ext| name.ends_with(ext));
            let Some(file) = SiteFiles::get(&name).filter(|_| is_text) else {
                continue;
            };
            let text = String::from_utf8_lossy(&file.data);
            if !text.contains(BUILD_BASE_URL) {
                continue;
            }
            let plain = text.replace(BUILD_BASE_URL, base_url).into_bytes();
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            let gzip = encoder
                .write_all(&plain)
                .and_then(|()| encoder.finish())
                .unwrap_or_default();
            let etag = format!("\"o{:016x}\"", fnv1a(&plain));
            let leak = |bytes: Vec<u8>| -> &'static [u8] { Box::leak(bytes.into_boxed_slice()) };
            files.insert(
                name.to_string(),
                Rewritten {
                    plain: leak(plain),
                    gzip: leak(gzip),
                    etag,
                },
            );
        }
        Overlay { files }
    }
}

/// A 64-bit FNV-1a hash: enough to tell versions of a page apart in an ETag.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Longest request path served; longer ones answer 414 (no page has a path near this).
const MAX_PATH_BYTES: usize = 2048;

/// Old addresses that moved, answered with a permanent redirect (DECISIONS 2).
const MOVED: &[(&str, &str)] = &[(
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
    fn file(self) -> &'static str {
        match self {
            ErrorPage::NotFound => "_errors/404.html",
            ErrorPage::BlogPostNotFound => "_errors/blog-404.html",
            ErrorPage::BadRequest => "_errors/400.html",
            ErrorPage::ServerError => "_errors/500.html",
        }
    }
}

/// What a request path leads to.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolution {
    /// An embedded file, by its name in the site.
    File(String),
    /// A permanent redirect to this path (and the original query).
    Redirect(String),
    Error(Status, ErrorPage),
}

/// The not-found page for a (decoded) path: the blog's own for `/blog/<slug>`, the site's for anything else.
pub fn not_found_page(path: &str) -> ErrorPage {
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
        return Resolution::File("index.html".into());
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
        return Resolution::Redirect(raw_path.trim_end_matches('/').to_string());
    }
    if let Some((_, to)) = MOVED.iter().find(|(from, _)| *from == decoded) {
        return Resolution::Redirect((*to).to_string());
    }
    // Precompressed variants are chosen by the server, never asked for by name.
    let is_variant = trimmed.ends_with(".br") || trimmed.ends_with(".gz");
    if !is_variant && SiteFiles::get(trimmed).is_some() {
        return Resolution::File(trimmed.to_string());
    }
    let index = format!("{trimmed}/index.html");
    if SiteFiles::get(&index).is_some() {
        return Resolution::File(index);
    }
    not_found(&decoded)
}

/// Strict percent-decoding: `None` for a malformed escape or bytes that are not UTF-8.
fn percent_decode(raw: &str) -> Option<String> {
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
    String::from_utf8(out).ok()
}

/// The request headers that shape a file response.
pub struct Negotiation {
    brotli: bool,
    gzip: bool,
    if_none_match: Option<String>,
}

impl Negotiation {
    pub fn from_headers(request: &Request<'_>) -> Self {
        let accepted: Vec<(String, f32)> = request
            .headers()
            .get("Accept-Encoding")
            .flat_map(|value| value.split(','))
            .map(|item| {
                let mut parts = item.split(';');
                let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
                let quality = parts
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .unwrap_or(1.0);
                (name, quality)
            })
            .collect();
        let accepts = |name: &str| {
            accepted
                .iter()
                .any(|(n, q)| (n == name || n == "*") && *q > 0.0)
        };
        Negotiation {
            brotli: accepts("br"),
            gzip: accepts("gzip"),
            if_none_match: request
                .headers()
                .get_one("If-None-Match")
                .map(str::to_string),
        }
    }
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Negotiation {
    type Error = std::convert::Infallible;

    async fn from_request(request: &'r Request<'_>) -> Outcome<Self, Self::Error> {
        Outcome::Success(Negotiation::from_headers(request))
    }
}

/// One representation of a file: its encoding, tag, type and bytes.
struct Variant {
    encoding: Option<&'static str>,
    etag: String,
    content_type: ContentType,
    body: &'static [u8],
}

/// A response made from an embedded file.
pub struct SiteResponse {
    status: Status,
    body: Option<&'static [u8]>,
    headers: Vec<Header<'static>>,
    content_type: Option<ContentType>,
}

impl SiteResponse {
    /// Serves `name` (which must exist) with `status`; `revalidate` enables ETag/304 (not for error pages).
    fn file(
        name: &str,
        status: Status,
        negotiation: &Negotiation,
        revalidate: bool,
        overlay: &Overlay,
    ) -> SiteResponse {
        if let Some(rewritten) = overlay.files.get(name) {
            return SiteResponse::rewritten(name, rewritten, status, negotiation, revalidate);
        }
        let Some(original) = SiteFiles::get(name) else {
            // Only reachable if the build left out a page it promised (tests check every error page exists).
            return SiteResponse::plain(Status::InternalServerError, "Internal Server Error");
        };
        let compressed = [("br", negotiation.brotli), ("gzip", negotiation.gzip)]
            .into_iter()
            .filter(|(_, accepted)| *accepted)
            .find_map(|(encoding, _)| {
                let suffix = if encoding == "br" { "br" } else { "gz" };
                SiteFiles::get(&format!("{name}.{suffix}")).map(|file| (encoding, file))
            });
        let (encoding, file) = match compressed {
            Some((encoding, file)) => (Some(encoding), file),
            None => (None, original.clone()),
        };
        let hash = file.metadata.sha256_hash();
        let etag = format!(
            "\"{}\"",
            hash[..12]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        );
        let content_type = content_type_for(name, original.metadata.mimetype());
        let body = match file.data {
            std::borrow::Cow::Borrowed(bytes) => bytes,
            // Only in builds that read files from disk; keep the bytes for the life of the process.
            std::borrow::Cow::Owned(bytes) => Box::leak(bytes.into_boxed_slice()),
        };
        let variant = Variant {
            encoding,
            etag,
            content_type,
            body,
        };
        SiteResponse::finish(name, status, negotiation, revalidate, variant)
    }

    /// Serves a page rewritten for the configured base URL (gzip or identity).
    fn rewritten(
        name: &str,
        file: &Rewritten,
        status: Status,
        negotiation: &Negotiation,
        revalidate: bool,
    ) -> SiteResponse {
        let content_type = match name.rsplit('.').next() {
            Some("xml") => ContentType::XML,
            Some("json") => ContentType::JSON,
            Some("txt") => ContentType::Plain,
            _ => ContentType::HTML,
        };
        let variant = if negotiation.gzip {
            let etag = format!("{}-gz\"", file.etag.trim_end_matches('"'));
            Variant {
                encoding: Some("gzip"),
                etag,
                content_type,
                body: file.gzip,
            }
        } else {
            Variant {
                encoding: None,
                etag: file.etag.clone(),
                content_type,
                body: file.plain,
            }
        };
        SiteResponse::finish(name, status, negotiation, revalidate, variant)
    }

    fn finish(
        name: &str,
        status: Status,
        negotiation: &Negotiation,
        revalidate: bool,
        variant: Variant,
    ) -> SiteResponse {
        let cache = if name.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        let mut headers = vec![
            Header::new("Vary", "Accept-Encoding"),
            Header::new("Cache-Control", cache),
        ];
        if let Some(encoding) = variant.encoding {
            headers.push(Header::new("Content-Encoding", encoding));
        }
        if revalidate {
            let etag = variant.etag;
            let matches = negotiation.if_none_match.as_deref().is_some_and(|value| {
                value
                    .split(',')
                    .map(|tag| tag.trim().trim_start_matches("W/"))
                    .any(|tag| tag == etag || tag == "*")
            });
            headers.push(Header::new("ETag", etag));
            if matches {
                return SiteResponse {
                    status: Status::NotModified,
                    body: None,
                    headers,
                    content_type: None,
                };
            }
        }
        SiteResponse {
            status,
            body: Some(variant.body),
            headers,
            content_type: Some(variant.content_type),
        }
    }

    /// The prerendered page for an error status.
    pub fn error(
        status: Status,
        page: ErrorPage,
        negotiation: &Negotiation,
        overlay: &Overlay,
    ) -> SiteResponse {
        let mut response = SiteResponse::file(page.file(), status, negotiation, false, overlay);
        response.status = status;
        response
    }

    fn plain(status: Status, text: &'static str) -> SiteResponse {
        SiteResponse {
            status,
            body: Some(text.as_bytes()),
            headers: Vec::new(),
            content_type: Some(ContentType::Plain),
        }
    }

    fn redirect(location: String) -> SiteResponse {
        SiteResponse {
            status: Status::PermanentRedirect,
            body: None,
            headers: vec![Header::new("Location", location)],
            content_type: None,
        }
    }
}

fn content_type_for(name: &str, mimetype: &str) -> ContentType {
    let with_charset = if mimetype.starts_with("text/")
        || mimetype == "application/json"
        || mimetype == "image/svg+xml"
    {
        format!("{mimetype}; charset=utf-8")
    } else {
        mimetype.to_string()
    };
    ContentType::parse_flexible(&with_charset).unwrap_or_else(|| {
        if name.ends_with(".html") {
            ContentType::HTML
        } else {
            ContentType::Binary
        }
    })
}

impl<'r> Responder<'r, 'static> for SiteResponse {
    fn respond_to(self, _: &'r Request<'_>) -> response::Result<'static> {
        let mut response = Response::build();
        response.status(self.status);
        if let Some(content_type) = self.content_type {
            response.header(content_type);
        }
        for header in self.headers {
            response.header(header);
        }
        if let Some(body) = self.body {
            response.sized_body(body.len(), Cursor::new(body));
        }
        Ok(response.finalize())
    }
}

/// Every GET (and, through Rocket, HEAD) that no other route takes.
#[rocket::get("/<_..>", rank = 100)]
fn page(
    origin: &Origin<'_>,
    negotiation: Negotiation,
    overlay: &State<Overlay>,
) -> Result<SiteResponse, Status> {
    let path = origin.path().as_str();
    if path == "/api" || path.starts_with("/api/") {
        // Left to the JSON catchers: programs get JSON, never an HTML page.
        return Err(Status::NotFound);
    }
    Ok(match resolve(path) {
        Resolution::File(name) => {
            SiteResponse::file(&name, Status::Ok, &negotiation, true, overlay)
        }
        Resolution::Redirect(path) => {
            let location = match origin.query() {
                Some(query) => format!("{path}?{query}"),
                None => path,
            };
            SiteResponse::redirect(location)
        }
        Resolution::Error(status, page) => {
            if status == Status::NotFound {
                rocket::info!("404 Not Found: {}", origin.path());
            }
            SiteResponse::error(status, page, &negotiation, overlay)
        }
    })
}

/// Mounts the site and its HTML error pages.
pub fn stage() -> AdHoc {
    AdHoc::try_on_ignite("Website", |rocket| async {
        let settings: crate::config::Settings = match rocket.figment().extract() {
            Ok(settings) => settings,
            Err(error) => {
                rocket::error!("invalid settings: {error}");
                return Err(rocket);
            }
        };
        let overlay = Overlay::new(settings.base_url.as_deref());
        Ok(rocket
            .manage(overlay)
            .mount("/", rocket::routes![page])
            .register("/", crate::errors::html_catchers()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_and_pages_resolve_to_their_index_files() {
        assert_eq!(resolve("/"), Resolution::File("index.html".into()));
        assert_eq!(resolve("/blog"), Resolution::File("blog/index.html".into()));
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
                SiteFiles::get(page.file()).is_some(),
                "{} missing",
                page.file()
            );
        }
    }
}
