//! Visitor text made fit for one line of an e-mail: [`one_line`] for subjects and table cells (no control
//! characters), and [`header_text`] for whatever goes into a header (a subject, a display name), so that the mail
//! library, not the visitor, decides how the header is encoded.

/// One line, without control characters: for subjects and table cells built from what a visitor typed.
pub(super) fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Put between the `=` and the `?` that would open an RFC 2047 encoded word. Invisible, and not ASCII: lettre writes
/// ASCII words as they are but encodes a word with anything else in it, so a word that had this inserted goes out
/// as lettre's own encoded word, which a mail program decodes back to the characters typed.
const BREAK: char = '\u{2060}';

/// `text` (visitor text, already [`one_line`]) for a header: every `=?` broken by an invisible word joiner. A
/// visitor's `=?utf-8?q?=0D=0ABcc:_x@y?=` is ASCII, so lettre would pass it through as it is, and a mail program
/// would decode it into the CR, LF and right-to-left override that [`one_line`] keeps out of plain text (and show a
/// `Bcc:` line in the subject); broken, it is encoded by lettre as text and shown as typed.
pub(super) fn header_text(text: &str) -> String {
    text.replace("=?", &format!("={BREAK}?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_word_openers_are_broken_and_nothing_else_changes() {
        let typed = "=?utf-8?q?=E2=80=AEdiaS_=0D=0ABcc:_victim@x.com?= and =?UTF-8?B?QmNjOg==?=";
        let safe = header_text(typed);
        assert!(!safe.contains("=?"), "{safe}");
        assert_eq!(safe.replace(BREAK, ""), typed);
        assert_eq!(
            header_text("Lopez & Sons = ? 100%"),
            "Lopez & Sons = ? 100%"
        );
    }

    #[test]
    fn a_subject_with_an_encoded_word_is_encoded_by_lettre() {
        let typed = "New quote: =?utf-8?q?=0D=0ABcc:_victim@x.com?=";
        let message = lettre::Message::builder()
            .from("a@example.com".parse().unwrap())
            .to("b@example.com".parse().unwrap())
            .subject(header_text(typed))
            .body(String::new())
            .unwrap();
        let raw = String::from_utf8(message.formatted()).unwrap();
        let subject = raw
            .lines()
            .find(|line| line.starts_with("Subject:"))
            .unwrap();
        // Only lettre's own encoded word (base64), never the visitor's.
        assert!(!subject.contains("=?utf-8?q?"), "{subject}");
        assert!(subject.contains("=?utf-8?b?"), "{subject}");
    }
}
