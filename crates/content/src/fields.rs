//! Checks of single values that several files share: meta descriptions, lists of a fixed length, phone numbers,
//! clock times, and text that goes into HTML unescaped through a placeholder.

use std::path::Path;

use crate::problems::Problems;

/// A meta description must fit a search result.
pub(crate) fn check_description(text: &str, field: &str, file: &Path, problems: &mut Problems) {
    let length = text.chars().count();
    problems.check((70..=160).contains(&length), file, || {
        format!(
            "field `{field}`: a meta description must be 70 to 160 characters to fit a search result, found {length}"
        )
    });
}

/// A list of a fixed length (the page's layout is made for it): `what` names its entries in the message.
pub(crate) fn check_count(
    field: &str,
    found: usize,
    expected: usize,
    what: &str,
    file: &Path,
    problems: &mut Problems,
) {
    problems.check(found == expected, file, || {
        format!("field `{field}`: expected exactly {expected}{what}, found {found}")
    });
}

/// A phone number as `tel:` links and structured data want it: `+` and the digits, e.g. +15550100142.
pub(crate) fn is_e164(number: &str) -> bool {
    number.len() > 8 && number.starts_with('+') && number[1..].chars().all(|c| c.is_ascii_digit())
}

/// A 24-hour time like 08:00.
pub(crate) fn is_clock_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 5
        && bytes[2] == b':'
        && text[..2].parse::<u8>().is_ok_and(|h| h < 24)
        && text[3..].parse::<u8>().is_ok_and(|m| m < 60)
}

/// Text that a placeholder (`crate::placeholders`) may put into HTML as it is: nothing HTML would read as markup,
/// and no `{` that could start another placeholder.
pub(crate) fn is_plain(text: &str) -> bool {
    !text.contains(['<', '>', '&', '{'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_70_to_160_characters_counted_as_characters() {
        let mut problems = Problems::new(Path::new("content"));
        let file = Path::new("content/home.toml");
        check_description(&"é".repeat(70), "description", file, &mut problems);
        check_description(&"a".repeat(160), "description", file, &mut problems);
        assert!(problems.is_empty());
        check_description(&"a".repeat(69), "description", file, &mut problems);
        check_description(&"a".repeat(161), "excerpt", file, &mut problems);
        assert_eq!(
            problems.into_vec(),
            [
                "content/home.toml: field `description`: a meta description must be 70 to 160 characters to fit \
                 a search result, found 69",
                "content/home.toml: field `excerpt`: a meta description must be 70 to 160 characters to fit a \
                 search result, found 161",
            ]
        );
    }

    #[test]
    fn counts_name_the_field_and_both_numbers() {
        let mut problems = Problems::new(Path::new("content"));
        let file = Path::new("content/home.toml");
        check_count("why", 4, 4, " cards", file, &mut problems);
        assert!(problems.is_empty());
        check_count("why", 3, 4, " cards", file, &mut problems);
        check_count("benefits", 8, 7, "", file, &mut problems);
        assert_eq!(
            problems.into_vec(),
            [
                "content/home.toml: field `why`: expected exactly 4 cards, found 3",
                "content/home.toml: field `benefits`: expected exactly 7, found 8",
            ]
        );
    }

    #[test]
    fn e164_numbers() {
        assert!(is_e164("+15550100142"));
        for wrong in [
            "15550100142",
            "+1555",
            "+1 555 010 0142",
            "+1555010014x",
            "",
        ] {
            assert!(!is_e164(wrong), "{wrong}");
        }
    }

    #[test]
    fn clock_times() {
        for right in ["00:00", "08:00", "23:59"] {
            assert!(is_clock_time(right), "{right}");
        }
        for wrong in ["24:00", "8:00", "08:60", "08.00", "08:00 ", "ab:cd", "é:00"] {
            assert!(!is_clock_time(wrong), "{wrong}");
        }
    }

    #[test]
    fn plain_text_has_no_markup_or_placeholder() {
        assert!(is_plain("Example Mutual's claims line (24/7)"));
        for wrong in ["<b>", "a > b", "A & B", "{claims}"] {
            assert!(!is_plain(wrong), "{wrong}");
        }
    }
}
