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
//! into an index at start ([`files::Prepared`]), so serving a page formats, parses and allocates nothing of its own.
//!
//! Rooms: [`paths`] (a request path to what it names), [`files`] (the embedded files as responses), [`overlay`]
//! (pages rewritten for another public address); this file holds the embedded folder, [`respond`], the route and
//! the stage.

mod files;
mod overlay;
mod paths;

use files::PREPARED;
pub use files::{Negotiation, SiteResponse};
pub use overlay::Overlay;
pub use paths::{ErrorPage, Resolution, not_found_page, resolve};

use std::sync::LazyLock;

use rocket::State;
use rocket::fairing::AdHoc;
use rocket::http::Status;
use rocket::http::uri::Origin;
/// The public address the pages were built with (`base_url` of `content/facts.toml`).
pub fn build_base_url() -> &'static str {
    crate::built::text("base-url.txt")
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
    respond_served(path, query, negotiation, overlay).0
}

/// [`respond`], and the embedded file it settled on when the path named one (not for a redirect or an error page):
/// the visit counts take the page from here, whatever the path as sent looked like (`/%61bout`, `/index.html`).
pub fn respond_served(
    path: &str,
    query: Option<&str>,
    negotiation: &Negotiation<'_>,
    overlay: &Overlay,
) -> (SiteResponse, Option<Served>) {
    match resolve(path) {
        Resolution::File(name) => (
            SiteResponse::file(name, Status::Ok, negotiation, true, overlay),
            Some(Served::file(name)),
        ),
        Resolution::Redirect(path) => {
            let location = match query {
                Some(query) => format!("{path}?{query}"),
                None => path,
            };
            (SiteResponse::redirect(location), None)
        }
        Resolution::Error(status, page) => (
            SiteResponse::error(status, page, path, negotiation, overlay),
            None,
        ),
    }
}

/// An embedded file a request was answered with (200, or 304 when the browser's copy is current).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Served {
    /// Its name in the site, as [`resolve`] settled on it: `index.html`, `about/index.html`, `robots.txt`.
    pub name: &'static str,
    /// Whether it is an HTML page (a page view), rather than an asset, a feed or robots.txt.
    pub is_page: bool,
}

impl Served {
    pub fn file(name: &'static str) -> Served {
        Served {
            name,
            is_page: name.ends_with(".html"),
        }
    }

    /// The page's path as visitors know it: `/` for `index.html`, `/about` for `about/index.html`, `/x.html` for
    /// any other HTML file.
    pub fn page_path(name: &str) -> String {
        let stem = match name.strip_suffix("index.html") {
            Some(directory) => directory.trim_end_matches('/'),
            None => name,
        };
        format!("/{stem}")
    }
}

/// Whether a GET of `path` belongs to the site's files rather than to a route of the application (the leads API,
/// the health check, the quote's thank-you page in either language, which the application fills with the quote's
/// details token, the agency's signed links: status, submission and documents): those are Rocket's.
pub fn serves(path: &str) -> bool {
    // The thank-you pages the application fills in: the quote's (its details token), a claim's and a change
    // request's (their reference).
    let is_quote_thank_you = contract::locale::Locale::ALL.iter().any(|locale| {
        [
            contract::routes::QUOTE_THANK_YOU,
            contract::routes::CLAIM_THANK_YOU,
            contract::routes::POLICY_CHANGE_THANK_YOU,
        ]
        .iter()
        .any(|page| path == locale.page(page))
    });
    !(is_api(path)
        || path == "/healthz"
        || is_quote_thank_you
        || path.starts_with(contract::routes::LEAD_STATUS)
        || path.starts_with(contract::routes::LEAD_SUBMISSION)
        || path.starts_with(contract::routes::LEAD_DOCUMENTS))
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
