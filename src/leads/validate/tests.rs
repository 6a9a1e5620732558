//! The validation rules with the specification's messages, written out word for word.

use super::*;

pub(super) fn fields(pairs: &[(&str, &str)]) -> RawFields {
    RawFields(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    )
}

fn good_quote() -> Vec<(&'static str, &'static str)> {
    vec![
        ("name", "Dana O'Neil-Smith"),
        ("email", "  Dana@Example.COM "),
        ("phone", "(555) 210-0142"),
        ("company", "Lone Star Haulers"),
        ("insurance_type", "dump"),
        ("vehicle_count", "3"),
        ("dot_number", "1234567"),
        ("consent", "true"),
    ]
}

fn quote_error(change: (&'static str, &'static str)) -> FieldErrors {
    let mut pairs = good_quote();
    pairs.retain(|(k, _)| *k != change.0);
    pairs.push(change);
    quote(&fields(&pairs)).expect_err("invalid")
}

#[test]
fn a_good_quote_is_cleaned_for_storage() {
    let lead = quote(&fields(&good_quote())).unwrap();
    assert_eq!(lead.email, "dana@example.com");
    assert_eq!(lead.phone.as_deref(), Some("+15552100142"));
    assert_eq!(lead.vehicle_count, 3);
    assert_eq!(lead.dot_number.as_deref(), Some("1234567"));
}

#[test]
fn quote_rules_use_the_spec_messages() {
    let cases: [((&str, &str), &str, &str); 17] = [
        (("name", ""), "name", "Name must be at least 2 characters"),
        (("name", "A"), "name", "Name must be at least 2 characters"),
        (
            ("name", &*"a".repeat(101).leak()),
            "name",
            "Name must be less than 100 characters",
        ),
        (
            ("name", "R2-D2"),
            "name",
            "Name can only contain letters, spaces, hyphens, and apostrophes",
        ),
        (
            ("email", "not-an-email"),
            "email",
            "Please enter a valid email address",
        ),
        (
            ("email", "a@b"),
            "email",
            "Please enter a valid email address",
        ),
        (
            ("phone", "12345"),
            "phone",
            "Please enter a valid US phone number",
        ),
        (
            ("company", &*"c".repeat(201).leak()),
            "company",
            "Company name must be less than 200 characters",
        ),
        (
            ("insurance_type", "boat"),
            "insurance_type",
            "Please select an insurance type",
        ),
        (
            ("vehicle_count", ""),
            "vehicle_count",
            "Please enter the number of vehicles",
        ),
        (
            ("vehicle_count", "0"),
            "vehicle_count",
            "Number of vehicles must be from 1 to 100,000",
        ),
        (
            ("vehicle_count", "200000"),
            "vehicle_count",
            "Number of vehicles must be from 1 to 100,000",
        ),
        (
            ("vehicle_count", "99999999999999999999999"),
            "vehicle_count",
            "Number of vehicles must be from 1 to 100,000",
        ),
        (
            ("vehicle_count", "2.5"),
            "vehicle_count",
            "Invalid vehicle count format",
        ),
        (
            ("dot_number", "123456789"),
            "dot_number",
            "DOT number must be 1-8 digits",
        ),
        (
            ("dot_number", "12ab"),
            "dot_number",
            "DOT number must be 1-8 digits",
        ),
        (
            ("consent", "false"),
            "consent",
            "You must agree to our communication terms",
        ),
    ];
    for (change, field, message) in cases {
        let errors = quote_error(change);
        assert_eq!(errors.get(field), Some(&message), "{change:?}");
        assert_eq!(errors.len(), 1, "{change:?}: {errors:?}");
    }
    let long_email = format!("{}@example.com", "a".repeat(250));
    assert_eq!(
        quote_error(("email", long_email.leak())).get("email"),
        Some(&"Email must be less than 255 characters")
    );
}

/// The quote form flags the required fields left empty in the browser, with the contract's `empty_message`, when it
/// refuses to send without consent: the server must say the same of them.
#[test]
fn an_empty_quote_is_answered_with_each_required_fields_empty_message() {
    let errors = quote(&fields(&[])).expect_err("invalid");
    for field in rules::QUOTE.fields {
        assert_eq!(
            errors.get(field.name).copied(),
            field.empty_message(),
            "{}",
            field.name
        );
    }
}

