//! Every page title fits a search result with the brand after it (`About Us | Milepost Truck Insurance`, at most 60
//! characters), checked with the content rather than after the web build, so a longer brand is named as the cause in
//! the same run as every other problem. The web app's prerender checks the finished pages again (web/src/routes.tsx).

use std::path::Path;

use crate::model::Content;
use crate::problems::Problems;

/// The longest `<title>` a search result shows whole (web/src/routes.tsx `TITLE_MAX`).
pub const TITLE_MAX: usize = 60;
/// Between a page's title and the brand.
const SEPARATOR: &str = " | ";
/// The longest title the web app writes itself, in either language (the Spanish "¡Solicitud de cotización
/// enviada!"); keep in step with web/src/routes.tsx's `errorRoutes` and web/src/i18n. The brand must leave room
/// for it.
const LONGEST_FIXED_TITLE: usize = 33;

/// Checks the titles of the content `content` read from the language folder `dir` (the content folder, or its
/// translation), and that the brand leaves room for the web app's own titles (once, for the English).
pub(crate) fn check(dir: &Path, content: &Content, problems: &mut Problems) {
    let brand = &content.site.short_brand;
    let brand_length = brand.chars().count();
    let room = TITLE_MAX.saturating_sub(SEPARATOR.len() + brand_length);
    let facts = "content/facts.toml";
    let brand_fact = if content.site.short_brand == content.site.brand {
        "brand"
    } else {
        "short_brand"
    };
    let mut check_title = |file: &Path, field: &str, title: &str| {
        let length = title.chars().count() + SEPARATOR.len() + brand_length;
        problems.check(length <= TITLE_MAX, file, || {
            format!(
                "field `{field}`: the title \"{title}{SEPARATOR}{brand}\" is {length} characters with the brand; at \
                 most {TITLE_MAX} fit a search result. `{brand_fact}` in {facts} is {brand_length} characters, which \
                 leaves {room} for a title: shorten the title, or set a shorter `short_brand` in {facts} for the titles"
            )
        });
    };
    check_title(&dir.join("home.toml"), "title", &content.home.title);
    for (name, page) in &content.pages {
        let file = dir.join("pages").join(format!("{name}.toml"));
        if let Some(title) = page.get("title").and_then(|t| t.as_str()) {
            check_title(&file, "title", title);
        }
        // The thank-you pages of the client forms take their title from the page's `received` words.
        if let Some(heading) = page.pointer("/received/heading").and_then(|t| t.as_str()) {
            check_title(&file, "received.heading", heading);
        }
    }
    for document in &content.documents {
        let file = dir.join("pages").join(format!("{}.md", document.slug));
        check_title(&file, "title", &document.title);
    }
    for product in &content.products {
        let file = dir.join("products").join(format!("{}.toml", product.slug));
        check_title(&file, "title", &product.title);
    }
    for post in &content.posts {
        let file = dir.join("blog").join(format!("{}.md", post.slug));
        match &post.seo_title {
            Some(seo_title) => check_title(&file, "seo_title", seo_title),
            None => check_title(&file, "title", &post.title),
        }
    }
}

/// The brand after every title must leave room for the web app's own titles ("Frequently Asked Questions", the
/// forms' thank-you pages): one problem naming the fact, its length and the limit.
pub(crate) fn check_brand(facts_file: &Path, content: &Content, problems: &mut Problems) {
    let site = &content.site;
    let most = TITLE_MAX - SEPARATOR.len() - LONGEST_FIXED_TITLE;
    let length = site.short_brand.chars().count();
    problems.check(length <= most, facts_file, || {
        if site.short_brand == site.brand {
            format!(
                "field `brand`: \"{}\" is {length} characters; the site's own page titles fit {TITLE_MAX} with it only \
                 up to {most}: shorten it, or set `short_brand` (at most {most} characters, e.g. the name without \
                 \"LLC\" or \"Insurance Agency\") for the titles",
                site.brand
            )
        } else {
            format!(
                "field `short_brand`: \"{}\" is {length} characters; the site's own page titles fit {TITLE_MAX} with \
                 it only up to {most}: shorten it",
                site.short_brand
            )
        }
    });
}
