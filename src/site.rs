//! The website: every page and asset built by `build.rs`, embedded in the binary and served from memory.
//!
//! A request path is decoded and checked by [`resolve`] (a pure function: hostile paths end here, as 400 or 404,
//! before anything is looked up), then mapped onto an embedded file: `/` -> `index.html`, `/x` -> `x` or
//! `x/index.html`. The response picks the precompressed variant the browser accepts (brotli, gzip or none), carries
//! an ETag per variant for revalidation (304), and is cached forever when its name is content-hashed (`assets/`).
//! Unknown paths answer 404 with the not-found page (the blog's own for `/blog/<slug>`), never a soft 404.
//! When the server is configured with another public address than the one the site was built with, the pages that
//! name it (canonical links, structured data, sitemap) are rewritten once at start into an [`Overlay`].
//! Everything a response needs from a file (its variants, tags, type and caching) is worked out once,
//! into an index at start ([`Prepared`]), so serving a page formats, parses and allocates nothing of its own.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{Cursor, Write};
use std::sync::LazyLock;

use contract::routes::error_pages;
use rocket::State;
use rocket::fairing::AdHoc;
use rocket::http::uri::Origin;
use rocket::http::{ContentType, Status};
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

/// A rewritten page's two representations, ready to send, and its caching (that of the file it rewrites).
struct Rewritten {
    plain: Variant,
    gzip: Variant,
    cache_control: &'static str,
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
            // The type and caching the index worked out for the file this rewrites.
            let Some(prepared) = PREPARED.files.get(name.as_ref()) else {
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
            let gzip_etag = format!("{}-gz\"", etag.trim_end_matches('"'));
            let content_type = prepared.identity.content_type;
            files.insert(
                name.to_string(),
                Rewritten {
                    plain: Variant {
                        encoding: None,
                        etag: leak_str(etag),
                        content_type,
                        body: leak_bytes(plain),
                    },
                    gzip: Variant {
                        encoding: Some("gzip"),
                        etag: leak_str(gzip_etag),
                        content_type,
                        body: leak_bytes(gzip),
                    },
                    cache_control: prepared.cache_control,
                },
            );
        }
        Overlay { files }
    }
}

fn leak_bytes(bytes: Vec<u8>) -> &'static [u8] {
    Box::leak(bytes.into_boxed_slice())
}

