//! Build step: turns `content/` and `web/` into the site that the binary embeds.
//!
//! 1. Reads every file of `content/` through the `content` crate (crates/content), which checks it (a mistake stops
//!    the build naming the file, the field and the problem) and renders its Markdown. A site built for a real
//!    `base_url` stops too while any of the sample agency's items remains, listing each.
//! 2. Writes the result as one JSON document, `$OUT_DIR/content.json`, the web app's content, and the few facts
//!    the server includes itself (consent text and version, insurance types, base URL); and the contract between
//!    server and web app (crates/contract: form rules, addresses) as `web/.generated/contract.ts`.
//! 3. Installs the web app's packages when needed (npm) and runs `web/scripts/build.mjs`, which type-checks,
//!    bundles with Vite, prerenders every route and compresses the output into `$OUT_DIR/site`, the folder that
//!    rust-embed embeds into the binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use content::BuildDate;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for watched in [
        "content",
        "web/src",
        "web/scripts",
        "web/package.json",
        "web/package-lock.json",
        "web/vite.config.ts",
        "web/tsconfig.json",
    ] {
        println!("cargo:rerun-if-changed={watched}");
    }

    let content_dir = root.join("content");
    let today = build_date();
    let content = content::load(&content_dir, today).unwrap_or_else(|problems| stop(&problems));
    // The Spanish pages' content (content/es/): checked against the English, every file, its shape and its review.
    let spanish = content::load_translation(&content_dir, &content, today)
        .unwrap_or_else(|problems| stop(&problems));
    // A site built for a real address goes live: nothing of the sample agency may remain in it.
    if let Err(items) = content::refuse_samples(&content_dir, &content, &spanish) {
        stop_for_samples(&content.site.base_url, &items);
    }
    // The facts the server includes itself (src/leads, src/site.rs).
    let forms = &content.forms;
    let insurance_types: Vec<&str> = forms
        .insurance_types
        .iter()
        .map(|t| t.value.as_str())
        .collect();
    let labels = |forms: &content::Forms| -> String {
        forms
            .insurance_types
            .iter()
            .map(|t| format!("{}\t{}\n", t.value, t.label))
            .collect()
    };
    let type_labels = labels(forms);
    for (name, text) in [
        // The server stores the consent text with each lead: the same words the form shows.
        ("consent.txt", forms.consent_text.as_str()),
        ("consent-version.txt", forms.consent_version.as_str()),
        // ... and the Spanish form's, with its own version, for a lead that was shown them.
        ("consent.es.txt", spanish.forms.consent_text.as_str()),
        (
            "consent-version.es.txt",
            spanish.forms.consent_version.as_str(),
        ),
        // The quote form's insurance type values, which the server accepts (one per line).
        ("insurance-types.txt", &insurance_types.join("\n")),
        // The base URL the pages are built with; the server rewrites it when configured with another.
        ("base-url.txt", content.site.base_url.as_str()),
        // For the notification e-mails (src/notify): each type's label ("hotshot\tHot Shot"), the agency's name and phone.
        ("insurance-type-labels.txt", &type_labels),
        // ... and as the Spanish form shows them, for a Spanish visitor's confirmation.
        ("insurance-type-labels.es.txt", &labels(&spanish.forms)),
        (
            "agency.txt",
            &format!("{}\n{}", content.site.brand, content.site.phone),
        ),
    ] {
        write_file(&out_dir.join(name), text.as_bytes());
    }
    // The insurers the claim form may name, for the server's check and the claim's confirmation (src/leads):
    // `id\tname\tclaims_phone\tclaims_url`, one a line.
    let insurers: String = content
        .site
        .insurers
        .iter()
        .map(|i| {
            format!(
                "{}\t{}\t{}\t{}\n",
                i.id, i.name, i.claims_phone, i.claims_url
            )
        })
        .collect();
    write_file(&out_dir.join("insurers.txt"), insurers.as_bytes());
    // The agency's around-the-clock claims line, for a claim's confirmation when no insurer was chosen:
    // `name\tphone`, or nothing.
    let claims_line = content
        .site
        .claims
        .as_ref()
        .map(|line| format!("{}\t{}\n", line.name, line.phone))
        .unwrap_or_default();
    write_file(&out_dir.join("claims-line.txt"), claims_line.as_bytes());
    // The agency's business hours, for speed-to-lead and reminders (src/hours.rs documents the format).
    write_file(
        &out_dir.join("hours.txt"),
        business_hours(&content.site.hours).as_bytes(),
    );
    let content_json = out_dir.join("content.json");
    let json = content::to_json(&content);
    write_file(&content_json, json.as_bytes());
    // The Vite dev server (README: front-end edit loop) reads the same document from a fixed, git-ignored place.
    write_file(&root.join("web/.generated/content.json"), json.as_bytes());
    let content_es_json = out_dir.join("content.es.json");
    let json = content::to_json(&spanish);
    write_file(&content_es_json, json.as_bytes());
    write_file(
        &root.join("web/.generated/content.es.json"),
        json.as_bytes(),
    );
    // The rules and addresses the server and the web app share (crates/contract), as the TypeScript module the web
    // app imports as `@contract`. It depends on nothing but the contract's source, so debug and release builds
    // write the same bytes to the one place the type checker and Vite both read.
    write_file(
        &root.join("web/.generated/contract.ts"),
        contract::typescript().as_bytes(),
    );
    // The Spanish pages' module (`@contract` of the Spanish build): their addresses below /es and the forms' Spanish.
    write_file(
        &root.join("web/.generated/contract.es.ts"),
        contract::typescript_for(contract::locale::Locale::Es).as_bytes(),
    );
    // The content document's types, from the Rust model that writes it (crates/content), for web/src/content.ts.
    write_file(
        &root.join("web/.generated/content-types.ts"),
        content::typescript().as_bytes(),
    );

    let web = root.join("web");
    install_web_packages(&web);
    let site_dir = out_dir.join("site");
    run(
        Command::new("node")
            .arg("scripts/build.mjs")
            .current_dir(&web)
            .env("TRUCKINS_BUILD_CONTENT", &content_json)
            .env("TRUCKINS_BUILD_CONTENT_ES", &content_es_json)
            .env("TRUCKINS_BUILD_WORK_DIR", out_dir.join("web-build"))
            .env("TRUCKINS_BUILD_SITE_DIR", &site_dir)
            // The CSP hash of the stylesheet every page inlines; src/security.rs includes it.
            .env(
                "TRUCKINS_BUILD_STYLE_HASH_FILE",
                out_dir.join("style-hash.txt"),
            ),
        "building the web app (web/scripts/build.mjs)",
    );
}

