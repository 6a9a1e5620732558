//! The agency: its facts, once for every language in `facts.toml`, and the words that go with them in each
//! language's `site.toml`. Reads and checks both, refuses a fact in a words file (and words in the facts), and fills
//! in what the web app reads derived from them: the hours' labels, the states' names of the licences and the text of
//! `{claims}`.

use std::path::Path;

use crate::dates::{BuildDate, check_offer_valid_until};
use crate::fields::{is_clock_time, is_e164, is_plain};
use crate::files::read_toml_without;
use crate::fill::FactValues;
use crate::model::{Facts, Hours, Site, SiteWords};
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
/// The days `[[hours]]` may name, in the week's order.
pub(crate) const WEEKDAYS: [&str; 7] = [
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

/// The file of the facts, in the content folder (never translated).
pub(crate) const FACTS_FILE: &str = "facts.toml";

/// The top-level keys of `facts.toml`: in a `site.toml` each is a fact kept in the wrong place.
const FACT_KEYS: [&str; 16] = [
    "brand",
    "short_brand",
    "legal_name",
    "phone",
    "phone_e164",
    "email",
    "base_url",
    "founded",
    "offer_valid_until",
    "address",
    "hours",
    "licenses",
    "claims",
    "social",
    "authors",
    "insurers",
];
/// The top-level keys of `site.toml`: in `facts.toml` each is words kept in the wrong place.
const WORD_KEYS: [&str; 2] = ["description", "hours_labels"];

/// The values of the facts that fill the words' placeholders (`crate::fill`), read from `facts_file` on their own
/// (its problems are reported when [`load`] reads it again); none when it cannot be read.
pub(crate) fn fact_values(facts_file: &Path, today: BuildDate) -> Option<FactValues> {
    let mut quiet = Problems::new(facts_file);
    let misplaced: Vec<(&str, &str)> = WORD_KEYS.iter().map(|key| (*key, "")).collect();
    let facts: Facts = crate::files::read_toml_without(facts_file, &misplaced, &mut quiet)?;
    Some(FactValues::new(&facts, today))
}

/// The agency in one language: the facts of `facts_file` with the words of `words_file`, checked.
pub(crate) fn load(
    facts_file: &Path,
    words_file: &Path,
    today: BuildDate,
    problems: &mut Problems,
) -> Option<Site> {
    // As the messages name it, from the content folder's own name on (`content/facts.toml`).
    let facts_name = facts_file
        .iter()
        .rev()
        .take(2)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<std::path::PathBuf>()
        .display()
        .to_string();
    let fact_here = format!(
        "a fact, the same in every language: it is kept once, in {facts_name}; remove it here"
    );
    let misplaced_facts: Vec<(&str, &str)> = FACT_KEYS
        .iter()
        .map(|key| (*key, fact_here.as_str()))
        .collect();
    let words_here = "words: they belong in site.toml (and its translation, es/site.toml)";
    let misplaced_words: Vec<(&str, &str)> =
        WORD_KEYS.iter().map(|key| (*key, words_here)).collect();
    let facts: Option<Facts> = read_toml_without(facts_file, &misplaced_words, problems);
    let words: Option<SiteWords> = read_toml_without(words_file, &misplaced_facts, problems);
    let (facts, words) = (facts?, words?);
    problems.check(words.hours_labels.len() == facts.hours.len(), words_file, || {
        format!(
            "field `hours_labels`: {} labels; {facts_name} has {} [[hours]], one label each, in their order",
            words.hours_labels.len(),
            facts.hours.len()
        )
    });
    let hours = facts
        .hours
        .into_iter()
        .zip(words.hours_labels)
        .map(|(hours, label)| Hours {
            label,
            days: hours.days,
            opens: hours.opens,
            closes: hours.closes,
        })
        .collect();
    let mut site = Site {
        short_brand: facts.short_brand.unwrap_or_else(|| facts.brand.clone()),
        brand: facts.brand,
        legal_name: facts.legal_name,
        description: words.description,
        phone: facts.phone,
        phone_e164: facts.phone_e164,
        email: facts.email,
        base_url: facts.base_url,
        founded: facts.founded,
        offer_valid_until: facts.offer_valid_until,
        address: facts.address,
        hours,
        licenses: facts.licenses,
        claims: facts.claims,
        claims_text: String::new(),
        social: facts.social,
        insurers: facts.insurers,
        authors: facts.authors,
    };
    check(&mut site, today, facts_file, problems);
    Some(site)
}

/// Checks the facts (`file` is `facts.toml`), and fills in the licences' state names and `{claims}`.
fn check(site: &mut Site, today: BuildDate, file: &Path, problems: &mut Problems) {
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
    for (index, hours) in site.hours.iter().enumerate() {
        let line = index + 1;
        for day in &hours.days {
            problems.check(WEEKDAYS.contains(&day.as_str()), file, || {
                format!("[[hours]] {line}: unknown day {day:?}")
            });
        }
        for time in [&hours.opens, &hours.closes].into_iter().flatten() {
            problems.check(is_clock_time(time), file, || {
                format!("[[hours]] {line}: {time:?} is not a 24-hour time like 08:00")
            });
        }
        problems.check(
            hours.opens.is_some() == hours.closes.is_some(),
            file,
            || format!("[[hours]] {line}: give both `opens` and `closes`, or neither (closed)"),
        );
    }
    let mut insurer_ids = std::collections::BTreeSet::new();
    for insurer in &site.insurers {
        let id = &insurer.id;
        problems.check(
            id != contract::forms::claim::INSURER_NOT_SURE
                && contract::forms::claim::is_insurer_value(id),
            file,
            || format!("[[insurers]] id {id:?}: lower-case words joined by hyphens, like great-plains-mutual"),
        );
        problems.check(insurer_ids.insert(id.as_str()), file, || {
            format!("[[insurers]] id {id:?}: named twice")
        });
        problems.check(
            !insurer.name.trim().is_empty() && is_plain(&insurer.name),
            file,
            || {
                format!(
                    "[[insurers]] {id}: field `name`: give the company's name, without < > & or {{"
                )
            },
        );
        problems.check(
            !insurer.claims_phone.trim().is_empty() && is_plain(&insurer.claims_phone),
            file,
            || format!("[[insurers]] {id}: field `claims_phone`: write it as people dial it, e.g. (800) 555-0100"),
        );
        problems.check(is_e164(&insurer.claims_phone_e164), file, || {
            format!("[[insurers]] {id}: field `claims_phone_e164`: must look like +18005550100")
        });
        problems.check(insurer.claims_url.starts_with("https://"), file, || {
            format!("[[insurers]] {id}: field `claims_url`: must be an https:// address")
        });
    }
    let mut authors = std::collections::BTreeSet::new();
    for author in &site.authors {
        problems.check(
            !author.name.trim().is_empty() && is_plain(&author.name),
            file,
            || "[[authors]] field `name`: give the author's name, without < > & or {".into(),
        );
        problems.check(authors.insert(author.name.as_str()), file, || {
            format!("[[authors]] {:?}: named twice", author.name)
        });
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
