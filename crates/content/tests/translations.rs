//! The Spanish translation's checks against the real content: a copy of `content/` (English and `es/`) loads with no
//! problem, and each way a translation can go wrong, made in a copy, is reported naming the Spanish file: a file
//! missing or extra, a missing or stale `translation_of`, a list of another length, a fact that differs, and a
//! consent text without a version of its own.

mod common;

use common::{copy_of_content, edit, problems, sha256_of, today};

#[test]
fn the_real_translation_loads_with_no_problem() {
    let dir = copy_of_content("valid");
    assert_eq!(problems(&dir), Vec::<String>::new());
    let english = content::load(&dir, today()).unwrap();
    let spanish = content::load_translation(&dir, &english, today()).unwrap();
    assert_eq!(spanish.posts.len(), english.posts.len());
    assert_ne!(spanish.home.title, english.home.title);
    // What `{claims}` stands for is said in Spanish on the Spanish pages.
    assert!(
        spanish.site.claims_text.starts_with("Fuera del horario"),
        "{}",
        spanish.site.claims_text
    );
}

#[test]
fn a_missing_or_extra_file_is_named() {
    let dir = copy_of_content("files");
    std::fs::remove_file(dir.join("es/faq.toml")).unwrap();
    std::fs::write(
        dir.join("es/blog/only-in-spanish.md"),
        "+++\ntitle = \"x\"\n+++\n",
    )
    .unwrap();
    let found = problems(&dir);
    assert!(
        found.contains(
            &"content/es/faq.toml: missing: translate content/faq.toml into this file".to_string()
        ),
        "{found:#?}"
    );
    assert!(
        found.contains(&"content/es/blog/only-in-spanish.md: translates no English file: content/blog/only-in-spanish.md does not exist".to_string()),
        "{found:#?}"
    );
}

#[test]
fn an_english_file_changed_since_the_review_stops_the_build_with_its_new_hash() {
    let dir = copy_of_content("stale");
    edit(&dir, "testimonials.toml", "rating = 4", "rating = 5");
    let now = sha256_of(&dir.join("testimonials.toml"));
    let found = problems(&dir);
    assert!(
        found.contains(&format!(
            "content/es/testimonials.toml: field `translation_of`: content/testimonials.toml changed since this translation was reviewed; bring the translation up to date, then stamp it reviewed: cargo reviewed content/es/testimonials.toml (sets `translation_of` to \"{now}\")"
        )),
        "{found:#?}"
    );
}

#[test]
fn a_translation_without_its_review_hash_is_refused() {
    let dir = copy_of_content("unreviewed");
    let hash = sha256_of(&dir.join("home.toml"));
    edit(
        &dir,
        "es/home.toml",
        &format!("translation_of = \"{hash}\"\n"),
        "",
    );
    let found = problems(&dir);
    assert!(
        found.contains(&format!(
            "content/es/home.toml: field `translation_of`: missing; once the translation says what content/home.toml says, stamp it reviewed: cargo reviewed content/es/home.toml (sets `translation_of` to \"{hash}\")"
        )),
        "{found:#?}"
    );
}

#[test]
fn a_translation_of_another_shape_or_with_other_facts_is_refused() {
    // Opening hours with one label fewer.
    let dir = copy_of_content("hours-labels");
    edit(&dir, "es/site.toml", ", \"Domingo\"]", "]");
    assert_eq!(
        problems(&dir),
        [
            "content/es/site.toml: field `hours_labels`: 2 labels; content/facts.toml has 3 [[hours]], one label each, in their order",
            // The shape is compared whatever else is wrong, so that one build names every problem.
            "content/es/site.toml: field `hours`: 2 entries, the English has 3"
        ]
    );

    let dir = copy_of_content("shape");
    // A post in another category, and the Spanish consent text with the English version.
    edit(
        &dir,
        "es/blog/cargo-insurance-coverage-exclusions.md",
        "category = \"Insurance Tips\"",
        "category = \"Safety\"",
    );
    edit(
        &dir,
        "es/forms.toml",
        "consent_version = \"2026-11-28-es\"",
        "consent_version = \"2026-11-28\"",
    );
    let found = problems(&dir);
    for expected in [
        "content/es/blog/cargo-insurance-coverage-exclusions.md: field `category`: \"Safety\" differs from the English \"Insurance Tips\"; a fact is the same in every language",
        "content/es/forms.toml: field `consent_version`: the same as the English; the Spanish consent text needs a version of its own (such as the English one with \"-es\")",
    ] {
        assert!(
            found.contains(&expected.to_string()),
            "missing {expected:?} in {found:#?}"
        );
    }
}
