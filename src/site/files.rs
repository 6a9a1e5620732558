//! The embedded files as responses: every file's precompressed variants, ETags, type and caching worked out once
//! at start ([`Prepared`]), and the variant the browser accepts picked per request ([`Negotiation`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Cursor;
use std::sync::LazyLock;

use rocket::http::{ContentType, Status};
use rocket::request::{FromRequest, Outcome, Request};
use rocket::response::{self, Responder, Response};

use super::overlay::{Overlay, leak_bytes, leak_str};
use super::paths::ErrorPage;
use crate::built;

/// The largest piece a response body is handed to hyper in (every page fits in one).
pub(super) const MAX_CHUNK_BYTES: usize = 256 * 1024;

/// The request headers that shape a file response.
pub struct Negotiation<'r> {
    pub(super) brotli: bool,
    pub(super) gzip: bool,
    pub(super) if_none_match: Option<&'r str>,
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
pub(super) struct Variant {
    pub(super) encoding: Option<&'static str>,
    pub(super) etag: &'static str,
    pub(super) content_type: &'static str,
    pub(super) body: &'static [u8],
}

/// An embedded file with its precompressed variants and caching, as [`PREPARED`] holds it.
pub(super) struct PreparedFile {
    pub(super) identity: Variant,
    pub(super) brotli: Option<Variant>,
    pub(super) gzip: Option<Variant>,
    pub(super) cache_control: &'static str,
}

/// Every embedded file by its name (the `.br`/`.gz` variants beside the file they belong to, not under their own).
pub struct Prepared {
    pub(super) files: HashMap<&'static str, PreparedFile>,
    /// `x/index.html` by `x`, the path that serves it (`about` for `about/index.html`).
    pub(super) indexes: HashMap<&'static str, &'static str>,
}

/// Built at start (by [`stage`]) from the embedded files, which never change while the process runs.
pub(super) static PREPARED: LazyLock<Prepared> = LazyLock::new(Prepared::new);

impl Prepared {
    pub(super) fn new() -> Prepared {
        let variant = |name: &str, encoding: Option<&'static str>, content_type: &'static str| {
            let file = built::file(name)?;
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
        for name in built::names() {
            // Precompressed variants are chosen by the server, never asked for by name.
            if name.ends_with(".br") || name.ends_with(".gz") {
                continue;
            }
            let name: &'static str = match name {
                Cow::Borrowed(name) => name,
                Cow::Owned(name) => leak_str(name),
            };
            let Some(original) = built::file(name) else {
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
    pub(super) status: Status,
    pub(super) body: Option<&'static [u8]>,
    pub(super) content_type: Option<&'static str>,
    /// `Vary: Accept-Encoding` goes with it: a file's response depends on the encodings accepted.
    pub(super) cache_control: Option<&'static str>,
    pub(super) content_encoding: Option<&'static str>,
    pub(super) etag: Option<&'static str>,
    pub(super) location: Option<String>,
}

impl SiteResponse {
    /// Serves `name` (which must exist) with `status`; `revalidate` enables ETag/304 (not for error pages).
    pub(super) fn file(
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

    pub(super) fn finish(
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

    /// The prerendered page for an error status, in the language of the page at `path` (the request's).
    pub fn error(
        status: Status,
        page: ErrorPage,
        path: &str,
        negotiation: &Negotiation<'_>,
        overlay: &Overlay,
    ) -> SiteResponse {
        let (locale, _) = contract::locale::Locale::of_path(path);
        let file = page.file_in(locale);
        let mut response = SiteResponse::file(&file, status, negotiation, false, overlay);
        response.status = status;
        response
    }

    pub(super) fn plain(status: Status, text: &'static str) -> SiteResponse {
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

    pub(super) fn redirect(location: String) -> SiteResponse {
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
pub(super) fn cache_control_for(name: &str) -> &'static str {
    if name.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    }
}

/// The `Content-Type` value Rocket would send for `content_type`.
pub(super) fn content_type_header(content_type: ContentType) -> String {
    rocket::http::Header::from(content_type).value().to_string()
}

pub(super) fn content_type_for(name: &str, mimetype: &str) -> ContentType {
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
