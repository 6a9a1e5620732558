//! The server's rules for both forms (the browser's checks are only for comfort): the specification's limits and
//! messages, word for word, the first error per field, and the sanitising of name and subject before storing.
//!
//! Input arrives as loose text fields (from JSON or a urlencoded form alike); the output is either a clean
//! [`QuoteLead`] / [`ContactLead`] or a map of field -> message.

use std::collections::BTreeMap;

/// Field name -> the first error message for that field.
pub type FieldErrors = BTreeMap<&'static str, &'static str>;

/// The quote form's insurance type values, from `content/forms.toml` (one per line).
const INSURANCE_TYPES: &str = include_str!(concat!(env!("OUT_DIR"), "/insurance-types.txt"));

/// Whether `value` is one of the quote form's insurance types.
pub fn is_insurance_type(value: &str) -> bool {
    !value.is_empty() && INSURANCE_TYPES.lines().any(|known| known == value)
}

/// The fields a visitor sends, as text; absent and empty are the same.
#[derive(Debug, Default, Clone)]
pub struct RawFields(pub BTreeMap<String, String>);

impl RawFields {
    pub fn get(&self, name: &str) -> &str {
        self.0.get(name).map(String::as_str).unwrap_or("")
    }

    /// A field stored as given rather than validated (attribution: `utm_*`, `gclid`, URLs), cleaned by
    /// [`clean_line`]; absent when empty.
    pub fn optional(&self, name: &str, max_chars: usize) -> Option<String> {
        clean_line(self.get(name), max_chars)
    }
}

/// Text kept as sent (attribution fields, the browser's `User-Agent` and `Referer`), made safe to store and print:
/// without control or bidirectional characters, trimmed, at most `max_chars` characters; `None` when nothing is
/// left. Nothing else is changed, so a URL stays the URL it was.
pub fn clean_line(raw: &str, max_chars: usize) -> Option<String> {
    let cleaned: String = raw.chars().filter(|c| !is_invisible_control(*c)).collect();
    let cleaned = cleaned.trim();
    (!cleaned.is_empty()).then(|| cleaned.chars().take(max_chars).collect())
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteLead {
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub company: Option<String>,
    pub insurance_type: String,
    pub vehicle_count: i64,
    pub dot_number: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactLead {
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
}

pub fn quote(fields: &RawFields) -> Result<QuoteLead, FieldErrors> {
    let mut errors = FieldErrors::new();
    let name = check(&mut errors, "name", name(fields.get("name")));
    let email = check(&mut errors, "email", email(fields.get("email")));
    let phone = check(&mut errors, "phone", optional_phone(fields.get("phone")));
    let company = sanitize(fields.get("company"));
    if company.chars().count() > 200 {
        errors.insert("company", "Company name must be less than 200 characters");
    }
    let insurance_type = fields.get("insurance_type").trim();
    if !is_insurance_type(insurance_type) {
        errors.insert("insurance_type", "Please select an insurance type");
    }
    let vehicle_count = check(
        &mut errors,
        "vehicle_count",
        vehicle_count(fields.get("vehicle_count")),
    );
    let dot = fields.get("dot_number").trim();
    let dot_is_valid = dot.len() <= 8 && dot.chars().all(|c| c.is_ascii_digit());
    if !dot.is_empty() && !dot_is_valid {
        errors.insert("dot_number", "DOT number must be 1-8 digits");
    }
    if !is_true(fields.get("consent")) {
        errors.insert("consent", "You must agree to our communication terms");
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(QuoteLead {
        name: name.unwrap_or_default(),
        email: email.unwrap_or_default(),
        phone: phone.flatten(),
        company: (!company.is_empty()).then_some(company),
        insurance_type: insurance_type.to_string(),
        vehicle_count: vehicle_count.unwrap_or_default(),
        dot_number: (!dot.is_empty()).then(|| dot.to_string()),
    })
}

pub fn contact(fields: &RawFields) -> Result<ContactLead, FieldErrors> {
    let mut errors = FieldErrors::new();
    let name = check(&mut errors, "name", name(fields.get("name")));
    let email = check(&mut errors, "email", email(fields.get("email")));
    let subject = sanitize(fields.get("subject"));
    match subject.chars().count() {
        0..5 => {
            errors.insert("subject", "Subject must be at least 5 characters");
        }
        201.. => {
            errors.insert("subject", "Subject must be less than 200 characters");
        }
        _ => {}
    }
    // Line breaks and tabs are kept in a message; other control characters are not.
    let message: String = fields
        .get("message")
        .replace("\r\n", "\n")
        .chars()
        .filter(|c| *c == '\n' || *c == '\t' || !is_invisible_control(*c))
        .collect::<String>()
        .trim()
        .to_string();
    match message.chars().count() {
        0..10 => {
            errors.insert("message", "Message must be at least 10 characters");
        }
        2001.. => {
            errors.insert("message", "Message must be less than 2000 characters");
        }
        _ => {}
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ContactLead {
        name: name.unwrap_or_default(),
        email: email.unwrap_or_default(),
        subject,
        message,
    })
}

fn check<T>(
    errors: &mut FieldErrors,
    field: &'static str,
    result: Result<T, &'static str>,
) -> Option<T> {
    result.map_err(|message| errors.insert(field, message)).ok()
}

/// Spec: 2 to 100 characters of letters, spaces, hyphens and apostrophes; stored sanitised.
fn name(raw: &str) -> Result<String, &'static str> {
    let cleaned = sanitize(raw);
    let length = cleaned.chars().count();
    if length < 2 {
        return Err("Name must be at least 2 characters");
    }
    if length > 100 {
        return Err("Name must be less than 100 characters");
    }
    // Checked on what was typed, so markup never passes by being stripped into something valid.
    // Letters include accents typed as separate combining marks (e.g. "Jose\u{301}" for José).
    let allowed = |c: char| {
        c.is_alphabetic()
            || is_combining_mark(c)
            || c == ' '
            || c == '-'
            || c == '\''
            || c == '\u{2019}'
    };
    if !raw.trim().chars().all(allowed) {
        return Err("Name can only contain letters, spaces, hyphens, and apostrophes");
    }
    Ok(cleaned)
}

/// Control characters (C0, DEL, C1) and Unicode's bidirectional controls (`Bidi_Control`: the marks U+061C,
/// U+200E, U+200F, the embeddings and overrides U+202A-202E, the isolates U+2066-2069), which a terminal acts on or
/// which reorder the text around them instead of being shown.
pub fn is_invisible_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}')
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// The Unicode blocks of combining diacritical marks (the marks Latin, Greek and Cyrillic names use).
fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// Spec: a valid address of at most 255 characters; stored lowercased and trimmed.
fn email(raw: &str) -> Result<String, &'static str> {
    let email = raw.trim().to_lowercase();
    if email.chars().count() > 255 {
        return Err("Email must be less than 255 characters");
    }
    let valid = match email.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && local.len() <= 64
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains("..")
                && domain.split('.').all(|label| {
                    !label.is_empty()
                        && !label.starts_with('-')
                        && !label.ends_with('-')
                        && label.chars().all(|c| c.is_alphanumeric() || c == '-')
                })
                && local
                    .chars()
                    .all(|c| c.is_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c))
                && !local.starts_with('.')
                && !local.ends_with('.')
                && !local.contains("..")
        }
        None => false,
    };
    if valid {
        Ok(email)
    } else {
        Err("Please enter a valid email address")
    }
}

