//! What a client sees when a request fails: one [`ClientError`] (a status and the words a client may see) for every
//! API and page error, shown as JSON under `/api` for programs and as the branded HTML page for people.
//! Catchers decide only the presentation; the status comes from the route or from Rocket itself. Whatever else
//! is known about a failure (paths, SQL, the underlying error) goes to the log, never to the client.

use std::borrow::Cow;

use contract::answers::by_status;
use contract::locale::Locale;
use rocket::http::{ContentType, Status};
use rocket::response::{self, Responder, Response};
use rocket::serde::json::{Value, json};
use rocket::{Catcher, Request};

use crate::limits::RetryAfter;
use crate::site::{ErrorPage, Negotiation, Overlay, SiteResponse};

/// A failed request as its client is told about it: the status, a short title (the status's reason unless said
/// otherwise) and a message saying what to do.
#[derive(Debug, Clone)]
pub struct ClientError {
    pub status: Status,
    title: &'static str,
    message: Cow<'static, str>,
    /// For a 429: when the limit lets the client in again, sent as `Retry-After`.
    retry_after: Option<RetryAfter>,
}

impl ClientError {
    /// A failure with its own message.
    pub fn new(status: Status, message: impl Into<Cow<'static, str>>) -> Self {
        ClientError {
            status,
            title: status.reason_lossy(),
            message: message.into(),
            retry_after: None,
        }
    }

    /// A failure known only by its status: the status's reason and what to do about it.
    pub fn for_status(status: Status) -> Self {
        ClientError::for_status_in(status, Locale::En)
    }

    /// [`for_status`](Self::for_status), its message in `locale` (the title stays English: programs read it).
    pub fn for_status_in(status: Status, locale: Locale) -> Self {
        let message = match status.code {
            400 => by_status::BAD_REQUEST,
            404 => by_status::NOT_FOUND,
            405 => by_status::METHOD_NOT_ALLOWED,
            413 => by_status::TOO_LARGE,
            415 => by_status::UNSUPPORTED,
            422 => by_status::WRONG_SHAPE,
            429 => by_status::TOO_MANY,
            500.. => by_status::SERVER,
            _ => by_status::OTHER,
        };
        ClientError::new(status, locale.text(message))
    }

    /// The same failure under another title (the error catalogue's "Too Many Attempts", say).
    pub fn titled(self, title: &'static str) -> Self {
        ClientError { title, ..self }
    }

    /// The same failure, telling the client when to try again (a rate limit's refusal).
    pub fn retry_after(self, wait: RetryAfter) -> Self {
        ClientError {
            retry_after: Some(wait),
            ..self
        }
    }

    /// The JSON a program gets: `{"error": title, "message": message}`.
    pub fn to_json(&self) -> Value {
        json!({ "error": self.title, "message": self.message })
    }

    /// The page a person gets for this failure's status.
    pub fn page(&self, request: &Request<'_>) -> SiteResponse {
        let page = match self.status.code {
            404 => crate::site::not_found_page(request.uri().path().as_str()),
            500.. => ErrorPage::ServerError,
            _ => ErrorPage::BadRequest,
        };
        let negotiation = Negotiation::from_headers(request);
        let none = Overlay::default();
        let overlay = request.rocket().state::<Overlay>().unwrap_or(&none);
        let path = request.uri().path();
        SiteResponse::error(self.status, page, path.as_str(), &negotiation, overlay)
    }
}

/// As JSON, with the failure's status.
impl<'r> Responder<'r, 'static> for ClientError {
    fn respond_to(self, _: &'r Request<'_>) -> response::Result<'static> {
        let body = self.to_json().to_string();
        let mut response = Response::build();
        response
            .status(self.status)
            .header(ContentType::JSON)
            .sized_body(body.len(), std::io::Cursor::new(body));
        if let Some(wait) = self.retry_after {
            response.header(wait.header());
        }
        response.ok()
    }
}

fn log_server_error(status: Status, request: &Request<'_>) {
    if status.code >= 500 {
        rocket::error!("{} {} answered {status}", request.method(), request.uri());
    }
}

#[rocket::catch(default)]
fn html_error(status: Status, request: &Request<'_>) -> SiteResponse {
    log_server_error(status, request);
    ClientError::for_status(status).page(request)
}

/// In the language of the page that sent the request, as far as its `Referer` tells (an API request's own body
/// may not have been read).
#[rocket::catch(default)]
fn json_error(status: Status, request: &Request<'_>) -> ClientError {
    log_server_error(status, request);
    let referer = request.headers().get_one("Referer");
    ClientError::for_status_in(status, of_referer(referer))
}

pub fn html_catchers() -> Vec<Catcher> {
    rocket::catchers![html_error]
}

pub fn json_catchers() -> Vec<Catcher> {
    rocket::catchers![json_error]
}
/// The language of the page at the address in a `Referer` header; English without one.
pub fn of_referer(referer: Option<&str>) -> Locale {
    let Some(address) = referer else {
        return Locale::En;
    };
    // `https://host/es/get-quote?x` -> `/es/get-quote` (an address that is not a URI is no page of ours).
    let Ok(uri) = address.parse::<hyper::Uri>() else {
        return Locale::En;
    };
    let path = uri.path();
    Locale::of_path(path).0
}
