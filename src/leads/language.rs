//! The language of a lead request (issue 15): the `locale` field the Spanish pages' forms send (absent is English,
//! an unknown code a 422 on the field), and for a request whose body could not be read, the language of the page
//! that sent it (its `Referer`: same-origin requests carry the full address under the site's referrer policy).

use contract::answers::BAD_LOCALE;
use contract::locale::{FIELD, Locale};

use super::validate::{FieldErrors, RawFields};

/// The language a submission names; an error on the field for a code that is not one of the site's.
pub fn of_fields(fields: &RawFields) -> Result<Locale, FieldErrors> {
    match fields.get(FIELD).trim() {
        "" => Ok(Locale::En),
        code => Locale::parse(code).ok_or_else(|| FieldErrors::from([(FIELD.into(), BAD_LOCALE)])),
    }
}

pub use crate::errors::of_referer;

/// Each field's message in `locale` (validation writes the contract's English).
pub fn translate(errors: FieldErrors, locale: Locale) -> FieldErrors {
    errors
        .into_iter()
        .map(|(field, message)| (field, locale.text(message)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_names_the_language_and_nothing_else_passes() {
        let with = |code: &str| RawFields([(FIELD.to_string(), code.to_string())].into());
        assert_eq!(of_fields(&RawFields::default()), Ok(Locale::En));
        assert_eq!(of_fields(&with("es")), Ok(Locale::Es));
        assert_eq!(of_fields(&with("en")), Ok(Locale::En));
        assert_eq!(of_fields(&with("fr")).unwrap_err()[FIELD], BAD_LOCALE);
        assert!(of_fields(&with("ES")).is_err());
    }

    #[test]
    fn the_referer_page_gives_the_language() {
        for (referer, locale) in [
            (Some("https://example.com/es/get-quote?x=1"), Locale::Es),
            (Some("https://example.com/es"), Locale::Es),
            (Some("https://example.com/estimates"), Locale::En),
            (Some("https://example.com"), Locale::En),
            (Some("https://example.com?next=/es/a"), Locale::En),
            (Some("/es/contact"), Locale::Es),
            (None, Locale::En),
        ] {
            assert_eq!(of_referer(referer), locale, "{referer:?}");
        }
    }
}
