//! The checks judged from the settings alone: the public address (`base_url`, else the one built in) is https and
//! not the sample agency's; and, when a proxy is in front, that its `X-Forwarded-For` is believed
//! (`trusted_proxies`) and HSTS is on.
//!
//! Whether a proxy is in front is read from where the server listens: truckins speaks no TLS itself, so on
//! loopback (127.0.0.1, ::1) only a proxy on the same machine can reach it, and an https site must have one. On
//! another address, a declared `trusted_proxies` says a proxy is in front (Docker's port mapping behind Caddy);
//! without one the server is taken to face its visitors directly, and neither setting applies.

use std::net::{IpAddr, SocketAddr};

use contract::sample;

use super::Check;

/// `base_url` (the setting, else `built`, the address the site was built with): https, and not a host kept for
/// examples (the sample agency's `https://www.example.com`).
pub fn base_url(setting: Option<&str>, built: &str) -> Check {
    let (url, from) = match setting {
        Some(url) => (url, "the base_url setting"),
        None => (built, "built into the binary; no base_url setting"),
    };
    if !url.starts_with("https://") {
        return Check::fail(
            "base_url",
            format!(
                "{url} ({from}) is not https: canonical links, the sitemap and the status links in the agency's \
                 e-mail would send people over plain http; set base_url = \"https://...\", the address behind \
                 the proxy's certificate"
            ),
        );
    }
    if sample::is_example_url(url) {
        let which = if url == sample::SAMPLE_BASE_URL {
            "the sample agency's address"
        } else {
            "an address reserved for examples"
        };
        return Check::fail(
            "base_url",
            format!(
                "{url} ({from}) is {which}, not a real site's: set base_url to the site's own address (and \
                 build with it in content/facts.toml)"
            ),
        );
    }
    Check::ok(
        "base_url",
        format!("{url} is https and not a sample ({from})"),
    )
}

/// `trusted_proxies` and `hsts`, as two lines, for a server listening on `listen`.
pub fn proxy(listen: SocketAddr, trusted: &[IpAddr], hsts: bool) -> [Check; 2] {
    let trusted_text = trusted
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let loopback = listen.ip().is_loopback();
    let proxies = if loopback {
        if trusted.is_empty() {
            Check::fail(
                "trusted_proxies",
                format!(
                    "empty, but the server listens on {listen}, so visitors come through a proxy on this machine: \
                     every visitor would count as the proxy's address (rate limits, consent records); set \
                     trusted_proxies = [\"127.0.0.1\"]"
                ),
            )
        } else if !trusted.iter().any(IpAddr::is_loopback) {
            Check::fail(
                "trusted_proxies",
                format!(
                    "{trusted_text}, none on loopback, but the server listens on {listen}, which only this machine \
                     can reach: add the proxy's loopback address (trusted_proxies = [\"127.0.0.1\"])"
                ),
            )
        } else {
            Check::ok(
                "trusted_proxies",
                format!(
                    "listens on {listen} behind a proxy on this machine; X-Forwarded-For believed from {trusted_text}"
                ),
            )
        }
    } else if trusted.is_empty() {
        Check::skip(
            "trusted_proxies",
            format!(
                "listens on {listen} with no proxy declared: each visitor's address is its connection's (right \
                 when visitors connect directly; behind a proxy or Docker's port mapping, set trusted_proxies to \
                 its address)"
            ),
        )
    } else {
        Check::ok(
            "trusted_proxies",
            format!("listens on {listen}; X-Forwarded-For believed from {trusted_text}"),
        )
    };
    let behind_proxy = loopback || !trusted.is_empty();
    let hsts = match (behind_proxy, hsts) {
        (true, true) => Check::ok(
            "hsts",
            "on: browsers that visited once keep to https (Strict-Transport-Security)",
        ),
        (true, false) => Check::fail(
            "hsts",
            "off behind an https proxy: set hsts = true, so that browsers never fall back to plain http",
        ),
        (false, on) => Check::skip(
            "hsts",
            format!(
                "{}; no proxy in front that this server knows of (see trusted_proxies), and truckins speaks no \
                 TLS itself: HSTS counts where an https proxy passes it on (then set hsts = true)",
                if on { "on" } else { "off" }
            ),
        ),
    };
    [proxies, hsts]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preflight::Status;

    #[test]
    fn a_real_https_address_passes_and_http_or_a_sample_fails() {
        let real = base_url(Some("https://www.realagency.com"), sample::SAMPLE_BASE_URL);
        assert_eq!(real.status, Status::Ok, "{}", real.detail);
        assert!(
            real.detail
                .starts_with("https://www.realagency.com is https and not a sample"),
            "{}",
            real.detail
        );
        let http = base_url(Some("http://www.realagency.com"), sample::SAMPLE_BASE_URL);
        assert_eq!(http.status, Status::Fail);
        assert!(http.detail.contains("not https"), "{}", http.detail);
        let built = base_url(None, sample::SAMPLE_BASE_URL);
        assert_eq!(built.status, Status::Fail);
        assert!(
            built.detail.contains("sample agency's") && built.detail.contains("built into"),
            "{}",
            built.detail
        );
        let example = base_url(
            Some("https://agency.example.net"),
            "https://www.realagency.com",
        );
        assert_eq!(example.status, Status::Fail);
        assert!(
            example.detail.contains("reserved for examples"),
            "{}",
            example.detail
        );
    }

    fn listen(text: &str) -> SocketAddr {
        text.parse().unwrap()
    }

    fn statuses(checks: [Check; 2]) -> (Status, Status) {
        (checks[0].status, checks[1].status)
    }

    #[test]
    fn on_loopback_a_proxy_is_in_front_and_both_settings_are_required() {
        let local: IpAddr = "127.0.0.1".parse().unwrap();
        let elsewhere: IpAddr = "10.0.0.5".parse().unwrap();
        assert_eq!(
            statuses(proxy(listen("127.0.0.1:8000"), &[local], true)),
            (Status::Ok, Status::Ok)
        );
        assert_eq!(
            statuses(proxy(listen("127.0.0.1:8000"), &[], true)),
            (Status::Fail, Status::Ok)
        );
        assert_eq!(
            statuses(proxy(listen("[::1]:8000"), &[local], false)),
            (Status::Ok, Status::Fail)
        );
        // A proxy on another machine cannot reach a loopback address: its X-Forwarded-For would never be read.
        assert_eq!(
            statuses(proxy(listen("127.0.0.1:8000"), &[elsewhere], true)),
            (Status::Fail, Status::Ok)
        );
    }

    #[test]
    fn on_every_interface_a_declared_proxy_needs_hsts_and_none_leaves_both_aside() {
        let bridge: IpAddr = "172.17.0.1".parse().unwrap();
        assert_eq!(
            statuses(proxy(listen("0.0.0.0:8000"), &[bridge], false)),
            (Status::Ok, Status::Fail)
        );
        assert_eq!(
            statuses(proxy(listen("0.0.0.0:8000"), &[], false)),
            (Status::Skip, Status::Skip)
        );
        assert_eq!(
            statuses(proxy(listen("[::]:8000"), &[], true)),
            (Status::Skip, Status::Skip)
        );
    }
}
