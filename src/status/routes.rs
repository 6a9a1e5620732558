//! The status links' routes: `GET /lead-status/<lead>/<status>?until=..&sig=..` shows what the link will do and
//! changes nothing (mail scanners open every link); `POST` to the same address makes the change. A tampered or
//! unknown link is 404, an expired one 410, and one address (an IPv6 /64 counting as one) may try [`TRIES_PER_IP`]
//! links per 10 minutes (429 with `Retry-After` after), so guessing is hopeless as well as slow. A link's values are
//! read only as the server spells them ([`Link::parse`]): any other spelling is the same 404 as a bad signature;
//! parameters added to it (a mail provider's click tracking) are ignored. Every answer is `noindex`, sends no
//! `Referer` and is not cached.

use rocket::fairing::AdHoc;
use rocket::http::uri::Origin;
use rocket::http::{ContentType, Header, Status as HttpStatus};
use rocket::request::Request;
use rocket::response::{self, Responder, Response};
use rocket::{State, get, post};

use super::{Outcome, page};
use crate::client_ip::ClientIp;
use crate::limits::{RateLimiter, RetryAfter};
use crate::links::{Check, Link, Signer};
use crate::notify::Outbox;
use crate::store::{self, ChangedBy};

/// Links one client address may open or confirm per 10 minutes: a morning's leads worked by an office behind one
/// address, far from enough to guess a signature.
pub const TRIES_PER_IP: usize = 60;

/// What the routes share: the signer and the per-address limit.
pub struct StatusLinks {
    /// `None` when the key could not be read or made: the server still takes leads (their e-mail has no links),
    /// and a link answers 503.
    pub signer: Option<Signer>,
    per_ip: RateLimiter,
    /// The leads database and the outbox (the webhook's news of a change), from the leads' stage.
    pool: store::DbPool,
    outbox: Outbox,
}

/// Makes (at the first start) or reads the links' key in the database, and mounts the routes. After the leads'
/// stage, whose pool the routes use.
pub fn stage() -> AdHoc {
    AdHoc::try_on_ignite("Status links", |rocket| async {
        let Some(settings) = rocket.state::<crate::config::Settings>().cloned() else {
            rocket::error!("the status links need the settings managed as state");
            return Err(rocket);
        };
        let base_url = settings
            .base_url
            .clone()
            .unwrap_or_else(|| crate::site::build_base_url().trim().to_string());
        // Without its key the site still serves and takes leads (a read-only database is answered 503 by the
        // leads' own checks): a lead is never refused for want of a link.
        let (Some(pool), Some(outbox)) = (
            rocket.state::<store::DbPool>().cloned(),
            rocket.state::<Outbox>().cloned(),
        ) else {
            rocket::error!("the status links need the leads' stage first");
            return Err(rocket);
        };
        let database = settings.database.clone();
        let key_pool = pool.clone();
        let key = rocket::tokio::task::spawn_blocking(move || {
            let connection = key_pool.get().map_err(|error| error.to_string())?;
            let _writer = crate::store::writer();
            crate::links::key::load_or_create(&connection, &database)
        })
        .await
        .map_err(|error| error.to_string())
        .and_then(|made| made);
        let signer = key
            .map(|key| Signer::with_key(&key, &base_url))
            .map_err(|error| {
                rocket::error!(
                    "{error}; the agency's e-mail goes without status links until it is fixed"
                )
            })
            .ok();
        Ok(rocket
            .manage(crate::links::Installed(signer.clone()))
            .manage(StatusLinks {
                signer,
                per_ip: RateLimiter::new(TRIES_PER_IP, std::time::Duration::from_secs(10 * 60)),
                pool,
                outbox,
            })
            .mount("/", rocket::routes![show, confirm]))
    })
}

/// A page of the links, with its status and the headers every one of them carries.
pub struct LinkPage(HttpStatus, String);

/// A page of the links, or the refusal of too many tries with when to try again.
pub enum LinkAnswer {
    Page(LinkPage),
    TooMany(RetryAfter),
}

impl From<LinkPage> for LinkAnswer {
    fn from(page: LinkPage) -> LinkAnswer {
        LinkAnswer::Page(page)
    }
}

impl<'r> Responder<'r, 'static> for LinkAnswer {
    fn respond_to(self, request: &'r Request<'_>) -> response::Result<'static> {
        match self {
            LinkAnswer::Page(page) => page.respond_to(request),
            LinkAnswer::TooMany(wait) => {
                let mut response =
                    LinkPage(HttpStatus::TooManyRequests, page::too_many()).respond_to(request)?;
                response.set_header(wait.header());
                Ok(response)
            }
        }
    }
}

impl<'r> Responder<'r, 'static> for LinkPage {
    fn respond_to(self, _: &'r Request<'_>) -> response::Result<'static> {
        let LinkPage(status, html) = self;
        Ok(Response::build()
            .status(status)
            .header(ContentType::HTML)
            .header(Header::new("Cache-Control", "no-store"))
            .header(Header::new("X-Robots-Tag", "noindex, nofollow"))
            // Kept by the security headers' fairing (src/security.rs), which sets the site's own otherwise.
            .header(Header::new("Referrer-Policy", "no-referrer"))
            .header(Header::new(
                "Content-Security-Policy",
                page::CONTENT_SECURITY_POLICY.as_str(),
            ))
            .sized_body(html.len(), std::io::Cursor::new(html))
            .finalize())
    }
}

