//! The schedules of a quote's details (issue 39): the vehicles, the drivers and the losses, each sent as a JSON list
//! of rows (kept by intake as its JSON text) or as CSV text with a header line (the form without JavaScript posts a
//! textarea, a fleet pastes its spreadsheet). Every row is held to its columns' contract rules, reusing the policy
//! change's (a VIN's check digit, a model year, a driver's age, a state, a ZIP code, dollars, a person's name), and a
//! row's error is named `<list>[<index from 0>].<column>` (`vehicle_schedule[1].vin`); a list's own error (its
//! header, too many rows, text that is no list) is on the list's name. Blank rows are skipped but keep their place
//! in the numbering, so a name always points at the line the person wrote. A licence number is refused wherever it
//! appears, and nothing of such a submission is stored.

use std::collections::BTreeMap;

use contract::forms::Field;
use contract::forms::calendar::CalendarDate;
use contract::forms::policy_change::{driver_age_ok, is_vin, is_zip_code, vin_check_digit_ok};
use contract::forms::schedules::{
    self as rules, DRIVER_SCHEDULE, LICENSE_NUMBER_KEY, LICENSE_NUMBER_REFUSED, LOSS_HISTORY,
    LOSS_KINDS, LOSS_YEARS, NOT_A_SCHEDULE, ROW_UNREADABLE, Schedule, UNKNOWN_COLUMN,
    VEHICLE_SCHEDULE,
};
use serde_json::Value;

use super::change::{dollars, model_year, person_name};
use super::claim::us_state;
use super::csv;
use super::{FieldErrors, RawFields, length, sanitize};
use crate::store::schedules::{Driver, Loss, Schedules, Vehicle};

/// The three lists, or their errors added to `errors`. `today` is the agency's day (driver ages, loss dates).
pub fn schedules(fields: &RawFields, today: CalendarDate, errors: &mut FieldErrors) -> Schedules {
    let mut list = |schedule: &'static Schedule| {
        let rows = read(schedule, fields.get(schedule.name), errors);
        rows.into_iter()
            .filter_map(|(index, cells)| {
                let row = clean_row(schedule, index, &cells, today, errors)?;
                Some(row)
            })
            .collect::<Vec<Clean>>()
    };
    let vehicles = list(&VEHICLE_SCHEDULE);
    let drivers = list(&DRIVER_SCHEDULE);
    let losses = list(&LOSS_HISTORY);
    Schedules {
        vehicle_schedule: vehicles.iter().map(vehicle).collect(),
        driver_schedule: drivers.iter().map(driver).collect(),
        loss_history: losses.iter().map(loss).collect(),
    }
}

/// A row as read: column (lower case, trimmed) -> the cell as written.
type Cells = BTreeMap<String, String>;
/// A row as checked: column -> its clean value; an optional column left empty is absent.
type Clean = BTreeMap<&'static str, String>;

/// What intake keeps for a schedule sent as neither a list nor text (a number, an object): a NUL, which no list or
/// CSV text holds, so it is answered [`NOT_A_SCHEDULE`] on the field like any text with one.
pub const NOT_A_LIST: &str = "\u{0}";

/// The list's non-blank rows with their index (from 0, blank rows counted), or nothing with its errors recorded.
fn read(schedule: &'static Schedule, raw: &str, errors: &mut FieldErrors) -> Vec<(usize, Cells)> {
    let text = raw.trim_start_matches('\u{feff}').trim();
    let rows = if text.contains('\0') {
        Err(FieldErrors::from([(schedule.name.into(), NOT_A_SCHEDULE)]))
    } else if text.is_empty() {
        Ok(Vec::new())
    } else if text.starts_with('[') {
        json_rows(schedule, text)
    } else {
        csv_rows(schedule, text)
    };
    let mut rows = match rows {
        Ok(rows) => rows,
        Err(list_errors) => {
            errors.extend(list_errors);
            return Vec::new();
        }
    };
    rows.retain(|(_, cells)| cells.values().any(|cell| !cell.trim().is_empty()));
    if rows.len() > schedule.max_rows {
        errors.insert(schedule.name.into(), schedule.too_many);
        return Vec::new();
    }
    rows
}

