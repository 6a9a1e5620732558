//! The no-JavaScript answers: a plain form post gets a 303 to the thank-you page, or the prerendered form page
//! again with what was typed put back, each field's error beside it and the message on top. Everything inserted
//! is HTML-escaped, and text a visitor typed is never read as a template marker.

use std::borrow::Cow;

use crate::text::escape_html;
use contract::forms::calendar::ClockTime;
use contract::forms::details::{self, DETAILS_TOKEN};
use contract::forms::markers;
use contract::forms::schedules::SCHEDULES;
use rocket::http::Status;

use contract::answers;
use contract::locale::Locale;

use super::pipeline::Verdict;
use super::routes::Reply;
use super::validate::{self, FieldErrors, RawFields};
use super::{Form, language};
use crate::built;

/// The page for a body that could not be read: the empty form with the reason in words for people.
pub fn unreadable(form: Form, status: Status, locale: Locale) -> Reply {
    let for_people = if status == Status::PayloadTooLarge {
        answers::TOO_LONG_FOR_PEOPLE
    } else {
        answers::UNREADABLE_FOR_PEOPLE
    };
    let empty = RawFields::default();
    let page = fill_template(
        form,
        locale,
        &empty,
        &FieldErrors::new(),
        locale.text(for_people),
    );
    Reply::Page(status, page)
}

/// A person's answer to what happened to their submission, in the pages and words of `locale`.
pub fn answer(verdict: Verdict, form: Form, fields: &RawFields, locale: Locale) -> Reply {
    let page =
        |message: &str, errors: &FieldErrors| fill_template(form, locale, fields, errors, message);
    if let Some((status, message)) = super::details::refusal(&verdict) {
        return Reply::Page(status, page(locale.text(message), &FieldErrors::new()));
    }
    let thank_you = locale.page(form.rules().thank_you);
    match verdict {
        // A new quote's thank-you page offers "Speed up your quote": its address carries the token.
        Verdict::Accepted(_, Some(token)) => Reply::SeeOther(format!(
            "{thank_you}?{}={token}",
            contract::routes::DETAILS_TOKEN_PARAMETER
        )),
        // A claim or a change request: its reference, for the page to show.
        Verdict::Accepted(id, None) if form.source().reference(id).is_some() => {
            Reply::SeeOther(format!(
                "{thank_you}?{}={}",
                contract::routes::REFERENCE_PARAMETER,
                form.source().reference(id).unwrap_or_default()
            ))
        }
        // Answered above (details refused).
        Verdict::Accepted(_, None)
        | Verdict::Dropped
        | Verdict::UnknownToken
        | Verdict::Expired => Reply::SeeOther(thank_you),
        Verdict::Invalid(errors) => Reply::Page(
            Status::UnprocessableEntity,
            page(
                locale.text(answers::CORRECT_FIELDS),
                &language::translate(errors, locale),
            ),
        ),
        Verdict::RateLimited(wait) => Reply::Later(
            wait,
            Box::new(Reply::Page(
                Status::TooManyRequests,
                page(
                    &format!(
                        "{}. {}",
                        locale.text(answers::TOO_MANY_ATTEMPTS),
                        locale.text(form.rules().rate_limit_message)
                    ),
                    &FieldErrors::new(),
                ),
            )),
        ),
        Verdict::Busy | Verdict::Unavailable | Verdict::Failed => Reply::Page(
            Status::ServiceUnavailable,
            page(locale.text(answers::TRY_LATER_OR_CALL), &FieldErrors::new()),
        ),
    }
}

/// The quote's thank-you page with "Speed up your quote" (`_forms/details.html`, or its `locale` version), `token`
/// in its hidden input.
pub fn details_offer(token: &str, locale: Locale) -> String {
    let fields = RawFields([(DETAILS_TOKEN.name.to_string(), token.to_string())].into());
    fill_template(Form::Details, locale, &fields, &FieldErrors::new(), "")
}

/// A prerendered page by its English address, in `locale` (`/get-quote/thank-you` ->
/// `get-quote/thank-you/index.html`, in Spanish `es/get-quote/thank-you/index.html`).
pub fn page(path: &str, locale: Locale) -> String {
    let file = locale.file(&format!("{}/index.html", path.trim_start_matches('/')));
    built::file(&file)
        .map(|page| String::from_utf8_lossy(&page.data).into_owned())
        .unwrap_or_else(|| {
            format!(
                "<!doctype html><title>{0}</title><p>{0}</p>",
                escape_html(&locale.page(path))
            )
        })
}

/// A claim's or a change request's thank-you page (by its English address, in `locale`) with `reference` where the
/// page has [`markers::REFERENCE`]: only a reference of the shape the server gives (`CLM-` or `CHG-` and digits),
/// anything else (or none) leaves it empty.
pub fn reference_page(path: &str, reference: Option<&str>, locale: Locale) -> String {
    let reference = reference.filter(|text| is_reference(text)).unwrap_or("");
    page(path, locale).replace(markers::REFERENCE, reference)
}

