//! `site.toml`: the agency's facts. Checks them, and fills in what the web app reads derived from them: the states'
//! names of the licences and the text of `{claims}`.

use std::path::Path;

use crate::dates::{BuildDate, check_offer_valid_until};
use crate::fields::{is_clock_time, is_e164, is_plain};
use crate::model::Site;
use crate::placeholders::claims_text;
use crate::problems::Problems;

/// The states and DC by postal code, for licences and the structured data's `areaServed`.
const US_STATES: [(&str, &str); 51] = [
    ("AL", "Alabama"),
    ("AK", "Alaska"),
    ("AZ", "Arizona"),
    ("AR", "Arkansas"),
    ("CA", "California"),
    ("CO", "Colorado"),
    ("CT", "Connecticut"),
    ("DE", "Delaware"),
    ("DC", "District of Columbia"),
    ("FL", "Florida"),
    ("GA", "Georgia"),
    ("HI", "Hawaii"),
    ("ID", "Idaho"),
    ("IL", "Illinois"),
    ("IN", "Indiana"),
    ("IA", "Iowa"),
    ("KS", "Kansas"),
    ("KY", "Kentucky"),
    ("LA", "Louisiana"),
    ("ME", "Maine"),
    ("MD", "Maryland"),
    ("MA", "Massachusetts"),
    ("MI", "Michigan"),
    ("MN", "Minnesota"),
    ("MS", "Mississippi"),
    ("MO", "Missouri"),
    ("MT", "Montana"),
    ("NE", "Nebraska"),
    ("NV", "Nevada"),
    ("NH", "New Hampshire"),
    ("NJ", "New Jersey"),
    ("NM", "New Mexico"),
    ("NY", "New York"),
    ("NC", "North Carolina"),
    ("ND", "North Dakota"),
    ("OH", "Ohio"),
    ("OK", "Oklahoma"),
    ("OR", "Oregon"),
    ("PA", "Pennsylvania"),
    ("RI", "Rhode Island"),
    ("SC", "South Carolina"),
    ("SD", "South Dakota"),
    ("TN", "Tennessee"),
    ("TX", "Texas"),
    ("UT", "Utah"),
    ("VT", "Vermont"),
    ("VA", "Virginia"),
    ("WA", "Washington"),
    ("WV", "West Virginia"),
    ("WI", "Wisconsin"),
    ("WY", "Wyoming"),
];
/// The days `[[hours]]` may name.
const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The networks `[social]` may link to.
const SOCIAL_NETWORKS: [&str; 5] = ["facebook", "instagram", "linkedin", "x", "youtube"];

pub(crate) fn check(site: &mut Site, today: BuildDate, file: &Path, problems: &mut Problems) {
    for license in &mut site.licenses {
        match US_STATES.iter().find(|(code, _)| *code == license.state) {
            Some((_, name)) => license.state_name = (*name).to_string(),
            None => problems.add(
                file,
                format!(
                    "[[licenses]] state {:?}: not a US state's two-letter code like TX",
                    license.state
                ),
            ),
        }
    }
    problems.check(!site.licenses.is_empty(), file, || {
        "[[licenses]]: name at least one state the agency is licensed in (structured data's areaServed)".into()
    });
    if let Some(claims) = &site.claims {
        // Both go into text and HTML alike through `{claims}` (see `crate::placeholders`).
        problems.check(
            !claims.name.trim().is_empty() && is_plain(&claims.name),
            file,
            || "[claims] field `name`: give the line's name, without < > & or {".into(),
        );
        problems.check(is_plain(&claims.phone), file, || {
            "[claims] field `phone`: write it as people dial it, e.g. (555) 010-0199".into()
        });
        problems.check(is_e164(&claims.phone_e164), file, || {
            "[claims] field `phone_e164`: must look like +15550100142".into()
        });
    }
    check_offer_valid_until(&site.offer_valid_until, today, file, problems);
    site.claims_text = claims_text(site.claims.as_ref());
    problems.check(
        site.base_url.starts_with("https://") || site.base_url.starts_with("http://"),
        file,
        || "field `base_url`: must start with https:// or http://".into(),
    );
    problems.check(!site.base_url.ends_with('/'), file, || {
        "field `base_url`: must not end with a slash".into()
    });
    problems.check(is_e164(&site.phone_e164), file, || {
        "field `phone_e164`: must look like +15550100142".into()
    });
    problems.check(site.email.contains('@'), file, || {
        "field `email`: not an e-mail address".into()
    });
    for hours in &site.hours {
        for day in &hours.days {
            problems.check(WEEKDAYS.contains(&day.as_str()), file, || {
                format!("hours `{}`: unknown day {day:?}", hours.label)
            });
        }
        for time in [&hours.opens, &hours.closes].into_iter().flatten() {
            problems.check(is_clock_time(time), file, || {
                format!(
                    "hours `{}`: {time:?} is not a 24-hour time like 08:00",
                    hours.label
                )
            });
        }
        problems.check(
            hours.opens.is_some() == hours.closes.is_some(),
            file,
            || {
                format!(
                    "hours `{}`: give both `opens` and `closes`, or neither (closed)",
                    hours.label
                )
            },
        );
    }
    for (network, url) in &site.social {
        problems.check(SOCIAL_NETWORKS.contains(&network.as_str()), file, || {
            format!("[social]: unknown network {network:?}")
        });
        problems.check(url.starts_with("https://"), file, || {
            format!("[social] {network}: {url:?} must be an https:// address")
        });
    }
}
