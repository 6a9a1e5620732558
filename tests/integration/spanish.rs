//! The Spanish pages the server answers with (issue 15): the not-found, blog not-found and bad-request pages under
//! `/es`, the no-JavaScript path in Spanish (the Spanish correction page with Spanish messages, 303s to the Spanish
//! thank-you pages, the Spanish quote thank-you page filled with its details token). These need the Spanish
//! prerendered files (`es/_errors/`, `es/_forms/`, `es/...`) that the web app's build embeds.

use rocket::http::Status;
use rocket::local::blocking::Client;

use crate::common;
use crate::common::forms::post_form;
use crate::leads::error_beside;

/// The embedded Spanish file, as text; fails the test when the web build did not make it.
fn spanish_file(name: &str) -> String {
    let file = embedded::file(name).unwrap_or_else(|| panic!("{name} is not embedded"));
    String::from_utf8_lossy(&file.data).into_owned()
}

fn is_spanish(html: &str) -> bool {
    html.contains("<html lang=\"es")
}

fn get(client: &Client, path: &str) -> (Status, String) {
    let response = client.get(path.to_string()).dispatch();
    (
        response.status(),
        response.into_string().unwrap_or_default(),
    )
}

const QUOTE_FORM: [(&str, &str); 9] = [
    ("name", "María López"),
    ("email", "maria@example.com"),
    ("phone", "555 210 0142"),
    ("company", "López Hauling"),
    ("insurance_type", "cargo"),
    ("vehicle_count", "2"),
    ("dot_number", "7654321"),
    ("consent", "true"),
    ("locale", "es"),
];

#[test]
fn the_spanish_error_pages_are_embedded_in_spanish() {
    for name in [
        "es/_errors/404.html",
        "es/_errors/blog-404.html",
        "es/_errors/400.html",
        "es/_errors/500.html",
        "es/_forms/quote.html",
        "es/_forms/contact.html",
        "es/_forms/coi.html",
        "es/_forms/details.html",
        "es/_forms/opt-out.html",
    ] {
        assert!(is_spanish(&spanish_file(name)), "{name} is not in Spanish");
    }
}

#[test]
fn unknown_paths_under_es_get_the_spanish_not_found_pages() {
    let client = common::client();
    let (status, html) = get(&client, "/es/no-such-page");
    assert_eq!(status, Status::NotFound);
    assert_eq!(html, spanish_file("es/_errors/404.html"));
    let (status, html) = get(&client, "/es/blog/no-such-post");
    assert_eq!(status, Status::NotFound);
    assert_eq!(html, spanish_file("es/_errors/blog-404.html"));
    // The English pages keep theirs.
    let (_, html) = get(&client, "/no-such-page");
    assert!(!is_spanish(&html));
    // The Spanish error and form files are never served by their own names.
    for path in ["/es/_errors/404.html", "/es/_forms/quote.html"] {
        let (status, html) = get(&client, path);
        assert_eq!(status, Status::NotFound, "{path}");
        assert_eq!(html, spanish_file("es/_errors/404.html"), "{path}");
    }
}

#[test]
fn a_bad_request_under_es_gets_the_spanish_400_page() {
    let client = common::client();
    let (status, html) = get(&client, "/es/%ff%fe");
    assert_eq!(status, Status::BadRequest);
    assert_eq!(html, spanish_file("es/_errors/400.html"));
}

#[test]
fn a_spanish_plain_form_with_mistakes_comes_back_as_the_spanish_correction_page() {
    let client = common::client();
    let mut form = QUOTE_FORM.to_vec();
    form[0] = ("name", "M");
    let (status, _, html) = post_form(&client, "/api/leads/quote", &form);
    assert_eq!(status, Status::UnprocessableEntity);
    assert!(is_spanish(&html), "{html}");
    assert_eq!(
        error_beside(&html, "name"),
        Some("El nombre debe tener al menos 2 caracteres")
    );
    assert!(html.contains("Corrija los campos marcados abajo."));
    assert!(
        html.contains("value=\"López Hauling\""),
        "what was typed is kept"
    );
}

#[test]
fn a_spanish_plain_quote_lands_on_the_spanish_thank_you_page_with_its_details_form() {
    let client = common::client();
    let (status, location, _) = post_form(&client, "/api/leads/quote", &QUOTE_FORM);
    assert_eq!(status, Status::SeeOther);
    let location = location.unwrap();
    let token = location
        .strip_prefix("/es/get-quote/thank-you?details=")
        .unwrap_or_else(|| panic!("{location}"))
        .to_string();
    let (status, page) = get(&client, &location);
    assert_eq!(status, Status::Ok);
    assert!(is_spanish(&page), "{page}");
    assert!(
        page.contains(&format!("name=\"details_token\" value=\"{token}\"")),
        "{page}"
    );
    let (status, page) = get(&client, "/es/get-quote/thank-you");
    assert_eq!(status, Status::Ok);
    assert!(is_spanish(&page));

    let details = [
        ("details_token", token.as_str()),
        ("radius", "local"),
        ("locale", "es"),
    ];
    let (status, location, _) = post_form(&client, "/api/leads/details", &details);
    assert_eq!(status, Status::SeeOther);
    assert_eq!(location.as_deref(), Some("/es/get-quote/details-received"));
    let (status, page) = get(&client, "/es/get-quote/details-received");
    assert_eq!(status, Status::Ok);
    assert!(is_spanish(&page));

    let contact = [
        ("name", "Luis Ortega"),
        ("email", "luis@example.com"),
        ("subject", "Certificado de seguro"),
        ("message", "Necesito un certificado para un cliente nuevo."),
        ("locale", "es"),
    ];
    let (status, location, _) = post_form(&client, "/api/leads/contact", &contact);
    assert_eq!(status, Status::SeeOther);
    assert_eq!(location.as_deref(), Some("/es/contact/thank-you"));
    let (status, page) = get(&client, "/es/contact/thank-you");
    assert_eq!(status, Status::Ok);
    assert!(is_spanish(&page));
}
