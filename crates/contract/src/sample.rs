//! What marks the sample agency's facts as samples: the addresses reserved for examples and the telephone numbers
//! reserved for fiction. The build (`crates/content`) refuses them for a real site's `base_url`, and
//! `truckins check` refuses a sample `base_url` on a server.

/// The sample agency's `base_url`: a build for it (development, the tests) may keep every sample item.
pub const SAMPLE_BASE_URL: &str = "https://www.example.com";

/// The host of an `http(s)://` address, lower-cased, without a port or user; `None` for anything else.
pub fn host_of(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = match host.strip_prefix('[') {
        // An IPv6 literal keeps its colons.
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host.split(':').next().unwrap_or_default(),
    };
    (!host.is_empty()).then(|| host.trim_end_matches('.').to_ascii_lowercase())
}

/// Whether `host` is reserved for examples and documentation (RFC 2606 and RFC 6761): `example.com`, `.org`,
/// `.net` and their subdomains, and the top-level names `.example`, `.test`, `.invalid` and `.localhost`.
pub fn is_example_host(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let under = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
    ["example.com", "example.org", "example.net"]
        .iter()
        .any(|domain| under(domain))
        || ["example", "test", "invalid", "localhost"]
            .iter()
            .any(|tld| under(tld))
}

/// Whether a web address points at a host reserved for examples (see [`is_example_host`]).
pub fn is_example_url(url: &str) -> bool {
    host_of(url).is_some_and(|host| is_example_host(&host))
}

/// Whether an e-mail address is at a domain reserved for examples.
pub fn is_example_email(address: &str) -> bool {
    address
        .rsplit_once('@')
        .is_some_and(|(_, domain)| is_example_host(domain))
}

/// Whether a North American number (written any way: `(555) 010-0142`, `+15550100142`) is one that cannot be
/// dialled: the area code 555 (never assigned), or 555-0100 to 555-0199, the exchange kept for fiction in every
/// area code.
pub fn is_fictional_phone(phone: &str) -> bool {
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    let national = match digits.len() {
        11 if digits.starts_with('1') => &digits[1..],
        10 => digits.as_str(),
        _ => return false,
    };
    let (area, exchange, line) = (&national[..3], &national[3..6], &national[6..]);
    area == "555" || (exchange == "555" && line.starts_with("01"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_addresses_are_recognised_and_real_ones_are_not() {
        for url in [
            "https://www.example.com",
            "http://example.org/path",
            "https://quotes.example.net:8443",
            "https://agency.test",
            "https://user@EXAMPLE.COM.",
            "http://localhost:8000",
        ] {
            assert!(is_example_url(url), "{url}");
        }
        for url in [
            "https://www.realagency.com",
            "https://example.com.evil.io",
            "https://myexample.com",
            "ftp://example.com",
            "https://",
        ] {
            assert!(!is_example_url(url), "{url}");
        }
        assert!(is_example_email("quotes@example.com"));
        assert!(!is_example_email("quotes@realagency.com"));
        assert_eq!(host_of("https://[::1]:8000/x").as_deref(), Some("::1"));
    }

    #[test]
    fn fictional_numbers_are_recognised_and_real_ones_are_not() {
        for phone in [
            "(555) 010-0142",
            "+15550100142",
            "(817) 555-0123",
            "1-212-555-0199",
        ] {
            assert!(is_fictional_phone(phone), "{phone}");
        }
        for phone in [
            "(817) 555-1234",
            "+18175550200",
            "(817) 010-0142",
            "+442071234567",
        ] {
            assert!(!is_fictional_phone(phone), "{phone}");
        }
    }
}
