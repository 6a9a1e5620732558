//! A translation has the English content's shape: the same lists with the same number of entries (products' coverage
//! points and benefits, FAQ entries, testimonials, hours, pages' lists, ...), the same keys, and the same facts
//! (slugs, categories, the insurance types' values, phone numbers, addresses, dates, flags, numbers). Only the words
//! differ. Both documents are compared as the JSON the web app reads, so a field added to the model is covered.

use serde_json::Value;

use crate::model::Content;

/// Text fields that are facts, not words: equal in every language.
const FACTS: [&str; 28] = [
    "slug",
    "kind",
    "category",
    "value",
    "insurance_type",
    "image",
    "date",
    "updated",
    "author",
    "name",
    "brand",
    "short_brand",
    "legal_name",
    "phone",
    "phone_e164",
    "email",
    "base_url",
    "offer_valid_until",
    "street",
    "city",
    "region",
    "postal_code",
    "country",
    "state",
    "number",
    "days",
    "opens",
    "closes",
];
/// Numbers the build derives from the words, which a translation changes.
const DERIVED: [&str; 1] = ["reading_minutes"];

/// Every difference of shape between the English `english` and its translation, as (the file of the translation,
/// relative to the content folder, and the problem).
pub(crate) fn differences(english: &Content, translation: &Content) -> Vec<(String, String)> {
    let (Ok(en), Ok(es)) = (
        serde_json::to_value(english),
        serde_json::to_value(translation),
    ) else {
        return vec![("".into(), "the content could not be compared".into())];
    };
    let mut found = Vec::new();
    let (Value::Object(en), Value::Object(es)) = (&en, &es) else {
        return found;
    };
    for (part, en_value) in en {
        let Some(es_value) = es.get(part) else {
            continue;
        };
        match part.as_str() {
            // One file per entry, named by its slug (or page name).
            "products" | "posts" | "documents" => {
                let folder = match part.as_str() {
                    "products" => "products",
                    "posts" => "blog",
                    _ => "pages",
                };
                let extension = if part == "products" { "toml" } else { "md" };
                let (Some(en_list), Some(es_list)) = (en_value.as_array(), es_value.as_array())
                else {
                    continue;
                };
                for en_entry in en_list {
                    let slug = en_entry
                        .get("slug")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    // A missing file is reported by `translations`; only the files on both sides are compared here.
                    if let Some(es_entry) = es_list
                        .iter()
                        .find(|e| e.get("slug").and_then(Value::as_str) == Some(slug))
                    {
                        let file = format!("{folder}/{slug}.{extension}");
                        compare(en_entry, es_entry, "", None, &mut |problem| {
                            found.push((file.clone(), problem))
                        });
                    }
                }
            }
            "pages" => {
                let (Some(en_pages), Some(es_pages)) = (en_value.as_object(), es_value.as_object())
                else {
                    continue;
                };
                for (name, en_page) in en_pages {
                    if let Some(es_page) = es_pages.get(name) {
                        let file = format!("pages/{name}.toml");
                        compare(en_page, es_page, "", None, &mut |problem| {
                            found.push((file.clone(), problem))
                        });
                    }
                }
            }
            "categories" | "images" => {}
            _ => {
                let file = format!("{part}.toml");
                compare(en_value, es_value, "", None, &mut |problem| {
                    found.push((file.clone(), problem))
                });
            }
        }
    }
    found
}

/// Compares `es` with `en` at `path` (`benefits`, `hours[2].days`), the value of the key `key`.
fn compare(en: &Value, es: &Value, path: &str, key: Option<&str>, report: &mut dyn FnMut(String)) {
    let field = |path: &str| {
        if path.is_empty() {
            "the file".to_string()
        } else {
            format!("field `{path}`")
        }
    };
    match (en, es) {
        (Value::Object(en), Value::Object(es)) => {
            for (name, en_value) in en {
                let inner = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                match es.get(name) {
                    Some(es_value) => compare(en_value, es_value, &inner, Some(name), report),
                    None if en_value.is_null() => {}
                    None => report(format!("{}: missing; the English has it", field(&inner))),
                }
            }
            for name in es.keys().filter(|name| !en.contains_key(*name)) {
                let inner = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                if !es[name].is_null() {
                    report(format!("{}: the English has no such field", field(&inner)));
                }
            }
        }
        (Value::Array(en), Value::Array(es)) if en.len() != es.len() => report(format!(
            "{}: {} entries, the English has {}",
            field(path),
            es.len(),
            en.len()
        )),
        (Value::Array(en), Value::Array(es)) => {
            for (index, (en_item, es_item)) in en.iter().zip(es).enumerate() {
                compare(en_item, es_item, &format!("{path}[{index}]"), key, report);
            }
        }
        (Value::String(en_text), Value::String(es_text))
            if key.is_some_and(|k| FACTS.contains(&k)) && en_text != es_text =>
        {
            report(format!(
                "{}: {es_text:?} differs from the English {en_text:?}; a fact is the same in every language",
                field(path)
            ));
        }
        (Value::Number(_), Value::Number(_)) if key.is_some_and(|k| DERIVED.contains(&k)) => {}
        (Value::Number(_) | Value::Bool(_), _) if en != es => {
            report(format!(
                "{}: {es} differs from the English {en}",
                field(path)
            ));
        }
        (Value::Null, Value::Null) => {}
        _ if std::mem::discriminant(en) != std::mem::discriminant(es) => {
            report(format!("{}: of another kind than the English", field(path)));
        }
        _ => {}
    }
}
