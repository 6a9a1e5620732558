//! What a request says about its visitor, worked out without keeping the request: whether a program made it
//! (crawlers, link-preview fetchers, monitors, scripts), the device class, the host of the site that linked here and
//! the campaign tags of the address. Every text that comes out is cleaned (no control characters) and capped, so a
//! hostile header ends up as a short printable word, or nothing.

use crate::leads::validate::is_invisible_control;

/// The longest text kept from a tag, a host or a path, in characters.
const MAX_CHARS: usize = 100;
const MAX_PATH_CHARS: usize = 300;

/// Phone, tablet or desktop, from the user agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Device {
    Phone,
    Tablet,
    Desktop,
}

impl Device {
    pub const ALL: [Device; 3] = [Device::Phone, Device::Tablet, Device::Desktop];

    /// The stored and printed name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Device::Phone => "phone",
            Device::Tablet => "tablet",
            Device::Desktop => "desktop",
        }
    }
}

/// Lowercase words that only programs put in a user agent: crawlers and archivers, link-preview fetchers (chat apps
/// and social networks fetching a page to show a card), uptime monitors, speed testers, automated browsers, HTTP
/// libraries and scanners. Names ending in "bot" are caught by [`is_program`] itself.
const PROGRAM_WORDS: &[&str] = &[
    "crawl",
    "spider",
    "slurp",
    "archiver",
    "facebookexternalhit",
    "facebookcatalog",
    "meta-external",
    "embedly",
    "iframely",
    "preview",
    "headless",
    "lighthouse",
    "pagespeed",
    "gtmetrix",
    "pingdom",
    "uptime",
    "monitor",
    "statuscake",
    "site24x7",
    "check_http",
    "nagios",
    "zabbix",
    "phantomjs",
    "puppeteer",
    "playwright",
    "cypress",
    "python",
    "curl/",
    "wget",
    "java/",
    "go-http-client",
    "okhttp",
    "axios",
    "node-fetch",
    "undici",
    "libwww",
    "httpclient",
    "scrapy",
    "ahrefs",
    "semrush",
    "google-inspectiontool",
    "googleother",
    "mediapartners-google",
    "adsbot-google",
    "apis-google",
    "feedfetcher",
    "google-read-aloud",
    "chatgpt",
    "claude",
    "anthropic",
    "perplexity",
    "bytespider",
    "scanner",
    "zgrab",
    "nuclei",
    "masscan",
    "httrack",
    "validator",
];

/// Whether a user agent is a program's rather than a person's browser. Every browser's begins with `Mozilla/`; a
/// program that borrows a browser's usually adds its name (`Googlebot/2.1`, `facebookexternalhit`) or an address
/// where it explains itself (`+http://...`, an e-mail address).
pub fn is_program(user_agent: &str) -> bool {
    let ua = user_agent.to_ascii_lowercase();
    if !ua.starts_with("mozilla/")
        || ua.contains("http://")
        || ua.contains("https://")
        || ua.contains('@')
    {
        return true;
    }
    if PROGRAM_WORDS.iter().any(|word| ua.contains(word)) {
        return true;
    }
    // A name ending in "bot": `Googlebot/2.1`, `SemrushBot;`, `(like TwitterBot)`, `Slackbot-LinkExpanding`, or at
    // the end. Not "bot" inside a word or before a space or `_` ("CUBOT X30", "CUBOT_X20" are phones).
    ua.match_indices("bot").any(|(at, _)| {
        matches!(
            ua.as_bytes().get(at + 3),
            None | Some(b'/' | b';' | b')' | b'-' | b',')
        )
    })
}

