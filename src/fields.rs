//! The contract's rules for the text every form shares, applied where more than the forms need them (a privacy
//! request names its person by e-mail or phone, as the forms store them): a field's length, an e-mail address, a US
//! phone number. Each gives the stored form or the contract's message. A leaf: only `contract` below it.

use contract::forms::{self as rules, Field};

/// Text within the field's `min` and `max` characters (each when it has one), or that limit's message.
pub fn length(field: &Field, text: String) -> Result<String, &'static str> {
    let count = text.chars().count();
    if let Some(min) = field.min.filter(|min| count < min.chars) {
        return Err(min.message);
    }
    if let Some(max) = field.max.filter(|max| count > max.chars) {
        return Err(max.message);
    }
    Ok(text)
}

/// Spec: a valid address of at most 255 characters; stored lowercased and trimmed. ASCII only, without `?` (the
/// contract's pattern; why: [`rules::EMAIL`]).
pub fn email(raw: &str) -> Result<String, &'static str> {
    let email = length(&rules::EMAIL, raw.trim().to_lowercase())?;
    if !email.is_ascii() {
        return Err(rules::EMAIL_NOT_ASCII);
    }
    if email.contains('?') {
        return Err(rules::EMAIL.invalid_message());
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
        Err(rules::EMAIL.invalid_message())
    }
}

/// DECISIONS 11: optional; US formats accepted ((555) 010-0142, 555.010.0142, +1 555 010 0142, ...), stored as
/// +1 and ten digits.
pub fn optional_phone(raw: &str) -> Result<Option<String>, &'static str> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    const MESSAGE: &str = rules::PHONE.invalid_message();
    if !raw
        .chars()
        .all(|c| c.is_ascii_digit() || " ()-.+".contains(c))
        || raw.len() > rules::PHONE.max_limit().chars
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
