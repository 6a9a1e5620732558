//! Byte budgets: what each kind of page costs a visitor, as sent with brotli. Deterministic (the bytes of this
//! build), so a budget can be a test; the figures are printed for the record
//! (`cargo test --test integration budget:: -- --nocapture`).
//!
//! A page's script is what its browser will load: the entry and what it imports statically, and on a page with
//! islands also what the entry imports dynamically for them (React, the hydration module, the islands' chunks and
//! their imports), found by following the `./chunk.js` references in the built chunks. An island's chunk counts
//! only on the pages that have that island. (tests that a page without islands loads no React in a real browser:
//! web/e2e/layout.spec.ts)

use std::collections::{BTreeSet, HashMap};

use rocket::http::{Header, Status};
use rocket::local::blocking::Client;

use crate::common;

/// Pages with a form or the blog explorer: React, the hydration module and their islands.
const ISLAND_PAGE_JS_BUDGET: usize = 80 * 1024;
/// Every other page: the small entry (attribution, header menus, footer year, image fade-in) and no React.
const PLAIN_PAGE_JS_BUDGET: usize = 15 * 1024;
/// The HTML of any page, with the whole stylesheet inlined in it.
const HTML_BUDGET: usize = 24 * 1024;
/// The inlined stylesheet, uncompressed: every page carries all of it, which is right only while it is this small.
/// Past this, inline only the styles the first screen needs and load the rest without blocking the paint.
const INLINE_CSS_BUDGET: usize = 56 * 1024;

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

/// The chunks a built chunk refers to (`"./name-hash.js"`), each as `/assets/name-hash.js` and whether it is a
/// dynamic `import()` (loaded only when that code runs) or a static import (loaded with the chunk).
fn chunk_references(js: &str) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    for (at, _) in js.match_indices("./") {
        let name: String = js[at + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_' || *c == '.')
            .collect();
        let quoted = at > 0 && matches!(js.as_bytes()[at - 1], b'"' | b'\'' | b'`');
        if !quoted || !name.ends_with(".js") {
            continue;
        }
        let dynamic = js[..at - 1].ends_with("import(");
        found.push((format!("/assets/{name}"), dynamic));
    }
    found
}

/// An island's chunk is named after it (web/src/islands/registry.ts): `/assets/QuoteForm-hash.js` (the hash may
/// hold `-` too; island names do not).
fn island_of(chunk: &str) -> &str {
    let file = chunk.rsplit('/').next().unwrap();
    file.split_once('-').map_or(file, |(name, _)| name)
}

struct Page {
    path: String,
    html: usize,
    css: usize,
    js: usize,
    scripts: BTreeSet<String>,
    islands: BTreeSet<String>,
}

struct Measure<'c> {
    client: &'c Client,
    sent: HashMap<String, usize>,
    text: HashMap<String, String>,
    island_names: BTreeSet<String>,
}

impl Measure<'_> {
    fn chunk_text(&mut self, chunk: &str) -> String {
        let client = self.client;
        self.text
            .entry(chunk.to_string())
            .or_insert_with(|| {
                let response = client.get(chunk.to_string()).dispatch();
                assert_eq!(response.status(), Status::Ok, "{chunk}");
                response.into_string().unwrap()
            })
            .clone()
    }

    fn page(&mut self, path: &str) -> Page {
        let response = self.client.get(path.to_string()).dispatch();
        let expected = if path.starts_with("/nope") {
            Status::NotFound
        } else {
            Status::Ok
        };
        assert_eq!(response.status(), expected, "{path}");
        let html = response.into_string().unwrap();
        assert!(
            !html.contains("rel=\"stylesheet\""),
            "{path} links a stylesheet: the first paint would wait for a second request"
        );
        let css = html
            .split_once("<style>")
            .and_then(|(_, rest)| rest.split_once("</style>"))
            .map(|(css, _)| css.len())
            .unwrap_or_else(|| panic!("{path} has no inlined stylesheet"));
        let islands: BTreeSet<String> = references(&html, "data-island=", "data-island")
            .into_iter()
            .collect();
        let entries = references(&html, "type=\"module\"", "src");
        assert_eq!(entries.len(), 1, "{path}: one entry script");
        let mut queue = entries;
        queue.extend(references(&html, "rel=\"modulepreload\"", "href"));
        let mut scripts = BTreeSet::new();
        while let Some(chunk) = queue.pop() {
            if !scripts.insert(chunk.clone()) {
                continue;
            }
            for (next, dynamic) in chunk_references(&self.chunk_text(&chunk)) {
                let island = island_of(&next);
                let wanted = if self.island_names.contains(island) {
                    islands.contains(island)
                } else {
                    !dynamic || !islands.is_empty()
                };
                if wanted {
                    queue.push(next);
                }
            }
        }
        let client = self.client;
        let js = scripts
            .iter()
            .map(|s| {
                *self
                    .sent
                    .entry(s.clone())
                    .or_insert_with(|| sent_bytes(client, s))
            })
            .sum();
        let html_bytes = client
            .get(path.to_string())
            .header(Header::new("Accept-Encoding", "br, gzip"))
            .dispatch()
            .into_bytes()
            .unwrap()
            .len();
        Page {
            path: path.to_string(),
            html: html_bytes,
            css,
            js,
            scripts,
            islands,
        }
    }
}

