//! The site's content: reads the folder `content/`, checks it and renders its Markdown, into one document for the
//! web app. build.rs calls [`load`] and writes [`to_json`]'s result for the web build; a mistake in the content is
//! reported as `<file>: <field>: <problem>`, every one found in a single run.
//!
//! How it flows: `files` reads TOML into the types of `model` (which deny unknown fields) and splits Markdown front
//! matter; one module per kind of file checks it (`site`, `home`, `forms`, `products`, `pages`, `posts`, and
//! `promises` across all of them) into a list of `problems`; `samples` lists what of the sample agency remains; `markdown` renders prose with code highlighted by
//! `highlight`; `placeholders` serialises the result with the words that stand for facts filled in.

mod dates;
mod fields;
mod files;
mod forms;
mod highlight;
mod home;
mod markdown;
mod model;
mod pages;
mod placeholders;
mod posts;
mod problems;
mod products;
mod promises;
mod samples;
mod shape;
mod site;
mod translations;
mod typescript;

use std::collections::HashSet;
use std::path::Path;

pub use dates::BuildDate;
pub use markdown::MarkdownRenderer;
pub use model::*;
pub use placeholders::to_json;
pub use samples::{built_for_sample, refuse_samples, sample_items};
pub use typescript::typescript;

use files::list_files;
use problems::Problems;

/// Reads and checks the content folder `dir` as of the build date `today` (the offers' validity is checked against
/// it). Every problem found, as `<file>: <problem>` with the file named from `dir`'s own name on, or the content.
pub fn load(dir: &Path, today: BuildDate) -> Result<Content, Vec<String>> {
    load_folder(dir, dir, Problems::new(dir), today)
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
    let folder = dir.join(translations::FOLDER);
    let mut problems = Problems::new(dir);
    translations::check_files(dir, &mut problems);
    let mut found = problems.into_vec();
    match load_folder(&folder, dir, Problems::new(dir), today) {
        Ok(mut translation) => {
            // `{claims}` in the Spanish copy says it in Spanish.
            translation.site.claims_text =
                placeholders::claims_text_es(translation.site.claims.as_ref());
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
            if found.is_empty() {
                Ok(translation)
            } else {
                Err(found)
            }
        }
        Err(problems) => {
            found.extend(problems);
            Err(found)
        }
    }
}

/// Reads and checks the words of one language in `dir` (the content folder, or its translation), with the facts
/// and images of the content folder `root`, which every language shares.
fn load_folder(
    dir: &Path,
    root: &Path,
    mut problems: Problems,
    today: BuildDate,
) -> Result<Content, Vec<String>> {
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

    match (site, forms, home, testimonials, faq) {
        (Some(site), Some(forms), Some(home), Some(testimonials), Some(faq))
            if problems.is_empty() =>
        {
            Ok(Content {
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
            })
        }
        _ => Err(problems.into_vec()),
    }
}
