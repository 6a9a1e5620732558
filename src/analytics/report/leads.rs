//! The report's leads: those made in the range with their attribution (source, campaign, landing page, device),
//! read from the leads table, and what became of them by the status history: the speed to lead in business minutes
//! and the funnel's counts.

use std::collections::HashMap;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::super::classify::{self, Device};
use super::super::store::day_text;
use super::{Range, SourceSpeed, Speed, SpeedFigures, rate};
use crate::hours::{self, WeekHours};
use crate::store::{Connection, Source as Form, Status, StoreError};

/// A lead as the report sees it.
pub(super) struct LeadSeen {
    pub(super) id: i64,
    pub(super) form: Form,
    pub(super) status: Status,
    /// `created_at`, read; `None` only for a value no release writes.
    pub(super) created: Option<OffsetDateTime>,
    pub(super) day: String,
    pub(super) landing: Option<String>,
    pub(super) source: String,
    pub(super) campaign: String,
    pub(super) device: Device,
}

/// What became of one lead.
pub(super) struct Outcome {
    /// Business minutes to its first change away from `new`, when there is one.
    pub(super) minutes: Option<i64>,
    pub(super) untouched: bool,
    pub(super) contacted: bool,
    pub(super) quoted: bool,
    pub(super) won: bool,
}

impl Outcome {
    pub(super) fn of(lead: &LeadSeen, history: Option<&History>) -> Outcome {
        let first_answer = history.and_then(|history| history.left_new);
        let ever_quoted = history.is_some_and(|history| history.quoted);
        Outcome {
            minutes: lead
                .created
                .zip(first_answer)
                .map(|(created, answered)| hours::business_minutes_between(created, answered)),
            untouched: lead.status == Status::New,
            contacted: lead.status != Status::New || first_answer.is_some(),
            quoted: ever_quoted || matches!(lead.status, Status::Quoted | Status::Won),
            won: lead.status == Status::Won,
        }
    }
}