fn leak_str(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// A 64-bit FNV-1a hash: enough to tell versions of a page apart in an ETag.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The largest piece a response body is handed to hyper in (every page fits in one).
const MAX_CHUNK_BYTES: usize = 256 * 1024;

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
            ErrorPage::NotFound => error_pages::NOT_FOUND,
            ErrorPage::BlogPostNotFound => error_pages::BLOG_POST_NOT_FOUND,
            ErrorPage::BadRequest => error_pages::BAD_REQUEST,
            ErrorPage::ServerError => error_pages::SERVER_ERROR,
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
fn header_safe(path: &str) -> String {
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
fn percent_decode(raw: &str) -> Option<Cow<'_, str>> {
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

/// The request headers that shape a file response.
pub struct Negotiation<'r> {
    brotli: bool,
    gzip: bool,
    if_none_match: Option<&'r str>,
}

impl<'r> Negotiation<'r> {
    pub fn from_headers(request: &'r Request<'_>) -> Self {
        Negotiation::new(
            request.headers().get("Accept-Encoding"),
            request.headers().get_one("If-None-Match"),
        )
    }

    /// From the values of the request's `Accept-Encoding` headers and its first `If-None-Match`.
    pub fn new(
        accept_encoding: impl Iterator<Item = &'r str>,
        if_none_match: Option<&'r str>,
    ) -> Self {
        // An encoding is accepted when it (or `*`) is listed with a quality above zero.
        let (mut brotli, mut gzip, mut any) = (false, false, false);
        for item in accept_encoding.flat_map(|value| value.split(',')) {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let quality = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if quality > 0.0 {
                brotli |= name.eq_ignore_ascii_case("br");
                gzip |= name.eq_ignore_ascii_case("gzip");
                any |= name == "*";
            }
        }
        Negotiation {
            brotli: brotli || any,
            gzip: gzip || any,
            if_none_match,
        }
    }
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for Negotiation<'r> {
    type Error = std::convert::Infallible;

    async fn from_request(request: &'r Request<'_>) -> Outcome<Self, Self::Error> {
        Outcome::Success(Negotiation::from_headers(request))
    }
}

/// One representation of a file, ready to send: its encoding, tag, `Content-Type` header and bytes.
#[derive(Clone, Copy)]
struct Variant {
    encoding: Option<&'static str>,
    etag: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

/// An embedded file with its precompressed variants and caching, as [`PREPARED`] holds it.
struct PreparedFile {
    identity: Variant,
    brotli: Option<Variant>,
    gzip: Option<Variant>,
    cache_control: &'static str,
}

/// Every embedded file by its name (the `.br`/`.gz` variants beside the file they belong to, not under their own).
pub struct Prepared {
    files: HashMap<&'static str, PreparedFile>,
    /// `x/index.html` by `x`, the path that serves it (`about` for `about/index.html`).
    indexes: HashMap<&'static str, &'static str>,
}

/// Built at start (by [`stage`]) from the embedded files, which never change while the process runs.
static PREPARED: LazyLock<Prepared> = LazyLock::new(Prepared::new);

impl Prepared {
    fn new() -> Prepared {
        let variant = |name: &str, encoding: Option<&'static str>, content_type: &'static str| {
            let file = SiteFiles::get(name)?;
            let hash = file.metadata.sha256_hash();
            let hex: String = hash[..12].iter().map(|b| format!("{b:02x}")).collect();
            let body = match file.data {
                Cow::Borrowed(bytes) => bytes,
                // Only in builds that read files from disk.
                Cow::Owned(bytes) => leak_bytes(bytes),
            };
            Some(Variant {
                encoding,
                etag: leak_str(format!("\"{hex}\"")),
                content_type,
                body,
            })
        };
        let mut files = HashMap::new();
        let mut indexes = HashMap::new();
        for name in SiteFiles::iter() {
            // Precompressed variants are chosen by the server, never asked for by name.
            if name.ends_with(".br") || name.ends_with(".gz") {
                continue;
            }
            let name: &'static str = match name {
                Cow::Borrowed(name) => name,
                Cow::Owned(name) => leak_str(name),
            };
            let Some(original) = SiteFiles::get(name) else {
                continue;
            };
            let content_type = leak_str(content_type_header(content_type_for(
                name,
                original.metadata.mimetype(),
            )));
            let Some(identity) = variant(name, None, content_type) else {
                continue;
            };
            files.insert(
                name,
                PreparedFile {
                    identity,
                    brotli: variant(&format!("{name}.br"), Some("br"), content_type),
                    gzip: variant(&format!("{name}.gz"), Some("gzip"), content_type),
                    cache_control: cache_control_for(name),
                },
            );
            if let Some(directory) = name.strip_suffix("/index.html") {
                indexes.insert(directory, name);
            }
        }
        Prepared { files, indexes }
    }
}

/// A response made from an embedded file. Every header value is made at start, none per request.
pub struct SiteResponse {
    status: Status,
    body: Option<&'static [u8]>,
    content_type: Option<&'static str>,
    /// `Vary: Accept-Encoding` goes with it: a file's response depends on the encodings accepted.
    cache_control: Option<&'static str>,
    content_encoding: Option<&'static str>,
    etag: Option<&'static str>,
    location: Option<String>,
}

impl SiteResponse {
    /// Serves `name` (which must exist) with `status`; `revalidate` enables ETag/304 (not for error pages).
    fn file(
        name: &str,
        status: Status,
        negotiation: &Negotiation<'_>,
        revalidate: bool,
        overlay: &Overlay,
    ) -> SiteResponse {
        if let Some(rewritten) = overlay.files.get(name) {
            let variant = if negotiation.gzip {
                rewritten.gzip
            } else {
                rewritten.plain
            };
            return SiteResponse::finish(
                status,
                negotiation,
                revalidate,
                rewritten.cache_control,
                variant,
            );
        }
        let Some(file) = PREPARED.files.get(name) else {
            // Only reachable if the build left out a page it promised (tests check every error page exists).
            return SiteResponse::plain(Status::InternalServerError, "Internal Server Error");
        };
        let variant = [
            (negotiation.brotli, file.brotli),
            (negotiation.gzip, file.gzip),
        ]
        .into_iter()
        .find_map(|(accepted, variant)| variant.filter(|_| accepted))
        .unwrap_or(file.identity);
        SiteResponse::finish(status, negotiation, revalidate, file.cache_control, variant)
    }

    fn finish(
        status: Status,
        negotiation: &Negotiation<'_>,
        revalidate: bool,
        cache_control: &'static str,
        variant: Variant,
    ) -> SiteResponse {
        let mut response = SiteResponse {
            status,
            body: Some(variant.body),
            content_type: Some(variant.content_type),
            cache_control: Some(cache_control),
            content_encoding: variant.encoding,
            etag: None,
            location: None,
        };
        if revalidate {
            let etag = variant.etag;
            let matches = negotiation.if_none_match.is_some_and(|value| {
                value
                    .split(',')
                    .map(|tag| tag.trim().trim_start_matches("W/"))
                    .any(|tag| tag == etag || tag == "*")
            });
            response.etag = Some(etag);
            if matches {
                response.status = Status::NotModified;
                response.body = None;
                response.content_type = None;
            }
        }
        response
    }

    /// The prerendered page for an error status.
    pub fn error(
        status: Status,
        page: ErrorPage,
        negotiation: &Negotiation<'_>,
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
            content_type: Some("text/plain; charset=utf-8"),
            cache_control: None,
            content_encoding: None,
            etag: None,
            location: None,
        }
    }

    fn redirect(location: String) -> SiteResponse {
        SiteResponse {
            status: Status::PermanentRedirect,
            body: None,
            content_type: None,
            cache_control: None,
            content_encoding: None,
            etag: None,
            location: Some(location),
        }
    }
}

