//! Vehicle identification numbers (ISO 3779, with the North American check digit of 49 CFR 565): their shape and
//! check digit, for the policy change's vehicles and trailers.

/// A VIN's length since model year 1981.
pub const VIN_LENGTH: usize = 17;

pub(crate) const WRONG_CHECK_DIGIT: &str = "This VIN's check digit (the 9th character) does not match the others: please check each character";

/// Whether `vin` has a VIN's shape: 17 letters and digits, without I, O or Q (which would read as 1 and 0). Any
/// case. The check digit is [`vin_check_digit_ok`]'s.
pub fn is_vin(vin: &str) -> bool {
    vin.len() == VIN_LENGTH && vin.chars().all(|c| vin_value(c).is_some())
}

/// Whether the 9th character of a VIN-shaped `vin` is its check digit: each character's value (a digit its own,
/// a letter its transliteration) times its position's weight, summed, modulo 11, with 10 written `X`. `false`
/// for anything not shaped like a VIN.
pub fn vin_check_digit_ok(vin: &str) -> bool {
    if !is_vin(vin) {
        return false;
    }
    let sum: u32 = vin
        .chars()
        .zip(VIN_WEIGHTS)
        .map(|(c, weight)| vin_value(c).unwrap_or(0) * weight)
        .sum();
    let expected = match sum % 11 {
        10 => 'X',
        digit => char::from_digit(digit, 10).unwrap_or('?'),
    };
    vin.chars().nth(8).map(|c| c.to_ascii_uppercase()) == Some(expected)
}

/// Each position's weight in the check digit's sum; the check digit's own position weighs nothing.
pub(crate) const VIN_WEIGHTS: [u32; VIN_LENGTH] =
    [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/// A VIN character's value: a digit its own, a letter its transliteration (A-H 1-8, J-N 1-5, P 7, R 9, S-Z 2-9:
/// the letters' order, skipping I, O and Q, wrapping at 9). `None` for I, O, Q and anything else.
pub(crate) fn vin_value(c: char) -> Option<u32> {
    let value = match c.to_ascii_uppercase() {
        digit @ '0'..='9' => digit as u32 - '0' as u32,
        letter @ 'A'..='H' => letter as u32 - 'A' as u32 + 1,
        letter @ 'J'..='N' => letter as u32 - 'J' as u32 + 1,
        'P' => 7,
        'R' => 9,
        letter @ 'S'..='Z' => letter as u32 - 'S' as u32 + 2,
        _ => return None,
    };
    Some(value)
}
