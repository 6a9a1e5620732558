//! A person's traces in free text: what erasure looks for beyond the fields that are plainly theirs. A campaign tag,
//! a referrer, a stored report or someone else's message can hold an e-mail address (in any case) or a phone number
//! (written any way: `+12145550199`, `(214) 555-0199`, `214.555.0199`); the person's own tags and addresses can also
//! hold their name (`Zelda Quixote`, `zelda-quixote`, `zelda_quixote`). [`Traces`] finds them: [`Traces::holds`] for
//! a field that goes whole (also after URL decoding), [`Traces::erase`] to replace each one found inside a longer
//! text with [`ERASED`].

use std::ops::Range;

use percent_encoding::percent_decode_str;

/// What a trace is replaced with inside a longer text.
pub const ERASED: &str = "(erased)";

/// A name shorter than this (in letters and digits) is not looked for: `Al` would match words of other texts.
const SHORTEST_NAME: usize = 3;

/// The identifiers and names of one person (or of the several leads a request matched).
#[derive(Debug, Clone, Default)]
pub struct Traces {
    /// Lowercase.
    emails: Vec<String>,
    /// The ten digits of a US number.
    phones: Vec<String>,
    /// Each name as its lowercase words.
    names: Vec<Vec<String>>,
}

impl Traces {
    pub fn add_email(&mut self, email: &str) {
        let email = email.trim().to_ascii_lowercase();
        if email.contains('@') && !self.emails.contains(&email) {
            self.emails.push(email);
        }
    }

    /// A phone number as stored (`+1` and ten digits) or typed; anything that is not ten US digits is ignored.
    pub fn add_phone(&mut self, phone: &str) {
        let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
        let digits = match digits.strip_prefix('1') {
            Some(rest) if digits.len() == 11 => rest.to_string(),
            _ => digits,
        };
        if digits.len() == 10 && !self.phones.contains(&digits) {
            self.phones.push(digits);
        }
    }

    /// A person's or a company's name, matched as a whole sequence of words. For the person's own rows only (see
    /// `super::elsewhere`): a name is ordinary words, which other people's pages and tags hold too.
    pub fn add_name(&mut self, name: &str) {
        let words: Vec<String> = words(name).into_iter().map(|(_, word)| word).collect();
        let letters: usize = words.iter().map(|word| word.chars().count()).sum();
        if letters >= SHORTEST_NAME && !self.names.contains(&words) {
            self.names.push(words);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.emails.is_empty() && self.phones.is_empty() && self.names.is_empty()
    }

    /// Whether `text`, as it is or URL-decoded (`%40`, `+` for a space), holds any trace.
    pub fn holds(&self, text: &str) -> bool {
        if !self.found(text).is_empty() {
            return true;
        }
        let decoded = percent_decode_str(&text.replace('+', " "))
            .decode_utf8_lossy()
            .into_owned();
        decoded != text && !self.found(&decoded).is_empty()
    }

    /// `text` with every trace replaced by [`ERASED`]; `None` when it holds none.
    pub fn erase(&self, text: &str) -> Option<String> {
        let found = self.found(text);
        if found.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for span in found {
            out.push_str(&text[at..span.start]);
            out.push_str(ERASED);
            at = span.end;
        }
        out.push_str(&text[at..]);
        Some(out)
    }

    /// The byte ranges of the traces in `text`, in order, overlapping ones merged.
    fn found(&self, text: &str) -> Vec<Range<usize>> {
        if self.is_empty() || text.is_empty() {
            return Vec::new();
        }
        let mut spans = Vec::new();
        for email in &self.emails {
            spans.extend(ascii_caseless(text, email));
        }
        for phone in &self.phones {
            spans.extend(phone_numbers(text, phone));
        }
        if !self.names.is_empty() {
            let words = words(text);
            for name in &self.names {
                for start in 0..words.len() {
                    let candidate = &words[start..(start + name.len()).min(words.len())];
                    if candidate.len() == name.len()
                        && candidate.iter().zip(name).all(|((_, a), b)| a == b)
                    {
                        spans.push(candidate[0].0.start..candidate[candidate.len() - 1].0.end);
                    }
                }
            }
        }
        spans.sort_by_key(|span| (span.start, span.end));
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(spans.len());
        for span in spans {
            match merged.last_mut() {
                Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
                _ => merged.push(span),
            }
        }
        merged
    }
}

/// The words of `text` (runs of letters and digits), lowercase, with their byte ranges.
fn words(text: &str) -> Vec<(Range<usize>, String)> {
    let mut found = Vec::new();
    let mut start = None;
    for (at, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                found.push((from..at, text[from..at].to_lowercase()));
                start = None;
            }
            _ => {}
        }
    }
    found
}

