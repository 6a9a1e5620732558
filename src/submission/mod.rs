//! The agency's one page of a quote's whole submission (issue 39), `GET /lead-submission/<lead>?until=..&sig=..`:
//! the contact, the census record, the details, the vehicle and driver schedules, the losses with their total and the
//! documents, each linked by its own signed `GET /lead-documents/<lead>/<document>?until=..&sig=..` that answers the
//! bytes as uploaded, as a download. The links are signed like the status links (src/links/submission.rs) and come in
//! the agency's e-mail: anything not signed by us (tampered with, cut short, another lead's) is the site's 404, as an
//! unknown address; an expired link is 410 and says what to run instead. One address (an IPv6 /64 counting as one)
//! may try [`TRIES_PER_IP`] links per 10 minutes (429 with `Retry-After` after). Nothing here is indexed, cached or
//! followed by a `Referer`; the page has its own Content-Security-Policy and no script.

mod answer;
pub mod page;

use rocket::fairing::AdHoc;
use rocket::http::Status;
use rocket::http::uri::Origin;
use rocket::{State, get};

use crate::client_ip::ClientIp;
use crate::limits::RateLimiter;
use crate::links::submission::SubmissionLink;
use crate::links::{Check, Signer};
use crate::store::{self, documents};
pub use answer::{Answer, disposition};

/// Links one client address may open per 10 minutes (a page and its documents each count): a morning's work of an
/// office behind one address, far from enough to guess a signature.
pub const TRIES_PER_IP: usize = 60;

/// What the routes share.
struct Submissions {
    /// The installation's signer (from the status links' stage); `None` when its key could not be read or made.
    signer: Option<Signer>,
    per_ip: RateLimiter,
    pool: store::DbPool,
}

/// Mounts the routes, with the signer the status links' stage made: attached after it (and the leads' stage, whose
/// pool it reads).
pub fn stage() -> AdHoc {
    AdHoc::try_on_ignite("Submission pages", |rocket| async {
        let (Some(pool), Some(installed)) = (
            rocket.state::<store::DbPool>().cloned(),
            rocket.state::<crate::links::Installed>().cloned(),
        ) else {
            rocket::error!(
                "the submission pages need the leads' and the status links' stages first"
            );
            return Err(rocket);
        };
        Ok(rocket
            .manage(Submissions {
                signer: installed.0,
                per_ip: RateLimiter::new(TRIES_PER_IP, std::time::Duration::from_secs(10 * 60)),
                pool,
            })
            .mount("/", rocket::routes![submission, document]))
    })
}

/// A link as it came, checked: the signer that checked it and the link, or the answer refusing it.
fn open(
    link: Option<SubmissionLink>,
    ip: ClientIp,
    room: &Submissions,
) -> Result<(Signer, SubmissionLink), Answer> {
    // Counted by the network an address belongs to, as the status links' tries are.
    room.per_ip
        .acquire(&crate::client_ip::rate_key(ip.0))
        .map_err(Answer::TooMany)?;
    let Some(signer) = &room.signer else {
        return Err(Answer::Page(
            Status::ServiceUnavailable,
            page::unavailable(),
        ));
    };
    let link = link.ok_or(Answer::NotFound)?;
    match signer.check_submission(&link, crate::clock::now_utc()) {
        Check::Invalid => Err(Answer::NotFound),
        Check::Expired => Err(Answer::Page(Status::Gone, page::expired(link.lead))),
        Check::Valid => Ok((signer.clone(), link)),
    }
}

/// Runs `read` on a connection of the pool, off the async threads; `None` (logged) when the database failed.
async fn read<T: Send + 'static>(
    pool: &store::DbPool,
    read: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T> + Send + 'static,
) -> Option<T> {
    let pool = pool.clone();
    rocket::tokio::task::spawn_blocking(move || {
        let connection = pool.get().map_err(|error| error.to_string())?;
        read(&connection).map_err(|error| error.to_string())
    })
    .await
    .map_err(|error| error.to_string())
    .and_then(|read| read)
    .map_err(|error| rocket::error!("submission page: the database could not be read: {error}"))
    .ok()
}

/// The lead segment (ignored, `<_>`) is there for routing: the link is read from the URI as it came.
#[get("/lead-submission/<_>")]
async fn submission(uri: &Origin<'_>, ip: ClientIp, room: &State<Submissions>) -> Answer {
    let link = SubmissionLink::parse_page(uri.path().as_str(), uri.query().map(|q| q.as_str()));
    let (signer, link) = match open(link, ip, room) {
        Ok(opened) => opened,
        Err(answer) => return answer,
    };
    let id = link.lead;
    let found = read(&room.pool, move |connection| {
        let Some(lead) = store::get(connection, id)? else {
            return Ok(None);
        };
        Ok(Some((lead, documents::list(connection, id)?)))
    })
    .await;
    match found {
        None => Answer::Page(Status::ServiceUnavailable, page::unavailable()),
        Some(None) => Answer::Page(Status::NotFound, page::no_lead(id)),
        Some(Some((lead, documents))) => {
            let listed: Vec<page::Listed<'_>> = documents
                .iter()
                .map(|document| page::Listed {
                    document,
                    path: signer.document_path(id, document.id, link.until),
                })
                .collect();
            let until = time::OffsetDateTime::from_unix_timestamp(link.until)
                .ok()
                .and_then(|until| {
                    until
                        .format(&time::format_description::well_known::Rfc3339)
                        .ok()
                })
                .map(|until| crate::clock::readable(&until))
                .unwrap_or_default();
            Answer::Page(Status::Ok, page::submission(&lead, &listed, &until))
        }
    }
}

#[get("/lead-documents/<_>/<_>")]
async fn document(uri: &Origin<'_>, ip: ClientIp, room: &State<Submissions>) -> Answer {
    let link = SubmissionLink::parse_document(uri.path().as_str(), uri.query().map(|q| q.as_str()));
    let (_, link) = match open(link, ip, room) {
        Ok(opened) => opened,
        Err(answer) => return answer,
    };
    let (lead, id) = (link.lead, link.document.unwrap_or_default());
    match read(&room.pool, move |connection| {
        documents::get(connection, lead, id)
    })
    .await
    {
        None => Answer::Page(Status::ServiceUnavailable, page::unavailable()),
        // Erased with its lead, or never this lead's: as any unknown address.
        Some(None) => Answer::NotFound,
        Some(Some((document, bytes))) => Answer::File {
            name: document.file_name,
            media_type: document.media_type,
            bytes,
        },
    }
}

#[cfg(test)]
mod tests;
