use super::*;
use crate::leads::validate::tests::fields;

fn today() -> CalendarDate {
    CalendarDate::parse("2026-03-02").unwrap()
}

fn read_all(pairs: &[(&str, &str)]) -> Result<Schedules, FieldErrors> {
    let mut errors = FieldErrors::new();
    let found = schedules(&fields(pairs), today(), &mut errors);
    if errors.is_empty() {
        Ok(found)
    } else {
        Err(errors)
    }
}

fn errors(pairs: &[(&str, &str)]) -> FieldErrors {
    read_all(pairs).expect_err("refused")
}

const VEHICLES_CSV: &str = "Year, MAKE ,model,vin,stated_value,garaging_zip\r\n\
    2021,Freightliner,Cascadia,1m8gdm9axkp042788,\"$85,000\",75201\r\n\
    \r\n\
    2019,\"Kenworth, Inc.\",,1FUJGLDR3CLBP8834,,\r\n";

#[test]
fn csv_and_json_lists_become_typed_rows() {
    let drivers = r#"[{"name":"Luis Ortiz","date_of_birth":"1980-05-01","license_state":"tx","years_experience":12,"violations_3y":null,"accidents_3y":"0"}]"#;
    let losses = "date,kind,amount,description\n2024-03-15,cargo,\"$12,500\",\"Load shifted, \"\"tarp\"\" torn\"\n2017-03-02,LIABILITY,0,";
    let found = read_all(&[
        ("vehicle_schedule", VEHICLES_CSV),
        ("driver_schedule", drivers),
        ("loss_history", losses),
    ])
    .unwrap();
    let vehicles = &found.vehicle_schedule;
    assert_eq!(vehicles.len(), 2, "the blank line is skipped");
    assert_eq!(vehicles[0].vin, "1M8GDM9AXKP042788");
    assert_eq!(vehicles[0].stated_value, Some(85_000));
    assert_eq!(vehicles[0].model.as_deref(), Some("Cascadia"));
    assert_eq!(vehicles[1].make, "Kenworth, Inc.");
    assert_eq!(
        (
            vehicles[1].model.as_ref(),
            vehicles[1].garaging_zip.as_ref()
        ),
        (None, None)
    );
    let driver = &found.driver_schedule[0];
    assert_eq!(driver.license_state, "TX");
    assert_eq!(
        (
            driver.years_experience,
            driver.violations_3y,
            driver.accidents_3y
        ),
        (Some(12), None, Some(0))
    );
    assert_eq!(found.loss_history[0].amount, 12_500);
    assert_eq!(
        found.loss_history[0].description.as_deref(),
        Some("Load shifted, \"tarp\" torn")
    );
    assert_eq!(found.loss_history[1].kind, "liability");
    assert_eq!(
        found.loss_history[1].date, "2017-03-02",
        "ten years back to the day"
    );
    assert!(read_all(&[]).unwrap().is_empty());
    assert!(
        read_all(&[
            ("vehicle_schedule", "year,make,vin\n"),
            ("loss_history", "[]")
        ])
        .unwrap()
        .is_empty()
    );
}

#[test]
fn a_rows_error_is_named_by_its_index_and_column() {
    let wrong_digit = VEHICLES_CSV.replace("1FUJGLDR3CLBP8834", "1FUJGLDR4CLBP8834");
    let found = errors(&[("vehicle_schedule", &wrong_digit)]);
    // The blank line keeps its place: the person's third data line is index 2.
    assert_eq!(
        found["vehicle_schedule[2].vin"],
        rules::VEHICLE_SCHEDULE
            .column("vin")
            .unwrap()
            .refused_message()
    );
    assert_eq!(found.len(), 1);
    let json = r#"[{"year":2021,"make":"Mack","vin":"1M8GDM9AXKP042788"},{"year":"1899","make":"","vin":"SHORT"}]"#;
    let found = errors(&[("vehicle_schedule", json)]);
    assert_eq!(
        found["vehicle_schedule[1].year"],
        "The model year must be from 1900 to next year"
    );
    assert_eq!(
        found["vehicle_schedule[1].make"],
        "Please enter the vehicle's make, such as Freightliner"
    );
    assert_eq!(
        found["vehicle_schedule[1].vin"],
        "A VIN is 17 letters and digits, without I, O or Q"
    );
    assert_eq!(found.len(), 3);
}

