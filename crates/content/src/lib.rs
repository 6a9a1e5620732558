//! The site's content: reads the folder `content/`, checks it and renders its Markdown, into one document per
//! language for the web app. build.rs calls [`build`] and writes [`to_json`]'s result for the web build and
//! [`server_files`] for the server; a mistake in the content is reported as `<file>: <field>: <problem>`, every one
//! of every kind found in a single run ([`report`] groups them by file).
//!
//! How it flows: `files` reads TOML into the types of `model` (which deny unknown fields) and splits Markdown front
//! matter, with the facts filled into the words' placeholders by `fill`; one module per kind of file checks it
//! (`site`, `home`, `forms`, `products`, `pages`, `posts`, and `promises` across all of them) into a list of
//! `problems`; `translations` and `shape` hold the Spanish to the English; `samples` lists what of the sample agency
//! remains, `titles` measures the titles with the brand, `hours` writes the business hours for the server; `markdown`
//! renders prose with code highlighted by `highlight`; `placeholders` serialises the result with the words that stand
//! for the consent text and the claims line filled in.

mod dates;
mod fields;
mod files;
mod fill;
mod forms;
mod highlight;
mod home;
mod hours;
mod markdown;
mod model;
mod outputs;
mod pages;
mod placeholders;
mod posts;
mod problems;
mod products;
mod promises;
mod samples;
mod shape;
mod site;
mod titles;
mod translations;
mod typescript;

use std::collections::HashSet;
use std::path::Path;

pub use dates::BuildDate;
pub use markdown::MarkdownRenderer;
pub use model::*;
pub use outputs::server_files;
pub use placeholders::to_json;
pub use samples::{built_for_sample, refuse_samples, sample_items};
pub use titles::TITLE_MAX;
pub use translations::{review_hash, stale, stamp};
pub use typescript::typescript;

use files::list_files;
use problems::Problems;

/// The whole content, checked: what build.rs writes for the web build and the server.
pub struct Built {
    pub english: Content,
    pub spanish: Content,
    /// The business hours as the server counts them (src/hours.rs reads this text).
    pub hours: String,
}

/// Reads and checks the content folder `dir` as of the build date `today`, both languages and everything across
/// them: the translations' reviews and shape, the sample agency's items (for a real `base_url`), the titles with
/// the brand, the agency's names written out instead of their placeholders, and the business hours. Every problem
/// of every kind in one list (`<file>: <problem>`), so that one build names them all; [`report`] groups them.
pub fn build(dir: &Path, today: BuildDate) -> Result<Built, Vec<String>> {
    let (english, mut found) = read_folder(dir, dir, Problems::new(dir), today);
    let (spanish, more) = read_translation(dir, english.as_ref(), today);
    found.extend(more);
    let mut problems = Problems::new(dir);
    if let Some(values) = site::fact_values(&dir.join(site::FACTS_FILE), today) {
        fill::check_literal_names(dir, &values, &mut problems);
    }
    let mut hours = None;
    if let Some(english) = &english {
        titles::check_brand(&dir.join(site::FACTS_FILE), english, &mut problems);
        titles::check(dir, english, &mut problems);
        hours = hours::business_hours(
            &english.site.hours,
            &dir.join(site::FACTS_FILE),
            &mut problems,
        );
        if !built_for_sample(&english.site) {
            found.extend(samples::items(dir, english, spanish.as_ref()));
        }
    }
    if let Some(spanish) = &spanish {
        titles::check(&dir.join(translations::FOLDER), spanish, &mut problems);
    }
    found.extend(problems.into_vec());
    match (english, spanish, hours) {
        (Some(english), Some(spanish), Some(hours)) if found.is_empty() => Ok(Built {
            english,
            spanish,
            hours,
        }),
        _ => Err(found),
    }
}

/// The problems [`build`] found as a person reads them: grouped by file (in the order of the files' names), each
/// file once with its problems under it.
pub fn report(problems: &[String]) -> String {
    let mut by_file: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for problem in problems {
        let (file, what) = problem.split_once(": ").unwrap_or(("content", problem));
        let list = by_file.entry(file).or_default();
        if !list.contains(&what) {
            list.push(what);
        }
    }
    let mut text = format!(
        "The content in content/ has {} problem(s) in {} file(s); all of them are listed, fix them in any order:\n",
        by_file.values().map(Vec::len).sum::<usize>(),
        by_file.len()
    );
    for (file, list) in by_file {
        text.push_str(&format!("\n{file}\n"));
        for what in list {
            text.push_str(&format!("  - {what}\n"));
        }
    }
    text
}

/// Reads and checks the content folder `dir` as of the build date `today` (the offers' validity is checked against
/// it). Every problem found, as `<file>: <problem>` with the file named from `dir`'s own name on, or the content.
pub fn load(dir: &Path, today: BuildDate) -> Result<Content, Vec<String>> {
    complete(read_folder(dir, dir, Problems::new(dir), today))
}