/// Content-hashed names (`assets/`) never change, so they are cached for good; everything else is revalidated.
fn cache_control_for(name: &str) -> &'static str {
    if name.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    }
}

/// The `Content-Type` value Rocket would send for `content_type`.
fn content_type_header(content_type: ContentType) -> String {
    rocket::http::Header::from(content_type).value().to_string()
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

impl SiteResponse {
    pub fn status(&self) -> Status {
        self.status
    }

    /// The body to send (none for redirects and 304s).
    pub fn body(&self) -> Option<&'static [u8]> {
        self.body
    }

    /// The response's headers, each at most once, from values made at start (but a redirect's `Location`).
    pub fn headers(&self) -> impl Iterator<Item = (&'static str, &str)> {
        let cache = self.cache_control.map(|cache_control| {
            // A file's response depends on the encodings accepted.
            [
                ("Vary", "Accept-Encoding"),
                ("Cache-Control", cache_control),
            ]
        });
        self.content_type
            .map(|value| ("Content-Type", value))
            .into_iter()
            .chain(cache.into_iter().flatten())
            .chain(
                self.content_encoding
                    .map(|value| ("Content-Encoding", value)),
            )
            .chain(self.etag.map(|value| ("ETag", value)))
            .chain(self.location.as_deref().map(|value| ("Location", value)))
    }
}

impl<'r> Responder<'r, 'static> for SiteResponse {
    fn respond_to(self, _: &'r Request<'_>) -> response::Result<'static> {
        let mut response = Response::build();
        response.status(self.status);
        for (name, value) in self.headers() {
            response.raw_header(name, value.to_string());
        }
        if let Some(body) = self.body {
            // Rocket hands a body to hyper in chunks of 4 KiB by default, each through a channel to the connection's
            // task, which then writes most pages in two or three system calls; one chunk lets the head and the
            // whole page leave in one. Capped, so a large file is not copied into one allocation of its full size.
            response
                .sized_body(body.len(), Cursor::new(body))
                .max_chunk_size(body.len().clamp(1, MAX_CHUNK_BYTES));
        }
        Ok(response.finalize())
    }
}

/// The answer to a GET or HEAD of `path` (as sent, percent-encoded) that is not under `/api`: a page, an asset, a
/// redirect or an error page. The one implementation behind both the server's own path for the site's files and
/// Rocket's route, so the two cannot answer differently.
pub fn respond(
    path: &str,
    query: Option<&str>,
    negotiation: &Negotiation<'_>,
    overlay: &Overlay,
) -> SiteResponse {
    match resolve(path) {
        Resolution::File(name) => SiteResponse::file(name, Status::Ok, negotiation, true, overlay),
        Resolution::Redirect(path) => {
            let location = match query {
                Some(query) => format!("{path}?{query}"),
                None => path,
            };
            SiteResponse::redirect(location)
        }
        Resolution::Error(status, page) => SiteResponse::error(status, page, negotiation, overlay),
    }
}

/// Whether a GET of `path` belongs to the site's files rather than to a route of the application (the leads API,
/// the health check): those are Rocket's.
pub fn serves(path: &str) -> bool {
    !(is_api(path) || path == "/healthz")
}

/// Whether `path` is the leads API's, where programs get JSON (errors included), never an HTML page.
pub fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// Every GET (and, through Rocket, HEAD) that no other route takes.
#[rocket::get("/<_..>", rank = 100)]
fn page(
    origin: &Origin<'_>,
    negotiation: Negotiation<'_>,
    overlay: &State<Overlay>,
) -> Result<SiteResponse, Status> {
    let path = origin.path().as_str();
    if is_api(path) {
        // Left to the JSON catchers: programs get JSON, never an HTML page.
        return Err(Status::NotFound);
    }
    Ok(respond(
        path,
        origin.query().map(|query| query.as_str()),
        &negotiation,
        overlay,
    ))
}

/// Mounts the site (its HTML error pages are the catchers of [`crate::errors`], registered with the application).
pub fn stage() -> AdHoc {
    AdHoc::try_on_ignite("Website", |rocket| async {
        let Some(settings) = rocket.state::<crate::config::Settings>() else {
            rocket::error!("the website needs the settings managed as state");
            return Err(rocket);
        };
        // The index is built here, at start, not by the first visitor's request.
        LazyLock::force(&PREPARED);
        let overlay = Overlay::new(settings.base_url.as_deref());
        Ok(rocket.manage(overlay).mount("/", rocket::routes![page]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