/// `CLM-000123`, `CHG-000045`: a prefix of the two, a hyphen, six digits or more.
fn is_reference(text: &str) -> bool {
    let digits = text
        .strip_prefix("CLM-")
        .or_else(|| text.strip_prefix("CHG-"));
    digits.is_some_and(|digits| {
        (6..=19).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
    })
}

/// A number as an `<input type="number">` value may be written: digits, an optional minus and decimal part.
fn is_html_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    [whole, fraction]
        .iter()
        .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
}

/// The no-JavaScript answer: the prerendered form page of `locale` with what was typed put back, each field's
/// error beside it and the message on top. Everything inserted is HTML-escaped. The English page stands in while a
/// language's is not embedded, so a visitor always gets the form back.
fn fill_template(
    form: Form,
    locale: Locale,
    fields: &RawFields,
    errors: &FieldErrors,
    message: &str,
) -> String {
    let correction_page = form.rules().correction_page;
    let template =
        built::file(&locale.file(correction_page)).or_else(|| built::file(correction_page));
    let Some(template) = template else {
        return format!(
            "<!doctype html><title>{0}</title><p>{0}</p>",
            escape_html(message)
        );
    };
    let mut html = String::from_utf8_lossy(&template.data).into_owned();
    // Choices first, on the template itself (typed text is escaped, so it can never match these).
    if form == Form::Quote {
        let chosen = fields.get("insurance_type");
        if validate::is_insurance_type(chosen) {
            let option = format!("<option value=\"{chosen}\">");
            html = html.replacen(
                &option,
                &format!("<option value=\"{chosen}\" selected=\"\">"),
                1,
            );
        }
    }
    if form == Form::Details {
        // The details' lists: an option chosen again only when it is one of the list's (escaping is then moot).
        for (name, choices) in [
            ("radius", &details::RADIUS_CHOICES[..]),
            ("best_time_to_call", &details::BEST_TIME_CHOICES[..]),
            ("hazmat", &[("yes", ""), ("no", "")][..]),
        ] {
            let chosen = fields.get(name).trim();
            if choices.iter().any(|(value, _)| *value == chosen) {
                // Each value is in one list only (yes/no are hazmat's alone).
                let option = format!("<option value=\"{chosen}\">");
                html = html.replacen(
                    &option,
                    &format!("<option value=\"{chosen}\" selected=\"\">"),
                    1,
                );
            }
        }
        for chosen in fields.get("commodities").split(',').map(str::trim) {
            if details::COMMODITIES_CHOICES
                .iter()
                .any(|(value, _)| *value == chosen)
            {
                let checkbox = format!("data-fill=\"commodities:{chosen}\"");
                html = html.replacen(&checkbox, &format!("{checkbox} checked=\"\""), 1);
            }
        }
    }
    if matches!(form, Form::Claim | Form::Change) {
        html = choose_again(html, fields);
    }
    // Checkboxes ticked again: each carries `data-fill="<field>"` (the quote's consent: markers::CONSENT_FILL).
    for field in form.rules().fields {
        if validate::is_true(fields.get(field.name)) {
            let checkbox = format!("data-fill=\"{}\"", field.name);
            html = html.replacen(&checkbox, &format!("{checkbox} checked=\"\""), 1);
        }
    }
    // Fields with an error are marked invalid for assistive technology (ids as the form pages render them).
    let id_prefix = form.rules().correction_id_prefix;
    for name in errors.keys() {
        // A schedule row's error (`vehicle_schedule[1].vin`) marks its list's textarea.
        let name = name.split('[').next().unwrap_or_default();
        let id = format!("id=\"{id_prefix}-{name}\"");
        html = html.replacen(&id, &format!("{id} aria-invalid=\"true\""), 1);
    }
    // Then every marker in one pass over the template, so text a visitor typed is never read as a marker.
    let mut filled = String::with_capacity(html.len() + 1024);
    let mut rest = html.as_str();
    while let Some(at) = rest.find(markers::PREFIX) {
        filled.push_str(&rest[..at]);
        let after = &rest[at + markers::PREFIX.len()..];
        let length = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let marker = &rest[at..at + markers::PREFIX.len() + length];
        let rules = form.rules();
        let replacement = if marker == markers::MESSAGE {
            Some(Cow::Borrowed(message))
        } else if let Some(name) = marker.strip_prefix(markers::VALUE) {
            rules
                .has_field(name)
                .then(|| fields.get(name))
                .map(|typed| match name {
                    // A number input can only hold a number: letters there are invalid HTML, and a browser
                    // would show the field empty anyway (the error beside it says what is expected).
                    "vehicle_count" if is_html_number(typed.trim()) => typed.trim(),
                    "vehicle_count" => "",
                    // A date input likewise holds only a date.
                    "needed_by" if validate::is_date(typed) => typed.trim(),
                    "needed_by" => "",
                    "policy_expiration"
                    | "effective_date"
                    | "loss_date"
                    | "driver_date_of_birth"
                    | "hire_date"
                        if validate::is_date(typed) =>
                    {
                        typed.trim()
                    }
                    "policy_expiration"
                    | "effective_date"
                    | "loss_date"
                    | "driver_date_of_birth"
                    | "hire_date" => "",
                    // A time input holds only HH:MM.
                    "loss_time" if ClockTime::parse(typed.trim()).is_some() => typed.trim(),
                    "loss_time" => "",
                    "years_in_business" | "power_units" | "trailers" | "drivers" | "claims_3y"
                        if is_html_number(typed.trim()) =>
                    {
                        typed.trim()
                    }
                    "years_in_business" | "power_units" | "trailers" | "drivers" | "claims_3y" => {
                        ""
                    }
                    _ => typed,
                })
                .map(Cow::Borrowed)
        } else if let Some(name) = marker.strip_prefix(markers::ERROR) {
            let list = SCHEDULES.iter().find(|list| list.name == name);
            match list {
                // A list's errors, row by row, beside its textarea (issue 39).
                Some(list) => Some(Cow::Owned(
                    language::list_errors(list, errors, locale).unwrap_or_default(),
                )),
                None => rules
                    .has_field(name)
                    .then(|| Cow::Borrowed(errors.get(name).copied().unwrap_or(""))),
            }
        } else {
            None
        };
        match replacement {
            Some(text) => filled.push_str(&escape_html(&text)),
            None => filled.push_str(marker),
        }
        rest = &after[length..];
    }
    filled.push_str(rest);
    filled
}

