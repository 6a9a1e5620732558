//! No broken links: a crawl from `/` follows every internal link and asset (redirects followed) and fails on any
//! that does not answer 200; every page in `sitemap.xml` must be reachable by following links.

use std::collections::{BTreeSet, VecDeque};

use rocket::http::Status;
use rocket::local::blocking::Client;

use crate::common;

/// Values of `href="..."` and `src="..."` in a page; `&amp;` decoded.
fn links(html: &str) -> Vec<String> {
    ["href=\"", "src=\""]
        .iter()
        .flat_map(|attribute| {
            html.split(attribute)
                .skip(1)
                .filter_map(|rest| rest.split('"').next())
        })
        .map(|link| link.replace("&amp;", "&"))
        .collect()
}

/// The site-relative path of a link, or None for other schemes, other origins and in-page anchors.
fn internal_path(link: &str, base_url: &str) -> Option<String> {
    let link = link.strip_prefix(base_url).unwrap_or(link);
    if !link.starts_with('/') || link.starts_with("//") {
        return None;
    }
    let path = link.split('#').next().unwrap_or("");
    (!path.is_empty()).then(|| path.to_string())
}

fn fetch(client: &Client, path: &str) -> (Status, String, String) {
    let mut path = path.to_string();
    for _ in 0..5 {
        let response = client.get(path.clone()).dispatch();
        if response.status().class().is_redirection() {
            path = response
                .headers()
                .get_one("Location")
                .expect("a redirect has a Location")
                .to_string();
            continue;
        }
        let status = response.status();
        return (status, path, response.into_string().unwrap_or_default());
    }
    panic!("redirect loop at {path}");
}

#[test]
fn every_internal_link_answers_200_and_every_page_is_reachable() {
    let client = common::client();
    let site: toml::Table =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/content/facts.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let base_url = site["base_url"].as_str().unwrap();

    let mut seen = BTreeSet::from(["/".to_string()]);
    let mut pages = BTreeSet::new();
    let mut queue = VecDeque::from(["/".to_string()]);
    let mut broken = Vec::new();
    while let Some(path) = queue.pop_front() {
        let (status, final_path, body) = fetch(&client, &path);
        if status != Status::Ok {
            broken.push(format!("{path} -> {status}"));
            continue;
        }
        let is_page = body.starts_with("<!doctype html>");
        if !is_page {
            continue;
        }
        pages.insert(final_path.split('?').next().unwrap_or("").to_string());
        for link in links(&body) {
            if let Some(target) = internal_path(&link, base_url)
                && seen.insert(target.clone())
            {
                queue.push_back(target);
            }
        }
    }
    assert!(
        broken.is_empty(),
        "broken internal links:\n{}",
        broken.join("\n")
    );

    let listed = common::sitemap_paths(&client);
    let unreachable: Vec<&String> = listed
        .iter()
        .filter(|path| !pages.contains(*path))
        .collect();
    assert!(
        unreachable.is_empty(),
        "in sitemap.xml but not reachable by links: {unreachable:?}"
    );
    println!(
        "crawled {} URLs, {} pages; sitemap lists {}",
        seen.len(),
        pages.len(),
        listed.len()
    );
    assert!(pages.len() >= listed.len());
}
