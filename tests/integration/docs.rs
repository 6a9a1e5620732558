//! The owner's guide stays readable (issue 35): the README a newcomer reads to the end (at most 300 lines), and every
//! relative link of the README and of docs/ leads to a file that exists.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The relative link targets of a Markdown text: `](target)`, without `#anchors`, leaving out web addresses.
fn relative_links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|target| target.split('#').next().unwrap_or("").trim().to_string())
        .filter(|target| {
            !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:")
        })
        .collect()
}

#[test]
fn the_readme_is_short_and_every_link_of_the_guide_resolves() {
    let readme = Path::new(ROOT).join("README.md");
    let text = std::fs::read_to_string(&readme).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; the rest belongs in docs/"
    );
    let mut documents: Vec<PathBuf> = vec![readme];
    for entry in std::fs::read_dir(Path::new(ROOT).join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            documents.push(path);
        }
    }
    assert!(documents.len() > 5, "the owner's guide is in docs/");
    let mut broken = Vec::new();
    for document in &documents {
        let text = std::fs::read_to_string(document).unwrap();
        for target in relative_links(&text) {
            if !document.parent().unwrap().join(&target).exists() {
                broken.push(format!("{}: {target}", document.display()));
            }
        }
    }
    assert!(broken.is_empty(), "links to nothing: {broken:#?}");
    // The README links every file of the guide.
    for document in &documents[1..] {
        let name = format!("docs/{}", document.file_name().unwrap().to_string_lossy());
        assert!(text.contains(&name), "README.md does not link {name}");
    }
}