/// Where `needle` (lowercase) is in `text`, ignoring ASCII case. The ranges fall on character boundaries: a match
/// starts and ends where the needle's own characters do.
fn ascii_caseless(text: &str, needle: &str) -> Vec<Range<usize>> {
    let (haystack, needle) = (text.as_bytes(), needle.as_bytes());
    if needle.is_empty() || haystack.len() < needle.len() {
        return Vec::new();
    }
    (0..=haystack.len() - needle.len())
        .filter(|&at| haystack[at..at + needle.len()].eq_ignore_ascii_case(needle))
        .map(|at| at..at + needle.len())
        .collect()
}

/// Where the US number of ten `digits` is written in `text`: its digits with at most two separators (space, `-`,
/// `.`, `(`, `)`) between any two, a `1` or `+1` before them allowed, and no digit right before or after.
fn phone_numbers(text: &str, digits: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let is_separator = |b: u8| matches!(b, b' ' | b'-' | b'.' | b'(' | b')');
    let mut found = Vec::new();
    for start in 0..bytes.len() {
        if !bytes[start].is_ascii_digit() || (start > 0 && bytes[start - 1].is_ascii_digit()) {
            continue;
        }
        let mut seen = String::with_capacity(11);
        let mut gap = 0;
        let mut at = start;
        while at < bytes.len() && seen.len() < 11 {
            let b = bytes[at];
            if b.is_ascii_digit() {
                seen.push(char::from(b));
                gap = 0;
                let whole = seen == digits || seen.strip_prefix('1') == Some(digits);
                if whole && !bytes.get(at + 1).is_some_and(u8::is_ascii_digit) {
                    // A `+` or `(` right before belongs to the number.
                    let from = if start > 0 && matches!(bytes[start - 1], b'+' | b'(') {
                        start - 1
                    } else {
                        start
                    };
                    found.push(from..at + 1);
                    break;
                }
            } else if is_separator(b) && gap < 2 && !seen.is_empty() {
                gap += 1;
            } else {
                break;
            }
            at += 1;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zelda() -> Traces {
        let mut traces = Traces::default();
        traces.add_email("Zelda.Quixote@Forget.example");
        traces.add_phone("+15558675309");
        traces.add_name("Zelda Quixote");
        traces.add_name("Al");
        traces
    }

    #[test]
    fn a_field_holding_an_identifier_or_the_name_in_any_spelling_is_found() {
        let traces = zelda();
        for held in [
            "ZELDA.QUIXOTE@forget.example",
            "zelda.quixote%40forget.example",
            "call (555) 867-5309 now",
            "555.867.5309",
            "+1 555 867 5309",
            "15558675309",
            "zelda-quixote",
            "Zelda+Quixote",
            "hello_zelda_quixote_2026",
            "Zelda%20Quixote",
        ] {
            assert!(traces.holds(held), "{held}");
        }
        for clean in [
            "hotshot-fall",
            "zelda",
            "quixote-zelda",
            "55586753091",
            "2555867530",
            "fall-sale",
            "forget.example",
        ] {
            assert!(!traces.holds(clean), "{clean}");
        }
    }

    #[test]
    fn traces_inside_a_text_are_replaced_and_the_rest_kept() {
        let traces = zelda();
        assert_eq!(
            traces
                .erase(
                    "<td>Zelda Quixote</td><td>zelda.quixote@forget.example</td> (555) 867-5309."
                )
                .as_deref(),
            Some("<td>(erased)</td><td>(erased)</td> (erased).")
        );
        assert_eq!(traces.erase("nothing of hers, señora"), None);
        assert_eq!(
            traces.erase("é+15558675309é").as_deref(),
            Some("é(erased)é")
        );
    }
}
