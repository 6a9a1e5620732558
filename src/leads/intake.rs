//! Reading a submission: the body's encoding (JSON or urlencoded) from its Content-Type, the body read within
//! the form's limit ([`BODY_LIMIT_KIB`](super::BODY_LIMIT_KIB), the details' larger) as UTF-8, parsed into the form's raw fields, and the client's
//! submission id checked. What cannot be read becomes a [`Refusal`]; the routes decide how to present it.

use std::collections::BTreeMap;

use rocket::data::{Data, ToByteUnit};
use rocket::http::{ContentType, Status};
use rocket::serde::json::Value;

use super::validate::{self, RawFields};
use contract::answers;
use contract::forms::EXTRA_FIELDS;
use contract::forms::schedules::SCHEDULES;
use contract::locale::{FIELD, Locale};

use super::Form;

/// How a submission's body is written: JSON from a program (or our island), urlencoded from a plain form post.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    Json,
    Form,
}

impl Encoding {
    /// The encoding a Content-Type names; `None` for any other type.
    pub fn of(content_type: Option<&ContentType>) -> Option<Encoding> {
        match content_type {
            Some(c) if c.is_json() => Some(Encoding::Json),
            Some(c) if c.is_form() => Some(Encoding::Form),
            _ => None,
        }
    }
}

/// A body that could not be read: the status and the reason (for a program; people get their own words), as one of
/// the contract's sentences ([`contract::answers`]) and what fills it in.
pub struct Refusal {
    pub status: Status,
    sentence: &'static str,
    /// The field the sentence names (`{field}`).
    field: Option<String>,
    /// The parser's own words, after the sentence.
    detail: Option<String>,
    /// The language the body named, when it could be read that far.
    pub locale: Option<Locale>,
}

impl Refusal {
    /// The reason in `locale`.
    pub fn message(&self, locale: Locale) -> String {
        let mut message = locale.text(self.sentence).to_string();
        if let Some(field) = &self.field {
            message = message.replace("{field}", field);
        }
        if let Some(detail) = &self.detail {
            message = format!("{message} ({detail})");
        }
        message
    }
}

fn refuse(status: Status, sentence: &'static str) -> Refusal {
    Refusal {
        status,
        sentence,
        field: None,
        detail: None,
        locale: None,
    }
}

/// The submission's raw fields, or why the body cannot be taken.
pub async fn read(form: Form, body: Data<'_>, encoding: Encoding) -> Result<RawFields, Refusal> {
    let text = match body
        .open(form.body_limit_kib().kibibytes())
        .into_string()
        .await
    {
        Ok(text) if text.is_complete() => text.into_inner(),
        Ok(_) => {
            return Err(refuse(Status::PayloadTooLarge, answers::BODY_TOO_LARGE));
        }
        Err(error) if error.kind() == std::io::ErrorKind::InvalidData => {
            return Err(refuse(Status::BadRequest, answers::NOT_UTF8));
        }
        Err(error) => {
            return Err(Refusal {
                detail: Some(error.to_string()),
                ..refuse(Status::BadRequest, answers::BODY_UNREADABLE)
            });
        }
    };
    match encoding {
        Encoding::Json => parse_json(&text, form).and_then(check_submission_id),
        Encoding::Form => {
            // Our plain form sends no submission id: one that is malformed did not come from it, and is dropped
            // rather than costing a person what they typed.
            let mut fields = parse_form(&text);
            if !is_valid_submission_id(fields.get("submission_id")) {
                fields.0.remove("submission_id");
            }
            Ok(fields)
        }
    }
}

