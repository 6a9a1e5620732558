//! The classification's lists, tested: browsers with their devices, programs, hosts, tags and paths, hostile input.

use crate::analytics::classify::*;

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
    for (ua, expected) in BROWSERS {
        assert!(!is_program(ua), "{ua}");
        assert_eq!(device(ua), *expected, "{ua}");
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
