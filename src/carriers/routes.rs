//! `GET /api/carriers/<dot>`: one carrier of the census as JSON, for the quote form's "Is this your company?".
//! 400 for a DOT number that is not 1-8 digits, 404 for one the census lacks (`"census": true`) or when no census is
//! imported (`"census": false`), 429 once an
//! address has looked up `carrier_lookup_limit` numbers in 10 minutes: a visitor types one or two, a scraper
//! wants thousands. Never the census's phone, e-mail or street: they are not even stored.

use std::sync::Arc;

use rocket::fairing::AdHoc;
use rocket::http::{ContentType, Header, Status};
use rocket::response::{self, Responder, Response};
use rocket::{Request, State, get};

use super::{Carrier, Census, CensusError, parse_dot};
use crate::client_ip::ClientIp;
use crate::config::Settings;
use crate::errors::ClientError;
use crate::limits::RateLimiter;

/// The window of the per-IP lookup limit.
const WINDOW: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// What the carrier route shares.
pub struct Carriers {
    census: Arc<Census>,
    per_ip: RateLimiter,
    limit: usize,
}

pub fn stage() -> AdHoc {
    AdHoc::try_on_ignite("Carriers", |rocket| async {
        let Some(settings) = rocket.state::<Settings>() else {
            rocket::error!("the carrier lookup needs the settings managed as state");
            return Err(rocket);
        };
        let path = settings.carriers_database();
        if !path.exists() {
            rocket::info!(
                "no carrier census at {} yet: DOT lookups answer 404 until `truckins carriers import`",
                path.display()
            );
        }
        let carriers = Carriers {
            census: Arc::new(Census::new(path)),
            per_ip: RateLimiter::new(settings.carrier_lookup_limit, WINDOW),
            limit: settings.carrier_lookup_limit,
        };
        Ok(rocket
            .manage(carriers)
            .mount(contract::routes::CARRIERS_API, rocket::routes![lookup]))
    })
}

/// A found carrier: JSON the browser may keep a few minutes (the census changes only with an import), so a visitor
/// going back and forth does not spend lookups.
pub struct Found(Carrier);

impl<'r> Responder<'r, 'static> for Found {
    fn respond_to(self, _: &'r Request<'_>) -> response::Result<'static> {
        let body = serde_json::to_string(&self.0).map_err(|_| Status::InternalServerError)?;
        Response::build()
            .header(ContentType::JSON)
            .header(Header::new("Cache-Control", "private, max-age=300"))
            .sized_body(body.len(), std::io::Cursor::new(body))
            .ok()
    }
}

/// A lookup that found no carrier: a 404 whose JSON says, in `census`, whether a census is in place at all. Without
/// one, no number will be found, and the quote form stops asking for the rest of the page view.
pub struct NotFound {
    census: bool,
}

impl<'r> Responder<'r, 'static> for NotFound {
    fn respond_to(self, _: &'r Request<'_>) -> response::Result<'static> {
        let mut body =
            ClientError::new(Status::NotFound, "No carrier has this DOT number.").to_json();
        body["census"] = self.census.into();
        let body = body.to_string();
        Response::build()
            .status(Status::NotFound)
            .header(ContentType::JSON)
            .sized_body(body.len(), std::io::Cursor::new(body))
            .ok()
    }
}

/// What a lookup answers.
#[derive(rocket::Responder)]
pub enum Answer {
    Found(Found),
    NotFound(NotFound),
    Refused(ClientError),
}

#[get("/<dot>")]
async fn lookup(dot: &str, ip: ClientIp, carriers: &State<Carriers>) -> Answer {
    match find(dot, ip, carriers).await {
        Ok(Some(carrier)) => Answer::Found(Found(carrier)),
        Ok(None) => Answer::NotFound(NotFound { census: true }),
        Err(None) => Answer::NotFound(NotFound { census: false }),
        Err(Some(error)) => Answer::Refused(error),
    }
}

/// The carrier, `None` when the census lacks it; `Err(None)` when there is no census, or why the lookup failed.
async fn find(
    dot: &str,
    ip: ClientIp,
    carriers: &Carriers,
) -> Result<Option<Carrier>, Option<ClientError>> {
    let Some(dot) = parse_dot(dot) else {
        return Err(Some(ClientError::new(
            Status::BadRequest,
            "A DOT number is 1 to 8 digits.",
        )));
    };
    if let Err(wait) = carriers.per_ip.acquire(&crate::client_ip::rate_key(ip.0)) {
        rocket::warn!(
            "rate limit: {} carrier lookups per 10 minutes reached by {}",
            carriers.limit,
            ip.0
        );
        return Err(Some(
            ClientError::new(
                Status::TooManyRequests,
                "Too many DOT lookups. Please wait a few minutes and try again.",
            )
            .titled("Too Many Attempts")
            .retry_after(wait),
        ));
    }
    let census = Arc::clone(&carriers.census);
    let found = rocket::tokio::task::spawn_blocking(move || census.find(dot)).await;
    match found {
        Ok(Ok(found)) => Ok(found),
        Ok(Err(CensusError::Missing(_))) => Err(None),
        Ok(Err(error)) => {
            rocket::error!("carrier lookup failed: {error}");
            Err(Some(ClientError::for_status(Status::ServiceUnavailable)))
        }
        Err(error) => {
            rocket::error!("carrier lookup failed, task failed: {error}");
            Err(Some(ClientError::for_status(Status::InternalServerError)))
        }
    }
}
