//! The agency's facts written once and the sample agency kept from going live, against a copy of the real content:
//! a fact changed in `facts.toml` reaches both languages with no translation review; a fact written in a `site.toml`
//! is refused naming the file and field; the sample items are listed, each by file and field, for a real base URL,
//! kept for the sample one, and a real agency's content (samples replaced, testimonials deleted) builds.

mod common;

use std::path::Path;

use common::{copy_of_content, edit, problems, today};

/// Both languages of `dir`, loaded, or the problems found.
fn both(dir: &Path) -> Result<(content::Content, content::Content), Vec<String>> {
    let english = content::load(dir, today())?;
    let spanish = content::load_translation(dir, &english, today())?;
    Ok((english, spanish))
}

#[test]
fn a_fact_changed_in_one_file_reaches_both_languages() {
    let dir = copy_of_content("one-fact");
    edit(
        &dir,
        "facts.toml",
        "phone = \"(555) 010-0142\"\nphone_e164 = \"+15550100142\"",
        "phone = \"(817) 555-2368\"\nphone_e164 = \"+18175552368\"",
    );
    edit(&dir, "facts.toml", "opens = \"08:00\"", "opens = \"07:30\"");
    let (english, spanish) = both(&dir).unwrap_or_else(|problems| panic!("{problems:#?}"));
    for site in [&english.site, &spanish.site] {
        assert_eq!(site.phone, "(817) 555-2368");
        assert_eq!(site.phone_e164, "+18175552368");
        assert_eq!(site.hours[0].opens.as_deref(), Some("07:30"));
    }
    // The words stay each language's own.
    assert_eq!(english.site.hours[0].label, "Monday - Friday");
    assert_eq!(spanish.site.hours[0].label, "Lunes a viernes");
}

#[test]
fn a_fact_in_a_words_file_is_refused_naming_the_file_and_field() {
    let dir = copy_of_content("fact-in-words");
    edit(
        &dir,
        "es/site.toml",
        "hours_labels",
        "phone = \"(555) 010-0199\"\nhours_labels",
    );
    assert_eq!(
        problems(&dir),
        [
            "content/es/site.toml: field `phone`: a fact, the same in every language: it is kept once, in content/facts.toml; remove it here"
        ]
    );

    let dir = copy_of_content("fact-in-english-words");
    edit(
        &dir,
        "site.toml",
        "\"Sunday\"]",
        "\"Sunday\"]\n[address]\ncity = \"Dallas\"",
    );
    let found = content::load(&dir, today()).err().unwrap_or_default();
    assert!(
        found.contains(&"content/site.toml: field `address`: a fact, the same in every language: it is kept once, in content/facts.toml; remove it here".to_string()),
        "{found:#?}"
    );

    let dir = copy_of_content("facts-translated");
    std::fs::copy(dir.join("facts.toml"), dir.join("es/facts.toml")).unwrap();
    assert_eq!(
        problems(&dir),
        [
            "content/es/facts.toml: facts are the same in every language and have no translation: remove this file; content/facts.toml holds them"
        ]
    );
}

#[test]
fn words_in_the_facts_file_are_refused() {
    let dir = copy_of_content("words-in-facts");
    edit(
        &dir,
        "facts.toml",
        "founded = 2010",
        "founded = 2010\ndescription = \"We insure trucks.\"",
    );
    let found = content::load(&dir, today()).err().unwrap_or_default();
    assert_eq!(
        found,
        [
            "content/facts.toml: field `description`: words: they belong in site.toml (and its translation, es/site.toml)"
        ]
    );
}

#[test]
fn the_sample_content_is_kept_for_the_sample_base_url() {
    let dir = copy_of_content("sample-kept");
    let (english, spanish) = both(&dir).unwrap_or_else(|problems| panic!("{problems:#?}"));
    assert!(content::built_for_sample(&english.site));
    assert_eq!(content::refuse_samples(&dir, &english, &spanish), Ok(()));
    // Not because nothing was found: the sample's items are all there.
    assert_eq!(content::sample_items(&dir, &english, &spanish).len(), 16);
}