/// The claim's and the change's choices (the lists and radio buttons: insurer, injuries, towed, the states, the kind
/// of change, the license class) chosen again. Each choice carries `data-fill="<field>:<value>"`: an `<option>` gets
/// `selected`, anything else (a radio button) `checked`. Only a value of letters, digits, `-` and `_` is looked for,
/// so nothing typed can reach the page here; one that is no choice of the page matches nothing.
fn choose_again(mut html: String, fields: &RawFields) -> String {
    for name in CHOICE_FIELDS {
        let mut chosen = fields.get(name).trim().to_string();
        if name.ends_with("_state") || name == "license_class" {
            chosen.make_ascii_uppercase();
        }
        let plain = chosen
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if chosen.is_empty() || !plain {
            continue;
        }
        let attribute = format!("data-fill=\"{name}:{chosen}\"");
        let Some(at) = html.find(&attribute) else {
            continue;
        };
        let tag = html[..at].rfind('<').map_or("", |start| &html[start..at]);
        let mark = if tag.starts_with("<option") {
            " selected=\"\""
        } else {
            " checked=\"\""
        };
        html.insert_str(at + attribute.len(), mark);
    }
    html
}

/// The fields [`choose_again`] chooses again.
const CHOICE_FIELDS: [&str; 7] = [
    "insurer",
    "injuries",
    "towed",
    "loss_state",
    "change_kind",
    "license_state",
    "license_class",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_numbers_go_back_into_a_number_input() {
        for number in ["3", "0", "-2", "12.5", "007"] {
            assert!(is_html_number(number), "{number}");
        }
        for text in ["", "two", ".5", "5.", "+1", "1,000", " 3", "-", "1.2.3"] {
            assert!(!is_html_number(text), "{text:?}");
        }
    }

    #[test]
    fn only_a_reference_of_the_servers_shape_is_filled_in() {
        for good in ["CLM-000123", "CHG-000045", "CLM-1234567"] {
            assert!(is_reference(good), "{good}");
        }
        for bad in [
            "",
            "CLM-12",
            "XYZ-000123",
            "CLM-000123<script>",
            "clm-000123",
        ] {
            assert!(!is_reference(bad), "{bad}");
        }
    }

    #[test]
    fn choices_are_chosen_again_by_their_marks_and_only_plain_values() {
        let page = "<select><option data-fill=\"injuries:no\" value=\"no\">No</option></select>\
                    <input type=\"radio\" data-fill=\"towed:no\" value=\"no\">\
                    <option data-fill=\"loss_state:TX\" value=\"TX\">";
        let fields = RawFields(
            [
                ("injuries", "no"),
                ("towed", "no"),
                ("loss_state", "tx"),
                ("insurer", "x\" onfocus=\"alert(1)"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .into(),
        );
        let filled = choose_again(page.to_string(), &fields);
        assert!(
            filled.contains("data-fill=\"injuries:no\" selected=\"\""),
            "{filled}"
        );
        assert!(
            filled.contains("data-fill=\"towed:no\" checked=\"\""),
            "{filled}"
        );
        assert!(
            filled.contains("data-fill=\"loss_state:TX\" selected=\"\""),
            "{filled}"
        );
        assert!(!filled.contains("alert"));
    }
}
