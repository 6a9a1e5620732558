//! Cleaning text before it is stored: markup, script URLs, event handlers, control and bidirectional characters
//! removed (the specification's sanitising, and what a terminal or a spreadsheet would act on).

use crate::text::is_invisible_control;

/// Text kept as sent (attribution fields, the browser's `User-Agent` and `Referer`), made safe to store and print:
/// without control or bidirectional characters, trimmed, at most `max_chars` characters; `None` when nothing is
/// left. Nothing else is changed, so a URL stays the URL it was.
pub fn clean_line(raw: &str, max_chars: usize) -> Option<String> {
    let cleaned: String = raw.chars().filter(|c| !is_invisible_control(*c)).collect();
    let cleaned = cleaned.trim();
    (!cleaned.is_empty()).then(|| cleaned.chars().take(max_chars).collect())
}

/// Spec: trim, strip angle brackets, strip script-protocol text and inline event-handler patterns.
pub fn sanitize(raw: &str) -> String {
    // Also no control or direction-override characters: stored text is later printed in a terminal and opened in
    // spreadsheets, where they could forge rows or hide text.
    let mut text: String = raw
        .chars()
        .filter(|c| *c != '<' && *c != '>' && !is_invisible_control(*c))
        .collect();
    // Repeat until stable, so "javajavascript:script:" cannot reassemble itself.
    loop {
        let before = text.len();
        text = remove_ascii_case_insensitive(&text, "javascript:");
        text = remove_event_handlers(&text);
        if text.len() == before {
            break;
        }
    }
    text.trim().to_string()
}

fn remove_ascii_case_insensitive(text: &str, needle: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut rest = 0;
    while let Some(found) = lower[rest..].find(needle) {
        out.push_str(&text[rest..rest + found]);
        rest += found + needle.len();
    }
    out.push_str(&text[rest..]);
    out
}

/// Removes `on<letters>=` (an inline event handler such as `onerror=`), with any spaces before the `=`.
fn remove_event_handlers(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i + 2 < bytes.len() {
        let starts_word = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if starts_word
            && bytes[i].eq_ignore_ascii_case(&b'o')
            && bytes[i + 1].eq_ignore_ascii_case(&b'n')
        {
            let mut j = i + 2;
            while j < bytes.len() && bytes[j].is_ascii_alphabetic() {
                j += 1;
            }
            let letters = j - (i + 2);
            while j < bytes.len() && bytes[j] == b' ' {
                j += 1;
            }
            if letters > 0 && j < bytes.len() && bytes[j] == b'=' {
                out.push_str(&text[copied..i]);
                i = j + 1;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leads::validate::contact;
    use crate::leads::validate::tests::fields;

    #[test]
    fn control_and_direction_characters_are_removed() {
        assert_eq!(
            sanitize("Need\n   99  2026 won  Forged\u{1b}[31m COI"),
            "Need   99  2026 won  Forged[31m COI"
        );
        assert_eq!(sanitize("abc\u{202E}def"), "abcdef");
        assert_eq!(sanitize("a\u{200F}b\u{061C}c\u{2069}d"), "abcd");
        assert_eq!(
            clean_line("  https://example.com/\u{1b}[31m?a=1&on=x\u{9b}  ", 2000).as_deref(),
            Some("https://example.com/[31m?a=1&on=x"),
            "only what a terminal acts on goes; the URL's own text stays"
        );
        assert_eq!(clean_line(" \u{202E}\u{7} ", 10), None);
        assert_eq!(clean_line(&"u".repeat(300), 200), Some("u".repeat(200)));
        let message = contact(&fields(&[
            ("name", "Luis"),
            ("email", "l@example.com"),
            ("subject", "Certificate"),
            ("message", "Line one\r\nLine\ttwo\u{0}\u{7}"),
        ]))
        .unwrap()
        .message;
        assert_eq!(message, "Line one\nLine\ttwo");
    }

    #[test]
    fn sanitising_strips_markup_script_urls_and_handlers() {
        assert_eq!(sanitize("  <b>Hello</b>  "), "bHello/b");
        assert_eq!(sanitize("JavaScript:alert(1)"), "alert(1)");
        assert_eq!(sanitize("javajavascript:script:x"), "x");
        assert_eq!(
            sanitize("img onerror=alert(1) onLoad = x"),
            "img alert(1)  x"
        );
        assert_eq!(sanitize("Question on insurance"), "Question on insurance");
        assert_eq!(sanitize("money=on"), "money=on");
        let subject = contact(&fields(&[
            ("name", "Luis"),
            ("email", "l@example.com"),
            ("subject", "<script>Need a COI</script>"),
            ("message", "0123456789"),
        ]))
        .unwrap()
        .subject;
        assert_eq!(subject, "scriptNeed a COI/script");
    }
}
