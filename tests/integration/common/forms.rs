//! Posting the forms: as JSON, as the web app's islands do (answered with a status and a JSON value), and as a
//! browser without JavaScript does (the body's encoding, and the answer's status, redirect and page).

use rocket::http::{ContentType, Status};
use rocket::local::blocking::Client;
use serde_json::Value;

/// `application/x-www-form-urlencoded` encoding of the pairs (UTF-8, every byte but letters and digits escaped).
pub fn form_encode(pairs: &[(&str, &str)]) -> String {
    let encode = |text: &str| {
        percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string()
    };
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Posts the pairs as a form to `path`: the answer's status, its `Location` and its body.
pub fn post_form(
    client: &Client,
    path: &str,
    pairs: &[(&str, &str)],
) -> (Status, Option<String>, String) {
    let response = client
        .post(path.to_string())
        .header(ContentType::Form)
        .body(form_encode(pairs))
        .dispatch();
    let location = response.headers().get_one("Location").map(str::to_string);
    (
        response.status(),
        location,
        response.into_string().unwrap_or_default(),
    )
}

/// Posts `body` as JSON to `path`: the answer's status and its JSON (`Null` when the body is not JSON).
pub fn post_json(client: &Client, path: &str, body: &Value) -> (Status, Value) {
    let response = client
        .post(path.to_string())
        .header(ContentType::JSON)
        .body(body.to_string())
        .dispatch();
    let status = response.status();
    let text = response.into_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}