#[test]
fn every_page_stays_within_the_byte_budget_of_its_kind() {
    let client = common::client();
    let mut paths = common::sitemap_paths(&client);
    paths.push("/nope".into());
    assert!(paths.len() > 30, "{paths:?}");

    let mut measure = Measure {
        client: &client,
        sent: HashMap::new(),
        text: HashMap::new(),
        island_names: BTreeSet::new(),
    };
    // Every island any page uses, so that a chunk can be told to be an island's.
    for path in &paths {
        let html = client.get(path.clone()).dispatch().into_string().unwrap();
        measure
            .island_names
            .extend(references(&html, "data-island=", "data-island"));
    }
    let pages: Vec<Page> = paths.iter().map(|path| measure.page(path)).collect();

    for page in &pages {
        println!(
            "{:<52} HTML {:>6} B (CSS inlined: {} B uncompressed), JS {:>6} B in {} files{}",
            page.path,
            page.html,
            page.css,
            page.js,
            page.scripts.len(),
            if page.islands.is_empty() {
                String::new()
            } else {
                format!(" (islands: {:?})", page.islands)
            }
        );
    }
    for page in &pages {
        let path = &page.path;
        assert!(
            page.html < HTML_BUDGET,
            "{path}: HTML {} B is over the {HTML_BUDGET} B budget",
            page.html
        );
        assert!(
            page.css < INLINE_CSS_BUDGET,
            "{path}: the inlined stylesheet ({} B) is over {INLINE_CSS_BUDGET} B: inline only the first screen's",
            page.css
        );
        if !page.islands.is_empty() {
            assert!(
                page.js < ISLAND_PAGE_JS_BUDGET,
                "{path}: JavaScript {} B is over the {ISLAND_PAGE_JS_BUDGET} B budget",
                page.js
            );
        } else {
            assert!(
                page.js <= PLAIN_PAGE_JS_BUDGET,
                "{path} has no island but ships {} B of JavaScript (budget {PLAIN_PAGE_JS_BUDGET} B): {:?}",
                page.js,
                page.scripts
            );
        }
    }

    // The pages the issue names: only a form or the blog explorer brings React.
    let kind = |path: &str| {
        !pages
            .iter()
            .find(|p| p.path == path)
            .unwrap()
            .islands
            .is_empty()
    };
    for path in [
        "/",
        "/get-quote",
        "/contact",
        "/opt-out",
        "/report-a-claim",
        "/policy-change",
        "/products/dump-truck-insurance",
        "/blog",
    ] {
        assert!(kind(path), "{path} should have islands");
    }
    for path in [
        "/about",
        "/privacy",
        "/terms",
        "/faq",
        "/partners",
        "/sitemap",
        "/products",
        "/coverage-types",
        "/blog/understanding-dot-insurance-requirements",
        "/nope",
    ] {
        assert!(!kind(path), "{path} should ship no React");
    }
}
