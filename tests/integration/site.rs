//! The website as a browser sees it over HTTP, through Rocket's local client on the same `rocket()` that `main`
//! serves: every page and embedded file, the not-found pages, redirects, compression, caching, security headers
//! and hostile requests.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use rocket::http::{ContentType, Header, Method, Status};
use rocket::local::blocking::{Client, LocalResponse};
use sha2::{Digest, Sha256};

use crate::common;

fn facts_toml() -> toml::Table {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/content/facts.toml"))
        .unwrap();
    text.parse().unwrap()
}

fn site_str(key: &str) -> String {
    facts_toml()[key].as_str().unwrap().to_string()
}

fn get<'c>(client: &'c Client, path: &str) -> LocalResponse<'c> {
    client.get(path.to_string()).dispatch()
}

fn body(client: &Client, path: &str) -> (Status, String) {
    let response = get(client, path);
    let status = response.status();
    (status, response.into_string().unwrap_or_default())
}

const POST_SLUGS: [&str; 6] = [
    "understanding-dot-insurance-requirements",
    "ways-to-lower-trucking-insurance-premiums",
    "hot-shot-trucking-insurance-considerations",
    "impact-eld-mandates-trucking-insurance",
    "cargo-insurance-coverage-exclusions",
    "winter-weather-driving-insurance-implications",
];

/// Text that must never reach a visitor: our sources, stack traces, internals.
const NEVER_SHOWN: [&str; 6] = [
    "[package]",
    "fn main",
    "panicked",
    "RUST_BACKTRACE",
    "rocket::",
    "node_modules",
];

fn assert_nothing_internal(path: &str, text: &str) {
    for needle in NEVER_SHOWN {
        assert!(!text.contains(needle), "{path} shows {needle:?}");
    }
}

