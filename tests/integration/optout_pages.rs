//! The visitor's side of the opt-out (issue 25), as served: `/opt-out` in both languages (the form posting to the
//! opt-out endpoint with its fields, the other ways with the agency's number and address from facts.toml, when it takes
//! effect), the page a plain post lands on (`/opt-out/received`: what happens next, out of the sitemap, never indexed),
//! the correction page's template, the footer's link, and the quote form's consent whose words naming the page link
//! to it while staying, word for word, the text a lead stores. (The endpoint itself is tested with the server.)

use crate::common;
use crate::pages::{content_toml, html_text, page};

/// What a person reads of some HTML: the text without its tags.
fn without_tags(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

/// The inside of the first `<tag ...>` that contains `marker` in its opening tag, up to its closing tag (tags of its
/// own kind inside it are not expected).
fn element<'a>(html: &'a str, tag: &str, marker: &str) -> &'a str {
    let start = html
        .match_indices(&format!("<{tag}"))
        .map(|(at, _)| at)
        .find(|at| html[*at..].split('>').next().unwrap().contains(marker))
        .unwrap_or_else(|| panic!("no <{tag}> with {marker}"));
    let inner = start + html[start..].find('>').unwrap() + 1;
    let end = inner + html[inner..].find(&format!("</{tag}>")).unwrap();
    &html[inner..end]
}

