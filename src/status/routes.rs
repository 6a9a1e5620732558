//! The status links' routes: `GET /lead-status/<lead>/<status>?until=..&sig=..` shows what the link will do and
//! changes nothing (mail scanners open every link); `POST` to the same address makes the change. A tampered or
//! unknown link is 404, an expired one 410, and one address may try [`TRIES_PER_IP`] links per 10 minutes (429
//! after), so guessing is hopeless as well as slow. Every answer is `noindex`, sends no `Referer` and is not cached.

use rocket::fairing::AdHoc;
use rocket::http::{ContentType, Header, Status as HttpStatus};
use rocket::request::Request;
use rocket::response::{self, Responder, Response};
use rocket::{State, get, post};

use super::links::{Check, Signer};
use super::{Outcome, page};
use crate::client_ip::ClientIp;
use crate::leads::Leads;
use crate::leads::limits::RateLimiter;
use crate::leads::store::{self, ChangedBy, Status};

/// Links one client address may open or confirm per 10 minutes: a morning's leads worked by an office behind one
/// address, far from enough to guess a signature.
pub const TRIES_PER_IP: usize = 60;

/// What the routes share: the signer and the per-address limit.
pub struct StatusLinks {
    /// `None` when the key could not be read or made: the server still takes leads (their e-mail has no links),
    /// and a link answers 503.
    pub signer: Option<Signer>,
    per_ip: RateLimiter,
}

/// Makes (at the first start) or reads the links' key beside the database, and mounts the routes. After the leads'
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
        let signer = Signer::load_or_create(&settings.database, &base_url)
            .map_err(|error| {
                rocket::error!(
                    "{error}; the agency's e-mail goes without status links until it is fixed"
                )
            })
            .ok();
        Ok(rocket
            .manage(StatusLinks {
                signer,
                per_ip: RateLimiter::new(TRIES_PER_IP, std::time::Duration::from_secs(10 * 60)),
            })
            .mount("/", rocket::routes![show, confirm]))
    })
}

/// A page of the links, with its status and the headers every one of them carries.
pub struct LinkPage(HttpStatus, String);

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
    Ready {
        lead: Box<store::Lead>,
        to: Status,
        signature: String,
    },
    Refused(LinkPage),
}

async fn open(
    lead: &str,
    status: &str,
    until: Option<i64>,
    sig: Option<&str>,
    ip: ClientIp,
    links: &StatusLinks,
    leads: &Leads,
) -> Opened {
    if !links.per_ip.try_acquire(&ip.0.to_string()) {
        return Opened::Refused(LinkPage(HttpStatus::TooManyRequests, page::too_many()));
    }
    let Some(signer) = &links.signer else {
        return Opened::Refused(LinkPage(
            HttpStatus::ServiceUnavailable,
            page::unavailable(),
        ));
    };
    let invalid = || Opened::Refused(LinkPage(HttpStatus::NotFound, page::invalid()));
    let (Ok(id), Ok(to), Some(until), Some(signature)) =
        (lead.parse::<i64>(), status.parse::<Status>(), until, sig)
    else {
        return invalid();
    };
    match signer.check(id, to, until, signature, crate::clock::now_utc()) {
        Check::Invalid => return invalid(),
        Check::Expired => {
            return Opened::Refused(LinkPage(HttpStatus::Gone, page::expired(id)));
        }
        Check::Valid => {}
    }
    match read(leads, id).await {
        Ok(Some(lead)) => Opened::Ready {
            lead: Box::new(lead),
            to,
            signature: signature.to_string(),
        },
        Ok(None) => Opened::Refused(LinkPage(HttpStatus::NotFound, page::no_lead(id))),
        Err(()) => Opened::Refused(LinkPage(
            HttpStatus::ServiceUnavailable,
            page::unavailable(),
        )),
    }
}

async fn read(leads: &Leads, id: i64) -> Result<Option<store::Lead>, ()> {
    let pool = leads.pool.clone();
    rocket::tokio::task::spawn_blocking(move || {
        let connection = pool.get().map_err(|error| error.to_string())?;
        store::get(&connection, id).map_err(|error| error.to_string())
    })
    .await
    .map_err(|error| error.to_string())
    .and_then(|read| read)
    .map_err(|error| rocket::error!("status link: lead {id} could not be read: {error}"))
}

#[get("/lead-status/<lead>/<status>?<until>&<sig>")]
async fn show(
    lead: &str,
    status: &str,
    until: Option<i64>,
    sig: Option<&str>,
    ip: ClientIp,
    links: &State<StatusLinks>,
    leads: &State<Leads>,
) -> LinkPage {
    match open(lead, status, until, sig, ip, links, leads).await {
        Opened::Refused(page) => page,
        Opened::Ready {
            lead,
            to,
            signature,
        } => {
            // What a second use, or a lead already at the status, would say is said before the button, so nobody
            // confirms a link that would change nothing.
            let (used, since) = {
                let pool = leads.pool.clone();
                let (id, status) = (lead.id, lead.status);
                rocket::tokio::task::spawn_blocking(
                    move || -> Option<(Option<String>, Option<String>)> {
                        let connection = pool.get().ok()?;
                        Some((
                            super::link_used(&connection, &signature).ok()?,
                            super::since(&connection, id, status).ok()?,
                        ))
                    },
                )
                .await
                .ok()
                .flatten()
                .unwrap_or_default()
            };
            if let Some(at) = used {
                return LinkPage(HttpStatus::Ok, page::used(&lead, &at));
            }
            if lead.status == to {
                return LinkPage(HttpStatus::Ok, page::already(&lead, since.as_deref()));
            }
            let action = super::links::path_with(
                lead.id,
                to,
                until.unwrap_or_default(),
                sig.unwrap_or_default(),
            );
            LinkPage(HttpStatus::Ok, page::confirm(&lead, to, &action))
        }
    }
}

#[post("/lead-status/<lead>/<status>?<until>&<sig>")]
async fn confirm(
    lead: &str,
    status: &str,
    until: Option<i64>,
    sig: Option<&str>,
    ip: ClientIp,
    links: &State<StatusLinks>,
    leads: &State<Leads>,
) -> LinkPage {
    let (lead, to, signature) = match open(lead, status, until, sig, ip, links, leads).await {
        Opened::Refused(page) => return page,
        Opened::Ready {
            lead,
            to,
            signature,
        } => (lead, to, signature),
    };
    let id = lead.id;
    let pool = leads.pool.clone();
    let channels = leads.outbox.channels().to_vec();
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
    match made {
        Ok((Outcome::Changed { from, at }, Some(lead))) => {
            leads.outbox.wake();
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
    }
}
