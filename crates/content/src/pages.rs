//! `pages/`: the copy of the site's other pages. `pages/*.toml` hold structured copy, each page its own shape
//! (checked here, so that a mistake names the file and the field instead of failing the prerender somewhere in
//! React); `pages/*.md` are pages of prose (privacy, terms, ...) in Markdown with a front matter.

use std::collections::BTreeMap;
use std::path::Path;

use crate::fields::check_description;
use crate::files::{file_stem, list_files, read_front_matter, read_toml};
use crate::markdown::MarkdownRenderer;
use crate::model::{Document, DocumentFrontMatter};
use crate::problems::Problems;

/// What a field of a page's copy must be.
enum Shape {
    /// Non-empty text.
    Text,
    /// A table with these fields, each present and not empty.
    Table(&'static [&'static str]),
    /// Exactly this many entries (`[[name]]`), each with these fields present and not empty.
    Rows(usize, &'static [&'static str]),
}

/// The copy each page of `content/pages/*.toml` must hold beyond `title` and `description`: checked here so that a
/// mistake names the file and the field instead of failing the prerender somewhere in React. Keep in step with the
/// list in content/README.md and the types the pages read it with (`web/src/content.ts`, the page files under
/// `web/src/pages/`).
const PAGE_SHAPES: [(&str, &[(&str, Shape)]); 10] = [
    (
        "about",
        &[
            ("intro", Shape::Text),
            ("mission", Shape::Table(&["heading", "body"])),
            ("values", Shape::Rows(3, &["title", "text"])),
            ("reasons", Shape::Rows(4, &["title", "text"])),
        ],
    ),
    ("blog", &[("heading", Shape::Text), ("intro", Shape::Text)]),
    (
        "certificate-request",
        &[
            ("heading", Shape::Text),
            ("intro", Shape::Text),
            ("turnaround", Shape::Text),
            ("explainer", Shape::Table(&["heading", "body"])),
            ("needs", Shape::Rows(4, &["title", "text"])),
        ],
    ),
    (
        "contact",
        &[("heading", Shape::Text), ("intro", Shape::Text)],
    ),
    (
        "coverage-types",
        &[
            ("heading", Shape::Text),
            ("intro", Shape::Text),
            ("package", Shape::Rows(4, &["title", "text"])),
            ("faq", Shape::Rows(5, &["question", "answer"])),
        ],
    ),
    (
        "get-quote",
        &[
            ("heading", Shape::Text),
            ("subtext", Shape::Text),
            ("why", Shape::Rows(4, &["title", "text"])),
            ("checklist", Shape::Table(&["business", "vehicles"])),
            ("note", Shape::Text),
        ],
    ),
    (
        "opt-out",
        &[
            ("heading", Shape::Text),
            ("intro", Shape::Text),
            ("timing", Shape::Text),
            ("policy_note", Shape::Text),
            (
                "received",
                Shape::Table(&["heading", "text", "next", "erasure", "erasure_link"]),
            ),
        ],
    ),
    (
        "policy-change",
        &[
            ("heading", Shape::Text),
            ("intro", Shape::Text),
            ("confirmation", Shape::Text),
            ("after_hours", Shape::Text),
            ("form", Shape::Table(&["heading", "intro"])),
            ("received", Shape::Table(&["heading", "text"])),
        ],
    ),
    (
        "products",
        &[("heading", Shape::Text), ("intro", Shape::Text)],
    ),
    (
        "report-a-claim",
        &[
            ("heading", Shape::Text),
            ("intro", Shape::Text),
            ("steps_heading", Shape::Text),
            ("steps", Shape::Rows(4, &["title", "text"])),
            (
                "lines",
                Shape::Table(&["heading", "intro", "none", "unsure"]),
            ),
            ("form", Shape::Table(&["heading", "intro"])),
            ("received", Shape::Table(&["heading", "text", "emailed"])),
        ],
    ),
];

/// Words of a page's copy that the page shows as a link: (page, table, the text, the field naming the words of it
/// that are the link). The words must be in the text exactly once, or the link would vanish or land elsewhere.
const LINKED_WORDS: [(&str, &str, &str, &str); 1] =
    [("opt-out", "received", "erasure", "erasure_link")];

fn check_linked_words(page: &toml::Value, name: &str, file: &Path, problems: &mut Problems) {
    for (_, table, text, link) in LINKED_WORDS.iter().filter(|(page, ..)| *page == name) {
        let field = |field: &str| {
            page.get(*table)
                .and_then(|t| t.get(field))
                .and_then(toml::Value::as_str)
        };
        // A missing field is the shape's problem, already reported.
        let (Some(text_value), Some(link_value)) = (field(text), field(link)) else {
            continue;
        };
        problems.check(
            !link_value.trim().is_empty() && text_value.matches(link_value).count() == 1,
            file,
            || {
                format!(
                    "field `{table}.{link}`: {link_value:?} must be words that `{table}.{text}` holds exactly once (the page links them)"
                )
            },
        );
    }
}

/// Whether a TOML value holds something: text that is not blank, a list or table that is not empty.
fn is_filled(value: &toml::Value) -> bool {
    match value {
        toml::Value::String(text) => !text.trim().is_empty(),
        toml::Value::Array(items) => !items.is_empty() && items.iter().all(is_filled),
        toml::Value::Table(table) => !table.is_empty(),
        _ => true,
    }
}

