//! The policy change's rules: each kind's fields, the VIN's shape and check digit, the dates.

use super::*;
use crate::forms::vin::{VIN_WEIGHTS, vin_value};
use crate::forms::{CHANGE, FORMS};

fn date(text: &str) -> CalendarDate {
    CalendarDate::parse(text).expect(text)
}

/// Real-format VINs whose check digits were computed for these tests (the first is the standard's worked
/// example, whose check digit is X).
const VALID_VINS: [&str; 6] = [
    "1M8GDM9AXKP042788",
    "1HGCM82633A004352",
    "1FUJGLDR3CLBP8834",
    "1XPBDP9X4GD312345",
    "3AKJHHDR4LSLA4321",
    "1UYVS2539EM123456",
];

#[test]
fn valid_vins_pass_in_any_case() {
    for vin in VALID_VINS {
        assert!(vin_check_digit_ok(vin), "{vin}");
        assert!(vin_check_digit_ok(&vin.to_ascii_lowercase()), "{vin}");
        assert!(is_trailer_vin_or_serial(vin), "{vin}");
    }
}

#[test]
fn a_wrong_check_digit_is_refused_with_its_own_message() {
    for vin in VALID_VINS {
        for wrong in "0123456789X"
            .chars()
            .filter(|c| Some(*c) != vin.chars().nth(8))
        {
            let mut altered: Vec<char> = vin.chars().collect();
            altered[8] = wrong;
            let altered: String = altered.into_iter().collect();
            assert!(is_vin(&altered), "{altered} keeps the shape");
            assert!(!vin_check_digit_ok(&altered), "{altered}");
        }
    }
    // One character mistyped elsewhere changes the sum.
    assert!(!vin_check_digit_ok("1M8GDM9AXKP042789"));
    assert_eq!(
        VIN.refused_message(),
        "This VIN's check digit (the 9th character) does not match the others: please check each character"
    );
    assert_ne!(VIN.refused, VIN.invalid);
}

#[test]
fn i_o_and_q_are_not_vin_characters() {
    for letter in ['I', 'O', 'Q', 'i', 'o', 'q'] {
        let vin: String = "1M8GDM9AXKP042788"
            .chars()
            .enumerate()
            .map(|(at, c)| if at == 5 { letter } else { c })
            .collect();
        assert!(!is_vin(&vin), "{vin}");
        assert!(!vin_check_digit_ok(&vin), "{vin}");
        assert!(!is_trailer_vin_or_serial(&vin), "{vin}");
    }
}

#[test]
fn only_seventeen_letters_and_digits_are_a_vin() {
    for not_a_vin in [
        "",
        "1M8GDM9AXKP04278",
        "1M8GDM9AXKP0427888",
        "1M8GDM9AXKP04278 ",
        "1M8GDM9AXKP-42788",
        "1M8GDM9ÁXKP04278",
    ] {
        assert!(!is_vin(not_a_vin), "{not_a_vin:?}");
        assert!(!vin_check_digit_ok(not_a_vin), "{not_a_vin:?}");
    }
}

#[test]
fn the_transliteration_is_the_standards_table() {
    let table = [
        ('A', 1),
        ('B', 2),
        ('C', 3),
        ('D', 4),
        ('E', 5),
        ('F', 6),
        ('G', 7),
        ('H', 8),
        ('J', 1),
        ('K', 2),
        ('L', 3),
        ('M', 4),
        ('N', 5),
        ('P', 7),
        ('R', 9),
        ('S', 2),
        ('T', 3),
        ('U', 4),
        ('V', 5),
        ('W', 6),
        ('X', 7),
        ('Y', 8),
        ('Z', 9),
    ];
    for (letter, value) in table {
        assert_eq!(vin_value(letter), Some(value), "{letter}");
    }
    assert_eq!(vin_value('7'), Some(7));
    assert_eq!(VIN_WEIGHTS.iter().sum::<u32>(), 89);
    assert_eq!(VIN_WEIGHTS[8], 0, "the check digit does not weigh itself");
}

#[test]
fn a_trailer_takes_a_checked_vin_or_an_older_serial_number() {
    assert!(is_trailer_vin_or_serial("1JJV532D5JL765432"));
    assert!(
        !is_trailer_vin_or_serial("1JJV532D6JL765432"),
        "17 characters are held to the check digit"
    );
    for serial in ["7", "T12345", "GD7704", "ABCDEFGHIJKLMNOPQRSTUVWXY"] {
        assert!(is_trailer_vin_or_serial(serial), "{serial}");
    }
    for not_one in ["", "AB-1234", "AB 1234", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"] {
        assert!(!is_trailer_vin_or_serial(not_one), "{not_one:?}");
    }
}

