//! The words of an x-date (issue 39): the agency's e-mail `xdate_lead_days` before a quote's policy expires, so the
//! agency re-quotes a lead it did not win ("Re-quote Lopez Hauling: policy expires March 5, 2027").

use time::Date;

use super::one_line;
use crate::store::Lead;

/// `March 5, 2027` for `2027-03-05`; `None` for anything that is not such a date.
pub fn long_date(text: &str) -> Option<String> {
    let date = Date::parse(
        text.trim(),
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .ok()?;
    date.format(time::macros::format_description!(
        "[month repr:long] [day padding:none], [year]"
    ))
    .ok()
}

/// The expiration as people read it: the long date, or the stored text when it is not a date.
fn expiration(lead: &Lead) -> String {
    let stored = lead.policy_expiration.as_deref().unwrap_or_default();
    long_date(stored).unwrap_or_else(|| one_line(stored))
}

/// Who to re-quote: the company, else the person's name.
fn who(lead: &Lead) -> String {
    lead.company
        .as_deref()
        .map(one_line)
        .filter(|company| !company.is_empty())
        .unwrap_or_else(|| one_line(&lead.name))
}

/// `Re-quote Lopez Hauling: policy expires March 5, 2027`.
pub fn subject(lead: &Lead) -> String {
    format!(
        "Re-quote {}: policy expires {}",
        who(lead),
        expiration(lead)
    )
}

/// The e-mail's first line: whose policy, with which insurer, expires when, and in how many of the agency's days.
pub fn why(lead: &Lead) -> String {
    let insurer = lead
        .current_insurer
        .as_deref()
        .map(one_line)
        .filter(|insurer| !insurer.is_empty())
        .map(|insurer| format!(" with {insurer}"))
        .unwrap_or_default();
    let left = lead
        .policy_expiration
        .as_deref()
        .and_then(|text| {
            Date::parse(
                text,
                time::macros::format_description!("[year]-[month]-[day]"),
            )
            .ok()
        })
        .map(
            |date| match (date - crate::clock::local_today()).whole_days() {
                0 => " (today)".to_string(),
                1 => " (tomorrow)".to_string(),
                days => format!(" (in {days} days)"),
            },
        )
        .unwrap_or_default();
    format!(
        "The policy of {}{insurer} expires on {}{left}: this quote was not won, re-quote it before then.",
        who(lead),
        expiration(lead)
    )
}

/// Why an x-date queued for `lead` is no longer to be sent, if it is not: the lead was won or erased, its address
/// opted out, or its expiration is no longer the one the x-date was queued for. It would ask to re-quote what is
/// not to be re-quoted.
pub fn withheld(lead: &Lead, standing: &crate::consent::Standing) -> Option<String> {
    if lead.status == crate::store::Status::Won {
        Some("not sent: the lead was won before the x-date went".into())
    } else if lead.erased_at.is_some() {
        Some("not sent: the lead was erased".into())
    } else if let Some(at) = &standing.do_not_contact {
        Some(format!("not sent: this lead's address opted out on {at}"))
    } else if lead.xdate_sent_for != lead.policy_expiration {
        Some("not sent: the policy expiration changed since it was queued".into())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subject_names_the_company_or_the_person_and_the_date_in_words() {
        assert_eq!(long_date("2027-03-05").as_deref(), Some("March 5, 2027"));
        assert_eq!(
            long_date("2027-12-25").as_deref(),
            Some("December 25, 2027")
        );
        assert_eq!(long_date("2027-02-30"), None);
        assert_eq!(long_date("soon"), None);
        let lead = Lead {
            name: "Maria Lopez".into(),
            company: Some("Lopez & Sons Hauling".into()),
            current_insurer: Some("Progressive".into()),
            policy_expiration: Some("2027-03-05".into()),
            ..Lead::default()
        };
        assert_eq!(
            subject(&lead),
            "Re-quote Lopez & Sons Hauling: policy expires March 5, 2027"
        );
        assert!(
            why(&lead).starts_with(
                "The policy of Lopez & Sons Hauling with Progressive expires on March 5, 2027 ("
            ),
            "{}",
            why(&lead)
        );
        let person = Lead {
            company: Some("  ".into()),
            current_insurer: None,
            ..lead
        };
        assert_eq!(
            subject(&person),
            "Re-quote Maria Lopez: policy expires March 5, 2027"
        );
        assert!(why(&person).starts_with("The policy of Maria Lopez expires on March 5, 2027"));
    }

    #[test]
    fn an_x_date_queued_is_withheld_once_the_lead_is_won_erased_opted_out_or_its_date_changed() {
        let lead = Lead {
            policy_expiration: Some("2027-03-05".into()),
            xdate_sent_for: Some("2027-03-05".into()),
            ..Lead::default()
        };
        let standing = crate::consent::Standing::default();
        assert_eq!(withheld(&lead, &standing), None);
        let won = Lead {
            status: crate::store::Status::Won,
            ..lead.clone()
        };
        assert!(withheld(&won, &standing).unwrap().contains("won"));
        let moved = Lead {
            policy_expiration: Some("2027-04-05".into()),
            ..lead.clone()
        };
        assert!(withheld(&moved, &standing).unwrap().contains("changed"));
        let opted_out = crate::consent::Standing {
            do_not_contact: Some("2026-12-01".into()),
            ..Default::default()
        };
        assert!(withheld(&lead, &opted_out).unwrap().contains("opted out"));
    }
}
