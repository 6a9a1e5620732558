//! The business hours as the server counts them: the `[[hours]]` of `facts.toml` written as the lines src/hours.rs
//! reads, `Monday 08:00 18:00` for each opening of a day (in the week's order) and `Sunday closed` for a day without
//! one; `closes = "00:00"` is midnight, written `24:00`.

use std::path::Path;

use crate::model::Hours;
use crate::problems::Problems;
use crate::site::WEEKDAYS;

/// The text of the server's hours. The site's checks have made sure of the days' names and the times' form; an
/// opening that closes before it opens (over midnight) is not one the counting understands, so it is a problem of
/// `facts_file` (and `None`).
pub(crate) fn business_hours(
    hours: &[Hours],
    facts_file: &Path,
    problems: &mut Problems,
) -> Option<String> {
    let mut text = String::from(
        "# The agency's business hours, from content/facts.toml (written by build.rs, read by src/hours.rs).\n",
    );
    let mut fits = true;
    for day in WEEKDAYS {
        let mut openings: Vec<(String, String)> = hours
            .iter()
            .filter(|entry| entry.days.iter().any(|named| named == day))
            .filter_map(|entry| Some((entry.opens.clone()?, entry.closes.clone()?)))
            .map(|(opens, closes)| match closes.as_str() {
                "00:00" => (opens, "24:00".to_string()),
                _ => (opens, closes),
            })
            .collect();
        openings.sort();
        if let Some((opens, closes)) = openings.iter().find(|(opens, closes)| closes <= opens) {
            problems.add(
                facts_file,
                format!(
                    "hours of {day}: opens {opens} and closes {closes}; give a closing time after the opening \
                     (00:00 for midnight), or split hours past midnight over two days"
                ),
            );
            fits = false;
        }
        if openings.is_empty() {
            text.push_str(&format!("{day} closed\n"));
        }
        for (opens, closes) in openings {
            text.push_str(&format!("{day} {opens} {closes}\n"));
        }
    }
    fits.then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opening(days: &[&str], opens: &str, closes: &str) -> Hours {
        Hours {
            label: String::new(),
            days: days.iter().map(|d| d.to_string()).collect(),
            opens: Some(opens.into()),
            closes: Some(closes.into()),
        }
    }

    #[test]
    fn each_day_in_order_with_midnight_as_24_00() {
        let mut problems = Problems::new(Path::new("content"));
        let text = business_hours(
            &[
                opening(&["Tuesday", "Monday"], "08:00", "18:00"),
                opening(&["Saturday"], "10:00", "00:00"),
            ],
            Path::new("content/facts.toml"),
            &mut problems,
        )
        .expect("fits");
        let lines: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(
            lines,
            [
                "Monday 08:00 18:00",
                "Tuesday 08:00 18:00",
                "Wednesday closed",
                "Thursday closed",
                "Friday closed",
                "Saturday 10:00 24:00",
                "Sunday closed"
            ]
        );
        assert!(problems.is_empty());
    }

    #[test]
    fn hours_over_midnight_are_a_problem_of_the_facts() {
        let mut problems = Problems::new(Path::new("content"));
        let text = business_hours(
            &[opening(&["Friday"], "22:00", "02:00")],
            Path::new("content/facts.toml"),
            &mut problems,
        );
        assert_eq!(text, None);
        assert_eq!(
            problems.into_vec(),
            [
                "content/facts.toml: hours of Friday: opens 22:00 and closes 02:00; give a closing time after the \
              opening (00:00 for midnight), or split hours past midnight over two days"
            ]
        );
    }
}
