//! Plain form posts, as a browser without JavaScript sends them: the body's encoding, and a post answered with its
//! status, its redirect and its page.

use rocket::http::{ContentType, Status};
use rocket::local::blocking::Client;

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
