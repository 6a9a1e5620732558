//! Rendered Markdown compared with checked-in HTML (`fixtures/markdown/snapshot.md` and `.html`): headings, links,
//! highlighted code of each kind of fence, tables, lists and quotes. A change to comrak, syntect or the renderer's
//! options shows here as a diff to read. After a deliberate change, write the new expected output with
//! `UPDATE_SNAPSHOTS=1 cargo test -p content --test markdown` and review it.

use std::path::Path;

use content::MarkdownRenderer;

#[test]
fn markdown_renders_as_the_snapshot() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/markdown");
    let markdown = std::fs::read_to_string(dir.join("snapshot.md")).expect("the Markdown");
    let (html, problems) = MarkdownRenderer::new().render(&markdown);
    assert!(problems.is_empty(), "{problems:?}");

    let expected_file = dir.join("snapshot.html");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&expected_file, &html).expect("write the snapshot");
    }
    let expected = std::fs::read_to_string(&expected_file)
        .expect("the expected HTML (UPDATE_SNAPSHOTS=1 writes it)");
    if html != expected {
        let first = html
            .lines()
            .zip(expected.lines())
            .position(|(found, wanted)| found != wanted)
            .unwrap_or_else(|| html.lines().count().min(expected.lines().count()));
        panic!(
            "the rendered HTML differs from {} from line {}:\nfound:    {:?}\nexpected: {:?}\n\nfound in all:\n{html}",
            expected_file.display(),
            first + 1,
            html.lines().nth(first),
            expected.lines().nth(first),
        );
    }
}

/// Each fenced block is labelled with its own language (the label the page shows above the code), not the default.
#[test]
fn each_code_block_is_labelled_with_its_fences_language() {
    let (html, _) = MarkdownRenderer::new()
        .render("```bash\necho hi\n```\n\n```ts\nlet a = 1;\n```\n\n```\nlet b = 2;\n```\n");
    let labels: Vec<&str> = html
        .split("data-language=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert_eq!(labels, ["Shell", "TypeScript", "JavaScript"], "{html}");
}