/// The opening tag of the element with this id.
fn opening_tag<'a>(html: &'a str, id: &str) -> &'a str {
    let at = html
        .find(&format!(r#"id="{id}""#))
        .unwrap_or_else(|| panic!("no element {id}"));
    let start = html[..at].rfind('<').unwrap();
    &html[start..at + html[at..].find('>').unwrap() + 1]
}

/// The two languages: the page prefix, the content folder, the consent text the server stores for that language.
fn languages() -> [(&'static str, &'static str, &'static str); 2] {
    [
        ("", "", crate::common::consent_text()),
        ("/es", "es/", crate::common::consent_text_es()),
    ]
}

#[test]
fn the_opt_out_page_has_its_form_the_other_ways_and_when_it_takes_effect() {
    let client = common::client();
    let site = content_toml("facts.toml");
    for (prefix, folder, _) in languages() {
        let path = format!("{prefix}/opt-out");
        let html = page(&client, &path);
        let copy = content_toml(&format!("{folder}pages/opt-out.toml"));
        let form = element(&html, "form", r#"action="/api/opt-out""#);
        for (id, attributes) in [
            (
                "optout-phone",
                &[r#"name="phone""#, r#"type="tel""#, r#"autocomplete="tel""#][..],
            ),
            (
                "optout-email",
                &[
                    r#"name="email""#,
                    r#"type="email""#,
                    r#"autocomplete="email""#,
                ],
            ),
            ("optout-note", &[r#"name="note""#, r#"maxlength="500""#]),
        ] {
            let tag = opening_tag(form, id).to_lowercase();
            // The error beside each field is tied to it.
            let described = format!(r#"aria-describedby="{id}-error""#);
            for attribute in attributes.iter().copied().chain([described.as_str()]) {
                assert!(
                    tag.contains(attribute),
                    "{path}: {id} lacks {attribute}: {tag}"
                );
            }
            assert!(
                form.contains(&format!(r#"id="{id}-error""#)),
                "{path}: {id}'s error"
            );
        }
        for needle in [r#"name="website""#, r#"type="submit""#] {
            assert!(form.contains(needle), "{path}'s form lacks {needle}");
        }
        assert!(
            html.contains(r#"action="/api/opt-out" method="post""#),
            "{path}: a plain post without JavaScript"
        );
        // The page's language travels with the post.
        let locale = if prefix.is_empty() { "en" } else { "es" };
        assert!(form.contains(&format!(r#"name="locale" value="{locale}""#)));
        // Neither field is required alone: the server says when both are empty.
        assert!(
            !form.contains("required"),
            "{path}: no field is required alone"
        );
        // The other ways, with the agency's own number and address.
        for needle in [
            format!(r#"href="tel:{}""#, site["phone_e164"].as_str().unwrap()),
            format!(r#"href="mailto:{}""#, site["email"].as_str().unwrap()),
            "STOP".into(),
            html_text(copy["timing"].as_str().unwrap()),
            html_text(copy["policy_note"].as_str().unwrap()),
            html_text(copy["intro"].as_str().unwrap()),
        ] {
            assert!(html.contains(&needle), "{path} lacks {needle:?}");
        }
        // An indexed page, in the sitemap, with its counterpart in the other language.
        assert!(html.contains(r#"<link rel="canonical""#), "{path}");
        assert!(!html.contains("noindex"), "{path}");
        assert!(
            common::sitemap_paths(&client).contains(&path),
            "{path} is in the sitemap"
        );
    }
}

#[test]
fn the_received_page_says_what_happens_next_and_is_not_indexed() {
    let client = common::client();
    for (prefix, folder, _) in languages() {
        let path = format!("{prefix}/opt-out/received");
        let html = page(&client, &path);
        let received = content_toml(&format!("{folder}pages/opt-out.toml"))["received"]
            .as_table()
            .unwrap()
            .clone();
        assert!(html.contains(&html_text(received["heading"].as_str().unwrap())));
        assert!(html.contains(&html_text(received["text"].as_str().unwrap())));
        for point in received["next"].as_array().unwrap() {
            let point = html_text(point.as_str().unwrap());
            assert!(html.contains(&point), "{path} lacks {point:?}");
        }
        // The erasure sentence, its words naming the privacy policy linked to it in the page's language.
        let erasure = received["erasure"].as_str().unwrap();
        let words = received["erasure_link"].as_str().unwrap();
        let link = format!(
            r#"<a href="{prefix}/privacy" class="font-semibold text-steel underline underline-offset-2">{}</a>"#,
            html_text(words)
        );
        assert!(html.contains(&link), "{path} links {words:?}");
        let (before, after) = erasure.split_once(words).unwrap();
        assert!(html.contains(&format!("{}{link}{}", html_text(before), html_text(after))));
        assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
        assert!(!common::sitemap_paths(&client).contains(&path));
    }
}

#[test]
fn the_correction_page_is_the_opt_out_form_with_its_markers() {
    for (name, lang) in [
        ("_forms/opt-out.html", "en"),
        ("es/_forms/opt-out.html", "es"),
    ] {
        let file = embedded::file(name).unwrap_or_else(|| panic!("{name} is not embedded"));
        let html = String::from_utf8_lossy(&file.data).into_owned();
        assert!(html.contains(&format!(r#"<html lang="{lang}""#)), "{name}");
        assert!(html.contains(r#"action="/api/opt-out""#), "{name}");
        for field in ["phone", "email", "note"] {
            for marker in ["TRUCKINS_VALUE_", "TRUCKINS_ERROR_"] {
                assert!(
                    html.contains(&format!("{marker}{field}")),
                    "{name}: {marker}{field}"
                );
            }
        }
        assert!(html.contains("TRUCKINS_FORM_MESSAGE"), "{name}");
    }
}

#[test]
fn the_footer_and_the_privacy_policy_link_the_opt_out_page_in_each_language() {
    let client = common::client();
    for (prefix, _, _) in languages() {
        let home = page(&client, if prefix.is_empty() { "/" } else { prefix });
        let footer = element(&home, "footer", "");
        assert!(
            footer.contains(&format!(r#"href="{prefix}/opt-out""#)),
            "{prefix} footer"
        );
        let privacy = page(&client, &format!("{prefix}/privacy"));
        assert!(
            privacy.contains(&format!(r#"href="{prefix}/opt-out""#)),
            "{prefix}/privacy"
        );
    }
}

#[test]
fn the_consent_links_the_opt_out_page_without_changing_its_words() {
    let client = common::client();
    for (prefix, folder, stored) in languages() {
        let forms = content_toml(&format!("{folder}forms.toml"));
        let words = forms["opt_out_link"].as_str().unwrap();
        let link = format!(
            r#"<a href="{prefix}/opt-out" class="font-semibold text-steel underline underline-offset-2">{}</a>"#,
            html_text(words)
        );
        // Every quote form: the home hero, the quote page, a product page's two, and the correction page.
        let product = format!("{prefix}/products/hotshot-insurance");
        let home = if prefix.is_empty() { "/" } else { prefix };
        let quote_forms = [
            (home.to_string(), "home-quote"),
            (format!("{prefix}/get-quote"), "page-quote"),
            (product.clone(), "product-quote"),
            (product, "sidebar-quote"),
        ];
        let correction = embedded::file(&format!("{folder}_forms/quote.html")).unwrap();
        let correction = String::from_utf8_lossy(&correction.data).into_owned();
        for (path, prefix_id) in quote_forms {
            check_consent_label(&page(&client, &path), prefix_id, &link, stored, &path);
        }
        check_consent_label(
            &correction,
            "correction",
            &link,
            stored,
            "_forms/quote.html",
        );
    }
}

/// The consent's label reads, once its tags are set aside, exactly the text a lead stores, with `link` in it.
fn check_consent_label(html: &str, id_prefix: &str, link: &str, stored: &str, place: &str) {
    let label = element(html, "label", &format!(r#"for="{id_prefix}-consent""#));
    assert!(label.contains(link), "{place} ({id_prefix}): {label}");
    assert_eq!(
        without_tags(label),
        html_text(stored.trim()),
        "{place} ({id_prefix}): the words shown are the words stored"
    );
}
