//! `blog/<slug>.md`: the blog posts. Checks each post's front matter, renders its Markdown, derives what the blog
//! shows beside it (its words for the search, its reading time, its default illustration) and sorts the posts
//! newest first.

use std::collections::HashSet;
use std::path::Path;

use crate::fields::check_description;
use crate::files::{file_stem, list_files, read_front_matter};
use crate::markdown::MarkdownRenderer;
use crate::model::{Post, PostFrontMatter};
use crate::problems::Problems;

/// The blog categories a post may have, in the order of the blog's filter buttons.
pub(crate) const CATEGORIES: [&str; 7] = [
    "Insurance Tips",
    "Regulations",
    "Safety",
    "Cost Savings",
    "Industry News",
    "Technology",
    "Specialized Coverage",
];
/// The posts of `dir`; each one's `author` must be one of `authors` (the names in `facts.toml`), when the facts
/// could be read.
pub(crate) fn load(
    dir: &Path,
    images: &HashSet<&str>,
    authors: Option<&[&str]>,
    markdown: &MarkdownRenderer,
    problems: &mut Problems,
) -> Vec<Post> {
    let mut posts = Vec::new();
    for file in list_files(dir, "md", problems) {
        let Some((front, body)) = read_front_matter::<PostFrontMatter>(&file, problems) else {
            continue;
        };
        let slug = file_stem(&file);
        problems.check(
            !slug.is_empty()
                && slug
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            &file,
            || "the file name (the post's slug) may hold only a-z, 0-9 and -".into(),
        );
        problems.check(CATEGORIES.contains(&front.category.as_str()), &file, || {
            format!(
                "field `category`: {:?} is not one of {CATEGORIES:?}",
                front.category
            )
        });
        problems.check(front.excerpt.chars().count() <= 200, &file, || {
            "field `excerpt`: at most 200 characters".into()
        });
        if let Some(authors) = authors {
            problems.check(authors.contains(&front.author.as_str()), &file, || {
                format!(
                    "field `author`: {:?} is not one of the [[authors]] of facts.toml {authors:?}",
                    front.author
                )
            });
        }
        if let Some(description) = &front.description {
            check_description(description, "description", &file, problems);
        }
        let date_ok = front.date.date.is_some() && front.date.time.is_none();
        problems.check(date_ok, &file, || {
            "field `date`: give a plain date like 2026-03-14".into()
        });
        let image = front
            .image
            .unwrap_or_else(|| format!("blog/{}.svg", category_slug(&front.category)));
        problems.check(images.contains(image.as_str()), &file, || {
            format!("field `image`: content/images/{image} does not exist")
        });
        problems.check(!body.trim_start().starts_with("# "), &file, || {
            "the body must not start with a `#` heading: the page shows the title; use `##`".into()
        });
        let html = markdown.render_checked(&body, &file, problems);
        let text = plain_text(&html);
        let words = text.split_whitespace().count();
        posts.push(Post {
            image_alt: front
                .image_alt
                .unwrap_or_else(|| format!("Illustration for {}", front.category)),
            slug,
            title: front.title,
            seo_title: front.seo_title,
            excerpt: front.excerpt,
            description: front.description,
            category: front.category,
            date: front.date.to_string(),
            author: front.author,
            featured: front.featured,
            image,
            reading_minutes: reading_minutes(words),
            html,
            text,
        });
    }
    posts.sort_by(|a, b| b.date.cmp(&a.date).then(a.slug.cmp(&b.slug)));
    let featured = posts.iter().filter(|p| p.featured).count();
    if !posts.is_empty() && featured != 1 {
        problems.add(
            dir,
            format!("exactly one post must have `featured = true`, found {featured}"),
        );
    }
    posts
}

/// At 220 words a minute, rounded up.
fn reading_minutes(words: usize) -> usize {
    words.div_ceil(220).max(1)
}

/// The category as an illustration's name: `Cost Savings` is `blog/cost-savings.svg`.
fn category_slug(category: &str) -> String {
    category.to_lowercase().replace(' ', "-")
}

/// The words of rendered HTML, for the blog search and reading time.
fn plain_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_keeps_the_words_of_html_unescaped() {
        assert_eq!(
            plain_text(
                "<h2>Limits</h2>\n<p>At least <strong>$750,000</strong> &amp; &quot;more&quot; &lt;here&gt;.</p>"
            ),
            "Limits At least $750,000 & \"more\" <here>."
        );
        // Tags part words, so that words of adjacent blocks stay apart.
        assert_eq!(plain_text("<li>one</li><li>two</li>"), "one two");
        assert_eq!(plain_text("it&#x27;s and it&#39;s"), "it's and it's");
    }

    #[test]
    fn reading_time_is_at_least_a_minute() {
        assert_eq!(reading_minutes(0), 1);
        assert_eq!(reading_minutes(220), 1);
        assert_eq!(reading_minutes(221), 2);
    }

    #[test]
    fn a_category_names_its_illustration() {
        assert_eq!(
            category_slug("Specialized Coverage"),
            "specialized-coverage"
        );
        for category in CATEGORIES {
            assert!(
                category_slug(category)
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-')
            );
        }
    }
}
