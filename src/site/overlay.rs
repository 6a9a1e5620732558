//! The pages that name the site's public address (canonical links, structured data, sitemap), rewritten once at
//! start when the server is configured with another address than the one the site was built with.

use std::collections::HashMap;
use std::io::Write;

use super::build_base_url;
use super::files::{PREPARED, Variant};
use crate::built;

/// Pages rewritten for the configured public address, kept for the life of the process (identity and gzip).
#[derive(Default)]
pub struct Overlay {
    pub(super) files: HashMap<String, Rewritten>,
}

/// A rewritten page's two representations, ready to send, and its caching (that of the file it rewrites).
pub(super) struct Rewritten {
    pub(super) plain: Variant,
    pub(super) gzip: Variant,
    pub(super) cache_control: &'static str,
}

impl Overlay {
    /// Rewrites every text file naming the build's base URL, when `base_url` differs from it.
    pub fn new(base_url: Option<&str>) -> Overlay {
        let Some(base_url) = base_url.filter(|url| *url != build_base_url()) else {
            return Overlay::default();
        };
        let mut files = HashMap::new();
        for name in built::names() {
            let is_text = [".html", ".xml", ".txt", ".json"]
                .iter()
                .any(|ext| name.ends_with(ext));
            let Some(file) = built::file(&name).filter(|_| is_text) else {
                continue;
            };
            // The type and caching the index worked out for the file this rewrites.
            let Some(prepared) = PREPARED.files.get(name.as_ref()) else {
                continue;
            };
            let text = String::from_utf8_lossy(&file.data);
            if !text.contains(build_base_url()) {
                continue;
            }
            let plain = text.replace(build_base_url(), base_url).into_bytes();
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            let gzip = encoder
                .write_all(&plain)
                .and_then(|()| encoder.finish())
                .unwrap_or_default();
            let etag = format!("\"o{:016x}\"", fnv1a(&plain));
            let gzip_etag = format!("{}-gz\"", etag.trim_end_matches('"'));
            let content_type = prepared.identity.content_type;
            files.insert(
                name.to_string(),
                Rewritten {
                    plain: Variant {
                        encoding: None,
                        etag: leak_str(etag),
                        content_type,
                        body: leak_bytes(plain),
                    },
                    gzip: Variant {
                        encoding: Some("gzip"),
                        etag: leak_str(gzip_etag),
                        content_type,
                        body: leak_bytes(gzip),
                    },
                    cache_control: prepared.cache_control,
                },
            );
        }
        Overlay { files }
    }
}

pub(super) fn leak_bytes(bytes: Vec<u8>) -> &'static [u8] {
    Box::leak(bytes.into_boxed_slice())
}

pub(super) fn leak_str(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// A 64-bit FNV-1a hash: enough to tell versions of a page apart in an ETag.
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}