/// A JSON list of objects whose values are strings, numbers or null.
fn json_rows(schedule: &'static Schedule, text: &str) -> Result<Vec<(usize, Cells)>, FieldErrors> {
    let Ok(items) = serde_json::from_str::<Vec<Value>>(text) else {
        return Err(FieldErrors::from([(schedule.name.into(), NOT_A_SCHEDULE)]));
    };
    // More rows than the list takes is said once, on the list, before any row is read: an answer never names
    // thousands of rows (a body of 256 KiB holds 100,000 `1,`).
    let is_blank = |item: &Value| {
        item.as_object().is_some_and(|object| {
            object.values().all(|value| match value {
                Value::Null => true,
                Value::String(text) => text.trim().is_empty(),
                _ => false,
            })
        })
    };
    if items.iter().filter(|item| !is_blank(item)).count() > schedule.max_rows {
        return Err(FieldErrors::from([(
            schedule.name.into(),
            schedule.too_many,
        )]));
    }
    let mut errors = FieldErrors::new();
    let mut rows = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        // A row of many more keys than the list has columns is no row of it (and would name each key).
        let Value::Object(object) = item else {
            errors.insert(row_name(schedule, index).into(), ROW_UNREADABLE);
            continue;
        };
        if object.len() > 2 * schedule.columns.len() {
            errors.insert(row_name(schedule, index).into(), ROW_UNREADABLE);
            continue;
        }
        let mut cells = Cells::new();
        for (key, value) in object {
            let column = column_name(&key);
            if let Some(message) = refused_column(schedule, &column) {
                errors.insert(schedule.error_name(index, &column).into(), message);
                continue;
            }
            let cell = match value {
                Value::Null => String::new(),
                Value::String(text) => text,
                Value::Number(number) => number.to_string(),
                _ => {
                    errors.insert(schedule.error_name(index, &column).into(), ROW_UNREADABLE);
                    continue;
                }
            };
            cells.insert(column, cell);
        }
        rows.push((index, cells));
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(errors)
    }
}

/// CSV text: a header naming the columns (any case and order; every required one, no other), then a row a record.
fn csv_rows(schedule: &'static Schedule, text: &str) -> Result<Vec<(usize, Cells)>, FieldErrors> {
    let list_error = |message| FieldErrors::from([(schedule.name.into(), message)]);
    let mut records = csv::records(text)
        .into_iter()
        .skip_while(csv::Record::is_blank);
    let Some(header) = records.next() else {
        return Ok(Vec::new());
    };
    let columns: Vec<String> = header.cells.iter().map(|cell| column_name(cell)).collect();
    if columns.iter().any(|column| column == LICENSE_NUMBER_KEY) {
        return Err(list_error(LICENSE_NUMBER_REFUSED));
    }
    let known = |name: &str| schedule.column(name).is_some();
    let named_once = |name: &str| columns.iter().filter(|c| *c == name).count() == 1;
    let required = schedule.columns.iter().filter(|field| field.required);
    if !header.readable
        || !columns
            .iter()
            .all(|column| known(column) && named_once(column))
        || !required.into_iter().all(|field| named_once(field.name))
    {
        return Err(list_error(schedule.bad_header));
    }
    let records: Vec<csv::Record> = records.collect();
    if records.iter().filter(|record| !record.is_blank()).count() > schedule.max_rows {
        return Err(list_error(schedule.too_many));
    }
    let mut errors = FieldErrors::new();
    let mut rows = Vec::new();
    for (index, record) in records.into_iter().enumerate() {
        let extra = record.cells.iter().skip(columns.len());
        if !record.readable || extra.into_iter().any(|cell| !cell.trim().is_empty()) {
            errors.insert(row_name(schedule, index).into(), ROW_UNREADABLE);
            continue;
        }
        // A short record leaves its last columns empty, as a spreadsheet trims a row's empty end.
        let cells = columns.iter().cloned().zip(record.cells).collect();
        rows.push((index, cells));
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(errors)
    }
}

/// A column as named in a header or a JSON key: trimmed, lower case, at most 50 characters (it may become an error's
/// name).
fn column_name(raw: &str) -> String {
    raw.trim().to_lowercase().chars().take(50).collect()
}

/// Why a row may not name `column`: a licence number, or a column the list does not have.
fn refused_column(schedule: &Schedule, column: &str) -> Option<&'static str> {
    if column == LICENSE_NUMBER_KEY {
        Some(LICENSE_NUMBER_REFUSED)
    } else if schedule.column(column).is_none() {
        Some(UNKNOWN_COLUMN)
    } else {
        None
    }
}

/// The name of a whole row's error: `loss_history[3]`.
fn row_name(schedule: &Schedule, index: usize) -> String {
    format!("{}[{index}]", schedule.name)
}