/// The device class of a browser's user agent. Android without "Mobile" is a tablet (Google's rule for Android
/// browsers); iPads that present themselves as a Mac count as desktops, which nothing in the request tells apart.
pub fn device(user_agent: &str) -> Device {
    let ua = user_agent.to_ascii_lowercase();
    let has = |word: &str| ua.contains(word);
    let android = has("android");
    if has("ipad")
        || has("tablet")
        || has("kindle")
        || has("silk/")
        || has("playbook")
        || (android && !has("mobile"))
    {
        Device::Tablet
    } else if android
        || [
            "iphone",
            "ipod",
            "mobi",
            "windows phone",
            "blackberry",
            "opera mini",
        ]
        .iter()
        .any(|word| has(word))
    {
        Device::Phone
    } else {
        Device::Desktop
    }
}

/// The host of an absolute URL (`https://www.google.com/search?q=x` -> `google.com`): lowercase, without `www.`,
/// port or credentials; `None` for anything else (no scheme, no host, characters no host name has).
pub fn host_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return None;
    }
    host_of_authority(rest.split(['/', '?', '#']).next()?)
}

/// The host of a `Host` header or a URL's authority (`user@www.Example.com:8443` -> `example.com`).
pub fn host_of_authority(authority: &str) -> Option<String> {
    let host = authority.rsplit('@').next()?;
    let host = match host.strip_prefix('[') {
        // An IPv6 literal keeps its brackets; its colons are not a port.
        Some(inside) => &host[..inside.find(']')? + 2],
        None => host.split(':').next()?,
    };
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let plausible = !host.is_empty()
        && host.len() <= MAX_CHARS
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._[]:".contains(&b));
    plausible.then(|| host.to_string())
}

/// The campaign tags of an address's query (`utm_source`, `utm_medium`, `utm_campaign`), each as counted by [`tag`].
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tags {
    pub source: String,
    pub medium: String,
    pub campaign: String,
}

impl Tags {
    /// From a query as sent (`utm_source=News+letter&utm_campaign=spring%202026`); the first of a repeated tag wins.
    pub fn from_query(query: &str) -> Tags {
        let mut tags = Tags::default();
        for pair in query.split('&') {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let slot = match name {
                "utm_source" => &mut tags.source,
                "utm_medium" => &mut tags.medium,
                "utm_campaign" => &mut tags.campaign,
                _ => continue,
            };
            if slot.is_empty() {
                *slot = tag(&percent_decode(value));
            }
        }
        tags
    }
}

/// A campaign tag as counted: without control characters, trimmed, lowercase (so `Google` and `google` are one
/// source), at most 100 characters; `''` when nothing is left.
pub fn tag(raw: &str) -> String {
    clean(raw, MAX_CHARS).to_lowercase()
}

/// The path of an absolute URL or of a path with a query (`https://x.com/about?a=1#b` -> `/about`), cleaned and
/// capped; `None` when there is no path to be had.
pub fn path_of(url: &str) -> Option<String> {
    let url = url.trim();
    let from_path = match url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |slash| &rest[slash..]),
        None if url.starts_with('/') => url,
        None => return None,
    };
    let path = from_path.split(['?', '#']).next().unwrap_or("/");
    Some(clean_path(path))
}

/// A request's path as counted: without control characters, at most 300 characters.
pub fn clean_path(path: &str) -> String {
    let path = clean(path, MAX_PATH_CHARS);
    if path.is_empty() {
        "/".to_string()
    } else {
        path
    }
}

fn clean(raw: &str, max_chars: usize) -> String {
    let kept: String = raw
        .chars()
        .filter(|c| !is_invisible_control(*c))
        .take(max_chars)
        .collect();
    kept.trim().to_string()
}

