//! Every page beyond the home page and blog, as served: product pages from their content files (8 coverage points,
//! 7 benefits, their own FAQ where they have one, structured data), the overview pages, the company pages and the
//! human-readable sitemap.

use rocket::http::Status;
use rocket::local::blocking::Client;

use crate::common;

pub(crate) fn page(client: &Client, path: &str) -> String {
    let response = client.get(path.to_string()).dispatch();
    assert_eq!(response.status(), Status::Ok, "{path}");
    response.into_string().unwrap()
}

pub(crate) fn content_toml(file: &str) -> toml::Table {
    let path = format!("{}/content/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap().parse().unwrap()
}

/// Text as React writes it into HTML.
pub(crate) fn html_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

fn products() -> Vec<(String, toml::Table)> {
    let dir = format!("{}/content/products", env!("CARGO_MANIFEST_DIR"));
    let mut list: Vec<(String, toml::Table)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let slug = path.file_stem().unwrap().to_string_lossy().into_owned();
            (
                slug,
                std::fs::read_to_string(&path).unwrap().parse().unwrap(),
            )
        })
        .collect();
    list.sort_by(|a, b| a.0.cmp(&b.0));
    list
}

fn strings(table: &toml::Table, key: &str) -> Vec<String> {
    table[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_product_page_follows_the_template() {
    let client = common::client();
    let site = content_toml("facts.toml");
    let valid_until = site["offer_valid_until"].to_string();
    let all = products();
    assert_eq!(all.len(), 16, "13 product routes and 3 more coverages");
    for (slug, product) in &all {
        let path = format!("/products/{slug}");
        let html = page(&client, &path);
        let title = html_text(product["title"].as_str().unwrap());
        for text in [
            format!("Comprehensive {title}"),
            format!("Benefits of Our {title}"),
            format!("Ready to Get Covered with {title}?"),
            "Coverage Highlights".to_string(),
            "Coverage Options".to_string(),
            "Important Information".to_string(),
            "Ready for a Quote?".to_string(),
            r#""@type":"Service""#.to_string(),
            r#""@type":"BreadcrumbList""#.to_string(),
            format!(r#""validThrough":"{}""#, valid_until.trim_matches('"')),
            r#""priceCurrency":"USD""#.to_string(),
            format!(r#"<img src="/assets/{slug}-"#),
        ] {
            assert!(html.contains(&text), "{path} lacks {text:?}");
        }
        let points = strings(product, "coverage_points");
        assert_eq!(points.len(), 8, "{slug}");
        for point in &points {
            assert!(
                html.contains(&html_text(point)),
                "{path} lacks the coverage point {point:?}"
            );
        }
        let benefits = strings(product, "benefits");
        assert_eq!(benefits.len(), 7, "{slug}");
        for benefit in &benefits {
            assert!(
                html.contains(&html_text(benefit)),
                "{path} lacks the benefit {benefit:?}"
            );
        }
        if let Some(types) = product.get("types") {
            for kind in types.as_array().unwrap() {
                assert!(
                    html.contains(&html_text(kind.as_str().unwrap())),
                    "{path} lacks the type {kind}"
                );
            }
        }
        let own_faqs = product
            .get("faqs")
            .and_then(|f| f.as_array())
            .map(Vec::len)
            .unwrap_or(0);
        let shown = html.matches(r#"name="product-faq""#).count();
        if own_faqs > 0 {
            assert_eq!(shown, own_faqs, "{path} shows its own FAQ");
            assert!(html.contains(r#""@type":"FAQPage""#));
        } else {
            assert_eq!(shown, 4, "{path} shows the general FAQ's first entries");
        }
        // The quote form is in the hero and, compact, in the sidebar, with the product's type chosen.
        assert_eq!(
            html.matches(r#"action="/api/leads/quote""#).count(),
            2,
            "{path}"
        );
        let chosen = product["insurance_type"].as_str().unwrap();
        assert!(
            html.contains(&format!(r#"<option value="{chosen}" selected="">"#)),
            "{path} preselects {chosen}"
        );
    }
    let liability = page(&client, "/products/liability-insurance");
    assert_eq!(liability.matches(r#"name="product-faq""#).count(), 6);
    let physical = page(&client, "/products/physical-damage-insurance");
    assert_eq!(physical.matches(r#"name="product-faq""#).count(), 5);
    let dump = page(&client, "/products/dump-truck-insurance");
    for kind in [
        "Standard",
        "Transfer",
        "Side",
        "Bottom",
        "Super",
        "Semi-end",
        "Off-highway",
        "Articulated",
    ] {
        assert!(
            dump.to_lowercase().contains(&kind.to_lowercase()),
            "dump truck types list lacks {kind}"
        );
    }
}

#[test]
fn overview_pages_list_the_spec_counts() {
    let client = common::client();
    let products = page(&client, "/products");
    assert_eq!(
        products.matches("Learn More").count(),
        13,
        "7 vehicle types and 6 coverage cards"
    );
    assert!(products.contains("Speak With a Specialist"));
    assert!(products.contains(r#"href="tel:+"#));
    let coverage = page(&client, "/coverage-types");
    assert_eq!(
        coverage.matches("Learn More").count(),
        9,
        "9 coverage cards"
    );
    assert_eq!(coverage.matches(">Required By<").count(), 9);
    assert_eq!(coverage.matches(">Typical Minimum<").count(), 9);
    for text in [
        "Building Your Coverage Package",
        "Vehicle Types",
        "Cargo Types",
        "Operating Area",
        "Business Structure",
        "Request Your Free Analysis",
    ] {
        assert!(coverage.contains(text), "/coverage-types lacks {text:?}");
    }
    assert_eq!(coverage.matches(r#"name="coverage-faq""#).count(), 5);
    for slug in [
        "occupational-accident-insurance",
        "workers-compensation-insurance",
        "environmental-liability-insurance",
    ] {
        assert!(coverage.contains(&format!("/products/{slug}")));
    }
}

#[test]
fn company_pages_have_their_content() {
    let client = common::client();
    let quote = page(&client, "/get-quote");
    for text in [
        "Why Choose Our Insurance Quotes",
        "Multiple Carriers",
        "Fast Turnaround",
        "Industry Experts",
        "No Obligation",
        "Business Information",
        "Vehicle and Driver Information",
        r#"action="/api/leads/quote""#,
    ] {
        assert!(quote.contains(text), "/get-quote lacks {text:?}");
    }
    let about = page(&client, "/about");
    for text in [
        "Protection First",
        "Industry Expertise",
        "Continuous Improvement",
        r#"href="/get-quote""#,
        r#"href="/contact""#,
    ] {
        assert!(about.contains(text), "/about lacks {text:?}");
    }
    let contact = page(&client, "/contact");
    for text in [
        "Business Hours",
        "Monday - Friday",
        "8:00 AM - 6:00 PM",
        "Saturday",
        "10:00 AM - 2:00 PM",
        "Closed",
        "within 24 hours",
        "Send Us a Message",
        r#"action="/api/leads/contact""#,
        r#"rows="5""#,
    ] {
        assert!(contact.contains(text), "/contact lacks {text:?}");
    }
    // The structured data states the same hours as the page (DECISIONS 4).
    assert!(contact.contains(r#""opens":"08:00","closes":"18:00""#));
    let faq = page(&client, "/faq");
    assert_eq!(faq.matches(r#"name="faq""#).count(), 6);
    assert!(faq.contains(r#""@type":"FAQPage""#));
    for (path, needle) in [
        ("/privacy", "stop"),
        ("/terms", "texas"),
        ("/partners", "carrier"),
    ] {
        let html = page(&client, path);
        assert!(
            html.to_lowercase().contains(needle),
            "{path} lacks {needle:?}"
        );
        assert!(html.contains("Last updated"), "{path} shows its date");
        assert!(
            html.split_whitespace().count() > 600,
            "{path} is a real page"
        );
    }
}

#[test]
fn the_human_sitemap_lists_every_page_of_sitemap_xml() {
    let client = common::client();
    let paths = common::sitemap_paths(&client);
    // Each language's /sitemap lists that language's pages.
    for (sitemap, spanish) in [("/sitemap", false), ("/es/sitemap", true)] {
        let human = page(&client, sitemap);
        let listed = paths
            .iter()
            .filter(|p| (*p == "/es" || p.starts_with("/es/")) == spanish);
        for path in listed {
            assert!(
                human.contains(&format!(r#"href="{path}""#)),
                "{sitemap} lacks {path}"
            );
        }
    }
    assert!(paths.len() >= 68, "sitemap.xml lists {} pages", paths.len());
}

#[test]
fn the_old_physical_damage_path_redirects_and_the_footer_shows_the_licence() {
    let client = common::client();
    let response = client.get("/products/physical-damage").dispatch();
    assert_eq!(response.status(), Status::PermanentRedirect);
    let site = content_toml("facts.toml");
    let licence = site["licenses"].as_array().unwrap()[0]["number"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(page(&client, "/about").contains(&html_text(&licence)));
}

/// The inverse of [`html_text`], for what the head holds.
fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn between<'a>(html: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = html.find(start)? + start.len();
    Some(&html[from..from + html[from..].find(end)?])
}

#[test]
fn every_title_and_description_fits_a_search_result() {
    let client = common::client();
    let brand = content_toml("facts.toml")["brand"]
        .as_str()
        .unwrap()
        .to_string();
    let mut answers = Vec::new();
    for path in common::sitemap_paths(&client) {
        answers.push((path.clone(), page(&client, &path)));
    }
    // The pages the server answers with: thank-you pages, the not-found pages, a form's corrections.
    for path in [
        "/get-quote/thank-you",
        "/contact/thank-you",
        "/opt-out/received",
        "/es/opt-out/received",
    ] {
        answers.push((path.to_string(), page(&client, path)));
    }
    for path in ["/no-such-page", "/blog/no-such-post"] {
        let response = client.get(path).dispatch();
        assert_eq!(response.status(), Status::NotFound);
        answers.push((path.to_string(), response.into_string().unwrap()));
    }
    assert!(answers.len() >= 38, "{} pages", answers.len());
    for (path, html) in answers {
        let title = unescape(between(&html, "<title>", "</title>").expect("a title"));
        let description = unescape(
            between(&html, r#"<meta name="description" content=""#, "\"").expect("a description"),
        );
        assert!(
            title.ends_with(&format!(" | {brand}")),
            "{path}: {title:?} ends with the brand"
        );
        let length = title.chars().count();
        assert!(
            length <= 60,
            "{path}: title {title:?} is {length} characters"
        );
        let length = description.chars().count();
        assert!(
            (70..=160).contains(&length),
            "{path}: description {description:?} is {length} characters"
        );
    }
}

#[test]
fn the_privacy_policy_quotes_the_consent_the_form_collects() {
    let client = common::client();
    let privacy = page(&client, "/privacy");
    let consent = crate::common::consent_text().trim();
    assert!(
        privacy.contains(&format!("<blockquote>\n<p>{}</p>", html_text(consent))),
        "the policy quotes the consent text word for word"
    );
    assert!(privacy.contains(&format!(
        "version {}",
        crate::common::consent_version().trim()
    )));
    // The quote form shows the same words beside its checkbox.
    assert!(page(&client, "/get-quote").contains(&html_text(consent)));
    for promise in ["prerecorded", "artificial voice"] {
        assert!(!privacy.contains(promise), "{promise}");
    }
}

#[test]
fn no_page_promises_what_the_agency_cannot_keep() {
    let client = common::client();
    let site = content_toml("facts.toml");
    assert!(
        site.get("claims").is_none(),
        "the sample agency has no 24/7 claims line; this test checks the copy without one"
    );
    for path in common::sitemap_paths(&client) {
        let html = page(&client, &path).to_lowercase();
        for promise in [
            "24/7",
            "around the clock",
            "at any hour",
            "no overlap, no gaps",
            "gaps closed",
            "no surprises at claim time",
        ] {
            assert!(!html.contains(promise), "{path} says {promise:?}");
        }
    }
    // Where claims come up, the copy says how they are reported after hours instead.
    let after_hours =
        html_text("After hours, report a claim to your insurance company's claims line");
    for path in ["/contact", "/faq", "/about"] {
        assert!(
            page(&client, path).contains(&after_hours),
            "{path} says how claims are reported after hours"
        );
    }
}

#[test]
fn structured_data_serves_the_licensed_states_only() {
    let client = common::client();
    let states: Vec<String> = content_toml("facts.toml")["licenses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|licence| licence["state"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(states, ["TX"], "the sample agency is licensed in Texas");
    for path in ["/", "/contact", "/products/dump-truck-insurance"] {
        let html = page(&client, path);
        assert!(
            html.contains(r#""areaServed":[{"@type":"State","name":"Texas"}]"#),
            "{path}"
        );
        assert!(!html.contains(r#""areaServed":"US""#), "{path}");
    }
}

/// The build refuses an offer date less than 60 days ahead; this catches a binary rebuilt from an old build's
/// output (cargo reruns the build script only when content or the web app changes, not when the calendar does).
#[test]
fn the_offer_in_structured_data_stays_valid_for_60_days() {
    let site = content_toml("facts.toml");
    let valid_until = site["offer_valid_until"].as_datetime().unwrap().to_string();
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let valid_until = time::Date::parse(&valid_until, format).unwrap();
    let today = time::OffsetDateTime::now_utc().date();
    let days_left = (valid_until - today).whole_days();
    assert!(
        days_left >= 60,
        "content/facts.toml offer_valid_until {valid_until} is {days_left} days away"
    );
    let client = common::client();
    let html = page(&client, "/products/dump-truck-insurance");
    assert!(html.contains(&format!(r#""priceValidUntil":"{valid_until}""#)));
}
