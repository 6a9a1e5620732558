//! What the build made, embedded: the prerendered site (build.rs runs the web build into `$OUT_DIR/site`) and the
//! facts the server includes, as build.rs wrote them (`content::server_files`). The binary hands them to the server
//! at start (`truckins::built::install`). A crate of its own, depending on nothing of ours, so that a content edit
//! recompiles this and the binary's small crate and never the server's library.

use std::borrow::Cow;

use rust_embed::{EmbeddedFile, RustEmbed};

#[derive(RustEmbed)]
#[folder = "$OUT_DIR/site"]
struct Site;

// `pub static TEXTS: &[(&str, &str)]`: each text file build.rs wrote for the server, by name.
include!(concat!(env!("OUT_DIR"), "/texts.rs"));

/// The site's file at `path` (`about/index.html`).
pub fn file(path: &str) -> Option<EmbeddedFile> {
    Site::get(path)
}

/// The paths of every file of the site.
pub fn names() -> Vec<Cow<'static, str>> {
    Site::iter().collect()
}