/// A row's columns, each by its rule; `None` with its errors recorded under the row's names.
fn clean_row(
    schedule: &'static Schedule,
    index: usize,
    cells: &Cells,
    today: CalendarDate,
    errors: &mut FieldErrors,
) -> Option<Clean> {
    let mut clean = Clean::new();
    let mut ok = true;
    for field in schedule.columns {
        let raw = cells.get(field.name).map_or("", |cell| cell.trim());
        let value = if raw.is_empty() {
            Ok(None)
        } else {
            cell(field, raw, today)
        };
        match value {
            Ok(Some(value)) => {
                clean.insert(field.name, value);
            }
            Ok(None) if !field.required => {}
            Ok(None) => {
                let message = field.empty_message().unwrap_or(ROW_UNREADABLE);
                errors.insert(schedule.error_name(index, field.name).into(), message);
                ok = false;
            }
            Err(message) => {
                errors.insert(schedule.error_name(index, field.name).into(), message);
                ok = false;
            }
        }
    }
    ok.then_some(clean)
}

/// One cell (given, trimmed) by its column's rule; the value as stored, `None` where cleaning leaves nothing.
fn cell(
    field: &'static Field,
    raw: &str,
    today: CalendarDate,
) -> Result<Option<String>, &'static str> {
    let value = match field.name {
        "year" => model_year(field, raw, today)?,
        "vin" => {
            let vin = raw.to_ascii_uppercase();
            if !is_vin(&vin) {
                return Err(field.invalid_message());
            }
            if !vin_check_digit_ok(&vin) {
                return Err(field.refused_message());
            }
            vin
        }
        "stated_value" | "amount" => dollars(field, raw)?,
        "garaging_zip" if is_zip_code(raw) => raw.to_string(),
        "garaging_zip" => return Err(field.invalid_message()),
        "name" => person_name(field, raw)?,
        "date_of_birth" => match CalendarDate::parse(raw) {
            Some(born) if driver_age_ok(born, today) => born.to_string(),
            Some(_) => return Err(field.refused_message()),
            None => return Err(field.invalid_message()),
        },
        "license_state" => us_state(field, raw)?,
        "years_experience" | "violations_3y" | "accidents_3y" => whole_number(field, raw)?,
        "date" => loss_date(raw, today)?,
        "kind" => {
            let kind = raw.to_ascii_lowercase();
            if !LOSS_KINDS.iter().any(|(value, _)| *value == kind) {
                return Err(field.invalid_message());
            }
            kind
        }
        // Make, model, description: one line, sanitized like every form's text, within the column's limits.
        _ => length(field, sanitize(raw))?,
    };
    Ok((!value.is_empty()).then_some(value))
}

/// A whole number within the column's range.
fn whole_number(field: &Field, raw: &str) -> Result<String, &'static str> {
    let (min, max) = field.range.unwrap_or((0, i64::MAX));
    match raw.parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
        _ => Err(field.invalid_message()),
    }
}

/// A loss's date: a real day within [`LOSS_YEARS`] before the agency's today and not after it.
fn loss_date(raw: &str, today: CalendarDate) -> Result<String, &'static str> {
    let Some(date) = CalendarDate::parse(raw) else {
        return Err(rules::LOSS_DATE.invalid_message());
    };
    let earliest = today.years_earlier(LOSS_YEARS);
    if date > today || earliest.is_some_and(|earliest| date < earliest) {
        return Err(rules::LOSS_DATE.refused_message());
    }
    Ok(date.to_string())
}

fn number(clean: &Clean, column: &str) -> Option<i64> {
    clean.get(column).and_then(|value| value.parse().ok())
}

fn text(clean: &Clean, column: &str) -> String {
    clean.get(column).cloned().unwrap_or_default()
}

fn vehicle(clean: &Clean) -> Vehicle {
    Vehicle {
        year: number(clean, "year").unwrap_or_default(),
        make: text(clean, "make"),
        model: clean.get("model").cloned(),
        vin: text(clean, "vin"),
        stated_value: number(clean, "stated_value"),
        garaging_zip: clean.get("garaging_zip").cloned(),
    }
}

fn driver(clean: &Clean) -> Driver {
    Driver {
        name: text(clean, "name"),
        date_of_birth: text(clean, "date_of_birth"),
        license_state: text(clean, "license_state"),
        years_experience: number(clean, "years_experience"),
        violations_3y: number(clean, "violations_3y"),
        accidents_3y: number(clean, "accidents_3y"),
    }
}

fn loss(clean: &Clean) -> Loss {
    Loss {
        date: text(clean, "date"),
        kind: text(clean, "kind"),
        amount: number(clean, "amount").unwrap_or_default(),
        description: clean.get("description").cloned(),
    }
}

#[cfg(test)]
mod tests;
