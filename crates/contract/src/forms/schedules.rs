//! The schedules an underwriter prices a fleet from (issue 39), sent with a quote's details: the vehicles (ACORD
//! 127/129), the drivers (ACORD 127/163, never a licence number) and the losses of the last ten years. Each is a list
//! of rows whose columns are also the header of the CSV a fleet pastes or uploads; a row's error is named
//! `<list>[<index from 0>].<column>` (`vehicle_schedule[1].vin`). The columns reuse the policy change's rules where
//! they ask the same (a VIN's check digit, a driver's age, a ZIP code), under the schedules' own names.

use super::policy_change::{
    DRIVER_DATE_OF_BIRTH, DRIVER_NAME, GARAGING_ZIP, LICENSE_STATE, STATED_VALUE, VEHICLE_MAKE,
    VEHICLE_MODEL, VEHICLE_YEAR, VIN,
};
use super::{Field, Limit};

/// One list of the details: its field name, its columns in CSV order, and how many rows it takes.
#[derive(Debug)]
pub struct Schedule {
    /// The details' field (`vehicle_schedule`), and the prefix of its rows' error names.
    pub name: &'static str,
    /// The columns, in the order of the CSV header; `required` says which a row must fill.
    pub columns: &'static [Field],
    pub max_rows: usize,
    /// The message for more rows than [`Schedule::max_rows`].
    pub too_many: &'static str,
    /// The message for a CSV whose header names a column the list does not have (or lacks a required one).
    pub bad_header: &'static str,
}

impl Schedule {
    /// The column named `name`.
    pub fn column(&self, name: &str) -> Option<&'static Field> {
        self.columns.iter().find(|column| column.name == name)
    }

    /// The name a row's error is given: `vehicle_schedule[1].vin` (`index` from 0, as in the JSON list).
    pub fn error_name(&self, index: usize, column: &str) -> String {
        format!("{}[{index}].{column}", self.name)
    }
}

pub const MAX_VEHICLES: usize = 50;
pub const MAX_DRIVERS: usize = 50;
pub const MAX_LOSSES: usize = 20;
/// How far back a loss may be dated: underwriters read five years of loss runs, some ask for ten.
pub const LOSS_YEARS: i32 = 10;

pub const VEHICLE_SCHEDULE: Schedule = Schedule {
    name: "vehicle_schedule",
    columns: &[
        Field {
            required: true,
            ..VEHICLE_YEAR.named("year")
        },
        Field {
            required: true,
            ..VEHICLE_MAKE.named("make")
        },
        VEHICLE_MODEL.named("model"),
        Field {
            required: true,
            ..VIN
        },
        STATED_VALUE,
        GARAGING_ZIP,
    ],
    max_rows: MAX_VEHICLES,
    too_many: "Please list at most 50 vehicles here: your specialist will take the rest",
    bad_header: "The first line must name the columns: year, make, model, vin, stated_value, garaging_zip",
};

/// Never a licence number: a `license_number` key or column is refused ([`LICENSE_NUMBER_REFUSED`]).
pub const DRIVER_SCHEDULE: Schedule = Schedule {
    name: "driver_schedule",
    columns: &[
        Field {
            required: true,
            ..DRIVER_NAME.named("name")
        },
        Field {
            required: true,
            ..DRIVER_DATE_OF_BIRTH.named("date_of_birth")
        },
        Field {
            required: true,
            ..LICENSE_STATE
        },
        YEARS_EXPERIENCE,
        VIOLATIONS_3Y,
        ACCIDENTS_3Y,
    ],
    max_rows: MAX_DRIVERS,
    too_many: "Please list at most 50 drivers here: your specialist will take the rest",
    bad_header: "The first line must name the columns: name, date_of_birth, license_state, years_experience, violations_3y, accidents_3y",
};

pub const LOSS_HISTORY: Schedule = Schedule {
    name: "loss_history",
    columns: &[LOSS_DATE, LOSS_KIND, LOSS_AMOUNT, LOSS_DESCRIPTION],
    max_rows: MAX_LOSSES,
    too_many: "Please list at most 20 losses here: attach the loss runs for the rest",
    bad_header: "The first line must name the columns: date, kind, amount, description",
};

/// Each list as a field of the details form: a list of rows in JSON, or CSV text (the form without JavaScript posts
/// a textarea); its rows' errors are named after it ([`Schedule::error_name`]).
pub const VEHICLE_SCHEDULE_FIELD: Field = Field {
    invalid: Some(NOT_A_SCHEDULE),
    ..Field::text("vehicle_schedule")
};
pub const DRIVER_SCHEDULE_FIELD: Field = Field {
    invalid: Some(NOT_A_SCHEDULE),
    ..Field::text("driver_schedule")
};
pub const LOSS_HISTORY_FIELD: Field = Field {
    invalid: Some(NOT_A_SCHEDULE),
    ..Field::text("loss_history")
};