#[test]
fn every_sample_item_is_listed_for_a_real_base_url() {
    let dir = copy_of_content("sample-refused");
    edit(
        &dir,
        "facts.toml",
        "base_url = \"https://www.example.com\"",
        "base_url = \"https://www.realagency.com\"",
    );
    edit(
        &dir,
        "facts.toml",
        "# facebook = \"https://www.facebook.com/your-page\"",
        "facebook = \"https://www.facebook.com/your-page\"",
    );
    let (english, spanish) = both(&dir).unwrap_or_else(|problems| panic!("{problems:#?}"));
    let refused = content::refuse_samples(&dir, &english, &spanish).unwrap_err();
    let fields: Vec<String> = refused
        .iter()
        .map(|item| item.split(": ").take(2).collect::<Vec<_>>().join(": "))
        .collect();
    assert_eq!(
        fields,
        [
            "content/facts.toml: field `phone`",
            "content/facts.toml: field `phone_e164`",
            "content/facts.toml: field `email`",
            "content/facts.toml: field `address`",
            "content/facts.toml: field `licenses[0].number`",
            "content/facts.toml: field `social.facebook`",
            "content/facts.toml: field `insurers[0]`",
            "content/facts.toml: field `insurers[1]`",
            "content/facts.toml: field `authors[0]`",
            "content/facts.toml: field `authors[1]`",
            "content/facts.toml: field `authors[2]`",
            "content/testimonials.toml: field `testimonials[0]`",
            "content/testimonials.toml: field `testimonials[1]`",
            "content/testimonials.toml: field `testimonials[2]`",
            "content/es/testimonials.toml: field `testimonials[0]`",
            "content/es/testimonials.toml: field `testimonials[1]`",
            "content/es/testimonials.toml: field `testimonials[2]`",
        ]
    );
    // Each says why it must go.
    assert!(
        refused[4].contains("misleads visitors and regulators"),
        "{}",
        refused[4]
    );
    assert!(refused[11].contains("16 CFR Part 465"), "{}", refused[11]);
    assert!(refused[0].contains("reach no one"), "{}", refused[0]);
}

#[test]
fn a_real_agency_without_sample_items_or_testimonials_builds() {
    let dir = copy_of_content("real-agency");
    let facts = std::fs::read_to_string(dir.join("facts.toml")).unwrap();
    let facts = facts
        .replace("https://www.example.com", "https://www.realagency.com")
        .replace("(555) 010-0142", "(817) 555-2368")
        .replace("+15550100142", "+18175552368")
        .replace("quotes@example.com", "quotes@realagency.com")
        .replace("TX-0000000 (sample)", "2345678")
        .replace("sample = true                  # remove this line once the address is the agency's own\n", "")
        .replace("sample = true\n", "")
        .replace("(555) 010-0177", "(800) 555-2000")
        .replace("+15550100177", "+18005552000")
        .replace("https://claims.example.com", "https://www.greatplainsmutual.com/claims")
        .replace("(555) 010-0188", "(800) 555-3000")
        .replace("+15550100188", "+18005553000")
        .replace("https://www.example.net/claims", "https://www.lonestarcasualty.com/claims");
    std::fs::write(dir.join("facts.toml"), facts).unwrap();
    std::fs::remove_file(dir.join("testimonials.toml")).unwrap();
    std::fs::remove_file(dir.join("es/testimonials.toml")).unwrap();

    let (english, spanish) = both(&dir).unwrap_or_else(|problems| panic!("{problems:#?}"));
    assert!(!content::built_for_sample(&english.site));
    assert_eq!(content::refuse_samples(&dir, &english, &spanish), Ok(()));
    assert!(english.testimonials.is_empty() && spanish.testimonials.is_empty());
    assert_eq!(spanish.site.email, "quotes@realagency.com");
    assert_eq!(spanish.site.insurers[1].claims_phone, "(800) 555-3000");
}

#[test]
fn testimonials_deleted_in_one_language_only_are_refused() {
    let dir = copy_of_content("testimonials-one-language");
    std::fs::remove_file(dir.join("testimonials.toml")).unwrap();
    let found = problems(&dir);
    assert!(
        found.contains(&"content/es/testimonials.toml: translates no English file: content/testimonials.toml does not exist".to_string()),
        "{found:#?}"
    );
}
