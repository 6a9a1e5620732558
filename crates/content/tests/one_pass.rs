//! An owner makes the content theirs in one pass (issue 35), against a copy of the real content through
//! `content::build`, what build.rs calls: the agency's facts reach the words of both languages through placeholders
//! (the consent text naming the legal name) with no translation review; four unrelated mistakes are named by one
//! build; a brand too long for the titles is named as the cause; the agency's name written out, a misspelt
//! placeholder, an author renamed; and `stamp` marking a translation reviewed.

mod common;

use std::path::Path;

use common::{copy_of_content, edit, today};

fn build(dir: &Path) -> Result<content::Built, Vec<String>> {
    content::build(dir, today())
}

/// The facts of a new owner, in the copy `dir`: brand, legal name, phone, e-mail and founding year.
fn lone_star(dir: &Path) {
    edit(
        dir,
        "facts.toml",
        "brand = \"Milepost Truck Insurance\"\nlegal_name = \"Milepost Insurance Agency, LLC\"\nphone = \"(555) 010-0142\"\nphone_e164 = \"+15550100142\"\nemail = \"quotes@example.com\"",
        "brand = \"Lone Star Freight\"\nlegal_name = \"Lone Star Freight Insurance Agency LLC\"\nphone = \"(817) 555-2368\"\nphone_e164 = \"+18175552368\"\nemail = \"quotes@lonestar.example\"",
    );
    edit(dir, "facts.toml", "founded = 2010", "founded = 2018");
}

#[test]
fn the_facts_reach_the_words_of_both_languages_without_a_review() {
    let dir = copy_of_content("facts-in-words");
    lone_star(&dir);
    let built = build(&dir).unwrap_or_else(|problems| panic!("{}", content::report(&problems)));
    for (language, document) in [("en", &built.english), ("es", &built.spanish)] {
        let json = content::to_json(document);
        for gone in ["Milepost", "2010", "(555) 010-0142", "quotes@example.com"] {
            assert!(
                !json.contains(gone),
                "{language}: {gone} is still in the content"
            );
        }
        assert!(json.contains("Lone Star Freight"), "{language}");
        // The consent is given to the company that will call, by its legal name.
        assert!(
            document
                .forms
                .consent_text
                .contains("Lone Star Freight Insurance Agency LLC"),
            "{language}: {}",
            document.forms.consent_text
        );
    }
    let about = &built.english.pages["about"];
    assert!(
        about["intro"].as_str().unwrap().contains("Since 2018"),
        "{about}"
    );
    let privacy = built
        .english
        .documents
        .iter()
        .find(|d| d.slug == "privacy")
        .unwrap();
    assert!(
        privacy
            .html
            .contains("Lone Star Freight Insurance Agency LLC")
    );
    // The consent text the server stores is the one the form shows.
    let files = content::server_files(&built);
    let consent = files
        .iter()
        .find(|(name, _)| *name == "consent.es.txt")
        .unwrap();
    assert_eq!(consent.1, built.spanish.forms.consent_text);
    assert!(
        consent
            .1
            .contains("doy a Lone Star Freight Insurance Agency LLC mi consentimiento")
    );
}

#[test]
fn one_build_names_four_unrelated_mistakes() {
    let dir = copy_of_content("four-mistakes");
    // 1. A real address, with the sample testimonials still there.
    edit(
        &dir,
        "facts.toml",
        "base_url = \"https://www.example.com\"",
        "base_url = \"https://www.lonestarfreight.com\"",
    );
    // 2. A post signed by nobody the facts know.
    edit(
        &dir,
        "blog/cargo-insurance-coverage-exclusions.md",
        "author = \"Priya Shah\"",
        "author = \"Pat Nobody\"",
    );
    // 3. A title too long for a search result with the brand.
    edit(
        &dir,
        "pages/about.toml",
        "title = \"About Us\"",
        "title = \"About Us and Our Long Story of Trucking\"",
    );
    // 4. An English page changed under its translation.
    edit(
        &dir,
        "pages/contact.toml",
        "a claim. We reply to e-mails within 24 hours.",
        "a claim. We reply to e-mails within one day.",
    );
    let problems = build(&dir).err().expect("the build stops");
    let has = |file: &str, words: &str| {
        problems
            .iter()
            .any(|p| p.starts_with(&format!("{file}: ")) && p.contains(words))
    };
    assert!(
        has("content/testimonials.toml", "field `testimonials[0]`"),
        "{problems:#?}"
    );
    assert!(
        has("content/es/testimonials.toml", "field `testimonials[0]`"),
        "{problems:#?}"
    );
    assert!(
        has(
            "content/blog/cargo-insurance-coverage-exclusions.md",
            "Pat Nobody"
        ),
        "{problems:#?}"
    );
    assert!(
        has(
            "content/pages/about.toml",
            "\"About Us and Our Long Story of Trucking | Milepost Truck Insurance\" is 66 characters"
        ),
        "{problems:#?}"
    );
    assert!(
        has(
            "content/es/pages/contact.toml",
            "content/pages/contact.toml changed"
        ),
        "{problems:#?}"
    );
    // The sample's other items are listed in the same run.
    assert!(has("content/facts.toml", "field `phone`"), "{problems:#?}");
    // Grouped by file, each file once.
    let report = content::report(&problems);
    assert_eq!(
        report.matches("\ncontent/testimonials.toml\n").count(),
        1,
        "{report}"
    );
}

