//! What a request says about its visitor, worked out without keeping the request: whether a program made it
//! (crawlers, link-preview fetchers, monitors, scripts), the device class, the host of the site that linked here and
//! the campaign tags of the address. Every text that comes out is cleaned (no control characters) and capped, so a
//! hostile header ends up as a short printable word, or nothing.

use crate::text::is_invisible_control;

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
