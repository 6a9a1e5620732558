//! Security headers on every response, from one fairing: a Content-Security-Policy that names no third-party
//! origin (the site loads nothing from elsewhere), no framing, no MIME sniffing, a strict referrer policy and no
//! access to device features. Replaces Rocket's default Shield so each header is set exactly once, here.

use rocket::fairing::{Fairing, Info, Kind};
use rocket::http::Header;
use rocket::{Request, Response};

/// Everything comes from this origin; JSON-LD blocks are data, not script, so no inline script is allowed or needed.
/// Every page inlines the site's stylesheet in one `<style>` element (the first paint needs no second request); the
/// policy allows exactly that text by its hash, computed by the web build, never inline styles in general.
pub const CONTENT_SECURITY_POLICY: &str = concat!(
    "default-src 'self'; script-src 'self'; style-src 'self' '",
    include_str!(concat!(env!("OUT_DIR"), "/style-hash.txt")),
    "'; img-src 'self'; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; \
base-uri 'none'; object-src 'none'"
);

pub struct SecurityHeaders {
    /// `Strict-Transport-Security` is sent only when the site is known to be served over HTTPS.
    pub hsts: bool,
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
        response.set_header(Header::new(
            "Content-Security-Policy",
            CONTENT_SECURITY_POLICY,
        ));
        response.set_header(Header::new("X-Content-Type-Options", "nosniff"));
        response.set_header(Header::new("X-Frame-Options", "DENY"));
        response.set_header(Header::new(
            "Referrer-Policy",
            "strict-origin-when-cross-origin",
        ));
        response.set_header(Header::new(
            "Permissions-Policy",
            "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()",
        ));
        response.set_header(Header::new("Cross-Origin-Opener-Policy", "same-origin"));
        response.set_header(Header::new("Cross-Origin-Resource-Policy", "same-origin"));
        if self.hsts {
            response.set_header(Header::new(
                "Strict-Transport-Security",
                "max-age=31536000; includeSubDomains",
            ));
        }
    }
}