/// The `[[hours]]` of content/facts.toml as the lines src/hours.rs reads: `Monday 08:00 18:00` for each opening of a
/// day (in the week's order), `Sunday closed` for a day without one; `closes = "00:00"` is midnight, written `24:00`.
/// The content crate has checked the days' names and the times' form; an opening that closes before it opens (over
/// midnight) is not one the counting understands, so it stops the build here.
fn business_hours(hours: &[content::Hours]) -> String {
    const DAYS: [&str; 7] = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    let mut text = String::from(
        "# The agency's business hours, from content/facts.toml (written by build.rs, read by src/hours.rs).\n",
    );
    for day in DAYS {
        let mut openings: Vec<(String, String)> = hours
            .iter()
            .filter(|entry| entry.days.iter().any(|named| named == day))
            .filter_map(|entry| Some((entry.opens.clone()?, entry.closes.clone()?)))
            .map(|(opens, closes)| {
                let closes = if closes == "00:00" {
                    "24:00".to_string()
                } else {
                    closes
                };
                (opens, closes)
            })
            .collect();
        openings.sort();
        if let Some((opens, closes)) = openings.iter().find(|(opens, closes)| closes <= opens) {
            stop(&[format!(
                "content/facts.toml: hours of {day}: opens {opens} and closes {closes}; give a closing time after the \
                 opening (00:00 for midnight), or split hours past midnight over two days"
            )]);
        }
        if openings.is_empty() {
            text.push_str(&format!("{day} closed\n"));
        }
        for (opens, closes) in openings {
            text.push_str(&format!("{day} {opens} {closes}\n"));
        }
    }
    text
}

/// Stops the build listing the content's problems.
fn stop(problems: &[String]) -> ! {
    eprintln!(
        "\nThe content in content/ has {} problem(s):",
        problems.len()
    );
    for problem in problems {
        eprintln!("  - {problem}");
    }
    eprintln!();
    std::process::exit(1);
}

/// The sample agency's items left in a site built for a real address, each with its file, field and why.
fn stop_for_samples(base_url: &str, items: &[String]) -> ! {
    eprintln!(
        "\nThe site is built for {base_url}, a real address, but {} item(s) of the sample agency remain in content/.\n\
         Replace or remove each one (README.md, \"Make it yours\"); a build for {} keeps them, for development:",
        items.len(),
        contract::sample::SAMPLE_BASE_URL
    );
    for item in items {
        eprintln!("  - {item}");
    }
    eprintln!();
    std::process::exit(1);
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
    let lockfile = web.join("package-lock.json");
    let installed = web.join("node_modules/.package-lock.json");
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let up_to_date =
        matches!((modified(&installed), modified(&lockfile)), (Some(i), Some(l)) if i >= l);
    if !up_to_date {
        run(
            Command::new("npm")
                .args([
                    "install",
                    "--include=dev",
                    "--no-save",
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                ])
                .current_dir(web),
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