/// The speed to lead of the leads' `outcomes`, overall and per source.
pub(super) fn speed(outcomes: &[(&LeadSeen, Outcome)], business_day_minutes: i64) -> Speed {
    let figures = |source: Option<&str>| {
        let mut figures = SpeedFigures::default();
        let mut minutes: Vec<i64> = Vec::new();
        for (lead, outcome) in outcomes {
            if source.is_some_and(|source| lead.source != source) {
                continue;
            }
            figures.leads += 1;
            figures.untouched += i64::from(outcome.untouched);
            if let Some(taken) = outcome.minutes {
                minutes.push(taken);
                figures.within_5_minutes += i64::from(taken <= 5);
                figures.within_60_minutes += i64::from(taken <= 60);
                figures.within_1_business_day += i64::from(taken <= business_day_minutes);
            }
        }
        figures.answered = minutes.len() as i64;
        figures.median_minutes = median(&mut minutes);
        figures.share_within_5_minutes = rate(figures.within_5_minutes, figures.leads);
        figures.share_within_60_minutes = rate(figures.within_60_minutes, figures.leads);
        figures.share_within_1_business_day = rate(figures.within_1_business_day, figures.leads);
        figures
    };
    let mut names: Vec<&str> = outcomes
        .iter()
        .map(|(lead, _)| lead.source.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut sources: Vec<SourceSpeed> = names
        .into_iter()
        .map(|source| SourceSpeed {
            source: source.to_string(),
            figures: figures(Some(source)),
        })
        .collect();
    sources.sort_by(|a, b| (b.figures.leads, &a.source).cmp(&(a.figures.leads, &b.source)));
    Speed {
        time_zone: hours::zone_name(),
        business_hours: WeekHours::built().describe(),
        business_day_minutes,
        overall: figures(None),
        sources,
    }
}

/// The median of `values` (the mean of the middle two for an even number); `None` without any.
fn median(values: &mut [i64]) -> Option<f64> {
    values.sort_unstable();
    let middle = values.len() / 2;
    match values.len() {
        0 => None,
        length if length % 2 == 1 => Some(values[middle] as f64),
        _ => Some((values[middle - 1] + values[middle]) as f64 / 2.0),
    }
}

/// What the status history says of one lead.
#[derive(Default)]
pub(super) struct History {
    /// The earliest change away from `new`.
    left_new: Option<OffsetDateTime>,
    /// Whether it was ever changed to `quoted`.
    quoted: bool,
}

/// The status history of the leads made in `range`, by lead. Times are compared parsed: RFC 3339 texts of one second
/// with and without fractions do not sort as their times do.
pub(super) fn history_of(
    connection: &Connection,
    range: Range,
) -> Result<HashMap<i64, History>, StoreError> {
    let after = range.until.next_day().unwrap_or(range.until);
    let mut statement = connection.prepare(
        "SELECT c.lead_id, c.from_status, c.to_status, c.changed_at FROM status_changes c \
         JOIN leads l ON l.id = c.lead_id WHERE l.created_at >= ?1 AND l.created_at < ?2",
    )?;
    let mut rows = statement.query([day_text(range.since), day_text(after)])?;
    let mut history: HashMap<i64, History> = HashMap::new();
    while let Some(row) = rows.next()? {
        let lead: i64 = row.get(0)?;
        let (from, to, changed_at): (String, String, String) =
            (row.get(1)?, row.get(2)?, row.get(3)?);
        let entry = history.entry(lead).or_default();
        entry.quoted |= to == Status::Quoted.as_str();
        if from == Status::New.as_str()
            && let Ok(changed) = OffsetDateTime::parse(&changed_at, &Rfc3339)
        {
            entry.left_new = Some(
                entry
                    .left_new
                    .map_or(changed, |earliest| earliest.min(changed)),
            );
        }
    }
    Ok(history)
}

/// The leads created in `range`, with what the report needs of their attribution.
pub(super) fn leads_in(connection: &Connection, range: Range) -> Result<Vec<LeadSeen>, StoreError> {
    let after = range.until.next_day().unwrap_or(range.until);
    let mut statement = connection.prepare(
        "SELECT source, created_at, landing_page, page_url, referrer, utm_source, utm_campaign, user_agent, id, \
         status FROM leads WHERE created_at >= ?1 AND created_at < ?2",
    )?;
    let rows = statement.query_map([day_text(range.since), day_text(after)], |row| {
        let text = |index: usize| row.get::<_, Option<String>>(index);
        let form: Form = row.get(0)?;
        let created_at: String = row.get(1)?;
        let (landing_page, page_url, referrer) = (text(2)?, text(3)?, text(4)?);
        let (utm_source, utm_campaign, user_agent) = (text(5)?, text(6)?, text(7)?);
        // The lead's own pages name this site: a referrer on one of them is no source.
        let own: Vec<String> = [&landing_page, &page_url]
            .into_iter()
            .flatten()
            .filter_map(|url| classify::host_of(url))
            .collect();
        let referrer = referrer
            .as_deref()
            .and_then(classify::host_of)
            .filter(|host| !own.contains(host));
        let tagged = classify::tag(utm_source.as_deref().unwrap_or(""));
        let source = match (tagged.is_empty(), referrer) {
            (false, _) => tagged,
            (true, Some(host)) => host,
            (true, None) => "direct".to_string(),
        };
        Ok(LeadSeen {
            id: row.get(8)?,
            form,
            status: row.get(9)?,
            created: OffsetDateTime::parse(&created_at, &Rfc3339).ok(),
            day: created_at.chars().take(10).collect(),
            landing: landing_page
                .as_deref()
                .and_then(classify::path_of)
                .or_else(|| page_url.as_deref().and_then(classify::path_of)),
            source,
            campaign: classify::tag(utm_campaign.as_deref().unwrap_or("")),
            device: classify::device(user_agent.as_deref().unwrap_or("")),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