/// A submission id is the client's name for one attempt: absent, or 16 to 100 letters, digits, `-` or `_`. Anything
/// else is refused rather than cut down, so two different attempts can never share an id.
fn is_valid_submission_id(id: &str) -> bool {
    id.is_empty()
        || ((16..=100).contains(&id.len())
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
}

fn check_submission_id(fields: RawFields) -> Result<RawFields, Refusal> {
    if is_valid_submission_id(fields.get("submission_id")) {
        Ok(fields)
    } else {
        Err(Refusal {
            locale: Locale::parse(fields.get(FIELD).trim()),
            ..refuse(Status::BadRequest, answers::BAD_SUBMISSION_ID)
        })
    }
}

/// A JSON body: an object whose form fields are strings, numbers or booleans; a schedule's a list of rows or text.
fn parse_json(text: &str, form: Form) -> Result<RawFields, Refusal> {
    let value: Value = serde_json::from_str(text).map_err(|e| Refusal {
        detail: Some(e.to_string()),
        ..refuse(Status::BadRequest, answers::NOT_JSON)
    })?;
    let Value::Object(object) = value else {
        return Err(refuse(Status::BadRequest, answers::NOT_AN_OBJECT));
    };
    // Refusals of a field are given in the language the object names, if it names one.
    let locale = object
        .get(FIELD)
        .and_then(Value::as_str)
        .and_then(|code| Locale::parse(code.trim()));
    let refuse_field = |sentence, name: &str| Refusal {
        field: Some(name.to_string()),
        locale,
        ..refuse(Status::BadRequest, sentence)
    };
    let mut fields = BTreeMap::new();
    let names = form.rules().fields.iter().map(|field| field.name);
    for name in names.chain(EXTRA_FIELDS).chain([FIELD]) {
        let is_schedule = SCHEDULES.iter().any(|schedule| schedule.name == name);
        let text = match object.get(name) {
            None | Some(Value::Null) => continue,
            Some(Value::String(text)) => text.clone(),
            // A schedule (issue 39) is a list of rows, kept as its JSON text for validation to read row by row (a
            // string is CSV text); anything else is no list, which validation answers on the field (422).
            Some(list @ Value::Array(_)) if is_schedule => list.to_string(),
            Some(_) if is_schedule => validate::NOT_A_LIST.to_string(),
            Some(Value::Number(number)) => number.to_string(),
            Some(Value::Bool(flag)) => flag.to_string(),
            // A list field (the details' commodities) may come as a list of strings, read as the form's commas.
            Some(Value::Array(items)) if LIST_FIELDS.contains(&name) => {
                let texts: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
                match texts {
                    Some(texts) => texts.join(","),
                    None => return Err(refuse_field(answers::NOT_A_LIST, name)),
                }
            }
            Some(_) => return Err(refuse_field(answers::NOT_A_VALUE, name)),
        };
        fields.insert(name.to_string(), text);
    }
    Ok(RawFields(fields))
}

/// Fields whose checkboxes share one name: their values are joined with commas.
const LIST_FIELDS: [&str; 1] = ["commodities"];

/// An `application/x-www-form-urlencoded` body; the last value of a repeated name wins, except in a list field.
fn parse_form(text: &str) -> RawFields {
    let decode = |part: &str| {
        rocket::http::RawStr::new(part)
            .url_decode_lossy()
            .into_owned()
    };
    let mut fields = BTreeMap::new();
    for pair in text.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (name, value) = (decode(name), decode(value));
        match fields.get_mut(&name) {
            Some(list) if LIST_FIELDS.contains(&name.as_str()) => {
                let list: &mut String = list;
                list.push(',');
                list.push_str(&value);
            }
            _ => {
                fields.insert(name, value);
            }
        }
    }
    RawFields(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn submission_ids_are_checked_not_cut() {
        let with = |id: &str| RawFields([("submission_id".to_string(), id.to_string())].into());
        assert!(check_submission_id(with("")).is_ok());
        assert!(check_submission_id(with("0123456789abcdef")).is_ok());
        assert!(check_submission_id(with("short")).is_err());
        assert!(check_submission_id(with(&"a".repeat(101))).is_err());
        assert!(check_submission_id(with("0123456789abcdef<script>")).is_err());
    }

    #[test]
    fn a_schedule_is_kept_as_its_json_text_or_its_csv_and_anything_else_is_no_list() {
        let body = r#"{"vehicle_schedule":[{"year":2021,"vin":null}],"driver_schedule":"name,date_of_birth\n","loss_history":{"date":"x"}}"#;
        let Ok(fields) = parse_json(body, Form::Details) else {
            panic!("read");
        };
        assert_eq!(
            fields.get("vehicle_schedule"),
            r#"[{"vin":null,"year":2021}]"#
        );
        assert_eq!(fields.get("driver_schedule"), "name,date_of_birth\n");
        assert_eq!(fields.get("loss_history"), validate::NOT_A_LIST);
        // Elsewhere a list is still refused as before.
        assert!(parse_json(r#"{"mc_number":[1]}"#, Form::Details).is_err());
    }
}