#[test]
fn each_column_has_its_rule() {
    let vehicle = |column: &str, value: &str| {
        let mut row =
            serde_json::json!({"year": "2021", "make": "Mack", "vin": "1M8GDM9AXKP042788"});
        row[column] = value.into();
        errors(&[("vehicle_schedule", &serde_json::json!([row]).to_string())])
            .get(format!("vehicle_schedule[0].{column}").as_str())
            .copied()
    };
    assert_eq!(
        vehicle("year", "2028"),
        Some("The model year must be from 1900 to next year")
    );
    assert_eq!(
        vehicle("stated_value", "85000.50"),
        Some("Stated value must be a whole number of dollars, such as 85000")
    );
    assert_eq!(
        vehicle("stated_value", "50"),
        Some("Stated value must be from $100 to $5,000,000")
    );
    assert_eq!(
        vehicle("garaging_zip", "7520"),
        Some("Please enter a US ZIP code, such as 75201")
    );
    assert_eq!(
        vehicle("make", &"M".repeat(51)),
        Some("Make must be less than 50 characters")
    );
    let driver = |column: &str, value: &str| {
        let mut row = serde_json::json!({"name": "Luis Ortiz", "date_of_birth": "1980-05-01", "license_state": "TX"});
        row[column] = value.into();
        errors(&[("driver_schedule", &serde_json::json!([row]).to_string())])
            .get(format!("driver_schedule[0].{column}").as_str())
            .copied()
    };
    assert_eq!(
        driver("name", "L<script>"),
        Some("Driver name can only contain letters, spaces, hyphens, and apostrophes")
    );
    assert_eq!(
        driver("date_of_birth", "2010-01-01"),
        Some("The driver must be 18 to 100 years old: please check the date of birth")
    );
    assert_eq!(
        driver("date_of_birth", "1980-02-30"),
        Some("Please enter the driver's date of birth as a valid date")
    );
    assert_eq!(
        driver("license_state", "XX"),
        Some("Please choose a US state by its two-letter code, such as TX")
    );
    assert_eq!(
        driver("years_experience", "71"),
        Some("Years of experience must be a whole number from 0 to 70")
    );
    assert_eq!(
        driver("accidents_3y", "two"),
        Some("Accidents in 3 years must be a whole number from 0 to 99")
    );
    let loss = |column: &str, value: &str| {
        let mut row = serde_json::json!({"date": "2024-03-15", "kind": "cargo", "amount": "12500"});
        row[column] = value.into();
        errors(&[("loss_history", &serde_json::json!([row]).to_string())])
            .get(format!("loss_history[0].{column}").as_str())
            .copied()
    };
    let refused = "The date of a loss must be within the last 10 years, and not in the future";
    assert_eq!(loss("date", "2026-03-03"), Some(refused), "tomorrow");
    assert_eq!(
        loss("date", "2016-03-01"),
        Some(refused),
        "ten years and a day"
    );
    assert_eq!(
        loss("date", "03/15/2024"),
        Some("Please enter the date of the loss as a valid date, such as 2024-03-15")
    );
    assert_eq!(
        loss("kind", "fire"),
        Some("Kind must be liability, physical_damage, cargo or other")
    );
    assert_eq!(
        loss("amount", "$12,500.00"),
        Some("Amount must be a whole number of dollars, such as 12500")
    );
    assert_eq!(
        loss("amount", "100000001"),
        Some("Amount must be from $0 to $100,000,000")
    );
    assert_eq!(
        loss("amount", ""),
        Some("Please enter the amount of the loss in dollars")
    );
    assert_eq!(
        loss("description", &"d".repeat(201)),
        Some("Description must be less than 200 characters")
    );
    let today = r#"[{"date":"2026-03-02","kind":"cargo","amount":1}]"#;
    assert!(read_all(&[("loss_history", today)]).is_ok());
}

#[test]
fn text_is_sanitized_like_the_other_forms() {
    let json = r#"[{"date":"2024-03-15","kind":"other","amount":1,"description":"=HYPERLINK(\"x\") <b>bold</b>\u202e"}]"#;
    let found = read_all(&[("loss_history", json)]).unwrap();
    let description = found.loss_history[0].description.clone().unwrap();
    assert!(
        !description.contains(['<', '>', '\u{202e}']),
        "{description}"
    );
}

