//! Build step: turns `content/` and `web/` into the site that the binary embeds.
//!
//! 1. Reads every file of `content/` through the `content` crate (crates/content), which checks all of it at once:
//!    each language, the translations, the sample agency's items (for a real `base_url`), the titles with the
//!    brand, the hours. Any problem stops the build listing every one, grouped by file.
//! 2. Writes the result as one JSON document per language (`$OUT_DIR/content.json`, `content.es.json`), the few
//!    facts the server includes itself (`content::server_files`), and the contract between server and web app
//!    (crates/contract: form rules, addresses) as `web/.generated/contract.ts`.
//! 3. Installs the web app's packages when needed (npm) and runs `web/scripts/build.mjs`, which type-checks,
//!    bundles with Vite, prerenders every route and compresses the output into `$OUT_DIR/site`, the folder that
//!    rust-embed embeds into the binary.
//!
//! It is the build script of crates/embedded, the crate that embeds the result, so that a content edit recompiles
//! that crate and the binary's, never the server's library. The project's folder is found from the folder cargo
//! names when it runs this script (`CARGO_MANIFEST_DIR` at run time, never the folder it was compiled in), and the
//! inputs are watched by paths relative to it: a project folder copied or moved with its `target/` builds its own
//! content.

use std::path::{Path, PathBuf};
use std::process::Command;

use content::BuildDate;

/// Every input of this script besides its own source and its build dependencies (cargo watches those itself): the
/// content and the web app's sources and settings, so that an edit of any of them rebuilds the site and nothing else
/// does (web/e2e, the tests of the browser suite, is not one; web/.generated is written here).
const INPUTS: [&str; 7] = [
    "content",
    "web/src",
    "web/scripts",
    "web/package.json",
    "web/package-lock.json",
    "web/vite.config.ts",
    "web/tsconfig.json",
];
/// The project's folder from crates/embedded, where cargo runs this script.
const PROJECT: &str = "../..";

fn main() {
    let manifest_dir = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let root = manifest_dir.join(PROJECT);
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // Relative, so that cargo looks at them in whichever folder it builds, not in the one it built before.
    for input in INPUTS {
        println!("cargo:rerun-if-changed={PROJECT}/{input}");
    }

    let built = content::build(&root.join("content"), build_date()).unwrap_or_else(|problems| {
        eprintln!("\n{}", content::report(&problems));
        std::process::exit(1);
    });
    // The facts the server includes, each a file, and the list crates/embedded includes them by (`TEXTS`), with the
    // stylesheet's CSP hash that the web build writes below.
    let mut texts = String::from(
        "/// Each text file build.rs wrote for the server, by name.\npub static TEXTS: &[(&str, &str)] = &[\n",
    );
    for (name, text) in content::server_files(&built) {
        write_file(&out_dir.join(name), text.as_bytes());
        texts.push_str(&format!(
            "    ({name:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/{name}\"))),\n"
        ));
    }
    texts.push_str("    (\"style-hash.txt\", include_str!(concat!(env!(\"OUT_DIR\"), \"/style-hash.txt\"))),\n];\n");
    write_file(&out_dir.join("texts.rs"), texts.as_bytes());
    let generated = root.join("web/.generated");
    let content_json = out_dir.join("content.json");
    let content_es_json = out_dir.join("content.es.json");
    for (document, language) in [
        (&content_json, &built.english),
        (&content_es_json, &built.spanish),
    ] {
        let json = content::to_json(language);
        write_file(document, json.as_bytes());
        // The Vite dev server (docs: front-end edit loop) reads the same document from a fixed, git-ignored place.
        write_file(
            &generated.join(document.file_name().expect("a file")),
            json.as_bytes(),
        );
    }
    // The rules and addresses the server and the web app share (crates/contract), as the TypeScript modules the web
    // app imports as `@contract` (English, and the Spanish pages' addresses below /es and words); and the content
    // document's types, from the Rust model that writes it. They depend on nothing but the crates' source, so debug
    // and release builds write the same bytes to the one place the type checker and Vite both read.
    write_file(
        &generated.join("contract.ts"),
        contract::typescript().as_bytes(),
    );
    let spanish_contract = contract::typescript_for(contract::locale::Locale::Es);
    write_file(
        &generated.join("contract.es.ts"),
        spanish_contract.as_bytes(),
    );
    write_file(
        &generated.join("content-types.ts"),
        content::typescript().as_bytes(),
    );

    let web = root.join("web");
    install_web_packages(&web);
    run(
        Command::new("node")
            .arg("scripts/build.mjs")
            .current_dir(&web)
            .env("TRUCKINS_BUILD_CONTENT", &content_json)
            .env("TRUCKINS_BUILD_CONTENT_ES", &content_es_json)
            .env("TRUCKINS_BUILD_WORK_DIR", out_dir.join("web-build"))
            .env("TRUCKINS_BUILD_SITE_DIR", out_dir.join("site"))
            // The CSP hash of the stylesheet every page inlines; src/security.rs reads it.
            .env(
                "TRUCKINS_BUILD_STYLE_HASH_FILE",
                out_dir.join("style-hash.txt"),
            ),
        "building the web app (web/scripts/build.mjs)",
    );
}

/// Today (UTC), or the day of `SOURCE_DATE_EPOCH` for a reproducible build.
fn build_date() -> BuildDate {
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|text| text.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |elapsed| elapsed.as_secs() as i64)
        });
    BuildDate::from_unix_seconds(seconds)
}

/// Installs the web app's packages when `node_modules` is missing or older than the lockfile, so a clean clone
/// builds with nothing installed by hand and an unchanged lockfile costs nothing.
///
/// `npm install --no-save` rather than `npm ci`: the versions are pinned and come from the lockfile all the same,
/// but `npm ci` insists that every optional platform binary (Tailwind's for macOS, Windows, ...) be listed in the
/// lockfile, and a registry mirror that carries only Linux builds leaves them out, so `npm ci` would always fail.
fn install_web_packages(web: &Path) {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let installed = modified(&web.join("node_modules/.package-lock.json"));
    let locked = modified(&web.join("package-lock.json"));
    if !matches!((installed, locked), (Some(i), Some(l)) if i >= l) {
        let mut npm = Command::new("npm");
        npm.args([
            "install",
            "--include=dev",
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
        ]);
        run(
            npm.current_dir(web),
            "installing the web app's packages (npm install in web/)",
        );
    }
}

fn run(command: &mut Command, what: &str) {
    match command.status() {
        Ok(status) if status.success() => {}
        Ok(status) => {
            eprintln!("\nFailed while {what}: {status}. The output above says why.\n");
            std::process::exit(1);
        }
        Err(error) => {
            eprintln!(
                "\nCould not start {what}: {error}. Is Node.js 20 or later installed and on PATH?\n"
            );
            std::process::exit(1);
        }
    }
}

fn write_file(path: &Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .unwrap_or_else(|e| panic!("creating {}: {e}", parent.display()));
    }
    // Leave an unchanged file untouched so tools watching it (the Vite dev server) are not woken for nothing.
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return;
    }
    // Written whole under another name, then renamed over the old: the test command runs the debug and the release
    // build side by side, and one build's type check must never read the other's half-written file.
    let partial = path.with_extension(format!("partial-{}", std::process::id()));
    std::fs::write(&partial, bytes)
        .and_then(|()| std::fs::rename(&partial, path))
        .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}