/// Reads and checks the Spanish translation, `dir/es/`, of the content `english` read from `dir`: the same checks as
/// the English, plus that every file is translated and was reviewed against the English as it is now
/// (`translation_of`), that the translation has the English shape and facts, and that its consent text has a
/// version of its own (a lead stores the version of the words it was shown). Problems as [`load`]'s, naming
/// `content/es/...`.
pub fn load_translation(
    dir: &Path,
    english: &Content,
    today: BuildDate,
) -> Result<Content, Vec<String>> {
    complete(read_translation(dir, Some(english), today))
}

/// Content read without a problem, or the problems.
fn complete((content, problems): (Option<Content>, Vec<String>)) -> Result<Content, Vec<String>> {
    match content {
        Some(content) if problems.is_empty() => Ok(content),
        _ => Err(problems),
    }
}

/// The translation of `dir`, read and checked against the English when that could be read; as much of it as could
/// be read (for the checks across the content), and every problem.
fn read_translation(
    dir: &Path,
    english: Option<&Content>,
    today: BuildDate,
) -> (Option<Content>, Vec<String>) {
    let folder = dir.join(translations::FOLDER);
    let mut problems = Problems::new(dir);
    translations::check_files(dir, &mut problems);
    let mut found = problems.into_vec();
    let (translation, more) = read_folder(&folder, dir, Problems::new(dir), today);
    found.extend(more);
    let Some(mut translation) = translation else {
        return (None, found);
    };
    // `{claims}` in the Spanish copy says it in Spanish.
    translation.site.claims_text = placeholders::claims_text_es(translation.site.claims.as_ref());
    if let Some(english) = english {
        let mut problems = Problems::new(dir);
        for (file, problem) in shape::differences(english, &translation) {
            problems.add(&folder.join(file), problem);
        }
        problems.check(
            translation.forms.consent_version != english.forms.consent_version,
            &folder.join("forms.toml"),
            || {
                "field `consent_version`: the same as the English; the Spanish consent text needs a version of its own (such as the English one with \"-es\")"
                    .into()
            },
        );
        found.extend(problems.into_vec());
    }
    (Some(translation), found)
}

/// Reads and checks the words of one language in `dir` (the content folder, or its translation), with the facts
/// and images of the content folder `root`, which every language shares: as much as could be read (every file the
/// document cannot do without read), with every problem found.
fn read_folder(
    dir: &Path,
    root: &Path,
    mut problems: Problems,
    today: BuildDate,
) -> (Option<Content>, Vec<String>) {
    // The facts first: every other file is read with them filled into its placeholders.
    if let Some(values) = site::fact_values(&root.join(site::FACTS_FILE), today) {
        problems.fill_with(values);
    }
    let markdown = MarkdownRenderer::new();
    let images_dir = root.join("images");
    let images_dir = images_dir.as_path();

    let images = list_files(images_dir, "svg", &mut problems)
        .into_iter()
        .filter_map(|path| {
            path.strip_prefix(images_dir)
                .ok()
                .map(|p| p.to_string_lossy().replace('\\', "/"))
        })
        .collect::<Vec<_>>();
    let image_set: HashSet<&str> = images.iter().map(String::as_str).collect();

    let site = site::load(
        &root.join(site::FACTS_FILE),
        &dir.join("site.toml"),
        today,
        &mut problems,
    );
    if let Some(site) = &site {
        promises::check(dir, site.claims.is_some(), &mut problems);
    }
    let authors: Option<Vec<&str>> = site
        .as_ref()
        .map(|site| site.authors.iter().map(|a| a.name.as_str()).collect());
    let home = home::load_home(dir, &mut problems);
    let testimonials = home::load_testimonials(dir, &mut problems);
    let forms = forms::load(dir, &mut problems);
    let insurance_types: Vec<String> = forms
        .as_ref()
        .map(|f| f.insurance_types.iter().map(|t| t.value.clone()).collect())
        .unwrap_or_default();
    let faq = home::load_faq(dir, &mut problems);
    let products = products::load(
        &dir.join("products"),
        &image_set,
        &insurance_types,
        &mut problems,
    );
    let pages = pages::load_pages(&dir.join("pages"), &mut problems);
    let documents = pages::load_documents(&dir.join("pages"), &markdown, &mut problems);
    let posts = posts::load(
        &dir.join("blog"),
        &image_set,
        authors.as_deref(),
        &markdown,
        &mut problems,
    );

    let content = match (site, forms, home, testimonials, faq) {
        (Some(site), Some(forms), Some(home), Some(testimonials), Some(faq)) => Some(Content {
            site,
            forms,
            home,
            testimonials,
            faq,
            products,
            pages,
            documents,
            posts,
            categories: posts::CATEGORIES.to_vec(),
            images,
        }),
        _ => None,
    };
    (content, problems.into_vec())
}
