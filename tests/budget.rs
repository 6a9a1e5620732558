//! Byte budgets: what the home page costs a visitor, as sent with brotli. Deterministic (the bytes of this build),
//! so a budget can be a test; the figures are printed for the record (`cargo test --test budget -- --nocapture`).

mod common;

use rocket::http::{Header, Status};
use rocket::local::blocking::Client;

const JS_BUDGET: usize = 80 * 1024;
const CSS_BUDGET: usize = 15 * 1024;

/// Bytes of `path` as sent to a browser that accepts brotli.
fn sent_bytes(client: &Client, path: &str) -> usize {
    let response = client
        .get(path.to_string())
        .header(Header::new("Accept-Encoding", "br, gzip"))
        .dispatch();
    assert_eq!(response.status(), Status::Ok, "{path}");
    response.into_bytes().unwrap().len()
}

/// The values of `attribute` on tags that contain `marker`.
fn references(html: &str, marker: &str, attribute: &str) -> Vec<String> {
    html.split('<')
        .filter(|tag| tag.contains(marker))
        .filter_map(|tag| {
            tag.split(&format!("{attribute}=\""))
                .nth(1)?
                .split('"')
                .next()
                .map(str::to_string)
        })
        .collect()
}

#[test]
fn home_page_stays_within_its_byte_budget() {
    let client = common::client();
    let html = client.get("/").dispatch().into_string().unwrap();
    let html_bytes = sent_bytes(&client, "/");
    let mut scripts = references(&html, "type=\"module\"", "src");
    scripts.extend(references(&html, "rel=\"modulepreload\"", "href"));
    let styles = references(&html, "rel=\"stylesheet\"", "href");
    assert!(!scripts.is_empty() && !styles.is_empty());
    let js: usize = scripts.iter().map(|s| sent_bytes(&client, s)).sum();
    let css: usize = styles.iter().map(|s| sent_bytes(&client, s)).sum();
    println!(
        "home page as sent (brotli): HTML {html_bytes} B, CSS {css} B, JS {js} B in {} files",
        scripts.len()
    );
    assert!(
        js < JS_BUDGET,
        "JavaScript {js} B is over the {JS_BUDGET} B budget"
    );
    assert!(
        css < CSS_BUDGET,
        "CSS {css} B is over the {CSS_BUDGET} B budget"
    );
}
