//! Security headers on every response, from one fairing: a Content-Security-Policy that names no third-party
//! origin (the site loads nothing from elsewhere), no framing, no MIME sniffing, a strict referrer policy and no
//! access to device features. Replaces Rocket's default Shield so each header is set exactly once, here.

use std::sync::LazyLock;

use rocket::fairing::{Fairing, Info, Kind};
use rocket::{Request, Response};

/// Everything comes from this origin; JSON-LD blocks are data, not script, so no inline script is allowed or needed.
/// Every page inlines the site's stylesheet in one `<style>` element (the first paint needs no second request); the
/// policy allows exactly that text by its hash, computed by the web build, never inline styles in general.
pub static CONTENT_SECURITY_POLICY: LazyLock<&'static str> = LazyLock::new(|| {
    let policy = format!(
        "default-src 'self'; script-src 'self'; style-src 'self' '{}'; img-src 'self'; font-src 'self'; \
         connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
        crate::built::text("style-hash.txt").trim()
    );
    // Made once for the life of the process, so that every response borrows it.
    policy.leak()
});

/// Every security header but HSTS, in the order sent: all `'static`, so a response borrows them and nothing is
/// formatted or copied per response.
static HEADERS: LazyLock<[(&str, &str); 7]> = LazyLock::new(|| {
    [
        ("Content-Security-Policy", *CONTENT_SECURITY_POLICY),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "strict-origin-when-cross-origin"),
        (
            "Permissions-Policy",
            "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), \
         payment=(), usb=()",
        ),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]
});

/// Sent only when the site is known to be served over HTTPS (`hsts = true`).
const HSTS: (&str, &str) = (
    "Strict-Transport-Security",
    "max-age=31536000; includeSubDomains",
);

pub struct SecurityHeaders {
    hsts: bool,
}

impl SecurityHeaders {
    pub fn new(hsts: bool) -> SecurityHeaders {
        SecurityHeaders { hsts }
    }
}

/// The security headers for every response, HSTS included when `hsts`.
pub fn headers(hsts: bool) -> impl Iterator<Item = (&'static str, &'static str)> {
    HEADERS.iter().copied().chain(hsts.then_some(HSTS))
}

#[rocket::async_trait]
impl Fairing for SecurityHeaders {
    fn info(&self) -> Info {
        Info {
            name: "Security headers",
            kind: Kind::Response,
        }
    }

    async fn on_response<'r>(&self, _: &'r Request<'_>, response: &mut Response<'r>) {
        for (name, value) in headers(self.hsts) {
            // A page with a stricter policy of its own keeps it (the status links': their own stylesheet, no
            // Referer at all).
            let own = matches!(name, "Content-Security-Policy" | "Referrer-Policy")
                && response.headers().contains(name);
            if !own {
                response.set_raw_header(name, value);
            }
        }
    }
}
