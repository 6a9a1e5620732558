//! What a client sees when a request fails: branded HTML pages for people, JSON under `/api` for programs.
//! Catchers decide only the presentation; the status comes from the route or from Rocket itself.

use rocket::http::Status;
use rocket::serde::json::{Json, Value, json};
use rocket::{Catcher, Request};

use crate::site::{ErrorPage, Negotiation, Overlay, SiteResponse};

fn page_for(status: Status, request: &Request<'_>) -> ErrorPage {
    match status.code {
        404 => crate::site::not_found_page(request.uri().path().as_str()),
        500.. => ErrorPage::ServerError,
        _ => ErrorPage::BadRequest,
    }
}

#[rocket::catch(default)]
fn html_error(status: Status, request: &Request<'_>) -> SiteResponse {
    if status.code >= 500 {
        rocket::error!("{} {} answered {status}", request.method(), request.uri());
    }
    let negotiation = Negotiation::from_headers(request);
    let none = Overlay::default();
    let overlay = request.rocket().state::<Overlay>().unwrap_or(&none);
    SiteResponse::error(status, page_for(status, request), &negotiation, overlay)
}

#[rocket::catch(default)]
fn json_error(status: Status, request: &Request<'_>) -> (Status, Json<Value>) {
    if status.code >= 500 {
        rocket::error!("{} {} answered {status}", request.method(), request.uri());
    }
    (status, Json(json_error_body(status)))
}

/// The JSON a program gets for a failed request under `/api`: the status's reason and what to do about it.
pub fn json_error_body(status: Status) -> Value {
    let message = match status.code {
        400 => "The request could not be read. Send a JSON object.",
        404 => "There is nothing at this address.",
        405 => "This address does not accept that method.",
        413 => "The request body is too large.",
        415 => "Send the request as application/json.",
        422 => "The request body has the wrong shape.",
        429 => "Too many requests. Please wait and try again.",
        500.. => "Something went wrong on our side. Please try again later.",
        _ => "The request could not be handled.",
    };
    json!({ "error": status.reason_lossy(), "message": message })
}

pub fn html_catchers() -> Vec<Catcher> {
    rocket::catchers![html_error]
}

pub fn json_catchers() -> Vec<Catcher> {
    rocket::catchers![json_error]
}
