//! The site in two languages (issue 15), as served: every page of the sitemap in English and in Spanish, each with
//! its own `lang`, naming itself and its counterpart with reciprocal `hreflang` links and English as `x-default`,
//! and a language switch that leads to the counterpart.

use rocket::http::Status;
use rocket::local::blocking::Client;

use crate::common;

const BASE_URL: &str = "https://www.example.com";

/// The counterpart of a path in the other language: `/x` <-> `/es/x`, `/` <-> `/es`.
fn counterpart(path: &str) -> String {
    match path.strip_prefix("/es") {
        Some("") => "/".to_string(),
        Some(rest) if rest.starts_with('/') => rest.to_string(),
        _ if path == "/" => "/es".to_string(),
        _ => format!("/es{path}"),
    }
}

fn is_spanish(path: &str) -> bool {
    path == "/es" || path.starts_with("/es/")
}

/// The value of `attribute` in the first tag of `html` that holds `marker`.
fn attribute_of<'a>(html: &'a str, marker: &str, attribute: &str) -> Option<&'a str> {
    let at = html.find(marker)?;
    let start = html[..at].rfind('<')?;
    let tag = &html[start..start + html[start..].find('>')?];
    let value = tag.split(&format!(" {attribute}=\"")).nth(1)?;
    value.split('"').next()
}

/// The `hreflang` alternates in a page's head, as (hreflang, href) pairs.
fn alternates(html: &str) -> Vec<(String, String)> {
    html.split("<link rel=\"alternate\" hreflang=\"")
        .skip(1)
        .filter_map(|rest| {
            let (lang, rest) = rest.split_once('"')?;
            let href = rest.split("href=\"").nth(1)?.split('"').next()?;
            Some((lang.to_string(), href.to_string()))
        })
        .collect()
}

fn get(client: &Client, path: &str) -> String {
    let response = client.get(path.to_string()).dispatch();
    assert_eq!(response.status(), Status::Ok, "{path}");
    response.into_string().unwrap()
}

#[test]
fn every_page_exists_in_both_languages_and_names_its_counterpart_both_ways() {
    let client = common::client();
    let paths = common::sitemap_paths(&client);
    let spanish = paths.iter().filter(|p| is_spanish(p)).count();
    assert_eq!(
        spanish * 2,
        paths.len(),
        "the sitemap lists every page in both languages: {paths:?}"
    );
    for path in &paths {
        let html = get(&client, path);
        let (lang, english, other) = if is_spanish(path) {
            ("es", counterpart(path), "en")
        } else {
            ("en", path.clone(), "es")
        };
        assert!(
            html.contains(&format!("<html lang=\"{lang}\">")),
            "{path}: lang"
        );
        let english_url = format!("{BASE_URL}{}", if english == "/" { "/" } else { &english });
        let spanish_url = format!(
            "{BASE_URL}{}",
            if is_spanish(path) {
                path.clone()
            } else {
                counterpart(path)
            }
        );
        assert_eq!(
            alternates(&html),
            [
                ("en".to_string(), english_url.clone()),
                ("es".to_string(), spanish_url),
                ("x-default".to_string(), english_url),
            ],
            "{path}: alternates"
        );
        // The switch leads to the same page in the other language, named in that language.
        let switch = attribute_of(&html, "data-language-switch=\"\"", "href")
            .unwrap_or_else(|| panic!("{path}: no switch"));
        assert_eq!(switch, counterpart(path), "{path}: language switch");
        assert_eq!(
            attribute_of(&html, "data-language-switch=\"\"", "lang"),
            Some(other),
            "{path}"
        );
        // ... and that page names this one back.
        let back = get(&client, switch);
        let this_url = format!("{BASE_URL}{}", if path == "/" { "/" } else { path });
        assert!(
            alternates(&back).iter().any(|(_, href)| *href == this_url),
            "{switch} does not name {path}"
        );
    }
}