#[test]
fn optional_quote_fields_may_be_empty() {
    let mut pairs = good_quote();
    pairs.retain(|(k, _)| !["phone", "company", "dot_number"].contains(k));
    let lead = quote(&fields(&pairs)).unwrap();
    assert_eq!(
        (lead.phone, lead.company, lead.dot_number),
        (None, None, None)
    );
}

#[test]
fn us_phone_formats_are_normalised() {
    for raw in [
        "555-210-0142",
        "(555) 210-0142",
        "555.210.0142",
        "+1 555 210 0142",
        "15552100142",
    ] {
        assert_eq!(
            optional_phone(raw),
            Ok(Some("+15552100142".to_string())),
            "{raw}"
        );
    }
    for raw in [
        "055-210-0142",
        "555-110-0142",
        "+44 20 7946 0958",
        "555-210-014x",
    ] {
        assert!(optional_phone(raw).is_err(), "{raw}");
    }
}

#[test]
fn contact_rules_use_the_spec_messages() {
    let good = [
        ("name", "Luis Ortega"),
        ("email", "luis@example.com"),
        ("subject", "Certificate"),
        ("message", "Please send a COI."),
    ];
    assert!(contact(&fields(&good)).is_ok());
    let errors = contact(&fields(&[("subject", "Hi"), ("message", "short")])).unwrap_err();
    assert_eq!(
        errors.get("name"),
        Some(&"Name must be at least 2 characters")
    );
    assert_eq!(
        errors.get("email"),
        Some(&"Please enter a valid email address")
    );
    assert_eq!(
        errors.get("subject"),
        Some(&"Subject must be at least 5 characters")
    );
    assert_eq!(
        errors.get("message"),
        Some(&"Message must be at least 10 characters")
    );
    let long = fields(&[
        ("name", "Luis"),
        ("email", "l@example.com"),
        ("subject", &"s".repeat(201)),
        ("message", &"m".repeat(2001)),
    ]);
    let errors = contact(&long).unwrap_err();
    assert_eq!(
        errors.get("subject"),
        Some(&"Subject must be less than 200 characters")
    );
    assert_eq!(
        errors.get("message"),
        Some(&"Message must be less than 2000 characters")
    );
}

#[test]
fn an_email_address_is_ascii_without_a_question_mark() {
    for address in [
        "josé@example.com",
        "jose@exämple.com",
        "josé@exämple.com",
        "ñ@example.mx",
    ] {
        assert_eq!(email(address), Err(rules::EMAIL_NOT_ASCII), "{address}");
    }
    for address in [
        "a?cc=boss%40evil.example&body=wire-the-money@example.com",
        "a?@example.com",
    ] {
        assert_eq!(
            email(address),
            Err("Please enter a valid email address"),
            "{address}"
        );
    }
    // Punycode, as a browser sends an international domain typed into an e-mail input, is ASCII.
    assert_eq!(
        email("jose@xn--exmple-cua.com").as_deref(),
        Ok("jose@xn--exmple-cua.com")
    );
    assert_eq!(
        email("o'neil+quotes@example.com").as_deref(),
        Ok("o'neil+quotes@example.com")
    );
}

#[test]
fn every_address_the_server_takes_matches_the_contracts_pattern() {
    // The pattern `[!->@-~]+`: printable ASCII but `?`. An address with any other character is refused here too.
    let in_pattern = |c: char| ('!'..='>').contains(&c) || ('@'..='~').contains(&c);
    let candidates = (0u32..=0x2FF)
        .chain([0x2019, 0x200B, 0xFF20, 0x65E5])
        .filter_map(char::from_u32);
    for c in candidates {
        for address in [format!("a{c}b@example.com"), format!("ab@exa{c}mple.com")] {
            if email(&address).is_ok() {
                assert!(
                    address.chars().all(in_pattern),
                    "{address:?} is taken but the form's pattern refuses it"
                );
            }
        }
    }
}