/// `%xx` escapes and `+` (a space in a query) decoded; invalid UTF-8 replaced rather than refused.
fn percent_decode(text: &str) -> String {
    fn hex(byte: u8) -> Option<u8> {
        (byte as char).to_digit(16).map(|digit| digit as u8)
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%' && i + 2 < bytes.len())
            .then(|| Some(hex(bytes[i + 1])? * 16 + hex(bytes[i + 2])?))
            .flatten();
        match (escaped, bytes[i]) {
            (Some(byte), _) => {
                out.push(byte);
                i += 3;
                continue;
            }
            (None, b'+') => out.push(b' '),
            (None, byte) => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BROWSERS: &[(&str, Device)] = &[
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
            Device::Phone,
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
            Device::Phone,
        ),
        (
            "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
            Device::Phone,
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
            Device::Phone,
        ),
        (
            "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0",
            Device::Phone,
        ),
        (
            "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
            Device::Tablet,
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
            Device::Tablet,
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
            Device::Desktop,
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
            Device::Desktop,
        ),
        (
            "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
            Device::Desktop,
        ),
    ];

    const PROGRAMS: &[&str] = &[
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1)",
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
        "Twitterbot/1.0",
        "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
        "WhatsApp/2.23.20.0 A",
        "TelegramBot (like TwitterBot)",
        "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
        "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
        "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
        "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
        "Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
        "Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
        "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse",
        "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com",
        "curl/8.5.0",
        "Wget/1.21.4",
        "python-requests/2.32.3",
        "Go-http-client/1.1",
        "okhttp/4.12.0",
        "",
        "truckins-process-test",
    ];

    #[test]
    fn browsers_are_people_with_their_device_and_programs_are_not_counted() {
        for (ua, device) in BROWSERS {
            assert!(!is_program(ua), "{ua}");
            assert_eq!(super::device(ua), *device, "{ua}");
        }
        for ua in PROGRAMS {
            assert!(is_program(ua), "{ua}");
        }
    }

    #[test]
    fn hosts_are_bare_names_and_junk_is_no_host() {
        assert_eq!(
            host_of("https://www.Google.com/search?q=trucks").as_deref(),
            Some("google.com")
        );
        assert_eq!(
            host_of("http://user:pw@m.facebook.com:8080/x").as_deref(),
            Some("m.facebook.com")
        );
        assert_eq!(
            host_of("android-app://com.google.android.gm/").as_deref(),
            Some("com.google.android.gm")
        );
        assert_eq!(
            host_of("http://[2001:db8::1]:8000/").as_deref(),
            Some("[2001:db8::1]")
        );
        assert_eq!(
            host_of_authority("127.0.0.1:8000").as_deref(),
            Some("127.0.0.1")
        );
        for junk in [
            "",
            "google.com",
            "javascript:alert(1)",
            "https://",
            "https://exa mple.com/",
            "https://<b>/",
            "://x",
        ] {
            assert_eq!(host_of(junk), None, "{junk:?}");
        }
        assert_eq!(host_of(&format!("https://{}.com/", "a".repeat(200))), None);
    }

    #[test]
    fn campaign_tags_are_decoded_cleaned_and_capped() {
        let tags = Tags::from_query(
            "utm_source=News+Letter&utm_medium=e%2Dmail&utm_campaign=Spring%202026&utm_source=other&x=1",
        );
        assert_eq!(
            tags,
            Tags {
                source: "news letter".into(),
                medium: "e-mail".into(),
                campaign: "spring 2026".into()
            }
        );
        assert_eq!(Tags::from_query(""), Tags::default());
        assert_eq!(
            Tags::from_query("utm_source=%e2%80%aeevil%1b%5b31m%ff%").source,
            "evil[31m\u{fffd}%"
        );
        assert_eq!(
            Tags::from_query(&format!("utm_campaign={}", "x".repeat(5000)))
                .campaign
                .len(),
            100
        );
    }

    #[test]
    fn paths_come_from_urls_and_paths_alike() {
        assert_eq!(
            path_of("https://www.example.com/about?utm_source=x#top").as_deref(),
            Some("/about")
        );
        assert_eq!(path_of("http://127.0.0.1:8000").as_deref(), Some("/"));
        assert_eq!(path_of("/get-quote?x=1").as_deref(), Some("/get-quote"));
        assert_eq!(path_of("not a url"), None);
        assert_eq!(clean_path("/a\u{0}b\u{202e}c"), "/abc");
    }
}