#[test]
fn spanish_pages_are_written_in_spanish() {
    let client = common::client();
    for (path, words) in [
        (
            "/es",
            [
                "Cotice gratis",
                "Preguntas frecuentes",
                "Saltar al contenido",
            ],
        ),
        (
            "/es/get-quote",
            [
                "Cotización gratis",
                "Información que debe tener a la mano",
                "Llámenos al",
            ],
        ),
        (
            "/es/blog",
            [
                "Preguntas sobre su cobertura?",
                "Consejos de seguros",
                "Regulaciones",
            ],
        ),
        (
            "/es/contact",
            ["Horario de atención", "Escríbanos", "Cerrado"],
        ),
    ] {
        let html = get(&client, path);
        for word in words {
            assert!(html.contains(word), "{path}: {word:?} missing");
        }
        assert!(
            html.contains("<meta property=\"og:locale\" content=\"es_US\">"),
            "{path}"
        );
    }
    let english = get(&client, "/");
    assert!(english.contains("Get Free Quote") && !english.contains("Cotice gratis"));
}

/// The words a reader sees in `html`: no head, scripts or code blocks, tags as line breaks, parentheses (where the
/// Spanish gives the English trade term: "(waiver of subrogation)") left out.
fn visible_lines(html: &str) -> Vec<String> {
    let mut text = html.to_string();
    for (open, close) in [
        ("<head>", "</head>"),
        ("<script", "</script>"),
        ("<pre", "</pre>"),
    ] {
        while let Some(start) = text.find(open) {
            let Some(length) = text[start..].find(close) else {
                break;
            };
            text.replace_range(start..start + length + close.len(), "\n");
        }
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    let (mut in_tag, mut depth) = (false, 0);
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                lines.push(std::mem::take(&mut line));
            }
            _ if in_tag => {}
            '(' => depth += 1,
            ')' => depth = (depth - 1).max(0),
            _ if depth == 0 => line.push(c),
            _ => {}
        }
    }
    lines.push(line);
    lines
        .into_iter()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn spanish_pages_leave_nothing_in_english() {
    // Words English sentences are made of and Spanish ones never are; two in a line is an English sentence.
    const ENGLISH: [&str; 14] = [
        "the", "and", "your", "with", "our", "you", "we", "of", "to", "is", "are", "this", "that",
        "from",
    ];
    let client = common::client();
    let mut paths: Vec<String> = common::sitemap_paths(&client)
        .into_iter()
        .filter(|p| is_spanish(p))
        .collect();
    paths.extend([
        "/es/no-such-page".to_string(),
        "/es/blog/no-such-post".to_string(),
    ]);
    let mut english = Vec::new();
    for path in &paths {
        let html = client.get(path.clone()).dispatch().into_string().unwrap();
        for line in visible_lines(&html) {
            let count = line
                .split(|c: char| !c.is_alphabetic())
                .filter(|word| ENGLISH.contains(&word.to_lowercase().as_str()))
                .count();
            if count >= 2 {
                english.push(format!("{path}: {line}"));
            }
        }
    }
    assert!(paths.len() > 30, "{paths:?}");
    assert_eq!(english, Vec::<String>::new());
    // The same reading finds the English of an English page.
    let home = client.get("/").dispatch().into_string().unwrap();
    assert!(
        visible_lines(&home)
            .iter()
            .any(|l| l.contains("Frequently Asked Questions"))
    );
}

#[test]
fn spanish_pages_link_to_spanish_pages() {
    let client = common::client();
    let mut wrong = Vec::new();
    for path in common::sitemap_paths(&client)
        .into_iter()
        .filter(|p| is_spanish(p))
    {
        let html = client.get(path.clone()).dispatch().into_string().unwrap();
        let body = &html[html.find("<body").unwrap_or(0)..];
        for tag in body.split('<').filter(|tag| tag.starts_with("a ")) {
            let Some(href) = tag
                .split(" href=\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
            else {
                continue;
            };
            // Only the language switch leads out of the Spanish pages; phone and mail links go nowhere on the site.
            let own_page = href.starts_with('/') && !href.starts_with("/assets/");
            if own_page
                && !is_spanish(href.split(['?', '#']).next().unwrap_or(href))
                && !tag.contains("data-language-switch")
            {
                wrong.push(format!("{path} -> {href}"));
            }
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
}
