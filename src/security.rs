//! Security headers on every response, from one fairing: a Content-Security-Policy that names no third-party
//! origin (the site loads nothing from elsewhere), no framing, no MIME sniffing, a strict referrer policy and no
//! access to device features. Replaces Rocket's default Shield so each header is set exactly once, here.
//! The values are made once, when the server starts (the policy may take parts from the build), and every response
//! borrows them: nothing is formatted or copied per response.

use rocket::fairing::{self, Fairing, Info, Kind};
use rocket::{Build, Orbit, Request, Response, Rocket};

/// Everything comes from this origin; JSON-LD blocks are data, not script, so no inline script is allowed or needed.
/// Every page inlines the site's stylesheet in one `<style>` element (the first paint needs no second request); the
/// policy allows exactly that text by its hash, computed by the web build, never inline styles in general.
pub const CONTENT_SECURITY_POLICY: &str = concat!(
    "default-src 'self'; script-src 'self'; style-src 'self' '",
    include_str!(concat!(env!("OUT_DIR"), "/style-hash.txt")),
    "'; img-src 'self'; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; \
base-uri 'none'; object-src 'none'"
);

/// The policy this binary sends. A function rather than the constant alone, so that parts only the build knows
/// (such as hashes of inline styles) can be added here; it runs once per start.
pub fn content_security_policy() -> String {
    CONTENT_SECURITY_POLICY.to_string()
}

/// Every security header with its value, in the order sent.
pub fn headers(hsts: bool) -> Vec<(&'static str, String)> {
    let mut headers = vec![
        ("Content-Security-Policy", content_security_policy()),
        ("X-Content-Type-Options", "nosniff".into()),
        ("X-Frame-Options", "DENY".into()),
        ("Referrer-Policy", "strict-origin-when-cross-origin".into()),
        (
            "Permissions-Policy",
            "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), \
             payment=(), usb=()"
                .into(),
        ),
        ("Cross-Origin-Opener-Policy", "same-origin".into()),
        ("Cross-Origin-Resource-Policy", "same-origin".into()),
    ];
    // `Strict-Transport-Security` is sent only when the site is known to be served over HTTPS.
    if hsts {
        headers.push((
            "Strict-Transport-Security",
            "max-age=31536000; includeSubDomains".into(),
        ));
    }
    headers
}

pub struct SecurityHeaders {
    headers: Vec<(&'static str, String)>,
}

impl SecurityHeaders {
    pub fn new(hsts: bool) -> SecurityHeaders {
        SecurityHeaders {
            headers: headers(hsts),
        }
    }
}

/// The values as managed state: a response may borrow from the server's state for as long as the request lives,
/// but not from the fairing.
struct Values(Vec<(&'static str, String)>);

#[rocket::async_trait]
impl Fairing for SecurityHeaders {
    fn info(&self) -> Info {
        Info {
            name: "Security headers",
            kind: Kind::Ignite | Kind::Response,
        }
    }

    async fn on_ignite(&self, rocket: Rocket<Build>) -> fairing::Result {
        Ok(rocket.manage(Values(self.headers.clone())))
    }

    async fn on_response<'r>(&self, request: &'r Request<'_>, response: &mut Response<'r>) {
        let rocket: &'r Rocket<Orbit> = request.rocket();
        match rocket.state::<Values>() {
            Some(values) => {
                for (name, value) in &values.0 {
                    response.set_raw_header(*name, value.as_str());
                }
            }
            // Not reached (ignition always comes first), but if it were, the headers still go out, as copies.
            None => {
                for (name, value) in &self.headers {
                    response.set_raw_header(*name, value.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_transport_security_only_when_asked_for() {
        let names = |hsts| -> Vec<&str> { headers(hsts).iter().map(|(name, _)| *name).collect() };
        assert!(!names(false).contains(&"Strict-Transport-Security"));
        assert!(names(true).contains(&"Strict-Transport-Security"));
        assert_eq!(names(true).len(), names(false).len() + 1);
    }

    #[test]
    fn the_policy_names_no_other_origin_and_forbids_framing() {
        let policy = content_security_policy();
        assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
        assert!(!policy.contains("http"), "{policy}");
        assert!(!policy.contains("unsafe-inline"), "{policy}");
    }
}
