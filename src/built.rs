//! What the build made from `content/` and `web/`, handed to the server by the binary at start: the prerendered
//! site's files and the few facts the server includes (the consent text, the insurance types, the business hours,
//! the stylesheet's CSP hash, ...; `content::server_files` names them). They live in the `embedded` crate
//! (crates/embedded), which build.rs fills, rather than here: a content edit then recompiles that crate and the
//! binary's small one, never this library (docs/make-it-yours.md has the figures).

use std::borrow::Cow;
use std::sync::OnceLock;

pub use rust_embed::EmbeddedFile;

/// The build's output, as the binary hands it over.
pub struct Built {
    /// Each text file build.rs wrote for the server, by name (`consent.txt`).
    pub texts: &'static [(&'static str, &'static str)],
    /// A file of the prerendered site by its path (`about/index.html`).
    pub file: fn(&str) -> Option<EmbeddedFile>,
    /// Every file of the site.
    pub names: fn() -> Vec<Cow<'static, str>>,
}

static BUILT: OnceLock<Built> = OnceLock::new();

/// Hands the build's output to the server; the binary's first act. A second call changes nothing.
pub fn install(built: Built) {
    let _ = BUILT.set(built);
}

fn built() -> &'static Built {
    #[cfg(test)]
    if BUILT.get().is_none() {
        // The library's own tests run without the binary: the same crate the binary embeds hands it over.
        install(Built {
            texts: embedded::TEXTS,
            file: embedded::file,
            names: embedded::names,
        });
    }
    BUILT.get().expect(
        "the binary hands the build's output over before anything runs (truckins::built::install)",
    )
}

/// The text file `name` that build.rs wrote for the server.
pub fn text(name: &str) -> &'static str {
    built()
        .texts
        .iter()
        .find(|(file, _)| *file == name)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("build.rs writes {name} for the server"))
}

/// The site's file at `path`, if there is one.
pub fn file(path: &str) -> Option<EmbeddedFile> {
    (built().file)(path)
}

/// The paths of every file of the site.
pub fn names() -> Vec<Cow<'static, str>> {
    (built().names)()
}