#[test]
fn a_brand_too_long_for_the_titles_is_named_as_the_cause() {
    let dir = copy_of_content("long-brand");
    edit(
        &dir,
        "facts.toml",
        "brand = \"Milepost Truck Insurance\"",
        "brand = \"Lone Star Freight Insurance Agency\"",
    );
    let problems = build(&dir).err().expect("the build stops");
    assert!(
        problems.contains(
            &"content/facts.toml: field `brand`: \"Lone Star Freight Insurance Agency\" is 34 characters; the site's own \
              page titles fit 60 with it only up to 24: shorten it, or set `short_brand` (at most 24 characters, e.g. \
              the name without \"LLC\" or \"Insurance Agency\") for the titles"
                .to_string()
        ),
        "{problems:#?}"
    );
    // A page title that no longer fits says how much room the brand leaves.
    assert!(
        problems.iter().any(|p| p.starts_with("content/blog/")
            && p.contains(
                "`brand` in content/facts.toml is 34 characters, which leaves 23 for a title"
            )),
        "{problems:#?}"
    );
    // `short_brand` is what the titles end with: then no title is too long (the descriptions that name the long
    // brand still are, in Spanish, and are named as such).
    edit(
        &dir,
        "facts.toml",
        "legal_name =",
        "short_brand = \"Lone Star Freight\"\nlegal_name =",
    );
    let problems = build(&dir).err().expect("descriptions too long");
    assert!(
        !problems.iter().any(|p| p.contains("title")),
        "{problems:#?}"
    );
    assert!(
        problems.iter().all(|p| p.contains("field `description`")),
        "{problems:#?}"
    );
}

#[test]
fn the_agency_named_literally_or_a_misspelt_placeholder_is_refused() {
    let dir = copy_of_content("literal-name");
    edit(
        &dir,
        "es/pages/about.toml",
        "{brand} atiende",
        "Milepost Truck Insurance atiende",
    );
    edit(
        &dir,
        "pages/contact.toml",
        "Contact {brand}",
        "Contact {brnad}",
    );
    let problems = build(&dir).err().expect("the build stops");
    assert!(
        problems.contains(
            &"content/es/pages/about.toml: names the agency \"Milepost Truck Insurance\" as written in \
              content/facts.toml: write {brand} instead, so the words follow the facts when they change"
                .to_string()
        ),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("content/pages/contact.toml: {brnad} is not a placeholder")),
        "{problems:#?}"
    );
}

#[test]
fn an_author_renamed_in_the_facts_and_the_posts_asks_for_no_review() {
    let dir = copy_of_content("author-renamed");
    edit(
        &dir,
        "facts.toml",
        "name = \"Priya Shah\"",
        "name = \"The Lone Star Team\"",
    );
    // Every post she signed, in both languages.
    for folder in ["blog", "es/blog"] {
        for entry in std::fs::read_dir(dir.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let renamed =
                text.replace("author = \"Priya Shah\"", "author = \"The Lone Star Team\"");
            std::fs::write(&path, renamed).unwrap();
        }
    }
    let problems = build(&dir).err().unwrap_or_default();
    assert!(
        !problems
            .iter()
            .any(|p| p.contains("translation_of") || p.contains("author")),
        "{problems:#?}"
    );
}

#[test]
fn a_reviewed_translation_is_stamped_and_builds() {
    let dir = copy_of_content("stamp");
    edit(
        &dir,
        "faq.toml",
        "How quickly can I get a quote?",
        "How fast can I get a quote?",
    );
    let stale = content::stale(&dir);
    assert_eq!(stale, [dir.join("es/faq.toml")]);
    assert!(build(&dir).is_err());
    let stamped = content::stamp(&dir, &stale[0])
        .unwrap()
        .expect("a new stamp");
    std::fs::write(&stale[0], stamped).unwrap();
    assert_eq!(content::stale(&dir), Vec::<std::path::PathBuf>::new());
    assert_eq!(content::stamp(&dir, &stale[0]), Ok(None));
    build(&dir).unwrap_or_else(|problems| panic!("{}", content::report(&problems)));
    assert!(
        content::stamp(&dir, &dir.join("faq.toml"))
            .unwrap_err()
            .contains("is not a translation")
    );
}

#[test]
fn a_legal_name_with_an_ampersand_builds_and_the_consent_version_follows_the_words() {
    let dir = copy_of_content("ampersand");
    let before = build(&dir).unwrap_or_else(|problems| panic!("{}", content::report(&problems)));
    let version = |built: &content::Built| {
        content::server_files(built)
            .into_iter()
            .find(|(name, _)| *name == "consent-version.txt")
            .unwrap()
            .1
    };
    edit(
        &dir,
        "facts.toml",
        "legal_name = \"Milepost Insurance Agency, LLC\"",
        "legal_name = \"Smith & Sons Insurance, LLC\"",
    );
    let after = build(&dir).unwrap_or_else(|problems| panic!("{}", content::report(&problems)));
    assert!(
        after
            .english
            .forms
            .consent_text
            .contains("I give Smith & Sons Insurance, LLC my")
    );
    // The words changed with the fact and forms.toml did not: the version stored with a lead says so.
    let (old, new) = (version(&before), version(&after));
    assert_ne!(old, new);
    assert_eq!(
        old.split_once('+').unwrap().0,
        new.split_once('+').unwrap().0
    );
    let privacy = after
        .english
        .documents
        .iter()
        .find(|d| d.slug == "privacy")
        .unwrap();
    assert!(
        privacy.html.contains("Smith &amp; Sons Insurance, LLC"),
        "{}",
        privacy.html
    );
}
