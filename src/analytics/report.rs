//! The owner's report: the visit counts ([`super::store`]) and the leads (with the attribution each lead keeps)
//! over a range of days, joined by landing page, source, campaign and device, as one value that
//! [`super::render`] and [`super::html`] print.
//!
//! Visitors are counted per day (the salt changes every day), so over a range a person who came on three days is
//! three visitors. A lead's source is its `utm_source`, else the host of the other site its visit came from, else
//! `direct`, as for visits; its page is the path of its landing page (else of the page it was sent from).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use time::{Date, Duration};

use super::classify::{self, Device};
use super::store::{self, Count, Dimension, day_text};
use crate::leads::store::{Connection, DbPool, Source as Form, StoreError};

/// The days counted, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub since: Date,
    pub until: Date,
}

impl Range {
    /// The `days` days up to and including `until`.
    pub fn last(days: i64, until: Date) -> Range {
        Range {
            since: until.saturating_sub(Duration::days(days - 1)),
            until,
        }
    }

    /// The number of days, both ends included.
    pub fn length(&self) -> i64 {
        (self.until - self.since).whole_days() + 1
    }

    fn days(&self) -> impl Iterator<Item = Date> {
        let until = self.until;
        std::iter::successors(Some(self.since), move |day| {
            day.next_day().filter(|next| *next <= until)
        })
    }
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub totals: Totals,
    pub pages: Vec<PageRow>,
    pub sources: Vec<SourceRow>,
    pub campaigns: Vec<CampaignRow>,
    pub devices: Vec<DeviceRow>,
    pub days: Vec<DayRow>,
}

