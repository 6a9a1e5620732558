//! Small text rules every room shares: which characters are invisible controls, text made safe to print in a
//! terminal, a US phone number as people write it, numbers and dollars with thousands separators, HTML escaping
//! and the shell of the server's own private pages, a first letter's case. A leaf: it imports nothing of the server's.

use std::borrow::Cow;

/// Control characters (C0, DEL, C1) and Unicode's bidirectional controls (`Bidi_Control`: the marks U+061C,
/// U+200E, U+200F, the embeddings and overrides U+202A-202E, the isolates U+2066-2069), which a terminal acts on or
/// which reorder the text around them instead of being shown.
pub fn is_invisible_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}')
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// `text` as it may be printed: a CRLF becomes a line feed, and every other control character but tab and line
/// feed, and every bidirectional control, becomes U+FFFD (so that something was there stays visible).
pub fn printable(text: &str) -> Cow<'_, str> {
    let is_unsafe = |c: char| c != '\n' && c != '\t' && is_invisible_control(c);
    if !text.contains(is_unsafe) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.replace("\r\n", "\n")
            .chars()
            .map(|c| if is_unsafe(c) { '\u{FFFD}' } else { c })
            .collect(),
    )
}

/// A US number as the server stores it (`+1` and ten digits) as people write it, `(555) 210-0142`: a spreadsheet
/// reads that as text (neither a formula nor a number, so no digit is lost or reformatted). `None` for any other
/// text.
pub fn us_phone(stored: &str) -> Option<String> {
    let digits = stored.strip_prefix("+1")?;
    if digits.len() != 10 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(format!(
        "({}) {}-{}",
        &digits[..3],
        &digits[3..6],
        &digits[6..]
    ))
}

/// `text` safe inside HTML text and attribute values.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

/// `Add a vehicle` -> `add a vehicle`, `Agregar un vehículo` -> `agregar un vehículo`: a label inside a sentence.
pub fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `the replica is behind` -> `The replica is behind`: a sentence's start.
pub fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `1234567` as `1,234,567`.
pub fn thousands(count: i64) -> String {
    let digits = count.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if count < 0 {
        out.push('-');
    }
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Whole dollars as people write them: `$52,500`, `-$1,000`.
pub fn dollars(amount: i64) -> String {
    let sign = if amount < 0 { "-" } else { "" };
    format!("{sign}${}", thousands(amount.unsigned_abs() as i64))
}

/// A page of the server's own that only the agency opens (the status links', a submission's): `title` as its
/// heading, then `body` (HTML, already escaped), with `style` inline (allowed by its hash in the page's CSP), never
/// indexed and never sending a referrer.
pub fn private_page(title: &str, style: &str, body: &str) -> String {
    let title = escape_html(title);
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex, nofollow\"><meta name=\"referrer\" content=\"no-referrer\">\
         <title>{title}</title><style>{style}</style></head>\
         <body><main><h1>{title}</h1>{body}</main></body></html>\n"
    )
}

/// Standard base64 with padding (RFC 4648): the hash of a page's own stylesheet in its Content-Security-Policy.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let value = chunk.iter().enumerate().fold(0u32, |value, (at, byte)| {
            value | u32::from(*byte) << (16 - 8 * at)
        });
        for at in 0..4 {
            if at <= chunk.len() {
                out.push(ALPHABET[(value >> (18 - 6 * at) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_dollars_read_as_people_write_them() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(-12_345), "-12,345");
        assert_eq!(dollars(0), "$0");
        assert_eq!(dollars(999), "$999");
        assert_eq!(dollars(52_500), "$52,500");
        assert_eq!(dollars(1_250_000), "$1,250,000");
        assert_eq!(dollars(-1_000), "-$1,000");
    }

    #[test]
    fn base64_as_rfc_4648_says() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
