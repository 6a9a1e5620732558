//! The loader against content trees: `fixtures/valid/` is the smallest tree it accepts, and each
//! `fixtures/invalid/<case>.toml` changes a copy of that tree in one way and lists the problems the loader must then
//! report, each naming the file, the field and the problem. A case file holds:
//!
//! ```toml
//! # What is wrong, in one line.
//! remove = ["pages/blog.toml"] # files deleted from the copy
//! [[edit]]                     # replaces text that occurs exactly once in a file of the tree
//! file = "site.toml"
//! replace = 'email = "quotes@example.com"'
//! with = 'email = "quotes"'
//! [[rename]]                   # a file moved within the copy
//! from = "blog/a.md"
//! to = "blog/B.md"
//! [[write]]                    # a file added to the copy
//! file = "pages/careers.toml"
//! text = "..."
//! [[expect]]                   # the problems, in the order the loader reports them
//! file = "content/site.toml"   # the message starts with it
//! field = "field `email`"      # the message names it; left out for a problem with the whole file
//! problem = "not an e-mail address"
//! ```

use std::path::{Path, PathBuf};

use content::BuildDate;
use serde::Deserialize;

/// The build date of every case: `offer_valid_until` of the valid tree is the last day that passes.
fn today() -> BuildDate {
    BuildDate::from_ymd(2026, 6, 1)
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    #[serde(default)]
    edit: Vec<Edit>,
    #[serde(default)]
    remove: Vec<String>,
    #[serde(default)]
    rename: Vec<Rename>,
    #[serde(default)]
    write: Vec<Write>,
    expect: Vec<Expected>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Edit {
    file: String,
    replace: String,
    with: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rename {
    from: String,
    to: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Write {
    file: String,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    file: String,
    field: Option<String>,
    problem: String,
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy's folder");
    for entry in std::fs::read_dir(from).expect("read the fixture") {
        let path = entry.expect("a fixture entry").path();
        let target = to.join(path.file_name().expect("a file name"));
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy a fixture file");
        }
    }
}

/// A copy of the valid tree, named `content` as the real folder is, in a folder of its own for `name`.
fn fresh_tree(name: &str) -> PathBuf {
    let place = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("content-fixtures")
        .join(name);
    if place.exists() {
        std::fs::remove_dir_all(&place).expect("remove the previous copy");
    }
    let dir = place.join("content");
    copy_tree(&fixtures().join("valid"), &dir);
    dir
}

/// Applies a case to a fresh copy of the valid tree; what is wrong with the case itself is an error.
fn apply(case: &Case, dir: &Path) -> Result<(), String> {
    for edit in &case.edit {
        let file = dir.join(&edit.file);
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("edit {}: {e}", edit.file))?;
        match text.matches(edit.replace.as_str()).count() {
            1 => std::fs::write(&file, text.replace(&edit.replace, &edit.with))
                .map_err(|e| e.to_string())?,
            n => {
                return Err(format!(
                    "edit {}: {:?} occurs {n} times, not once",
                    edit.file, edit.replace
                ));
            }
        }
    }
    for file in &case.remove {
        std::fs::remove_file(dir.join(file)).map_err(|e| format!("remove {file}: {e}"))?;
    }
    for rename in &case.rename {
        std::fs::rename(dir.join(&rename.from), dir.join(&rename.to))
            .map_err(|e| format!("rename {}: {e}", rename.from))?;
    }
    for write in &case.write {
        std::fs::write(dir.join(&write.file), &write.text)
            .map_err(|e| format!("write {}: {e}", write.file))?;
    }
    Ok(())
}

/// Whether a problem names the expected file (first), field and problem.
fn matches(problem: &str, expected: &Expected) -> bool {
    problem
        .strip_prefix(&format!("{}: ", expected.file))
        .is_some_and(|rest| {
            expected
                .field
                .as_ref()
                .is_none_or(|field| rest.contains(field.as_str()))
                && rest.contains(&expected.problem)
        })
}

/// What is wrong with one case's outcome, if anything.
fn check_case(path: &Path) -> Result<(), String> {
    let name = path.file_stem().expect("a case name").to_string_lossy();
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let case: Case = toml::from_str(&text).map_err(|e| format!("the case file: {e}"))?;
    if case.expect.is_empty() {
        return Err("the case expects no problem".into());
    }
    let dir = fresh_tree(&name);
    apply(&case, &dir)?;
    let problems = match content::load(&dir, today()) {
        Ok(_) => return Err("the content loaded without a problem".into()),
        Err(problems) => problems,
    };
    let all_match = problems.len() == case.expect.len()
        && problems
            .iter()
            .zip(&case.expect)
            .all(|(found, expected)| matches(found, expected));
    if all_match {
        Ok(())
    } else {
        let expected: Vec<String> = case
            .expect
            .iter()
            .map(|e| {
                format!(
                    "{}: {} ... {}",
                    e.file,
                    e.field.as_deref().unwrap_or("-"),
                    e.problem
                )
            })
            .collect();
        Err(format!(
            "expected\n    {}\nfound\n    {}",
            expected.join("\n    "),
            problems.join("\n    ")
        ))
    }
}

#[test]
fn every_invalid_case_reports_its_problems_naming_file_field_and_problem() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(fixtures().join("invalid"))
        .expect("the cases")
        .map(|entry| entry.expect("a case").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    cases.sort();
    assert!(cases.len() > 50, "the cases are missing: {}", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            check_case(case)
                .err()
                .map(|why| format!("{}: {why}", case.display()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_valid_tree_loads_with_what_the_build_derives_filled_in() {
    let content = content::load(&fresh_tree("valid"), today())
        .unwrap_or_else(|problems| panic!("{problems:#?}"));

    assert_eq!(content.site.licenses[0].state_name, "Texas");
    assert_eq!(
        content.site.claims_text,
        "Claims are taken around the clock by Example Mutual's claims line at (555) 010-0199."
    );
    let products: Vec<(&str, &str, u32)> = content
        .products
        .iter()
        .map(|p| (p.slug.as_str(), p.kind.as_str(), p.order))
        .collect();
    assert_eq!(products.len(), 16);
    assert_eq!(
        products[..2],
        [("box-truck", "vehicle", 1), ("dump-truck", "vehicle", 2)]
    );
    assert_eq!(products[7], ("cargo", "coverage", 1));
    assert_eq!(content.products[1].image, "products/dump-truck.svg");

    assert_eq!(
        content.pages.keys().collect::<Vec<_>>(),
        [
            "about",
            "blog",
            "certificate-request",
            "contact",
            "coverage-types",
            "get-quote",
            "opt-out",
            "policy-change",
            "products",
            "report-a-claim"
        ]
    );
    assert_eq!(content.documents[0].slug, "privacy");
    assert_eq!(content.documents[0].updated, "2026-01-15");

    // Newest first; a post without an image shows its category's.
    let posts: Vec<(&str, &str, &str)> = content
        .posts
        .iter()
        .map(|p| (p.slug.as_str(), p.date.as_str(), p.image.as_str()))
        .collect();
    assert_eq!(
        posts,
        [
            (
                "dot-insurance-requirements",
                "2026-03-14",
                "blog/regulations.svg"
            ),
            ("winter-driving", "2026-01-05", "blog/winter.svg"),
        ]
    );
    let post = &content.posts[0];
    assert_eq!(post.image_alt, "Illustration for Regulations");
    assert_eq!(
        post.text,
        "The minimums Interstate carriers carry at least $750,000 in liability."
    );
    assert_eq!(post.reading_minutes, 1);
    assert_eq!(content.images.len(), 18);
    assert!(content.images.contains(&"blog/winter.svg".to_string()));
}

#[test]
fn the_document_fills_in_the_words_that_stand_for_facts() {
    let content = content::load(&fresh_tree("placeholders"), today())
        .unwrap_or_else(|problems| panic!("{problems:#?}"));
    let json: serde_json::Value = serde_json::from_str(&content::to_json(&content)).expect("JSON");
    let privacy = json["documents"][0]["html"]
        .as_str()
        .expect("the privacy page");
    // The version as stored with a lead: forms.toml's and the short hash of the words shown.
    assert!(privacy.contains("(version 2026-01-01+"), "{privacy}");
    assert!(
        privacy.contains("<p>By checking this box, I agree"),
        "{privacy}"
    );
    let answer = json["faq"][5]["answer"].as_str().expect("the last answer");
    assert_eq!(
        answer,
        "Yes, claims help is there 24/7: Claims are taken around the clock by Example Mutual's claims line at \
         (555) 010-0199."
    );
    assert_eq!(json["site"]["offer_valid_until"], "2026-07-31");
    assert!(json["site"].get("claims").is_some());
}
