//! The language of a lead request (issue 15): the `locale` field the Spanish pages' forms send (absent is English,
//! an unknown code a 422 on the field), and for a request whose body could not be read, the language of the page
//! that sent it (its `Referer`: same-origin requests carry the full address under the site's referrer policy).

use contract::answers::BAD_LOCALE;
use contract::forms::schedules::{ROW_ERROR, Schedule, WHOLE_ROW_ERROR};
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

/// A schedule's errors as one text for the page without JavaScript, beside the list's textarea (issue 39): the
/// list's own error first, then each row's as "Row 2, vin: ..." (rows counted from 1, the lines under the CSV's
/// header), in the order of the rows and their columns, joined by "; ". `errors` are already in `locale`.
pub fn list_errors(list: &Schedule, errors: &FieldErrors, locale: Locale) -> Option<String> {
    let mut parts: Vec<((usize, usize), String)> = Vec::new();
    for (name, message) in errors {
        if name == list.name {
            parts.push(((0, 0), (*message).to_string()));
            continue;
        }
        let Some(row) = name
            .strip_prefix(list.name)
            .and_then(|rest| rest.strip_prefix('['))
        else {
            continue;
        };
        let Some((index, column)) = row.split_once(']') else {
            continue;
        };
        let Ok(index) = index.parse::<usize>() else {
            continue;
        };
        let row = (index + 1).to_string();
        // What a visitor named (an unknown column) goes in last, so it is never read as a placeholder.
        let text = match column.strip_prefix('.') {
            Some(column) => locale
                .text(ROW_ERROR)
                .replace("{row}", &row)
                .replace("{message}", message)
                .replace("{column}", column),
            None => locale
                .text(WHOLE_ROW_ERROR)
                .replace("{row}", &row)
                .replace("{message}", message),
        };
        // Unknown columns after the list's own, in their names' order (the map's).
        let place = column.strip_prefix('.').map_or(0, |column| {
            list.columns
                .iter()
                .position(|c| c.name == column)
                .unwrap_or(list.columns.len())
                + 1
        });
        parts.push(((index + 1, place), text));
    }
    parts.sort_by_key(|(order, _)| *order);
    let texts: Vec<String> = parts.into_iter().map(|(_, text)| text).collect();
    (!texts.is_empty()).then(|| texts.join("; "))
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
    fn a_lists_errors_are_told_row_by_row_counted_from_one() {
        use contract::forms::schedules::VEHICLE_SCHEDULE;
        let errors = FieldErrors::from([
            ("vehicle_schedule[10].year".into(), "Y"),
            ("vehicle_schedule[1].vin".into(), "V"),
            ("vehicle_schedule[1].year".into(), "Y"),
            ("vehicle_schedule[2]".into(), "R"),
            ("vehicle_schedule".into(), "L"),
            ("driver_schedule[0].name".into(), "N"),
        ]);
        assert_eq!(
            list_errors(&VEHICLE_SCHEDULE, &errors, Locale::En).as_deref(),
            Some("L; Row 2, year: Y; Row 2, vin: V; Row 3: R; Row 11, year: Y")
        );
        let one = FieldErrors::from([("vehicle_schedule[0].vin".into(), "V")]);
        assert_eq!(
            list_errors(&VEHICLE_SCHEDULE, &one, Locale::Es).as_deref(),
            Some("Fila 1, vin: V")
        );
        assert_eq!(
            list_errors(&VEHICLE_SCHEDULE, &FieldErrors::new(), Locale::En),
            None
        );
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