pub const SCHEDULES: [&Schedule; 3] = [&VEHICLE_SCHEDULE, &DRIVER_SCHEDULE, &LOSS_HISTORY];

/// The key a driver's row must never carry, and what is said when it does.
pub const LICENSE_NUMBER_KEY: &str = "license_number";
pub const LICENSE_NUMBER_REFUSED: &str = "For your drivers' safety, we never take a license number online: leave it out, we will ask for it by phone";

/// A row that is not an object of the list's columns (JSON), or a CSV line that cannot be read.
pub const ROW_UNREADABLE: &str =
    "This row could not be read: each row needs the list's columns, separated by commas";
/// A row naming a column the list does not have.
pub const UNKNOWN_COLUMN: &str = "This column is not one of the list's: please remove it";
/// How a page for people names a row's error beside its list: rows counted from 1, as a person counts the lines
/// under the header ({row}), the column ({column}) and the column's message ({message}).
pub const ROW_ERROR: &str = "Row {row}, {column}: {message}";
/// The same for a row that could not be read at all.
pub const WHOLE_ROW_ERROR: &str = "Row {row}: {message}";
/// A list that is neither a list of rows nor CSV text.
pub const NOT_A_SCHEDULE: &str = "Please send a list of rows, or CSV text with a header line";

pub const YEARS_EXPERIENCE: Field = Field {
    invalid: Some("Years of experience must be a whole number from 0 to 70"),
    range: Some((0, 70)),
    ..Field::text("years_experience")
};

pub const VIOLATIONS_3Y: Field = Field {
    invalid: Some("Violations in 3 years must be a whole number from 0 to 99"),
    range: Some((0, 99)),
    ..Field::text("violations_3y")
};

pub const ACCIDENTS_3Y: Field = Field {
    invalid: Some("Accidents in 3 years must be a whole number from 0 to 99"),
    range: Some((0, 99)),
    ..Field::text("accidents_3y")
};

/// Within [`LOSS_YEARS`] and not after today (the agency's day).
pub const LOSS_DATE: Field = Field {
    required: true,
    missing: Some("Please enter the date of the loss"),
    invalid: Some("Please enter the date of the loss as a valid date, such as 2024-03-15"),
    refused: Some("The date of a loss must be within the last 10 years, and not in the future"),
    ..Field::text("date")
};

/// One of [`LOSS_KINDS`].
pub const LOSS_KIND: Field = Field {
    required: true,
    missing: Some("Please say what kind of loss it was"),
    invalid: Some("Kind must be liability, physical_damage, cargo or other"),
    ..Field::text("kind")
};

/// Whole dollars paid or reserved; `$` and thousands commas are read.
pub const LOSS_AMOUNT: Field = Field {
    required: true,
    missing: Some("Please enter the amount of the loss in dollars"),
    invalid: Some("Amount must be a whole number of dollars, such as 12500"),
    range: Some((0, 100_000_000)),
    out_of_range: Some("Amount must be from $0 to $100,000,000"),
    ..Field::text("amount")
};

pub const LOSS_DESCRIPTION: Field = Field {
    max: Some(Limit {
        chars: 200,
        message: "Description must be less than 200 characters",
    }),
    ..Field::text("description")
};

/// The kinds of loss, as loss runs group them.
pub const LOSS_KINDS: [(&str, &str); 4] = [
    ("liability", "Liability"),
    ("physical_damage", "Physical damage"),
    ("cargo", "Cargo"),
    ("other", "Other"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rows_error_is_named_by_its_list_index_and_column() {
        assert_eq!(
            VEHICLE_SCHEDULE.error_name(1, "vin"),
            "vehicle_schedule[1].vin"
        );
        assert_eq!(
            VEHICLE_SCHEDULE.column("vin").map(|c| c.required),
            Some(true)
        );
        assert!(DRIVER_SCHEDULE.column(LICENSE_NUMBER_KEY).is_none());
        let fields = [
            VEHICLE_SCHEDULE_FIELD,
            DRIVER_SCHEDULE_FIELD,
            LOSS_HISTORY_FIELD,
        ];
        for (schedule, field) in SCHEDULES.iter().zip(fields) {
            assert_eq!(schedule.name, field.name);
        }
    }

    #[test]
    fn each_header_message_names_every_column_in_order() {
        for schedule in SCHEDULES {
            let names: Vec<&str> = schedule.columns.iter().map(|c| c.name).collect();
            assert!(
                schedule.bad_header.ends_with(&names.join(", ")),
                "{}",
                schedule.name
            );
        }
    }
}