#[derive(Debug, Serialize)]
pub struct Totals {
    pub since: String,
    pub until: String,
    pub visitors: i64,
    pub pageviews: i64,
    pub leads: i64,
    /// Leads by the form they came from (`quote`, `contact`, and any form added later).
    pub leads_by_form: BTreeMap<&'static str, i64>,
    /// Leads per visitor; `null` without visitors.
    pub conversion_rate: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct PageRow {
    pub path: String,
    pub pageviews: i64,
    pub visitors: i64,
    /// Leads whose visit began on this page.
    pub leads: i64,
}

#[derive(Debug, Serialize)]
pub struct SourceRow {
    pub source: String,
    pub visitors: i64,
    pub leads: i64,
    pub conversion_rate: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct CampaignRow {
    pub campaign: String,
    pub visitors: i64,
    pub leads: i64,
    pub conversion_rate: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct DeviceRow {
    pub device: &'static str,
    pub visitors: i64,
    pub pageviews: i64,
    pub leads: i64,
}

#[derive(Debug, Serialize)]
pub struct DayRow {
    pub day: String,
    pub visitors: i64,
    pub pageviews: i64,
    pub leads: i64,
}

/// A lead as the report sees it.
struct LeadSeen {
    form: Form,
    day: String,
    landing: Option<String>,
    source: String,
    campaign: String,
    device: Device,
}

/// Leads per visitor, to 4 decimals; `None` without visitors.
fn rate(leads: i64, visitors: i64) -> Option<f64> {
    (visitors > 0).then(|| (leads as f64 / visitors as f64 * 10_000.0).round() / 10_000.0)
}

/// The report over `range`.
pub fn build(pool: &DbPool, range: Range) -> Result<Report, StoreError> {
    let connection = pool.get()?;
    let (since, until) = (day_text(range.since), day_text(range.until));
    let leads = leads_in(&connection, range)?;
    let counts = |dimension: &Dimension| store::counts(&connection, dimension, &since, &until);
    let per_value = |counts: Vec<Count>| {
        let mut sums: HashMap<String, (i64, i64)> = HashMap::new();
        for count in counts {
            let sum = sums.entry(count.value).or_default();
            sum.0 += count.views;
            sum.1 += count.visitors;
        }
        sums
    };
    let tally = |key: &dyn Fn(&LeadSeen) -> Option<String>| {
        let mut tally: HashMap<String, i64> = HashMap::new();
        for lead in &leads {
            if let Some(key) = key(lead) {
                *tally.entry(key).or_default() += 1;
            }
        }
        tally
    };

    let per_day = per_value(
        counts(&store::TOTAL)?
            .into_iter()
            .map(|count| Count {
                value: count.day.clone(),
                ..count
            })
            .collect(),
    );
    let leads_per_day = tally(&|lead| Some(lead.day.clone()));
    let days: Vec<DayRow> = range
        .days()
        .map(|day| {
            let day = day_text(day);
            let (pageviews, visitors) = per_day.get(&day).copied().unwrap_or_default();
            DayRow {
                leads: leads_per_day.get(&day).copied().unwrap_or_default(),
                day,
                visitors,
                pageviews,
            }
        })
        .collect();

    let visitors = days.iter().map(|day| day.visitors).sum();
    let pageviews = days.iter().map(|day| day.pageviews).sum();
    let mut leads_by_form: BTreeMap<&'static str, i64> =
        Form::ALL.iter().map(|form| (form.as_str(), 0)).collect();
    for lead in &leads {
        *leads_by_form.entry(lead.form.as_str()).or_default() += 1;
    }
    let lead_count = leads.len() as i64;
    let totals = Totals {
        since: since.clone(),
        until: until.clone(),
        visitors,
        pageviews,
        leads: lead_count,
        leads_by_form,
        conversion_rate: rate(lead_count, visitors),
    };

    let mut page_counts = per_value(counts(&store::PAGE)?);
    let page_leads = tally(&|lead| lead.landing.clone());
    for path in page_leads.keys() {
        page_counts.entry(path.clone()).or_default();
    }
    let mut pages: Vec<PageRow> = page_counts
        .into_iter()
        .map(|(path, (pageviews, visitors))| PageRow {
            leads: page_leads.get(&path).copied().unwrap_or_default(),
            path,
            pageviews,
            visitors,
        })
        .collect();
    pages.sort_by(|a, b| (b.pageviews, b.leads, &a.path).cmp(&(a.pageviews, a.leads, &b.path)));

    let sources = joined(
        per_value(counts(&store::SOURCE)?),
        tally(&|lead| Some(lead.source.clone())),
    )
    .into_iter()
    .map(|(source, visitors, leads)| SourceRow {
        source,
        visitors,
        leads,
        conversion_rate: rate(leads, visitors),
    })
    .collect();
    let campaigns = joined(
        per_value(counts(&store::CAMPAIGN)?),
        tally(&|lead| (!lead.campaign.is_empty()).then(|| lead.campaign.clone())),
    )
    .into_iter()
    .map(|(campaign, visitors, leads)| CampaignRow {
        campaign,
        visitors,
        leads,
        conversion_rate: rate(leads, visitors),
    })
    .collect();

    let device_counts = per_value(counts(&store::DEVICE)?);
    let device_leads = tally(&|lead| Some(lead.device.as_str().to_string()));
    let devices = Device::ALL
        .iter()
        .map(|device| {
            let (pageviews, visitors) = device_counts
                .get(device.as_str())
                .copied()
                .unwrap_or_default();
            DeviceRow {
                device: device.as_str(),
                visitors,
                pageviews,
                leads: device_leads
                    .get(device.as_str())
                    .copied()
                    .unwrap_or_default(),
            }
        })
        .collect();

    Ok(Report {
        totals,
        pages,
        sources,
        campaigns,
        devices,
        days,
    })
}

/// Visitors and leads per name, for every name with either, most visitors first (then most leads, then by name).
fn joined(
    counts: HashMap<String, (i64, i64)>,
    leads: HashMap<String, i64>,
) -> Vec<(String, i64, i64)> {
    let mut names: Vec<String> = counts.keys().chain(leads.keys()).cloned().collect();
    names.sort();
    names.dedup();
    let mut rows: Vec<(String, i64, i64)> = names
        .into_iter()
        .map(|name| {
            let visitors = counts.get(&name).map_or(0, |(_, visitors)| *visitors);
            let leads = leads.get(&name).copied().unwrap_or_default();
            (name, visitors, leads)
        })
        .collect();
    rows.sort_by(|a, b| (b.1, b.2, &a.0).cmp(&(a.1, a.2, &b.0)));
    rows
}

/// The leads created in `range`, with what the report needs of their attribution.
fn leads_in(connection: &Connection, range: Range) -> Result<Vec<LeadSeen>, StoreError> {
    let after = range.until.next_day().unwrap_or(range.until);
    let mut statement = connection.prepare(
        "SELECT source, created_at, landing_page, page_url, referrer, utm_source, utm_campaign, user_agent \
         FROM leads WHERE created_at >= ?1 AND created_at < ?2",
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
            form,
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