/// DECISIONS 11: optional; US formats accepted ((555) 010-0142, 555.010.0142, +1 555 010 0142, ...), stored as
/// +1 and ten digits.
fn optional_phone(raw: &str) -> Result<Option<String>, &'static str> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    const MESSAGE: &str = "Please enter a valid US phone number";
    if !raw
        .chars()
        .all(|c| c.is_ascii_digit() || " ()-.+".contains(c))
        || raw.len() > 25
    {
        return Err(MESSAGE);
    }
    let digits: String = raw.chars().filter(char::is_ascii_digit).collect();
    let national = match digits.len() {
        10 => digits.as_str(),
        11 if digits.starts_with('1') => &digits[1..],
        _ => return Err(MESSAGE),
    };
    // North American numbering: area code and exchange cannot start with 0 or 1.
    let bytes = national.as_bytes();
    if bytes[0] < b'2' || bytes[3] < b'2' {
        return Err(MESSAGE);
    }
    Ok(Some(format!("+1{national}")))
}

/// DECISIONS 10: a whole number from 1.
fn vehicle_count(raw: &str) -> Result<i64, &'static str> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err("Please select vehicle count");
    }
    match raw.parse::<i64>() {
        Ok(count) if (1..=100_000).contains(&count) => Ok(count),
        _ => Err("Invalid vehicle count format"),
    }
}