/// A link as it came: checked, and the lead it names read.
enum Opened {
    Ready { lead: Box<store::Lead>, link: Link },
    Refused(LinkAnswer),
}

async fn open(uri: &Origin<'_>, ip: ClientIp, links: &StatusLinks) -> Opened {
    // Counted by the network an address belongs to, as the other limits are: one IPv6 machine holds a /64, and
    // counting each of its addresses apart would give it billions of tries.
    if let Err(wait) = links.per_ip.acquire(&crate::client_ip::rate_key(ip.0)) {
        return Opened::Refused(LinkAnswer::TooMany(wait));
    }
    let refused = |status, html| Opened::Refused(LinkPage(status, html).into());
    let Some(signer) = &links.signer else {
        return refused(HttpStatus::ServiceUnavailable, page::unavailable());
    };
    let Some(link) = Link::parse(uri.path().as_str(), uri.query().map(|query| query.as_str()))
    else {
        return refused(HttpStatus::NotFound, page::invalid());
    };
    match signer.check(&link, crate::clock::now_utc()) {
        Check::Invalid => return refused(HttpStatus::NotFound, page::invalid()),
        Check::Expired => return refused(HttpStatus::Gone, page::expired(link.lead)),
        Check::Valid => {}
    }
    match read(&links.pool, link.lead).await {
        Ok(Some(lead)) => Opened::Ready {
            lead: Box::new(lead),
            link,
        },
        Ok(None) => refused(HttpStatus::NotFound, page::no_lead(link.lead)),
        Err(()) => refused(HttpStatus::ServiceUnavailable, page::unavailable()),
    }
}

async fn read(pool: &store::DbPool, id: i64) -> Result<Option<store::Lead>, ()> {
    let pool = pool.clone();
    rocket::tokio::task::spawn_blocking(move || {
        let connection = pool.get().map_err(|error| error.to_string())?;
        store::get(&connection, id).map_err(|error| error.to_string())
    })
    .await
    .map_err(|error| error.to_string())
    .and_then(|read| read)
    .map_err(|error| rocket::error!("status link: lead {id} could not be read: {error}"))
}

/// The lead and status segments (ignored, `<_>`) are only there for routing: the link is read from the URI as it came.
#[get("/lead-status/<_>/<_>")]
async fn show(uri: &Origin<'_>, ip: ClientIp, links: &State<StatusLinks>) -> LinkAnswer {
    match open(uri, ip, links).await {
        Opened::Refused(answer) => answer,
        Opened::Ready { lead, link } => {
            // What a second use, or a lead already at the status, would say is said before the button, so nobody
            // confirms a link that would change nothing.
            let (used, since) = {
                let pool = links.pool.clone();
                let (id, status) = (lead.id, lead.status);
                let signature = link.signature.clone();
                rocket::tokio::task::spawn_blocking(
                    move || -> Option<(Option<String>, Option<String>)> {
                        let connection = pool.get().ok()?;
                        Some((
                            super::link_used(&connection, id, &signature).ok()?,
                            super::since(&connection, id, status).ok()?,
                        ))
                    },
                )
                .await
                .ok()
                .flatten()
                .unwrap_or_default()
            };
            let page = if let Some(at) = used {
                page::used(&lead, &at)
            } else if lead.status == link.status {
                page::already(&lead, since.as_deref())
            } else {
                page::confirm(&lead, link.status, &link.path())
            };
            LinkPage(HttpStatus::Ok, page).into()
        }
    }
}

#[post("/lead-status/<_>/<_>")]
async fn confirm(uri: &Origin<'_>, ip: ClientIp, links: &State<StatusLinks>) -> LinkAnswer {
    let (lead, link) = match open(uri, ip, links).await {
        Opened::Refused(answer) => return answer,
        Opened::Ready { lead, link } => (lead, link),
    };
    let to = link.status;
    let signature = link.signature;
    let id = lead.id;
    let pool = links.pool.clone();
    let channels = links.outbox.channels().to_vec();
    let made = rocket::tokio::task::spawn_blocking(move || -> Result<_, String> {
        let connection = pool.get().map_err(|error| error.to_string())?;
        let outcome = super::change(
            &connection,
            id,
            to,
            ChangedBy::Link,
            Some(&signature),
            &channels,
        )
        .map_err(|error| error.to_string())?;
        let lead = store::get(&connection, id).map_err(|error| error.to_string())?;
        Ok((outcome, lead))
    })
    .await
    .map_err(|error| error.to_string())
    .and_then(|made| made);
    let page = match made {
        Ok((Outcome::Changed { from, at }, Some(lead))) => {
            links.outbox.wake();
            rocket::info!("lead {id}: {from} -> {to} by a status link");
            LinkPage(HttpStatus::Ok, page::changed(&lead, from, &at))
        }
        Ok((Outcome::Already { since }, Some(lead))) => {
            LinkPage(HttpStatus::Ok, page::already(&lead, since.as_deref()))
        }
        Ok((Outcome::LinkUsed { at, .. }, Some(lead))) => {
            LinkPage(HttpStatus::Ok, page::used(&lead, &at))
        }
        Ok((Outcome::NoLead, _) | (_, None)) => LinkPage(HttpStatus::NotFound, page::no_lead(id)),
        Err(error) => {
            rocket::error!("status link: lead {id} could not be changed: {error}");
            LinkPage(HttpStatus::ServiceUnavailable, page::unavailable())
        }
    };
    page.into()
}