#[test]
fn home_page_has_every_section_of_the_spec() {
    let client = common::client();
    let (status, html) = body(&client, "/");
    assert_eq!(status, Status::Ok);
    let brand = site_str("brand");
    assert!(
        html.contains(&format!("| {brand}</title>")),
        "title follows 'Page | Brand'"
    );
    for text in [
        "Get Free Quote",
        "Explore Coverage Options",
        "Specialized Coverage",
        "Competitive Rates",
        // The spec's '24/7 Support' badge, made true: no claims line answers around the clock in the sample.
        "Claims Help",
        "Why Truckers Choose Us",
        "Industry Specialists",
        "Complete Protection",
        "Fast Response",
        "View All Posts",
        "Frequently Asked Questions",
        "Contact Us",
        "Same-Day Quotes",
        "Specialized Trucking Coverage",
        r#"href="/products""#,
        r#"href="/coverage-types""#,
        r#""@type":"InsuranceAgency""#,
        "data-island=\"RoadCanvas\"",
    ] {
        assert!(html.contains(text), "home page lacks {text:?}");
    }
    assert_eq!(
        html.matches("Rated 5 out of 5").count(),
        2,
        "two five-star testimonials"
    );
    assert_eq!(
        html.matches("Rated 4 out of 5").count(),
        1,
        "one four-star testimonial"
    );
    assert_eq!(
        html.matches(r#"name="home-faq""#).count(),
        4,
        "the first 4 of 6 FAQ entries"
    );
    assert_eq!(
        html.matches("Learn More").count(),
        8,
        "4 vehicle and 4 coverage cards"
    );
    // The first three posts (newest first) and not the others.
    let teasers = POST_SLUGS
        .iter()
        .filter(|slug| html.contains(&format!("/blog/{slug}\"")))
        .count();
    assert_eq!(teasers, 3, "three blog teasers");
    // One phone number, from facts.toml, in the page and in the structured data (DECISIONS 5).
    assert!(html.contains(&site_str("phone")));
    assert!(html.contains(&format!(r#""telephone":"{}""#, site_str("phone_e164"))));
    assert!(html.contains(&format!(r#"href="tel:{}""#, site_str("phone_e164"))));
    assert_nothing_internal("/", &html);
}

#[test]
fn layout_has_the_spec_navigation_and_footer() {
    let client = common::client();
    let (_, html) = body(&client, "/blog");
    for href in [
        "/products/trucking-insurance",
        "/products/hotshot-insurance",
        "/products/dump-truck-insurance",
        "/products/flatbed-truck-insurance",
        "/products/refrigerated-truck-insurance",
        "/products/tanker-truck-insurance",
        "/products/box-truck-insurance",
        "/products/liability-insurance",
        "/products/cargo-insurance",
        "/products/physical-damage-insurance",
        "/products/non-trucking-insurance",
        "/products/general-liability-insurance",
        "/products/umbrella-insurance",
        "/about",
        "/blog",
        "/contact",
        "/get-quote",
        "/partners",
        "/faq",
        "/privacy",
        "/terms",
        "/sitemap",
    ] {
        assert!(
            html.contains(&format!("href=\"{href}\"")),
            "layout lacks a link to {href}"
        );
    }
    for label in [
        "Vehicle Types",
        "Coverage Types",
        "Semi Truck",
        "Hot Shot",
        "Primary Liability",
        "Get Quote",
    ] {
        assert!(html.contains(label), "navigation lacks {label:?}");
    }
    assert!(
        !html.contains("href=\"/products/physical-damage\""),
        "footer uses the corrected path (DECISIONS 2)"
    );
    assert!(html.contains(&site_str("email")));
    assert!(html.contains("data-current-year"));
    assert!(html.contains("<link rel=\"canonical\" href=\"https://"));
    // Social links appear only when configured (DECISIONS 12); the sample config has none.
    let social = facts_toml()
        .get("social")
        .and_then(|s| s.as_table())
        .map(|t| t.len())
        .unwrap_or(0);
    if social == 0 {
        assert!(!html.contains("aria-label=\"Social media\""));
    }
    assert!(!html.contains("href=\"#\""), "no link points nowhere");
}

/// A post's category, from its front matter.
fn post_category(slug: &str) -> String {
    let path = format!("{}/content/blog/{slug}.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let line = text.lines().find(|l| l.starts_with("category")).unwrap();
    line.split('"').nth(1).unwrap().to_string()
}

#[test]
fn blog_list_and_every_post_render() {
    let client = common::client();
    let (status, list) = body(&client, "/blog");
    assert_eq!(status, Status::Ok);
    assert!(list.contains("Search articles..."));
    for category in [
        "All Categories",
        "Insurance Tips",
        "Regulations",
        "Safety",
        "Cost Savings",
        "Industry News",
        "Technology",
        "Specialized Coverage",
    ] {
        assert!(
            list.contains(&format!(">{category}</button>")),
            "filter button {category:?}"
        );
    }
    assert!(list.contains("Featured Article"));
    for slug in POST_SLUGS {
        assert!(list.contains(&format!("/blog/{slug}")), "list links {slug}");
        let (status, post) = body(&client, &format!("/blog/{slug}"));
        assert_eq!(status, Status::Ok, "/blog/{slug}");
        for text in [
            "Back to all articles",
            "Insurance Specialist",
            "Get Your Free Quote",
            r#""@type":"BlogPosting""#,
        ] {
            assert!(post.contains(text), "/blog/{slug} lacks {text:?}");
        }
        assert!(
            post.contains("width=\"1200\" height=\"630\""),
            "/blog/{slug} hero image has its size"
        );
        let words = post.split_whitespace().count();
        assert!(words > 700, "/blog/{slug} has {words} words");
        // Related articles share the category (spec); with none, the section says it shows other articles.
        let category = post_category(slug);
        let shares = POST_SLUGS
            .iter()
            .any(|other| *other != slug && post_category(other) == category);
        let heading = if shares {
            "Related Articles"
        } else {
            "More from the Blog"
        };
        assert!(
            post.contains(&format!(">{heading}</h2>")),
            "/blog/{slug} lacks {heading:?}"
        );
    }
    let highlighted = POST_SLUGS
        .iter()
        .filter(|slug| {
            body(&client, &format!("/blog/{slug}"))
                .1
                .contains("class=\"code-block\"")
        })
        .count();
    assert!(
        highlighted >= 1,
        "at least one post has a highlighted code block"
    );
}

#[test]
fn search_index_holds_every_post() {
    let client = common::client();
    let response = get(&client, "/blog/search.json");
    assert_eq!(response.status(), Status::Ok);
    assert_eq!(
        response.content_type().map(|c| c.to_string()),
        Some("application/json; charset=utf-8".into())
    );
    let index: serde_json::Map<String, serde_json::Value> = response.into_json().unwrap();
    for slug in POST_SLUGS {
        assert!(
            index
                .get(slug)
                .and_then(|t| t.as_str())
                .is_some_and(|t| t.len() > 3000),
            "{slug} indexed"
        );
    }
}

#[test]
fn unknown_paths_answer_404_with_the_not_found_pages() {
    let client = common::client();
    let (status, html) = body(&client, "/no-such-page");
    assert_eq!(status, Status::NotFound);
    for text in [
        "404",
        "Page Not Found",
        "exist or may have been moved",
        r#"href="/products""#,
        r#"href="/get-quote""#,
        r#"href="/contact""#,
    ] {
        assert!(html.contains(text), "404 page lacks {text:?}");
    }
    let (status, html) = body(&client, "/blog/no-such-post");
    assert_eq!(status, Status::NotFound);
    assert!(html.contains("Blog Post Not Found"));
    assert!(html.contains("Browse All Articles"));
    assert!(html.contains("noindex"));
    // Other methods on pages find no route: a 404 page, not a 500.
    let response = client.post("/blog").dispatch();
    assert_eq!(response.status(), Status::NotFound);
}

#[test]
fn redirects_are_permanent_and_keep_the_query() {
    let client = common::client();
    let response = get(&client, "/blog/?category=Safety");
    assert_eq!(response.status(), Status::PermanentRedirect);
    assert_eq!(
        response.headers().get_one("Location"),
        Some("/blog?category=Safety")
    );
    let response = get(&client, "/products/physical-damage");
    assert_eq!(response.status(), Status::PermanentRedirect);
    assert_eq!(
        response.headers().get_one("Location"),
        Some("/products/physical-damage-insurance")
    );
}

#[test]
fn every_embedded_file_answers_200() {
    let client = common::client();
    let mut served = 0;
    for name in embedded::names().into_iter() {
        let name = name.as_ref();
        // Compressed variants and internal pages (`_errors/`, `_forms/`, in either language) are never served by
        // their own name.
        let internal = name.starts_with('_') || name.starts_with("es/_");
        if name.ends_with(".br") || name.ends_with(".gz") || internal {
            continue;
        }
        let path = match name {
            "index.html" => "/".to_string(),
            _ => format!("/{}", name.strip_suffix("/index.html").unwrap_or(name)),
        };
        let response = get(&client, &path);
        assert_eq!(response.status(), Status::Ok, "{path}");
        served += 1;
    }
    assert!(served > 20, "only {served} files embedded");
}

#[test]
fn compression_follows_accept_encoding() {
    let client = common::client();
    let plain = get(&client, "/").into_bytes().unwrap();
    assert!(plain.starts_with(b"<!doctype html>"));

    let response = client
        .get("/")
        .header(Header::new("Accept-Encoding", "gzip, deflate, br"))
        .dispatch();
    assert_eq!(response.headers().get_one("Content-Encoding"), Some("br"));
    assert_eq!(response.headers().get_one("Vary"), Some("Accept-Encoding"));
    let brotli = response.into_bytes().unwrap();
    assert!(
        brotli.len() * 3 < plain.len(),
        "brotli {} vs {} bytes",
        brotli.len(),
        plain.len()
    );

    let response = client
        .get("/")
        .header(Header::new("Accept-Encoding", "gzip"))
        .dispatch();
    assert_eq!(response.headers().get_one("Content-Encoding"), Some("gzip"));
    assert!(response.into_bytes().unwrap().starts_with(&[0x1f, 0x8b]));

    let response = client
        .get("/")
        .header(Header::new("Accept-Encoding", "br;q=0, gzip;q=0"))
        .dispatch();
    assert_eq!(response.headers().get_one("Content-Encoding"), None);
}

#[test]
fn html_revalidates_with_etag_and_assets_are_immutable() {
    let client = common::client();
    let response = get(&client, "/blog");
    assert_eq!(
        response.headers().get_one("Cache-Control"),
        Some("no-cache")
    );
    let etag = response
        .headers()
        .get_one("ETag")
        .expect("an ETag")
        .to_string();
    let response = client
        .get("/blog")
        .header(Header::new("If-None-Match", etag.clone()))
        .dispatch();
    assert_eq!(response.status(), Status::NotModified);
    assert!(response.into_bytes().unwrap_or_default().is_empty());
    // A different representation (brotli) has a different tag, so caches never mix them up.
    let br = client
        .get("/blog")
        .header(Header::new("Accept-Encoding", "br"))
        .dispatch();
    assert_ne!(br.headers().get_one("ETag"), Some(etag.as_str()));

    let asset = embedded::names()
        .into_iter()
        .find(|n| n.starts_with("assets/") && n.ends_with(".js"))
        .expect("a script");
    let response = get(&client, &format!("/{asset}"));
    assert_eq!(response.status(), Status::Ok);
    assert_eq!(
        response.headers().get_one("Cache-Control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(
        response.content_type().map(|c| c.to_string()),
        Some("text/javascript; charset=utf-8".into())
    );
}

#[test]
fn head_requests_get_headers_without_a_body() {
    let client = common::client();
    let response = client.head("/").dispatch();
    assert_eq!(response.status(), Status::Ok);
    assert!(response.headers().get_one("ETag").is_some());
    assert!(response.into_bytes().unwrap_or_default().is_empty());
    assert_eq!(client.head("/nope").dispatch().status(), Status::NotFound);
}

#[test]
fn security_headers_are_on_every_response() {
    let client = common::client();
    for path in ["/", "/nope", "/blog/", "/%zz", "/robots.txt"] {
        let response = get(&client, path);
        let headers = response.headers();
        let csp = headers
            .get_one("Content-Security-Policy")
            .unwrap_or_else(|| panic!("{path}: no CSP"));
        assert!(
            csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{path}: {csp}"
        );
        assert!(
            !csp.contains("http") && !csp.contains("unsafe"),
            "{path}: CSP names an origin or relaxes: {csp}"
        );
        assert_eq!(
            headers.get_one("X-Content-Type-Options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(headers.get_one("X-Frame-Options"), Some("DENY"), "{path}");
        assert!(headers.get_one("Referrer-Policy").is_some(), "{path}");
        assert!(headers.get_one("Permissions-Policy").is_some(), "{path}");
    }
}

#[test]
fn hsts_is_sent_on_every_kind_of_response_only_when_configured() {
    let with_hsts =
        common::client_with(common::figment(&common::temp_database("hsts")).merge(("hsts", true)));
    let without = common::client();
    let etag = get(&without, "/about")
        .headers()
        .get_one("ETag")
        .unwrap()
        .to_string();
    for client in [&with_hsts, &without] {
        let sends_hsts = std::ptr::eq(client, &with_hsts);
        let answers = [
            ("/about", client.get("/about").dispatch()),
            (
                "/about (304)",
                client
                    .get("/about")
                    .header(Header::new("If-None-Match", etag.clone()))
                    .dispatch(),
            ),
            ("/nope", client.get("/nope").dispatch()),
            ("/blog/", client.get("/blog/").dispatch()),
            (
                "/api/leads/quote",
                client
                    .post("/api/leads/quote")
                    .header(ContentType::JSON)
                    .body("{")
                    .dispatch(),
            ),
        ];
        let statuses: Vec<u16> = answers.iter().map(|(_, r)| r.status().code).collect();
        assert_eq!(statuses, [200, 304, 404, 308, 400]);
        for (what, response) in answers {
            let headers = response.headers();
            assert_eq!(
                headers.get_one("Strict-Transport-Security"),
                sends_hsts.then_some("max-age=31536000; includeSubDomains"),
                "{what}"
            );
            for name in [
                "Content-Security-Policy",
                "X-Content-Type-Options",
                "X-Frame-Options",
                "Referrer-Policy",
                "Permissions-Policy",
                "Cross-Origin-Opener-Policy",
                "Cross-Origin-Resource-Policy",
            ] {
                assert_eq!(headers.get(name).count(), 1, "{what}: {name} once");
            }
        }
    }
}

/// The text of each `<style>` element of `html`.
fn inline_styles(html: &str) -> Vec<&str> {
    html.split("<style")
        .skip(1)
        .map(|rest| {
            let text = &rest[rest.find('>').expect("<style ...>") + 1..];
            &text[..text.find("</style>").expect("</style>")]
        })
        .collect()
}

#[test]
fn every_page_inlines_its_stylesheet_and_the_csp_allows_exactly_that_text() {
    let client = common::client();
    let served = |path: &str| {
        let response = get(&client, path);
        let csp = response
            .headers()
            .get_one("Content-Security-Policy")
            .unwrap()
            .to_string();
        (csp, response.into_string().unwrap())
    };
    let (csp, _) = served("/");
    let style_src: Vec<&str> = csp
        .split(';')
        .map(str::trim)
        .find_map(|directive| directive.strip_prefix("style-src "))
        .expect("a style-src directive")
        .split(' ')
        .collect();
    assert!(
        !style_src.iter().any(|source| source.contains("unsafe")),
        "{csp}"
    );
    // Every prerendered page as embedded, and pages as served (the server may rewrite a page's base URL).
    let mut pages: Vec<(String, String)> = embedded::names()
        .into_iter()
        .filter(|name| name.ends_with(".html"))
        .map(|name| {
            let file = embedded::file(&name).unwrap();
            (
                name.to_string(),
                String::from_utf8(file.data.into_owned()).unwrap(),
            )
        })
        .collect();
    assert!(pages.len() > 30, "{} pages", pages.len());
    for path in ["/", "/about", "/nope", &format!("/blog/{}", POST_SLUGS[0])] {
        let (page_csp, html) = served(path);
        assert_eq!(page_csp, csp, "{path}: one policy for every page");
        pages.push((path.to_string(), html));
    }
    for (name, html) in &pages {
        let styles = inline_styles(html);
        assert_eq!(styles.len(), 1, "{name}: one inline stylesheet");
        let hash = format!("'sha256-{}'", BASE64.encode(Sha256::digest(styles[0])));
        assert!(
            style_src.contains(&hash.as_str()),
            "{name}: the CSP's style-src {style_src:?} does not allow the page's <style> ({hash})"
        );
        assert!(
            styles[0].contains(".nav-menu"),
            "{name}: the inlined text is the site's stylesheet"
        );
        assert!(
            !html.contains("rel=\"stylesheet\""),
            "{name}: links a stylesheet, a second request before the first paint"
        );
        // A style attribute would be blocked by this CSP (no 'unsafe-inline'): the page would look different.
        assert!(
            !html.contains(" style=\""),
            "{name}: has a style attribute, which the CSP blocks"
        );
    }
}

#[test]
fn pages_load_nothing_from_other_origins() {
    let client = common::client();
    let base = site_str("base_url");
    for path in ["/", "/blog", &format!("/blog/{}", POST_SLUGS[4]), "/nope"] {
        let (_, html) = body(&client, path);
        for attribute in ["src=\"", "href=\"", "srcset=\"", "url("] {
            for (at, _) in html.match_indices(attribute) {
                let value = &html[at + attribute.len()..];
                let external = value.starts_with("http") || value.starts_with("//");
                // Absolute links to our own base URL (canonical) are fine; anything else is a third party.
                assert!(
                    !external || value.starts_with(&base),
                    "{path} refers to another origin: {}",
                    &value[..60.min(value.len())]
                );
            }
        }
    }
}

#[test]
fn hostile_requests_get_4xx_and_never_a_file_outside_the_site() {
    let client = common::client();
    let long = format!("/{}", "a".repeat(10_000));
    for path in [
        "/..%2f..%2fCargo.toml",
        "/assets/../build.rs",
        "/assets/..%2f..%2fbuild.rs",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/.git/config",
        "/_errors/500.html",
        "/%zz",
        "/%c0%ae%c0%ae/",
        "/index.html%00",
        "//example.org/",
        "/blog/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        // An encoded trailing slash is not trimmed by a redirect (it would redirect to itself forever).
        "/blog%2F",
        "/blog/%2F",
        "/products%2f%2f",
        long.as_str(),
    ] {
        let response = client.get(path.to_string()).dispatch();
        let status = response.status();
        let text = response.into_string().unwrap_or_default();
        assert!(
            (400..500).contains(&status.code),
            "{}: {status}",
            &path[..path.len().min(60)]
        );
        assert_nothing_internal(path, &text);
        assert!(!text.contains("<script>alert(1)"), "{path} reflects markup");
    }
    for method in [
        Method::Put,
        Method::Delete,
        Method::Patch,
        Method::Options,
        Method::Trace,
        Method::Connect,
    ] {
        let status = client.req(method, "/").dispatch().status();
        assert!((400..500).contains(&status.code), "{method} /: {status}");
    }
}

#[test]
fn sitemap_and_robots_list_every_page() {
    let client = common::client();
    let base = site_str("base_url");
    let (status, sitemap) = body(&client, "/sitemap.xml");
    assert_eq!(status, Status::Ok);
    assert!(sitemap.contains(&format!("<loc>{base}/</loc>")));
    assert!(sitemap.contains(&format!("<loc>{base}/blog</loc>")));
    for slug in POST_SLUGS {
        assert!(
            sitemap.contains(&format!("<loc>{base}/blog/{slug}</loc>")),
            "sitemap lists {slug}"
        );
    }
    assert!(!sitemap.contains("_errors"));
    let (status, robots) = body(&client, "/robots.txt");
    assert_eq!(status, Status::Ok);
    assert!(robots.contains(&format!("Sitemap: {base}/sitemap.xml")));
    let favicon = get(&client, "/favicon.svg");
    assert_eq!(favicon.status(), Status::Ok);
    assert_eq!(
        favicon.content_type().map(|c| c.to_string()),
        Some("image/svg+xml; charset=utf-8".into())
    );
}

#[test]
fn api_errors_are_json() {
    let client = common::client();
    let response = client.get("/api/nothing-here").dispatch();
    assert_eq!(response.status(), Status::NotFound);
    let json: serde_json::Value = response.into_json().expect("a JSON body");
    assert_eq!(json["error"], "Not Found");
}