#[test]
fn model_years_run_from_1900_to_next_year() {
    let today = date("2026-03-02");
    for year in [1900, 1995, 2026, 2027] {
        assert!(model_year_ok(year, today), "{year}");
    }
    for year in [1899, 2028, 0, -2026] {
        assert!(!model_year_ok(year, today), "{year}");
    }
    assert_eq!(TRAILER_YEAR.range, VEHICLE_YEAR.range);
    assert_eq!(TRAILER_YEAR.name, "trailer_year");
}

#[test]
fn zip_codes_are_five_digits_or_zip_plus_four() {
    for zip in ["75201", "00501", "75201-1234"] {
        assert!(is_zip_code(zip), "{zip}");
    }
    for not_zip in [
        "",
        "7520",
        "752011",
        "75201-123",
        "75201 1234",
        "7520A",
        "75201-",
    ] {
        assert!(!is_zip_code(not_zip), "{not_zip:?}");
    }
}

#[test]
fn every_kind_names_distinct_fields_of_the_form_and_a_missing_message_for_each_required_one() {
    let mut values = Vec::new();
    for kind in &CHANGE_KINDS {
        assert!(!values.contains(&kind.value), "{} twice", kind.value);
        values.push(kind.value);
        assert_eq!(
            ChangeKind::find(kind.value).map(|k| k.value),
            Some(kind.value)
        );
        assert!(!kind.required.is_empty(), "{} asks nothing", kind.value);
        for field in kind.required.iter().chain(kind.optional) {
            assert!(
                CHANGE.has_field(field.name),
                "{}.{}",
                kind.value,
                field.name
            );
            assert!(
                !field.required,
                "{} is required only by its kinds",
                field.name
            );
            assert!(kind.has_field(field.name));
        }
        for field in kind.required {
            assert!(
                field.missing.is_some() || field.min.is_some(),
                "{}.{} has no message for empty",
                kind.value,
                field.name
            );
            assert!(!kind.optional.iter().any(|o| o.name == field.name));
        }
    }
    assert_eq!(ChangeKind::find("add_truck").map(|k| k.value), None);
    // Every kind's field belongs to some kind: nothing on the form that no kind reads.
    let common = [
        "name",
        "insured_name",
        "phone",
        "email",
        "policy_number",
        "change_kind",
        "effective_date",
    ];
    for field in CHANGE.fields {
        assert!(
            common.contains(&field.name)
                || CHANGE_KINDS.iter().any(|kind| kind.has_field(field.name)),
            "{} is read by no kind",
            field.name
        );
        assert_eq!(
            field.required,
            common.contains(&field.name) && field.name != "policy_number"
        );
    }
}

#[test]
fn the_kinds_ask_what_the_issue_lists() {
    let names = |value: &str| -> Vec<&str> {
        ChangeKind::find(value)
            .map(|k| k.required.iter().map(|f| f.name).collect())
            .unwrap_or_default()
    };
    assert_eq!(
        names("add_vehicle"),
        [
            "vehicle_year",
            "vehicle_make",
            "vehicle_model",
            "vin",
            "stated_value",
            "garaging_zip"
        ]
    );
    assert_eq!(
        names("add_driver"),
        [
            "driver_name",
            "driver_date_of_birth",
            "license_state",
            "license_class",
            "hire_date"
        ]
    );
    assert_eq!(names("other"), ["change_details"]);
}

#[test]
fn no_field_asks_for_a_license_number() {
    for field in CHANGE.fields {
        let name = field.name;
        assert!(
            !(name.contains("license") || name.contains("licence"))
                || name == "license_state"
                || name == "license_class",
            "{name}"
        );
        assert!(
            !name.contains("number") || name == "policy_number",
            "{name}"
        );
        assert!(!name.contains("dl_") && !name.contains("cdl"), "{name}");
    }
    assert!(FORMS.iter().any(|form| form.id == "change"));
}

#[test]
fn license_classes_are_a_b_and_c() {
    let values: Vec<&str> = LICENSE_CLASS_CHOICES
        .iter()
        .map(|(value, _)| *value)
        .collect();
    assert_eq!(values, ["A", "B", "C"]);
}