#[test]
fn a_license_number_is_refused_in_a_row_or_a_header() {
    let json = r#"[{"name":"Luis Ortiz","date_of_birth":"1980-05-01","license_state":"TX"},{"name":"Ana Ruiz","date_of_birth":"1980-05-01","license_state":"TX","License_Number":"D1234567"}]"#;
    let found = errors(&[("driver_schedule", json)]);
    assert_eq!(
        found["driver_schedule[1].license_number"],
        LICENSE_NUMBER_REFUSED
    );
    let csv = "name,date_of_birth,license_state, LICENSE_NUMBER\nLuis Ortiz,1980-05-01,TX,D1234567";
    assert_eq!(
        errors(&[("driver_schedule", csv)])["driver_schedule"],
        LICENSE_NUMBER_REFUSED
    );
}

#[test]
fn a_header_names_every_required_column_once_and_no_other() {
    let bad = rules::VEHICLE_SCHEDULE.bad_header;
    for header in [
        "year,make,model",
        "year,make,vin,color",
        "year,make,vin,vin",
        "2021,Mack,1M8GDM9AXKP042788",
    ] {
        let text = format!("{header}\n2021,Mack,1M8GDM9AXKP042788");
        assert_eq!(
            errors(&[("vehicle_schedule", &text)])["vehicle_schedule"],
            bad,
            "{header}"
        );
    }
    let text = "vin,make,year\n1M8GDM9AXKP042788,Mack,2021";
    assert_eq!(
        read_all(&[("vehicle_schedule", text)])
            .unwrap()
            .vehicle_schedule[0]
            .year,
        2021
    );
}

#[test]
fn unknown_keys_unreadable_rows_and_non_lists_are_named() {
    let json = r#"[{"year":2021,"make":"Mack","vin":"1M8GDM9AXKP042788","color":"red"}, "2021,Mack", {"year":true}]"#;
    let found = errors(&[("vehicle_schedule", json)]);
    assert_eq!(found["vehicle_schedule[0].color"], UNKNOWN_COLUMN);
    assert_eq!(found["vehicle_schedule[1]"], ROW_UNREADABLE);
    assert_eq!(found["vehicle_schedule[2].year"], ROW_UNREADABLE);
    let csv = "date,kind,amount\n2024-03-15,cargo,100,extra\n\"2024-03-15\"x,cargo,100";
    let found = errors(&[("loss_history", csv)]);
    assert_eq!(found["loss_history[0]"], ROW_UNREADABLE);
    assert_eq!(found["loss_history[1]"], ROW_UNREADABLE);
    for text in ["[not json", NOT_A_LIST] {
        assert_eq!(
            errors(&[("loss_history", text)])["loss_history"],
            NOT_A_SCHEDULE,
            "{text:?}"
        );
    }
}

#[test]
fn more_rows_than_the_list_takes_are_refused_on_the_list() {
    let row = "2024-03-15,cargo,100\n";
    let twenty = format!("date,kind,amount\n{}", row.repeat(20));
    assert_eq!(
        read_all(&[("loss_history", &twenty)])
            .unwrap()
            .loss_history
            .len(),
        20
    );
    let more = format!("{twenty}\n\n{row}");
    assert_eq!(
        errors(&[("loss_history", &more)])["loss_history"],
        rules::LOSS_HISTORY.too_many
    );
}

#[test]
fn a_list_too_long_or_a_row_too_wide_is_named_once_not_row_by_row() {
    let ones = format!("[{}1]", "1,".repeat(100_000));
    let refused = errors(&[("vehicle_schedule", &ones)]);
    assert_eq!(
        refused.len(),
        1,
        "{:?}",
        refused.keys().take(3).collect::<Vec<_>>()
    );
    assert_eq!(refused["vehicle_schedule"], VEHICLE_SCHEDULE.too_many);
    let lines = format!("date,kind,amount\n{}", "x,y,z\n".repeat(5_000));
    let refused = errors(&[("loss_history", &lines)]);
    assert_eq!(refused.len(), 1);
    assert_eq!(refused["loss_history"], LOSS_HISTORY.too_many);
    let keys: Vec<String> = (0..5_000).map(|i| format!("\"k{i}\":1")).collect();
    let wide = format!("[{{{}}}]", keys.join(","));
    let refused = errors(&[("driver_schedule", &wide)]);
    assert_eq!(refused.len(), 1);
    assert_eq!(refused["driver_schedule[0]"], ROW_UNREADABLE);
}