/// Whether a checkbox or flag says yes (`true`, `on`, `yes` or `1`, in any case, spaces around ignored): the one
/// reading of consent, for validation and for the form page put back.
pub fn is_true(raw: &str) -> bool {
    matches!(
        raw.trim().to_ascii_lowercase().as_str(),
        "true" | "on" | "yes" | "1"
    )
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

    fn fields(pairs: &[(&str, &str)]) -> RawFields {
        RawFields(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    fn good_quote() -> Vec<(&'static str, &'static str)> {
        vec![
            ("name", "Dana O'Neil-Smith"),
            ("email", "  Dana@Example.COM "),
            ("phone", "(555) 210-0142"),
            ("company", "Lone Star Haulers"),
            ("insurance_type", "dump"),
            ("vehicle_count", "3"),
            ("dot_number", "1234567"),
            ("consent", "true"),
        ]
    }

    fn quote_error(change: (&'static str, &'static str)) -> FieldErrors {
        let mut pairs = good_quote();
        pairs.retain(|(k, _)| *k != change.0);
        pairs.push(change);
        quote(&fields(&pairs)).expect_err("invalid")
    }

    #[test]
    fn a_good_quote_is_cleaned_for_storage() {
        let lead = quote(&fields(&good_quote())).unwrap();
        assert_eq!(lead.email, "dana@example.com");
        assert_eq!(lead.phone.as_deref(), Some("+15552100142"));
        assert_eq!(lead.vehicle_count, 3);
        assert_eq!(lead.dot_number.as_deref(), Some("1234567"));
    }

    #[test]
    fn quote_rules_use_the_spec_messages() {
        let cases: [((&str, &str), &str, &str); 15] = [
            (("name", ""), "name", "Name must be at least 2 characters"),
            (("name", "A"), "name", "Name must be at least 2 characters"),
            (
                ("name", &*"a".repeat(101).leak()),
                "name",
                "Name must be less than 100 characters",
            ),
            (
                ("name", "R2-D2"),
                "name",
                "Name can only contain letters, spaces, hyphens, and apostrophes",
            ),
            (
                ("email", "not-an-email"),
                "email",
                "Please enter a valid email address",
            ),
            (
                ("email", "a@b"),
                "email",
                "Please enter a valid email address",
            ),
            (
                ("phone", "12345"),
                "phone",
                "Please enter a valid US phone number",
            ),
            (
                ("company", &*"c".repeat(201).leak()),
                "company",
                "Company name must be less than 200 characters",
            ),
            (
                ("insurance_type", "boat"),
                "insurance_type",
                "Please select an insurance type",
            ),
            (
                ("vehicle_count", ""),
                "vehicle_count",
                "Please select vehicle count",
            ),
            (
                ("vehicle_count", "0"),
                "vehicle_count",
                "Invalid vehicle count format",
            ),
            (
                ("vehicle_count", "2.5"),
                "vehicle_count",
                "Invalid vehicle count format",
            ),
            (
                ("dot_number", "123456789"),
                "dot_number",
                "DOT number must be 1-8 digits",
            ),
            (
                ("dot_number", "12ab"),
                "dot_number",
                "DOT number must be 1-8 digits",
            ),
            (
                ("consent", "false"),
                "consent",
                "You must agree to our communication terms",
            ),
        ];
        for (change, field, message) in cases {
            let errors = quote_error(change);
            assert_eq!(errors.get(field), Some(&message), "{change:?}");
            assert_eq!(errors.len(), 1, "{change:?}: {errors:?}");
        }
        let long_email = format!("{}@example.com", "a".repeat(250));
        assert_eq!(
            quote_error(("email", long_email.leak())).get("email"),
            Some(&"Email must be less than 255 characters")
        );
    }

    #[test]
    fn optional_quote_fields_may_be_empty() {
        let mut pairs = good_quote();
        pairs.retain(|(k, _)| !["phone", "company", "dot_number"].contains(k));
        let lead = quote(&fields(&pairs)).unwrap();
        assert_eq!(
            (lead.phone, lead.company, lead.dot_number),
            (None, None, None)
        );
    }

    #[test]
    fn us_phone_formats_are_normalised() {
        for raw in [
            "555-210-0142",
            "(555) 210-0142",
            "555.210.0142",
            "+1 555 210 0142",
            "15552100142",
        ] {
            assert_eq!(
                optional_phone(raw),
                Ok(Some("+15552100142".to_string())),
                "{raw}"
            );
        }
        for raw in [
            "055-210-0142",
            "555-110-0142",
            "+44 20 7946 0958",
            "555-210-014x",
        ] {
            assert!(optional_phone(raw).is_err(), "{raw}");
        }
    }

    #[test]
    fn contact_rules_use_the_spec_messages() {
        let good = [
            ("name", "Luis Ortega"),
            ("email", "luis@example.com"),
            ("subject", "Certificate"),
            ("message", "Please send a COI."),
        ];
        assert!(contact(&fields(&good)).is_ok());
        let errors = contact(&fields(&[("subject", "Hi"), ("message", "short")])).unwrap_err();
        assert_eq!(
            errors.get("name"),
            Some(&"Name must be at least 2 characters")
        );
        assert_eq!(
            errors.get("email"),
            Some(&"Please enter a valid email address")
        );
        assert_eq!(
            errors.get("subject"),
            Some(&"Subject must be at least 5 characters")
        );
        assert_eq!(
            errors.get("message"),
            Some(&"Message must be at least 10 characters")
        );
        let long = fields(&[
            ("name", "Luis"),
            ("email", "l@example.com"),
            ("subject", &"s".repeat(201)),
            ("message", &"m".repeat(2001)),
        ]);
        let errors = contact(&long).unwrap_err();
        assert_eq!(
            errors.get("subject"),
            Some(&"Subject must be less than 200 characters")
        );
        assert_eq!(
            errors.get("message"),
            Some(&"Message must be less than 2000 characters")
        );
    }

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