fn check_page_shape(
    page: &toml::Value,
    shape: &[(&str, Shape)],
    file: &Path,
    problems: &mut Problems,
) {
    let missing_in = |table: &toml::Value, fields: &[&str]| -> Vec<String> {
        fields
            .iter()
            .filter(|field| !table.get(**field).is_some_and(is_filled))
            .map(|field| format!("`{field}`"))
            .collect()
    };
    for (field, expected) in shape {
        let value = page.get(*field);
        match expected {
            Shape::Text => problems.check(
                value
                    .and_then(toml::Value::as_str)
                    .is_some_and(|t| !t.trim().is_empty()),
                file,
                || format!("field `{field}`: text is required"),
            ),
            Shape::Table(fields) => match value.filter(|v| v.is_table()) {
                None => problems.add(file, format!("`[{field}]` is missing")),
                Some(table) => {
                    let missing = missing_in(table, fields);
                    problems.check(missing.is_empty(), file, || {
                        format!("`[{field}]` lacks {}", missing.join(", "))
                    });
                }
            },
            Shape::Rows(count, fields) => {
                let rows = value
                    .and_then(toml::Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                problems.check(rows.len() == *count, file, || {
                    format!(
                        "`[[{field}]]`: expected exactly {count} entries, found {}",
                        rows.len()
                    )
                });
                for (number, row) in rows.iter().enumerate() {
                    let missing = missing_in(row, fields);
                    problems.check(missing.is_empty(), file, || {
                        format!(
                            "`[[{field}]]` entry {}: lacks {}",
                            number + 1,
                            missing.join(", ")
                        )
                    });
                }
            }
        }
    }
}

pub(crate) fn load_pages(
    dir: &Path,
    problems: &mut Problems,
) -> BTreeMap<String, serde_json::Value> {
    let mut pages = BTreeMap::new();
    for (name, _) in PAGE_SHAPES {
        let file = dir.join(format!("{name}.toml"));
        problems.check(file.is_file(), &file, || {
            "the page's copy is missing".into()
        });
    }
    for file in list_files(dir, "toml", problems) {
        let Some(value) = read_toml::<toml::Value>(&file, problems) else {
            continue;
        };
        match PAGE_SHAPES
            .iter()
            .find(|(name, _)| *name == file_stem(&file))
        {
            Some((name, shape)) => {
                check_page_shape(&value, shape, &file, problems);
                check_linked_words(&value, name, &file, problems);
            }
            None => problems.add(
                &file,
                format!(
                    "no page reads this file; the pages with copy here are {}",
                    PAGE_SHAPES.map(|(name, _)| name).join(", ")
                ),
            ),
        }
        for field in ["title", "description"] {
            match value.get(field).and_then(toml::Value::as_str) {
                Some(text) if field == "description" => {
                    check_description(text, field, &file, problems)
                }
                Some(_) => {}
                None => problems.add(&file, format!("field `{field}` is missing")),
            }
        }
        match serde_json::to_value(&value) {
            Ok(json) => {
                pages.insert(file_stem(&file), json);
            }
            Err(error) => problems.add(&file, error),
        }
    }
    pages
}

pub(crate) fn load_documents(
    dir: &Path,
    markdown: &MarkdownRenderer,
    problems: &mut Problems,
) -> Vec<Document> {
    let mut documents = Vec::new();
    for file in list_files(dir, "md", problems) {
        let Some((front, body)) = read_front_matter::<DocumentFrontMatter>(&file, problems) else {
            continue;
        };
        check_description(&front.description, "description", &file, problems);
        documents.push(Document {
            slug: file_stem(&file),
            title: front.title,
            description: front.description,
            updated: front.updated.to_string(),
            html: markdown.render_checked(&body, &file, problems),
        });
    }
    documents
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_problems(page: &str, shape: &[(&str, Shape)]) -> Vec<String> {
        let mut problems = Problems::new(Path::new("content"));
        let page: toml::Value = toml::from_str(page).expect("TOML");
        check_page_shape(
            &page,
            shape,
            Path::new("content/pages/x.toml"),
            &mut problems,
        );
        problems.into_vec()
    }

    #[test]
    fn blank_text_and_empty_lists_are_not_filled() {
        let value: toml::Value = toml::from_str(
            "blank = \" \"\nempty = []\nholes = [\"a\", \"\"]\ntable = {}\nlist = [\"a\"]\nnumber = 0",
        )
        .expect("TOML");
        let filled = |field: &str| is_filled(&value[field]);
        assert!(!filled("blank") && !filled("empty") && !filled("holes") && !filled("table"));
        assert!(filled("list") && filled("number"));
    }

    #[test]
    fn a_shape_reports_each_field_that_does_not_fit() {
        const SHAPE: &[(&str, Shape)] = &[
            ("heading", Shape::Text),
            ("checklist", Shape::Table(&["business", "vehicles"])),
            ("why", Shape::Rows(2, &["title", "text"])),
        ];
        assert!(
            shape_problems(
                "heading = \"H\"\nchecklist = { business = [\"a\"], vehicles = [\"b\"] }\n\
                 why = [{ title = \"A\", text = \"a\" }, { title = \"B\", text = \"b\" }]",
                SHAPE
            )
            .is_empty()
        );
        assert_eq!(
            shape_problems(
                "heading = 3\nchecklist = { business = [] }\nwhy = [{ title = \"A\" }]",
                SHAPE
            ),
            [
                "content/pages/x.toml: field `heading`: text is required",
                "content/pages/x.toml: `[checklist]` lacks `business`, `vehicles`",
                "content/pages/x.toml: `[[why]]`: expected exactly 2 entries, found 1",
                "content/pages/x.toml: `[[why]]` entry 1: lacks `text`",
            ]
        );
    }
}
