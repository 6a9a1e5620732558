//! What the tests against a copy of the real content share: the copy, an edit of it, a file's hash, the build date.
#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};

use content::BuildDate;

pub fn today() -> BuildDate {
    BuildDate::from_ymd(2026, 6, 1)
}

/// A fresh copy of the real content folder, as `<temp>/content`.
pub fn copy_of_content(case: &str) -> PathBuf {
    let root =
        std::env::temp_dir().join(format!("content-translation-{case}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let target = root.join("content");
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content"),
        &target,
    );
    target
}

pub fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// Replaces the one occurrence of `from` in `file` (relative to the content folder).
pub fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{file}: {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

pub fn sha256_of(path: &Path) -> String {
    let output = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8(output.stdout).unwrap()[..64].to_string()
}

/// The problems of the translation in `dir`; the English must load.
pub fn problems(dir: &Path) -> Vec<String> {
    let english = content::load(dir, today()).expect("the English loads");
    match content::load_translation(dir, &english, today()) {
        Ok(_) => Vec::new(),
        Err(problems) => problems,
    }
}
